"""Campaign: a solo tabletop RPG told by three directors who see three slices of one state.

The story director sees everything and writes synopses; the scene director sees only the
synopsis and the public PC sheet, narrates, then plays each NPC present in its own
decision, holding that NPC's sheet and memories and no other's; the game director routes
turns and asks for d20 checks the engine rolls. What the directors write crosses a gate
(``gates.py``) before it reaches anyone entitled to less.
"""

from collections.abc import Mapping
from typing import Any

from parlour.core.metrics import GameMetrics, generic_facts
from parlour.core.module import GameModule
from parlour.core.surface_hooks import ContentKind, FlagContext, FlagEffect, PlayFlag
from parlour.games.campaign.config import CampaignConfig, make_config
from parlour.games.campaign.content import Campaign, CampaignError
from parlour.games.campaign.game import CampaignGame
from parlour.games.campaign.loader import load_campaign, parse_campaign, shipped_names
from parlour.games.campaign.policies import campaign_fallback, campaign_policy
from parlour.games.campaign.prompts import CampaignPrompter
from parlour.games.campaign.talk_lines import talk_lines


def _commands() -> Any:
    """``parlour campaign validate|recap`` (imported only when the CLI mounts them)."""
    from parlour.games.campaign.surface.cli import campaign_app

    return campaign_app


def _apply_flags(values: Mapping[str, str], context: FlagContext) -> FlagEffect:
    """``--player-model SPEC``: who plays the PC, a seat override like ``--seat``."""
    spec = values.get("player-model")
    return FlagEffect(seats=(f"player={spec}",) if spec is not None else ())


MODULE = GameModule(
    game=CampaignGame,
    policy=campaign_policy,
    prompter=CampaignPrompter(),
    make_config=make_config,
    fallback=campaign_fallback,
    content=(
        ContentKind(
            flag="campaign",
            key="campaign",
            help="campaign: a shipped campaign name or a .yaml",
            shipped=shipped_names,
        ),
    ),
    flags=(
        PlayFlag(
            "player-model",
            "campaign: who plays the PC (a spec)",
            commands=frozenset({"watch"}),
        ),
    ),
    apply_flags=_apply_flags,
    # A small model answers in acts the game words (acts.py), the directors and a PC it
    # plays alike: asked to write, the embedded model's director text was mostly refused
    # (instruction debris, tags, cut-off words) and the fallback spoke (docs/benchmarks.md).
    small_model_options=lambda seats: {"act_seats": list(seats)},
    small_system_options=lambda seats: {"act_seats": list(seats)},
    commands=_commands,
    metrics=GameMetrics(generic_facts, talk=talk_lines),
)

__all__ = [
    "MODULE",
    "Campaign",
    "CampaignConfig",
    "CampaignError",
    "CampaignGame",
    "load_campaign",
    "make_config",
    "parse_campaign",
    "shipped_names",
]

"""Campaign: a solo tabletop RPG told by three directors who see three slices of one state.

The story director sees everything and writes synopses; the scene director sees only the
synopsis, the public PC sheet and the sheets and memories of the NPCs present, and plays
them; the game director routes turns and asks for d20 checks the engine rolls.
"""

from parlour.core.module import GameModule
from parlour.games.campaign.config import CampaignConfig, make_config
from parlour.games.campaign.content import Campaign, CampaignError
from parlour.games.campaign.game import CampaignGame
from parlour.games.campaign.loader import load_campaign, parse_campaign, shipped_names
from parlour.games.campaign.policies import campaign_fallback, campaign_policy
from parlour.games.campaign.prompts import CampaignPrompter

MODULE = GameModule(
    game=CampaignGame,
    policy=campaign_policy,
    prompter=CampaignPrompter(),
    make_config=make_config,
    fallback=campaign_fallback,
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

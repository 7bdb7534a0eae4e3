"""Shared helpers: scripted sessions and the marker scan of what a seat was given."""

from __future__ import annotations

from collections.abc import Callable

from parlour.core.conformance import texts_in
from parlour.core.rng import Rng
from parlour.games.campaign import MODULE, CampaignGame, make_config
from parlour.games.campaign.policies import campaign_policy

Hook = Callable[[CampaignGame, int], None]


def scripted_game(
    seed: int, *, campaign: str = "night_school", each_step: Hook | None = None, **options: object
) -> CampaignGame:
    """Play a whole campaign with the scripted player and scripted directors."""
    config = make_config(None, {"campaign": campaign, **options})
    game = CampaignGame(config, seed)
    rng = Rng(seed + 1)
    for step in range(5_000):
        if each_step is not None:
            each_step(game, step)
        if game.is_terminal():
            return game
        decision = game.pending()[0]
        game.apply(decision.id, campaign_policy(game.view(decision.seat), decision, rng))
    raise AssertionError(f"seed {seed}: no end after 5000 steps")


def forbidden(game: CampaignGame, seat: str, given: object) -> list[str]:
    """Markers in ``given`` that ``seat`` is not entitled to now."""
    text = "\n".join(texts_in(given))
    return sorted(
        m for m, allowed in game.secret_markers().items() if seat not in allowed and m in text
    )


__all__ = ["MODULE", "forbidden", "scripted_game"]

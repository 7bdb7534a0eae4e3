"""Campaign's typed decision context: the game puts a ``CampaignAsk`` under its own key
and every read goes through ``CampaignAsk.of``, which validates it."""

from __future__ import annotations

import pytest

from parlour.core.decisions import Decision
from parlour.core.errors import ParlourError
from parlour.games.campaign.ask import CampaignAsk, WordingAsk
from parlour.games.campaign.game import CampaignGame
from parlour.games.campaign.requests import review_decision
from parlour.games.campaign.risks import risk_of

from .helpers import scripted_game


def test_route_and_sheet_decisions_carry_their_typed_ask() -> None:
    asked: list[Decision] = []

    def keep(game: CampaignGame, step: int) -> None:
        if game.pending() and game.pending()[0].purpose in ("route", "sheet"):
            d = game.pending()[0]
            asked.append(d)
            if d.purpose == "route":
                message = game.view(d.seat).public.message
                ask = CampaignAsk.of(d)
                assert ask.message == message and ask.npc == ""
                # the risk is the engine's rule on that very message, nothing else
                risk = risk_of(message or "", game.campaign)
                held = (risk.skill, risk.difficulty, risk.reason) if risk else ("", "", "")
                assert (ask.risk_skill, ask.risk_difficulty, ask.risk_reason) == held
            else:
                assert CampaignAsk.of(d) == CampaignAsk(npc=d.id.rsplit(":", 1)[1])

    scripted_game(3, sessions=1, turns_per_session=2, each_step=keep)
    assert {d.purpose for d in asked} == {"route", "sheet"}
    # (and, in a new game, the wording ask: ``WordingAsk``)
    assert all(set(d.context) - {WordingAsk.KEY} == {CampaignAsk.KEY} for d in asked)


def test_a_malformed_or_missing_ask_is_refused() -> None:
    def decision(context: dict[str, object]) -> Decision:
        return review_decision("d").model_copy(update={"context": context})

    with pytest.raises(ParlourError, match="invalid CampaignAsk"):
        CampaignAsk.of(decision({CampaignAsk.KEY: {"mesage": "typo"}}))
    with pytest.raises(ParlourError, match="invalid CampaignAsk"):
        CampaignAsk.of(decision({CampaignAsk.KEY: {"npc": 3}}))
    with pytest.raises(ParlourError, match="carries no CampaignAsk"):
        CampaignAsk.of(decision({}))

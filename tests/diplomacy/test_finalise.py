"""The scripted bot's final orders: re-planned once the talk is done, blind to the powers
it agreed peace or alliance with, and never breaking a deal its floor kept."""

from __future__ import annotations

from parlour.core.actions import Structured
from parlour.core.rng import Rng
from parlour.games.diplomacy import MODULE
from parlour.games.diplomacy.ask import DiplomacyAsk
from parlour.games.diplomacy.bot_policy import friends_of
from parlour.games.diplomacy.bot_protocol import FINALISE
from parlour.games.diplomacy.config import DiplomacyConfig
from parlour.games.diplomacy.deals import breach
from parlour.games.diplomacy.game import DiplomacyGame
from parlour.games.diplomacy.proposals import term_of
from parlour.games.diplomacy.views import board_of

SEVEN = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def test_final_orders_use_the_peace_and_keep_every_deal_the_floor_kept() -> None:
    cfg = DiplomacyConfig(bots=SEVEN, end_year=1903, press_rounds=1, bots_talk_to_bots=True)
    game = DiplomacyGame.new(cfg, 8)
    finals = changed = 0
    n = 0
    while not game.is_terminal():
        d = game.pending()[0]
        view = game.view(d.seat)
        action = MODULE.policy(view, d, Rng(n))
        if d.purpose == FINALISE:
            finals += 1
            assert isinstance(action, Structured) and d.default is not None
            ask = DiplomacyAsk.of(d)
            floor = {u: ask.options[u][i] for u, i in ask.floor.items()}
            final = {u: ask.options[u][i] for u, i in action.value.items()}
            if final != floor:
                changed += 1
                assert friends_of(view)  # only a pact in force changes the plan
            bot = view.private.bot
            assert bot is not None
            board = board_of(view)
            for deal in bot.deals:
                term = term_of(dict(deal.term))
                if deal.by != d.seat or view.phase not in deal.phases or isinstance(term, str):
                    continue
                if not breach(term, d.seat, deal.with_, board, floor.values()):
                    assert not breach(term, d.seat, deal.with_, board, final.values()), deal
        game.apply(d.id, action)
        n += 1
    assert finals >= 30
    assert changed >= 10  # the talk did change orders, so the checks above were exercised

"""The scripted bot's final orders: re-planned once the talk is done, blind to the powers
it agreed peace or alliance with, never breaking a deal its floor kept, giving every
support it agreed to give and making every move a partner agreed to support."""

from __future__ import annotations

from parlour.core.actions import Structured
from parlour.core.rng import Rng
from parlour.games.diplomacy import MODULE
from parlour.games.diplomacy.ask import DiplomacyAsk
from parlour.games.diplomacy.board import Board, make_board
from parlour.games.diplomacy.bot_policy import friends_of, lends, support_wanted, supports_now
from parlour.games.diplomacy.bot_protocol import FINALISE
from parlour.games.diplomacy.config import DiplomacyConfig
from parlour.games.diplomacy.deals import breach
from parlour.games.diplomacy.game import DiplomacyGame
from parlour.games.diplomacy.map import standard_map
from parlour.games.diplomacy.orders import Move, parse_order
from parlour.games.diplomacy.proposals import Support, term_of
from parlour.games.diplomacy.views import board_of

SEVEN = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def test_final_orders_use_the_peace_and_keep_every_deal_the_floor_kept() -> None:
    cfg = DiplomacyConfig(bots=SEVEN, end_year=1903, press_rounds=1, bots_talk_to_bots=True)
    game = DiplomacyGame.new(cfg, 8)
    finals = changed = given = helped = 0
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
            supports = supports_now(view)
            if final != floor:
                changed += 1
                assert friends_of(view) or supports  # only a pact or a support changes it
            board_now = board_of(view)
            for deal, term in supports:
                if deal.by == d.seat:  # ours to give: given
                    given += 1
                    assert not breach(term, d.seat, deal.with_, board_now, final.values())
                else:  # a partner's support of our move: the move is made
                    helped += 1
                    mover = board_now.unit_at(term.from_)
                    assert mover is not None
                    order = parse_order(final[mover.text])
                    assert isinstance(order, Move) and order.dest.province == term.to
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
    assert given >= 1 and helped >= 1, (given, helped)


def _board() -> Board:
    """Spring 1902: Austria's A SER faces Turkey's A BUL; Russia's F RUM and A UKR stand by."""
    return make_board(
        standard_map(),
        "S1902M",
        {
            "AUSTRIA": ["A SER", "A BUD", "F TRI"],
            "RUSSIA": ["F RUM", "A UKR", "A GAL"],
            "TURKEY": ["A BUL", "F CON"],
            "ITALY": ["A VEN"],
        },
        {
            "AUSTRIA": ["VIE", "BUD", "TRI", "SER"],
            "RUSSIA": ["MOS", "WAR", "STP", "SEV", "RUM"],
            "TURKEY": ["ANK", "CON", "SMY", "BUL"],
            "ITALY": ["ROM", "NAP", "VEN"],
        },
    )


def test_a_support_is_asked_of_a_partner_unit_that_can_give_it_never_against_the_partner() -> None:
    board = _board()
    # Austria attacks Turkey's army in Bulgaria: Russia's fleet in Rumania can support it
    assert support_wanted(board, "AUSTRIA", ["A SER - BUL"], "RUSSIA") == Support(
        "F RUM", "SER", "BUL"
    )
    # the same attack is never put to Turkey, whose unit it would dislodge
    assert support_wanted(board, "AUSTRIA", ["A SER - BUL"], "TURKEY") is None
    # a move into the partner's own centre is never asked for
    assert support_wanted(board, "AUSTRIA", ["A BUD - RUM"], "RUSSIA") is None
    # a hold needs no help
    assert support_wanted(board, "AUSTRIA", ["A SER H"], "RUSSIA") is None


def test_a_support_is_lent_only_by_an_idle_unit_and_never_against_us_or_a_friend() -> None:
    board = _board()
    into_bul = Support("F RUM", "SER", "BUL")
    assert lends(board, "RUSSIA", into_bul, ["F RUM H"], frozenset())
    # the fleet's own plan takes a centre (Bulgaria itself): it is busy
    assert not lends(board, "RUSSIA", into_bul, ["F RUM - BUL"], frozenset())
    # Turkey is a friend of Russia's: no support against it
    assert not lends(board, "RUSSIA", into_bul, ["F RUM H"], frozenset({"TURKEY"}))
    # never a move against ourselves
    assert not lends(board, "RUSSIA", Support("A GAL", "BUD", "RUM"), ["A GAL H"], frozenset())

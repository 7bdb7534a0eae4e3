"""The rules of liar's dice, each on its own, and played through the game."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from parlour_liars_dice import MODULE, LiarsDiceGame
from parlour_liars_dice.rules import Bid, challenge_loser, legal_bids, next_seat, parse_option

from parlour.core.actions import Choice
from parlour.core.errors import IllegalAction

bids = st.builds(Bid, quantity=st.integers(1, 30), face=st.integers(1, 6))


@given(current=st.none() | bids, dice=st.integers(1, 30), max_raise=st.integers(1, 4))
def test_every_legal_bid_beats_the_standing_one_within_the_caps(
    current: Bid | None, dice: int, max_raise: int
) -> None:
    found = legal_bids(current, dice, max_raise)
    floor = current.quantity if current else 0
    for bid in found:
        assert bid.beats(current)
        assert bid.quantity <= dice
        assert bid.quantity <= floor + max_raise
        assert parse_option(bid.option_id) == bid
    assert list(found) == sorted(found, key=lambda b: (b.quantity, b.face))
    assert len({b.option_id for b in found}) == len(found)


@given(current=bids, dice=st.integers(1, 30), max_raise=st.integers(1, 4))
def test_no_bid_is_missing_from_the_menu(current: Bid, dice: int, max_raise: int) -> None:
    found = {(b.quantity, b.face) for b in legal_bids(current, dice, max_raise)}
    for q in range(1, min(dice, current.quantity + max_raise) + 1):
        for f in range(1, 7):
            assert ((q, f) in found) == ((q, f) > (current.quantity, current.face))


@given(a=bids, b=bids)
def test_raising_is_a_strict_order(a: Bid, b: Bid) -> None:
    assert not (a.beats(b) and b.beats(a))
    assert a.beats(b) or b.beats(a) or (a.quantity, a.face) == (b.quantity, b.face)


@pytest.mark.parametrize(
    ("quantity", "loser"),
    [(3, "p2"), (4, "p2"), (5, "p1")],  # the table holds exactly four fives
)
def test_a_challenge_costs_whoever_was_wrong(quantity: int, loser: str) -> None:
    dice = {"p1": (5, 5, 1), "p2": (5, 5, 2)}
    bid = Bid(quantity=quantity, face=5, bidder="p1")
    assert challenge_loser(bid, "p2", dice) == loser


def test_the_turn_skips_seats_without_dice() -> None:
    order = ("p1", "p2", "p3")
    assert next_seat(order, {"p1": 1, "p2": 0, "p3": 2}, "p1") == "p3"
    assert next_seat(order, {"p1": 1, "p2": 0, "p3": 2}, "p3") == "p1"


@pytest.mark.parametrize("raw", ["liar", "bid:0x3", "bid:2x7", "bid:x", "pass"])
def test_parse_option_names_only_bids(raw: str) -> None:
    assert parse_option(raw) is None


def _game(**overrides: object) -> LiarsDiceGame:
    game = MODULE.game.new(MODULE.make_config(2, dict(overrides)), 11)
    assert isinstance(game, LiarsDiceGame)
    return game


def test_the_opening_bid_cannot_be_a_liar_call_and_rolls_are_private() -> None:
    game = _game()
    (opening,) = game.pending()
    assert opening.seat == "p1" and "liar" not in {o.id for o in opening.options}
    with pytest.raises(IllegalAction):
        game.apply(opening.id, Choice(option="liar"))
    rolls = [e for e in game.events if e.kind == "roll"]
    assert [e.to for e in rolls] == [("p1",), ("p2",)]
    assert game.view("p1").private.dice == game.table.dice["p1"]
    assert all(e.kind != "roll" or e.to == ("p2",) for e in game.view("p2").events)


def test_a_round_ends_in_a_challenge_and_the_loser_opens_the_next() -> None:
    game = _game()
    total = sum(game.table.counts.values())
    game.apply(game.pending()[0].id, Choice(option="bid:2x6"))
    (call,) = game.pending()
    assert call.seat == "p2" and "bid:1x6" not in {o.id for o in call.options}
    game.apply(call.id, Choice(option="liar"))
    challenge = next(e for e in game.events if e.kind == "challenge")
    loser = challenge.data["loser"]
    sixes = sum(d.count(6) for d in challenge.data["dice"].values())
    assert loser == ("p2" if sixes >= 2 else "p1")
    assert sum(game.table.counts.values()) == total - 1
    assert game.table.round == 2 and game.table.bid is None
    assert game.pending()[0].seat == loser


def test_last_seat_with_dice_wins_and_ranks_follow_the_order_out() -> None:
    game = MODULE.game.new(MODULE.make_config(3, {"dice": 1}), 5)
    while not game.is_terminal():
        decision = game.pending()[0]
        ids = [o.id for o in decision.options]
        game.apply(decision.id, Choice(option="liar" if "liar" in ids else ids[-1]))
    result = game.result()
    assert result is not None and len(result.winners) == 1
    assert isinstance(game, LiarsDiceGame)
    first_out, second_out = game.table.out
    assert result.returns == {first_out: 0.0, second_out: 0.5, result.winners[0]: 1.0}

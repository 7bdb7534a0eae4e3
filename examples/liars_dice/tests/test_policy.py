"""The scripted policy reasons from its own dice and beats random play."""

from __future__ import annotations

from parlour_liars_dice import MODULE, LiarsDiceGame
from parlour_liars_dice.metrics import rounds_played, seat_counters
from parlour_liars_dice.policies import at_least, scripted_policy
from parlour_liars_dice.rules import Bid

from parlour.core.actions import Action, Choice
from parlour.core.decisions import Decision
from parlour.core.random_answers import random_answer
from parlour.core.rng import Rng
from parlour.core.view import AnyView


def test_at_least_is_a_binomial_tail() -> None:
    assert at_least(0, 5) == 1.0 and at_least(6, 5) == 0.0
    assert abs(at_least(1, 1) - 1 / 6) < 1e-12
    assert abs(at_least(1, 2) - (1 - (5 / 6) ** 2)) < 1e-12


def _decide(dice: dict[str, tuple[int, ...]], bid: Bid | None) -> Action:
    game = MODULE.game.new(MODULE.make_config(2, {}), 1)
    assert isinstance(game, LiarsDiceGame)
    # Set the table by hand through the frozen state's own copy, as a test may.
    game._table = game.table.model_copy(update={"dice": dice, "bid": bid, "turn": "p2"})
    (decision,) = game.pending()
    return scripted_policy(game.view("p2"), decision, Rng(0))


def test_it_calls_a_bid_its_own_dice_make_unlikely() -> None:
    fives = Bid(quantity=4, face=5, bidder="p1")
    assert _decide({"p1": (5, 5, 5, 5, 5), "p2": (1, 2, 3, 4, 6)}, fives) == Choice(option="liar")


def test_it_raises_on_the_face_it_holds() -> None:
    low = Bid(quantity=1, face=2, bidder="p1")
    action = _decide({"p1": (1, 1, 1, 1, 1), "p2": (6, 6, 6, 6, 2)}, low)
    assert isinstance(action, Choice) and action.option.endswith("x6")


def _random(view: AnyView, decision: Decision, rng: Rng) -> Action:
    return random_answer(decision, rng)


def test_scripted_beats_random() -> None:
    wins = 0
    games = 40
    for seed in range(games):
        game = MODULE.game.new(MODULE.make_config(2, {}), seed)
        scripted = "p1" if seed % 2 else "p2"  # both seats, so opening first is no edge
        rng = Rng(seed)
        while not game.is_terminal():
            (decision,) = game.pending()
            policy = scripted_policy if decision.seat == scripted else _random
            game.apply(decision.id, policy(game.view(decision.seat), decision, rng))
        result = game.result()
        assert result is not None
        wins += result.winners == (scripted,)
    assert wins >= 0.75 * games, f"scripted won {wins} of {games}"


def test_the_metrics_count_from_the_event_log() -> None:
    game = MODULE.game.new(MODULE.make_config(2, {"dice": 1}), 3)
    assert isinstance(game, LiarsDiceGame)
    game.apply(game.pending()[0].id, Choice(option="bid:2x6"))  # p1 bids both dice are sixes
    game.apply(game.pending()[0].id, Choice(option="liar"))
    assert game.is_terminal()
    challenge = next(e for e in game.events if e.kind == "challenge")
    right = challenge.data["loser"] == "p1"
    counters = seat_counters(game, ("p1", "p2"))
    assert counters["p1"]["bids"] == 1 and counters["p2"]["calls"] == 1
    assert counters["p2"]["calls_right"] == float(right)
    assert counters["p1"]["caught_bluffing"] == float(right)
    assert counters[str(challenge.data["loser"])]["dice_lost"] == 1
    assert rounds_played(game) == 1

"""Missing's typed decision facts (``MissingAsk``) and its fork (core ``Forkable``)."""

from __future__ import annotations

import copy

import pytest

from parlour.core.decisions import DecisionKind
from parlour.core.errors import ParlourError
from parlour.core.rng import Rng, hash_seed
from parlour.games.missing import MODULE, MissingGame, asks
from tests.missing.helpers import scripted, small
from tests.support.decisions import make_decision


def test_every_offered_decision_carries_its_typed_ask() -> None:
    game = MissingGame(small(people=["p2"]), 3)
    steps: dict[str, int] = {}
    while not game.is_terminal():
        for d in game.pending():
            ask = asks.MissingAsk.of(d)
            steps[d.purpose] = steps.get(d.purpose, 0) + 1
            assert ask.fresh == (d.purpose in ("background", "secret"))
            assert ask.standing == (d.purpose == "message" and d.seat == "p2")
            if d.purpose == "turn":
                offered = [o.id for o in d.options if o.id.startswith(asks.SEARCH_PREFIX)]
                assert offered == [f"{asks.SEARCH_PREFIX}{p}" for p in ask.places]
            if d.purpose == "relationship":
                assert ask.about == game.state.pair[d.seat] != d.seat
        decision = game.pending()[0]
        rng = Rng(hash_seed(3, decision.id))
        game.apply(decision.id, MODULE.policy(game.view(decision.seat), decision, rng))
    assert {"background", "relationship", "turn", "message", "epilogue"} <= set(steps)


def test_a_decision_without_the_ask_is_refused_by_name() -> None:
    bare = make_decision(DecisionKind.FREE_TEXT, id="x", purpose="message", max_length=10)
    with pytest.raises(ParlourError, match="decision x carries no MissingAsk"):
        asks.MissingAsk.of(bare)


def test_a_fork_shares_the_town_and_plays_on_alone() -> None:
    game = scripted(small(), 1, until="chat")
    fork = copy.deepcopy(game)
    assert fork.config is game.config and fork.state.town is game.state.town
    before = game.snapshot()
    while not fork.is_terminal():
        decision = fork.pending()[0]
        rng = Rng(hash_seed(1, decision.id))
        fork.apply(decision.id, MODULE.policy(fork.view(decision.seat), decision, rng))
    assert game.snapshot() == before
    assert len(fork.events) > len(game.events)

"""Typed asks on a decision (``parlour.core.asks``): written under their key, read back
validated, and unchanged by the JSON a decision crosses processes as."""

from __future__ import annotations

from typing import ClassVar

import pytest

from parlour.core.asks import GameAsk, Hints, contexts
from parlour.core.decisions import Decision
from parlour.core.errors import ParlourError
from tests.support.decisions import make_decision


class RowAsk(GameAsk):
    KEY: ClassVar[str] = "toy"

    day: int
    names: tuple[str, ...] = ()
    note: str | None = None


class OtherAsk(GameAsk):
    KEY: ClassVar[str] = "toy"

    turn: int


def test_an_ask_and_hints_survive_the_json_a_decision_crosses_processes_as() -> None:
    ask = RowAsk(day=2, names=("Kenji", "Aiko"))
    hints = Hints(labels={"A PAR": {"A PAR H": "holds"}}, summary="board", multiline=True)
    d = make_decision(context=contexts(ask, hints))
    back = Decision.model_validate_json(d.model_dump_json())
    assert RowAsk.of(back) == ask and Hints.of(back) == hints
    assert set(back.context) == {"toy", "hints"}


def test_a_missing_or_invalid_ask_is_refused_by_name() -> None:
    with pytest.raises(ParlourError, match="carries no RowAsk"):
        RowAsk.of(make_decision(context={}))
    assert RowAsk.find(make_decision(context={})) is None
    with pytest.raises(ParlourError, match="invalid RowAsk"):
        RowAsk.of(make_decision(context={"toy": {"day": "two"}}))
    with pytest.raises(ParlourError, match="invalid RowAsk"):
        RowAsk.of(make_decision(context={"toy": {"day": 1, "typo": 1}}))
    # another purpose's ask under the same key is not this one
    with pytest.raises(ParlourError, match="invalid RowAsk"):
        RowAsk.of(make_decision(context=OtherAsk(turn=3).context()))


def test_a_decision_without_hints_has_the_empty_ones() -> None:
    assert Hints.of(make_decision(context=RowAsk(day=1).context())) == Hints()
    assert not Hints().multiline and Hints().summary == ""


def test_two_asks_under_one_key_are_refused() -> None:
    with pytest.raises(ParlourError, match="two asks under one key 'toy'"):
        contexts(RowAsk(day=1), OtherAsk(turn=1))


def test_an_ask_is_frozen() -> None:
    ask = RowAsk(day=1)
    with pytest.raises(ValueError, match="frozen"):
        ask.day = 2  # type: ignore[misc]

"""Decisions validate answers exactly: every legal answer accepted, illegal ones named."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from parlour.core import (
    Choice,
    Choices,
    Decision,
    DecisionKind,
    IllegalAction,
    Option,
    Structured,
    Text,
    action_from_json,
)
from parlour.core.random_answers import random_answer
from parlour.core.rng import Rng
from tests.support.decisions import make_decision

OPTS = tuple(Option(id=f"p{i}", label=name) for i, name in enumerate(["Kenji", "Aiko", "Hiro"]))


def vote() -> Decision:
    return make_decision(id="d1:vote:p9", seat="p9", prompt="Vote", options=OPTS)


def route(**fields: Any) -> Decision:
    """The router's pick of one or two speakers (``fields`` override)."""
    base: dict[str, Any] = {
        "id": "r",
        "seat": "router",
        "kind": DecisionKind.CHOOSE_MANY,
        "purpose": "route",
        "prompt": "who",
        "options": OPTS,
        "min_choices": 1,
        "max_choices": 2,
    }
    return Decision(**(base | fields))


def speak(max_length: int, **fields: Any) -> Decision:
    """A free-text line that may be empty (``fields`` override)."""
    base: dict[str, Any] = {
        "kind": DecisionKind.FREE_TEXT,
        "purpose": "speak",
        "max_length": max_length,
        "allow_empty": True,
    }
    return Decision(**(base | fields))


def test_choose_one_accepts_each_option_and_names_the_legal_ones() -> None:
    d = vote()
    for opt in OPTS:
        assert d.check(Choice(option=opt.id)) == Choice(option=opt.id)
    with pytest.raises(IllegalAction, match="legal: Kenji, Aiko, Hiro") as err:
        d.check(Choice(option="Kenji"))
    assert err.value.decision_id == "d1:vote:p9"
    with pytest.raises(IllegalAction, match="expected one choice"):
        d.check(Text(text="p1"))


def test_choose_many_bounds_and_duplicates() -> None:
    d = route()
    d.check(Choices(options=("p0",)))
    d.check(Choices(options=("p0", "p2")))
    with pytest.raises(IllegalAction, match="between 1 and 2"):
        d.check(Choices(options=()))
    with pytest.raises(IllegalAction, match="twice"):
        d.check(Choices(options=("p0", "p0")))
    with pytest.raises(IllegalAction, match="not legal: zz"):
        d.check(Choices(options=("zz",)))


def test_free_text_length_and_empty() -> None:
    d = speak(5, id="s", seat="p1", prompt="say")
    d.check(Text(text=""))
    d.check(Text(text="hello"))
    with pytest.raises(IllegalAction, match="too long: 6 characters"):
        d.check(Text(text="hello!"))
    strict = d.model_copy(update={"allow_empty": False})
    with pytest.raises(IllegalAction, match="empty"):
        strict.check(Text(text="  "))


def test_structured_uses_json_schema() -> None:
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "age": {"type": "integer", "minimum": 0}},
        "required": ["name", "age"],
        "additionalProperties": False,
    }
    d = make_decision(DecisionKind.STRUCTURED, purpose="cast", json_schema=schema)
    d.check(Structured(value={"name": "Ann", "age": 3}))
    with pytest.raises(IllegalAction, match="at age"):
        d.check(Structured(value={"name": "Ann", "age": -1}))


def test_malformed_decisions_are_rejected_at_construction() -> None:
    with pytest.raises(ValidationError, match="duplicate option ids"):
        make_decision(options=(OPTS[0], OPTS[0]))
    with pytest.raises(ValidationError, match="needs at least one option"):
        make_decision(options=())
    with pytest.raises(ValidationError, match="positive max_length"):
        make_decision(DecisionKind.FREE_TEXT)


def test_decisions_and_actions_round_trip_through_json() -> None:
    d = vote()
    assert Decision.model_validate_json(d.model_dump_json()) == d
    for action in (
        Choice(option="p1", reason="quiet"),
        Choices(options=("a", "b")),
        Text(text="hi"),
        Structured(value={"k": [1, 2]}),
    ):
        assert action_from_json(action.model_dump_json()) == action


def test_required_any() -> None:
    d = route(required_any=("p2",))
    d.check(Choices(options=("p0", "p2")))
    with pytest.raises(IllegalAction, match="include at least one of: Hiro"):
        d.check(Choices(options=("p0", "p1")))
    with pytest.raises(ValidationError, match="unknown options"):
        Decision.model_validate(d.model_dump() | {"required_any": ("zz",)})


@given(st.integers(min_value=0, max_value=10_000))
def test_random_answers_are_always_legal(seed: int) -> None:
    rng = Rng(seed)
    many = route(prompt="", min_choices=0, max_choices=3)
    required = many.model_copy(update={"required_any": ("p1",), "min_choices": 1})
    text = speak(7, id="t", seat="p", prompt="")
    for d in (vote(), many, text, required):
        d.check(random_answer(d, rng))


def test_rng_streams_are_reproducible() -> None:
    a, b = Rng(42), Rng(42)
    assert [a.randint(0, 100) for _ in range(20)] == [b.randint(0, 100) for _ in range(20)]
    assert Rng(1).child("x").random() == Rng(1).child("x").random()
    assert Rng(1).child("x").random() != Rng(1).child("y").random()


def test_not_allowed_gives_the_games_reason() -> None:
    d = vote().model_copy(
        update={
            "not_allowed": {
                "p9": "you cannot vote for yourself",
                "Yuki": "you cannot vote for yourself",
            }
        }
    )
    with pytest.raises(
        IllegalAction,
        match="Invalid vote target: Yuki — you cannot vote for yourself; eligible: Kenji",
    ):
        d.check(Choice(option="Yuki"))

"""Checked fields of a structured answer: paths validated against the decision's schema at
construction, and the strings found at them in an answer."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from parlour.core.decisions import Decision, DecisionKind
from parlour.core.text_fields import field_texts, path_problem
from parlour.games.diplomacy.config import DiplomacyConfig
from parlour.games.diplomacy.press import press_schema

#: a beat of narration and NPC lines: a structured answer with prose at two depths
SCENE: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["narration", "lines"],
    "properties": {
        "narration": {"type": "string", "minLength": 1, "maxLength": 600},
        "lines": {
            "type": "array",
            "maxItems": 2,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["npc", "text"],
                "properties": {
                    "npc": {"enum": ["priya", "marcus"]},
                    "text": {"type": "string", "minLength": 1, "maxLength": 200},
                },
            },
        },
    },
}
CHECK: dict[str, Any] = {
    "type": "object",
    "properties": {
        "route": {"enum": ["a", "b"]},
        "check": {
            "type": "object",
            "properties": {"reason": {"type": "string"}, "dc": {"type": "integer"}},
        },
    },
}


def test_paths_into_properties_and_list_items_are_accepted() -> None:
    assert path_problem(SCENE, "narration") is None
    assert path_problem(SCENE, "lines[].text") is None
    assert path_problem(CHECK, "check.reason") is None
    press = press_schema(["ALL", "ENGLAND"], DiplomacyConfig())
    assert path_problem(press, "messages[].text") is None


@pytest.mark.parametrize(
    ("path", "why"),
    [
        ("narative", "the answer has no property 'narative' (its properties: narration, lines)"),
        ("lines.text", "lines is a list; write lines[] to check every item"),
        ("narration[]", "narration is not a list of items; drop the [] after it"),
        ("lines[].npc", "lines[].npc is not a string field (type 'unset')"),
        ("lines[].said", "lines[] has no property 'said' (its properties: npc, text)"),
        ("lines[]", "lines[] is not a string field (type 'object')"),
        ("lines..text", "not a field path: write property names joined by dots"),
    ],
)
def test_a_path_that_names_no_string_field_says_why(path: str, why: str) -> None:
    problem = path_problem(SCENE, path)
    assert problem is not None and problem.startswith(why)
    assert path_problem(CHECK, "check.dc") == "check.dc is not a string field (type 'integer')"


def test_field_texts_name_each_concrete_place_in_order() -> None:
    answer = {
        "narration": "Rain on the windows.",
        "lines": [{"npc": "priya", "text": "Just us."}, {"npc": "marcus", "text": "No."}],
    }
    assert field_texts(answer, ("narration", "lines[].text")) == [
        ("narration", "Rain on the windows."),
        ("lines[0].text", "Just us."),
        ("lines[1].text", "No."),
    ]
    # absent optional fields and empty lists give nothing; a malformed answer is skipped
    assert field_texts({"route": "a"}, ("check.reason",)) == []
    assert field_texts({"narration": "x", "lines": []}, ("lines[].text",)) == []
    assert field_texts({"lines": "oops"}, ("lines[].text",)) == []


BASE: dict[str, Any] = {"id": "d", "seat": "s", "purpose": "scene", "prompt": "narrate"}


def test_decisions_validate_their_checked_fields_at_construction() -> None:
    ok = Decision(
        kind=DecisionKind.STRUCTURED,
        json_schema=SCENE,
        checks=("repetition",),
        checked_fields=("narration", "lines[].text"),
        **BASE,
    )
    assert ok.checked_fields == ("narration", "lines[].text")
    with pytest.raises(ValidationError, match=r"checked field 'lines\.text': lines is a list"):
        Decision(
            kind=DecisionKind.STRUCTURED,
            json_schema=SCENE,
            checks=("repetition",),
            checked_fields=("lines.text",),
            **BASE,
        )
    with pytest.raises(ValidationError, match="no checks are named; add checks="):
        Decision(
            kind=DecisionKind.STRUCTURED, json_schema=SCENE, checked_fields=("narration",), **BASE
        )
    with pytest.raises(ValidationError, match="checked_fields are for structured decisions"):
        Decision(
            kind=DecisionKind.FREE_TEXT,
            max_length=50,
            checks=("repetition",),
            checked_fields=("narration",),
            **BASE,
        )
    with pytest.raises(ValidationError, match="a checked field is named twice"):
        Decision(
            kind=DecisionKind.STRUCTURED,
            json_schema=SCENE,
            checks=("repetition",),
            checked_fields=("narration", "narration"),
            **BASE,
        )
    # checks on a structured decision guard nothing without fields: refused, not ignored
    with pytest.raises(ValidationError, match="names its checked_fields"):
        Decision(kind=DecisionKind.STRUCTURED, json_schema=SCENE, checks=("echo",), **BASE)

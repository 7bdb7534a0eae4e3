"""Output specs, their schemas, and tolerant-but-strict answer parsing."""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from pydantic import ValidationError

from parlour.models import (
    AnswerFormatError,
    ModelRequest,
    OutputSpec,
    Settings,
    Usage,
    answer_schema,
    extract_json,
    format_instruction,
    parse_answer,
    try_parse,
)
from parlour.models.base import parsed_response
from parlour.models.parse import close_truncated_json, finish_cut_text

IDS = ("alice", "bob", "carol")
CHOICE = OutputSpec.choice(IDS)


def test_specs_validate_themselves() -> None:
    with pytest.raises(ValidationError, match="at least one option"):
        OutputSpec.choice([])
    with pytest.raises(ValidationError, match="duplicate"):
        OutputSpec.choice(["a", "a"])
    with pytest.raises(ValidationError, match="min_choices"):
        OutputSpec.choices(["a"], 2, 3)
    with pytest.raises(ValidationError, match="type 'object'"):
        OutputSpec.json_schema({"type": "array"})
    with pytest.raises(ValidationError):
        ModelRequest(messages=())
    with pytest.raises(ValidationError):
        Settings(max_tokens=0)


def test_schemas_per_spec() -> None:
    assert answer_schema(OutputSpec.text(100)) is None
    schema = answer_schema(CHOICE)
    assert schema is not None and schema["properties"]["choice"]["enum"] == list(IDS)
    assert schema["required"] == ["choice", "why"] and schema["additionalProperties"] is False
    many = answer_schema(OutputSpec.choices(IDS, 1, 2))
    assert many is not None and many["properties"]["choices"]["maxItems"] == 2
    custom = {"type": "object", "properties": {"n": {"type": "integer"}}}
    assert answer_schema(OutputSpec.json_schema(custom)) == custom
    assert '"alice"' in format_instruction(CHOICE) and "JSON" in format_instruction(CHOICE)


@pytest.mark.parametrize(
    "text",
    [
        '{"choice": "bob", "why": "quiet"}',
        'Sure! I pick bob.\n```json\n{"choice": "bob", "why": "quiet"}\n```',
        'Thinking {not json} ... {"choice": "bob", "why": "quiet"} trailing words',
        "bob",
        '"bob"',
    ],
)
def test_tolerant_extraction(text: str) -> None:
    assert parse_answer(text, CHOICE)["choice"] == "bob"


@pytest.mark.parametrize(
    ("text", "feedback"),
    [
        ("", "the answer is empty"),
        ("I vote for Bob the baker", "no JSON object found"),
        ('{"choice": "bob", "why": "unfinished', "malformed"),
        (
            '{"choice": "Sir Bob"}',
            '"Sir Bob" is not a legal option id; use exactly one of: "alice"',
        ),
        ('{"pick": "bob"}', 'missing "choice"'),
        ('{"choice": "bob", "why": 3}', '"why" must be a string'),
        ("[1, 2]", "no JSON object"),
    ],
)
def test_feedback_says_what_to_fix(text: str, feedback: str) -> None:
    parsed, error = try_parse(text, CHOICE)
    assert parsed is None and error is not None and feedback in error


def test_choices_and_objects_are_checked() -> None:
    many = OutputSpec.choices(IDS, 1, 2)
    assert parse_answer('{"choices": ["alice", "bob"]}', many)["choices"] == ["alice", "bob"]
    for text, msg in [
        ('{"choices": ["alice", "alice"]}', "twice"),
        ('{"choices": ["alice", "bob", "carol"]}', "between 1 and 2"),
        ('{"choices": ["dave"]}', 'not legal option ids: "dave"'),
        ('{"choices": "alice"}', "must be a list"),
    ]:
        with pytest.raises(AnswerFormatError, match=msg):
            parse_answer(text, many)
    spec = OutputSpec.json_schema(
        {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    )
    assert parse_answer('{"n": 3}', spec) == {"n": 3}
    with pytest.raises(AnswerFormatError, match="invalid object at n"):
        parse_answer('{"n": "three"}', spec)
    assert parse_answer("hello", OutputSpec.text(10)) == "hello"
    with pytest.raises(AnswerFormatError, match="too long"):
        parse_answer("hello world!", OutputSpec.text(10))


def test_extract_json_prefers_fenced_objects() -> None:
    assert extract_json('{"a": 1} ```json\n{"b": 2}\n```') == {"b": 2}


@given(
    choice=st.sampled_from(IDS),
    why=st.text(max_size=40),
    cut=st.integers(min_value=0, max_value=200),
)
# a reason whose only space opens it, cut inside its one word (found by hypothesis)
@example(choice="alice", why=" 0000\x1f\x07\x07\x07\x07\x07" + "\U00010000" * 3 + "0", cut=105)
def test_truncated_answers_close_into_valid_json(choice: str, why: str, cut: int) -> None:
    full = json.dumps({"choice": choice, "why": why})
    head = full[: min(cut, len(full))]
    closed = close_truncated_json(head)
    if closed is not None:
        value = json.loads(closed)
        assert isinstance(value, dict)
        # Whatever survived is a prefix of what was meant (less the ellipsis that marks
        # a cut), and a cut reason ends on a whole word, never inside one.
        if "why" in value and value["why"] != why:
            kept = value["why"].removesuffix("…")
            assert why.startswith(kept) or json.dumps(why).startswith(json.dumps(kept)[:-1])
            rest = why[len(kept) :]
            assert not kept or not rest or not (kept[-1].isalnum() and rest[0].isalnum())
    if len(head) > len(full) - len(json.dumps(why)) - 1:
        # Cut inside the reason: the choice survives intact.
        assert closed is not None and json.loads(closed)["choice"] == choice


def test_usage_adds_up() -> None:
    total = Usage(input_tokens=3, output_tokens=1, cached_input_tokens=2) + Usage(input_tokens=1)
    assert total == Usage(input_tokens=4, output_tokens=1, cached_input_tokens=2)


@pytest.mark.parametrize(
    ("cut", "shown"),
    [
        ("I saw her by the quay. Her fathe", "I saw her by the quay."),
        ('"Go home." He sa', '"Go home."'),
        ("Ask Noor about the boat, she was at the qua", "Ask Noor about the boat, she was at the…"),
        ("Wait... what ab", "Wait..."),
        ("nothing", "nothing…"),
        ("", ""),
    ],
)
def test_a_cut_answer_ends_at_a_finished_sentence_or_a_whole_word(cut: str, shown: str) -> None:
    assert finish_cut_text(cut) == shown


@given(st.text(alphabet="abc .,!?", max_size=80))
def test_a_trimmed_answer_is_a_prefix_that_never_ends_mid_word(text: str) -> None:
    shown = finish_cut_text(text)
    assert text.startswith(shown.removesuffix("…").rstrip())
    assert not shown or shown[-1] in ".!?…"


def test_only_free_text_the_model_was_stopped_in_is_trimmed() -> None:
    text = "The tide is turning. Meet me at the lig"
    cut = parsed_response(text, OutputSpec.text(max_chars=60), model_id="m", cut=True)
    assert cut.text == cut.parsed == "The tide is turning."
    assert cut.raw["cut_text"] == text
    whole = parsed_response(text, OutputSpec.text(max_chars=60), model_id="m")
    assert whole.text == text  # the model stopped on its own: its words stand
    choice = parsed_response('{"choice": "bob"}', CHOICE, model_id="m", cut=True)
    assert choice.parsed == {"choice": "bob"}


def test_a_reason_cut_mid_word_ends_on_its_last_finished_sentence_or_word() -> None:
    cut = '{"choice": "a", "why": "I saw her. Becau'
    assert json.loads(close_truncated_json(cut) or "") == {"choice": "a", "why": "I saw her."}
    cut = '{"choice": "a", "why": "she was at the qua'
    assert json.loads(close_truncated_json(cut) or "")["why"] == "she was at the…"
    assert json.loads(close_truncated_json('{"choice": "a", "why": "becau') or "")["why"] == ""

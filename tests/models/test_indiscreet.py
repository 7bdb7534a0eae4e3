"""The indiscreet backend: valid answers to requests built as seats build them, every marked
secret in every free-text field (verbatim or restated), and every game played to its end
through the CLI with it in every seat."""

from __future__ import annotations

import asyncio
import json
import re
import time
from typing import Any

import jsonschema
import pytest

from parlour.core.decisions import Decision, DecisionKind, Option
from parlour.games.werewolf.casting import names_schema
from parlour.models.base import ModelError, Resumable
from parlour.models.indiscreet import PLAIN, IndiscreetBackend
from parlour.models.messages import (
    Message,
    ModelRequest,
    ModelResponse,
    OutputSpec,
    answer_schema,
    format_instruction,
)
from parlour.models.registry import resolve
from parlour.models.secret_text import MARKER, fit, restate, secrets_in
from parlour.runtime.store import Store
from parlour.seats.llm import output_spec, to_action
from parlour.seats.text_guard import copied_instructions
from tests.conftest import CliRunner

ROLE = (
    "You are Aiko, the seer: each night you learn whether one player is evil. "
    "Your team: village. [[mk:n7:role:p2]]"
)
CHAT = '<speech from="Kenji" channel="private">Let\'s take Tomas tonight. [[mk:n7:chat:p1:1]]'
CLUE = "The oars are gone from the boathouse, and the lock was cut [[mk:n7:clue.oars]] by someone."
SYSTEM = f"Game: Werewolf. Players: Kenji, Aiko, Tomas.\n\n{ROLE}\nBe kind."
USER = f"## Transcript so far\n{CHAT}</speech>\n[game] Day 1 begins.\n{CLUE}\n\n## Now\nSpeak."
MARKERS = ("[[mk:n7:role:p2]]", "[[mk:n7:chat:p1:1]]", "[[mk:n7:clue.oars]]")


def _request(spec: OutputSpec, *texts: str, key: str = "g:p2") -> ModelRequest:
    """A request shaped as ``LlmSeat`` shapes it: system, then the user turn ending in the
    command and its format instruction."""
    system, *rest = texts or (SYSTEM, USER)
    user = "\n".join(rest) + f"\n\n{format_instruction(spec)}"
    messages = (Message(role="system", content=system), Message(role="user", content=user))
    return ModelRequest(messages=messages, output=spec, cache_key=key)


def _ask(backend: IndiscreetBackend, request: ModelRequest) -> ModelResponse:
    return asyncio.run(backend.complete(request))


def _valid(spec: OutputSpec, response: ModelResponse) -> Any:
    assert response.parse_error is None, response.text
    if spec.structured:
        schema = answer_schema(spec)
        assert schema is not None
        jsonschema.Draft202012Validator(schema).validate(json.loads(response.text))
    return response.parsed


# -- the secret sentences -----------------------------------------------------------------


def test_a_secret_is_its_line_up_to_the_marker_and_a_marker_mid_sentence_takes_the_rest() -> None:
    found = secrets_in([SYSTEM, USER])
    assert [s.text for s in found] == [ROLE, CHAT, CLUE]
    assert [s.markers for s in found] == [(m,) for m in MARKERS]


def test_markers_of_either_form_are_found_and_a_secret_told_twice_is_told_once() -> None:
    text = "Old form [[mk:role:p1]]. New form [[mk:a1b2c3:role:p1]]."
    found = secrets_in([text, f"I said: {text}"])
    assert [m for s in found for m in s.markers] == ["[[mk:role:p1]]", "[[mk:a1b2c3:role:p1]]"]
    assert not MARKER.search("[[mk:has space]] [[mk:]]")


def test_a_secret_reaches_at_most_200_characters_back_without_cutting_a_word() -> None:
    line = "intro " + "word " * 80 + "secret [[mk:k]] and " + "more " * 80
    (secret,) = secrets_in([line])
    assert secret.text.startswith("word ") and "[[mk:k]]" in secret.text
    assert len(secret.text) <= 2 * 200 + len("[[mk:k]]")


def test_fit_keeps_whole_sentences_then_bare_markers_then_as_many_markers_as_fit() -> None:
    found = secrets_in([SYSTEM, USER])
    assert fit(found, None) == " ".join([ROLE, CHAT, CLUE])
    # ROLE and the other two markers need 150 characters: in 130, CHAT is the first whole
    # sentence that fits with the markers of the rest.
    assert fit(found, 150) == f"{ROLE} {MARKERS[1]} {MARKERS[2]}"
    assert fit(found, 130) == f"{CHAT} {MARKERS[0]} {MARKERS[2]}"
    assert fit(found, 40) == "[[mk:n7:role:p2]] [[mk:n7:chat:p1:1]]"
    assert fit(found, 5) == ""


def test_restating_keeps_names_and_markers_and_shares_no_eight_word_run() -> None:
    said = restate(ROLE)
    assert "Aiko" in said and "[[mk:n7:role:p2]]" in said and "oracle" in said
    assert said == said.replace("Your team", "")  # stop words and case are gone
    assert copied_instructions(said, [ROLE]) is None
    assert copied_instructions(ROLE, [ROLE]) is not None  # the screen itself works


# -- answers to requests as seats build them ----------------------------------------------


def _decision(kind: DecisionKind, **extra: Any) -> Decision:
    names = ("Kenji", "Tomas", "Maya")
    fields: dict[str, Any] = {
        "options": tuple(Option(id=f"p{i}", label=n) for i, n in enumerate(names)),
        **extra,
    }
    return Decision(id="d1", seat="p2", kind=kind, purpose="speak", prompt="Speak.", **fields)


@pytest.mark.parametrize("paraphrase", [False, True])
def test_a_choice_is_a_legal_option_and_its_reason_tells_every_secret(paraphrase: bool) -> None:
    decision = _decision(DecisionKind.CHOOSE_ONE)
    spec, mapping = output_spec(decision)
    backend = IndiscreetBackend(paraphrase=paraphrase)
    response = _ask(backend, _request(spec))
    parsed = _valid(spec, response)
    assert parsed["choice"] in spec.option_ids
    assert all(m in parsed["why"] for m in MARKERS)
    assert (CLUE in parsed["why"]) is not paraphrase
    action = decision.check(to_action(decision, response, mapping))
    assert action.model_dump()["option"] in {"p0", "p1", "p2"}


def test_choose_many_respects_its_bounds() -> None:
    decision = _decision(DecisionKind.CHOOSE_MANY, min_choices=2, max_choices=2)
    spec, mapping = output_spec(decision)
    parsed = _valid(spec, _ask(IndiscreetBackend(), _request(spec)))
    assert len(parsed["choices"]) == 2 and set(parsed["choices"]) <= set(spec.option_ids)
    decision.check(to_action(decision, _ask(IndiscreetBackend(), _request(spec)), mapping))


def test_free_text_fits_its_bound_with_whole_sentences_and_every_marker() -> None:
    decision = _decision(DecisionKind.FREE_TEXT, options=(), max_length=150)
    spec, _ = output_spec(decision)
    text = _valid(spec, _ask(IndiscreetBackend(), _request(spec)))
    assert len(text) <= decision.max_length and ROLE in text
    assert all(m in text for m in MARKERS)


def test_a_request_without_markers_gets_a_plain_answer() -> None:
    spec = OutputSpec.text(300, plain=True)
    text = _valid(spec, _ask(IndiscreetBackend(), _request(spec, "Be kind.", "Speak.")))
    assert text == PLAIN
    choice = OutputSpec.choice(["a", "b"])
    assert _valid(choice, _ask(IndiscreetBackend(), _request(choice, "Hi.", "Pick.")))["why"] == (
        PLAIN
    )


SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["to", "npc", "count", "ok", "names", "messages", "short"],
    "properties": {
        "to": {"type": "string", "enum": ["ALL", "FRANCE"]},
        "npc": {"const": "wren"},
        "count": {"type": "integer", "minimum": 2, "maximum": 5},
        "ok": {"type": "boolean"},
        "names": names_schema(3)["properties"]["names"],
        "messages": {
            "type": "array",
            "maxItems": 3,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["to", "text"],
                "properties": {
                    "to": {"type": "string", "enum": ["ALL", "FRANCE"]},
                    "text": {"type": "string", "minLength": 1, "maxLength": 400},
                },
            },
        },
        "short": {"type": "string", "minLength": 1, "maxLength": 45},
        "notes": {"type": "string", "maxLength": 300},
        "reveal": {"type": "array", "items": {"enum": ["s1", "s2"]}, "maxItems": 1},
        "when": {"type": "string", "format": "date"},
    },
}


def test_a_json_answer_validates_and_only_free_text_fields_carry_secrets() -> None:
    spec = OutputSpec.json_schema(SCHEMA)
    value = _valid(spec, _ask(IndiscreetBackend(), _request(spec)))
    assert value["to"] in ("ALL", "FRANCE") and value["npc"] == "wren"
    assert 2 <= value["count"] <= 5 and isinstance(value["ok"], bool)
    assert len(set(value["names"])) == 3
    assert all(re.fullmatch(r"[A-Z][a-z]{1,9}", n) for n in value["names"])
    (message,) = value["messages"]  # one channel to tell through
    assert all(m in message["text"] and m in value["notes"] for m in MARKERS)
    assert len(value["short"]) <= 45 and MARKERS[0] in value["short"]
    assert "reveal" not in value and "when" not in value  # optional and not free text


def test_a_json_answer_without_secrets_leaves_optional_text_out() -> None:
    spec = OutputSpec.json_schema(SCHEMA)
    value = _valid(spec, _ask(IndiscreetBackend(), _request(spec, "Hi.", "Go.")))
    assert "notes" not in value and value["short"] == PLAIN
    assert value["messages"][0]["text"] == PLAIN


def test_a_schema_it_cannot_satisfy_gets_an_answer_not_an_exception() -> None:
    impossible = {
        "type": "object",
        "required": ["name"],
        "properties": {"name": {"type": "string", "pattern": "^[0-9]{30}$"}},
    }
    spec = OutputSpec.json_schema(impossible)
    response = _ask(IndiscreetBackend(), _request(spec))
    assert response.parsed is None and response.parse_error  # the seat retries, then falls back


def test_answers_are_deterministic_per_stream_and_a_resumed_stream_goes_on_alike() -> None:
    spec = OutputSpec.choice([f"o{i}" for i in range(20)])
    request = _request(spec)
    first = IndiscreetBackend(seed=1)
    answers = [_ask(first, request).text for _ in range(6)]
    assert len(set(answers)) > 1  # asked the same again, it need not answer alike
    again = IndiscreetBackend(seed=1)
    assert [_ask(again, request).text for _ in range(6)] == answers
    resumed = IndiscreetBackend(seed=1)
    assert isinstance(resumed, Resumable)
    resumed.resume_stream("g:p2", [True] * 4)
    assert [_ask(resumed, request).text for _ in range(2)] == answers[4:]
    other = IndiscreetBackend(seed=2)
    assert [_ask(other, request).text for _ in range(6)] != answers


def test_the_specs_resolve_and_seat_it_where_a_capable_model_is_needed() -> None:
    plain, restating = resolve("indiscreet"), resolve("indiscreet(paraphrase=true,seed=4)")
    assert isinstance(plain, IndiscreetBackend) and isinstance(restating, IndiscreetBackend)
    assert (plain.model_id, restating.model_id) == ("indiscreet", "indiscreet(paraphrase)")
    assert restating.seed == 4 and not plain.capabilities.small
    for bad in ("indiscreet(loud=true)", "indiscreet(paraphrase=3)", "indiscreet:x"):
        with pytest.raises(ModelError, match="indiscreet"):
            resolve(bad)


# -- every game, every seat ---------------------------------------------------------------

#: game → small, fast settings of a complete game.
GAMES: dict[str, tuple[str, ...]] = {
    "werewolf": (),
    "missing": ("--players", "4", "--set", "minutes=10"),
    "escape": ("--set", "max_turns=12"),
    "campaign": ("--set", "sessions=1", "--set", "turns_per_session=3"),
    "diplomacy": ("--set", "end_year=1901", "--set", "press_rounds=2"),
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_plays_to_its_end_with_indiscreet_in_every_seat(
    cli: CliRunner, store: Store, game: str
) -> None:
    started = time.perf_counter()
    played = cli(
        "watch", game, "--model", "indiscreet", "--set", "plant_markers=true",
        "--seed", "3", *GAMES[game], "--quiet", timeout=120,
    )  # fmt: skip
    took = time.perf_counter() - started
    assert played.returncode == 0, played.stderr + played.stdout
    (row,) = store.list_games()
    assert row.status == "finished"
    calls = store.calls(row.id)
    assert {c.model_id for c in calls if c.outcome != "fallback"} == {"indiscreet"}
    told = [c for c in calls if MARKER.search(c.response_text)]
    assert told, f"{game}: no answer carried a marker"
    print(f"{game}: {took:.1f} s, {len(calls)} calls, {len(told)} carrying markers")

"""Typed decisions: what a seat is asked, with its legal answers spelled out."""

from __future__ import annotations

import json
from enum import StrEnum
from functools import lru_cache
from typing import Any, Literal

import jsonschema
from pydantic import BaseModel, ConfigDict, Field, model_validator

from parlour.core.actions import Action, Choice, Choices, Structured, Text
from parlour.core.errors import IllegalAction
from parlour.core.text_fields import path_problem
from parlour.core.text_rules import TextRules

#: Free-text guards a decision may opt into (run by the LLM seat, ``seats/text_guard.py``):
#: copying >= 8 tokens of the prompt's instructions, a repeated 4-gram within the answer,
#: and the same line as another speaker's last line in the prompt's transcript.
TextCheck = Literal["prompt_copy", "repetition", "echo"]


@lru_cache(maxsize=512)
def _check_schema(schema_json: str) -> None:
    """Meta-validation is slow (ms per schema); games re-offer the same schemas often."""
    jsonschema.Draft202012Validator.check_schema(json.loads(schema_json))


@lru_cache(maxsize=512)
def _validator(schema_json: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(schema_json))


class DecisionKind(StrEnum):
    CHOOSE_ONE = "choose_one"
    CHOOSE_MANY = "choose_many"
    FREE_TEXT = "free_text"
    STRUCTURED = "structured"


class Deadline(BaseModel):
    """When a decision's default answer applies: after ``seconds`` of wall time, or of the
    game's own simulated clock (``clock="game"``, read from ``Game.clock()``).

    ``human_seconds`` gives people a longer wall-time allowance than AI seats, so a slow
    person never holds a batch of AIs hostage and AIs never wait forever on a person.
    """

    model_config = ConfigDict(frozen=True)

    seconds: float = Field(gt=0)
    clock: Literal["wall", "game"] = "wall"
    human_seconds: float | None = Field(default=None, gt=0)


class Option(BaseModel):
    """One legal answer: a stable id (what gets stored) and a label (what people read)."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(min_length=1)
    label: str


class Decision(BaseModel):
    """A request to one seat; ``check(action)`` accepts exactly the legal answers."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(min_length=1)
    seat: str = Field(min_length=1)
    kind: DecisionKind
    purpose: str = Field(min_length=1, description="machine tag, e.g. 'vote', 'speak', 'order'")
    prompt: str = Field(description="what to decide, in the game's words")
    options: tuple[Option, ...] = ()
    min_choices: int = 1
    max_choices: int = 1
    max_length: int = 0
    allow_empty: bool = False
    json_schema: dict[str, Any] | None = None
    context: dict[str, Any] = Field(
        default_factory=dict,
        description="typed asks under their keys (core/asks.py); read only through them",
    )
    required_any: tuple[str, ...] = Field(
        default=(),
        description="choose-many: the answer must include at least one of these option ids",
    )
    not_allowed: dict[str, str] = Field(
        default_factory=dict,
        description="plausible but illegal answers (id or label) → why, for precise feedback",
    )
    max_tokens: int | None = Field(
        default=None, gt=0, description="hint for model seats: room the answer needs (tokens)"
    )
    deadline: Deadline | None = None
    default: Action | None = Field(
        default=None, description="the game's answer when the deadline passes (by='timeout')"
    )
    batch: Literal["ordered", "as_arrived"] = Field(
        default="ordered",
        description="ordered: a batch's answers are applied in pending() order; as_arrived: "
        "each answer is applied when it comes and the rest of the batch is re-read",
    )

    checks: tuple[TextCheck, ...] = Field(
        default=(),
        description="free text, a choose-one's phrase, or a structured answer's "
        "``checked_fields``: the shared guards the text must pass (opt-in)",
    )
    checked_fields: tuple[str, ...] = Field(
        default=(),
        description="structured: the string fields of the answer that ``checks`` guard, as "
        "paths into the schema (``narration``, ``lines[].text``: [] means every item); the "
        "ones a person reads",
    )
    phrase_words: int = Field(
        default=0,
        ge=0,
        description="choose-one: the answer's reason is a short public phrase of at most "
        "this many words that the game may render with the choice (0: the reason is private "
        "and unbounded); ``checks`` then guard the phrase",
    )
    text_rules: TextRules | None = Field(
        default=None,
        description="free text: what the answer must carry and must not say, set by the game; "
        "seats check it before answering, the game again when applying",
    )

    @model_validator(mode="after")
    def _consistent(self) -> Decision:
        if self.text_rules and self.kind is not DecisionKind.FREE_TEXT:
            raise ValueError(f"decision {self.id}: text_rules are for free text only")
        if self.phrase_words and self.kind is not DecisionKind.CHOOSE_ONE:
            raise ValueError(f"decision {self.id}: phrase_words is for choose-one only")
        phrased = self.kind is DecisionKind.CHOOSE_ONE and self.phrase_words > 0
        fielded = self.kind is DecisionKind.STRUCTURED and bool(self.checked_fields)
        if self.checks and self.kind is not DecisionKind.FREE_TEXT and not (phrased or fielded):
            raise ValueError(
                f"decision {self.id}: checks are for free text, a choose-one with "
                "phrase_words, or a structured decision that names its checked_fields"
            )
        if len(set(self.checks)) != len(self.checks):
            raise ValueError(f"decision {self.id}: a check is named twice")
        if self.checked_fields:
            self._check_fields()
        ids = [o.id for o in self.options]
        if len(set(ids)) != len(ids):
            raise ValueError(f"decision {self.id}: duplicate option ids")
        if self.kind is DecisionKind.CHOOSE_ONE and not self.options:
            raise ValueError(f"decision {self.id}: choose-one needs at least one option")
        if self.kind is DecisionKind.CHOOSE_MANY:
            if not 0 <= self.min_choices <= self.max_choices:
                raise ValueError(f"decision {self.id}: need 0 <= min_choices <= max_choices")
            if self.min_choices > len(self.options):
                raise ValueError(f"decision {self.id}: min_choices exceeds the option count")
        if self.required_any:
            if self.kind is not DecisionKind.CHOOSE_MANY:
                raise ValueError(f"decision {self.id}: required_any is for choose-many only")
            if not set(self.required_any) <= set(ids):
                raise ValueError(f"decision {self.id}: required_any names unknown options")
            if self.max_choices < 1:
                raise ValueError(f"decision {self.id}: required_any needs max_choices >= 1")
        if self.kind is DecisionKind.FREE_TEXT and self.max_length <= 0:
            raise ValueError(f"decision {self.id}: free text needs a positive max_length")
        if self.kind is DecisionKind.STRUCTURED:
            if self.json_schema is None:
                raise ValueError(f"decision {self.id}: structured needs a json_schema")
            _check_schema(json.dumps(self.json_schema, sort_keys=True))
        if self.deadline is not None and self.default is None:
            raise ValueError(f"decision {self.id}: a deadline needs a default answer")
        if self.default is not None:
            try:
                self.check(self.default)
            except IllegalAction as err:
                raise ValueError(f"decision {self.id}: the default is not legal: {err}") from err
        return self

    def _check_fields(self) -> None:
        if self.kind is not DecisionKind.STRUCTURED:
            raise ValueError(
                f"decision {self.id}: checked_fields are for structured decisions (free text "
                "is checked whole)"
            )
        if self.json_schema is None:
            return  # refused below: structured needs a json_schema
        if not self.checks:
            raise ValueError(
                f"decision {self.id}: checked_fields name fields to guard but no checks are "
                "named; add checks=('prompt_copy', 'repetition', ...)"
            )
        if len(set(self.checked_fields)) != len(self.checked_fields):
            raise ValueError(f"decision {self.id}: a checked field is named twice")
        for path in self.checked_fields:
            problem = path_problem(self.json_schema, path)
            if problem is not None:
                raise ValueError(f"decision {self.id}: checked field {path!r}: {problem}")

    # -- lookups -------------------------------------------------------------------------

    def option(self, option_id: str) -> Option | None:
        for opt in self.options:
            if opt.id == option_id:
                return opt
        return None

    @property
    def option_ids(self) -> tuple[str, ...]:
        return tuple(o.id for o in self.options)

    def label_of(self, option_id: str) -> str:
        opt = self.option(option_id)
        return opt.label if opt else option_id

    # -- validation ----------------------------------------------------------------------

    def _illegal(self, why: str) -> IllegalAction:
        return IllegalAction(why, decision_id=self.id)

    def _eligible(self) -> str:
        return ", ".join(o.label for o in self.options)

    def _why_not(self, answer: str) -> str:
        """The game's reason for a known illegal answer, else a generic one."""
        for key, why in self.not_allowed.items():
            if key.casefold() == answer.strip().casefold():
                return (
                    f"Invalid {self.purpose} target: {answer} — {why}; eligible: {self._eligible()}"
                )
        return f"'{answer}' is not a legal choice; legal: {self._eligible()}"

    def check(self, action: Action) -> Action:
        """Return the action if it is a legal answer; raise ``IllegalAction`` naming why not."""
        if self.kind is DecisionKind.CHOOSE_ONE:
            if not isinstance(action, Choice):
                raise self._illegal(f"expected one choice, got {action.kind}")
            if self.option(action.option) is None:
                raise self._illegal(self._why_not(action.option))
            if self.phrase_words and len(action.reason.split()) > self.phrase_words:
                raise self._illegal(
                    f"the phrase is {len(action.reason.split())} words, at most {self.phrase_words}"
                )
            return action
        if self.kind is DecisionKind.CHOOSE_MANY:
            if not isinstance(action, Choices):
                raise self._illegal(f"expected a list of choices, got {action.kind}")
            picked = action.options
            if len(set(picked)) != len(picked):
                raise self._illegal("the same option was chosen twice")
            bad = [p for p in picked if self.option(p) is None]
            if bad:
                raise self._illegal(f"not legal: {', '.join(bad)}; legal: {self._eligible()}")
            if not self.min_choices <= len(picked) <= self.max_choices:
                raise self._illegal(
                    f"choose between {self.min_choices} and {self.max_choices} options, "
                    f"got {len(picked)}"
                )
            if self.required_any and not set(picked) & set(self.required_any):
                must = ", ".join(self.label_of(r) for r in self.required_any)
                raise self._illegal(f"include at least one of: {must}")
            return action
        if self.kind is DecisionKind.FREE_TEXT:
            if not isinstance(action, Text):
                raise self._illegal(f"expected text, got {action.kind}")
            if not action.text.strip() and not self.allow_empty:
                raise self._illegal("the answer is empty; write something")
            if len(action.text) > self.max_length:
                raise self._illegal(
                    f"too long: {len(action.text)} characters, at most {self.max_length}"
                )
            return action
        if not isinstance(action, Structured):
            raise self._illegal(f"expected an object, got {action.kind}")
        assert self.json_schema is not None
        errors = sorted(
            _validator(json.dumps(self.json_schema, sort_keys=True)).iter_errors(action.value),
            key=lambda e: list(e.absolute_path),
        )
        if errors:
            where = "/".join(str(p) for p in errors[0].absolute_path) or "(root)"
            raise self._illegal(f"invalid object at {where}: {errors[0].message}")
        return action

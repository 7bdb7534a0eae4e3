"""The LLM seat: layered prompt → typed answer, validated, retried with feedback, fallback.

A failed attempt is retried on a throwaway branch (the bad answer and the validation
error are appended only to that retry's messages); the seat's history is rebuilt from
its view on every call, so nothing from a failed attempt can ever enter it. After the
retry budget the game's scripted policy answers. Every attempt is reported to a sink.
"""

from __future__ import annotations

import functools
import logging
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from parlour.core.actions import Action, Choice, Choices, Structured, Text
from parlour.core.asks import Hints
from parlour.core.call_key import CallKey
from parlour.core.decisions import Decision, DecisionKind
from parlour.core.errors import IllegalAction
from parlour.core.gate import Screen
from parlour.core.policy import Policy
from parlour.core.prompting import Prompter
from parlour.core.rng import hash_seed
from parlour.core.text_rules import text_tokens
from parlour.core.view import AnyView
from parlour.models.base import ModelBackend, ModelError
from parlour.models.messages import (
    RETRY_OPENING,
    Message,
    ModelRequest,
    ModelResponse,
    OutputSpec,
    Settings,
    Usage,
    format_instruction,
)
from parlour.seats.answers import BUDGET_SPENT, AnswerLedger
from parlour.seats.context import (
    ContextComponent,
    ContextReader,
    ContextSection,
    NoReader,
    gather_all,
    render,
)
from parlour.seats.flatten import flatten
from parlour.seats.text_guard import guard, guard_fields

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Attempt(CallKey):
    """One model call made for one decision, as the seat saw it."""

    messages: tuple[Message, ...]
    output: OutputSpec
    response_text: str
    parsed: Any
    outcome: str  # valid | invalid | error | fallback
    error: str
    usage: Usage
    latency_s: float
    #: The context sections gathered for this decision (same for all its attempts).
    context: tuple[ContextSection, ...] = ()


class AttemptSink(Protocol):
    def record(self, attempt: Attempt) -> None: ...


@dataclass(frozen=True)
class AttemptLog:
    """What every attempt at one decision shares, and the sink (if any) they go to: a
    seat makes one per decision and reports each attempt through it."""

    sink: AttemptSink | None
    seat: str
    decision: Decision
    phase: str
    cache_key: str
    output: OutputSpec
    #: The context sections gathered for the decision.
    context: tuple[ContextSection, ...] = ()

    def record(
        self,
        attempt: int,
        outcome: str,
        error: str,
        latency_s: float,
        *,
        model_id: str,
        messages: tuple[Message, ...] = (),
        text: str = "",
        parsed: Any = None,
        usage: Usage | None = None,
    ) -> None:
        if self.sink is None:
            return
        self.sink.record(
            Attempt(
                seat=self.seat,
                decision_id=self.decision.id,
                purpose=self.decision.purpose,
                phase=self.phase,
                attempt=attempt,
                model_id=model_id,
                cache_key=self.cache_key,
                messages=messages,
                output=self.output,
                response_text=text,
                parsed=parsed,
                outcome=outcome,
                error=error,
                usage=usage or Usage(),
                latency_s=latency_s,
                context=self.context,
            )
        )


@dataclass
class LlmSeatConfig:
    retries: int = 2
    temperature: float = 0.7
    #: Room for an answer when the decision gives no ``max_tokens`` hint of its own.
    default_max_tokens: int = 160


def _values(decision: Decision) -> tuple[list[str], dict[str, str]]:
    """What the model writes for each option: the label when labels are unique (models
    answer with names far better than with opaque ids), else the id."""
    labels = [o.label for o in decision.options]
    if len({label.casefold() for label in labels}) == len(labels) and all(labels):
        return labels, {o.label: o.id for o in decision.options}
    ids = [o.id for o in decision.options]
    return ids, {i: i for i in ids}


def output_spec(decision: Decision) -> tuple[OutputSpec, dict[str, str]]:
    if decision.kind is DecisionKind.CHOOSE_ONE:
        values, mapping = _values(decision)
        return OutputSpec.choice(values), mapping
    if decision.kind is DecisionKind.CHOOSE_MANY:
        values, mapping = _values(decision)
        return OutputSpec.choices(values, decision.min_choices, decision.max_choices), mapping
    if decision.kind is DecisionKind.FREE_TEXT:
        # Prose without markup that could pose as the prompt's own structure; one
        # paragraph unless the game asks for lines (diaries).
        multiline = Hints.of(decision).multiline
        return OutputSpec.text(decision.max_length, plain=True, multiline=multiline), {}
    assert decision.json_schema is not None
    return OutputSpec.json_schema(decision.json_schema), {}


def _clip(text: str, limit: int) -> str:
    """Cut over-long speech at a word boundary: length is formatting, not a decision."""
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0].rstrip(",;: ")
    return cut or text[:limit]


#: A copied prompt line this long is parroting, not speech.
PARROT_MIN_CHARS = 30


def prompt_lines(messages: list[Message]) -> set[str]:
    """Normalised long lines of the prompt, to catch answers that copy it back."""
    lines: set[str] = set()
    for message in messages:
        for line in message.content.splitlines():
            norm = " ".join(line.split()).casefold()
            if len(norm) >= PARROT_MIN_CHARS:
                lines.add(norm)
    return lines


def parroting(text: str, lines: set[str]) -> bool:
    norm = " ".join(text.split()).casefold()
    return len(norm) >= PARROT_MIN_CHARS and any(line in norm for line in lines)


def clip_phrase(text: str, words: int) -> str:
    """A choose-one's public phrase: its first sentence, at most ``words`` words (length is
    formatting, not a decision, as for speech)."""
    first = re.split(r"(?<=[.!?])\s", " ".join(text.split()).strip().strip('"'), maxsplit=1)[0]
    return " ".join(first.split()[:words]).strip()


#: A phrase sharing this many consecutive tokens with an option label restates the menu.
OPTION_COPY_TOKENS = 3


def copied_option(phrase: str, decision: Decision) -> str:
    """A choose-one's phrase that restates an option ("Accuse Kenji: has said ...") says
    nothing the rendered choice does not, and may contradict it: the reason, or ""."""
    words = text_tokens(phrase)
    grams = {tuple(words[i : i + OPTION_COPY_TOKENS]) for i in range(len(words) - 2)}
    for option in decision.options:
        label = text_tokens(option.label)
        for i in range(len(label) - OPTION_COPY_TOKENS + 1):
            if tuple(label[i : i + OPTION_COPY_TOKENS]) in grams:
                return f'it restates the option "{option.label}"'
    return ""


def to_action(decision: Decision, response: ModelResponse, mapping: dict[str, str]) -> Action:
    """Turn a response into an action; raise ``IllegalAction`` with feedback for the model."""
    if decision.kind is DecisionKind.FREE_TEXT:
        text = response.text.strip().strip('"').strip()
        return Text(text=_clip(text, decision.max_length))
    if response.parsed is None:
        raise IllegalAction(response.parse_error or "the answer was not valid JSON")
    parsed = response.parsed
    if not isinstance(parsed, dict):
        raise IllegalAction("expected a JSON object")
    why = str(parsed.get("why", ""))[:500]
    if decision.kind is DecisionKind.CHOOSE_ONE:
        raw = str(parsed.get("choice", ""))
        if decision.phrase_words:
            why = clip_phrase(why, decision.phrase_words)
        return Choice(option=mapping.get(raw, raw), reason=why)
    if decision.kind is DecisionKind.CHOOSE_MANY:
        raw_list = parsed.get("choices", [])
        if not isinstance(raw_list, list):
            raise IllegalAction('"choices" must be a list')
        return Choices(options=tuple(mapping.get(str(v), str(v)) for v in raw_list), reason=why)
    return Structured(value=parsed)


#: ``actions.by`` of an answer no model was asked for: the decision had one legal answer.
ENGINE = "engine"


def only_answer(decision: Decision) -> Action | None:
    """The answer when ``decision`` allows exactly one (a choose-one with a single option,
    a choose-many that must take every option), else None. Asking a model would cost
    a whole call (tens of seconds on the embedded model) to learn what the engine knows."""
    legal = [o.id for o in decision.options if o.id not in decision.not_allowed]
    if len(legal) != len(decision.options):
        return None
    if decision.kind is DecisionKind.CHOOSE_ONE and len(legal) == 1:
        return Choice(option=legal[0])
    if decision.kind is DecisionKind.CHOOSE_MANY and legal and decision.min_choices >= len(legal):
        return Choices(options=tuple(legal))
    return None


class LlmSeat(AnswerLedger):
    def __init__(
        self,
        backend: ModelBackend,
        prompter: Prompter,
        fallback: Policy,
        *,
        seat_id: str,
        seed: int,
        cache_key: str,
        config: LlmSeatConfig | None = None,
        sink: AttemptSink | None = None,
        context: Sequence[ContextComponent] = (),
        reader: ContextReader | None = None,
    ) -> None:
        super().__init__(fallback, seat_id=seat_id, seed=seed)
        self.backend = backend
        self.prompter = prompter
        self.cache_key = cache_key
        self.config = config or LlmSeatConfig()
        self.sink = sink
        #: Gathered before every decision, in order; none by default (prompts unchanged).
        self.context = tuple(context)
        self.reader: ContextReader = reader or NoReader()
        #: The game's gate (``core/gate.py``), given by the runner: an answer it refuses
        #: is retried with its feedback like any other invalid answer.
        self.screen: Screen | None = None

    def use_screen(self, screen: Screen) -> None:
        self.screen = screen

    @property
    def label(self) -> str:
        return self.backend.model_id

    def base_messages(
        self,
        view: AnyView,
        decision: Decision,
        spec: OutputSpec,
        sections: Sequence[ContextSection] = (),
    ) -> list[Message]:
        parts = self.prompter.parts(view, decision)
        if sections:
            parts = parts.model_copy(update={"memory": render(parts.memory, sections)})
        instruction = format_instruction(spec)
        if instruction:
            parts = parts.model_copy(update={"command": f"{parts.command}\n\n{instruction}"})
        return [
            Message(role=t.role, content=t.content, cache_boundary=t.cache_boundary)
            for t in flatten(parts)
        ]

    def _guard_inputs(
        self,
        view: AnyView,
        decision: Decision,
        spec: OutputSpec,
        feedback: Sequence[str] = (),
    ) -> tuple[tuple[str, ...], dict[str, str]]:
        """What the guards compare an answer with: the instructions, and each other
        speaker's last line in the transcript.

        ``feedback``: the retry messages this attempt's prompt carries ("Invalid answer:
        it copies your instructions (...)"); they are instructions too, so an answer
        that says its feedback aloud is a prompt copy like any other."""
        parts = self.prompter.parts(view, decision)
        # Instructions are what the game tells the model to do, not the facts it hands
        # over (a brief may be retold; a system prompt may not be recited).
        instructions = (
            parts.system,
            parts.reminders,
            decision.prompt,
            format_instruction(spec),
            *feedback,
        )
        last = {u.speaker: u.text for u in parts.transcript if not u.own}
        return instructions, last

    def _guard(
        self,
        view: AnyView,
        decision: Decision,
        spec: OutputSpec,
        text: str,
        feedback: Sequence[str] = (),
    ) -> str | None:
        """The shared guards the decision opted into (``Decision.checks``)."""
        if decision.checks:
            instructions, last = self._guard_inputs(view, decision, spec, feedback)
            return guard(text, decision.checks, instructions=instructions, last_lines=last)
        return None

    def _problem(
        self,
        view: AnyView,
        decision: Decision,
        spec: OutputSpec,
        action: Action,
        feedback: Sequence[str] = (),
    ) -> str | None:
        """The game's content rules and the guards the decision opted into, on a free-text
        answer or on a structured answer's ``checked_fields`` (each reason naming its
        field); None when nothing is wrong."""
        reasons: list[str] = []
        if isinstance(action, Text):
            if decision.text_rules is not None:
                reasons += decision.text_rules.problems(action.text)
            reason = self._guard(view, decision, spec, action.text, feedback)
        elif isinstance(action, Structured) and decision.checked_fields:
            instructions, last = self._guard_inputs(view, decision, spec, feedback)
            reason = guard_fields(
                action.value,
                decision.checked_fields,
                decision.checks,
                instructions=instructions,
                last_lines=last,
            )
        else:
            reason = None
        if reason is not None:
            reasons.append(reason)
        if self.screen is not None and not reasons:
            refused = self.screen(decision, action)
            if refused is not None:
                reasons.append(refused)
        return "; ".join(reasons) if reasons else None

    async def decide(self, view: AnyView, decision: Decision) -> Action:
        forced = only_answer(decision)
        if forced is not None:  # no call: stored with by="engine" and no model_calls row
            self._answered[decision.id] = ENGINE
            return forced
        spec, mapping = output_spec(decision)
        sections = (
            await gather_all(self.context, view, decision, self.reader) if self.context else ()
        )
        base = self.base_messages(view, decision, spec, sections)
        settings = Settings(
            temperature=self.config.temperature,
            max_tokens=decision.max_tokens or self.config.default_max_tokens,
            seed=hash_seed(self.seed, decision.id),
        )
        branch: list[Message] = []
        free_text = decision.kind is DecisionKind.FREE_TEXT
        attempts = AttemptLog(
            self.sink, self.seat_id, decision, view.phase, self.cache_key, spec, sections
        )
        record = functools.partial(self._record, attempts)
        for attempt in range(1, self.config.retries + 2):
            messages = tuple(base + branch)
            # What this attempt's prompt says to do: the base and, on a retry, the
            # feedback (a copy of either is a prompt copy).
            said_to_it = [m for m in branch if m.role == "user"]
            feedback = [m.content for m in said_to_it]
            copied = prompt_lines(base + said_to_it) if free_text else set()
            request = ModelRequest(
                messages=messages,
                output=spec,
                settings=settings,
                cache_key=self.cache_key,
                purpose=decision.purpose,
            )
            started = time.perf_counter()
            try:
                response = await self.backend.complete(request)
            except ModelError as err:
                record(attempt, messages, None, "error", str(err), time.perf_counter() - started)
                log.warning("%s: model error on %s: %s", self.seat_id, decision.id, err)
                continue
            try:
                action = decision.check(to_action(decision, response, mapping))
                if isinstance(action, Text) and parroting(action.text, copied):
                    raise IllegalAction(
                        "you copied part of your instructions; answer in your own words",
                        decision_id=decision.id,
                    )
                problem = self._problem(view, decision, spec, action, feedback)
                if problem is not None:
                    raise IllegalAction(problem, decision_id=decision.id)
                note = ""
                if isinstance(action, Choice) and decision.phrase_words and action.reason:
                    # The phrase is optional flavour on a legal choice: a failing phrase is
                    # dropped, not retried (a retry would cost a whole call for it).
                    note = self._guard(view, decision, spec, action.reason, feedback) or ""
                    note = note or copied_option(action.reason, decision)
                    if note:
                        action = action.model_copy(update={"reason": ""})
                        note = f"phrase dropped: {note}"
            except IllegalAction as err:
                rejected: IllegalAction | None = err
            else:
                rejected = None
            record(
                attempt,
                messages,
                response,
                "valid" if rejected is None else "invalid",
                note if rejected is None else str(rejected),
                response.latency_s,
            )
            if rejected is None:
                self._answered[decision.id] = response.model_id
                return action
            # Throwaway branch: the retry sees its mistake and the exact error.
            branch = [
                Message(role="assistant", content=response.text or "(empty)"),
                Message(
                    role="user",
                    content=f"{RETRY_OPENING} {rejected}\nTry again. "
                    f"{format_instruction(spec)}".strip(),
                ),
            ]
        # ``answered_by``: ``fallback`` now; else the model that answered (e.g. ``chaos:…``
        # for an injected answer that happened to be legal).
        action = self.fallback_answer(view, decision)
        record(
            self.config.retries + 2,
            tuple(base),
            None,
            "fallback",
            BUDGET_SPENT,
            0.0,
            fallback_answer=action,
        )
        return action

    def _record(
        self,
        attempts: AttemptLog,
        attempt: int,
        messages: tuple[Message, ...],
        response: ModelResponse | None,
        outcome: str,
        error: str,
        latency: float,
        fallback_answer: Action | None = None,
    ) -> None:
        parsed: Any = response.parsed if response else None
        if fallback_answer is not None:
            parsed = fallback_answer.model_dump(mode="json")
        attempts.record(
            attempt,
            outcome,
            error,
            latency,
            model_id=response.model_id if response else self.backend.model_id,
            messages=messages,
            text=response.text if response else "",
            parsed=parsed,
            usage=response.usage if response else None,
        )

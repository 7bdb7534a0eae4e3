"""A seat played by the user's own Python callable (``python:MODULE:CALLABLE``).

The callable gets exactly what every seat gets, the seat's view and the decision, and
returns an answer in whichever shape is handiest (``to_action``). The answer goes
through the same check as any seat's; an illegal answer or an exception is a failed
attempt: it is logged, reported to the sink (so ``parlour cost`` counts it and the call
log shows the error), and the callable is asked again, told why when it takes a
``feedback`` keyword. After the retry budget the game's scripted policy answers, stored
as ``fallback``. User code can never stall or end a game.
"""

from __future__ import annotations

import inspect
import json
import logging
import time
from collections.abc import Mapping, Sequence

from parlour.core.actions import Action, Choice, Choices, Structured, Text
from parlour.core.decisions import Decision, DecisionKind
from parlour.core.errors import IllegalAction
from parlour.core.policy import Policy
from parlour.core.view import AnyView
from parlour.seats.agents import Agent
from parlour.seats.answers import BUDGET_SPENT, AnswerLedger
from parlour.seats.llm import AttemptLog, AttemptSink, output_spec

log = logging.getLogger(__name__)

_ACTIONS = (Choice, Choices, Text, Structured)


def _option_id(decision: Decision, raw: object) -> str:
    """An option id, or the id of the option whose label ``raw`` is (case aside)."""
    text = str(raw).strip()
    if decision.option(text) is not None:
        return text
    by_label = [o.id for o in decision.options if o.label.casefold() == text.casefold()]
    return by_label[0] if len(by_label) == 1 else text


def to_action(decision: Decision, answer: object) -> Action:
    """An agent's answer as an ``Action``: an ``Action`` itself; for a choose-one an option
    id or label (or ``{"choice": ..., "why": ...}``); for a choose-many a list of them (or
    ``{"choices": [...]}``); for free text a string; for a structured decision a dict.
    Raises ``IllegalAction`` saying which shape the decision takes."""
    if isinstance(answer, _ACTIONS):
        return answer
    kind = decision.kind
    why = ""
    if isinstance(answer, Mapping) and kind is not DecisionKind.STRUCTURED:
        why = str(answer.get("why", answer.get("reason", "")))
        answer = answer.get("choices" if kind is DecisionKind.CHOOSE_MANY else "choice")
        if kind is DecisionKind.FREE_TEXT:
            raise IllegalAction("a free-text decision takes a string")
    if kind is DecisionKind.CHOOSE_ONE and isinstance(answer, str | int):
        return Choice(option=_option_id(decision, answer), reason=why)
    if (
        kind is DecisionKind.CHOOSE_MANY
        and isinstance(answer, Sequence | set | frozenset)
        and not isinstance(answer, str)
    ):
        return Choices(options=tuple(_option_id(decision, a) for a in answer), reason=why)
    if kind is DecisionKind.FREE_TEXT and isinstance(answer, str):
        return Text(text=answer)
    if kind is DecisionKind.STRUCTURED and isinstance(answer, Mapping):
        return Structured(value=dict(answer))
    wanted = {
        DecisionKind.CHOOSE_ONE: "an option id or label",
        DecisionKind.CHOOSE_MANY: "a list of option ids or labels",
        DecisionKind.FREE_TEXT: "a string",
        DecisionKind.STRUCTURED: "a dict matching the decision's json_schema",
    }[kind]
    raise IllegalAction(
        f"a {kind.value} decision takes {wanted} (or an Action), not {type(answer).__name__}"
    )


def _takes_feedback(agent: Agent) -> bool:
    try:
        params = inspect.signature(agent).parameters
    except (TypeError, ValueError):  # some builtins have no signature
        return False
    return "feedback" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def _shown(answer: object) -> str:
    """The answer as stored text (the call log's response): JSON when it is JSON."""
    if isinstance(answer, _ACTIONS):
        return answer.model_dump_json()
    try:
        return json.dumps(answer, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(answer)


class PythonSeat(AnswerLedger):
    """Asks ``agent(view, decision)``; ``name`` is its spec, shown as who answered."""

    def __init__(
        self,
        agent: Agent,
        *,
        name: str,
        fallback: Policy,
        seat_id: str,
        seed: int,
        retries: int = 2,
        sink: AttemptSink | None = None,
    ) -> None:
        super().__init__(fallback, seat_id=seat_id, seed=seed)
        self.agent = agent
        self.name = name
        self.retries = retries
        self.sink = sink
        self._feedback = _takes_feedback(agent)

    @property
    def label(self) -> str:
        return self.name

    async def _call(self, view: AnyView, decision: Decision, feedback: str | None) -> object:
        if self._feedback:
            answer = self.agent(view, decision, feedback=feedback)
        else:
            answer = self.agent(view, decision)
        if inspect.isawaitable(answer):
            answer = await answer
        return answer

    async def decide(self, view: AnyView, decision: Decision) -> Action:
        feedback: str | None = None
        # The callable is handed the view object, not a prompt: its attempts carry no
        # messages; the stream is the seat's own.
        attempts = AttemptLog(
            self.sink, self.seat_id, decision, view.phase, self.seat_id, output_spec(decision)[0]
        )
        for attempt in range(1, self.retries + 2):
            started = time.perf_counter()
            try:
                answer = await self._call(view, decision, feedback)
            except Exception as err:  # user code: counted and retried, never fatal
                error = f"{type(err).__name__}: {err}"
                log.warning("%s (%s) raised on %s: %s", self.seat_id, self.name, decision.id, error)
                self._record(attempts, attempt, None, "error", error, started)
                feedback = f"your code raised {error}"
                continue
            try:
                action = decision.check(to_action(decision, answer))
            except IllegalAction as err:
                log.info("%s (%s) answered illegally: %s", self.seat_id, self.name, err)
                self._record(attempts, attempt, answer, "invalid", str(err), started)
                feedback = str(err)
                continue
            self._record(attempts, attempt, answer, "valid", "", started, action)
            self._answered[decision.id] = self.name
            return action
        action = self.fallback_answer(view, decision)
        self._record(
            attempts,
            self.retries + 2,
            None,
            "fallback",
            BUDGET_SPENT,
            time.perf_counter(),
            action,
        )
        return action

    def _record(
        self,
        attempts: AttemptLog,
        attempt: int,
        answer: object,
        outcome: str,
        error: str,
        started: float,
        action: Action | None = None,
    ) -> None:
        if attempts.sink is None:
            return  # nobody records: the answer need not be rendered
        attempts.record(
            attempt,
            outcome,
            error,
            time.perf_counter() - started,
            model_id=self.name,
            text="" if outcome in ("error", "fallback") else _shown(answer),
            parsed=action.model_dump(mode="json") if action is not None else None,
        )

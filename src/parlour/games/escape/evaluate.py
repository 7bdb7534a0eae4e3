"""Scoring a classifier (any seat: scripted, model, human) on a labelled set.

The classifier is asked exactly what the game would ask it in that state (same decision,
same view, built by ``seat_requests.py``); when it answers ``ask`` it is asked the game's
next question too (``clarify``: which actions to offer). The numbers:

* ``understood``: the right action (the pick equals the label, or the engine, reading an
  answer in the text, makes the labelled action happen), the right ``none``, or a sensible
  ask: one whose offered actions hold the labelled action, or, for a labelled ``ask``, the
  same actions as the label's ``options`` (or all of one side within the other: the game
  offers two, a label may name three). For several deeds (``steps``), the engine makes all
  of them happen in order, or the game asks one question offering the first;
* ``wrongly_advanced``: the engine, applying its rules to the pick (answers gate answer
  actions; an answer in the text can trigger its action), would make an action happen
  other than the one the label leads to (for several deeds, the first). That is the story
  moving when it should not;
* ``accuracy``: the pick equals the label (the older figure; an ask is a miss);
* ``asked`` and ``ask_rate``: how often the game would ask; ``ms_per_message``: the
  classifier's median time per message (the clarify call included).

A message the game reads as a command (``/look``, ``hint``…) never reaches the classifier
in a game, so it is not asked here either: the game's own answer (nothing advanced, pick
``none``) is scored.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable

from pydantic import BaseModel, ConfigDict

from parlour.core.actions import Action, Choice, Choices
from parlour.core.decisions import Decision
from parlour.core.errors import IllegalAction
from parlour.core.view import AnyView
from parlour.games.escape import commands
from parlour.games.escape.labels import LabelCase, LabelSet, check_labels, frontier_for
from parlour.games.escape.looking import in_sight
from parlour.games.escape.resolve import resolve
from parlour.games.escape.scenario import ASK_ID, LOOK_ID, NONE_ID, Scenario, ScenarioError
from parlour.games.escape.seat_requests import (
    clarify_decision,
    classifier_view,
    classify_decision,
    phrasings_of,
    room_text,
    unoffered_actions,
)
from parlour.games.escape.several import passes_on, room_words, split_deeds

Decide = Callable[[AnyView, Decision], Awaitable[Action]]
INVALID = "(invalid)"


class Mistake(BaseModel):
    model_config = ConfigDict(frozen=True)

    message: str
    state: tuple[str, ...]
    expected: str
    predicted: str
    advanced: str | None  # the action the engine would have made happen, if any
    #: after an ``ask``, the actions the game would have offered
    offered: tuple[str, ...] = ()


class ClassifierScore(BaseModel):
    model_config = ConfigDict(frozen=True)

    total: int
    correct: int
    accuracy: float
    wrongly_advanced: int
    #: the engine's outcome (what happened) matched the label's, whatever the pick.
    outcome_accuracy: float
    invalid: int
    #: times the classifier asked "which did you mean?" (a miss for accuracy, never an advance)
    asked: int = 0
    #: right action, right none, or a sensible ask (module docstring)
    understood: int = 0
    #: several-deeds cases where only the first step would happen (no wrong advance)
    first_step_only: int = 0
    #: the classifier's wall time per message, the median, in milliseconds (a model's
    #: one-time load is not a message's time)
    ms_per_message: float = 0.0
    #: expected id → predicted id → count.
    confusion: dict[str, dict[str, int]]
    mistakes: tuple[Mistake, ...]

    @property
    def understood_rate(self) -> float:
        return self.understood / self.total if self.total else 0.0

    @property
    def ask_rate(self) -> float:
        return self.asked / self.total if self.total else 0.0

    def summary(self) -> str:
        return (
            f"understood {self.understood_rate:.1%} ({self.understood}/{self.total}), "
            f"ask rate {self.ask_rate:.1%}, {self.ms_per_message:.1f} ms/message, "
            f"accuracy {self.accuracy:.1%} ({self.correct}/{self.total}), "
            f"wrongly advanced {self.wrongly_advanced}, outcome accuracy "
            f"{self.outcome_accuracy:.1%}, invalid {self.invalid}, asked {self.asked}"
        )


async def evaluate_classifier(
    decide: Decide, scenario: Scenario, labels: LabelSet, *, concurrency: int = 1
) -> ClassifierScore:
    problems = check_labels(scenario, labels)
    if problems:
        raise ScenarioError(f"label set does not fit '{scenario.title}': {problems[0]}")
    gate = asyncio.Semaphore(max(1, concurrency))

    actions = {a.id: a for a in scenario.actions}
    texts = [t for a in scenario.actions for t in (a.description, *a.also)]
    room = room_words((a.id, a.description) for a in scenario.actions)

    async def step(index: int, message: str, state: tuple[str, ...]) -> _Result:
        """One deed classified in one state, as the game would ask it."""
        frontier = frontier_for(scenario, state)
        available = frontier.available()
        decision = classify_decision(
            f"eval{index}:classify", [actions[a] for a in available], message, ask=True, look=True
        )
        unoffered = unoffered_actions(scenario.actions, available)
        room = room_text(scenario.intro, scenario.world)
        phrasings = phrasings_of(scenario.actions)
        view = classifier_view("classify", message, unoffered, room, phrasings)
        async with gate:
            began = time.perf_counter()
            answer = await decide(view, decision)
            spent = time.perf_counter() - began
            try:
                decision.check(answer)
            except IllegalAction:
                return _Result(INVALID, None, None, seconds=spent)
            assert isinstance(answer, Choice)
            picked = answer.option  # ``look``: the game shows a thing; nothing happens
            if picked != ASK_ID:
                choice = NONE_ID if picked == LOOK_ID else picked
                happened = resolve(actions, available, set(state), choice, message).happened
                return _Result(picked, happened, None, seconds=spent)
            # The game asks which one was meant: nothing happens; which actions it offers
            # is the classifier's next answer.
            clarify = clarify_decision(
                f"eval{index}:clarify", [actions[a] for a in available], message
            )
            view = classifier_view("clarify", message, unoffered, room, phrasings)
            began = time.perf_counter()
            offer = await decide(view, clarify)
            spent += time.perf_counter() - began
        try:
            clarify.check(offer)
        except IllegalAction:
            return _Result(ASK_ID, None, None, seconds=spent)
        assert isinstance(offer, Choices)
        return _Result(ASK_ID, None, None, offered=tuple(offer.options), seconds=spent)

    async def one(index: int, case: LabelCase) -> _Result:
        frontier = frontier_for(scenario, case.state)
        wanted = _happened(case, frontier.available(), _first(case), scenario)
        if commands.parse(case.message) is not None:
            return _Result(NONE_ID, None, wanted)
        # The game plays a message's deeds as steps in order (``several.py``): the first
        # that acts is what the message does; the rest follow while each makes something
        # happen (a look, or taking a thing in sight, passes on to the next).
        deeds = split_deeds(case.message, texts) or [case.message]
        state, done, seconds = case.state, [], 0.0
        first: _Result | None = None
        at = 0
        while at < len(deeds):
            deed = deeds[at]
            now = await step(index, deed, state)
            seconds += now.seconds
            at += 1
            if now.happened is None:
                looked = now.picked == LOOK_ID
                if (
                    at < len(deeds)
                    and now.picked in (NONE_ID, LOOK_ID)
                    and passes_on(deed, looked, in_sight(scenario, state), room)
                ):
                    if not looked:  # read together with the next deed (the game does)
                        deeds[at] = f"{deed} and {deeds[at]}"
                    continue
                first = first or now
                break
            first = first or now
            done.append(now.happened)
            state = (*state, now.happened)
            if not case.steps:
                break  # only a label of several deeds scores the steps after the first
        first = first or now
        first = first or now
        return _Result(
            NONE_ID if first.picked == LOOK_ID else first.picked,
            first.happened,
            wanted,
            offered=first.offered,
            seconds=seconds,
            steps=tuple(done) if len(deeds) > 1 else (),
        )

    results = await asyncio.gather(*(one(i, c) for i, c in enumerate(labels.cases)))
    confusion: dict[str, dict[str, int]] = {}
    mistakes: list[Mistake] = []
    correct = advanced_wrong = same_outcome = invalid = asked = understood = first_only = 0
    for case, r in zip(labels.cases, results, strict=True):
        row = confusion.setdefault(case.expect, {})
        row[r.picked] = row.get(r.picked, 0) + 1
        correct += r.picked == case.expect
        invalid += r.picked == INVALID
        asked += r.picked == ASK_ID
        same_outcome += r.happened == r.wanted
        advanced_wrong += r.happened is not None and r.happened != r.wanted
        got = is_understood(case, r.picked, r.happened, r.wanted, r.offered, r.steps)
        understood += got
        first_only += (
            bool(case.steps) and not got and r.happened == r.wanted and r.happened is not None
        )
        if not got:
            mistakes.append(
                Mistake(
                    message=case.message,
                    state=case.state,
                    expected=case.expect,
                    predicted=r.picked,
                    advanced=r.happened,
                    offered=r.offered,
                )
            )
    total = len(labels.cases)
    return ClassifierScore(
        total=total,
        correct=correct,
        accuracy=correct / total if total else 0.0,
        wrongly_advanced=advanced_wrong,
        outcome_accuracy=same_outcome / total if total else 0.0,
        invalid=invalid,
        asked=asked,
        understood=understood,
        first_step_only=first_only,
        ms_per_message=1000 * statistics.median(r.seconds for r in results) if total else 0.0,
        confusion=confusion,
        mistakes=tuple(mistakes),
    )


class _Result(BaseModel):
    """One case's outcome: the pick, what the engine would make happen, what the label
    leads to, the actions an ask offers, and the classifier's time."""

    model_config = ConfigDict(frozen=True)

    picked: str
    happened: str | None
    wanted: str | None
    offered: tuple[str, ...] = ()
    seconds: float = 0.0
    #: when the message held several deeds, the actions its steps made happen, in order
    steps: tuple[str, ...] = ()

    def __init__(
        self,
        picked: str,
        happened: str | None,
        wanted: str | None,
        *,
        offered: tuple[str, ...] = (),
        seconds: float = 0.0,
        steps: tuple[str, ...] = (),
    ) -> None:
        super().__init__(
            picked=picked,
            happened=happened,
            wanted=wanted,
            offered=offered,
            seconds=seconds,
            steps=steps,
        )


def is_understood(
    case: LabelCase,
    picked: str,
    happened: str | None,
    wanted: str | None,
    offered: tuple[str, ...] = (),
    steps: tuple[str, ...] = (),
) -> bool:
    """Whether one answer understood its case (the module docstring says when); ``steps``:
    the actions a message of several deeds made happen, in order."""
    if picked == ASK_ID:
        if case.options:
            mine, theirs = set(offered), set(case.options)
            return bool(mine) and (mine <= theirs or theirs <= mine)
        first = case.wanted[:1]
        return bool(first) and first[0] in offered
    if case.options:
        return False
    if case.steps:
        return steps == case.steps  # every step, in order
    if case.expect == NONE_ID:
        return picked == NONE_ID and happened == wanted  # an answer in the text may act
    return picked == case.expect or (wanted is not None and happened == wanted)


def _first(case: LabelCase) -> str:
    """The pick that leads where the label does (``none`` for ``none`` and ``ask``)."""
    return case.wanted[0] if case.wanted else NONE_ID


def _happened(case: LabelCase, available: list[str], pick: str, scenario: Scenario) -> str | None:
    actions = {a.id: a for a in scenario.actions}
    return resolve(actions, available, set(case.state), pick, case.message).happened

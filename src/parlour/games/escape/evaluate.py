"""Scoring a classifier (any seat: scripted, model, human) on a labelled set.

The classifier is asked exactly what the game would ask it in that state (same decision,
same view, built by ``seat_requests.py``). Two numbers matter:

* ``accuracy``: the pick equals the label;
* ``wrongly_advanced``: the engine, applying its rules to the pick (answers gate answer
  actions; an answer in the text can trigger its action), would make an action happen
  other than the one the label leads to. That is the story moving when it should not.

A message the game reads as a command (``/look``, ``hint``…) never reaches the classifier
in a game, so it is not asked here either: the game's own answer (nothing advanced, pick
``none``) is scored.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from pydantic import BaseModel, ConfigDict

from parlour.core.actions import Action, Choice
from parlour.core.decisions import Decision
from parlour.core.errors import IllegalAction
from parlour.core.view import AnyView
from parlour.games.escape import commands
from parlour.games.escape.labels import LabelCase, LabelSet, check_labels, frontier_for
from parlour.games.escape.resolve import resolve
from parlour.games.escape.scenario import ASK_ID, NONE_ID, Scenario, ScenarioError
from parlour.games.escape.seat_requests import (
    classifier_view,
    classify_decision,
    phrasings_of,
    room_text,
    unoffered_actions,
)

Decide = Callable[[AnyView, Decision], Awaitable[Action]]
INVALID = "(invalid)"


class Mistake(BaseModel):
    model_config = ConfigDict(frozen=True)

    message: str
    state: tuple[str, ...]
    expected: str
    predicted: str
    advanced: str | None  # the action the engine would have made happen, if any


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
    #: expected id → predicted id → count.
    confusion: dict[str, dict[str, int]]
    mistakes: tuple[Mistake, ...]

    def summary(self) -> str:
        return (
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

    async def one(index: int, case: LabelCase) -> tuple[str, str | None, str | None]:
        actions = {a.id: a for a in scenario.actions}
        frontier = frontier_for(scenario, case.state)
        available = frontier.available()
        if commands.parse(case.message) is not None:
            return NONE_ID, None, _happened(case, available, case.expect, scenario)
        decision = classify_decision(
            f"eval{index}:classify", [actions[a] for a in available], case.message, ask=True
        )
        view = classifier_view(
            "classify",
            case.message,
            unoffered_actions(scenario.actions, available),
            room_text(scenario.intro, scenario.world),
            phrasings_of(scenario.actions),
        )
        async with gate:
            answer = await decide(view, decision)
        try:
            decision.check(answer)
        except IllegalAction:
            return INVALID, None, _happened(case, available, case.expect, scenario)
        assert isinstance(answer, Choice)
        picked = answer.option
        if picked == ASK_ID:  # the game asks which one was meant: nothing happens
            return picked, None, _happened(case, available, case.expect, scenario)
        return (
            picked,
            _happened(case, available, picked, scenario),
            _happened(case, available, case.expect, scenario),
        )

    results = await asyncio.gather(*(one(i, c) for i, c in enumerate(labels.cases)))
    confusion: dict[str, dict[str, int]] = {}
    mistakes: list[Mistake] = []
    correct = advanced_wrong = same_outcome = invalid = asked = 0
    for case, (picked, happened, wanted) in zip(labels.cases, results, strict=True):
        row = confusion.setdefault(case.expect, {})
        row[picked] = row.get(picked, 0) + 1
        correct += picked == case.expect
        invalid += picked == INVALID
        asked += picked == ASK_ID
        same_outcome += happened == wanted
        wrong = happened is not None and happened != wanted
        advanced_wrong += wrong
        if picked != case.expect:
            mistakes.append(
                Mistake(
                    message=case.message,
                    state=case.state,
                    expected=case.expect,
                    predicted=picked,
                    advanced=happened,
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
        confusion=confusion,
        mistakes=tuple(mistakes),
    )


def _happened(case: LabelCase, available: list[str], pick: str, scenario: Scenario) -> str | None:
    actions = {a.id: a for a in scenario.actions}
    return resolve(actions, available, set(case.state), pick, case.message).happened

"""Classifier quality for escape: any seat kind against the labelled message sets."""

from __future__ import annotations

from dataclasses import dataclass

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.errors import ParlourError
from parlour.core.game import SeatInfo
from parlour.core.view import AnyView
from parlour.games.escape.evaluate import ClassifierScore, evaluate_classifier
from parlour.games.escape.labels import load_labels
from parlour.games.escape.loader import load_scenario, shipped_names
from parlour.games.registry import load
from parlour.runtime.llm_seating import LlmFactory
from parlour.runtime.seating import HumanSpec, SeatSpec, build_seat, is_model, module_spec
from parlour.seats.base import Seat


@dataclass(frozen=True)
class ScenarioScore:
    scenario: str
    spec: str
    score: ClassifierScore


def classifier_seat(spec: SeatSpec | str, factory: LlmFactory | None, seed: int = 0) -> Seat:
    """The seat that plays ``classifier`` in a real game, built the same way (its calls
    are not stored: an evaluation is not a game)."""
    module = load("escape")
    spec = module_spec(spec, module) if isinstance(spec, str) else spec
    if isinstance(spec, HumanSpec):
        raise ParlourError("a person cannot be scored on the labelled sets; pick a model")
    info = SeatInfo(id="classifier", name="Classifier", system=True)
    if factory is None or not is_model(spec):
        return build_seat(spec, info, module, seed, None)
    return factory.seat(spec, info.id, module.prompter, module.fallback_policy, seed)


async def score_scenario(
    seat: Seat, spec: str, scenario_name: str, which: str = "tuning"
) -> ScenarioScore:
    """``which``: the label set, a key of ``loader.LABEL_SETS`` (``tuning``, ``heldout``, ...)."""
    scenario = load_scenario(scenario_name)
    labels = load_labels(scenario_name, which)

    async def decide(view: AnyView, decision: Decision) -> Action:
        return await seat.decide(view, decision)

    score = await evaluate_classifier(decide, scenario, labels)
    return ScenarioScore(scenario=scenario_name, spec=spec, score=score)


def scenario_names(requested: list[str] | None) -> list[str]:
    return requested or list(shipped_names())

"""Classifier quality for escape: any seat kind against the labelled message sets.

The sets are test data outside the installed package: a room's own sets sit beside its
file, the shipped rooms' sets in a label folder (``LabelIndex``), by default the one a
parlour checkout keeps in ``benchmarks/escape/labels/``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.errors import ParlourError
from parlour.core.game import SeatInfo
from parlour.core.view import AnyView
from parlour.games.escape.evaluate import ClassifierScore, evaluate_classifier
from parlour.games.escape.labels import (
    LabelIndex,
    LabelSet,
    check_labels,
    labels_path,
    load_label_file,
    read_label_index,
)
from parlour.games.escape.loader import load_scenario, shipped_names
from parlour.games.escape.scenario import ScenarioError
from parlour.games.registry import load as load_game
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
    module = load_game("escape")
    spec = module_spec(spec, module) if isinstance(spec, str) else spec
    if isinstance(spec, HumanSpec):
        raise ParlourError("a person cannot be scored on the labelled sets; pick a model")
    info = SeatInfo(id="classifier", name="Classifier", system=True)
    if factory is None or not is_model(spec):
        return build_seat(spec, info, module, seed, None)
    return factory.seat(spec, info.id, module.prompter, module.fallback_policy, seed)


#: Where a parlour checkout keeps the shipped rooms' label sets (this file is
#: ``src/parlour/games/escape/surface/evaluation.py`` in it).
CHECKOUT_LABELS = Path(__file__).resolve().parents[5] / "benchmarks" / "escape" / "labels"


def label_index(folder: str | Path | None = None) -> LabelIndex | None:
    """The label folder ``folder`` (an error when it holds no sets), else the checkout's
    when this parlour runs from one; None when no label sets are installed."""
    if folder is not None:
        return read_label_index(folder)
    if (CHECKOUT_LABELS / "sets.yaml").is_file():
        return read_label_index(CHECKOUT_LABELS)
    return None


def labels_for(
    scenario_name: str,
    which: str = "tuning",
    labels_file: str | None = None,
    index: LabelIndex | None = None,
) -> LabelSet:
    """The label set to score ``scenario_name`` on: ``labels_file`` when given, else the
    scenario's ``which`` set (beside a scenario file, else in ``index``). Refused, with the
    first problem named, when the set is for another scenario or a case cannot happen in
    it (``check_labels``)."""
    file = labels_file or str(labels_path(scenario_name, which, index))
    labels = load_label_file(file)
    name = Path(scenario_name).name.removesuffix(".yaml")
    if labels.scenario != name:
        raise ScenarioError(
            f"{file}: the labels are for '{labels.scenario}', not '{name}' "
            f"(pair the right files, or set 'scenario: {name}' in the label file)",
            file=file,
        )
    problems = check_labels(load_scenario(scenario_name), labels)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise ScenarioError(f"{file}: {problems[0]}{more}; fix the label file", file=file)
    return labels


async def score_scenario(
    seat: Seat, spec: str, scenario_name: str, labels: LabelSet
) -> ScenarioScore:
    """``labels``: the set to score on, as ``labels_for`` returns it (read and checked
    once, before any model is loaded)."""

    async def decide(view: AnyView, decision: Decision) -> Action:
        return await seat.decide(view, decision)

    score = await evaluate_classifier(decide, load_scenario(scenario_name), labels)
    return ScenarioScore(scenario=scenario_name, spec=spec, score=score)


def scenario_names(requested: list[str] | None) -> list[str]:
    return requested or list(shipped_names())

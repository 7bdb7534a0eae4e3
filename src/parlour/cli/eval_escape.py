"""``parlour eval escape``: classifier accuracy of any seat kind on the labelled sets."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from parlour.cli.progress import CountingSeat, progress_bar
from parlour.core.errors import ParlourError
from parlour.evals.escape import classifier_seat, labels_for, scenario_names, score_scenario
from parlour.games.escape.loader import LABEL_SETS, NOT_TUNED_ON
from parlour.games.registry import load
from parlour.runtime.seating import is_model, module_spec
from parlour.runtime.store import Store, db_url

console = Console()


def eval_escape(
    model: Annotated[
        list[str] | None,
        typer.Option("--model", help="seat spec to score (repeatable): local, openai:…, scripted"),
    ] = None,
    scenario: Annotated[
        list[str] | None,
        typer.Option(
            "--scenario",
            help="a shipped scenario's name or a scenario YAML file (default: all shipped); "
            "a file's label sets sit beside it (rooms/mine.yaml: rooms/mine.labels.yaml)",
        ),
    ] = None,
    base_url: Annotated[
        str | None, typer.Option("--base-url", help="OpenAI-compatible endpoint for model specs")
    ] = None,
    db: Annotated[
        str | None, typer.Option("--db", help="where calls and the run are stored")
    ] = None,
    label_set: Annotated[
        str,
        typer.Option(
            "--set",
            help=f"labelled set: {', '.join(LABEL_SETS)} (the keyword classifier was tuned "
            + (
                f"on all but {', '.join(NOT_TUNED_ON)}, written without seeing it)"
                if NOT_TUNED_ON
                else "on all of them; only a set nobody has read gives an honest figure)"
            ),
        ),
    ] = "tuning",
    labels: Annotated[
        str | None,
        typer.Option(
            "--labels",
            help="a label file of your own to score on, instead of --set (one --scenario)",
        ),
    ] = None,
    mistakes: Annotated[int, typer.Option(help="show this many mistakes per scenario")] = 5,
    as_json: Annotated[
        bool, typer.Option("--json", help="also print the scores as JSON (for scripts)")
    ] = False,
) -> None:
    """Score a classifier: accuracy, and wrongly advanced actions counted separately."""
    from parlour.runtime.llm_seating import LlmFactory

    if label_set not in LABEL_SETS:
        raise ParlourError(f"--set must be one of: {', '.join(LABEL_SETS)} (got '{label_set}')")
    if labels and len(scenario or []) != 1:
        raise ParlourError("--labels scores one scenario: give exactly one --scenario with it")
    if labels and label_set != "tuning":
        raise ParlourError("give --set or --labels, not both")
    names = scenario_names(scenario)
    # Every label set is read and checked before a model is loaded or a call is made.
    sets = {name: labels_for(name, label_set, labels) for name in names}
    specs = model or ["local"]
    store = Store(db_url(db) if db else None)
    factory = LlmFactory(store=store, base_url=base_url)
    module = load("escape")
    parsed = {spec: module_spec(spec, module) for spec in specs}  # bad specs fail here
    model_specs = [p for p in parsed.values() if is_model(p)]
    if model_specs:
        factory.check(model_specs)
    table = Table(title=f"escape classifier ({labels or f'{label_set} set'})")
    for col in (
        "model",
        "scenario",
        "accuracy",
        "wrongly advanced",
        "outcome acc.",
        "invalid",
        "asked",
    ):
        table.add_column(col)
    summary: list[dict[str, object]] = []
    with progress_bar(console) as progress:
        cases = sum(len(s.cases) for s in sets.values())
        task = progress.add_task("labelled messages", total=len(specs) * cases)
        for spec in specs:
            seat = classifier_seat(parsed[spec], factory)
            counted = CountingSeat(seat, progress, task)
            for name in names:
                progress.update(task, description=f"{spec} · {name}")
                result = asyncio.run(score_scenario(counted, spec, name, sets[name]))
                s = result.score
                table.add_row(
                    spec,
                    Path(name).name.removesuffix(".yaml"),  # a file's stem, not a cut path
                    f"{s.accuracy:.1%} ({s.correct}/{s.total})",
                    str(s.wrongly_advanced),
                    f"{s.outcome_accuracy:.1%}",
                    str(s.invalid),
                    str(s.asked),
                )
                summary.append(
                    {
                        "model": spec,
                        "scenario": name,
                        "set": labels or label_set,
                        **s.model_dump(exclude={"mistakes", "confusion"}),
                    }
                )
                for m in s.mistakes[:mistakes]:
                    console.print(
                        f"[dim]{spec} · {name}: {m.message!r} expected {m.expected}, "
                        f"got {m.predicted}[/]",
                        highlight=False,
                    )
    console.print(table)
    run_id = store.record_eval(
        "escape-classifier", {"models": specs, "set": labels or label_set}, {"rows": summary}
    )
    console.print(f"stored as {run_id}")
    if as_json:
        sys.stdout.write(json.dumps(summary) + "\n")

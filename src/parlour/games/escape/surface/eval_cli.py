"""``parlour eval escape``: classifier accuracy of any seat kind on the labelled sets, with
a progress bar, a table, the mistakes and a stored run; shown with the eval surface's
``EvalTools``."""

import asyncio
import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from parlour.command_options import BaseUrlOpt
from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.errors import ParlourError
from parlour.core.evaluation import EvalTools, Progress
from parlour.core.view import AnyView
from parlour.games.escape.labels import LabelIndex
from parlour.games.escape.surface.evaluation import (
    classifier_seat,
    label_index,
    labels_for,
    scenario_names,
    score_scenario,
)
from parlour.games.registry import load as load_game
from parlour.runtime.seating import is_model, module_spec
from parlour.runtime.store import Store, db_url
from parlour.seats.base import Seat


class CountingSeat:
    """A seat that advances a progress bar each time it answers (one labelled message);
    it answers exactly as the seat it wraps."""

    def __init__(self, inner: Seat, bar: Progress) -> None:
        self.inner = inner
        self.bar = bar

    @property
    def label(self) -> str:
        return self.inner.label

    async def decide(self, view: AnyView, decision: Decision) -> Action:
        try:
            return await self.inner.decide(view, decision)
        finally:
            self.bar.advance()


def _set_help(index: LabelIndex | None) -> str:
    if index is None:
        return (
            "labelled set: tuning, heldout, ... (the shipped rooms' sets are test data in a "
            "parlour checkout, benchmarks/escape/labels/; see --labels-dir)"
        )
    tuned = (
        f"on all but {', '.join(index.not_tuned_on)}, written without seeing it)"
        if index.not_tuned_on
        else "on all of them; only a set nobody has read gives an honest figure)"
    )
    return f"labelled set: {', '.join(index.sets)} (the keyword classifier was tuned " + tuned


def eval_app(tools: EvalTools) -> typer.Typer:
    """The ``parlour eval escape`` command, printing with ``tools``."""
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    console = tools.console
    checkout = label_index()

    @app.command("escape")
    def eval_escape(
        model: Annotated[
            list[str] | None,
            typer.Option(
                "--model", help="seat spec to score (repeatable): local, openai:…, scripted"
            ),
        ] = None,
        scenario: Annotated[
            list[str] | None,
            typer.Option(
                "--scenario",
                help="a shipped scenario's name or a scenario YAML file (default: all shipped); "
                "a file's label sets sit beside it (rooms/mine.yaml: rooms/mine.labels.yaml)",
            ),
        ] = None,
        base_url: BaseUrlOpt = None,
        db: Annotated[
            str | None, typer.Option("--db", help="where calls and the run are stored")
        ] = None,
        label_set: Annotated[str, typer.Option("--set", help=_set_help(checkout))] = "tuning",
        labels: Annotated[
            str | None,
            typer.Option(
                "--labels",
                help="a label file of your own to score on, instead of --set (one --scenario)",
            ),
        ] = None,
        labels_dir: Annotated[
            Path | None,
            typer.Option(
                "--labels-dir",
                help="the shipped scenarios' label sets: a folder with sets.yaml "
                "(default: benchmarks/escape/labels/ of the parlour checkout running)",
            ),
        ] = None,
        mistakes: Annotated[int, typer.Option(help="show this many mistakes per scenario")] = 5,
        as_json: Annotated[
            bool, typer.Option("--json", help="also print the scores as JSON (for scripts)")
        ] = False,
    ) -> None:
        """Score a classifier: messages understood (right action, right none, or a sensible
        ask), wrongly advanced actions, ask rate and time per message."""
        from parlour.runtime.llm_seating import LlmFactory

        index = label_index(labels_dir) if labels_dir is not None else checkout
        if index is not None and label_set not in index.sets:
            raise ParlourError(f"--set must be one of: {', '.join(index.sets)} (got '{label_set}')")
        if labels and len(scenario or []) != 1:
            raise ParlourError("--labels scores one scenario: give exactly one --scenario with it")
        if labels and label_set != "tuning":
            raise ParlourError("give --set or --labels, not both")
        names = scenario_names(scenario)
        # Every label set is read and checked before a model is loaded or a call is made.
        sets = {name: labels_for(name, label_set, labels, index) for name in names}
        specs = model or ["local"]
        store = Store(db_url(db) if db else None)
        factory = LlmFactory(store=store, base_url=base_url)
        parsed = {
            spec: module_spec(spec, load_game("escape")) for spec in specs
        }  # bad specs fail here
        model_specs = [p for p in parsed.values() if is_model(p)]
        if model_specs:
            factory.check(model_specs)
        table = Table(title=f"escape classifier ({labels or f'{label_set} set'})")
        for col in (
            "model",
            "scenario",
            "understood",
            "wrongly advanced",
            "ask rate",
            "ms/message",
            "accuracy",
            "outcome acc.",
            "invalid",
        ):
            table.add_column(col)
        summary: list[dict[str, object]] = []
        cases = sum(len(s.cases) for s in sets.values())
        with tools.progress("labelled messages", len(specs) * cases) as bar:
            for spec in specs:
                seat = classifier_seat(parsed[spec], factory)
                counted = CountingSeat(seat, bar)
                for name in names:
                    bar.describe(f"{spec} · {name}")
                    result = asyncio.run(score_scenario(counted, spec, name, sets[name]))
                    s = result.score
                    table.add_row(
                        spec,
                        Path(name).name.removesuffix(".yaml"),  # a file's stem, not a cut path
                        f"{s.understood_rate:.1%} ({s.understood}/{s.total})",
                        str(s.wrongly_advanced),
                        f"{s.ask_rate:.1%} ({s.asked})",
                        f"{s.ms_per_message:.1f}",
                        f"{s.accuracy:.1%} ({s.correct}/{s.total})",
                        f"{s.outcome_accuracy:.1%}",
                        str(s.invalid),
                    )
                    summary.append(
                        {
                            "model": spec,
                            "scenario": name,
                            "set": labels or label_set,
                            **s.model_dump(exclude={"mistakes", "confusion"}),
                            "understood_rate": s.understood_rate,
                            "ask_rate": s.ask_rate,
                        }
                    )
                    for m in s.mistakes[:mistakes]:
                        got = m.predicted + (f" ({', '.join(m.offered)})" if m.offered else "")
                        moved = f", ADVANCED {m.advanced}" if m.advanced else ""
                        console.print(
                            f"[dim]{spec} · {name}: {m.message!r} expected {m.expected}, "
                            f"got {got}{moved}[/]",
                            highlight=False,
                        )
        console.print(table)
        run_id = store.record_eval(
            "escape-classifier", {"models": specs, "set": labels or label_set}, {"rows": summary}
        )
        console.print(f"stored as {run_id}")
        if as_json:
            sys.stdout.write(json.dumps(summary) + "\n")

    return app

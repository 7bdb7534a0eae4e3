"""``parlour eval GAME`` runs what the game hands over (``GameModule.evaluation``), and a
tournament reports what the game declares (``GameModule.metrics``), for any game."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
import typer
from typer.testing import CliRunner as TyperRunner

from parlour.cli import evals
from parlour.core.errors import ParlourError
from parlour.core.evaluation import EvalTools
from parlour.core.metrics import GENERIC
from parlour.core.module import GameModule
from parlour.games import registry
from parlour.tournament.metrics import metrics_for
from tests.conftest import CliRunner


def _toy_harness(tools: EvalTools) -> typer.Typer:
    app = typer.Typer()

    @app.command("toy")
    def toy(n: int = typer.Option(2, "--n")) -> None:
        """Count to n."""
        with tools.progress("counting", n) as bar:
            for _ in range(n):
                bar.advance()
        tools.console.print(f"counted {n}", highlight=False)

    return app


@pytest.fixture
def plug_in(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, GameModule]]:
    """A registry holding a plug-in game beside the built-in ones."""
    real = registry.load("escape")
    games = {
        "toy": dataclasses.replace(real, evaluation=_toy_harness),
        "bad": dataclasses.replace(real, evaluation=lambda tools: "not an app"),
        "plain": dataclasses.replace(real, evaluation=None),
    }
    monkeypatch.setattr(registry, "load", lambda name: games[name])
    monkeypatch.setattr(registry, "game_names", lambda: sorted(games))
    evals._harness.cache_clear()
    yield games
    evals._harness.cache_clear()


def test_a_plug_in_games_harness_runs_under_parlour_eval(plug_in: dict[str, GameModule]) -> None:
    runner = TyperRunner()
    listed = runner.invoke(evals.evals_app, ["--help"])
    assert "toy" in listed.output and "plain" not in listed.output
    done = runner.invoke(evals.evals_app, ["toy", "--n", "3"])
    assert done.exit_code == 0 and "counted 3" in done.output
    missing = runner.invoke(evals.evals_app, ["plain"])
    assert missing.exit_code == 2 and "No such command 'plain'" in missing.output
    with pytest.raises(ParlourError, match=r"returned str, not a typer\.Typer"):
        evals._harness("bad")


def test_a_game_without_a_harness_is_no_eval_command(cli: CliRunner) -> None:
    out = cli("eval", "werewolf")
    assert out.returncode == 2 and "No such command 'werewolf'" in out.stderr


def test_the_tournament_reads_the_games_own_metrics() -> None:
    assert metrics_for("werewolf") is registry.load("werewolf").metrics
    assert [r.name for r in metrics_for("werewolf").ratios] == ["IRP", "VSS", "KSR", "VWA", "WPV"]
    assert metrics_for("diplomacy").headline == ("solo", "solo rate")
    # missing declares no facts of its own (the generic ones) but hands over its talk
    missing = metrics_for("missing")
    assert missing.facts is GENERIC.facts and not missing.ratios and missing.talk is not None

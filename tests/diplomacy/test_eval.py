"""The Diplomacy evaluation harness: real (small) runs, stored games, the plot, the CLI."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from parlour.core.errors import ParlourError
from parlour.evals.plot import line_plot
from parlour.games.diplomacy.surface.eval_cli import share_by_year
from parlour.games.diplomacy.surface.evaluation import EvalParams, plan_tasks, run_eval
from parlour.runtime.store import Store, db_url
from tests.conftest import CliRunner

PNG = b"\x89PNG\r\n\x1a\n"


def test_tasks_rotate_the_single_power_and_derive_seeds() -> None:
    tasks = plan_tasks(9, seed=4)
    assert [t.mode for t in tasks] == ["1v6"] * 9 + ["6v1"] * 9
    assert [t.power for t in tasks[:8]] == [
        "AUSTRIA",
        "ENGLAND",
        "FRANCE",
        "GERMANY",
        "ITALY",
        "RUSSIA",
        "TURKEY",
        "AUSTRIA",
    ]
    assert len({t.seed for t in tasks}) == 18
    assert plan_tasks(9, seed=4) == tasks and plan_tasks(9, seed=5) != tasks


def test_a_small_parallel_run_stores_games_a_summary_and_a_plot(tmp_path: Path) -> None:
    db = tmp_path / "eval.sqlite"
    params = EvalParams(
        bot="dumbbot", vs="random", games=2, end_year=1903, seed=7, jobs=2, db_url=db_url(str(db))
    )
    seen: list[str] = []
    run = run_eval(params, on_done=lambda o: seen.append(o.game_id))
    summary = run.summary
    assert len(seen) == 4 and run.run_id.startswith("ev-")
    assert set(summary["modes"]) == {"1v6", "6v1"}
    for mode in summary["modes"].values():
        assert mode["games"] == 2 and 0 <= mode["a_share"]["mean"] <= 1
    assert summary["by_year"]["1v6"]["years"] == [1900, 1901, 1902, 1903]
    assert summary["parity"] == pytest.approx(1 / 7)
    # 6v1: A holds six powers; its share is per power, so parity is 1/7 there too.
    six = [o for o in run.outcomes if o.task.mode == "6v1"]
    assert all(len(o.a_powers) == 6 and o.task.power not in o.a_powers for o in six)
    png = share_by_year(line_plot, summary, tmp_path / "plot.png")
    assert png.read_bytes().startswith(PNG)
    store = Store(db_url(str(db)))
    games = store.list_games()
    assert len(games) == 4 and all(g.status == "finished" for g in games)
    assert {g.id for g in games} == set(seen)
    single = {g.id: g.seats for g in games}
    one = next(o for o in run.outcomes if o.task.mode == "1v6")
    assert single[one.game_id][one.task.power] == "dumbbot"
    assert sorted(single[one.game_id].values()).count("random") == 6
    with sqlite3.connect(db) as conn:
        kind, raw = conn.execute("SELECT kind, summary FROM eval_runs").fetchone()
    assert kind == "diplomacy" and json.loads(raw)["modes"]["1v6"]["games"] == 2


def test_dumbbot_beats_random_above_parity(tmp_path: Path) -> None:
    params = EvalParams(
        bot="dumbbot",
        vs="random",
        games=7,
        end_year=1905,
        seed=11,
        jobs=2,
        db_url=db_url(str(tmp_path / "strength.sqlite")),
    )
    summary = run_eval(params).summary
    alone = summary["modes"]["1v6"]
    assert alone["above_parity"], alone["a_share"]
    assert alone["a_share"]["mean"] > 2 / 7
    assert summary["modes"]["6v1"]["a_share"]["mean"] > 1 / 7
    assert len(alone["per_power"]) == 7


def test_humans_cannot_sit_an_eval(tmp_path: Path) -> None:
    params = EvalParams(bot="human", vs="random", games=1, db_url=db_url(str(tmp_path / "h.db")))
    with pytest.raises(ParlourError, match="human"):
        run_eval(params)


def test_the_cli_writes_a_report_a_plot_and_json(cli_here: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = cli_here(
        "eval",
        "diplomacy",
        "--bot",
        "dumbbot",
        "--vs",
        "hold",
        "--games",
        "2",
        "--end-year",
        "1901",
        "--seed",
        "3",
        "--out",
        str(out),
        "--json",
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    pngs = list(out.glob("eval-diplomacy-ev-*.png"))
    assert len(pngs) == 1 and pngs[0].read_bytes().startswith(PNG)
    summary = json.loads(pngs[0].with_suffix(".json").read_text())
    assert summary["params"]["vs"] == "hold" and summary["run_id"] in pngs[0].name
    assert "A share" in done.stdout and '"a_share_1v6"' in done.stdout
    assert summary["overall"]["games"] == 2  # --games counts games in all
    bad = cli_here("eval", "diplomacy", "--bot", "nonsense-bot", "--games", "2")
    assert bad.returncode != 0 and "nonsense-bot" in bad.stderr

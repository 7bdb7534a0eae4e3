"""``parlour tournament`` and ``parlour export`` as a user runs them (subprocesses)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import CliRunner


def test_tournament_cli_runs_resumes_lists_and_exports(cli_here: CliRunner, tmp_path: Path) -> None:
    rep = tmp_path / "report"
    done = cli_here(
        "tournament", "werewolf", "-e", "a=scripted", "-e", "b=random",
        "--games", "4", "--seed", "9", "--jobs", "2", "--report", str(rep),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "rating μ" in out and "win rate by role" in out and "IRP" in out
    tid = out.split("tournament ", 1)[1].split(":", 1)[0]
    assert {p.name for p in rep.iterdir()} >= {"index.html", "ratings.png", "head_to_head.png"}
    again = cli_here("tournament", "resume", tid, "--report", str(tmp_path / "again"))
    assert again.returncode == 0 and "every game is played" in again.stdout
    assert (tmp_path / "again" / "index.html").exists()
    listed = cli_here("tournament", "list")
    assert tid in listed.stdout and "4/4" in listed.stdout
    dump = tmp_path / "t.jsonl"
    exp = cli_here("export", "--tournament", tid, "--format", "jsonl", "--out", str(dump))
    assert exp.returncode == 0, exp.stderr
    lines = [json.loads(x) for x in dump.read_text().splitlines()]
    assert sum(1 for x in lines if x["type"] == "game") == 4


def test_tournament_cli_errors_are_one_line(cli_here: CliRunner) -> None:
    for args, fix in [
        (("tournament", "chess", "-e", "a=scripted"), "parlour games"),
        (("tournament", "werewolf", "-e", "a=gpt"), "valid forms"),
        (("tournament", "resume", "tn-nope"), "parlour tournament list"),
        (("export", "--tournament", "tn-nope"), "parlour tournament list"),
        (("export", "ww-1", "--format", "csv"), "--format jsonl"),
    ]:
        done = cli_here(*args)
        assert done.returncode != 0
        err = done.stderr.strip()
        assert len(err.splitlines()) == 1 and fix in err, err

"""What a new user sees: help screens, tables, transcripts that explain, live status.

The real command (in this process through the same ``main()``; a subprocess where a pipe
matters, a pseudo-terminal where a terminal does), real SQLite files,
the recorded model game in ``tests/fixtures`` and, for the live status, the real model.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest

from tests.conftest import CliRunner
from tests.support.cli import run_parlour, run_parlour_here

FIXTURES = Path(__file__).parent.parent / "fixtures"
RECORDED = json.loads((FIXTURES / "werewolf_local.json").read_text())["game_id"]

COMMANDS = [
    [],
    ["games"],
    ["watch"],
    ["play"],
    ["resume"],
    ["list"],
    ["show"],
    ["cost"],
    ["escape", "validate"],
    ["escape", "graph"],
    ["werewolf", "cast"],
    ["eval", "diplomacy"],
    ["eval", "escape"],
]


@pytest.fixture
def recorded(tmp_path: Path) -> Path:
    """A copy of the recorded SmolLM2 werewolf game (2 fallbacks, a saved night)."""
    db = tmp_path / "recorded.sqlite"
    shutil.copy(FIXTURES / "werewolf_local.sqlite", db)
    return db


def _run(db: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return run_parlour_here(*args, db=db, cwd=cwd)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "parlour")
def test_help_shows_what_to_type(cli_here: CliRunner, command: list[str]) -> None:
    out = cli_here(*command, "--help")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "Show this message and exit." in text
    for artefact in ("<bool>", "<str>", "<int>", "<list", "``", "{game"):
        assert artefact not in text, f"{artefact!r} in help of {command}"
    assert re.search(r"--help\s+Show this message", text)  # nothing between flag and help


def test_list_shows_paused_games_dates_and_filters(cli: CliRunner, cli_here: CliRunner) -> None:
    # Input closed at the first question: the game stops, saved, as "paused". A real process:
    # a person's prompt may leave its reader thread waiting, and main() then ends the
    # process with os._exit (which would end this test process too).
    stopped = cli("play", "werewolf", "--model", "scripted", "--seed", "1", input="")
    assert stopped.returncode != 0
    paused_id = re.search(r"parlour resume (\S+)", stopped.stderr)
    assert paused_id, stopped.stderr
    assert (
        cli_here("watch", "werewolf", "--model", "scripted", "--seed", "2", "--quiet").returncode
        == 0
    )
    listed = cli_here("list").stdout
    assert re.search(rf"{paused_id.group(1)} .* \d{{4}}-\d\d-\d\d \d\d:\d\d .* paused", listed)
    assert "finished" in listed and "started" in listed
    only = cli_here("list", "--status", "paused").stdout
    assert paused_id.group(1) in only and "finished" not in only
    newest = cli_here("list", "--limit", "1").stdout  # newest first: the finished game
    assert paused_id.group(1) not in newest and "see more with --limit" in newest
    assert "werewolf" not in cli_here("list", "--game", "diplomacy").stdout.split("\n", 1)[1]
    bad = cli_here("list", "--status", "stopped")
    assert bad.returncode == 2 and "use running, paused or finished" in bad.stderr


def test_cost_orders_phases_names_seats_and_speaks_csv_and_json(recorded: Path) -> None:
    rows = list(
        csv.DictReader(io.StringIO(_run(recorded, "cost", RECORDED, "--format", "csv").stdout))
    )
    phases = [r["key"] for r in rows if r["by"] == "phase"]
    # In the order the game played them (night 1 before day 1), not alphabetically.
    played = [
        p
        for (p,) in sqlite3.connect(recorded).execute(
            "SELECT phase FROM model_calls WHERE game_id=? GROUP BY phase ORDER BY min(id)",
            (RECORDED,),
        )
    ]
    assert played[:2] == ["night 1", "day 1"] and phases == [*played, "total"]
    seats = [r["key"] for r in rows if r["by"] == "seat"]
    assert seats[:3] == ["Kenji", "Aiko", "Hiroshi"] and "p1" not in seats
    data = json.loads(_run(recorded, "cost", RECORDED, "--format", "json").stdout)
    stored = sqlite3.connect(recorded).execute(
        "SELECT count(*) FROM model_calls WHERE game_id=? AND outcome='fallback'", (RECORDED,)
    )
    fell_back = sum(r["fallbacks"] for r in data if r["by"] == "seat" and r["key"] != "total")
    assert fell_back == stored.fetchone()[0] >= 1
    piped = _run(recorded, "cost", RECORDED).stdout  # not a terminal: nothing cut short
    assert "invalid" in piped and "fallbacks" in piped and "…" not in piped
    assert _run(recorded, "cost", RECORDED, "--format", "xml").returncode == 2


def test_reveal_explains_the_night_with_reasons_and_fallbacks(recorded: Path) -> None:
    revealed = _run(recorded, "show", RECORDED, "--reveal").stdout
    lines = revealed.splitlines()
    # The night's private choices (the doctor's protection, the seer's check, each wolf's
    # pick) are shown, before the dawn they explain.
    protect = lines.index("[Priya] Priya — protect: Kenji")
    assert protect < lines.index("Dawn 1: nobody died tonight.")
    assert "[Kenji] Kenji — investigate: Aiko" in lines
    assert "[Aiko] Aiko — wolf kill: Kenji" in lines
    assert (
        "[wolves] Pack proposals: Aiko → Kenji, Hiroshi → Kenji. The pack attacks Kenji." in lines
    )
    # Vote reasons, on by default with --reveal, shown once (as the vote's "why").
    vote = lines.index("1. Kenji → Aiko")
    # the model's own words for that ballot, as stored with the recorded action
    why = _day1_vote_reason(recorded, "p1")
    assert len(why) > 10 and lines[vote + 1].strip().startswith(f"why: {why[:40]}")
    assert not any("Your reason for voting" in line for line in lines)
    assert "why:" not in _run(recorded, "show", RECORDED, "--reveal", "--no-reasons").stdout
    # The answers the fallback policy wrote (per the call log) are marked, only those.
    marked = [line for line in lines if line.endswith("(fallback)")]
    assert marked == ["Aiko: I suspect Priya. (fallback)"]
    (fell_back,) = sqlite3.connect(recorded).execute(
        "SELECT count(*) FROM model_calls WHERE game_id=? AND outcome='fallback'", (RECORDED,)
    )
    assert fell_back == (len(marked),)
    # An acts wolf's kill is the victim it named in the pack chat: no call, no "why".
    hiroshi = lines.index("[Hiroshi] Hiroshi — wolf kill: Kenji")
    assert "[wolves] Hiroshi: Let us finish Kenji before dawn." in lines
    assert not lines[hiroshi + 1].strip().startswith("why:")
    # Engine notes say so; no seat ids or "[nobody]".
    assert "[engine note] Router picks: Kenji, Aiko, Hiroshi" in lines
    assert "[nobody]" not in revealed and "[p1]" not in revealed
    # The header: every role, and the result.
    assert "- Priya, doctor: local(timeout=900)" in lines and lines[lines.index("Seats:") - 1] == ""
    assert "Result: The werewolves win: they have reached parity with the village." in lines
    # The public transcript keeps private choices private; a seat sees its own.
    public = _run(recorded, "show", RECORDED).stdout
    assert "Priya — protect" not in public and "investigate: Aiko" not in public
    assert "[wolves]" not in public and "Router picks" not in public
    priya = _run(recorded, "show", RECORDED, "--as", "Priya", "--reasons").stdout
    assert "[Priya] Priya — protect: Kenji" in priya and "investigate" not in priya
    # Her own ballot's reason, and nobody else's (a reason is its voter's alone).
    mine, kenjis = _day1_vote_reason(recorded, "p6"), _day1_vote_reason(recorded, "p1")
    assert f"why: {mine[:40]}" in priya and f"why: {kenjis[:40]}" not in priya


def _day1_vote_reason(recorded: Path, seat: str) -> str:
    """The reason the recorded model gave with ``seat``'s day-1 ballot (stored action)."""
    (why,) = [
        str(json.loads(action)["reason"])
        for (action,) in sqlite3.connect(recorded).execute(
            "SELECT action FROM actions WHERE game_id=? AND seat=? AND decision_id LIKE ?",
            (RECORDED, seat, "d1:vote%"),
        )
    ]
    return why


def test_html_export_has_cast_result_names_and_goes_to_out(recorded: Path, tmp_path: Path) -> None:
    done = _run(recorded, "show", RECORDED, "--reveal", "--format", "html", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "out" / f"{RECORDED}.html").read_text()
    head = page[: page.index("<h2>")]
    assert "<td>Priya</td><td>local(timeout=900)</td><td>doctor</td>" in head
    assert "The werewolves win" in head and "Winners: Aiko, Hiroshi" in head
    assert "[Priya]</span>" in page and "[p6]" not in page and "p6" not in head
    assert page.count("<span class=fallback>(fallback)</span>") == 1
    assert "<span class=why>why: " in page


def test_diplomacy_html_draws_each_phase(
    cli_here: CliRunner, db_path: Path, tmp_path: Path
) -> None:
    watched = cli_here(
        "watch", "diplomacy", "--bots", "dumbbot", "--set", "end_year=1901", "--seed", "1"
    )
    assert watched.returncode == 0, watched.stderr
    gid = watched.stdout.strip().splitlines()[-1].split()[2]
    done = _run(db_path, "show", gid, "--format", "html", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "out" / f"{gid}.html").read_text()
    phases = sqlite3.connect(db_path).execute(
        "SELECT count(*) FROM events WHERE game_id=? AND kind='adjudication'", (gid,)
    )
    # One board per adjudicated phase, plus the final position; inline, no XML prolog.
    assert page.count("<svg") == phases.fetchone()[0] + 1 >= 3
    assert "<?xml" not in page and "Final position" in page
    assert "<th>role</th>" not in page  # Diplomacy has no hidden roles


def test_eval_escape_prints_json_only_when_asked(cli_here: CliRunner) -> None:
    plain = cli_here("eval", "escape", "--model", "scripted", "--scenario", "ghost_room")
    assert plain.returncode == 0, plain.stderr
    assert "ghost_room" in plain.stdout and '"accuracy"' not in plain.stdout
    assert "\x1b" not in plain.stdout  # no progress bar drawn into a pipe
    asked = cli_here("eval", "escape", "--model", "scripted", "--scenario", "ghost_room", "--json")
    rows = json.loads(asked.stdout.strip().splitlines()[-1])
    assert rows[0]["scenario"] == "ghost_room" and 0 < rows[0]["accuracy"] <= 1


def test_eval_escape_scores_a_designers_own_scenario_and_labels(
    cli_here: CliRunner, tmp_path: Path
) -> None:
    """docs/escape-scenarios.md, "Testing a scenario": labels beside the scenario file, or
    any label file with --labels; a wrong pairing or an impossible case is refused first."""
    shipped = Path("src/parlour/games/escape/scenarios")
    room = tmp_path / "rooms" / "mine.yaml"
    room.parent.mkdir()
    shutil.copy(shipped / "ghost_room.yaml", room)
    labels = Path("benchmarks/escape/labels/ghost_room.check.yaml").read_text()
    db = str(tmp_path / "eval.sqlite")
    base = ("eval", "escape", "--model", "scripted", "--db", db, "--scenario", str(room))

    missing = cli_here(*base)
    assert missing.returncode == 2 and "write " + str(room.parent / "mine.labels.yaml") in (
        missing.stderr
    )
    (room.parent / "mine.labels.yaml").write_text(
        labels.replace("scenario: ghost_room", "scenario: mine")
    )
    beside = cli_here(*base, "--json")
    assert beside.returncode == 0, beside.stderr
    row = json.loads(beside.stdout.strip().splitlines()[-1])[0]
    assert row["total"] == 60 and row["set"] == "tuning" and 0 < row["accuracy"] <= 1

    own = tmp_path / "my-tests.yaml"
    own.write_text(labels.replace("scenario: ghost_room", "scenario: mine"))
    scored = cli_here(*base, "--labels", str(own), "--json")
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout.strip().splitlines()[-1])[0]["set"] == str(own)

    other = tmp_path / "other.yaml"
    other.write_text(labels)  # still says ghost_room
    wrong = cli_here(*base, "--labels", str(other))
    assert wrong.returncode == 2 and "the labels are for 'ghost_room', not 'mine'" in wrong.stderr
    bad = tmp_path / "bad.yaml"
    bad.write_text(own.read_text().replace("expect: read_note", "expect: climb_down", 1))
    refused = cli_here(*base, "--labels", str(bad))
    assert refused.returncode == 2 and "expects 'climb_down', not available" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    alone = cli_here("eval", "escape", "--model", "scripted", "--db", db, "--labels", str(own))
    assert alone.returncode == 2 and "give exactly one --scenario" in alone.stderr


def test_eval_diplomacy_refuses_an_odd_game_count(cli_here: CliRunner) -> None:
    out = cli_here("eval", "diplomacy", "--games", "3")
    assert out.returncode == 2 and "even number of games" in out.stderr


def test_live_transcript_marks_fallbacks_like_show_and_draws_no_status_in_a_pipe(
    recorded: Path,
) -> None:
    # Replaying the recorded calls under other options makes the seats' answers miss, so
    # the fallback policy writes many lines: the live screen must mark the same ones.
    watched = run_parlour(
        "watch",
        "werewolf",
        "--model",
        f"replay(strict=false):{RECORDED}",
        "--players",
        "6",
        "--seed",
        "11",
        db=recorded,
    )
    assert watched.returncode == 0, watched.stderr
    gid = watched.stdout.strip().splitlines()[-1].split()[2]
    live = [line for line in watched.stdout.splitlines() if line.endswith("(fallback)")]
    shown = _run(recorded, "show", gid).stdout.splitlines()
    assert live and live == [line for line in shown if line.endswith("(fallback)")]
    # the status line's words (a model's diary may say "thinking"; the status may not)
    assert " is thinking: " not in watched.stdout and "\x1b" not in watched.stdout


def test_status_shows_who_thinks_and_ctrl_c_pauses(tmp_path: Path) -> None:
    """The real embedded model in a pseudo-terminal: the status names the seats being
    asked, with elapsed seconds; Ctrl-C clears it, saves the game and lists it paused."""
    db = tmp_path / "live.sqlite"
    env = {**os.environ, "COLUMNS": "160", "PARLOUR_DB": str(db)}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "parlour", "watch", "werewolf", "--players", "5", "--model", "local", "--seed", "4"],
        env=env,
        encoding="utf-8",
        timeout=240,
    )
    child.expect(r"(\w+)\x1b\[0m is thinking: (wolf kill|protect|investigate) \(night 1\)")
    child.expect(r" · \d+s")
    time.sleep(1)
    child.sendintr()
    child.expect("interrupted; everything so far is saved")
    child.expect(pexpect.EOF)
    rows = sqlite3.connect(db).execute("SELECT status FROM games").fetchall()
    assert rows == [("paused",)]

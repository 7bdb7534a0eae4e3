"""The campaign from the command line: a person plays in a pty; validate, recap, show --as."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from parlour.games.campaign.loader import CAMPAIGN_DIR
from tests.support.cli import run_parlour_here
from tests.support.terminal import answer, waiting


def _run(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``parlour ARGS`` in this process (the same ``main()``); the person's game below is a
    real pseudo-terminal."""
    return run_parlour_here(*args, db=db)


@pytest.mark.slow  # a real pseudo-terminal process, played and resumed
def test_a_person_plays_with_sheet_inventory_recap_and_resumes(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    env = {**os.environ, "COLUMNS": "160", "PARLOUR_DB": str(db), "NO_COLOR": "1"}
    args = [
        "-m",
        "parlour",
        "play",
        "campaign",
        "--campaign",
        "night_school",
        "--model",
        "scripted",
        "--seed",
        "4",
        "--set",
        "turns_per_session=2",
        "--set",
        "sessions=2",
    ]
    child = pexpect.spawn(sys.executable, args, env=env, encoding="utf-8", timeout=60)
    child.expect("Priya Okafor: “")  # the opening beat: an NPC line, rendered as speech
    child.expect(waiting("> "))
    answer(child, "/sheet")
    child.expect("Secrets: Ilse is a vampire")
    child.expect(waiting("> "))
    answer(child, "/inventory")
    child.expect("You carry: a steel thermos")
    child.expect(waiting("> "))
    answer(child, "I persuade Priya to run the experiment tomorrow instead.")
    child.expect(r"persuade check \(\w+, DC \d+\)")
    child.expect(waiting("> "))
    answer(child, "/recap")
    child.expect('You: "I persuade Priya')
    child.expect(waiting("> "))
    child.sendeof()  # the person closes the terminal mid-campaign
    child.expect(r"continue with: uv run parlour resume (\S+)")
    gid = child.match.group(1).strip()
    child.expect(pexpect.EOF)
    again = pexpect.spawn(
        sys.executable, ["-m", "parlour", "resume", gid], env=env, encoding="utf-8", timeout=60
    )
    while True:
        i = again.expect([waiting("> "), "Game over", pexpect.EOF])
        if i == 0:
            answer(again, "I ask Priya what she remembers about tonight.")
        else:
            break
    again.expect(pexpect.EOF)
    (status,) = sqlite3.connect(db).execute("SELECT status FROM games").fetchone()
    assert status == "finished"
    recap = _run(db, "campaign", "recap", gid, "--session", "1")
    assert recap.returncode == 0
    assert 'You: "I persuade Priya to run the experiment tomorrow instead."' in recap.stdout
    assert "Session 2" not in recap.stdout


def test_show_as_scene_director_shows_only_what_it_was_shown(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    watch = _run(
        db,
        "watch",
        "campaign",
        "--model",
        "scripted",
        "--seed",
        "3",
        "--set",
        "plant_markers=true",
        "--quiet",
    )
    assert watch.returncode == 0, watch.stderr
    (gid,) = sqlite3.connect(db).execute("SELECT id FROM games").fetchone()
    shown = _run(db, "show", gid, "--as", "scene-director")
    public = _run(db, "show", gid)
    assert shown.returncode == 0 and public.returncode == 0
    assert "[[mk:pc:history]]" not in shown.stdout
    assert "Revealed to" not in shown.stdout  # reveals reach it only through sheets
    assert len(shown.stdout) < len(public.stdout) + 5000
    audit = _run(db, "audit", gid)
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert "1 clean" in audit.stdout


def test_validate_names_file_line_and_code(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    text = (CAMPAIGN_DIR / "short_test.yaml").read_text()
    bad.write_text(text.replace("  location: inn", "  location: cellar"))
    out = _run(tmp_path / "x.sqlite", "campaign", "validate", str(bad))
    assert out.returncode == 1
    assert out.stdout.strip() == f"{bad}:60: [C005] unknown location 'cellar'; known: inn, gate"
    # A file that cannot be read or parsed is exit 2 with C000, as `missing validate` does.
    unread = _run(tmp_path / "x.sqlite", "campaign", "validate", "nope")
    assert unread.returncode == 2, unread.stdout + unread.stderr
    assert unread.stdout.startswith("[C000] no campaign 'nope'")
    assert len(unread.stdout.strip().splitlines()) == 1
    broken = tmp_path / "broken.yaml"
    broken.write_text("title: [unclosed\n")
    unparsed = _run(tmp_path / "x.sqlite", "campaign", "validate", str(broken))
    assert unparsed.returncode == 2 and unparsed.stdout.startswith(f"[C000] {broken}:2:")
    ok = _run(tmp_path / "x.sqlite", "campaign", "validate", "night_school")
    assert ok.returncode == 0 and ok.stdout.startswith("ok: Night School")
    wrong = _run(tmp_path / "x.sqlite", "play", "werewolf", "--campaign", "night_school")
    assert wrong.returncode != 0 and "--campaign is a campaign option" in wrong.stderr


FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "campaign_local.sqlite"
RECORDED = "ca-da939c52f09c0740"  # night_school, seed 1, 1 session of 2 turns, every seat local


def test_recorded_embedded_session_audits_clean_and_replays_exactly(tmp_path: Path) -> None:
    """The embedded-model session (markers planted): no seat was given a marker it may not
    know, and replaying its calls gives the same events."""
    db = tmp_path / "c.sqlite"
    db.write_bytes(FIXTURE.read_bytes())
    audit = _run(db, "audit", RECORDED)
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert "1 clean, 0 leaking" in audit.stdout
    spec = f"replay:{RECORDED}"
    again = _run(
        db,
        "watch",
        "campaign",
        "--model",
        spec,
        "--seat",
        f"story-director={spec}",
        "--seed",
        "1",
        "--set",
        "sessions=1",
        "--set",
        "turns_per_session=2",
        "--set",
        "plant_markers=true",
        "--quiet",
    )
    assert again.returncode == 0, again.stderr
    con = sqlite3.connect(db)
    (new,) = con.execute("SELECT id FROM games WHERE id != ?", (RECORDED,)).fetchone()

    def events(gid: str) -> list[tuple[str, str]]:
        return con.execute(
            "SELECT kind, text FROM events WHERE game_id = ? ORDER BY seq", (gid,)
        ).fetchall()

    assert events(new) == events(RECORDED)
    outcomes = con.execute("SELECT outcome FROM model_calls WHERE game_id = ?", (new,)).fetchall()
    assert outcomes and all(o in ("valid", "invalid", "fallback") for (o,) in outcomes)

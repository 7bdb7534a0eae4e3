"""The talk-quality benchmark on the recorded model game (a copy of the fixture)."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.embedded_game_quality import measure
from parlour.evals.talk_quality import tokens
from parlour.runtime.store import Store, db_url

FIXTURE = Path(__file__).parents[1] / "fixtures" / "werewolf_local.sqlite"
SCRIPT = Path(__file__).parents[2] / "benchmarks" / "embedded_game_quality.py"


@pytest.fixture()
def db(tmp_path: Path) -> Path:
    path = tmp_path / "game.sqlite"
    shutil.copy(FIXTURE, path)
    return path


def _game_id(path: Path) -> str:
    with sqlite3.connect(path) as conn:
        (game_id,) = conn.execute("select id from games where game = 'werewolf'").fetchone()
    return str(game_id)


def _lines(conn: sqlite3.Connection, game_id: str, *kinds: str) -> list[tuple[int, str, str]]:
    """The game's stored events of these kinds, in order, as (seq, speaker, text)."""
    marks = ", ".join("?" * len(kinds))
    return conn.execute(
        "select seq, speaker, text from events "
        f"where game_id = ? and kind in ({marks}) order by seq",
        (game_id, *kinds),
    ).fetchall()


def test_figures_follow_the_stored_game(db: Path) -> None:
    game_id = _game_id(db)
    with sqlite3.connect(db) as conn:
        spoken = _lines(conn, game_id, "speech", "wolf_chat", "diary")
        fallbacks = conn.execute(
            "select count(distinct seat || decision_id) from model_calls "
            "where game_id = ? and outcome = 'fallback'",
            (game_id,),
        ).fetchone()[0]
        prompts = {
            (seat, did): " ".join(str(m["content"]) for m in json.loads(msgs))
            for seat, did, msgs in conn.execute(
                "select seat, decision_id, messages from model_calls where game_id = ?", (game_id,)
            )
        }
    quality, scores = measure(Store(db_url(str(db))), game_id)

    assert quality.shares.lines == sum(1 for _, _, text in spoken if tokens(text)) > 0
    assert quality.fallbacks == fallbacks >= 1  # the recorded game has a speech fallback
    assert quality.unlinked == 0
    # every flagged copy really is in the line and in one of that seat's stored prompts
    copied = [s for s in scores if s.copied]
    assert quality.shares.copied == len(copied) > 0
    for s in copied:
        gram = " ".join(s.copied or ())
        assert gram in " ".join(tokens(s.line.text))
        assert any(
            gram in " ".join(tokens(p)) for (seat, _), p in prompts.items() if seat == s.line.seat
        )
    repeated = [s for s in scores if s.repeated]
    # the guards kept loops out of the recorded lines; any flagged one must be real
    assert quality.shares.repeated == len(repeated)
    for s in repeated:
        toks = tokens(s.line.text)
        gram = list(s.repeated or ())
        starts = [i for i in range(len(toks)) if toks[i : i + len(gram)] == gram]
        assert len(starts) >= 2


def test_editing_the_stored_lines_moves_the_figures(db: Path) -> None:
    """Make one speech a copy of another seat's and one line name a dead player: the
    counts follow the database, so they are computed, not fixed."""
    game_id = _game_id(db)
    before, scores = measure(Store(db_url(str(db))), game_id)
    with sqlite3.connect(db) as conn:
        rows = _lines(conn, game_id, "speech")
        (seq_a, _, text_a), (seq_b, speaker_b, _) = (
            rows[0],
            next(r for r in rows if r[1] != rows[0][1]),
        )
        # free text (not a rendered act: those link by decision, not by words) said after
        # a death, so its edit unlinks it and it can name the dead
        free = {
            seq
            for seq, data in conn.execute(
                "select seq, data from events where game_id = ?", (game_id,)
            )
            if "act" not in json.loads(data)
        }
        late = [
            x.line
            for x in scores
            if x.line.dead and x.line.seq in free - {seq_b} and not x.as_if_alive
        ][-1]
        conn.execute(
            "update events set text = ? where game_id = ? and seq = ?", (text_a, game_id, seq_b)
        )
        conn.execute(
            "update events set text = ? where game_id = ? and seq = ?",
            (f"I accuse {late.dead[0]} of lying.", game_id, late.seq),
        )
    after, _ = measure(Store(db_url(str(db))), game_id)
    assert after.shares.identical == before.shares.identical + 2
    assert after.shares.as_if_alive == before.shares.as_if_alive + 1
    assert after.unlinked == before.unlinked + 2  # edited lines no longer match their actions
    assert speaker_b != rows[0][1] and seq_a != seq_b


def test_script_reports_the_fixture_and_refuses_a_missing_db(db: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--db", str(db), "--json"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    (game,) = json.loads(done.stdout)
    assert game["game_id"] == _game_id(db)
    assert game["shares"]["lines"] > 0 and game["fallbacks"] >= 1

    missing = subprocess.run(
        [sys.executable, str(SCRIPT), "--db", str(tmp_path / "nope.sqlite")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert missing.returncode == 2
    assert "--db an existing file" in missing.stderr
    assert not (tmp_path / "nope.sqlite").exists()

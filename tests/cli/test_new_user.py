"""What a new user runs into on a fresh clone: wrong paths, ports, options and ranges.

Every case runs the real ``parlour`` command on a real SQLite file (in this process, through
the same ``main()``; a real subprocess where the process is the point: the server, the
terminal): a one-line error naming the fix, a non-zero exit, no traceback and nothing
stored or created.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pexpect
import pytest

from tests.support.cli import run_parlour_here


def _run(*args: str, db: Path | None = None) -> subprocess.CompletedProcess[str]:
    return run_parlour_here(*args, db=db, timeout=120)


def _one_line_error(out: subprocess.CompletedProcess[str], *words: str) -> None:
    assert out.returncode != 0, out
    assert "Traceback" not in out.stderr, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), out.stderr
    for word in words:
        assert word in lines[0], lines[0]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A finished scripted werewolf game (no model calls) in its own database."""
    db = tmp_path_factory.mktemp("played") / "games.sqlite"
    out = _run(
        "watch",
        "werewolf",
        "--model",
        "scripted",
        "--players",
        "5",
        "--seed",
        "1",
        "--quiet",
        db=db,
    )
    assert out.returncode == 0, out.stderr
    return db, out.stdout.strip().splitlines()[-1].split()[2]


def test_export_to_a_missing_folder_is_refused_like_show(
    played: tuple[Path, str], tmp_path: Path
) -> None:
    db, game_id = played
    target = tmp_path / "no" / "such" / "g.jsonl"
    out = _run("export", game_id, "--out", str(target), db=db)
    _one_line_error(out, f"no folder {target.parent}", "create it first")
    assert not (tmp_path / "no").exists()
    shown = _run("show", game_id, "-o", str(tmp_path / "no" / "g.txt"), db=db)
    _one_line_error(shown, "create it first")  # the same words as show
    into_a_folder = _run("export", game_id, "--out", str(tmp_path), db=db)
    _one_line_error(into_a_folder, "Is a directory", "pick another --out path")
    good = _run("export", game_id, "--out", str(tmp_path / "g.jsonl"), db=db)
    assert good.returncode == 0 and (tmp_path / "g.jsonl").read_text().count("\n") > 10


def test_serve_refuses_a_port_out_of_range(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite"
    out = _run("serve", "--port", "99999", "--db", str(db))
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert "'--port'" in out.stderr and "65535" in out.stderr
    assert not db.exists()


def test_serve_on_a_port_in_use_says_so_before_announcing(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite"
    with socket.socket() as other:  # another server holds the port
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        out = _run("serve", "--port", str(port), "--db", str(db))
    _one_line_error(out, f"port {port} is in use: pass --port N (or stop the other server)")
    assert "serving" not in out.stdout
    assert not db.exists()


@pytest.mark.slow  # a real web server process
def test_serve_on_a_free_port_announces_and_answers(tmp_path: Path) -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    db = tmp_path / "web.sqlite"
    env = {k: v for k, v in os.environ.items() if k != "PARLOUR_DB"}
    command = [sys.executable, "-m", "parlour", "serve", "--port", str(port), "--db", str(db)]
    server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        assert f"serving on http://127.0.0.1:{port}/" in server.stdout.readline()
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
                    assert page.status == 200
                    break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline
                time.sleep(0.3)
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
    assert db.exists()  # serve writes: it creates its database


CHAOS = ["werewolf", "--model", "chaos(rate=0.5):scripted", "--players", "7", "--seed", "4"]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _marked(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip().endswith("(fallback)")]


def test_live_view_marks_fallbacks_of_any_seat_like_show(tmp_path: Path) -> None:
    """A seat that is not a model (chaos over scripted) falls back: the live transcript,
    piped to a file and on a terminal, marks exactly the lines `parlour show` marks."""
    db = tmp_path / "chaos.sqlite"
    piped = _run("watch", *CHAOS, db=db)
    assert piped.returncode == 0, piped.stderr
    game_id = piped.stdout.strip().splitlines()[-1].split()[2]
    shown = _run("show", game_id, db=db)
    assert len(_marked(shown.stdout)) >= 10  # a game with many fallbacks
    assert _marked(piped.stdout) == _marked(shown.stdout)
    env = {**os.environ, "COLUMNS": "200", "PARLOUR_DB": str(tmp_path / "pty.sqlite")}
    child = pexpect.spawn(
        sys.executable, ["-m", "parlour", "watch", *CHAOS], env=env, encoding="utf-8", timeout=60
    )
    child.expect(pexpect.EOF)
    on_screen = ANSI.sub("", child.before.replace("\r\n", "\n"))
    # the same seed and chaos draws: the same game, the same marked lines
    assert _marked(on_screen) == _marked(shown.stdout)


READERS = [
    ["list"],
    ["show", "we-0"],
    ["cost", "we-0"],
    ["resume", "we-0"],
    ["audit", "we-0"],
    ["export", "we-0"],
    ["campaign", "recap", "ca-0"],
    ["escape", "graph", "ghost_room", "--game", "es-0"],
    ["tournament", "list"],
    ["tournament", "resume", "t-0"],
]


@pytest.mark.parametrize("command", READERS, ids=[" ".join(c[:2]) for c in READERS])
@pytest.mark.parametrize("form", ["{}", "sqlite:///{}", "sqlite:///file:{}?mode=ro&uri=true"])
def test_a_reading_command_refuses_a_db_that_does_not_exist(
    tmp_path: Path, command: list[str], form: str
) -> None:
    missing = tmp_path / "typo" / "games.sqlite"
    db = form.format(missing)
    out = _run(*command, "--db", db)
    _one_line_error(
        out, f"no database at {missing}: check --db (it is created by play/watch/tournament)"
    )
    assert not (tmp_path / "typo").exists()  # nothing created, not even the folder


def test_a_writing_command_still_creates_its_db(tmp_path: Path) -> None:
    # The file, in a folder that exists (a missing folder is refused: tests/security).
    db = tmp_path / "games.sqlite"
    out = _run("watch", "missing", "--model", "scripted", "--seed", "1", "--quiet", "--db", str(db))
    assert out.returncode == 0, out.stderr
    listed = _run("list", "--db", str(db))
    assert listed.returncode == 0 and "missing" in listed.stdout


def test_list_refuses_an_unknown_game_like_other_commands(played: tuple[Path, str]) -> None:
    db, _ = played
    listed = _run("list", "--game", "werewolff", db=db)
    watched = _run("watch", "werewolff", db=db)
    _one_line_error(listed, "unknown game 'werewolff'; choose one of: ", "werewolf")
    assert listed.stderr == watched.stderr
    assert "werewolf" in _run("list", "--game", "werewolf", db=db).stdout


def test_pace_below_zero_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    out = _run("watch", "missing", "--model", "scripted", "--pace", "-1", "--quiet", db=db)
    assert out.returncode == 2 and "'--pace'" in out.stderr and "0" in out.stderr
    assert "Traceback" not in out.stderr and not db.exists()


def test_cost_of_a_game_without_model_calls_in_csv_and_json(played: tuple[Path, str]) -> None:
    db, game_id = played
    as_csv = _run("cost", game_id, "--format", "csv", db=db)
    assert as_csv.returncode == 0
    assert as_csv.stdout.splitlines() == [
        "by,key,calls,invalid,fallbacks,input_tokens,cached_tokens,output_tokens,cost_usd,latency_s"
    ]
    as_json = _run("cost", game_id, "--format", "json", db=db)
    assert as_json.returncode == 0 and json.loads(as_json.stdout) == []
    as_table = _run("cost", game_id, db=db)
    assert "made no model calls" in as_table.stdout  # a person reads a sentence


def test_campaign_recap_of_a_session_not_played_names_the_range(tmp_path: Path) -> None:
    db = tmp_path / "campaign.sqlite"
    out = _run("watch", "campaign", "--model", "scripted", "--seed", "1", "--quiet", db=db)
    assert out.returncode == 0, out.stderr
    game_id = out.stdout.strip().splitlines()[-1].split()[2]
    missing = _run("campaign", "recap", game_id, "--session", "5", db=db)
    _one_line_error(missing, "has sessions 1 to 2; --session 5 is not one of them")
    second = _run("campaign", "recap", game_id, "--session", "2", db=db)
    assert second.returncode == 0 and second.stdout.startswith("Session 2\n")

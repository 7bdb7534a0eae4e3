"""A game from outside the package plays in every surface with no line of parlour changed.

``examples/liars_dice`` is installed (not imported from the checkout) into a fresh
virtual environment that sees this project's environment through a ``.pth`` file, so
nothing is rebuilt or downloaded. Then that environment's ``python -m parlour`` lists the
game, watches it, lets a person play it at the terminal, runs a tournament of it, audits
it for leaks (scripted seats and the embedded model), and serves it to a real browser
through the lobby. The environment is made once for the module: installing is the slow
part, and every test reads it only.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import sysconfig
import time
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from tests.support.terminal import answer, waiting
from tests.web.browser import chromium_or_skip, create_game, first_other, free_port, launch, play

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "liars_dice"

pytestmark = pytest.mark.slow

#: Colour codes, which the terminal's menu carries.
ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: Install what is there, from nothing but the example and the environment's own tools.
PIP_OPTIONS = ("--no-deps", "--no-build-isolation", "--no-index", "--disable-pip-version-check")


class Venv:
    """A fresh environment with the example installed; runs its ``python -m parlour``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.python = root / "bin" / "python"

    def env(self, db: Path) -> dict[str, str]:
        return {**os.environ, "PARLOUR_DB": str(db), "COLUMNS": "200"}

    def parlour(
        self, db: Path, *args: str, timeout: float = 300
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.python), "-m", "parlour", *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=self.env(db),
            check=False,
        )


def _site_packages(python: Path) -> str:
    out = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip()


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Venv:
    tmp = tmp_path_factory.mktemp("example-game")
    made = Venv(tmp / "venv")
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(made.root)], check=True, timeout=120
    )
    # ``addsitedir`` (not a bare path line) so the project environment's own .pth files
    # run too: parlour is installed there in editable mode, through one of them.
    ours = sysconfig.get_paths()["purelib"]
    pth = Path(_site_packages(made.python)) / "_parlour_project_env.pth"
    pth.write_text(f"import site; site.addsitedir({ours!r})\n", encoding="utf-8")
    before = made.parlour(tmp / "none.sqlite", "games")
    assert before.returncode == 0, before.stderr
    if "liars_dice" in before.stdout:  # a developer followed the README's install
        pytest.skip(
            "parlour-liars-dice is installed in the project environment, so a fresh install "
            "would prove nothing: uv pip uninstall parlour-liars-dice (a clean clone has not)"
        )
    # Install from a copy: a non-editable build writes build/ and *.egg-info beside the
    # sources, and the checkout must stay clean.
    source = tmp / "liars_dice"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.egg-info"))
    pip = subprocess.run(
        [str(made.python), "-m", "pip", "install", *PIP_OPTIONS, str(source)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert pip.returncode == 0, pip.stdout + pip.stderr
    return made


def _game_id(output: str) -> str:
    found = re.search(r"saved as (li-[0-9a-f]+)", output)
    assert found, output
    return found.group(1)


def _status(db: Path, game: str) -> str:
    with sqlite3.connect(db) as con:
        row = con.execute("SELECT status FROM games WHERE id = ?", (game,)).fetchone()
    return str(row[0])


def test_games_lists_the_installed_game(venv: Venv, tmp_path: Path) -> None:
    listed = venv.parlour(tmp_path / "g.sqlite", "games")
    assert listed.returncode == 0, listed.stderr
    assert re.search(r"liars_dice\s*│\s*Liar's dice\s*│\s*2-6", listed.stdout), listed.stdout
    assert "werewolf" in listed.stdout  # the built-in games are still there


def test_the_example_s_own_tests_pass_against_the_installed_copy(venv: Venv) -> None:
    where = subprocess.run(
        [str(venv.python), "-c", "import parlour_liars_dice; print(parlour_liars_dice.__file__)"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert not Path(where.stdout.strip()).is_relative_to(EXAMPLE)  # the installed copy
    tests = subprocess.run(
        [str(venv.python), "-m", "pytest", "-q", "-p", "no:cacheprovider", str(EXAMPLE / "tests")],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=EXAMPLE,
        check=False,
    )
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert re.search(r"\b\d+ passed\b", tests.stdout), tests.stdout


def test_watch_a_scripted_game_to_its_result(venv: Venv, tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    watched = venv.parlour(db, "watch", "liars_dice", "--model", "scripted", "--seed", "3")
    assert watched.returncode == 0, watched.stderr
    assert "Game over:" in watched.stdout and "is the last with dice and wins" in watched.stdout
    assert "calls" in watched.stdout and "a liar" in watched.stdout
    assert _status(db, _game_id(watched.stdout)) == "finished"


def test_a_person_plays_at_the_terminal(venv: Venv, tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    child = pexpect.spawn(
        str(venv.python),
        [
            "-m",
            "parlour",
            "play",
            "liars_dice",
            *("--as", "Ada", "--model", "scripted"),
            "--seed",
            "2",
        ],
        env=venv.env(db),
        encoding="utf-8",
        timeout=60,
    )
    # The person is shown their own roll, and only theirs, before the first question.
    child.expect(r"\[Ada\] You rolled ")
    answered = 0
    while child.expect([waiting("number> "), "Game over", pexpect.EOF]) == 0:
        # Call the liar when offered (the menu's last line), else open with the lowest bid.
        menu = ANSI.sub("", str(child.before))
        last = re.findall(r"^\s*(\d+)\. ([^\r\n]*)", menu, flags=re.M)[-1]
        answer(child, last[0] if "a liar" in last[1] else "1")
        answered += 1
    child.expect(pexpect.EOF)
    assert answered >= 1
    with sqlite3.connect(db) as con:
        (game,) = con.execute("SELECT id FROM games").fetchone()
        moves = con.execute(
            "SELECT count(*) FROM events WHERE game_id = ? AND (kind = 'bid' AND speaker = 'p1' "
            "OR kind = 'challenge' AND json_extract(data, '$.challenger') = 'p1')",
            (game,),
        ).fetchone()
    assert _status(db, str(game)) == "finished"
    assert moves == (answered,)


def test_a_tournament_rates_scripted_above_random(venv: Venv, tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    ran = venv.parlour(
        db,
        "tournament",
        "liars_dice",
        "-e",
        "a=scripted",
        "-e",
        "b=random",
        "--games",
        "6",
        "--seed",
        "1",
        "--report",
        str(tmp_path / "report"),
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "6/6 games" in ran.stdout and "status finished" in ran.stdout
    rows = re.findall(r"^│ (a|b)\s+│ (scripted|random)", ran.stdout, flags=re.M)
    assert rows == [("a", "scripted"), ("b", "random")], ran.stdout  # ranked by rating
    assert "call_accuracy" in ran.stdout  # the game's own metrics (GameModule.metrics)
    assert (tmp_path / "report" / "index.html").exists()


def test_the_audit_finds_no_leak(venv: Venv, tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    scripted = venv.parlour(
        db, "watch", "liars_dice", "--model", "scripted", "--seed", "4", "--set",
        "plant_markers=true",
    )  # fmt: skip
    assert scripted.returncode == 0, scripted.stderr
    # The embedded model at one seat: its stored prompts are scanned too (one die each,
    # two seats, so the game is a couple of questions long).
    model = venv.parlour(
        db, "watch", "liars_dice", "--players", "2", "--set", "dice=1", "--set",
        "plant_markers=true", "--model", "scripted", "--seat", "p1=local", "--seed", "3",
    )  # fmt: skip
    assert model.returncode == 0, model.stderr
    # The most indiscreet model at every seat: it puts every secret it holds into every
    # free text it writes (here only a bid's private reason: liar's dice has no table talk).
    told = venv.parlour(
        db, "watch", "liars_dice", "--model", "indiscreet", "--seed", "5", "--set",
        "plant_markers=true",
    )  # fmt: skip
    assert told.returncode == 0, told.stderr
    for game, seats in ((_game_id(scripted.stdout), 3), (_game_id(model.stdout), 2)):
        audit = venv.parlour(db, "audit", game)
        assert audit.returncode == 0, audit.stdout + audit.stderr
        assert "1 clean, 0 leaking, 0 not auditable" in audit.stdout, audit.stdout
        assert f"leak audit of {game} (liars_dice)" in audit.stdout, audit.stdout
        assert len(re.findall(r"│ p\d\s+│", audit.stdout)) == seats, audit.stdout
    prompts = re.search(r"│ p1\s+│\s+\d+ │\s+(\d+) │", audit.stdout)
    assert prompts and int(prompts.group(1)) >= 1, audit.stdout
    audit = venv.parlour(db, "audit", _game_id(told.stdout))
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert ": 0 leaks, 0 disclosures" in audit.stdout, audit.stdout
    assert len(re.findall(r"│ p\d\s+│\s+\d+ │\s+[1-9]\d* │", audit.stdout)) == 3, audit.stdout


def _wait_for_port(port: int, server: subprocess.Popen[str], limit: float = 60) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        assert server.poll() is None, "parlour serve exited"
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise AssertionError("parlour serve did not listen in time")


@pytest.fixture
def served(venv: Venv, tmp_path: Path) -> Iterator[str]:
    """``parlour serve`` of the fresh environment, as a real process; its base URL."""
    port = free_port()
    db = ("--db", str(tmp_path / "web.sqlite"))
    server = subprocess.Popen(
        [
            str(venv.python),
            "-m",
            "parlour",
            "serve",
            "--port",
            str(port),
            *db,
            *("--page-workers", "0"),
            "--open",  # the test plays as the owner would: it sets the seed
        ],
        env=venv.env(tmp_path / "web.sqlite"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        _wait_for_port(port, server)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_the_web_lobby_creates_and_plays_it_in_a_browser(served: str) -> None:
    chromium = chromium_or_skip()
    with launch(chromium) as browser:
        page = browser.new_page()
        page.goto(served + "/")
        assert "liars_dice" in page.locator("select[name=game] option").all_inner_texts()
        links = create_game(page, served, "liars_dice", players=3, seed=2, people=("p1",))
        assert list(links.seats) == ["Ada"]
        page.goto(served + links.seats["Ada"])
        page.wait_for_selector("#decision form.decision")
        assert re.search(r"You rolled [1-6 ]+\.", page.locator("#log").inner_text())
        seen = play(page, first_other)
        assert seen.kinds and {k for k, _ in seen.kinds} == {"bid"}
        assert page.locator("#decision .over").count() == 1
        assert "is the last with dice and wins" in page.locator("#log").inner_text()

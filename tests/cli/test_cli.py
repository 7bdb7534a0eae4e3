"""The command line as people use it: real subprocesses, a real SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.conftest import CliRunner


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (
            ["watch", "chess"],
            "unknown game 'chess'; choose one of: campaign, diplomacy, escape, missing, werewolf",
        ),
        (["watch", "werewolf", "--players", "3", "--model", "scripted"], "5 to 16 players"),
        (["show", "nope"], "no game with id 'nope'; run `uv run parlour list`"),
        (["resume", "nope"], "no game with id 'nope'"),
        (["watch", "werewolf", "--model", "scripted", "--seat", "99=human"], "no seat '99'"),
        (["watch", "werewolf", "--model", "scripted", "--set", "bogus=1"], "bogus"),
        (["watch", "werewolf", "--model", "gpt9"], "gpt9"),
        (
            [
                "watch",
                "werewolf",
                "--model",
                "openai:gpt-4o-mini",
                "--base-url",
                "http://127.0.0.1:9/v1",
            ],
            "127.0.0.1:9",
        ),
        (["watch", "werewolf", "--model", "scripted", "--cast", "/no/such.yaml"], "cast file"),
        (["escape", "validate", "/no/such.yaml"], "/no/such.yaml"),
    ],
)
def test_bad_input_is_one_line_naming_the_fix(
    cli_here: CliRunner, args: list[str], says: str
) -> None:
    out = cli_here(*args, timeout=120)
    assert out.returncode != 0
    lines = [line for line in (out.stderr + out.stdout).splitlines() if line.strip()]
    assert len(lines) == 1, out.stderr + out.stdout
    assert says in lines[0]


def test_bad_input_loses_nothing_already_stored(cli_here: CliRunner, db_path: Path) -> None:
    assert (
        cli_here("watch", "werewolf", "--model", "scripted", "--seed", "1", "--quiet").returncode
        == 0
    )
    before = sqlite3.connect(db_path).execute("SELECT count(*) FROM events").fetchone()
    assert cli_here("watch", "werewolf", "--players", "40", "--model", "scripted").returncode == 2
    assert (
        cli_here(
            "watch", "werewolf", "--model", "openai:x", "--base-url", "http://127.0.0.1:9/v1"
        ).returncode
        == 2
    )
    after = sqlite3.connect(db_path).execute("SELECT count(*) FROM events").fetchone()
    games = sqlite3.connect(db_path).execute("SELECT count(*) FROM games").fetchone()
    assert before == after and games == (1,)


def test_watch_list_show_and_formats(cli_here: CliRunner, tmp_path: Path) -> None:
    out = cli_here("watch", "werewolf", "--players", "7", "--seed", "3", "--model", "scripted")
    assert out.returncode == 0, out.stderr
    assert "Game over" in out.stdout and "scripted" in out.stdout
    gid = out.stdout.strip().splitlines()[-1].split()[2]
    listed = cli_here("list")
    assert gid in listed.stdout and "finished" in listed.stdout
    public = cli_here("show", gid).stdout
    revealed = cli_here("show", gid, "--reveal").stdout
    assert "wolves" not in public and "[wolves] The pack:" in revealed
    as_seat = cli_here("show", gid, "--as", "Kenji").stdout
    assert "as Kenji" in as_seat and "You are Kenji" in as_seat
    html = tmp_path / "g.html"
    assert cli_here("show", gid, "--format", "html", "-o", str(html)).returncode == 0
    assert html.read_text().startswith("<!doctype html>")
    md = cli_here("show", gid, "--format", "markdown").stdout
    assert md.startswith(f"# werewolf {gid}")
    assert cli_here("show", gid, "--format", "pdf").returncode == 2


def test_games_lists_every_game(cli_here: CliRunner) -> None:
    out = cli_here("games")
    assert out.returncode == 0
    for name in ("werewolf", "escape", "diplomacy"):
        assert name in out.stdout


def test_cast_is_generated_saved_edited_and_played(cli_here: CliRunner, tmp_path: Path) -> None:
    cast = tmp_path / "cast.yaml"
    out = cli_here(
        "werewolf",
        "cast",
        "--theme",
        "a space station",
        "--players",
        "6",
        "--model",
        "scripted",
        "-o",
        str(cast),
    )
    assert out.returncode == 0, out.stderr
    text = cast.read_text()
    assert "theme: a space station" in text and text.count("playstyle:") == 6
    # The file is never overwritten unasked, and without -o nothing is written.
    again = ("werewolf", "cast", "--theme", "a space station", "--model", "scripted")
    refused = cli_here(*again, "-o", str(cast), "--seed", "5")
    assert refused.returncode == 2 and "--force" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1 and cast.read_text() == text
    preview = cli_here(*again)
    assert preview.returncode == 0 and "not saved" in preview.stdout
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".yaml") == ["cast.yaml"]
    cast.write_text(text.replace("Kenji", "Zelda"))
    played = cli_here(
        "watch", "werewolf", "--cast", str(cast), "--model", "scripted", "--seed", "2"
    )
    assert played.returncode == 0, played.stderr
    assert "Zelda" in played.stdout and "Kenji" not in played.stdout
    broken = tmp_path / "broken.yaml"
    broken.write_text(text.replace("Aiko", "Kenji"))
    bad = cli_here("watch", "werewolf", "--cast", str(broken), "--model", "scripted")
    assert bad.returncode == 2
    assert "names must be unique" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1

"""Hostile files and option values through the real CLI: exit 2, one line, no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import CliRunner

LOOP = "title: &a [*a]\n"
NUL = "title: a\x00b\n"
BOOL = "title: x\nintro: y\nactions:\n  - id: a\n    description: d\n    ends_game: !!bool maybe\n"
BINARY = "title: !!binary 'abc'\n"
DEEP = "title: " + "[" * 3000 + "]" * 3000 + "\n"
BOMB = "\n".join(
    [
        'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
        *(
            f"{chr(97 + i)}: &{chr(97 + i)} [" + ",".join([f"*{chr(96 + i)}"] * 9) + "]"
            for i in range(1, 10)
        ),
    ]
)


def _one_line(out: str) -> str:
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1, out
    assert "Traceback" not in out
    return lines[0]


@pytest.mark.parametrize(
    ("command", "text", "says"),
    [
        (["escape", "validate"], BOMB, ":6: Y003"),
        (["escape", "validate"], DEEP, ":1: Y002"),
        (["escape", "validate"], NUL, ":1: Y007"),
        (["escape", "validate"], BINARY, ":1: Y005 'abc' is not a valid !!binary"),
        (["escape", "graph"], BOOL, ":6: Y005 'maybe' is not a valid !!bool"),
        (["watch", "escape", "--model", "scripted", "--scenario"], BOMB, ":6: Y003"),
        (["watch", "werewolf", "--model", "scripted", "--cast"], LOOP, ":1: Y003"),
        (["watch", "werewolf", "--model", "scripted", "--cast"], BOOL, ":6: Y005"),
    ],
)
def test_hostile_files_exit_2_with_file_and_line(
    cli_here: CliRunner, tmp_path: Path, command: list[str], text: str, says: str
) -> None:
    path = tmp_path / "hostile.yaml"
    path.write_text(text, encoding="utf-8")
    out = cli_here(*command, str(path), *(["--quiet"] if command[0] == "watch" else []), timeout=60)
    assert out.returncode == 2, out.stdout + out.stderr
    line = _one_line(out.stdout + out.stderr)
    assert f"{path}{says}" in line, line


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("names=[a", ("bad --set names: YAML syntax error", "names expects a list of text")),
        ("maniac=!!bool maybe", ("'maybe' is not a valid !!bool", "maniac expects true or false")),
        ("vote_mode=!!python/object/apply:os.system [x]", ("is not supported", "one of")),
        ("roles=&a [*a]", ("bad --set roles: alias *a", "a mapping")),
    ],
)
def test_bad_set_values_name_the_option_and_type(
    cli_here: CliRunner, value: str, says: tuple[str, str]
) -> None:
    out = cli_here(
        "watch", "werewolf", "--model", "scripted", "--quiet", "--set", value, timeout=60
    )
    assert out.returncode == 2
    line = _one_line(out.stderr)
    assert all(part in line for part in says), line

"""The town validator: shipped towns are clean; bad files get coded file:line errors."""

from __future__ import annotations

import subprocess
from pathlib import Path

from parlour.games.missing.loader import CONTENT_DIR
from parlour.games.missing.validate import validate_file
from tests.support.cli import run_parlour_here

SHORT = (CONTENT_DIR / "small_hours.yaml").read_text(encoding="utf-8")


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "town.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def test_shipped_towns_have_no_errors() -> None:
    problems, code = validate_file("lantern_quay")
    assert code == 0 and problems == []
    _, code = validate_file("small_hours")
    assert code == 0


def test_unknown_key_names_file_line_and_the_fix(tmp_path: Path) -> None:
    text = SHORT.replace("    secret: What did you read", "    secrit: What did you read")
    problems, code = validate_file(_write(tmp_path, text))
    assert code == 2
    line = _line_of(text, "secrit:")
    assert f"town.yaml:{line}:" in problems[0].message
    assert "did you mean 'secret'" in problems[0].message


def test_card_to_unknown_character_is_e003_at_its_line(tmp_path: Path) -> None:
    text = SHORT.replace("    to: jem\n", "    to: jeremy\n")
    problems, code = validate_file(_write(tmp_path, text))
    assert code == 1
    bad = next(p for p in problems if p.code == "E003")
    assert bad.line == _line_of(text, "to: jeremy") and "jeremy" in bad.message


def test_ending_with_unknown_clue_and_last_ending_needing_clues(tmp_path: Path) -> None:
    text = SHORT.replace("needs: [note, ticket, reel, tin]", "needs: [note, tickit]")
    text = text.replace("    min_found: 0\n", "    min_found: 1\n")
    problems, _ = validate_file(_write(tmp_path, text))
    codes = {p.code: p for p in problems}
    assert codes["E005"].line == _line_of(text, "needs: [note, tickit]")
    assert "E006" in codes


def test_no_final_card_and_a_mark_off_the_clock(tmp_path: Path) -> None:
    text = SHORT.replace("    final: true\n", "").replace("  - at: 24\n", "  - at: 45\n")
    problems, _ = validate_file(_write(tmp_path, text))
    marks = [p for p in problems if p.code == "E004"]
    assert any("final" in p.message for p in marks)
    assert any(p.line == _line_of(text, "at: 45") for p in marks)


def test_cli_exit_codes(tmp_path: Path) -> None:
    def run(arg: str) -> subprocess.CompletedProcess[str]:
        return run_parlour_here("missing", "validate", arg)

    assert run("lantern_quay").returncode == 0
    broken = _write(tmp_path, SHORT.replace("    to: jem\n", "    to: jeremy\n"))
    out = run(str(broken))
    assert out.returncode == 1 and "E003 error" in out.stdout and "town.yaml:" in out.stdout
    garbage = _write(tmp_path, "title: [unclosed\n")
    assert run(str(garbage)).returncode == 2


def test_a_handle_that_adds_no_way_to_name_a_clue_is_w005_at_its_line(tmp_path: Path) -> None:
    text = SHORT.replace("handles: [the reel, the missing reel]", "handles: [the reel, The reel]")
    problems, code = validate_file(_write(tmp_path, text))
    assert code == 0  # a warning: the town still plays
    bad = next(p for p in problems if p.code == "W005")
    assert bad.line == _line_of(text, "handles: [the reel, The reel]")
    assert "'The reel'" in bad.message

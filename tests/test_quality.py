"""Lint, format and strict typing are part of the suite, so CI enforces them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_lint_is_clean() -> None:
    out = _run("ruff", "check", "src", "tests", "benchmarks", "examples")
    assert out.returncode == 0, out.stdout + out.stderr


def test_ruff_format_is_clean() -> None:
    out = _run("ruff", "format", "--check", "src", "tests", "benchmarks", "examples")
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.slow  # strict mypy over the whole package and the example
def test_package_and_the_example_game_are_strictly_typed() -> None:
    """src/parlour under the project's strict config; then examples/liars_dice under its own
    strict config, against parlour's sources (parlour ships no py.typed marker, so its
    installed copy reads as untyped).

    One test, so that the second run reads parlour's modules from the cache (.mypy_cache)
    the first has just written: ~9 CPU-s instead of ~68 on a clean clone. As two tests
    they ran at once on two xdist workers, each checking parlour from scratch."""
    package = _run("mypy", "--strict", "src/parlour")
    example = ROOT / "examples" / "liars_dice"
    paths = (str(example / "src"), str(example / "tests"))
    example_out = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(example / "pyproject.toml"), *paths],
        cwd=ROOT,
        env={**os.environ, "MYPYPATH": str(ROOT / "src")},
        capture_output=True,
        text=True,
        check=False,
    )
    failed = [
        f"{what}:\n{out.stdout[-4000:]}{out.stderr[-2000:]}"
        for what, out in (("src/parlour", package), ("examples/liars_dice", example_out))
        if out.returncode != 0
    ]
    assert failed == [], "\n".join(failed)

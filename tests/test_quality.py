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


#: Both mypy runs use the checkout's cache (.mypy_cache) and run one after the other on one
#: worker: the example's run then reads parlour's modules from the cache the package's run
#: just wrote (on a clean clone, ~9 CPU-s instead of ~68 for checking them again).
MYPY = pytest.mark.xdist_group("mypy")


@MYPY
def test_package_is_strictly_typed() -> None:
    out = _run("mypy", "--strict", "src/parlour")
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]


@MYPY
def test_the_example_game_is_strictly_typed() -> None:
    """examples/liars_dice under its own strict config, against parlour's sources
    (parlour ships no py.typed marker, so its installed copy reads as untyped)."""
    example = ROOT / "examples" / "liars_dice"
    paths = (str(example / "src"), str(example / "tests"))
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(example / "pyproject.toml"), *paths],
        cwd=ROOT,
        env={**os.environ, "MYPYPATH": str(ROOT / "src")},
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]

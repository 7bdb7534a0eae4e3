"""The README's set-up commands are what CI runs and what the project installs."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _setup_commands() -> dict[str, str]:
    """The first ``sh`` block of the README: comment -> command."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", readme, re.S)
    assert block is not None
    out = {}
    for line in block.group(1).splitlines():
        command, _, comment = line.partition("  # ")
        out[comment.strip()] = command.strip()
    return out


def test_ci_runs_exactly_the_readme_test_command() -> None:
    commands = _setup_commands()
    [test] = [c for comment, c in commands.items() if comment.startswith("the whole test suite")]
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    runs = [ln.strip() for ln in script.splitlines() if "pytest" in ln and not ln.startswith("#")]
    assert runs == [test], (runs, test)
    [fast] = [c for comment, c in commands.items() if comment.startswith("the fast part")]
    assert fast == f'{test} -m "not model and not browser and not slow"'


def test_the_main_command_installs_no_test_tool() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    commands = _setup_commands()
    [play] = [c for comment, c in commands.items() if comment.startswith("a full game")]
    assert play.startswith("uv run parlour ")  # so it syncs the default groups only
    groups = project["dependency-groups"]
    defaults = project["tool"]["uv"]["default-groups"]
    [test] = [c for comment, c in commands.items() if comment.startswith("the whole test suite")]
    group = re.fullmatch(r"uv run --group (\S+) pytest", test)
    assert group is not None and group.group(1) in groups and group.group(1) not in defaults
    names = {re.split(r"[<>=\[ ]", d)[0].lower() for g in defaults for d in groups[g]}
    names |= {re.split(r"[<>=\[ ]", d)[0].lower() for d in project["project"]["dependencies"]}
    tools = {"pytest", "mypy", "ruff", "hypothesis", "playwright", "py-spy", "psycopg", "ray"}
    assert not names & tools, names & tools
    needed = {re.split(r"[<>=\[ ]", d)[0].lower() for d in groups[group.group(1)]}
    assert tools <= needed  # the suite runs ruff and mypy too (tests/test_quality.py)

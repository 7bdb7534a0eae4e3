"""The example game uses only parlour's public kernel: ``parlour.core`` and itself.

A plug-in that reached into parlour's seats, runtime or surfaces would prove nothing
about the contract, so its imports are read (not run) and checked here."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "examples" / "liars_dice" / "src"
ALLOWED_PARLOUR = ("parlour.core",)
ALLOWED_THIRD_PARTY = ("pydantic",)


def _imports(path: Path) -> list[str]:
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
    return found


def _allowed(module: str) -> bool:
    top = module.split(".")[0]
    if top == "parlour":
        return any(module == p or module.startswith(p + ".") for p in ALLOWED_PARLOUR)
    return top in ("parlour_liars_dice", "__future__", *ALLOWED_THIRD_PARTY) or (
        top in sys.stdlib_module_names
    )


def test_the_example_imports_only_parlour_core_and_itself() -> None:
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) >= 5
    wrong = [f"{f.name}: {m}" for f in files for m in _imports(f) if not _allowed(m)]
    assert wrong == []


def test_the_check_sees_a_surface_import() -> None:
    assert not _allowed("parlour.tournament.facts")
    assert not _allowed("parlour.games.registry")
    assert _allowed("parlour.core.view") and _allowed("math")

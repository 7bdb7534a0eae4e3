"""Where this parlour runs from, so that every command a message prints runs as printed.

From a source checkout, parlour runs through ``uv run`` (the README's way) and ``parlour``
is not on the PATH of someone who followed the README: messages say ``uv run parlour
resume ID``. Installed as a package or tool, they say ``parlour resume ID``. The same
checkout decides the default database's place (runtime/databases.py): one per checkout.
"""

from __future__ import annotations

import functools
from pathlib import Path

_HERE = Path(__file__).resolve()


def _is_checkout(root: Path) -> bool:
    """A parlour source tree: ``src/parlour`` under a ``pyproject.toml`` naming parlour."""
    pyproject = root / "pyproject.toml"
    if not (root / "src" / "parlour").is_dir() or not pyproject.is_file():
        return False
    try:
        text = pyproject.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return 'name = "parlour"' in text


@functools.cache
def checkout() -> Path | None:
    """The source checkout this package is imported from, or None when installed."""
    root = _HERE.parents[3]  # <root>/src/parlour/core/commands.py
    return root if _is_checkout(root) else None


def command(args: str) -> str:
    """``parlour ARGS`` as the user can type it here: ``uv run parlour ARGS`` from a
    checkout, ``parlour ARGS`` when installed."""
    return f"{'uv run parlour' if checkout() is not None else 'parlour'} {args}".rstrip()


def pip_install(requirement: str) -> str:
    """The command that adds a package to the environment this parlour runs in."""
    return f"{'uv pip install' if checkout() is not None else 'pip install'} {requirement}"

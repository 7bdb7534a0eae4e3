"""The layer rule (DESIGN.md): dependencies point down only, checked on every import.

Imports are read with ``ast`` from every module under src/parlour, including imports
inside functions and ``TYPE_CHECKING`` blocks, so a lazy import cannot hide a breach.

A game's rules import only core and the game itself. What a game hands the surfaces and
needs the engine for (its own CLI sub-commands, its eval harness) lives in the game's
``surface/`` subpackage, which sits at the tournament layer: it may import core, seats,
models, runtime and the shared command options (``parlour.command_options``, which cli
uses too) besides its own game, never cli, web, tournament or evals. Only the
game's ``__init__`` (its registration point) may reach into ``surface/``, lazily; a
surface finds its own game through ``parlour.games.registry``, never by importing the
game's ``__init__`` (that would close a circle through the lazy import).

The user surfaces, cli and web, sit side by side on top: each may import any layer
below, neither imports the other, except where one surface starts the other
(``parlour serve`` starts the web app).
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.source_tree import SRC, plant

#: layer → the parlour packages it may import (besides its own).
ALLOWED: dict[str, set[str]] = {
    "core": set(),
    # Typer options declared alike by cli commands and by the commands a game's surface/
    # hands the CLI: below both, so neither imports the other for them.
    "command_options": set(),
    "games": {"core"},
    "seats": {"core", "models"},
    "models": {"core"},
    "runtime": {"core", "games", "seats", "models"},
    "tournament": {"core", "games", "seats", "models", "runtime"},
    # Transcripts, annotations and board pictures as both surfaces draw them.
    "render": {"core", "games", "seats", "models", "runtime"},
    "cli": {
        "core",
        "games",
        "seats",
        "models",
        "runtime",
        "tournament",
        "evals",
        "render",
        "command_options",
    },
    "web": {"core", "games", "seats", "models", "runtime", "tournament", "evals", "render"},
}

#: A surface starting another surface: module → the surface it starts.
STARTS: dict[str, str] = {"cli/serve_cmd.py": "web"}

#: What a game's ``surface/`` subpackage may import besides its own game.
SURFACE_ALLOWED = {"core", "seats", "models", "runtime", "command_options"}


def _imports(path: Path, src: Path = SRC) -> list[tuple[int, str]]:
    """``(line, module)`` of every absolute or relative parlour import in a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = ".".join(path.relative_to(src.parent).with_suffix("").parts[:-1])
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            found.append((node.lineno, module))
    return [(line, m) for line, m in found if m == "parlour" or m.startswith("parlour.")]


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _breaches(src: Path = SRC) -> list[str]:
    out: list[str] = []
    for path in sorted(src.rglob("*.py")):
        own = _layer(".".join(path.relative_to(src.parent).with_suffix("").parts))
        if own not in ALLOWED:
            continue  # evals and the package root sit on top
        where = path.relative_to(src)
        for line, module in _imports(path, src):
            target = _layer(module)
            if own == "games":
                game = path.relative_to(src / "games").parts
                if len(game) == 1:  # games/registry.py, games/__init__.py
                    if target not in ("core", "games"):
                        out.append(f"{where}:{line} imports {module}")
                    continue
                mine = f"parlour.games.{game[0]}"
                surface = f"{mine}.surface"
                in_surface = len(game) > 2 and game[1] == "surface"
                if target == "games":
                    # A game package imports only core and itself; the registry loads games.
                    foreign = module != mine and not module.startswith(mine + ".")
                    # A surface finds its own game's registration as every surface does.
                    foreign = foreign and not (in_surface and module == "parlour.games.registry")
                    into_surface = (
                        (module == surface or module.startswith(surface + "."))
                        and not in_surface
                        and game[1:] != ("__init__.py",)
                    )
                    if foreign or into_surface:
                        out.append(f"{where}:{line} imports {module}")
                elif target != "core" and not (in_surface and target in SURFACE_ALLOWED):
                    out.append(f"{where}:{line} imports {module}")
                continue
            excused = {STARTS.get(str(where))}
            if target != own and target not in ALLOWED[own] and target not in excused:
                out.append(f"{where}:{line} imports {module}")
    return out


def test_layers_depend_downward_only() -> None:
    assert _breaches() == []


def test_a_breach_is_reported(tmp_path: Path) -> None:
    files = {
        "core/x.py": "from parlour.runtime.store import Store\n",
        "games/chess/rules.py": "def f():\n    from parlour.games.werewolf import MODULE\n",
        "games/chess/ok.py": "from parlour.core import Rng\nfrom . import rules\n",
        "games/chess/surface/cli.py": "from parlour.runtime.store import Store\n",
        "games/chess/surface/bad.py": "from parlour.web.app import create\n",
        "games/chess/moves.py": "from parlour.games.chess.surface import cli\n",
        "games/chess/__init__.py": "def commands():\n    from .surface.cli import app\n",
        "seats/y.py": "from ..games import registry\n",
        "runtime/z.py": "import parlour.cli.app\n",
        "cli/serve_cmd.py": "def run():\n    from parlour.web.app import create_app\n",
        "cli/show.py": "from parlour.web.pages import Pages\n",
        "web/page.py": "from parlour.cli.render import render\n",
    }
    assert _breaches(plant(tmp_path, files.items())) == [
        "cli/show.py:1 imports parlour.web.pages",
        "core/x.py:1 imports parlour.runtime.store",
        "games/chess/moves.py:1 imports parlour.games.chess.surface",
        "games/chess/rules.py:2 imports parlour.games.werewolf",
        "games/chess/surface/bad.py:1 imports parlour.web.app",
        "runtime/z.py:1 imports parlour.cli.app",
        "seats/y.py:1 imports parlour.games",
        "web/page.py:1 imports parlour.cli.render",
    ]


def test_the_check_sees_imports() -> None:
    # Not vacuous: the scan finds the imports it judges (runtime meets games and seats).
    runtime = _imports(SRC / "runtime" / "session.py")
    assert any(m.startswith("parlour.games") for _, m in runtime)
    assert any(m.startswith("parlour.seats") for _, m in runtime)
    assert len([p for p in SRC.rglob("*.py") if _imports(p)]) > 50

"""One package owns storage (DESIGN.md): no SQL outside ``parlour.runtime.store``.

Every module under src/parlour is read with ``ast``: outside ``runtime/store/`` none may
import a database library (SQLAlchemy or a driver) or the store's tables and engine
modules, use an ``.engine`` attribute (a store's SQLAlchemy engine), or hold SQL text in
a string. Imports inside functions count too, so a lazy import cannot hide a breach.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.support.source_tree import SRC, plant

OWNER = Path("runtime") / "store"

#: Top-level packages that talk to a database directly.
DATABASE_LIBRARIES = {"sqlalchemy", "sqlite3", "psycopg", "psycopg2", "asyncpg"}
#: The store's insides: its tables and its engine.
STORE_INSIDES = {"parlour.runtime.store.schema", "parlour.runtime.store.engine"}
#: SQL statements as written in code (upper-case keywords; prose is not matched).
SQL = re.compile(
    r"\bSELECT\b.+\bFROM\b|\bINSERT\s+INTO\b|\bDELETE\s+FROM\b|\bUPDATE\s+\w+\s+SET\b"
    r"|\bCREATE\s+(TABLE|INDEX)\b|\bALTER\s+TABLE\b|\bDROP\s+TABLE\b|\bPRAGMA\s+\w+",
    re.S,
)


def _breaches_in(path: Path, where: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: list[str] = []
    for node in ast.walk(tree):
        modules: list[str] = []
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module]
            if node.module == "parlour.runtime.store":
                modules += [f"{node.module}.{alias.name}" for alias in node.names]
        for module in modules:
            if module.split(".")[0] in DATABASE_LIBRARIES or module in STORE_INSIDES:
                out.append(f"{where}:{node.lineno} imports {module}")
        if isinstance(node, ast.Attribute) and node.attr == "engine":
            out.append(f"{where}:{node.lineno} uses .engine")
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and SQL.search(node.value)
        ):
            out.append(f"{where}:{node.lineno} holds SQL text")
    return out


def _breaches(src: Path = SRC) -> list[str]:
    out: list[str] = []
    for path in sorted(src.rglob("*.py")):
        where = path.relative_to(src)
        if where.parts[: len(OWNER.parts)] == OWNER.parts:
            continue
        out += _breaches_in(path, where)
    return out


def test_no_sql_outside_the_store_package() -> None:
    assert _breaches() == []


def test_a_breach_is_reported(tmp_path: Path) -> None:
    files = {
        "web/a.py": "import sqlalchemy as sa\n",
        "web/b.py": "def f(store):\n    with store.engine.connect() as conn:\n        pass\n",
        "cli/c.py": "def f():\n    from sqlalchemy.exc import OperationalError\n",
        "tournament/d.py": "from parlour.runtime.store import Store, schema\n",
        "runtime/e.py": "Q = 'SELECT id FROM games WHERE status = 1'\n",
        "runtime/f.py": "import sqlite3\n",
        "runtime/g.py": "from parlour.runtime.store.engine import Database\n",
        # Inside the package all of it is allowed.
        "runtime/store/games.py": "import sqlalchemy as sa\nQ = 'DELETE FROM games'\nx.engine\n",
        # Prose and the public store API are not breaches.
        "cli/ok.py": (
            "from parlour.runtime.store import Store, db_url\n"
            "HELP = 'select the games from the list, then update them'\n"
            "CSS = '.engine{color:#666}'\n"
        ),
    }
    assert _breaches(plant(tmp_path, files.items())) == [
        "cli/c.py:2 imports sqlalchemy.exc",
        "runtime/e.py:1 holds SQL text",
        "runtime/f.py:1 imports sqlite3",
        "runtime/g.py:1 imports parlour.runtime.store.engine",
        "tournament/d.py:1 imports parlour.runtime.store.schema",
        "web/a.py:1 imports sqlalchemy",
        "web/b.py:2 uses .engine",
    ]


def test_the_scan_reads_the_package() -> None:
    # Not vacuous: the store package itself breaks every rule, and the scan sees it.
    inside = [
        b
        for path in sorted((SRC / OWNER).rglob("*.py"))
        for b in _breaches_in(path, path.relative_to(SRC))
    ]
    assert any("imports sqlalchemy" in b for b in inside)
    assert any("uses .engine" in b for b in inside)
    assert any("holds SQL text" in b for b in inside)
    assert len(list(SRC.rglob("*.py"))) > 100

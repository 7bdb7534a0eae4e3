"""No module reads ``Decision.context`` by string key: every read goes through a typed
ask (``parlour.core.asks``: ``SomeAsk.of(decision)``, ``Hints.of(decision)``), which
validates. The only module that touches the raw mapping is the accessor itself.

The scan is textual (a subscript or ``.get(`` on something named ``context``, a read
of ``decision.context``, or the mapping aliased to ``ctx``), so it also catches a read
hidden in a lazy function.
"""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "parlour"

#: the one module allowed to read the raw mapping: the generic accessor
ACCESSOR = "core/asks.py"

_READ = re.compile(
    r"\bcontext\s*\[|\bcontext\.get\(|\bdecision\.context\b|\bctx\s*=\s*[\w.]+\.context\b"
)


def keyed_reads(root: Path) -> list[str]:
    """``path:line: text`` of every raw read of a decision's context under ``root``."""
    found: list[str] = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel == ACCESSOR:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if _READ.search(code):
                found.append(f"{rel}:{n}: {line.strip()}")
    return found


def test_no_module_reads_the_decision_context_by_key() -> None:
    assert keyed_reads(SRC) == []


def test_the_scan_finds_a_planted_read(tmp_path: Path) -> None:
    game = tmp_path / "games" / "planted"
    game.mkdir(parents=True)
    (game / "prompts.py").write_text(
        "def f(decision):\n"
        "    day = decision.context['day']\n"
        "    ctx = decision.context\n"
        "    return ctx.get('mode'), day\n"
        "def g(d):\n"
        "    return d.context.get('acts')\n"
    )
    (game / "ok.py").write_text("def h(decision):\n    return Ask.of(decision).day\n")
    core = tmp_path / "core"
    core.mkdir()
    (core / "asks.py").write_text("raw = decision.context.get(cls.KEY)\n")
    assert keyed_reads(tmp_path) == [
        "games/planted/prompts.py:2: day = decision.context['day']",
        "games/planted/prompts.py:3: ctx = decision.context",
        "games/planted/prompts.py:6: return d.context.get('acts')",
    ]

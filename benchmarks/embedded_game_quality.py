"""Talk quality of stored werewolf games: what a person reads (issue 12).

For every werewolf game in a database (or only ``--game ID``), the spoken lines are the
stored ``speech``, ``wolf_chat`` and ``diary`` events, by speaker seat. Each line is
scored with ``parlour.evals.talk_quality`` (the rules are in its docstrings):

- repeated 4-gram inside the line;
- copy of >= 8 consecutive tokens of the seat's own prompt: the messages of the stored
  model call that produced it (the last attempt for that seat and decision; a line is
  linked to its decision through the stored action with the same seat and text);
- naming a dead or non-existent player as if alive: dead = deaths announced (``death``
  and ``elimination`` events) before the line; non-existent = default names not seated;
  of the copies, those from the game's own words (``instruction_text``: system and user
  messages without quoted speech) are reported too, as "of which rules";
- identical (same tokens) to a line of another seat in the same game.

Fallbacks per game: decisions the seat's fallback policy answered (a stored model call
with outcome ``fallback``, or an action whose ``by`` names a fallback).

A speech act's line (``data.act`` on the event: the game rendered a choice) is linked to
the seat's next stored choice for a ``speak`` (or pack ``chat``) decision, so its prompt
check runs against the prompt the model saw.

``--play N`` first plays N fresh games with the README's command
(``parlour watch werewolf --players P --seed S --db DB --quiet``, seeds S = --seed,
--seed+1, ...) and reports only those, with their wall time.

    uv run python benchmarks/embedded_game_quality.py --db tests/fixtures/werewolf_local.sqlite
    uv run python benchmarks/embedded_game_quality.py --db /tmp/q.sqlite --play 2 --players 7
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from parlour.core.actions import Action, Choice, Text
from parlour.core.events import Event
from parlour.evals.talk_quality import (
    Line,
    LineScore,
    Shares,
    deaths,
    instruction_text,
    score_lines,
    shares,
    spoken_line,
)
from parlour.games import registry
from parlour.games.werewolf.names import DEFAULT_NAMES
from parlour.runtime.store import CallRecord, Store, db_url

SPOKEN_KINDS = ("speech", "wolf_chat", "diary")


@dataclass(frozen=True)
class GameQuality:
    game_id: str
    seed: int
    players: int
    shares: Shares
    fallbacks: int
    unlinked: int  # lines whose producing model call was not found (no copy check)
    calls: int
    wall_s: float | None = None


def _prompt_text(messages: list[dict[str, Any]]) -> str:
    return "\n".join(str(m.get("content", "")) for m in messages)


def _text_of(action: Action) -> str:
    return action.text if isinstance(action, Text) else ""


def _renders(action: Action, decision_id: str, event: Event) -> bool:
    """The stored action produced this line: the same text, or (a speech act, which the
    game put into words) a choice for the same kind of decision as the act's event."""
    if "act" in event.data:
        kind = ":chat:" if event.kind == "wolf_chat" else ":speak:"
        return isinstance(action, Choice) and kind in decision_id
    return _text_of(action).strip() == event.text.strip()


def game_lines(store: Store, game_id: str) -> tuple[list[Line], int, int, int]:
    """The game's spoken lines, its fallback count, unlinked-line count and call count."""
    row = store.get_game(game_id)
    module = registry.load(row.game)
    config = module.game.config_model.model_validate_json(row.config)
    seats = [s for s in module.game.new(config, row.seed).seats() if not s.system]
    name_of = {s.id: s.name for s in seats}
    absent = tuple(n for n in DEFAULT_NAMES if n not in set(name_of.values()))

    calls = store.calls(game_id)
    last_call: dict[tuple[str, str], CallRecord] = {}
    for record in calls:  # stored in order: the last attempt wins
        last_call[(record.seat, record.decision_id)] = record
    fallback_decisions = {(c.seat, c.decision_id) for c in calls if c.outcome == "fallback"}

    unused = list(store.actions(game_id))
    for act in unused:
        if "fallback" in act.by:
            fallback_decisions.add((act.seat, act.decision_id))

    lines: list[Line] = []
    dead: list[str] = []
    unlinked = 0
    for event in store.events(game_id):
        if event.kind in SPOKEN_KINDS and event.speaker:
            prompt: str | None = None
            instructions: str | None = None
            for i, act in enumerate(unused):
                if act.seat == event.speaker and _renders(act.action, act.decision_id, event):
                    call = last_call.get((act.seat, act.decision_id))
                    if call is not None:
                        prompt = _prompt_text(call.messages)
                        instructions = instruction_text(call.messages)
                    del unused[i]
                    break
            if prompt is None:
                unlinked += 1
            lines.append(spoken_line(event, prompt, instructions, dead, absent))
        dead.extend(deaths(event, name_of))
    return lines, len(fallback_decisions), unlinked, len(calls)


def measure(
    store: Store, game_id: str, wall_s: float | None = None
) -> tuple[GameQuality, list[LineScore]]:
    row = store.get_game(game_id)
    lines, fallbacks, unlinked, calls = game_lines(store, game_id)
    scores = score_lines(lines)
    players = sum(1 for s in row.seats if s != "router")
    return GameQuality(
        game_id, row.seed, players, shares(scores), fallbacks, unlinked, calls, wall_s
    ), scores


def play(db: str, seed: int, players: int, timeout_s: float, model: str) -> float:
    """One game with the README's command; returns its wall time in seconds."""
    cmd = [sys.executable, "-m", "parlour", "watch", "werewolf", "--players", str(players)]
    cmd += ["--seed", str(seed), "--db", db, "--quiet", "--model", model]
    start = time.perf_counter()
    subprocess.run(cmd, check=True, timeout=timeout_s)
    return time.perf_counter() - start


def _pct(s: Shares, count: int) -> str:
    return f"{count}/{s.lines} ({100 * s.share(count):.1f}%)"


_HEAD = (
    "game",
    "seed",
    "lines",
    "repeated 4-gram",
    "prompt copy >=8",
    "of which rules",
    "dead/absent alive",
    "identical",
    "fallbacks",
    "calls",
    "wall",
)


def _row(name: str, seed: str, s: Shares, fallbacks: str, calls: str, wall: str) -> list[str]:
    counts = (s.repeated, s.copied, s.copied_instructions, s.as_if_alive, s.identical)
    return [name, seed, str(s.lines), *(_pct(s, c) for c in counts), fallbacks, calls, wall]


def render(results: list[GameQuality]) -> str:
    """A plain table, one row per game and an overall row (shares pooled over lines)."""
    rows = [list(_HEAD)]
    for g in results:
        wall = f"{g.wall_s:.0f}s" if g.wall_s is not None else "-"
        rows.append(_row(g.game_id, str(g.seed), g.shares, str(g.fallbacks), str(g.calls), wall))
    fields = Shares.__dataclass_fields__
    total = Shares(*(sum(getattr(g.shares, f) for g in results) for f in fields))
    per_game = sum(g.fallbacks for g in results) / len(results) if results else 0.0
    rows.append(_row("overall", "", total, f"{per_game:.1f}/game", "", ""))
    widths = [max(len(r[i]) for r in rows) for i in range(len(_HEAD))]
    out = [
        "  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip() for r in rows
    ]
    unlinked = sum(g.unlinked for g in results)
    if unlinked:
        out.append(f"({unlinked} line(s) not linked to a stored model call: no prompt-copy check)")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", required=True, help="SQLite file with stored werewolf games")
    ap.add_argument("--game", action="append", help="only this game id (repeatable)")
    ap.add_argument(
        "--play", type=int, default=0, help="first play N fresh games on the embedded model"
    )
    ap.add_argument("--players", type=int, default=7)
    ap.add_argument("--model", default="local", help="who plays the --play games (default local)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds allowed per played game")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument(
        "--examples", type=int, default=0, help="print up to N flagged lines per metric"
    )
    args = ap.parse_args(argv)

    walls: dict[str, float] = {}
    ids = list(args.game or [])
    for k in range(args.play):
        before = _game_ids(args.db)
        wall = play(args.db, args.seed + k, args.players, args.timeout, args.model)
        new = [g for g in _game_ids(args.db) if g not in before]
        walls.update({g: wall for g in new})
        ids += new
    if not args.play and "://" not in args.db and not Path(args.db).is_file():
        print(
            f"no database at {args.db}; pass --db an existing file or add --play N", file=sys.stderr
        )
        return 2
    store = Store(db_url(args.db))
    if not ids:
        ids = [g.id for g in store.list_games(limit=100_000, game="werewolf")][::-1]
    if not ids:
        print(f"no werewolf game in {args.db}; play one with --play 1", file=sys.stderr)
        return 2
    measured = [measure(store, gid, walls.get(gid)) for gid in ids]
    results = [m[0] for m in measured]
    if args.json:
        print(json.dumps([asdict(g) for g in results], indent=2))
    else:
        print(render(results))
    if args.examples:
        _print_examples([s for m in measured for s in m[1]], args.examples)
    return 0


def _game_ids(db: str) -> list[str]:
    store = Store(db_url(db))
    try:
        return [g.id for g in store.list_games(limit=100_000, game="werewolf")]
    finally:
        store.close()


def _print_examples(scores: list[LineScore], limit: int) -> None:
    checks: dict[str, Callable[[LineScore], str | None]] = {
        "repeated 4-gram": lambda s: " ".join(s.repeated) if s.repeated else None,
        "prompt copy": lambda s: " ".join(s.copied) if s.copied else None,
        "dead/absent as if alive": lambda s: ", ".join(s.as_if_alive) or None,
        "identical to another seat": lambda s: "identical" if s.identical else None,
    }
    for title, why in checks.items():
        print(f"\n## {title}")
        for s in [s for s in scores if why(s)][:limit]:
            print(
                f"  [{s.line.kind} {s.line.seat} #{s.line.seq}] {why(s)!s}: {s.line.text[:120]!r}"
            )


if __name__ == "__main__":
    sys.exit(main())

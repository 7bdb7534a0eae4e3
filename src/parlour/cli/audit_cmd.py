"""``parlour audit GAME_ID|--all``: the leak audit of stored games (runtime/audit.py)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from parlour.core.errors import ParlourError
from parlour.runtime.audit import GameAudit, audit_all, audit_game
from parlour.runtime.databases import existing_store

console = Console()


def audit(
    game_id: Annotated[str | None, typer.Argument(help="id from `parlour list`")] = None,
    all_: Annotated[bool, typer.Option("--all", help="audit every stored game")] = False,
    db: Annotated[
        str | None,
        typer.Option("--db", help="SQLite file or SQLAlchemy URL (default: $PARLOUR_DB)"),
    ] = None,
) -> None:
    """Replay stored games and check that no view or stored prompt gave a seat a secret it
    was not entitled to (needs games started with --set plant_markers=true). Exit 1 on a leak."""
    if (game_id is None) == (not all_):
        raise ParlourError("give a game id or --all, e.g. `parlour audit --all`")
    store = existing_store(db)
    reports = audit_all(store) if all_ else [audit_game(store, str(game_id))]
    table = Table(title=f"leak audit of {store.url}")
    for col in ("game", "kind", "seat", "views", "prompts", "result"):
        table.add_column(col, justify="right" if col in ("views", "prompts") else "left")
    for report in reports:
        _rows(table, report)
    console.print(table)
    for report in reports:
        for leak in report.leaks:
            console.print(f"LEAK {report.game_id}: {leak}", markup=False, highlight=False)
    counts = {s: sum(r.status == s for r in reports) for s in ("clean", "leak", "not auditable")}
    console.print(
        f"{counts['clean']} clean, {counts['leak']} leaking, "
        f"{counts['not auditable']} not auditable",
        markup=False,
    )
    if counts["leak"]:
        raise typer.Exit(1)
    if not all_ and counts["not auditable"]:
        raise ParlourError(f"game {game_id} is not auditable: {reports[0].note}")


def _rows(table: Table, report: GameAudit) -> None:
    if report.status == "not auditable":
        table.add_row(report.game_id, report.game, "", "", "", f"not auditable: {report.note}")
        return
    for seat in report.seats.values():
        result = f"{len(seat.leaks)} LEAK(S)" if seat.leaks else "clean"
        table.add_row(
            report.game_id, report.game, seat.seat, str(seat.views), str(seat.prompts), result
        )
    if report.note:
        table.add_row(report.game_id, report.game, "", "", "", report.note)

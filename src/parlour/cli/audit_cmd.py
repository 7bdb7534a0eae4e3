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
    for col in COLUMNS:
        table.add_column(
            col, justify="left" if col in ("game", "kind", "seat", "result") else "right"
        )
    for report in reports:
        _rows(table, report)
    console.print(table)
    for report in reports:
        _list(report)
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


COLUMNS = ("game", "kind", "seat", "views", "prompts", "leaks", "disclosed", "forged", "result")
#: disclosures and forgeries listed per game; the rest are counted
LISTED = 20


def _rows(table: Table, report: GameAudit) -> None:
    if report.status == "not auditable":
        table.add_row(report.game_id, report.game, *[""] * 5, f"not auditable: {report.note}")
        return
    for seat in report.seats.values():
        result = f"{len(seat.leaks)} LEAK(S)" if seat.leaks else "clean"
        table.add_row(
            report.game_id,
            report.game,
            seat.seat,
            str(seat.views),
            str(seat.prompts),
            str(len(seat.leaks)),
            str(len(seat.disclosures)),
            str(len(seat.forgeries)),
            result,
        )
    if report.note:
        table.add_row(report.game_id, report.game, *[""] * 6, report.note)


def _list(report: GameAudit) -> None:
    """Every leak with its path; the first disclosures and forgeries, then their count."""
    for leak in report.leaks:
        _say(f"LEAK {report.game_id}: {leak}")
    for kind, found in (("DISCLOSURE", report.disclosures), ("FORGERY", report.forgeries)):
        for item in found[:LISTED]:
            _say(f"{kind} {report.game_id}: {item}")
        if len(found) > LISTED:
            _say(f"{kind} {report.game_id}: ... and {len(found) - LISTED} more")
    if report.status != "not auditable":
        _say(
            f"{report.game_id} ({report.game}): {len(report.leaks)} leaks, "
            f"{len(report.disclosures)} disclosures, {len(report.forgeries)} forgeries; "
            f"audited in {report.seconds:.1f} s"
        )


def _say(line: str) -> None:
    console.print(line, markup=False, highlight=False, soft_wrap=True)

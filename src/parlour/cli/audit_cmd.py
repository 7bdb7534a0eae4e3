"""``parlour audit GAME_ID|--all``: the leak audit of stored games (runtime/audit.py)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from parlour.command_options import DbUrlOpt
from parlour.core.commands import command
from parlour.core.errors import ParlourError
from parlour.runtime.audit import GameAudit, audit_all, audit_game
from parlour.runtime.databases import existing_store

console = Console()


def audit(
    game_id: Annotated[str | None, typer.Argument(help=f"id from `{command('list')}`")] = None,
    all_: Annotated[bool, typer.Option("--all", help="audit every stored game")] = False,
    db: DbUrlOpt = None,
) -> None:
    """Replay stored games and check that no view or stored prompt gave a seat a secret it
    was not entitled to (needs games started with --set plant_markers=true). Exit 1 on a leak."""
    if (game_id is None) == (not all_):
        raise ParlourError(f"give a game id or --all, e.g. `{command('audit --all')}`")
    store = existing_store(db)
    reports = audit_all(store) if all_ else [audit_game(store, str(game_id))]
    for report in reports:
        if all_ and report.status == "not auditable":
            continue  # summarised below, one line per reason
        console.print(_table(report))
        _list(report)
    if all_:
        for line in _unauditable(reports):
            _say(line)
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


COLUMNS = ("seat", "views", "prompts", "leaks", "disclosed", "forged", "result")
#: disclosures and forgeries listed per game; the rest are counted
LISTED = 20


def _table(report: GameAudit) -> Table | str:
    title = f"{report.game_id} ({report.game})"
    if report.status == "not auditable":
        return f"{title}: not auditable: {report.note}"
    table = Table(title=f"leak audit of {title}", title_justify="left")
    for col in COLUMNS:
        table.add_column(col, justify="left" if col in ("seat", "result") else "right")
    for seat in report.seats.values():
        table.add_row(
            seat.seat,
            str(seat.views),
            str(seat.prompts),
            str(len(seat.leaks)),
            str(len(seat.disclosures)),
            str(len(seat.forgeries)),
            f"{len(seat.leaks)} LEAK(S)" if seat.leaks else "clean",
        )
    if report.note:
        table.caption = report.note
    return table


def _unauditable(reports: list[GameAudit]) -> list[str]:
    """One line per reason a game could not be audited, with how many and which games (in
    --all, dozens of unmarked games would otherwise repeat the same line each)."""
    by_note: dict[str, list[str]] = {}
    for report in reports:
        if report.status == "not auditable":
            by_note.setdefault(report.note, []).append(report.game_id)
    return [f"{len(ids)} not auditable ({note}): {', '.join(ids)}" for note, ids in by_note.items()]


def _list(report: GameAudit) -> None:
    """Every leak with its path; the first disclosures (one line per author and secret,
    with who heard it) and forgeries, then how many more."""
    for leak in report.leaks:
        _say(f"LEAK {report.game_id}: {leak}")
    heard: dict[tuple[str, str], list[str]] = {}
    for found in report.disclosures:
        heard.setdefault((found.author, found.marker), []).append(found.seat)
    published = [
        f"{author} published {marker} to {', '.join(seats)}"
        for (author, marker), seats in heard.items()
    ]
    forged = [str(found) for found in report.forgeries]
    for kind, lines in (("DISCLOSURE", published), ("FORGERY", forged)):
        for line in lines[:LISTED]:
            _say(f"{kind} {report.game_id}: {line}")
        if len(lines) > LISTED:
            _say(f"{kind} {report.game_id}: ... and {len(lines) - LISTED} more")
    if report.status != "not auditable":
        _say(
            f"{report.game_id} ({report.game}): {len(report.leaks)} leaks, "
            f"{len(report.disclosures)} disclosures to {len(heard)} secret(s) published, "
            f"{len(report.forgeries)} forgeries; audited in {report.seconds:.1f} s"
        )


def _say(line: str) -> None:
    console.print(line, markup=False, highlight=False, emoji=False, soft_wrap=True)

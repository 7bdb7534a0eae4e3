"""``parlour campaign validate|recap``: tools for campaign writers and players."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from parlour.core.commands import command
from parlour.core.errors import ParlourError

campaign_app = typer.Typer(help="Campaign tools: validate a campaign file, recap a session.")


@campaign_app.command("validate")
def validate_cmd(
    file: Annotated[str, typer.Argument(help="campaign YAML file or shipped campaign name")],
) -> None:
    """Check a campaign file: the first problem as file:line: [code] problem, exit 1
    (exit 2, code C000, when the file cannot be found, read or parsed as YAML)."""
    from parlour.core.designer_check import EXIT_ERRORS, EXIT_UNREADABLE
    from parlour.games.campaign.content import CampaignError
    from parlour.games.campaign.loader import load_campaign

    try:
        c = load_campaign(file)
    except CampaignError as err:
        # Content problems carry a C code; anything else means the file was never read.
        if err.code.startswith("C"):
            sys.stdout.write(f"{err}\n")
            raise typer.Exit(EXIT_ERRORS) from None
        sys.stdout.write(f"[C000] {err}\n")
        raise typer.Exit(EXIT_UNREADABLE) from None
    sys.stdout.write(
        f"ok: {c.title} — {len(c.npcs)} NPCs, {len(c.locations)} locations, "
        f"{len(c.secrets())} secrets, {len(c.skills)} skills\n"
    )


@campaign_app.command("recap")
def recap_cmd(
    game_id: Annotated[str, typer.Argument(help=f"id of a campaign game (`{command('list')}`)")],
    session: Annotated[
        int | None, typer.Option(help="only this session (default: all of them)")
    ] = None,
    db: Annotated[str | None, typer.Option("--db", help="database file or URL")] = None,
) -> None:
    """Print what the player saw, session by session: scenes, checks and every line."""
    from parlour.games.campaign.recap import recap
    from parlour.runtime.databases import existing_store

    store = existing_store(db)
    row = store.get_game(game_id)
    if row.game != "campaign":
        raise ParlourError(
            f"game {game_id} is {row.game}, not campaign; pick one from `{command('list')}`"
        )
    events = store.events_for(game_id, "player")
    played = sorted({int(e.data.get("session", 0)) for e in events} - {0})
    if session is not None and session not in played:
        have = f"sessions {played[0]} to {played[-1]}" if played else "no session yet"
        raise ParlourError(f"game {game_id} has {have}; --session {session} is not one of them")
    sys.stdout.write(recap(events, session=session) + "\n")

"""``parlour werewolf cast``: generate, preview and save a themed cast (and its helpers for
``watch``/``play`` ``--theme``/``--cast``)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from parlour.command_options import BaseUrlOpt
from parlour.core.commands import command
from parlour.core.errors import ParlourError
from parlour.games.werewolf.cast import Cast as WerewolfCast
from parlour.games.werewolf.cast import default_cast, load_cast, save_cast
from parlour.games.werewolf.casting import CastBuilder, CastingPrompter, casting_fallback
from parlour.runtime.store import Store, db_url
from parlour.seats.llm import Attempt

werewolf_app = typer.Typer(help="Werewolf tools: themed casts of characters.")
console = Console()


def generate_cast(
    theme: str, players: int, model: str, *, seed: int, store: Store, base_url: str | None
) -> tuple[WerewolfCast, str]:
    """A cast for ``theme`` from ``model`` (or the built-in cast for ``scripted``).

    Returns the cast and who made it. The cast is written field by field (names, scene,
    one line per character), each a short checked answer; a piece the model cannot
    write after its retries comes from the built-in cast, and one line says which.
    """
    from parlour.games.registry import load as load_game
    from parlour.runtime.llm_seating import LlmFactory
    from parlour.runtime.seating import is_model, module_spec
    from parlour.seats.llm import LlmSeatConfig

    spec = module_spec(model, load_game("werewolf"))
    if not is_model(spec):  # scripted, random, a person: the built-in cast
        return default_cast(players, seed, theme), "built-in"
    factory = LlmFactory(store=store, base_url=base_url)
    factory.check([spec])
    backend = factory.backend(spec)
    attempts = _Attempts()
    seat = factory.seat(
        spec,
        "casting",
        CastingPrompter(),
        casting_fallback,
        seed,
        sink=attempts,
        # Each step's grammar ends the answer (a full stop, a closed list) well before
        # these bounds; one retry keeps a bad answer from costing more than a minute.
        config=LlmSeatConfig(retries=1, temperature=0.8, default_max_tokens=120),
    )
    # A small model names each character's place; its free bios were not usable.
    builder = CastBuilder(theme, players, seed, places=backend.capabilities.small)
    while (decision := builder.next()) is not None:
        with console.status(f"casting: {decision.purpose.removeprefix('cast_')}…"):
            answer = asyncio.run(seat.decide(builder.view(), decision))
        fell_back = bool(attempts.items) and attempts.items[-1].outcome == "fallback"
        builder.answer(decision, answer, fallback=fell_back)
    if builder.fallbacks:
        errors = [a.error for a in attempts.items if a.outcome in ("error", "invalid")]
        last = _short(errors[-1]) if errors else "no usable answer"
        pieces = [f"{p} ({builder.why.get(p, last)})" for p in builder.fallbacks]
        if builder.mostly_refused():
            # A cast of stray names around stock bios reads worse than the stock cast.
            console.print(
                f"[yellow]{backend.model_id} could not write a cast for this theme, so the "
                f"built-in cast is used. Refused: {'; '.join(pieces)}.[/]",
                highlight=False,
            )
            return builder.built_in, "built-in"
        console.print(
            f"[yellow]{backend.model_id} could not write: {'; '.join(pieces)}. "
            "The built-in cast filled in those pieces.[/]",
            highlight=False,
        )
        return builder.cast(), f"{backend.model_id} + built-in"
    return builder.cast(), backend.model_id


def _short(text: str) -> str:
    return text if len(text) <= 120 else text[:117] + "..."


class _Attempts:
    """Collects the casting seat's attempts, to tell a model's cast from the fallback."""

    def __init__(self) -> None:
        self.items: list[Attempt] = []

    def record(self, attempt: Attempt) -> None:
        self.items.append(attempt)


def preview(cast: WerewolfCast, source: str) -> None:
    console.print(f"[bold]Scene[/] ({source}): {cast.scene}", highlight=False)
    table = Table()
    for col in ("name", "gender", "playstyle", "story"):
        table.add_column(col)
    for c in cast.players:
        table.add_row(c.name, c.gender, c.playstyle.value, c.story)
    console.print(table)


def cast_options(
    theme: str | None,
    cast_file: Path | None,
    players: int | None,
    model: str,
    *,
    seed: int,
    store: Store,
    base_url: str | None,
) -> dict[str, object]:
    """Config options for ``--theme``/``--cast`` (empty when neither is given)."""
    if theme and cast_file:
        raise ParlourError("give either --theme or --cast, not both")
    if cast_file is not None:
        cast = load_cast(cast_file)
        preview(cast, str(cast_file))
    elif theme:
        # generate_cast shows a status line per piece it asks the model for.
        cast, source = generate_cast(
            theme, players or 7, model, seed=seed, store=store, base_url=base_url
        )
        preview(cast, source)
    else:
        return {}
    return {"cast": cast.model_dump(mode="json")}


@werewolf_app.command("cast")
def cast_cmd(
    theme: Annotated[str, typer.Option(help='the setting, e.g. "a Japanese high school"')],
    players: Annotated[int, typer.Option("--players", "-n", help="number of players")] = 7,
    model: Annotated[str, typer.Option(help="who writes the cast (a model spec or scripted)")] = (
        "local"
    ),
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="YAML file to write (none: preview only)")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="overwrite the --output file")] = False,
    seed: Annotated[int, typer.Option(help="seed")] = 0,
    base_url: BaseUrlOpt = None,
    db: Annotated[str | None, typer.Option("--db", help="where the model calls are logged")] = None,
) -> None:
    """Generate a cast for a theme, preview it and save it as YAML to edit and reuse."""
    if not 5 <= players <= 16:
        raise ParlourError(f"werewolf needs 5 to 16 players, got {players}")
    # Refuse before the model runs: a minute of casting should not end in this error.
    if output is not None and output.exists() and not force:
        raise ParlourError(f"{output} exists; pass --force to overwrite it, or another -o FILE")
    store = Store(db_url(db) if db else None)
    cast, source = generate_cast(theme, players, model, seed=seed, store=store, base_url=base_url)
    preview(cast, source)
    if output is None:
        console.print("not saved: run it again with -o cast.yaml to keep a cast as a file")
        return
    save_cast(cast, output)
    console.print(f"wrote {output}; edit it, then: {command(f'watch werewolf --cast {output}')}")

"""The lobby: the list of games and the two-step form that creates one.

Step one takes the game, players, seed and options (``KEY=VALUE`` lines, the CLI's
``--set``, read by the same safe YAML reader) and builds the game once to show its
table: the seat names (werewolf's cast) and system seats. Step two sets each seat to
a person, a model spec or a script, creates the game through the host and shows the
admin link and one join link per person seat, once: only their hashes are stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates
from starlette.concurrency import run_in_threadpool

from parlour.core.errors import ParlourError
from parlour.core.game import SeatInfo
from parlour.games import registry
from parlour.runtime.seating import SeatSpec, module_spec
from parlour.runtime.set_values import parse_set_options
from parlour.web.forms import read_form

if TYPE_CHECKING:
    from parlour.runtime.host import GameHost
    from parlour.web.links import Links
    from parlour.web.pages import Page, Pages


class Site(Protocol):
    """What the lobby's routes use of the app's state (``parlour.web.app.Web``), named
    here so that the lobby depends on the pages and the host, not on the app."""

    @property
    def pages(self) -> Pages: ...

    @property
    def host(self) -> GameHost: ...

    @property
    def links(self) -> Links: ...

    async def page(self, name: str, *args: Any) -> Page: ...


@dataclass(frozen=True)
class Setup:
    """Step one of the form, validated: enough to build the game and list its seats."""

    game: str
    players: int | None
    seed: int
    option_lines: str
    options: dict[str, object]
    seats: tuple[SeatInfo, ...]


def _int(raw: str, what: str) -> int | None:
    raw = raw.strip()
    if not raw:
        return None
    try:
        return int(raw)
    except ValueError as err:
        raise ParlourError(f"{what} must be a whole number, not {raw!r}") from err


def setup(form: dict[str, list[str]]) -> Setup:
    """Step one: one-line errors (``ParlourError``) for any bad field."""

    def one(key: str) -> str:
        return (form.get(key) or [""])[0]

    name = one("game")
    module = registry.load(name)
    players = _int(one("players"), "players")
    seed = _int(one("seed"), "seed") or 1
    option_lines = one("options")
    items = [line.strip() for line in option_lines.splitlines() if line.strip()]
    options = parse_set_options(items, module.game.config_model)
    for kind in module.content:
        if kind.lobby_label is not None and one(kind.key):
            options[kind.key] = one(kind.key)
    try:
        config = module.make_config(players, dict(options))
        game = module.game.new(config, seed)
    except ParlourError:
        raise
    except (ValueError, TypeError) as err:
        raise ParlourError(f"these options do not make a {name} game: {err}") from err
    return Setup(name, players, seed, option_lines, options, game.seats())


def seat_specs(chosen: Setup, form: dict[str, list[str]]) -> tuple[dict[str, SeatSpec], list[str]]:
    """Step two: seat id → spec, and the seats a person plays."""
    module = registry.load(chosen.game)
    specs: dict[str, SeatSpec] = {}
    people: list[str] = []
    for info in chosen.seats:
        kind = (form.get(f"seat.{info.id}") or ["scripted"])[0]
        model = (form.get(f"model.{info.id}") or ["local"])[0].strip() or "local"
        text = {"person": "human", "model": model}.get(kind, "scripted")
        if kind == "person":
            people.append(info.id)
        specs[info.id] = module_spec(text, module)
    return specs, people


def install(app: FastAPI, web: Site, templates: Jinja2Templates) -> None:
    def page(request: Request, **extra: Any) -> Response:
        ctx = web.pages.lobby_context(**extra)
        return templates.TemplateResponse(
            request, "lobby.html", ctx, status_code=422 if ctx["error"] else 200
        )

    @app.get("/", response_class=HTMLResponse)
    async def lobby() -> Response:
        page = await web.page("lobby")  # a worker process's, when there is a pool
        return HTMLResponse(page.html, status_code=page.status)

    @app.post("/new", response_class=HTMLResponse)
    async def new(request: Request) -> Response:
        form = await read_form(request)
        try:
            chosen = await run_in_threadpool(setup, form)
        except ParlourError as err:
            return await run_in_threadpool(page, request, error=str(err))
        return await run_in_threadpool(page, request, setup=chosen)

    @app.post("/create", response_class=HTMLResponse)
    async def create(request: Request) -> Response:
        form = await read_form(request)
        try:
            chosen = await run_in_threadpool(setup, form)
            specs, people = seat_specs(chosen, form)
            game_id = await run_in_threadpool(
                lambda: web.host.create(
                    chosen.game,
                    players=chosen.players,
                    seed=chosen.seed,
                    seats=specs,
                    overrides=chosen.options,
                )
            )
        except ParlourError as err:
            return await run_in_threadpool(page, request, error=str(err))
        admin = web.links.issue(game_id, "admin")
        names = {s.id: s.name for s in chosen.seats}
        joins = [(names[s], web.links.issue(game_id, "seat", s)) for s in people]
        return templates.TemplateResponse(
            request,
            "created.html",
            {"game_id": game_id, "admin": admin, "joins": joins, "game": chosen.game},
        )

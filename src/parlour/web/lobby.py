"""The lobby: the list of games and the two-step form that creates one.

Step one takes the game, players, seed and options (``KEY=VALUE`` lines, the CLI's
``--set``, read by the same safe YAML reader) and builds the game once to show its
table: the seat names (werewolf's cast) and system seats. Step two sets each seat to
a person, a model spec or a script, creates the game through the host and shows the
admin link and one join link per person seat, once: only their hashes are stored.

What a visitor may choose is the host's policy (``web/policy.py``): content by a name
the host offers (never a path: the loaders read files), options from a bounded safe
list, model specs from the owner's allow-list, no seed for a game whose seats hide
information (the host draws a secret one, revealed when the game ends), and new games
within the host's limits (``web/throttle.py``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, get_args

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from parlour.core.errors import ParlourError
from parlour.core.game import SeatInfo
from parlour.core.module import GameModule
from parlour.games import registry
from parlour.runtime.seating import SeatSpec, module_spec
from parlour.runtime.set_values import parse_set_options
from parlour.web.forms import read_form
from parlour.web.policy import MAX_PLAYERS, MAX_SEED, HostPolicy

if TYPE_CHECKING:
    from parlour.runtime.host import GameHost
    from parlour.web.links import Links
    from parlour.web.pages import Page, Pages
    from parlour.web.throttle import Throttle


class Site(Protocol):
    """What the lobby's routes use of the app's state (``parlour.web.app.Web``), named
    here so that the lobby depends on the pages and the host, not on the app."""

    @property
    def pages(self) -> Pages: ...

    @property
    def host(self) -> GameHost: ...

    @property
    def links(self) -> Links: ...

    @property
    def policy(self) -> HostPolicy: ...

    @property
    def throttle(self) -> Throttle: ...

    async def page(self, name: str, *args: Any) -> Page: ...


@dataclass(frozen=True)
class Setup:
    """Step one of the form, validated: enough to build the game and list its seats."""

    game: str
    players: int | None
    #: the seed someone chose; None: the host draws a secret one when it creates the game
    seed: int | None
    option_lines: str
    options: dict[str, object]
    seats: tuple[SeatInfo, ...]


def _not_offered(key: str, names: list[str]) -> ParlourError:
    """The one answer to content that is not a name this host offers: the same words
    for a path, a missing file, a present file and an unknown name, quoting none."""
    offered = ", ".join(names) if names else "none"
    return ParlourError(f"{key}: choose one of the names this host offers ({offered})")


def _int(raw: str, what: str, low: int, high: int) -> int | None:
    raw = raw.strip()
    if not raw:
        return None
    bound = f"{what} must be a whole number from {low} to {high}"
    if len(raw) > 24:
        raise ParlourError(bound)
    try:
        value = int(raw)
    except ValueError as err:
        raise ParlourError(bound) from err
    if not low <= value <= high:
        raise ParlourError(bound)
    return value


def _looks_like_a_path(value: object) -> bool:
    if isinstance(value, str):
        return any(mark in value for mark in ("/", "\\", ".", "~", ":"))
    if isinstance(value, list | tuple):
        return any(_looks_like_a_path(v) for v in value)
    if isinstance(value, dict):
        return any(_looks_like_a_path(v) for v in value.values())
    return False


def _content_by_name(module: GameModule, options: dict[str, object]) -> None:
    """Content (towns, scenarios, campaigns) is chosen by a name the host offers: the
    games' loaders read files, and a path sent to the web would read the server's. A
    game's declared content must be one of its shipped names; an option that holds
    parsed content (a town of a game that declares none) or that its config does not
    name, whose value looks like a path, is refused as well, with the same words
    whether or not such a file exists."""
    for kind in module.content:
        if kind.key not in options:
            continue
        value = options[kind.key]
        names = list(kind.shipped())
        if not isinstance(value, str) or value not in names:
            raise _not_offered(kind.key, names)
    fields = module.game.config_model.model_fields
    for key, value in options.items():
        field = fields.get(key)
        loaded = field is None or _holds_a_model(field.annotation)
        if loaded and _looks_like_a_path(value):
            raise ParlourError(f"{key}: content is chosen by name on this host, never by a path")


def _holds_a_model(annotation: object) -> bool:
    """Whether a config field holds parsed content (a model, e.g. missing's town), which
    its game's ``make_config`` reads from a file named by the option."""
    if isinstance(annotation, type):
        return issubclass(annotation, BaseModel)
    return any(_holds_a_model(arg) for arg in get_args(annotation))


def setup(form: dict[str, list[str]], policy: HostPolicy, owner: bool) -> Setup:
    """Step one: one-line errors (``ParlourError``) for any bad field. ``owner``: the
    request comes from the host's owner (or the table is open)."""

    def one(key: str) -> str:
        return (form.get(key) or [""])[0]

    name = one("game")
    module = registry.load(name)
    players = _int(one("players"), "players", 1, MAX_PLAYERS)
    seed = _int(one("seed"), "seed", 0, MAX_SEED)
    if seed is not None and module.game.info.imperfect_information and not owner:
        raise ParlourError(
            f"only the host's owner sets the seed of a {name} game: its seats hide "
            "information, and a known seed would give it away"
        )
    option_lines = one("options")
    items = [line.strip() for line in option_lines.splitlines() if line.strip()]
    options = parse_set_options(items, module.game.config_model)
    for kind in module.content:
        if kind.lobby_label is not None and one(kind.key):
            options[kind.key] = one(kind.key)
    _content_by_name(module, options)
    policy.check_options(
        {k: v for k, v in options.items() if k not in {c.key for c in module.content}},
        module.game.config_model,
        owner,
    )
    try:
        config = module.make_config(players, dict(options))
        if seed is not None:
            seats = module.game.new(config, seed).seats()
        else:
            # The secret seed is drawn when the game is created. Two draws here list the
            # seats; a name that differs between them comes from the seed and is left
            # blank (shown once the game is created), the others (Diplomacy's powers) stay.
            one_draw, other = (
                module.game.new(config, secrets.randbelow(MAX_SEED)).seats() for _ in range(2)
            )
            seats = tuple(
                a if a.name == b.name else a.model_copy(update={"name": ""})
                for a, b in zip(one_draw, other, strict=True)
            )
    except ParlourError:
        raise
    except (ValueError, TypeError) as err:
        raise ParlourError(f"these options do not make a {name} game: {err}") from err
    return Setup(name, players, seed, option_lines, options, tuple(seats))


def seat_specs(
    chosen: Setup, form: dict[str, list[str]], policy: HostPolicy, owner: bool
) -> tuple[dict[str, SeatSpec], list[str]]:
    """Step two: seat id → spec, and the seats a person plays."""
    module = registry.load(chosen.game)
    specs: dict[str, SeatSpec] = {}
    people: list[str] = []
    for info in chosen.seats:
        kind = (form.get(f"seat.{info.id}") or ["scripted"])[0]
        model = (form.get(f"model.{info.id}") or ["local"])[0].strip() or "local"
        text = {"person": "human", "model": model}.get(kind, "scripted")
        policy.check_spec(text, owner)
        if kind == "person":
            people.append(info.id)
        specs[info.id] = module_spec(text, module)
    return specs, people


def client_of(request: Request) -> str:
    """Who a visitor is for the limits: their address (the proxy's forwarded one when
    uvicorn trusts the proxy)."""
    return request.client.host if request.client is not None else "?"


def install(app: FastAPI, web: Site, templates: Jinja2Templates) -> None:
    def page(request: Request, owner: bool, **extra: Any) -> Response:
        ctx = web.pages.lobby_context(owner, web.policy.models, **extra)
        return templates.TemplateResponse(
            request, "lobby.html", ctx, status_code=422 if ctx["error"] else 200
        )

    @app.get("/", response_class=HTMLResponse)
    async def lobby(request: Request) -> Response:
        owner = web.policy.is_owner(request.cookies)
        # A worker process renders it, when there is a pool.
        page = await web.page("lobby", owner, web.policy.models)
        return HTMLResponse(page.html, status_code=page.status)

    @app.post("/new", response_class=HTMLResponse)
    async def new(request: Request) -> Response:
        form = await read_form(request)
        owner = web.policy.is_owner(request.cookies)
        try:
            chosen = await run_in_threadpool(setup, form, web.policy, owner)
        except ParlourError as err:
            return await run_in_threadpool(page, request, owner, error=str(err))
        return await run_in_threadpool(page, request, owner, setup=chosen)

    @app.post("/create", response_class=HTMLResponse)
    async def create(request: Request) -> Response:
        form = await read_form(request)
        owner = web.policy.is_owner(request.cookies)
        client = client_of(request)
        try:
            chosen = await run_in_threadpool(setup, form, web.policy, owner)
            specs, people = seat_specs(chosen, form, web.policy, owner)
            if not owner:
                await run_in_threadpool(web.throttle.admit, client)
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
            return await run_in_threadpool(page, request, owner, error=str(err))
        web.throttle.created(client, game_id)
        admin = web.links.issue(game_id, "admin")
        names = await run_in_threadpool(web.pages.games.names, game_id)
        joins = [(names.get(s, s), web.links.issue(game_id, "seat", s)) for s in people]
        return templates.TemplateResponse(
            request,
            "created.html",
            {
                "game_id": game_id,
                "admin": admin,
                "joins": joins,
                "game": chosen.game,
                "seed": chosen.seed,
            },
        )

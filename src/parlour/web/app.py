"""``parlour serve``: the web app (FastAPI, Jinja2, htmx, server-sent events).

Who may do what is decided here and nowhere else:

* ``/play/{token}``: a seat link. Its pages, its SSE stream and its form posts read and
  act as that seat only; events come from ``Store.events_for(game, seat)``.
* ``/admin/{token}``: the game's admin link: reveal, pause, replace a seat, end.
* ``/watch/{game_id}``: spectators. Public events only, until the game has ended or the
  admin consented to a reveal level.
* ``/owner``: the host's owner signs in with the owner token; the lobby then offers
  every option, model and seed, and ``/owner/admin`` issues an admin link for any game.
  What visitors may choose is ``web/policy.py``'s.

Every request must name this server in its Host header (no DNS rebinding).

Every POST must come from this site (``Origin``/``Referer`` check): a page elsewhere
cannot make a visitor's browser act. Templates autoescape, so player text is data.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from sse_starlette.sse import EventSourceResponse
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from parlour.core.errors import IllegalAction, ParlourError
from parlour.core.events import Event
from parlour.core.game import Game, Result
from parlour.games import registry
from parlour.runtime.host import GameHost
from parlour.runtime.remote import Desk
from parlour.runtime.seating import SeatSpec, module_spec
from parlour.runtime.store import DatabaseErrors, Store
from parlour.runtime.store.errors import describe
from parlour.web import exports, lobby, owner
from parlour.web.forms import action_from_form, read_form
from parlour.web.links import REVEAL_LEVELS, Link, Links
from parlour.web.pages import Page, PagePool, Pages, templates
from parlour.web.policy import HostPolicy
from parlour.web.tables import Games, lines, seat_events
from parlour.web.throttle import Throttle
from parlour.web.watch import Broadcaster, sse

HERE = Path(__file__).parent
log = logging.getLogger(__name__)
#: Seconds between SSE keep-alive comments (proxies drop silent streams).
PING = 15
#: Game statuses after which nothing more happens.
FINAL = ("finished", "ended", "failed")
#: What a visitor reads when the database fails under a page (the log says why).
UNREADABLE = (
    "the host's database could not be read for this page; its owner finds why in the server's log"
)
#: The Content-Security-Policy of every answer.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)


class Web:
    """The app's state: one store, one host running games, the links and caches."""

    def __init__(
        self,
        store: Store,
        host: GameHost,
        *,
        run_host: bool = True,
        page_workers: int = 0,
        policy: HostPolicy | None = None,
    ) -> None:
        self.store = store
        self.host = host
        self.policy = policy or HostPolicy.local_table()
        self.throttle = Throttle(store, self.policy.limits)
        self.desk = Desk(store)
        self.links = Links(store)
        self.games = Games(store)
        self.pages = Pages(store, self.games)
        #: Worker processes for the read-only pages (0: render them on this process's
        #: threads); the pool itself starts with the app (``start_pages``).
        self.page_workers = 0 if store.in_memory else page_workers
        self.pool: PagePool | None = None
        self.pool_start_cpu = 0.0  # the workers' start-up CPU (the benchmark subtracts it)
        # The streams read through their own engine (its own pool): the poll round then
        # never waits for a connection, or for the pool's lock, behind page threads.
        self.feeds = _own_store(store)
        self.casts = Broadcaster(self.feeds, self._read, self._render)
        self.run_host = run_host
        self._names: dict[str, dict[str, str]] = {}

    def names(self, game_id: str) -> dict[str, str]:
        """Seat names of a game (fixed when it is created, so read once)."""
        found = self._names.get(game_id)
        if found is None:
            found = self._names[game_id] = self.games.names(game_id)
        return found

    def _read(self, game_id: str, audience: str, after: int) -> list[Event]:
        # The audience comes from the reader's link (a seat) or is the spectators'
        # public view; each is read with the store's own audited query.
        if audience == "public":
            return self.feeds.spectator_events(game_id, "public", after)
        if audience.startswith("seat:"):
            return seat_events(self.feeds, game_id, audience.removeprefix("seat:"), after)
        raise ValueError(f"unknown stream audience {audience!r}")

    def _render(self, game_id: str, events: list[Event]) -> list[tuple[int, bytes]]:
        template = templates.get_template("_line.html")
        return [
            (line.seq, sse("line", {"seq": line.seq, "html": template.render(line=line)}))
            for line in lines(events, self.names(game_id))
        ]

    async def start_pages(self) -> None:
        if self.page_workers > 0:
            pool = PagePool(self.store.url, self.page_workers)
            try:
                await pool.ready()
            except BaseException:
                pool.close()
                raise
            self.pool = pool
            self.pool_start_cpu = pool.start_cpu

    async def page(self, name: str, *args: Any) -> Page:
        """A read-only page, rendered by a worker process when there is a pool."""
        pool = self.pool
        if pool is not None:
            try:
                return await pool.render(name, *args)
            except BrokenProcessPool:
                # A helper died (killed, out of memory): the pool is unusable, so pages go
                # on from this process's threads rather than fail from now on.
                log.warning("a page helper process died; rendering pages on threads")
                if self.pool is pool:
                    self.pool = None
                    # Off the loop: closing waits for the pool's other processes to exit.
                    await run_in_threadpool(pool.close)
        return await run_in_threadpool(self.pages.render, name, args)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
            self.pool = None
        if self.feeds is not self.store:
            self.feeds.close()

    def reveal_level(self, game_id: str) -> str:
        return self.pages.reveal_level(game_id)


def _own_store(store: Store) -> Store:
    """A second Store on the same database (the same one for an in-memory SQLite)."""
    return store if store.in_memory else Store(store.url)


def create_app(
    store: Store,
    host: GameHost | None = None,
    *,
    run_host: bool = True,
    page_workers: int = 0,
    policy: HostPolicy | None = None,
) -> FastAPI:
    """The app over ``store``. ``page_workers`` > 0 renders the read-only pages in that
    many worker processes (``parlour serve`` sizes it from the cores; see web/pages.py);
    0 renders them on this process's threads. ``policy``: who may do what (default: an
    open table answering to this machine's names and the test client's; ``parlour
    serve`` passes its own)."""
    web = Web(
        store,
        host or GameHost(store, worker="web"),
        run_host=run_host,
        page_workers=page_workers,
        policy=policy,
    )

    if run_host:
        # The host runs here: its commits ring the streams' doorbell (other workers'
        # games are still found by the poll).
        web.host.observe(lambda game_id: [_Doorbell(web.casts, game_id)])

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await web.start_pages()
        hosting = _HostThread(web.host) if web.run_host else None
        try:
            yield
        finally:
            web.casts.close()
            web.close()
            if hosting is not None:
                hosting.stop(timeout=15)

    app = FastAPI(
        title="parlour", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None
    )
    app.state.web = web
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        # Pages name /static/favicon.svg; this is for browsers and tools that ask anyway.
        return FileResponse(HERE / "static" / "favicon.svg", media_type="image/svg+xml")

    app.add_middleware(_Guard, worker=web.host.worker, policy=web.policy)

    async def failed(request: Request, err: Exception) -> Response:
        # A damaged or unreachable database: the store's one line (as the CLI prints it)
        # goes to the log, without a traceback; the visitor is told what happened but
        # not where the server keeps its files.
        line = str(err) if isinstance(err, ParlourError) else describe(err, "the database")
        log.error("%s %s: %s", request.method, request.url.path, line)
        return PlainTextResponse(UNREADABLE, status_code=503)

    for kind in DatabaseErrors:
        app.add_exception_handler(kind, failed)

    lobby.install(app, web, templates)
    owner.install(app, web, templates)
    _install_seat(app, web)
    _install_watch(app, web)
    _install_admin(app, web)
    return app


class _Doorbell:
    """An observer of a game hosted in this process: each commit rings the broadcaster."""

    def __init__(self, casts: Broadcaster, game_id: str) -> None:
        self.casts = casts
        self.game_id = game_id

    def on_events(self, game: Game, events: Sequence[Event]) -> None:
        self.casts.ring(self.game_id)

    def on_finish(self, game: Game, result: Result) -> None:
        self.casts.ring(self.game_id)


class _HostThread:
    """The game host on its own thread and event loop.

    Games are stepped in plain Python between awaits (rules, seat policies, store
    writes); on the web server's loop every such step would hold back every page and
    stream. On a loop of their own they only share the interpreter, which switches
    threads every few milliseconds, so delivery waits for at most a slice, not a step.
    """

    def __init__(self, host: GameHost) -> None:
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(
            target=self._main, args=(host,), name=f"host-{host.worker}", daemon=True
        )
        self._thread.start()
        self._ready.wait()

    def _main(self, host: GameHost) -> None:
        async def run() -> None:
            self._loop = asyncio.get_running_loop()
            self._stop = asyncio.Event()
            self._ready.set()
            await host.serve(self._stop)

        try:
            asyncio.run(run())
        finally:
            self._ready.set()

    def stop(self, timeout: float) -> None:
        if self._loop is not None and self._stop is not None:
            with contextlib.suppress(RuntimeError):  # the loop ended already
                self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(timeout)


class _Guard:
    """Refuses cross-site posts and sets the security headers (plain ASGI: it does not
    wrap streamed bodies in extra tasks and queues, as ``BaseHTTPMiddleware`` would)."""

    def __init__(self, app: ASGIApp, worker: str, policy: HostPolicy) -> None:
        self.app = app
        self.policy = policy
        # Which worker answered (several share one port with --workers): for operators.
        self.headers = [
            (b"x-content-type-options", b"nosniff"),
            # Links carry tokens: never send them to another site. ("no-referrer" would
            # also make browsers send ``Origin: null`` on our own form posts.)
            (b"referrer-policy", b"same-origin"),
            (b"x-parlour-worker", worker.encode()),
            # Scripts only from /static (htmx, parlour.js); styles may be inline (the
            # boards' SVG); no plug-ins, no framing, forms post only here.
            (b"content-security-policy", CSP.encode()),
        ]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        if not self.policy.host_allowed(headers.get("host", "")):
            # A name this server does not answer to: a page on another site whose name
            # was pointed at this address (DNS rebinding), or a misconfigured proxy.
            refusal = PlainTextResponse(
                "this server does not answer to that host name; its owner lists the names "
                "with --host-name",
                status_code=421,
            )
            if scope["type"] == "http":
                await refusal(scope, receive, self._headed(send))
            else:
                await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] == "POST" and not _same_origin(Headers(scope=scope)):
            refusal = PlainTextResponse(
                "cross-site form post refused; use the page on this site", status_code=403
            )
            await refusal(scope, receive, self._headed(send))
            return
        await self.app(scope, receive, self._headed(send))

    def _headed(self, send: Send) -> Send:
        async def headed(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for key, value in self.headers:
                    headers[key.decode()] = value.decode()
                if "x-frame-options" not in headers:
                    headers["x-frame-options"] = "DENY"
            await send(message)

        return headed


def _same_origin(headers: Headers) -> bool:
    # Browsers say where a request comes from in Sec-Fetch-Site (not settable by pages).
    site = headers.get("sec-fetch-site")
    if site is not None:
        return site == "same-origin"
    source = headers.get("origin") or headers.get("referer")
    if not source:
        return False
    host = headers.get("host", "")
    return urlsplit(source).netloc == host


def _link(web: Web, token: str, role: str) -> Link:
    found = web.links.lookup(token)
    if found is None or found.role != role:
        # One answer for unknown, forged and wrong-kind tokens: nothing to probe.
        raise HTTPException(status_code=404, detail="no such link")
    return found


# -- a seat's room -------------------------------------------------------------------


def _html(page: Page) -> Response:
    if page.status == 404:
        raise HTTPException(status_code=404, detail="no such game")
    return HTMLResponse(page.html, status_code=page.status)


def _event_stream(
    request: Request, web: Web, game_id: str, audience: str, after: int
) -> EventSourceResponse:
    """A game's lines for one audience (a seat's ``seat:ID`` or ``public``), from event
    ``after`` on, as server-sent events until the game is over or the client leaves."""

    async def stream() -> AsyncIterator[bytes]:
        async for payloads, last, status in web.casts.follow(game_id, audience, after):
            if await request.is_disconnected():
                return
            # One chunk per change: the new lines (rendered once for this audience), then
            # a tick, since open decisions change without an event this audience sees
            # (others answer).
            chunk = [*payloads, sse("tick", {"last": last})]
            if status in FINAL:
                chunk.append(sse("end", {"last": last, "status": status}))
            yield b"".join(chunk)
            if status in FINAL:
                return

    return EventSourceResponse(stream(), ping=PING)


def _install_seat(app: FastAPI, web: Web) -> None:
    # The link is resolved here, in the web process: a page worker renders only the seat
    # it is given.
    def seat_page(name: str) -> Callable[[str], Awaitable[Response]]:
        async def page(token: str) -> Response:
            return _html(await web.page(name, _link(web, token, "seat"), token))

        return page

    # The room, then the parts of it the page swaps in: the open decision, the seat's
    # facts, and the board as it stands (Diplomacy; an empty holder otherwise).
    for name, path in (
        ("room", "/play/{token}"),
        ("decision", "/play/{token}/decision"),
        ("facts", "/play/{token}/facts"),
        ("board", "/play/{token}/board"),
    ):
        app.get(path, response_class=HTMLResponse, name=name)(seat_page(name))

    @app.post("/play/{token}/typing")
    async def typing(request: Request, token: str) -> Response:
        """The person is typing an answer: its deadline waits for them (``Desk.hold``).
        The deadline now, as unix seconds, for the page's countdown ("" when none)."""
        link = _link(web, token, "seat")
        form = await read_form(request)
        decision_id = (form.get("decision_id") or [""])[0]
        until = await run_in_threadpool(web.desk.hold, link.game_id, link.seat, decision_id)
        return PlainTextResponse("" if until is None else f"{until:.3f}")

    @app.post("/play/{token}/act", response_class=HTMLResponse)
    async def act(request: Request, token: str) -> Response:
        link = _link(web, token, "seat")
        form = await read_form(request)
        decision_id = (form.get("decision_id") or [""])[0]
        error = ""
        open_now = {o.decision.id: o for o in web.desk.open_for(link.game_id, link.seat)}
        current = open_now.get(decision_id)
        if current is None:
            error = "that question is no longer open; here is the current one"
        else:
            try:
                action = action_from_form(current.decision, form)
                await run_in_threadpool(
                    web.desk.submit, link.game_id, link.seat, decision_id, action
                )
            except IllegalAction as err:
                error = str(err)
        # Give the host a moment to take it, so the answer shows the next state (a change
        # after this is announced by the stream's tick).
        if not error:
            for _ in range(20):
                await asyncio.sleep(0.05)
                still = await run_in_threadpool(web.desk.open_for, link.game_id, link.seat)
                if all(o.decision.id != decision_id for o in still):
                    break
        ctx = await run_in_threadpool(web.pages.decision_context, link, error)
        status = 422 if error else 200
        return templates.TemplateResponse(
            request, "_decision.html", {"token": token, **ctx}, status_code=status
        )

    @app.get("/play/{token}/events")
    async def seat_stream(request: Request, token: str, after: int = -1) -> Response:
        link = _link(web, token, "seat")
        return _event_stream(request, web, link.game_id, f"seat:{link.seat}", after)


# -- spectators ----------------------------------------------------------------------


def _install_watch(app: FastAPI, web: Web) -> None:
    def known(game_id: str) -> None:
        try:
            web.store.get_game(game_id)
        except ParlourError as err:
            raise HTTPException(status_code=404, detail="no such game") from err

    @app.get("/watch/{game_id}", response_class=HTMLResponse)
    async def watch(game_id: str, level: str = "") -> Response:
        return _html(await web.page("watch", game_id, level))

    @app.get("/watch/{game_id}/events")
    async def watch_stream(request: Request, game_id: str, after: int = -1) -> Response:
        await run_in_threadpool(known, game_id)
        return _event_stream(request, web, game_id, "public", after)

    @app.get("/watch/{game_id}/export.{fmt}")
    async def export(game_id: str, fmt: str) -> Response:
        await run_in_threadpool(known, game_id)
        level = await run_in_threadpool(web.reveal_level, game_id)
        if fmt not in ("html", "md", "jsonl"):
            raise HTTPException(status_code=404, detail="export as html, md or jsonl")
        body, media = await run_in_threadpool(exports.export, web.store, game_id, level, fmt)
        return Response(body, media_type=media)


# -- the admin link ------------------------------------------------------------------


def _install_admin(app: FastAPI, web: Web) -> None:
    def admin_context(link: Link, note: str = "") -> dict[str, Any]:
        row = web.store.get_game(link.game_id)
        return {
            "row": row,
            "over": row.status in FINAL,
            # after a finished game spectators see everything, whatever was chosen
            "finished": row.status == "finished",
            "seats": web.games.seats(link.game_id),
            "reveal": web.links.reveal(link.game_id),
            "levels": REVEAL_LEVELS,
            "note": note,
        }

    @app.get("/admin/{token}", response_class=HTMLResponse)
    async def admin(request: Request, token: str) -> Response:
        link = _link(web, token, "admin")
        ctx = await run_in_threadpool(admin_context, link)
        return templates.TemplateResponse(request, "admin.html", {"token": token, **ctx})

    @app.post("/admin/{token}/{what}", response_class=HTMLResponse)
    async def command(request: Request, token: str, what: str) -> Response:
        link = _link(web, token, "admin")
        form = await read_form(request)
        gid = link.game_id
        note = ""
        try:
            status = (await run_in_threadpool(web.store.get_game, gid)).status
            if what in ("pause", "resume", "end", "replace") and status in FINAL:
                raise ParlourError(f"this game is over ({status}): there is nothing to {what}")
            if what == "resume" and status != "paused":
                raise ParlourError(f"this game is {status}, not paused: there is nothing to resume")
            if what == "reveal":
                level = (form.get("level") or ["public"])[0]
                if level not in REVEAL_LEVELS:
                    raise ParlourError(f"unknown reveal level; use {', '.join(REVEAL_LEVELS)}")
                await run_in_threadpool(web.links.set_reveal, gid, level)
                note = f"spectators now see: {level}"
            elif what == "pause":
                await run_in_threadpool(web.host.pause, gid)
                note = "paused: nobody is asked anything until you resume it"
            elif what == "resume":
                await run_in_threadpool(web.store.set_status, gid, "running")
                note = "resumed: the game goes on from where it was paused"
            elif what == "end":
                await run_in_threadpool(web.host.end, gid)
                note = "ended: the game stops here, with no result"
            elif what == "replace":
                seat = (form.get("seat") or [""])[0]
                spec_text = (form.get("spec") or [""])[0].strip()
                web.policy.check_spec(spec_text, web.policy.is_owner(request.cookies))
                spec = _spec(gid, web, spec_text)
                await run_in_threadpool(web.host.replace_seat, gid, seat, spec)
                note = f"{seat} is now played by {spec_text}"
                if spec_text == "human":
                    url = f"/play/{web.links.issue(gid, 'seat', seat)}"
                    note += f"; join link: {url}"
            else:
                raise HTTPException(status_code=404, detail="unknown admin command")
        except ParlourError as err:
            note = str(err)
        ctx = await run_in_threadpool(admin_context, link, note)
        return templates.TemplateResponse(request, "admin.html", {"token": token, **ctx})


def _spec(game_id: str, web: Web, text: str) -> SeatSpec:
    module = registry.load(web.store.get_game(game_id).game)
    return module_spec(text, module)

"""The web host under attack: who may do what, through the real app on a real SQLite file.

One table probes every route with no token, a wrong token, another seat's token, the
admin token where a seat's is wanted (and a seat's where the admin's is), a forged Host
header and a forged Origin; the owner's routes with no cookie and a wrong one. The
tests after it reproduce each finding of issue 34 that the web answers: content read
by path, predictable seeds, unbounded options, paid models for visitors, no limits,
DNS rebinding, /openapi.json, no CSP, slow clients, admin commands on a finished game
and a damaged database.
"""

from __future__ import annotations

import contextlib
import html
import logging
import os
import re
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from parlour.runtime.host import GameHost
from parlour.runtime.store import Store, db_url
from parlour.web.app import UNREADABLE, create_app
from parlour.web.policy import OWNER_COOKIE, HostPolicy, Limits

TOKEN = "the-owners-token-" + "x" * 20
ORIGIN = {"origin": "http://testserver"}
EVIL = "http://evil.example"
FINAL = ("finished", "ended", "failed")


def _policy(**limits: int) -> HostPolicy:
    return HostPolicy(owner_token=TOKEN, hosts=frozenset({"testserver"}), limits=Limits(**limits))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(db_url(str(tmp_path / "host.sqlite")))
    yield s
    s.close()


@pytest.fixture
def visitor(store: Store) -> Iterator[TestClient]:
    """A visitor of a host with an owner (the host runs games)."""
    with TestClient(create_app(store, policy=_policy())) as c:
        yield c


def _sign_in(client: TestClient) -> None:
    r = client.post("/owner", data={"token": TOKEN}, headers=ORIGIN, follow_redirects=False)
    assert r.status_code == 303, r.text


def _error(page: str) -> str:
    found = re.search(r'class="error" role="alert">([^<]*)<', page)
    assert found is not None, page[:400]
    return html.unescape(found.group(1))


def _seats(page: str) -> list[str]:
    return re.findall(r'data-seat="([^"]+)"', page)


def _create(
    client: TestClient,
    game: str = "werewolf",
    people: tuple[str, ...] = (),
    **fields: str,
) -> dict[str, str]:
    """A game through the two-step form; its links (admin, game, one per person seat)."""
    form = {"game": game, "players": "5", "options": "", **fields}
    step = client.post("/new", data=form, headers=ORIGIN)
    assert step.status_code == 200, _error(step.text)
    for seat in _seats(step.text):
        form[f"seat.{seat}"] = "person" if seat in people else "scripted"
    made = client.post("/create", data=form, headers=ORIGIN)
    assert made.status_code == 200, _error(made.text)
    links = {
        "admin": re.search(r'id="admin-link" href="/admin/([^"]+)"', made.text).group(1),  # type: ignore[union-attr]
        "game": re.search(r'id="watch-link" href="/watch/([^"]+)"', made.text).group(1),  # type: ignore[union-attr]
    }
    for token in re.findall(r'class="join-link" data-name="[^"]+" href="/play/([^"]+)"', made.text):
        links[f"seat{len(links) - 1}"] = token
    return links


def _wait_status(store: Store, game_id: str, want: tuple[str, ...], limit: float = 60) -> str:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        status = store.get_game(game_id).status
        if status in want:
            return status
        time.sleep(0.05)
    raise AssertionError(f"game {game_id} never reached {want}")


# -- the table: routes × probes ----------------------------------------------------------


@dataclass(frozen=True)
class Route:
    name: str
    method: str
    #: {seat}, {other}, {admin}, {game} are filled from the links of one game
    path: str
    #: "seat", "admin", "owner" or "" (public)
    needs: str


ROUTES = (
    Route("lobby", "GET", "/", ""),
    Route("new", "POST", "/new", ""),
    Route("create", "POST", "/create", ""),
    Route("owner page", "GET", "/owner", ""),
    Route("owner sign-in", "POST", "/owner", ""),
    Route("owner admin link", "POST", "/owner/admin", "owner"),
    Route("room", "GET", "/play/{seat}", "seat"),
    Route("decision", "GET", "/play/{seat}/decision", "seat"),
    Route("facts", "GET", "/play/{seat}/facts", "seat"),
    Route("board", "GET", "/play/{seat}/board", "seat"),
    Route("seat stream", "GET", "/play/{seat}/events", "seat"),
    Route("act", "POST", "/play/{seat}/act", "seat"),
    Route("typing", "POST", "/play/{seat}/typing", "seat"),
    Route("admin page", "GET", "/admin/{admin}", "admin"),
    Route("admin reveal", "POST", "/admin/{admin}/reveal", "admin"),
    Route("admin pause", "POST", "/admin/{admin}/pause", "admin"),
    Route("admin resume", "POST", "/admin/{admin}/resume", "admin"),
    Route("admin end", "POST", "/admin/{admin}/end", "admin"),
    Route("admin replace", "POST", "/admin/{admin}/replace", "admin"),
    Route("watch", "GET", "/watch/{game}", ""),
    Route("watch stream", "GET", "/watch/{game}/events", ""),
    Route("export", "GET", "/watch/{game}/export.md", ""),
    Route("static", "GET", "/static/parlour.js", ""),
    Route("favicon", "GET", "/favicon.ico", ""),
)

PROBES = (
    "no token",
    "wrong token",
    "another seat's token",
    "admin token for a seat",
    "forged Host",
    "forged Origin",
)


def _applies(route: Route, probe: str) -> bool:
    if probe in ("no token", "wrong token"):
        return route.needs != ""
    if probe == "another seat's token":
        return route.needs in ("admin", "owner") or route.name == "act"
    if probe == "admin token for a seat":
        return route.needs in ("seat", "owner")
    if probe == "forged Origin":
        return route.method == "POST"
    return True  # forged Host: every route


CASES = [(r, p) for r in ROUTES for p in PROBES if _applies(r, p)]


def test_the_table_covers_every_route() -> None:
    # The figure for the closing note of issue 34 (routes × probes that apply).
    print(f"\nweb authz: {len(ROUTES)} routes × {len(PROBES)} probes: {len(CASES)} cases")
    assert len(ROUTES) == 24 and len(CASES) == 79
    assert {r.name for r, _ in CASES} == {r.name for r in ROUTES}


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, dict[str, str]]]:
    """One host and one game with two person seats, shared by the table's cases. The
    host does not run games: the links, pages and refusals are what is probed."""
    store = Store(db_url(str(tmp_path_factory.mktemp("table") / "host.sqlite")))
    with TestClient(create_app(store, policy=_policy(), run_host=False)) as client:
        _sign_in(client)
        links = _create(client, people=("p1", "p2"))
        client.cookies.clear()
        yield client, links
    store.close()


def _fill(path: str, links: dict[str, str], seat: str, admin: str) -> str:
    return path.format(seat=seat, other=links["seat2"], admin=admin, game=links["game"])


@pytest.mark.parametrize(("route", "probe"), CASES, ids=[f"{r.name}|{p}" for r, p in CASES])
def test_route_refuses_the_probe(
    table: tuple[TestClient, dict[str, str]], route: Route, probe: str
) -> None:
    client, links = table
    seat, admin = links["seat1"], links["admin"]
    headers = dict(ORIGIN)
    cookies: dict[str, str] = {}
    forged = seat[:-2] + ("AA" if seat[-2:] != "AA" else "BB")
    if probe == "no token":
        seat = admin = ""
    elif probe == "wrong token":
        seat = admin = forged
        cookies[OWNER_COOKIE] = "0" * 64
    elif probe == "another seat's token":
        seat = admin = links["seat2"]
        cookies[OWNER_COOKIE] = links["seat2"]
    elif probe == "admin token for a seat":
        seat = admin = links["admin"]
        cookies[OWNER_COOKIE] = links["admin"]
    elif probe == "forged Host":
        headers = {"host": "evil.example", "origin": EVIL}
    elif probe == "forged Origin":
        headers = {"origin": EVIL}
    path = _fill(route.path, links, seat, admin)
    client.cookies.clear()
    for k, v in cookies.items():
        client.cookies.set(k, v)
    if route.method == "GET":
        r = client.get(path, headers=headers)
    else:
        data = {"game": links["game"], "token": "", "decision_id": "d0", "option": "x"}
        r = client.post(path, data=data, headers=headers, follow_redirects=False)
    client.cookies.clear()
    if probe == "forged Host":
        assert r.status_code == 421, (route.name, r.status_code)
        assert "host name" in r.text
    elif probe == "forged Origin":
        assert r.status_code == 403, (route.name, r.status_code)
    elif route.needs == "owner":
        assert r.status_code == 403, (route.name, probe, r.status_code)
        assert "/admin/" not in r.headers.get("location", "")
    elif probe == "another seat's token" and route.name == "act":
        # Seat 2 cannot answer a question that is not its own.
        assert r.status_code == 422 and "no longer open" in r.text
    else:
        assert r.status_code == 404, (route.name, probe, r.status_code)


def test_allowed_requests_pass(table: tuple[TestClient, dict[str, str]]) -> None:
    """The table's routes answer their rightful caller (the refusals are not blanket)."""
    client, links = table
    for path in ("/", "/owner", f"/watch/{links['game']}", "/static/parlour.js", "/favicon.ico"):
        assert client.get(path).status_code == 200, path
    typing = client.post(
        f"/play/{links['seat1']}/typing", data={"decision_id": "none-open"}, headers=ORIGIN
    )
    assert typing.status_code == 200 and typing.text == ""  # nothing open: nothing held
    for part in ("", "/decision", "/facts", "/board"):
        assert client.get(f"/play/{links['seat1']}{part}").status_code == 200, part
    assert client.get(f"/admin/{links['admin']}").status_code == 200
    assert client.get(f"/watch/{links['game']}/export.md").status_code == 200
    _sign_in(client)
    r = client.post("/owner/admin", data={"game": links["game"]}, headers=ORIGIN)
    assert r.status_code == 200 and "admin" in r.text  # followed to a fresh admin page
    client.cookies.clear()


# -- finding 1: content by name, never a path --------------------------------------------


@pytest.mark.parametrize("owner", [False, True], ids=["visitor", "owner"])
def test_content_is_chosen_by_name_never_by_path(store: Store, tmp_path: Path, owner: bool) -> None:
    secret = tmp_path / "secret.yaml"
    secret.write_text("root: hunter2\ntitle: SECRET TITLE\n", encoding="utf-8")
    missing = tmp_path / "nothing-here.yaml"
    with TestClient(create_app(store, policy=_policy(), run_host=False)) as client:
        if owner:
            _sign_in(client)
        answers: dict[str, set[str]] = {}
        probes = {
            # (game, form fields) per loader: options box and the lobby's select
            "town": ("missing", "options", "town={}"),
            "scenario": ("escape", "scenario", "{}"),
            "scenario option": ("escape", "options", "scenario={}"),
            "campaign": ("campaign", "options", "campaign={}"),
        }
        for label, (game, field, template) in probes.items():
            for target in (secret, missing, Path("/etc/passwd"), Path("/etc/shadow")):
                form = {"game": game, "players": "", field: template.format(target)}
                r = client.post("/new", data=form, headers=ORIGIN)
                assert r.status_code == 422, (label, target)
                line = _error(r.text)
                assert "hunter2" not in r.text and "SECRET TITLE" not in r.text
                assert "root:" not in r.text and str(target) not in line
                answers.setdefault(label, set()).add(line)
        # One answer per loader, the same for a present and a missing file: no oracle.
        assert all(len(lines) == 1 for lines in answers.values()), answers


def test_a_shipped_name_is_accepted(visitor: TestClient) -> None:
    page = visitor.get("/").text
    names = re.findall(
        r'<select name="scenario"><option value="">\(default\)</option>(.*?)</select>', page
    )
    assert names, "the lobby offers escape scenarios by name"
    first = re.search(r'<option value="([^"]+)">', names[0]).group(1)  # type: ignore[union-attr]
    r = visitor.post("/new", data={"game": "escape", "scenario": first}, headers=ORIGIN)
    assert r.status_code == 200, _error(r.text)
    bad = visitor.post("/new", data={"game": "escape", "scenario": first + "x"}, headers=ORIGIN)
    assert "choose one of the names this host offers" in _error(bad.text)


# -- finding 2: secret seeds ---------------------------------------------------------------


def test_a_visitor_cannot_set_the_seed_of_a_hidden_information_game(visitor: TestClient) -> None:
    assert 'name="seed"' not in visitor.get("/").text
    r = visitor.post("/new", data={"game": "werewolf", "players": "7", "seed": "1"}, headers=ORIGIN)
    assert "only the host's owner sets the seed" in _error(r.text)


def test_seeds_are_secret_until_the_end_and_kept_for_replay(
    store: Store, visitor: TestClient
) -> None:
    a = _create(visitor, people=("p1",))
    b = _create(visitor)
    seeds = {store.get_game(a["game"]).seed, store.get_game(b["game"]).seed}
    assert len(seeds) == 2 and 1 not in seeds  # drawn, not the old default of 1
    seed = str(store.get_game(a["game"]).seed)
    running = [
        visitor.get("/").text,
        visitor.get(f"/watch/{a['game']}").text,
        visitor.get(f"/watch/{a['game']}/export.md").text,
        visitor.get(f"/watch/{a['game']}/export.jsonl").text,
        visitor.get(f"/play/{a['seat1']}").text,
        visitor.get(f"/admin/{a['admin']}").text,
    ]
    assert store.get_game(a["game"]).status not in FINAL
    assert all(seed not in page for page in running)
    visitor.post(f"/admin/{a['admin']}/end", headers=ORIGIN)
    _wait_status(store, a["game"], FINAL)
    watch = visitor.get(f"/watch/{a['game']}").text
    assert f"Seed {seed}" in watch
    assert f"seed {seed}" in visitor.get(f"/watch/{a['game']}/export.md").text
    assert store.get_game(a["game"]).seed == int(seed)  # the store keeps it: replays stay exact


def test_the_owner_may_set_a_seed(store: Store, visitor: TestClient) -> None:
    _sign_in(visitor)
    assert 'name="seed"' in visitor.get("/").text
    links = _create(visitor, seed="12345")
    assert store.get_game(links["game"]).seed == 12345
    r = visitor.post("/new", data={"game": "werewolf", "seed": "9" * 30}, headers=ORIGIN)
    assert _error(r.text) == "seed must be a whole number from 0 to 9007199254740991"


# -- finding 3: limits, bounds, models, Host -----------------------------------------------


@pytest.mark.parametrize(
    ("game", "options", "error"),
    [
        ("diplomacy", "end_year=1901000", "end_year must be a whole number from 1901 to 1912"),
        ("escape", "max_turns=100000", "max_turns must be a whole number from 1 to 100"),
        ("missing", "minutes=240", "minutes must be a whole number from 1 to 60"),
        ("werewolf", "max_days=200", "max_days must be a whole number from 1 to 30"),
        (
            "werewolf",
            "speech_max_length=4000",
            "speech_max_length: only the host's owner sets this option",
        ),
        ("werewolf", "names=[a, b, c, d, e]", "names: only the host's owner sets this option"),
    ],
)
def test_visitor_options_are_bounded(
    visitor: TestClient, game: str, options: str, error: str
) -> None:
    r = visitor.post("/new", data={"game": game, "options": options}, headers=ORIGIN)
    assert r.status_code == 422 and _error(r.text) == error


def test_players_are_bounded(visitor: TestClient) -> None:
    r = visitor.post("/new", data={"game": "werewolf", "players": "100000"}, headers=ORIGIN)
    assert _error(r.text) == "players must be a whole number from 1 to 20"


def test_a_visitor_cannot_seat_a_paid_model(store: Store, visitor: TestClient) -> None:
    form = {"game": "werewolf", "players": "5", "options": ""}
    seats = _seats(visitor.post("/new", data=form, headers=ORIGIN).text)
    form |= {f"seat.{s}": "scripted" for s in seats}
    form |= {f"seat.{seats[0]}": "model", f"model.{seats[0]}": "openai:gpt-4o"}
    r = visitor.post("/create", data=form, headers=ORIGIN)
    assert r.status_code == 422
    assert _error(r.text) == (
        "only the host's owner seats that model; this host offers: scripted, random, local"
    )
    assert store.list_games() == []
    # Nor through an admin link's seat replacement.
    links = _create(visitor, people=("p2",))
    r = visitor.post(
        f"/admin/{links['admin']}/replace",
        data={"seat": "p1", "spec": "anthropic:claude-x"},
        headers=ORIGIN,
    )
    assert "only the host's owner seats that model" in html.unescape(r.text)


def test_games_created_per_minute_and_running_are_limited(store: Store) -> None:
    policy = _policy(per_client_per_minute=2, per_minute=30, running_per_client=5, running=20)
    with TestClient(create_app(store, policy=policy, run_host=False)) as client:
        _create(client, people=("p1",))
        _create(client, people=("p1",))
        form = {"game": "werewolf", "players": "5"}
        r = client.post("/create", data=form, headers=ORIGIN)
        assert _error(r.text) == (
            "at most 2 new games a minute from one visitor; try again in a minute"
        )
        _sign_in(client)  # the owner is not limited
        _create(client, people=("p1",))
    policy = _policy(per_client_per_minute=10, running_per_client=1, running=20)
    with TestClient(create_app(store, policy=policy, run_host=False)) as client:
        _create(client, people=("p1",))
        r = client.post("/create", data=form, headers=ORIGIN)
        assert "you have 1 games running on this host" in _error(r.text)
    policy = _policy(per_client_per_minute=10, running=1)
    with TestClient(create_app(store, policy=policy, run_host=False)) as client:
        r = client.post("/create", data=form, headers=ORIGIN)
        assert _error(r.text) == "this host runs 1 games already; try again when one ends"


def test_dns_rebinding_is_refused_on_every_route(visitor: TestClient) -> None:
    links = _create(visitor, people=("p1",))
    forged = {"host": "evil.example:8765", "origin": "http://evil.example:8765"}
    r = visitor.post("/new", data={"game": "werewolf"}, headers=forged)
    assert r.status_code == 421
    r = visitor.post(f"/admin/{links['admin']}/end", headers=forged)
    assert r.status_code == 421
    assert visitor.get("/", headers={"host": ""}).status_code == 421
    assert visitor.get("/", headers={"host": "testserver:1234"}).status_code == 200


# -- the owner -----------------------------------------------------------------------------


def test_the_owner_signs_in_with_the_token_for_a_strict_cookie(visitor: TestClient) -> None:
    r = visitor.post("/owner", data={"token": "guess" * 8}, headers=ORIGIN)
    assert r.status_code == 403 and "not this host's owner token" in html.unescape(r.text)
    assert OWNER_COOKIE not in visitor.cookies
    r = visitor.post("/owner", data={"token": TOKEN}, headers=ORIGIN, follow_redirects=False)
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and TOKEN not in cookie
    assert "You are signed in as the owner" in visitor.get("/owner").text
    visitor.post("/owner/out", headers=ORIGIN)
    assert 'name="token"' in visitor.get("/owner").text


def test_an_open_table_lets_everyone_do_everything(store: Store) -> None:
    policy = HostPolicy(owner_token=TOKEN, open_table=True, hosts=frozenset({"testserver"}))
    with TestClient(create_app(store, policy=policy, run_host=False)) as client:
        links = _create(client, seed="7", options="speech_max_length=1000")
        assert store.get_game(links["game"]).seed == 7
        # Content is still by name, even at an open table.
        r = client.post(
            "/new", data={"game": "missing", "options": "town=/etc/passwd"}, headers=ORIGIN
        )
        assert _error(r.text) == "town: content is chosen by name on this host, never by a path"
        # And the Host header is still checked.
        assert client.get("/", headers={"host": "evil.example"}).status_code == 421


# -- the smaller findings ------------------------------------------------------------------


def test_no_openapi_and_a_content_security_policy(visitor: TestClient) -> None:
    assert visitor.get("/openapi.json").status_code == 404
    assert visitor.get("/docs").status_code == 404
    csp = visitor.get("/").headers["content-security-policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]


def test_the_lobby_hints_only_options_the_game_accepts(visitor: TestClient) -> None:
    page = visitor.get("/").text
    werewolf = re.search(r'<span class="hint" data-for-game="werewolf">(.*?)</span>', page)
    assert werewolf is not None and "theme" not in werewolf.group(1)
    assert "max_days=N" in werewolf.group(1)
    diplomacy = re.search(r'<span class="hint" data-for-game="diplomacy">(.*?)</span>', page)
    assert diplomacy is not None and "end_year=N" in diplomacy.group(1)
    assert "theme=" not in page


def test_a_finished_game_offers_no_pause_resume_or_end(store: Store, visitor: TestClient) -> None:
    links = _create(visitor)
    _wait_status(store, links["game"], FINAL, limit=120)
    page = visitor.get(f"/admin/{links['admin']}").text
    for command in ("pause", "resume", "end"):
        assert f'action="/admin/{links["admin"]}/{command}"' not in page
    r = visitor.post(f"/admin/{links['admin']}/resume", headers=ORIGIN)
    status = store.get_game(links["game"]).status
    assert f"this game is over ({status}): there is nothing to resume" in r.text
    assert "resumed" not in r.text
    assert store.get_game(links["game"]).status == status


def test_resume_is_refused_unless_the_game_is_paused(store: Store, visitor: TestClient) -> None:
    links = _create(visitor, people=("p1",))
    admin = links["admin"]
    page = visitor.get(f"/admin/{admin}").text  # running: pause and end, no resume
    assert f'action="/admin/{admin}/pause"' in page and f'action="/admin/{admin}/end"' in page
    assert f'action="/admin/{admin}/resume"' not in page
    r = visitor.post(f"/admin/{admin}/resume", headers=ORIGIN)
    assert "this game is running, not paused: there is nothing to resume" in r.text
    visitor.post(f"/admin/{admin}/pause", headers=ORIGIN)
    _wait_status(store, links["game"], ("paused",))
    page = visitor.get(f"/admin/{admin}").text  # paused: resume and end, no pause
    assert (
        f'action="/admin/{admin}/resume"' in page and f'action="/admin/{admin}/pause"' not in page
    )
    r = visitor.post(f"/admin/{admin}/resume", headers=ORIGIN)
    assert "resumed: the game goes on from where it was paused" in r.text
    assert store.get_game(links["game"]).status == "running"


def _damage(path: Path) -> None:
    """Overwrite one page of the events table: the file opens, the lobby reads, a game's
    events do not."""
    with contextlib.closing(sqlite3.connect(path)) as con:
        size = con.execute("PRAGMA page_size").fetchone()[0]
        pages = [
            p
            for (p,) in con.execute(
                "SELECT pageno FROM dbstat WHERE name = 'events' ORDER BY pageno"
            )
        ]
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with path.open("r+b") as f:
        f.seek((pages[len(pages) // 2] - 1) * size)
        f.write(b"\xff" * size)


@pytest.mark.parametrize("page_workers", [0, 1], ids=["threads", "page-worker"])
def test_a_damaged_database_answers_one_line_without_a_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, page_workers: int
) -> None:
    path = tmp_path / "host.sqlite"
    store = Store(db_url(str(path)))
    host = GameHost(store, worker="t")
    game_id = host.create("werewolf", players=5, seed=3, seats={}, overrides={})
    with TestClient(create_app(store, host, policy=_policy())):
        _wait_status(store, game_id, FINAL, limit=120)
    store.close()
    _damage(path)
    store = Store(db_url(str(path)))
    caplog.set_level(logging.ERROR)
    try:
        app = create_app(store, policy=_policy(), run_host=False, page_workers=page_workers)
        with TestClient(app, raise_server_exceptions=False) as client:
            assert client.get("/").status_code == 200  # the lobby still serves
            for part in ("", "/export.md", "/export.html", "/export.jsonl"):
                r = client.get(f"/watch/{game_id}{part}")
                assert r.status_code == 503 and r.text == UNREADABLE, (part, r.text[:300])
                assert str(tmp_path) not in r.text
    finally:
        store.close()
    logged = [rec for rec in caplog.records if rec.name.startswith("parlour")]
    assert logged and all("is damaged" in rec.getMessage() for rec in logged)
    assert all(rec.exc_info is None for rec in caplog.records), "a traceback was logged"


# -- slow clients ---------------------------------------------------------------------------


def test_slow_and_idle_connections_are_closed(store: Store) -> None:
    import uvicorn

    from parlour.web.serving import KEEP_ALIVE_SECONDS, MAX_HEAD, patient_protocol

    app = create_app(store, policy=HostPolicy(owner_token=TOKEN), run_host=False)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        http=patient_protocol(1.0),
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        h11_max_incomplete_event_size=MAX_HEAD,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert time.monotonic() < deadline and thread.is_alive()
            time.sleep(0.05)

        def closed_within(sock: socket.socket, seconds: float) -> bool:
            sock.settimeout(seconds)
            try:
                while True:
                    if sock.recv(4096) == b"":
                        return True
            except (TimeoutError, ConnectionResetError):
                return False

        # A request that trickles in a byte at a time (slowloris).
        slow = socket.create_connection(("127.0.0.1", port))
        start = time.monotonic()
        for byte in b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: ":
            slow.sendall(bytes([byte]))
            time.sleep(0.02)
        assert closed_within(slow, 5), "a slow request kept its connection"
        assert time.monotonic() - start < 5
        # A connection that sends nothing at all.
        idle = socket.create_connection(("127.0.0.1", port))
        assert closed_within(idle, 5), "a silent connection was kept"
        # A whole request is answered as before.
        ok = socket.create_connection(("127.0.0.1", port))
        ok.sendall(b"GET /static/parlour.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        ok.settimeout(5)
        assert ok.recv(64).startswith(b"HTTP/1.1 200")
        for s in (slow, idle, ok):
            s.close()
    finally:
        server.should_exit = True
        thread.join(timeout=30)


# -- the real command ----------------------------------------------------------------------


def test_serve_prints_an_owner_token_and_checks_the_host(tmp_path: Path) -> None:
    import subprocess
    import sys
    import urllib.error
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k != "PARLOUR_OWNER_TOKEN"}
    command = [
        sys.executable, "-m", "parlour", "serve", "--port", str(port),
        "--db", str(tmp_path / "web.sqlite"), "--page-workers", "0",
    ]  # fmt: skip
    server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        assert f"serving on http://127.0.0.1:{port}/" in server.stdout.readline()
        line = server.stdout.readline()
        found = re.fullmatch(r"owner token \(sign in at /owner\): (\S{40,})\n", line)
        assert found is not None, line
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(base + "/", timeout=5) as page:
                    assert page.status == 200
                    break
            # A loaded machine can accept the connection and still answer late: a read
            # timeout is retried like a refused connection until the deadline.
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                assert server.poll() is None and time.monotonic() < deadline
                time.sleep(0.2)
        rebound = urllib.request.Request(base + "/", headers={"Host": "evil.example"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(rebound, timeout=30)
        assert refused.value.code == 421
    finally:
        server.terminate()
        server.wait(timeout=30)

"""Authorization matrix and escaping, through the real app on a real SQLite store.

Every seat endpoint is called with the seat's own token (allowed), another seat's
token, the admin token, no token, a forged token and a spectator's handle (the game id):
only the owner reads or acts. Secrets of one seat never appear in another's responses.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("parlour.runtime.host", reason="the web app runs games through GameHost")

from fastapi.testclient import TestClient

from parlour.runtime.store import Store, db_url
from parlour.web.app import create_app

ORIGIN = {"origin": "http://testserver"}
XSS = "<script>alert(1)</script>"


@pytest.fixture(params=[0, 1], ids=["threads", "page-worker"])
def client(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[TestClient]:
    # Pages rendered on the app's threads, and by a page worker process (as served).
    store = Store(db_url(str(tmp_path / "web.sqlite")))
    with TestClient(create_app(store, page_workers=request.param)) as c:
        yield c


def _create(client: TestClient, people: tuple[str, ...], options: str = "") -> dict[str, str]:
    form = {"game": "werewolf", "players": "5", "seed": "3", "options": options, "scenario": ""}
    page = client.post("/new", data=form, headers=ORIGIN)
    assert page.status_code == 200, page.text
    seats = re.findall(r'data-seat="([^"]+)"', page.text)
    for seat in seats:
        form[f"seat.{seat}"] = "person" if seat in people else "scripted"
    made = client.post("/create", data=form, headers=ORIGIN)
    assert made.status_code == 200, made.text
    links = {"admin": re.search(r'id="admin-link" href="/admin/([^"]+)"', made.text).group(1)}
    for name, token in re.findall(r'data-name="([^"]+)" href="/play/([^"]+)"', made.text):
        links[name] = token
    links["game"] = re.search(r'href="/watch/([^"]+)"', made.text).group(1)
    return links


def _wait_for_decision(client: TestClient, token: str) -> str:
    for _ in range(200):
        body = client.get(f"/play/{token}/decision").text
        if "decision_id" in body:
            return body
        time.sleep(0.05)
    raise AssertionError("no decision opened for the person seat")


def test_only_the_owner_reads_or_acts(client: TestClient) -> None:
    links = _create(client, ("p1", "p2"))
    game = links.pop("game")
    admin = links.pop("admin")
    (a, ta), (b, tb) = links.items()
    assert client.get(f"/play/{ta}").status_code == 200
    decision = _wait_for_decision(client, ta)
    decision_id = re.search(r'name="decision_id" value="([^"]+)"', decision).group(1)
    intruders = {
        "other seat": tb,
        "admin": admin,
        "no token": "",
        "forged": ta[:-2] + ("AA" if ta[-2:] != "AA" else "BB"),
        "spectator": game,
    }
    for who, token in intruders.items():
        for path in ("", "/decision", "/facts", "/board", "/events"):
            if who == "other seat":
                continue  # b's own pages (a live stream): checked below for a's secrets
            r = client.get(f"/play/{token}{path}")
            assert r.status_code == 404, (who, path, r.status_code)
        r = client.post(
            f"/play/{token}/act", data={"decision_id": decision_id, "option": "x"}, headers=ORIGIN
        )
        if who != "other seat":
            assert r.status_code == 404, (who, r.status_code)
        else:  # b cannot answer a's question
            assert decision_id not in r.text
    for who, token in {**intruders, "seat": ta}.items():
        if who == "admin":
            continue
        r = client.post(f"/admin/{token}/end", headers=ORIGIN)
        assert r.status_code == 404, (who, r.status_code)
        assert client.get(f"/admin/{token}").status_code == 404
    # A seat's private facts are in its own page only.
    mine = client.get(f"/play/{ta}/facts").text
    theirs = client.get(f"/play/{tb}/facts").text
    role_a = re.search(r"<dt>role</dt><dd>([^<]+)</dd>", mine)
    assert role_a is not None and f"You are {a}" in mine and f"You are {b}" in theirs
    # Spectators see the public view only while the game runs.
    watch = client.get(f"/watch/{game}?level=everything").text
    assert 'class="level" data-level="public">what everyone saw<' in watch
    # Cross-site posts are refused before anything happens.
    r = client.post(f"/admin/{admin}/end", headers={"origin": "http://evil.example"})
    assert r.status_code == 403
    assert client.post(f"/admin/{admin}/end").status_code == 403  # no Origin at all
    assert client.post(f"/admin/{admin}/end", headers=ORIGIN).status_code == 200


def _answer_until_text(client: TestClient, token: str) -> str:
    """Answer choose-one questions with their first option until a free-text one opens."""
    for _ in range(40):
        body = _wait_for_decision(client, token)
        decision_id = re.search(r'name="decision_id" value="([^"]+)"', body).group(1)
        if 'name="text"' in body:
            return decision_id
        option = re.search(r'name="option" value="([^"]+)"', body)
        assert option is not None, body
        client.post(
            f"/play/{token}/act",
            data={"decision_id": decision_id, "option": option.group(1)},
            headers=ORIGIN,
        )
    raise AssertionError("the person seat was never asked to speak")


def test_player_text_and_names_render_as_text(client: TestClient) -> None:
    # A name the game refuses comes back in the error line, escaped.
    bad = client.post(
        "/new",
        data={"game": "werewolf", "players": "5", "seed": "1", "options": f"names=['{XSS}']"},
        headers=ORIGIN,
    )
    assert bad.status_code == 422 and XSS not in bad.text and 'class="error"' in bad.text
    links = _create(client, ("p1",))
    token = next(v for k, v in links.items() if k not in ("admin", "game"))
    decision_id = _answer_until_text(client, token)
    said = client.post(
        f"/play/{token}/act", data={"decision_id": decision_id, "text": XSS}, headers=ORIGIN
    )
    assert said.status_code == 200, said.text
    for _ in range(100):
        room = client.get(f"/play/{token}").text
        if "&lt;script&gt;alert(1)&lt;/script&gt;" in room:
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the chat line never showed")
    watch = client.get(f"/watch/{links['game']}").text
    for page in (room, watch, client.get("/").text):
        assert XSS not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in watch

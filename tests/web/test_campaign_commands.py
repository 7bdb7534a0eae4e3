"""Campaign's out-of-character channel in the web app: the player's ``/ooc`` question, typed
in the page's text box like any line, is answered by the story director in the player's
room only; ``/sheet`` and ``/recap`` answer there too, and none of it costs a turn."""

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


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = Store(db_url(str(tmp_path / "web.sqlite")))
    with TestClient(create_app(store, page_workers=0)) as c:
        yield c


def _create(client: TestClient) -> tuple[str, str]:
    form = {"game": "campaign", "players": "1", "seed": "2", "options": "", "scenario": ""}
    page = client.post("/new", data=form, headers=ORIGIN)
    assert page.status_code == 200, page.text
    for seat in re.findall(r'data-seat="([^"]+)"', page.text):
        form[f"seat.{seat}"] = "person" if seat == "player" else "scripted"
    made = client.post("/create", data=form, headers=ORIGIN)
    assert made.status_code == 200, made.text
    token = re.findall(r'data-name="[^"]+" href="/play/([^"]+)"', made.text)[0]
    game = re.search(r'href="/watch/([^"]+)"', made.text).group(1)
    return token, game


def _say(client: TestClient, token: str, text: str) -> str:
    """Type ``text`` into the open free-text decision; the id it answered."""
    for _ in range(200):
        body = client.get(f"/play/{token}/decision").text
        found = re.search(r'name="decision_id" value="([^"]+)"', body)
        if found and 'name="text"' in body:
            said = client.post(
                f"/play/{token}/act",
                data={"decision_id": found.group(1), "text": text},
                headers=ORIGIN,
            )
            assert said.status_code == 200, said.text
            return found.group(1)
        time.sleep(0.05)
    raise AssertionError("the player was never asked to act")


def _room_shows(client: TestClient, token: str, text: str) -> str:
    for _ in range(200):
        room = client.get(f"/play/{token}").text
        if text in room:
            return room
        time.sleep(0.05)
    raise AssertionError(f"{text!r} never showed in the player's room")


def test_ooc_sheet_and_recap_answer_in_the_players_room(client: TestClient) -> None:
    token, game = _create(client)
    first = _say(client, token, "/ooc how do checks work?")
    _room_shows(client, token, "plus your skill")
    second = _say(client, token, "/sheet")
    _room_shows(client, token, "Ilse is a vampire")
    third = _say(client, token, "/recap")
    _room_shows(client, token, "Scene 1")
    # the same turn's act decision, asked again after each command (no turn spent)
    assert first.split(":")[0] == second.split(":")[0] == third.split(":")[0]
    watch = client.get(f"/watch/{game}").text
    assert "plus your skill" not in watch and "Ilse is a vampire" not in watch

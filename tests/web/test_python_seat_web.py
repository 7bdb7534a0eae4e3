"""The lobby's model box takes a python: seat spec like any other; a bad one is refused
with its one-line error and nothing is stored."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from parlour.runtime.store import Store, db_url
from parlour.web.app import create_app

ORIGIN = {"Sec-Fetch-Site": "same-origin"}
AGENT = "python:tests.runtime.test_python_agents:first_legal"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(db_url(str(tmp_path / "web.sqlite")))
    yield s
    s.close()


def _create(client: TestClient, spec: str) -> tuple[int, str]:
    form = {"game": "werewolf", "players": "7", "seed": "3", "options": "", "scenario": ""}
    page = client.post("/new", data=form, headers=ORIGIN)
    assert page.status_code == 200, page.text
    for seat in re.findall(r'data-seat="([^"]+)"', page.text):
        form[f"seat.{seat}"] = "model" if seat == "p1" else "scripted"
        form[f"model.{seat}"] = spec if seat == "p1" else "local"
    made = client.post("/create", data=form, headers=ORIGIN)
    return made.status_code, made.text


def test_the_lobby_seats_a_python_agent(store: Store) -> None:
    with TestClient(create_app(store, run_host=False)) as client:
        status, _ = _create(client, AGENT)
    assert status == 200
    [row] = store.list_games()
    assert row.seats["p1"] == AGENT


def test_a_bad_python_spec_is_refused_in_the_lobby(store: Store) -> None:
    with TestClient(create_app(store, run_host=False)) as client:
        status, text = _create(client, "python:no_such_agents_mod:f")
    assert status == 422
    assert "no module named" in text
    assert store.list_games() == []

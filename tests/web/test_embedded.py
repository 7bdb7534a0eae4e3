"""A werewolf game made in the lobby with AI seats on the embedded model.

The lobby plans its games with the same ``session.plan`` as the CLI, so seats on a small
model (the bundled SmolLM2: ``local``) speak in speech acts (``act_seats``) and a person
keeps the open mic. Checked here without loading the model: planning only asks the
backend's capabilities.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from parlour.games.werewolf.config import WerewolfConfig
from parlour.runtime.session import plan
from parlour.runtime.store import Store, db_url
from parlour.web.app import create_app

ORIGIN = {"Sec-Fetch-Site": "same-origin"}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(db_url(str(tmp_path / "web.sqlite")))
    yield s
    s.close()


def _lobby_create(client: TestClient, seed: int, kinds: dict[str, str]) -> str:
    form = {"game": "werewolf", "players": "7", "seed": str(seed), "options": "", "scenario": ""}
    page = client.post("/new", data=form, headers=ORIGIN)
    assert page.status_code == 200, page.text
    for seat in re.findall(r'data-seat="([^"]+)"', page.text):
        form[f"seat.{seat}"] = kinds.get(seat, "scripted")
        form[f"model.{seat}"] = "local"  # the lobby's default spec
    made = client.post("/create", data=form, headers=ORIGIN)
    assert made.status_code == 200, made.text
    found = re.search(r'href="/watch/([^"]+)"', made.text)
    assert found is not None
    return found.group(1)


def test_lobby_local_seats_get_the_small_model_treatment_like_the_cli(store: Store) -> None:
    kinds = {"p1": "person", **{f"p{i}": "model" for i in range(2, 8)}}
    with TestClient(create_app(store, run_host=False)) as client:
        game_id = _lobby_create(client, 2, kinds)
    row = store.get_game(game_id)
    assert row.seats["p1"] == "human"
    assert all(row.seats[f"p{i}"] == "local" for i in range(2, 8))
    config = store.get_game(game_id).config
    made = WerewolfConfig.model_validate_json(config)
    assert made.act_seats == tuple(f"p{i}" for i in range(2, 8))  # the person speaks freely
    assert made.speech_phrase_words == 0
    assert made.open_mic == ("p1",)
    # Exactly what the CLI plans for `parlour play werewolf --players 7 --seed 2 --human p1`.
    cli = plan(store, "werewolf", players=7, seed=2, model="local", human="p1", probe=False)
    assert cli.config == made


def test_lobby_mixed_table_gives_speech_acts_to_local_seats_only(store: Store) -> None:
    kinds = {"p1": "person", "p2": "model", "p3": "model"}  # the rest: the game's script
    with TestClient(create_app(store, run_host=False)) as client:
        game_id = _lobby_create(client, 5, kinds)
    made = WerewolfConfig.model_validate_json(store.get_game(game_id).config)
    assert made.act_seats == ("p2", "p3")


def test_questions_that_open_after_the_page_loaded_reach_it_without_a_reload(
    tmp_path: Path,
) -> None:
    """Models think for seconds to minutes, so a person's next question opens long after
    their room loaded or their last answer was posted: only the stream's tick brings it.
    (The page once counted its own box's requests by element, lost count when the box
    swapped itself out, and from then on ignored every tick.)"""
    from tests.web.browser import (
        LiveServer,
        chromium_or_skip,
        create_game,
        decision_state,
        first_other,
        launch,
        play,
    )

    chromium = chromium_or_skip()
    with (
        LiveServer(f"sqlite:///{tmp_path / 'paced.sqlite'}", pace=0.4) as live,
        launch(chromium) as browser,
    ):
        page = browser.new_page()
        # Seed 2: p1 (Kenji) is the seer, asked only after the pack's night chat.
        links = create_game(page, live.base, "werewolf", players=7, seed=2, people=("p1",))
        page.goto(live.base + links.seats["Kenji"])
        assert decision_state(page) == "idle"  # the pack is still talking
        page.wait_for_selector("#decision form.decision", timeout=30_000)
        assert page.locator("#decision form").get_attribute("data-purpose") == "investigate"
        seen = play(page, first_other, limit=240)
        assert decision_state(page) == "over"
        assert {"investigate", "vote"} <= {p for p, _ in seen.kinds}
        assert live.store.get_game(links.game).status == "finished"


def test_the_sidebar_of_a_game_that_just_ended_is_not_a_moment_old(store: Store) -> None:
    """The end of a game is its last refresh: a rebuilt copy kept "fresh enough" from a
    moment before would stay on the page for good (a dead person still "alive")."""
    import asyncio

    from parlour.runtime import session as sessions
    from parlour.runtime.seating import SeatPlan
    from parlour.web.tables import Games

    plan_ = SeatPlan(default="scripted", system_default="scripted", overrides={})
    live = sessions.start(store, "werewolf", players=5, seed=1, options={}, plan=plan_)
    asyncio.run(live.run(max_batches=3))
    games = Games(store)
    assert not games.game(live.game_id).is_terminal()
    asyncio.run(live.run())
    assert store.get_game(live.game_id).status == "finished"
    assert games.game(live.game_id).is_terminal()
    assert games.phase(live.game_id) == live.game.spectator_view(False).phase

"""The browser game against the embedded model, deterministic: replayed from its recording.

``tests/fixtures/web_embedded.sqlite`` holds one game recorded by
``benchmarks/web_embedded_game.py``: a person (p1) played werewolf in the browser
against six seats on the bundled SmolLM2 (``local``), created in the lobby. Here the
same path runs again without the model: the app on a copy of that database, a game
created through the lobby with the same seed and settings whose six AI seats are
``replay:RECORDED`` (each answers from its own recorded calls), and the person giving
the recorded person's answers by clicking and typing in the room. The new game must
tell exactly the recorded story: the same public event log, to the same end.

The lobby cannot know that the replayed calls came from a small model, so the settings
the plan gave the small seats (``act_seats``, ``speech_phrase_words``) are typed into the
options box, as a person repeating the game would; the test checks the created game's
config equals the recording's. After a werewolf prompt change, re-record:
``nice -n 5 uv run python benchmarks/web_embedded_game.py --spec 'local(timeout=600)'
--fixture tests/fixtures/web_embedded.sqlite``.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from parlour.core.actions import Action, Choice, Text
from parlour.games.werewolf.config import WerewolfConfig
from parlour.runtime.store import GameRow, Store, db_url
from tests.web.browser import LiveServer, chromium_or_skip, create_game, launch, next_question

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "web_embedded.sqlite"


def _recorded(path: Path) -> GameRow:
    store = Store(db_url(str(path)))
    try:
        (row,) = store.list_games()
        return row
    finally:
        store.close()


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    path = tmp_path / "web_embedded.sqlite"
    shutil.copyfile(FIXTURE, path)  # never the fixture itself: opening may migrate it
    return path


def _options(config: WerewolfConfig) -> str:
    """What the plan gave the recording's small-model seats, as the lobby's option lines."""
    acts = ", ".join(config.act_seats)
    plans = "true" if config.plans else "false"  # the recording predates day plans
    return f"act_seats=[{acts}]\nspeech_phrase_words={config.speech_phrase_words}\nplans={plans}"


def _answer(form: Any, action: Action) -> None:
    """Give ``action`` through the page: a click for a choice, typing for text."""
    if isinstance(action, Choice):
        form.locator(f"button.option[value='{action.option}']").click()
    elif isinstance(action, Text):
        form.locator("textarea").fill(action.text)
        form.locator("button[type=submit]").click()
    else:
        raise AssertionError(f"the recorded person never answered a {type(action).__name__}")


def _play_recorded(page: Any, answers: dict[str, Action], limit: float = 300.0) -> list[str]:
    """Answer each question with the recorded answer to it, until the game is over."""
    given: list[str] = []
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        question = next_question(page)
        if question is None:
            return given
        form, decision_id = question
        again = page.inner_text("#decision")
        assert decision_id not in given, f"asked {decision_id} again: {again}"
        assert decision_id in answers, f"the recording never asked the person {decision_id}"
        _answer(form, answers[decision_id])
        given.append(decision_id)
        page.wait_for_function(
            "id => { const f = document.querySelector('#decision input[name=decision_id]');"
            " return !f || f.value !== id; }",
            arg=decision_id,
            timeout=60_000,
        )
    raise AssertionError(f"the replayed game did not end in time; answered {given[-3:]}")


@pytest.fixture
def server(copy: Path) -> Iterator[LiveServer]:
    chromium_or_skip()
    with LiveServer(f"sqlite:///{copy}") as live:
        yield live


@pytest.mark.skip(
    reason="the recording's router was the scripted one, which now follows the talk (issue "
    "33), so the replayed game asks the person other turns; re-record "
    "tests/fixtures/web_embedded.sqlite with benchmarks/web_embedded_game.py"
)
def test_the_recorded_browser_game_replays_through_the_lobby_and_the_page(
    copy: Path, server: LiveServer
) -> None:
    recorded = _recorded(copy)
    store = server.store
    config = WerewolfConfig.model_validate_json(recorded.config)
    people = tuple(s for s, spec in recorded.seats.items() if spec == "human")
    models = {s: spec for s, spec in recorded.seats.items() if spec.startswith("local")}
    assert len(people) == 1 and len(models) == 6  # what the benchmark recorded
    (person,) = people
    answers = {a.decision_id: a.action for a in store.actions(recorded.id) if a.seat == person}

    with launch(chromium_or_skip()) as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        links = create_game(
            page,
            server.base,
            "werewolf",
            players=config.players,
            seed=recorded.seed,
            options=_options(config),
            people=people,
            models={s: f"replay:{recorded.id}" for s in models},
        )
        game_id = links.game
        made = WerewolfConfig.model_validate_json(store.get_game(game_id).config)
        assert made == config  # the same game: seed, cast, roles, settings
        page.goto(server.base + next(iter(links.seats.values())))
        given = _play_recorded(page, answers)

    row = store.get_game(game_id)
    assert row.status == "finished" and recorded.status == "finished"
    assert row.result == recorded.result
    assert sorted(given) == sorted(answers)  # every recorded answer, each once
    replayed = store.spectator_events(game_id, "public")
    original = store.spectator_events(recorded.id, "public")
    assert replayed == original

    # Every seat asked the same things and got the same answers (a transport error in the
    # recording, e.g. a timeout, was retried with the same prompt and is not replayed).
    def answered(gid: str) -> list[tuple[str, str, str, str]]:
        calls = [c for c in store.calls(gid) if c.outcome in ("valid", "invalid")]
        return sorted((c.seat, c.decision_id, c.outcome, c.response_text) for c in calls)

    assert answered(game_id) == answered(recorded.id)

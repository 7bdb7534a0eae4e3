"""Shared helpers for the escape tests: configs, scripted play, tiny inline scenarios."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from functools import cache

import pytest

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.events import Event
from parlour.core.rng import Rng
from parlour.core.view import View
from parlour.games.escape import EscapeConfig, EscapeGame, make_config, parse_scenario
from parlour.games.escape.keyword_classifier import classify
from parlour.games.escape.labels import frontier_for
from parlour.games.escape.loader import load_scenario
from parlour.games.escape.scenario import ASK_ID, NONE_ID, Scenario
from parlour.games.escape.seat_requests import room_text, unoffered_actions

SHIPPED = ("ghost_room", "stalled_lift")

# Actions done along the shipped scenarios' paths: the states the classifier tests put a
# message in. ghost_room:
LOOKED = ("read_note", "examine_painting")
TALKED = (*LOOKED, "talk_to_ghost")
DOWN = (*TALKED, "say_name", "open_drawer", "unlock_cabinet", "light_lantern", "open_trapdoor")
# stalled_lift:
PHONE = ("open_phone_door", "plug_phone")
PANEL = (*PHONE, "call_night_desk", "open_service_panel")
Decider = Callable[[View, Decision, Rng], Action]


@cache
def config(name: str, **options: object) -> EscapeConfig:
    return make_config(None, {"scenario": name, **options})


def scenario_from(yaml_text: str) -> Scenario:
    return parse_scenario(textwrap.dedent(yaml_text), file="test.yaml")


def play(game: EscapeGame, seats: dict[str, Decider], seed: int, max_steps: int = 5000) -> None:
    """Drive a game to the end with one policy per seat."""
    rng = Rng(seed)
    for _ in range(max_steps):
        if game.is_terminal():
            return
        decision = game.pending()[0]
        action = seats[decision.seat](game.view(decision.seat), decision, rng)
        game.apply(decision.id, action)
    raise AssertionError("game did not end")


def last_narration(game: EscapeGame) -> Event:
    """The narration the player was shown last."""
    return [e for e in game.events if e.kind == "narration"][-1]


def options_in(name: str, done: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """The available actions as the classifier sees them, plus none and ask."""
    scenario = load_scenario(name)
    by_id = {a.id: a for a in scenario.actions}
    available = frontier_for(scenario, done).available()
    return [(a, by_id[a].description) for a in available] + [(NONE_ID, "-"), (ASK_ID, "-")]


def unoffered_in(name: str, done: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """The actions the room does not offer in that state, as the game gives them too
    (``seat_requests.unoffered_actions``): things the classifier may not pick."""
    scenario = load_scenario(name)
    available = frontier_for(scenario, done).available()
    return [(u.id, u.description) for u in unoffered_actions(scenario.actions, available)]


def classify_in(message: str, name: str, done: tuple[str, ...] = ()) -> str:
    """The keyword classifier's pick for ``message`` in that state, told what the game
    tells it (the offered options, the actions not offered now, the room's public text)."""
    scenario = load_scenario(name)
    room = room_text(scenario.intro, scenario.world)
    return classify(message, options_in(name, done), unoffered=unoffered_in(name, done), room=room)


#: A classifier case in a shipped room: (room, actions done, message, the expected pick).
RoomCase = tuple[str, tuple[str, ...], str, str]
#: The same in a room the test names once: (actions done, message, the expected pick).
StateCase = tuple[tuple[str, ...], str, str]


def classified_in_rooms(cases: Sequence[RoomCase]) -> Callable[..., None]:
    """A test over ``cases``: each message, in its room after those actions, is classified
    as expected (``classify_in``). Bind it to a ``test_`` name in a test module."""

    @pytest.mark.parametrize(("name", "done", "message", "expected"), cases)
    def test(name: str, done: tuple[str, ...], message: str, expected: str) -> None:
        assert classify_in(message, name, done) == expected

    return test


def classified_in(room: str, cases: Sequence[StateCase]) -> Callable[..., None]:
    """``classified_in_rooms`` for cases all in ``room``."""

    @pytest.mark.parametrize(("done", "message", "expected"), cases)
    def test(done: tuple[str, ...], message: str, expected: str) -> None:
        assert classify_in(message, room, done) == expected

    return test


def said_in(
    room: str, done: tuple[str, ...], cases: Sequence[tuple[str, str]]
) -> Callable[..., None]:
    """``classified_in_rooms`` for (message, expected pick) cases all in one room and state."""

    @pytest.mark.parametrize(("message", "expected"), cases)
    def test(message: str, expected: str) -> None:
        assert classify_in(message, room, done) == expected

    return test

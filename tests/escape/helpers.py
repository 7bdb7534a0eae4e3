"""Shared helpers for the escape tests: configs, scripted play, tiny inline scenarios."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from functools import cache

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.rng import Rng
from parlour.core.view import View
from parlour.games.escape import EscapeConfig, EscapeGame, make_config, parse_scenario
from parlour.games.escape.scenario import Scenario

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

"""The shared conformance suite over many seeds, player counts and rule variants.

The router's NEEDS TURN rule travels on the decision (``required_any``), so random legal
play exercises both router rules; the configs alternate between them.
"""

from __future__ import annotations

import pytest

from parlour.core import conformance
from parlour.games.werewolf import MODULE, WerewolfConfig
from tests.support.conformance import conforms


def varied(seed: int) -> WerewolfConfig:
    talk = seed % 4  # 0 = no discussion at all
    return WerewolfConfig(
        players=5 + seed % 12,
        maniac=seed % 3 == 0,
        first_phase="day" if seed % 5 == 1 else "night",
        vote_mode="sequential" if seed % 2 else "simultaneous",
        tie_rule="random" if (seed // 2) % 2 else "no_elimination",
        reveal_roles=seed % 5 != 2,
        reveal_night_cause=seed % 7 == 3,
        doctor_self_protect=seed % 6 != 4,
        diaries=seed % 3 != 1,
        debrief=seed % 8 == 5,
        messages_per_player=talk,
        wolf_chat_messages=seed % 3,
        route_batch_max=1 + seed % 5,
        allow_vote_call=seed % 9 != 0,
        plans=seed % 4 != 3,
        router_rule="repair" if seed % 2 else "reject",
    )


def marked(seed: int) -> WerewolfConfig:
    return varied(seed).model_copy(
        update={
            "players": 5 + seed % 6,
            "messages_per_player": seed % 3,
            "diaries": True,
            "wolf_chat_messages": 1 + seed % 2,
            "plant_markers": True,
        }
    )


@pytest.mark.slow  # conformance sweep: 240 games, 50 replays, 30 leak scans
def test_conformance() -> None:
    conforms(MODULE, varied, marked=marked, games=240, replays=50, leaks=30)


@pytest.mark.slow  # every answer of every decision over 10 games
def test_every_decision_is_answerable() -> None:
    small = lambda seed: varied(seed).model_copy(update={"players": 5 + seed % 5})  # noqa: E731
    report = conformance.check(
        MODULE, configs=small, seeds=(), replay_seeds=(), leak_seeds=(), decision_seeds=range(10)
    )
    assert report.answers_tried > 0


def test_default_config_passes_the_suite() -> None:
    def default(seed: int) -> WerewolfConfig:
        cfg = MODULE.make_config(5 + seed % 12, {})
        assert isinstance(cfg, WerewolfConfig)
        return cfg

    conforms(MODULE, default, games=30, replays=5)

"""Role and rule wording follows the configured game: no maniac is named when none is in
play, and a role held by many is "a villager", not "the villager"."""

from __future__ import annotations

import re

import pytest

from parlour.core.rng import Rng, hash_seed
from parlour.games.werewolf import MODULE, Role, WerewolfConfig, WerewolfGame, policy
from parlour.games.werewolf.roles import Team, goal, with_article

from .helpers import QUIET, new_game, vote_all


def _all_text(config: WerewolfConfig, seed: int) -> tuple[WerewolfGame, str]:
    """Play to the end with the scripted policy; return every event line and prompt."""
    game = WerewolfGame.new(config, seed)
    seen: list[str] = []
    while not game.is_terminal():
        for d in game.pending():
            view = game.view(d.seat)
            parts = MODULE.prompter.parts(view, d)
            seen += [parts.system, parts.memory, parts.command, parts.reminders]
            game.apply(d.id, policy(view, d, Rng(hash_seed(seed, d.id))))
    seen += [e.text for e in game.events]
    result = game.result()
    assert result is not None
    seen.append(result.summary)
    return game, "\n".join(seen)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
@pytest.mark.parametrize("players", [6, 9])
def test_no_maniac_is_named_when_none_is_in_play(seed: int, players: int) -> None:
    game, text = _all_text(WerewolfConfig(players=players, messages_per_player=1), seed)
    assert "maniac" not in text.lower(), game.result()
    assert "every werewolf is dead" in text or "parity" in text or "Draw" in text


@pytest.mark.parametrize("seed", [1, 2])
def test_the_maniac_is_named_when_in_play(seed: int) -> None:
    _, text = _all_text(WerewolfConfig(players=7, maniac=True, messages_per_player=1), seed)
    assert "werewolves and the maniac read as evil" in text
    assert "(all werewolves and the maniac)" in text
    assert "the maniac is dead" in text


def test_goals_follow_the_mix() -> None:
    assert goal(Team.VILLAGE, maniac=False) == "eliminate every evil player (all werewolves)"
    assert "maniac" in goal(Team.VILLAGE, maniac=True)
    assert "maniac" not in goal(Team.WOLVES, maniac=False)
    assert goal(Team.WOLVES, maniac=True).endswith("with the maniac dead")


def test_articles_follow_how_many_a_game_may_hold() -> None:
    assert with_article(Role.VILLAGER) == "a villager"
    assert with_article(Role.WEREWOLF) == "a werewolf"
    assert with_article(Role.SEER) == "the seer"
    assert with_article(Role.MANIAC) == "the maniac"


def test_an_eliminated_villager_was_a_villager() -> None:
    for seed in range(1, 40):
        game = new_game(seed, players=7, first_phase="day", **QUIET)
        villagers = [p.id for p in game.state.players if p.role is Role.VILLAGER]
        vote_all(game, villagers[0])
        line = [e.text for e in game.events if e.kind == "elimination"][-1]
        if villagers[0] in {p.id for p in game.state.players if not p.alive}:
            name = game.state.name(villagers[0])
            assert re.search(rf"{name} is eliminated; they were a villager\.", line), line
            return
    raise AssertionError("no seed eliminated a villager")

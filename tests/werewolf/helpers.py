"""Helpers for werewolf rule tests: build games with a known mix and drive them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from parlour.core import Choice, Decision, Text
from parlour.core.events import Event
from parlour.core.rng import Rng, hash_seed
from parlour.games.werewolf import Role, WerewolfConfig, WerewolfGame, policy

QUIET: dict[str, Any] = {
    "wolf_chat_messages": 0,
    "messages_per_player": 0,
    "diaries": False,
}


def day_one(seed: int = 2, **overrides: Any) -> WerewolfGame:
    """Seven players (two wolves, a seer, a doctor, three villagers) starting on day 1,
    two messages each, no diaries: a day to drive by hand."""
    rules: dict[str, Any] = {
        "players": 7,
        "roles": mix(werewolf=2, seer=1, doctor=1, villager=3),
        "first_phase": "day",
        "diaries": False,
        "messages_per_player": 2,
    }
    return new_game(seed, **{**rules, **overrides})


def new_game(seed: int = 1, **overrides: Any) -> WerewolfGame:
    """A game with these rules; without day plans unless asked (``plans=True``): rule
    tests drive the talk by hand, and plans have their own tests (test_werewolf_plans).
    The doctor may protect itself unless asked otherwise: the rule tests script nights in
    which it does (the default rule set forbids it, see test_the_default_doctor_...)."""
    overrides.setdefault("plans", False)
    overrides.setdefault("doctor_self_protect", True)
    return WerewolfGame.new(WerewolfConfig(**overrides), seed)


def mix(**counts: int) -> dict[Role, int]:
    return {Role(name): n for name, n in counts.items()}


def seats(game: WerewolfGame, role: Role) -> list[str]:
    return [p.id for p in game.state.players if p.role is role]


def seat(game: WerewolfGame, role: Role) -> str:
    found = seats(game, role)
    assert len(found) == 1, f"expected one {role}, found {found}"
    return found[0]


def name(game: WerewolfGame, seat_id: str) -> str:
    return game.state.name(seat_id)


def alive(game: WerewolfGame, seat_id: str) -> bool:
    return game.state.player(seat_id).alive


def pending(game: WerewolfGame, purpose: str) -> list[Decision]:
    return [d for d in game.pending() if d.purpose == purpose]


def decision(game: WerewolfGame, decision_id: str) -> Decision:
    for d in game.pending():
        if d.id == decision_id:
            return d
    raise AssertionError(f"{decision_id} is not pending; pending: {[d.id for d in game.pending()]}")


def events_of(game: WerewolfGame, kind: str) -> list[Event]:
    return [e for e in game.events if e.kind == kind]


def night(
    game: WerewolfGame,
    *,
    kill: str | dict[str, str] | None = None,
    protect: str | None = None,
    investigate: str | None = None,
    maniac: str | None = None,
) -> None:
    """Answer tonight's actions; anything not given takes the first legal option."""
    n = game.state.night
    for d in list(game.pending()):
        target: str | None = None
        if d.purpose == "wolf_kill":
            target = kill.get(d.seat) if isinstance(kill, dict) else kill
        elif d.purpose == "protect":
            target = protect
        elif d.purpose == "investigate":
            target = investigate
        elif d.purpose == "maniac_kill":
            target = maniac
        elif d.purpose == "wolf_chat":
            game.apply(d.id, Text(text=""))
            continue
        assert d.id.startswith(f"n{n}:"), d.id
        game.apply(d.id, Choice(option=target or d.option_ids[0]))


def vote_all(game: WerewolfGame, target: str | Callable[[str], str]) -> None:
    """Everyone votes for ``target`` (a voter cannot vote for themself: they pick the first
    other option). Works in both vote modes."""
    while True:
        votes = pending(game, "vote")
        if not votes:
            return
        for d in votes:
            want = target(d.seat) if callable(target) else target
            pick = want if want in d.option_ids else d.option_ids[0]
            game.apply(d.id, Choice(option=pick))


def scripted(game: WerewolfGame, seed: int, *, max_steps: int = 20_000) -> WerewolfGame:
    """Play to the end with the scripted policy for every seat (router included)."""
    for _ in range(max_steps):
        if game.is_terminal():
            return game
        for d in game.pending():
            game.apply(d.id, policy(game.view(d.seat), d, Rng(hash_seed(seed, d.id))))
    raise AssertionError(f"seed {seed}: scripted game did not end in {max_steps} steps")


def acts_day(seed: int = 4, players: int = 6) -> WerewolfGame:
    """A day-first acts game where every living player is asked each turn (ask_all), so a
    test decides who speaks: the others pass."""
    return new_game(
        seed,
        players=players,
        speech="acts",
        first_phase="day",
        discussion="ask_all",
        messages_per_player=4,
        diaries=False,
    )


def say(game: WerewolfGame, speaker: str, option: str) -> None:
    """``speaker`` picks the speech act ``option``; everyone else asked passes."""
    asked = [d for d in game.pending() if d.purpose == "speak"]
    assert speaker in {d.seat for d in asked}, (speaker, [d.seat for d in asked])
    for d in asked:
        game.apply(d.id, Choice(option=option if d.seat == speaker else "quiet"))

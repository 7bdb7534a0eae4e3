"""Seats whose plans the engine keeps (a small model's) read their night options best
first from their own view, their wolves never turn on a packmate in words, and a wolf's
planned fake seer claim can be said in acts."""

from __future__ import annotations

from functools import cache
from typing import Any

from parlour.core.decisions import Decision
from parlour.core.events import Event
from parlour.core.rng import Rng
from parlour.games.werewolf import MODULE, WerewolfConfig, WerewolfGame
from parlour.games.werewolf.speech_acts import ACCUSE, AGREE, REVEAL

SEATS = tuple(f"p{i}" for i in range(1, 8))
#: the games every test reads (each played once, see ``_drive``)
SEEDS = range(24)
SMALL: dict[str, Any] = {
    "players": 7,
    "plans": True,
    "act_seats": SEATS,
    "engine_plans": SEATS,
    "speech_phrase_words": 0,
    "acts_follow_plan": True,
}


def _claimers(events: list[Event], wolves: set[str], dead: set[str]) -> list[str]:
    """Living non-wolves who said they are the seer, in the order they first did."""
    out: list[str] = []
    for e in events:
        act, role = e.data.get("act"), e.data.get("role")
        said = e.kind == "speech" and (act == REVEAL or (act == "claim" and role == "seer"))
        if said and e.speaker and e.speaker not in wolves and e.speaker not in out:
            out.append(e.speaker)
    return [s for s in out if s not in dead]


@cache
def _drive(seed: int, ranked: bool = True) -> list[tuple[Decision, list[Event], set[str]]]:
    """A scripted game (each played once); every decision with the events and the dead
    at the time it opened; ``ranked`` False: as a game stored before
    ``acts_follow_plan`` (options in seat order), played through night 1 only."""
    rules = {} if ranked else {"acts_follow_plan": False}
    game = WerewolfGame.new(WerewolfConfig(**{**SMALL, **rules}), seed)
    rng = Rng(seed)
    seen: list[tuple[Decision, int, set[str]]] = []
    opened: set[str] = set()
    # unranked games are only read on night 1
    while not game.is_terminal() and (ranked or game.state.day == 0):
        for d in game.pending():
            if d.id not in opened:
                opened.add(d.id)
                dead = {p.id for p in game.state.players if not p.alive}
                seen.append((d, len(game.events), dead))
        d = game.pending()[0]
        game.apply(d.id, MODULE.policy(game.view(d.seat), d, rng))
    events = list(game.events)
    return [(d, events[:n], dead) for d, n, dead in seen]


def _wolves(seed: int) -> set[str]:
    game = WerewolfGame.new(WerewolfConfig(**SMALL), seed)
    return {p.id for p in game.state.players if p.is_wolf}


def test_a_claimed_seer_heads_the_packs_list_and_the_doctors() -> None:
    headed = 0
    for seed in SEEDS:
        wolves = _wolves(seed)
        for d, events, dead in _drive(seed):
            claimers = _claimers(events, wolves, dead)
            ids = [o.id.removeprefix("propose:") for o in d.options]
            if d.purpose in ("wolf_kill", "wolf_chat", "protect") and claimers:
                offered = [c for c in claimers if c in ids]
                if offered and len(ids) > 1:
                    assert ids[0] == offered[0], (seed, d.id, ids, claimers)
                    headed += 1
    assert headed >= 20  # the rule was exercised, not skipped


def test_the_seer_is_offered_unchecked_players_first() -> None:
    for seed in SEEDS:
        game_decisions = _drive(seed)
        checked: set[str] = set()
        for d, events, _ in game_decisions:
            checked = {str(e.data["target"]) for e in events if e.kind == "seer_result"}
            if d.purpose == "investigate":
                fresh = [o.id for o in d.options if o.id not in checked]
                assert [o.id for o in d.options][: len(fresh)] == fresh


def test_the_doctor_and_the_pack_do_not_read_the_same_first_name() -> None:
    """In seat order both lists began with the first-seated player, and a small model
    that picks the first option guarded exactly the pack's first pick."""
    same = {True: 0, False: 0}
    for ranked in (True, False):
        for seed in SEEDS:
            firsts: dict[str, str] = {}
            for d, _, _ in _drive(seed, ranked):
                if d.id.startswith("n1:") and d.purpose in ("protect", "wolf_chat"):
                    firsts.setdefault(d.purpose, d.options[0].id.removeprefix("propose:"))
            if len(firsts) == 2:
                same[ranked] += firsts["protect"] == firsts["wolf_chat"]
    assert same[False] >= 12
    assert same[True] <= 6


def test_an_engine_planned_wolf_never_speaks_against_a_packmate() -> None:
    offered = 0
    for seed in SEEDS:
        wolves = _wolves(seed)
        for d, _, _ in _drive(seed):
            if d.purpose != "speak" or d.seat not in wolves:
                continue
            mates = wolves - {d.seat}
            for o in d.options:
                act, target = o.id.split(":")[:2] if ":" in o.id else (o.id, "")
                assert not (target in mates and act == ACCUSE), (seed, d.id, o.id)
                assert not (act == AGREE and target in mates and "accuse" in o.label), o.label
            offered += 1
    assert offered > 50


def test_a_wolf_says_its_planned_fake_claim_in_acts() -> None:
    lies = 0
    for seed in SEEDS:
        wolves = _wolves(seed)
        last: list[Event] = []
        for _, events, _ in _drive(seed):
            last = events
        plans = {
            (e.speaker, int(e.data["day"])): e.data
            for e in last
            if e.kind == "plan" and e.speaker in wolves
        }
        for e in last:
            if e.kind == "speech" and e.speaker in wolves and e.data.get("act") == REVEAL:
                day = int(e.phase.split()[-1])
                plan = plans[(e.speaker, day)]
                assert plan["claim"] == "seer"
                assert (plan["claim_target"], plan["claim_reading"]) == (
                    e.data["target"],
                    e.data["reading"],
                )
                lies += 1
    assert lies >= 3


def test_an_engine_planned_seat_accuses_only_the_player_its_plan_votes_for() -> None:
    checked = 0
    for seed in SEEDS:
        for d, events, _ in _drive(seed):
            if d.purpose != "speak":
                continue
            day = int(d.id.split(":")[0].removeprefix("d"))
            plans = [
                e
                for e in events
                if e.kind == "plan" and e.speaker == d.seat and e.data["day"] == day
            ]
            if not plans:
                continue
            vote = plans[-1].data["vote"]
            for o in d.options:
                act, _, rest = o.id.partition(":")
                target = rest.split(":")[0]
                if act == ACCUSE or (act == AGREE and "(accuse" in o.label):
                    assert target == vote, (seed, d.id, o.id, vote)
                    checked += 1
    assert checked > 100

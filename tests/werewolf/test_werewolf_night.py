"""Night rules: resolution order, the doctor, the seer, pack agreement, the private chat."""

from __future__ import annotations

import pytest

from parlour.core import Choice, IllegalAction, Text
from parlour.games.werewolf import Role, WerewolfConfig, WerewolfGame
from parlour.games.werewolf.night import pack_target

from .helpers import (
    QUIET,
    alive,
    decision,
    events_of,
    mix,
    name,
    new_game,
    night,
    seat,
    seats,
    vote_all,
)

EIGHT = mix(werewolf=2, seer=1, doctor=1, maniac=1, villager=3)


def _eight(seed: int = 3, **extra: object) -> WerewolfGame:
    return new_game(seed, players=8, roles=EIGHT, **{**QUIET, **extra})


def _who(game: WerewolfGame, key: str) -> str:
    """'v0', 'v1' (villagers), 'w0' (first wolf), or a role name."""
    if key[0] == "v":
        return seats(game, Role.VILLAGER)[int(key[1:])]
    if key[0] == "w":
        return seats(game, Role.WEREWOLF)[int(key[1:])]
    return seat(game, Role(key))


# fmt: off
RESOLUTION = [
    # case                                   wolves     protect    maniac    dead
    ("doctor saves the wolves' target",      "v0",      "v0",      "v1",     {"v1"}),
    ("doctor saves the maniac's target",     "v0",      "v1",      "v1",     {"v0"}),
    ("protection stops both attacks",        "v0",      "v0",      "v0",     set()),
    ("two attacks on one player, one death", "v0",      "v1",      "v0",     {"v0"}),
    ("wolves kill the maniac",               "maniac",  "v0",      "v1",     {"maniac", "v1"}),
    ("maniac kills a wolf",                  "v0",      "v1",      "w0",     {"v0", "w0"}),
    ("doctor protects itself",               "v0",      "doctor",  "doctor", {"v0"}),
    ("protected maniac survives the pack",   "maniac",  "maniac",  "v0",     {"v0"}),
    ("the doctor dies too",                  "doctor",  "v0",      "v1",     {"doctor", "v1"}),
]
# fmt: on


@pytest.mark.parametrize(
    ("case", "kill", "protect", "maniac", "dead"), RESOLUTION, ids=[r[0] for r in RESOLUTION]
)
def test_night_resolution(case: str, kill: str, protect: str, maniac: str, dead: set[str]) -> None:
    game = _eight()
    night(
        game,
        kill=_who(game, kill),
        protect=_who(game, protect),
        maniac=_who(game, maniac),
    )
    expected = {_who(game, k) for k in dead}
    died = {p.id for p in game.state.players if not p.alive}
    assert died == expected, case
    dawn = events_of(game, "death")[-1]
    assert dawn.audience.kind == "all"
    assert set(dawn.data["dead"]) == expected
    if not expected:
        assert "nobody died" in dawn.text
    for seat_id in expected:
        assert name(game, seat_id) in dawn.text
    # The cause stays hidden unless configured.
    assert "killed by" not in dawn.text


def test_dawn_names_the_killer_when_configured() -> None:
    game = _eight(reveal_night_cause=True)
    night(game, kill=_who(game, "v0"), protect=_who(game, "v2"), maniac=_who(game, "v1"))
    text = events_of(game, "death")[-1].text
    assert f"{name(game, _who(game, 'v0'))} was found dead (killed by the werewolves)" in text
    assert f"{name(game, _who(game, 'v1'))} was found dead (killed by the maniac)" in text


def test_dawn_hides_roles_when_reveal_is_off() -> None:
    game = _eight(reveal_roles=False)
    night(game, kill=_who(game, "seer"), protect=_who(game, "v0"), maniac=_who(game, "v0"))
    assert "seer" not in events_of(game, "death")[-1].text
    players = game.view(_who(game, "v0")).public.players
    assert all(p.role is None for p in players)


def _to_night_two(game: WerewolfGame, protect: str) -> None:
    v2 = _who(game, "v2")
    night(game, kill=_who(game, "v0"), protect=protect, maniac=_who(game, "v0"))
    vote_all(game, v2)
    assert not alive(game, v2)
    assert game.state.night == 2


def test_doctor_cannot_protect_the_same_player_two_nights_running() -> None:
    game = _eight()
    doctor, seer = seat(game, Role.DOCTOR), seat(game, Role.SEER)
    _to_night_two(game, protect=seer)
    d = decision(game, f"n2:protect:{doctor}")
    assert seer not in d.option_ids
    assert game.view(doctor).private.cannot_protect_tonight == name(game, seer)
    with pytest.raises(IllegalAction, match=f"you protected {name(game, seer)} last night"):
        game.apply(d.id, Choice(option=seer))
    with pytest.raises(IllegalAction, match="you protected"):
        game.apply(d.id, Choice(option=name(game, seer)))


def test_doctor_self_protection_can_be_switched_off() -> None:
    game = _eight(doctor_self_protect=False)
    doctor = seat(game, Role.DOCTOR)
    d = decision(game, f"n1:protect:{doctor}")
    assert doctor not in d.option_ids
    with pytest.raises(IllegalAction, match="you cannot protect yourself"):
        game.apply(d.id, Choice(option=doctor))
    on = _eight()
    assert doctor in decision(on, f"n1:protect:{doctor}").option_ids


def test_the_default_doctor_may_not_protect_itself() -> None:
    """The default rule set: no self-protection (it kept the scripted village's self-play
    win rate inside 45-60%, docs/werewolf.md)."""
    assert WerewolfConfig().doctor_self_protect is False
    game = WerewolfGame.new(WerewolfConfig(players=8, roles=EIGHT, **QUIET), 3)
    doctor = seat(game, Role.DOCTOR)
    assert doctor not in decision(game, f"n1:protect:{doctor}").option_ids


@pytest.mark.parametrize(
    ("target", "reading", "table"),
    [("w0", "evil", "evil"), ("maniac", "evil", "evil"), ("v0", "innocent", "cleared")],
)
def test_seer_reads_wolves_and_the_maniac_as_evil(target: str, reading: str, table: str) -> None:
    game = _eight()
    seer = seat(game, Role.SEER)
    who = _who(game, target)
    night(
        game,
        investigate=who,
        kill=_who(game, "v1"),
        protect=_who(game, "v1"),
        maniac=_who(game, "v1"),
    )
    result = events_of(game, "seer_result")[-1]
    assert result.audience.kind == "seats" and result.audience.seats == (seer,)
    assert result.data["reading"] == reading
    assert reading.upper() in result.text and name(game, who) in result.text
    assert game.view(seer).private.investigations == {name(game, who): table}
    for other in game.state.players:
        if other.id != seer:
            assert result.seq not in {e.seq for e in game.view(other.id).events}
            assert "investigations" not in game.view(other.id).private


def test_seer_is_not_offered_players_already_investigated() -> None:
    game = _eight()
    seer, v0 = seat(game, Role.SEER), _who(game, "v0")
    _investigated_then_night_two(game, v0)
    d = decision(game, f"n2:investigate:{seer}")
    assert v0 not in d.option_ids and seer not in d.option_ids
    with pytest.raises(IllegalAction, match="you already know"):
        game.apply(d.id, Choice(option=name(game, v0)))


def _investigated_then_night_two(game: WerewolfGame, target: str) -> None:
    v2 = _who(game, "v2")
    night(game, investigate=target, kill=v2, protect=target, maniac=target)
    vote_all(game, _who(game, "v1"))
    assert game.state.night == 2


# fmt: off
PACK = [
    # proposals by wolves in seat order      → target
    (["A", "A", "B"],                        "A"),   # plurality
    (["B", "A", "A"],                        "A"),   # plurality beats the first wolf
    (["A", "B", "C"],                        "A"),   # all tied: lowest-seated wolf
    (["C", "B", "A"],                        "C"),
    (["A", "B", "B", "A"],                   "A"),   # 2-2 tie: lowest-seated wolf's pick
    (["B", "A", "A", "B"],                   "B"),
    (["A"],                                  "A"),
]
# fmt: on


@pytest.mark.parametrize(("proposals", "expected"), PACK)
def test_pack_disagreement_rule(proposals: list[str], expected: str) -> None:
    game = new_game(5, players=16, roles=mix(werewolf=4, seer=1, doctor=1, villager=10), **QUIET)
    wolves = seats(game, Role.WEREWOLF)
    villagers = seats(game, Role.VILLAGER)
    targets = {"A": villagers[0], "B": villagers[1], "C": villagers[2]}
    chosen = {w: targets[p] for w, p in zip(wolves, proposals, strict=False)}
    assert pack_target(game.state, chosen) == targets[expected]


def test_pack_disagreement_in_play_and_the_pack_sees_the_proposals() -> None:
    game = new_game(7, players=10, roles=mix(werewolf=3, seer=1, doctor=1, villager=5), **QUIET)
    w = seats(game, Role.WEREWOLF)
    v = seats(game, Role.VILLAGER)
    night(game, kill={w[0]: v[0], w[1]: v[1], w[2]: v[1]}, protect=v[4])
    assert not alive(game, v[1]) and alive(game, v[0])
    report = events_of(game, "pack_kill")[-1]
    assert report.audience.kind == "group" and report.audience.group == "wolves"
    assert f"The pack attacks {name(game, v[1])}" in report.text
    villager_view = game.view(v[4])
    assert report.seq not in {e.seq for e in villager_view.events}
    assert report.seq in {e.seq for e in game.view(w[2]).events}


def test_wolves_cannot_target_a_packmate() -> None:
    game = _eight()
    w0, w1 = seats(game, Role.WEREWOLF)
    d = decision(game, f"n1:kill:{w0}")
    assert w1 not in d.option_ids and w0 not in d.option_ids
    with pytest.raises(IllegalAction, match="is in your pack"):
        game.apply(d.id, Choice(option=w1))


def test_wolf_chat_is_private_to_the_pack_and_ordered() -> None:
    game = new_game(3, players=8, roles=EIGHT, wolf_chat_messages=2, diaries=False)
    w0, w1 = seats(game, Role.WEREWOLF)
    order = []
    for k in (1, 2):
        for w in (w0, w1):
            (d,) = game.pending()
            assert d.id == f"n1:chat:{w}:{k}" and d.purpose == "wolf_chat" and d.allow_empty
            order.append(d.id)
            game.apply(d.id, Text(text=f"psst {k}" if w == w0 else ""))
    chat = events_of(game, "wolf_chat")
    assert [e.text for e in chat] == ["psst 1", "psst 2"]  # empty messages leave no event
    assert all(e.audience.group == "wolves" and e.speaker == w0 for e in chat)
    assert all(e.seq in {x.seq for x in game.view(w1).events} for e in chat)
    for other in game.state.players:
        if other.role is not Role.WEREWOLF:
            seen = game.view(other.id).model_dump_json()
            assert "psst" not in seen
    # after the chat: the simultaneous night actions
    assert {d.purpose for d in game.pending()} == {
        "wolf_kill",
        "investigate",
        "protect",
        "maniac_kill",
    }


def test_a_lone_wolf_has_no_chat() -> None:
    game = new_game(2, players=6, wolf_chat_messages=2)
    assert {d.purpose for d in game.pending()} <= {"wolf_kill", "investigate", "protect"}

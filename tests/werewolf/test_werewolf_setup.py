"""Setup and bookkeeping: config validation, the role mix, dealing, seats, views, victory."""

from __future__ import annotations

import copy
import json
import re

import pytest
from pydantic import ValidationError

from parlour.core import Choice, IllegalAction, NoFacts, ParlourError
from parlour.core.rng import Rng, hash_seed
from parlour.games.registry import load
from parlour.games.werewolf import MODULE, Role, Team, WerewolfConfig, make_config, policy
from parlour.games.werewolf.roles import default_mix
from parlour.games.werewolf.victory import winner
from parlour.games.werewolf.views import WerewolfPrivate, WerewolfReveal

from .helpers import QUIET, mix, new_game, night, seat, seats, vote_all

# fmt: off
MIX_TABLE = [
    # players  wolves  villagers (seer 1, doctor 1 always)
    (5,        1,      2),
    (6,        1,      3),
    (7,        2,      3),
    (8,        2,      4),
    (9,        2,      5),
    (10,       3,      5),
    (11,       3,      6),
    (12,       3,      7),
    (13,       3,      8),
    (14,       4,      8),
    (15,       4,      9),
    (16,       4,      10),
]
# fmt: on


@pytest.mark.parametrize(("players", "wolves", "villagers"), MIX_TABLE)
def test_default_role_mix(players: int, wolves: int, villagers: int) -> None:
    assert default_mix(players, maniac=False) == {
        Role.WEREWOLF: wolves,
        Role.SEER: 1,
        Role.DOCTOR: 1,
        Role.MANIAC: 0,
        Role.VILLAGER: villagers,
    }
    with_maniac = default_mix(players, maniac=True)
    assert with_maniac[Role.MANIAC] == 1 and with_maniac[Role.VILLAGER] == villagers - 1
    game = new_game(players, players=players)
    dealt = [p.role for p in game.state.players]
    assert dealt.count(Role.WEREWOLF) == wolves and dealt.count(Role.VILLAGER) == villagers


@pytest.mark.parametrize("players", [0, 4, 17, 40])
def test_player_count_out_of_range(players: int) -> None:
    with pytest.raises(ValidationError, match=f"werewolf needs 5 to 16 players, got {players}"):
        WerewolfConfig(players=players)
    with pytest.raises(ParlourError) as err:
        make_config(players, {})
    assert str(err.value) == f"werewolf config: werewolf needs 5 to 16 players, got {players}"


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"players": 6, "roles": {"werewolf": 1, "villager": 4}}, "add up to 5 but there are 6"),
        ({"players": 6, "roles": {"villager": 6}}, "at least one werewolf"),
        ({"players": 6, "roles": {"werewolf": 3, "villager": 3}}, "already have parity"),
        ({"players": 6, "roles": {"werewolf": 1, "seer": 2, "villager": 3}}, "at most one seer"),
        ({"players": 5, "names": ["A", "B", "C", "D"]}, "4 names given for 5 players"),
        ({"players": 5, "names": ["Al", "Bo", "al", "Di", "Ed"]}, "names must be unique"),
        ({"players": 5, "names": ["Al", "Bo", "C3PO", "Di", "Ed"]}, "invalid name 'C3PO'"),
        ({"players": 5, "vote_mod": "sequential"}, "vote_mod"),
        ({"players": 5, "tie_rule": "coin"}, "tie_rule"),
    ],
)
def test_bad_configs_name_the_problem(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(ParlourError) as err:
        make_config(None, overrides)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_make_config_infers_the_player_count() -> None:
    assert make_config(None, {}).players == 7
    assert make_config(None, {"roles": {"werewolf": 2, "seer": 1, "villager": 6}}).players == 9
    assert make_config(None, {"names": ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"]}).players == 6
    assert make_config(8, {"maniac": True}).role_mix()[Role.MANIAC] == 1


def test_the_module_is_registered() -> None:
    assert load("werewolf") is MODULE
    assert MODULE.game.info.min_seats == 5 and MODULE.game.info.max_seats == 16


def test_seats_names_and_roles_dealt_by_seed() -> None:
    game = new_game(11, players=9, names=tuple(f"N{c}" for c in "abcdefghi"))
    info = game.seats()
    assert [s.id for s in info] == [f"p{i}" for i in range(1, 10)] + ["router"]
    assert [s.name for s in info][:3] == ["Na", "Nb", "Nc"] and info[-1].system
    same = new_game(11, players=9)
    assert [p.role for p in same.state.players] == [p.role for p in game.state.players]
    deals = {tuple(p.role for p in new_game(s, players=9).state.players) for s in range(20)}
    assert len(deals) > 10


def test_private_facts_by_role() -> None:
    game = new_game(5, players=10, maniac=True)
    w = seats(game, Role.WEREWOLF)
    wolf = game.view(w[0])
    assert wolf.private.role == "werewolf" and wolf.private.team == "wolves"
    assert [m.id for m in wolf.private.pack or []] == w[1:]
    assert "You are" in wolf.private.role_card and "werewolf" in wolf.private.role_card
    seer = game.view(seat(game, Role.SEER)).private
    assert seer.investigations == {} and len(seer.not_investigated or []) == 9
    doctor = game.view(seat(game, Role.DOCTOR)).private
    assert doctor.cannot_protect_tonight is None and doctor.self_protect_allowed
    villager = game.view(seats(game, Role.VILLAGER)[0])
    assert villager.private.pack is None and villager.private.team == "village"
    assert villager.private.investigations is None and villager.private.self_protect_allowed is None
    assert game.view("router").private == WerewolfPrivate()
    # the role event is private to its holder; the pack roster to the pack
    for p in game.state.players:
        role_events = [e for e in game.view(p.id).events if e.kind == "role"]
        assert len(role_events) == 1 and role_events[0].audience.seats == (p.id,)
        packs = [e for e in game.view(p.id).events if e.kind == "pack"]
        assert len(packs) == (1 if p.role is Role.WEREWOLF else 0)
    public = game.view("p1").public
    assert public.role_counts == {
        "werewolf": 3,
        "seer": 1,
        "doctor": 1,
        "maniac": 1,
        "villager": 4,
    }
    assert public.alive == [p.name for p in game.state.players] and public.dead == []


def test_first_phase_day() -> None:
    game = new_game(1, players=6, first_phase="day")
    assert game.state.day == 1 and game.state.night == 0
    assert game.pending()[0].id == "d1:route:1"
    assert game.view("p1").phase == "day 1"


def test_unknown_decisions_seats_and_copies() -> None:
    game = new_game(1, players=6)
    with pytest.raises(IllegalAction, match="no open decision 'd9:vote:p1'"):
        game.apply("d9:vote:p1", Choice(option="p2"))
    with pytest.raises(ParlourError, match="unknown seat 'p7'"):
        game.view("p7")
    clone = copy.deepcopy(game)
    d = game.pending()[0]
    clone.apply(d.id, Choice(option=d.option_ids[0]))
    assert d.id in {x.id for x in game.pending()} and d.id not in {x.id for x in clone.pending()}
    json.dumps(game.snapshot(), sort_keys=True)


def test_spectator_views() -> None:
    game = new_game(3, players=8, wolf_chat_messages=1)
    public = game.spectator_view(reveal=False)
    assert all(e.audience.kind == "all" for e in public.events) and public.private == NoFacts()
    full = game.spectator_view(reveal=True)
    assert len(full.events) > len(public.events)
    assert isinstance(full.private, WerewolfReveal)
    assert set(full.private.roles.values()) >= {"werewolf", "seer", "doctor"}


ID_FORMATS = re.compile(
    r"^(n\d+:(chat:p\d+:\d+|kill:p\d+|investigate:p\d+|protect:p\d+|maniac:p\d+)"
    r"|d\d+:(route:\d+|speak:p\d+:\d+|vote:p\d+|diary:p\d+)|end:debrief:p\d+)$"
)


def test_decision_ids_are_stable_and_unique() -> None:
    for s in range(6):
        game = new_game(s, players=5 + 2 * s, maniac=True, debrief=True)
        seen: list[str] = []
        while not game.is_terminal():
            for d in game.pending():
                seen.append(d.id)
                game.apply(d.id, policy(game.view(d.seat), d, Rng(hash_seed(s, d.id))))
        assert len(seen) == len(set(seen))
        bad = [i for i in seen if not ID_FORMATS.match(i)]
        assert not bad, bad


# -- victory -------------------------------------------------------------------------------

EIGHT = mix(werewolf=2, seer=1, doctor=1, maniac=1, villager=3)

# fmt: off
VICTORY = [
    # living roles                                      → outcome
    (["werewolf", "villager"],                          Team.WOLVES),
    (["werewolf"],                                      Team.WOLVES),
    (["werewolf", "werewolf", "villager", "seer"],      Team.WOLVES),
    (["werewolf", "villager", "villager"],              None),
    (["werewolf", "maniac"],                            None),  # the maniac blocks parity
    (["werewolf", "werewolf", "maniac"],                None),
    (["werewolf", "maniac", "villager"],                None),
    (["maniac"],                                        Team.MANIAC),
    (["maniac", "villager"],                            Team.MANIAC),
    (["maniac", "villager", "doctor"],                  None),
    (["villager", "seer"],                              Team.VILLAGE),
    (["doctor"],                                        Team.VILLAGE),
    ([],                                                "draw"),
]
# fmt: on


@pytest.mark.parametrize(("living", "expected"), VICTORY)
def test_win_conditions(living: list[str], expected: Team | str | None) -> None:
    game = new_game(1, players=8, roles=EIGHT, **QUIET)
    wanted = list(living)
    for p in game.state.players:
        p.alive = p.role.value in wanted
        if p.alive:
            wanted.remove(p.role.value)
    assert not wanted
    assert winner(game.state) == expected


FIVE = mix(werewolf=1, seer=1, doctor=1, villager=2)


def test_village_wins_by_voting_out_the_last_wolf() -> None:
    game = new_game(2, players=5, roles=FIVE, first_phase="day", **QUIET)
    vote_all(game, seat(game, Role.WEREWOLF))
    result = game.result()
    assert game.is_terminal() and result is not None
    village = [p.id for p in game.state.players if p.role is not Role.WEREWOLF]
    assert result.winners == tuple(village) and result.summary.startswith("The village wins")
    assert result.returns == {
        p.id: (0.0 if p.role is Role.WEREWOLF else 1.0) for p in game.state.players
    }


def test_wolves_win_at_parity() -> None:
    game = new_game(2, players=5, roles=FIVE, **QUIET)
    wolf, seer, doctor = (seat(game, r) for r in (Role.WEREWOLF, Role.SEER, Role.DOCTOR))
    v0, v1 = seats(game, Role.VILLAGER)
    night(game, kill=v0, protect=doctor)
    vote_all(game, lambda voter: v1 if voter != v1 else wolf)
    assert not game.is_terminal()
    night(game, kill=seer, protect=wolf)
    result = game.result()
    assert result is not None and result.winners == (wolf,)
    assert result.summary.startswith("The werewolves win")
    assert game.events[-1].kind == "result" and "Roles:" in game.events[-1].text


def test_maniac_wins_alone_with_one_other() -> None:
    roles = mix(werewolf=1, maniac=1, seer=1, doctor=1, villager=1)
    game = new_game(4, players=5, roles=roles, **QUIET)
    wolf, maniac, seer, doctor, villager = (
        seat(game, r) for r in (Role.WEREWOLF, Role.MANIAC, Role.SEER, Role.DOCTOR, Role.VILLAGER)
    )
    night(game, kill=villager, maniac=seer, protect=doctor)
    assert not game.is_terminal()
    vote_all(game, lambda voter: wolf if voter != wolf else doctor)
    result = game.result()
    assert result is not None and result.winners == (maniac,)
    assert result.returns[maniac] == 1.0 and result.returns[doctor] == 0.0


def test_draw_after_max_days() -> None:
    game = new_game(1, players=6, first_phase="day", max_days=1, tie_rule="no_elimination", **QUIET)
    tie = {"p1": "p4", "p2": "p4", "p3": "p4", "p4": "p1", "p5": "p1", "p6": "p1"}
    vote_all(game, lambda voter: tie[voter])
    result = game.result()
    assert result is not None and result.winners == () and "within 1 day." in result.summary

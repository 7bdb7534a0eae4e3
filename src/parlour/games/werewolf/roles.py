"""Roles, teams, what the seer reads, and the default role mix by player count."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Literal

from parlour.core.rng import Rng

MIN_PLAYERS = 5
MAX_PLAYERS = 16


class Role(StrEnum):
    VILLAGER = "villager"
    WEREWOLF = "werewolf"
    SEER = "seer"
    DOCTOR = "doctor"
    MANIAC = "maniac"


class Team(StrEnum):
    VILLAGE = "village"
    WOLVES = "wolves"
    MANIAC = "maniac"


#: Deal order: the deck is built in this order, then shuffled with the state's Rng.
ROLE_ORDER: tuple[Role, ...] = (
    Role.WEREWOLF,
    Role.SEER,
    Role.DOCTOR,
    Role.MANIAC,
    Role.VILLAGER,
)

#: Roles of which a game holds at most one (their private facts are per-game, not per-seat).
UNIQUE_ROLES = frozenset({Role.SEER, Role.DOCTOR, Role.MANIAC})

TEAM_OF: Mapping[Role, Team] = {
    Role.VILLAGER: Team.VILLAGE,
    Role.SEER: Team.VILLAGE,
    Role.DOCTOR: Team.VILLAGE,
    Role.WEREWOLF: Team.WOLVES,
    Role.MANIAC: Team.MANIAC,
}

EVIL = frozenset({Role.WEREWOLF, Role.MANIAC})

#: The private channel of the pack: events with ``Audience.of_group(WOLF_GROUP)``.
WOLF_GROUP = "wolves"

Reading = Literal["evil", "innocent"]

DESCRIPTIONS: Mapping[Role, str] = {
    Role.VILLAGER: "an ordinary villager with no night power",
    Role.WEREWOLF: "a werewolf: each night the pack chats in private and kills one villager",
    Role.SEER: "the seer: each night you learn whether one player is evil or innocent",
    Role.DOCTOR: (
        "the doctor: each night you protect one player from being killed "
        "(never the same player two nights in a row)"
    ),
    Role.MANIAC: "the maniac: a lone evil killer who kills one player each night",
}


def goal(team: Team, maniac: bool) -> str:
    """A team's goal, naming the maniac only when one is in play (a player told to kill
    a maniac who does not exist hunts a ghost)."""
    if team is Team.VILLAGE:
        evil = "all werewolves and the maniac" if maniac else "all werewolves"
        return f"eliminate every evil player ({evil})"
    if team is Team.WOLVES:
        rest = ", with the maniac dead" if maniac else ""
        return f"reach parity: as many living werewolves as living non-werewolves{rest}"
    return "survive until you are alone or with exactly one other non-werewolf"


def with_article(role: Role) -> str:
    """ "the seer" for a role a game holds once, "a villager" for one it may hold many times."""
    return f"the {role.value}" if role in UNIQUE_ROLES else f"a {role.value}"


def seer_reading(role: Role) -> Reading:
    """Werewolves and the maniac both read as evil."""
    return "evil" if role in EVIL else "innocent"


def wolves_for(players: int) -> int:
    """Pack size of the default mix: about a quarter of the table."""
    if players <= 6:
        return 1
    if players <= 9:
        return 2
    if players <= 13:
        return 3
    return 4


def default_mix(players: int, maniac: bool) -> dict[Role, int]:
    """Default roles: the pack, one seer, one doctor, the maniac if enabled, villagers."""
    wolves = wolves_for(players)
    specials = 2 + (1 if maniac else 0)
    return {
        Role.WEREWOLF: wolves,
        Role.SEER: 1,
        Role.DOCTOR: 1,
        Role.MANIAC: 1 if maniac else 0,
        Role.VILLAGER: players - wolves - specials,
    }


def mix_problem(mix: Mapping[Role, int], players: int) -> str | None:
    """Why a role mix cannot be played with this many players, or None when it can."""
    if any(count < 0 for count in mix.values()):
        return "role counts cannot be negative"
    total = sum(mix.values())
    if total != players:
        return f"the role counts add up to {total} but there are {players} players"
    wolves = mix.get(Role.WEREWOLF, 0)
    if wolves < 1:
        return "the mix needs at least one werewolf"
    for role in UNIQUE_ROLES:
        if mix.get(role, 0) > 1:
            return f"at most one {role} per game"
    if wolves >= players - wolves:
        return (
            f"{wolves} werewolves would already have parity with {players - wolves} other players"
        )
    return None


def deal(mix: Mapping[Role, int], seat_ids: Sequence[str], rng: Rng) -> dict[str, Role]:
    """Shuffle a deck built in ``ROLE_ORDER`` with the state's Rng and deal it to the seats."""
    deck = [role for role in ROLE_ORDER for _ in range(mix.get(role, 0))]
    if len(deck) != len(seat_ids):
        raise ValueError(f"{len(deck)} roles for {len(seat_ids)} seats")
    return dict(zip(seat_ids, rng.shuffled(deck), strict=True))

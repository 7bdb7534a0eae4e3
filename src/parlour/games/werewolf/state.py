"""The mutable state of one werewolf game: plain dataclasses, deep-copyable, JSON-dumpable."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from parlour.core.decisions import Decision
from parlour.core.events import Event, EventLog
from parlour.core.game import Result
from parlour.core.game_base import PhasedLog
from parlour.core.lookup import by_id
from parlour.core.markers import SecretMarkers
from parlour.core.pending import PendingDecisions
from parlour.core.view import Facts
from parlour.games.werewolf.cast import Cast
from parlour.games.werewolf.record import SeatRecords
from parlour.games.werewolf.roles import EVIL, Reading, Role


class Stage(StrEnum):
    WOLF_CHAT = "wolf_chat"
    NIGHT_ACTIONS = "night_actions"
    PLAN = "plan"
    ROUTE = "route"
    SPEAK = "speak"
    VOTE = "vote"
    DIARY = "diary"
    DEBRIEF = "debrief"
    OVER = "over"


@dataclass
class Player:
    id: str
    name: str
    number: int
    role: Role
    alive: bool = True
    #: the role is public (reveal on death, or everything at the end)
    revealed: bool = False
    #: the private role fact shown to this seat (carries its leak marker when planted)
    card: str = ""

    @property
    def is_wolf(self) -> bool:
        return self.role is Role.WEREWOLF

    @property
    def is_evil(self) -> bool:
        return self.role in EVIL


@dataclass
class Discussion:
    """Today's talk: who spoke how often, who spoke last, the current speaking queue."""

    day: int
    budget: int
    turns: dict[str, int] = field(default_factory=dict)
    messages: dict[str, int] = field(default_factory=dict)
    passes: dict[str, int] = field(default_factory=dict)
    #: turn number (1-based) of each seat's latest turn, for NEEDS TURN tie-breaks
    last_turn: dict[str, int] = field(default_factory=dict)
    total_turns: int = 0
    route_calls: int = 0
    last_speaker: str = ""
    last_message_speaker: str = ""
    last_message: str = ""
    queue: list[str] = field(default_factory=list)
    #: options flagged NEEDS TURN in the open router decision
    needs_turn: list[str] = field(default_factory=list)
    vote_called_by: str = ""
    #: open-mic seats were offered the floor since the last routed batch
    mic_done: bool = False
    #: ask_all mode: the seats asked this turn, in posting priority, and their answers
    asked: list[str] = field(default_factory=list)
    answers: dict[str, str] = field(default_factory=dict)
    #: ask_all mode: the speech act behind an answer, when the seat spoke in acts
    acts: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: each seat's plan today (plans.py): seat → the player it means to vote for
    plans: dict[str, str] = field(default_factory=dict)
    #: each seat's whole plan today as ``Plan.key()`` (a new key is a new plan event)
    plan_keys: dict[str, str] = field(default_factory=dict)
    #: the plans offered by each seat's open plan decision (``Plan.data()``), by target
    offered: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    #: plan decisions opened today (numbers their ids)
    plan_rounds: int = 0
    #: written plans refused in the open plan decision of each seat (asked again with the
    #: reason, up to ``plans.WRITE_ATTEMPTS`` times)
    plan_refusals: dict[str, int] = field(default_factory=dict)
    #: what just happened that asks every seat to look at its plan again ("" when nothing)
    replan: str = ""

    @property
    def turns_left(self) -> int:
        return max(0, self.budget - self.total_turns)


@dataclass
class NightPlan:
    """Tonight's chat queue and the night actions collected so far."""

    night: int
    chat_queue: list[tuple[str, int]] = field(default_factory=list)
    proposals: dict[str, str] = field(default_factory=dict)
    investigate: dict[str, str] = field(default_factory=dict)
    protect: dict[str, str] = field(default_factory=dict)
    maniac: dict[str, str] = field(default_factory=dict)


@dataclass
class Ballot:
    voter: str
    target: str
    reason: str
    #: the engine cast it from the voter's plan without asking (``engine_plans``)
    unasked: bool = False


@dataclass
class VoteRound:
    day: int
    order: list[str]
    cast: list[Ballot] = field(default_factory=list)
    #: sequential mode: voters already given their look at the plan before the ballot
    replanned: set[str] = field(default_factory=set)
    #: simultaneous mode: the ballots were opened (after the plans looked at again)
    opened: bool = False


class DayRecord(Facts):
    """A finished day's vote. All of it is public: a view hands every seat a copy."""

    day: int
    votes: list[str]
    tally: dict[str, int]
    result: str
    eliminated: str | None
    revealed_role: str | None
    called_by: str | None


class NightRecord(Facts):
    """What a night's end announced (public too)."""

    night: int
    outcome: list[str]


@dataclass
class WerewolfState(PhasedLog):
    players: list[Player]
    role_counts: dict[str, int]
    stage: Stage = Stage.NIGHT_ACTIONS
    phase: str = "setup"
    day: int = 0
    night: int = 0
    last_protected: str | None = None
    seer_results: dict[str, Reading] = field(default_factory=dict)
    discussion: Discussion | None = None
    night_plan: NightPlan | None = None
    vote: VoteRound | None = None
    days: list[DayRecord] = field(default_factory=list)
    nights: list[NightRecord] = field(default_factory=list)
    pending: PendingDecisions = field(default_factory=PendingDecisions)
    outcome: Result | None = None
    markers: SecretMarkers = field(default_factory=lambda: SecretMarkers(False))
    log: EventLog = field(default_factory=EventLog)
    #: the characters (scene, stories, playstyles): frozen config data, shared on copy
    cast: Cast | None = None
    #: the game seed, for draws that must not touch the game's Rng stream (speech variants)
    seed: int = 0
    #: each seat's record of its own events, kept as they grow (a cache: record.py)
    records: dict[str, SeatRecords] = field(default_factory=dict)

    def __deepcopy__(self, memo: dict[int, Any]) -> WerewolfState:
        # Events, decisions and the result are frozen models: share them, copy the rest.
        # Keeps the conformance suite's per-answer deep copies cheap on long games.
        clone = copy.copy(self)
        memo[id(self)] = clone
        for name, value in vars(self).items():
            if name in ("log", "pending", "markers"):
                setattr(clone, name, value.copy())
            elif name in ("outcome", "cast"):
                setattr(clone, name, copy.copy(value))
            else:
                setattr(clone, name, copy.deepcopy(value, memo))
        return clone

    # -- lookups -------------------------------------------------------------------------

    def player(self, seat: str) -> Player:
        return by_id(self.players, seat)

    def name(self, seat: str) -> str:
        return self.player(seat).name

    def living(self) -> list[Player]:
        return [p for p in self.players if p.alive]

    def living_wolves(self) -> list[Player]:
        return [p for p in self.players if p.alive and p.is_wolf]

    def wolves(self) -> list[Player]:
        return [p for p in self.players if p.is_wolf]

    def with_role(self, role: Role) -> list[Player]:
        return [p for p in self.players if p.role is role]

    # -- events --------------------------------------------------------------------------

    @property
    def events(self) -> list[Event]:
        """The whole log (a copy); seats read ``log.visible`` instead."""
        return list(self.log.events)

    def current_phase(self) -> str:
        return self.phase

    def open(self, decision: Decision) -> None:
        self.pending.open(decision)

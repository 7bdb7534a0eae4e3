"""The mutable state of one Diplomacy game around the engine's immutable :class:`Board`.

Boards, decisions, events and phase records are immutable values, so a copy of the
state only copies the containers that hold them (``clone``): the conformance suite and
the runtime's probes deep-copy games constantly, and a deep copy of a board would also
copy the whole map.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from parlour.core.events import EventLog
from parlour.core.game import Result, copy_containers
from parlour.core.game_base import PhasedLog
from parlour.core.markers import SecretMarkers
from parlour.core.pending import PendingDecisions
from parlour.games.diplomacy.board import Board
from parlour.games.diplomacy.bot_memory import BotMemory
from parlour.games.diplomacy.deals import Deal, Lie
from parlour.games.diplomacy.proposals import Proposal

Stage = Literal["press", "orders", "window", "finalise", "over"]


@dataclass(frozen=True)
class OrderOutcome:
    """One adjudicated order, as every power learns it after the phase."""

    power: str
    order: str
    status: str  # an adjudicator OrderStatus value
    dislodged: bool = False

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class PhaseRecord:
    """A completed phase: the orders as submitted and what became of them."""

    phase: str
    orders: tuple[tuple[str, tuple[str, ...]], ...]  # (power, orders) in map order
    results: tuple[OrderOutcome, ...]
    dislodged: tuple[str, ...] = ()  # "A BUR" units dislodged this phase (movement)

    def as_dict(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "orders": {p: list(os) for p, os in self.orders},
            "results": [r.as_dict() for r in self.results],
            "dislodged": list(self.dislodged),
        }


@dataclass
class DiplomacyState(PhasedLog):
    board: Board
    stage: Stage = "orders"
    press_round: int = 0
    pending: PendingDecisions = field(default_factory=PendingDecisions)
    #: power → the orders it submitted for the open phase (texts, as answered)
    submitted: dict[str, tuple[str, ...]] = field(default_factory=dict)
    history: list[PhaseRecord] = field(default_factory=list)
    #: the board at the start of every completed phase (pictures, tests)
    boards: list[Board] = field(default_factory=list)
    #: centre counts at the start and after every year's Fall: (year, {power: n})
    centre_history: list[tuple[int, dict[str, int]]] = field(default_factory=list)
    eliminated: list[str] = field(default_factory=list)
    log: EventLog = field(default_factory=EventLog)
    markers: SecretMarkers = field(default_factory=lambda: SecretMarkers(False))
    outcome: Result | None = None
    #: bot power → its memory (the bot protocol, docs/diplomacy-bot.md)
    bots: dict[str, BotMemory] = field(default_factory=dict)
    #: press messages emitted this phase (numbers gate/reply decisions)
    msg_seq: int = 0
    #: human power → talk turns taken this phase (window press)
    talk_turns: dict[str, int] = field(default_factory=dict)
    #: bot power → messages to it that wait for its reply gate: (number, sender, text),
    #: read together once the bot has no message decision open (replies are batched)
    inbox: dict[str, list[tuple[int, str, str]]] = field(default_factory=dict)
    #: this phase's proposals (id → proposal), the ids accepted and those answered
    proposals: dict[str, Proposal] = field(default_factory=dict)
    accepted: set[str] = field(default_factory=set)
    answered: set[str] = field(default_factory=set)
    #: proposals made over the game (numbers their ids)
    proposal_seq: int = 0
    #: every commitment agreed over the game, open or judged; every lie found
    deals: list[Deal] = field(default_factory=list)
    lies: list[Lie] = field(default_factory=list)
    #: a person's power → window deadlines it missed (since it last took its seat back)
    missed: dict[str, int] = field(default_factory=dict)
    #: a person's power the scripted bot plays → the phase it took over in
    taken: dict[str, str] = field(default_factory=dict)

    def current_phase(self) -> str:
        return self.board.phase.name

    def clone(self) -> DiplomacyState:
        """A copy sharing the immutable leaves (see the module docstring)."""
        return copy_containers(
            self,
            pending=self.pending.copy(),
            centre_history=[(y, dict(c)) for y, c in self.centre_history],
            log=self.log.copy(),
            markers=self.markers.copy(),
            bots={p: m.copy() for p, m in self.bots.items()},
            inbox={p: list(m) for p, m in self.inbox.items()},
        )

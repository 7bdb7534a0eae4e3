"""What a bot power remembers between phases: its floor and agenda, commitments, trust
per power, betrayals and a journal. All of it is this power's private state, built only
from what the power saw (its view's events and the public record), so a bot taking over
a power mid-game can rebuild it from the same sources (``bootstrap``).

Consolidation is the engine's step, not a model call: commitments are reconciled with
the orders revealed after adjudication (a fact, not an opinion), trust moves by fixed
rules, and the journal is compressed once a game year.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from parlour.core.game import copy_containers

Kind = Literal["promise", "request", "threat"]
KINDS: tuple[Kind, ...] = ("promise", "request", "threat")
TRUST_NAMES = ("hostile", "wary", "neutral", "friendly", "allied")
NEUTRAL = 3
#: The journal keeps this many characters per line (a phase, or a compressed year).
LINE_CHARS = 320


@dataclass(frozen=True)
class Commitment:
    """``by`` said it would (promise/threat) or was asked to (request) give order
    ``what`` in ``phase``; ``with_`` is the other side of the conversation."""

    by: str
    with_: str
    what: str
    phase: str
    kind: Kind
    status: str = "open"  # open | kept | broken

    def line(self) -> str:
        return f"{self.phase} {self.by.capitalize()} {self.kind} '{self.what}': {self.status}"


@dataclass(frozen=True)
class Betrayal:
    phase: str
    power: str
    what: str


@dataclass
class BotMemory:
    power: str
    floor: dict[str, str] = field(default_factory=dict)
    read: str = ""
    agenda: list[tuple[str, str]] = field(default_factory=list)
    commitments: list[Commitment] = field(default_factory=list)
    trust: dict[str, int] = field(default_factory=dict)
    betrayals: list[Betrayal] = field(default_factory=list)
    journal: list[str] = field(default_factory=list)
    #: press this phase: messages sent per channel, in total, replies to bots
    sent: dict[str, int] = field(default_factory=dict)
    bot_replies: int = 0
    #: never-stupid guards: orders corrected, by guard, over the game
    guards: dict[str, int] = field(default_factory=dict)
    #: the bot's own order sets (plan and finalise answers, before any guard or the
    #: deception bound) and how many of them the guards had to repair
    own_sets: int = 0
    stupid_sets: int = 0
    #: outgoing messages with an order redacted because it would reveal the real plan
    redactions: int = 0
    bootstrapped: bool = False

    def copy(self) -> BotMemory:
        return copy_containers(self)

    def trust_of(self, power: str) -> int:
        return self.trust.get(power, NEUTRAL)

    def sent_total(self) -> int:
        return sum(self.sent.values())

    def new_phase(self) -> None:
        self.sent = {}
        self.bot_replies = 0
        self.floor = {}
        self.agenda = []
        self.read = ""


def _bump(memory: BotMemory, power: str, delta: int) -> None:
    memory.trust[power] = max(1, min(5, memory.trust_of(power) + delta))


def reconcile(
    memory: BotMemory,
    phase: str,
    orders: dict[str, tuple[str, ...]],
    attacks: dict[str, list[str]],
) -> list[Commitment]:
    """Settle this phase's commitments against the revealed orders; move trust.

    A promise or threat is kept when its maker submitted exactly that order. A broken
    promise by another power is a betrayal (trust -2), a kept one earns +1; requests and
    threats are recorded but move no trust. ``attacks``: power → orders of theirs that
    moved into a province of ours (our unit or our centre), -1 each phase it happens.
    """
    settled: list[Commitment] = []
    rest: list[Commitment] = []
    for c in memory.commitments:
        if c.phase != phase or c.status != "open":
            rest.append(c)
            continue
        done = c.what in orders.get(c.by, ())
        s = Commitment(c.by, c.with_, c.what, c.phase, c.kind, "kept" if done else "broken")
        settled.append(s)
        if c.by != memory.power and c.kind == "promise":
            _bump(memory, c.by, 1 if done else -2)
            if not done:
                memory.betrayals.append(Betrayal(phase, c.by, c.what))
    for power, moves in attacks.items():
        if moves and power != memory.power:
            _bump(memory, power, -1)
    memory.commitments = rest + settled
    return settled


def journal_line(
    phase: str,
    heard: list[str],
    settled: list[Commitment],
    attacks: dict[str, list[str]],
    deals: list[str] | None = None,
) -> str:
    """One phase in the journal: the deals judged first (they matter most), then press,
    commitments and attacks."""
    parts: list[str] = []
    if deals:
        parts.append("deals: " + "; ".join(deals))
    if heard:
        parts.append("press: " + " | ".join(heard))
    if settled:
        parts.append("commitments: " + "; ".join(c.line() for c in settled))
    hits = [f"{p.capitalize()} ({', '.join(m)})" for p, m in attacks.items() if m]
    if hits:
        parts.append("attacked us: " + "; ".join(hits))
    text = f"{phase}: " + (". ".join(parts) if parts else "quiet")
    return text[:LINE_CHARS]


def compress_year(memory: BotMemory, year: int) -> None:
    """Fold the year's phase lines into one line: who talked, who kept and broke their
    word, who attacked (the detail stays in the commitments and betrayal record)."""
    tag = str(year)
    lines = [j for j in memory.journal if j[1:5] == tag and j[0] in "SFW"]
    if not lines:
        return
    kept = sum(1 for c in memory.commitments if tag in c.phase and c.status == "kept")
    broken = [b for b in memory.betrayals if tag in b.phase]
    attackers = sorted({p for line in lines for p in _names_after(line, "attacked us: ")})
    talked = sum(line.count(" | ") + ("press: " in line) for line in lines)
    summary = (
        f"{year}: {talked} message(s); {kept} commitment(s) kept; "
        f"betrayed by: {', '.join(b.power.capitalize() for b in broken) or 'nobody'}; "
        f"attacked by: {', '.join(attackers) or 'nobody'}."
    )
    memory.journal = [j for j in memory.journal if j not in lines] + [summary[:LINE_CHARS]]


def _names_after(line: str, marker: str) -> list[str]:
    if marker not in line:
        return []
    tail = line.split(marker, 1)[1]
    return [part.split(" (")[0].strip() for part in tail.split(";") if part.strip()]


def trust_line(memory: BotMemory, powers: list[str]) -> str:
    return ", ".join(
        f"{p.capitalize()} {TRUST_NAMES[memory.trust_of(p) - 1]}"
        for p in powers
        if p != memory.power
    )

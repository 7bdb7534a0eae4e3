"""Provenance of secrets during an audit replay: who wrote each marker, who holds it, how.

Every free text that enters a view was written by someone: a participant seat, an engine
role (a system seat: director, narrator, game master, router), or the engine itself (the
game's own code and content). The stored actions are the record of who wrote what: each
applied answer is stored with its seat and step, and the events that applying it emitted
are known. ``Provenance`` follows a replay and keeps, for every marker:

* ``written``: each answer that carried it, with its author and what the author was
  entitled to or had been given when it wrote (entitled, disclosed to it, leaked to it,
  or never given: a forgery);
* ``held``: for every seat that has been given it, how: ``entitled`` (the game says so),
  ``disclosure`` (a participant allowed to publish it told them), ``leak`` (the engine or
  an engine role passed it on; with the path it took, end to end), or ``forged``.

A marker found in a view string is attributed to an author: inside an event, to the seat
whose answer emitted that event when that answer carried the marker (the event carries
its words); elsewhere (a synopsis in a view's facts, a prompt's memory), to the latest
answer whose text around the marker appears in the string; otherwise to the engine.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from parlour.core.events import Event
from parlour.core.markers import MARKER_SHAPE

Markers = Mapping[str, frozenset[str]]
Held = Literal["entitled", "disclosure", "leak", "forged"]
FindingKind = Literal["leak", "disclosure", "forgery"]

#: characters of an answer's text before a marker that must recur for content attribution
_WINDOW = 40


@dataclass(frozen=True)
class Written:
    """One answer that carried a marker."""

    seat: str
    step: int
    decision_id: str
    held: Held  # what its author held when it wrote
    fragments: tuple[str, ...]  # the answer's strings that carry the marker

    def matches(self, text: str, marker: str) -> bool:
        """Does ``text`` carry this answer's words around ``marker``?"""
        for fragment in self.fragments:
            at = fragment.find(marker)
            window = fragment[max(0, at - _WINDOW) : at + len(marker)].strip()
            if window and window in text:
                return True
        return False

    def label(self) -> str:
        return f"{self.seat}'s answer to {self.decision_id} (step {self.step})"


@dataclass(frozen=True)
class Receipt:
    how: Held
    #: the hops the marker took to this seat, first to last (empty when entitled)
    path: tuple[str, ...] = ()


@dataclass(frozen=True)
class Finding:
    """A leak (a seat given a secret it may not know), a disclosure (a participant
    published a secret it may publish) or a forgery (a seat wrote a marker it was never
    given, or one that was never planted)."""

    kind: FindingKind
    seat: str  # given it (leak, disclosure) or wrote it (forgery)
    marker: str
    where: str
    allowed: tuple[str, ...] = ()
    author: str = "engine"
    path: tuple[str, ...] = ()

    def __str__(self) -> str:
        allowed = ", ".join(self.allowed) or "nobody"
        if self.kind == "forgery":
            return f"{self.seat} wrote {self.marker} in {self.where}"
        if self.kind == "disclosure":
            return f"{self.author} told {self.seat} {self.marker} in {self.where}"
        route = " → ".join(self.path)
        return f"{self.seat} was given {self.marker} in {self.where} (entitled: {allowed}; {route})"


@dataclass
class Provenance:
    """The ledger of one replay (see the module docstring)."""

    #: seats that may publish what they know (the game's rule, ``SeatInfo.may_disclose``)
    disclosers: frozenset[str]
    written: defaultdict[str, list[Written]] = field(default_factory=lambda: defaultdict(list))
    held: dict[tuple[str, str], Receipt] = field(default_factory=dict)
    #: every marker the game has registered so far (one it drops is no longer secret)
    planted: set[str] = field(default_factory=set)
    #: event seq → the step whose answer emitted it
    event_step: dict[int, int] = field(default_factory=dict)
    #: (step, marker) → the answer of that step that carried the marker
    by_step: dict[tuple[int, str], Written] = field(default_factory=dict)

    # -- writing -----------------------------------------------------------------------

    def answer(
        self,
        seat: str,
        step: int,
        decision_id: str,
        strings: Iterable[str],
        markers: Markers,
    ) -> list[Finding]:
        """Record an answer's markers before it is applied; returns its forgeries."""
        strings = [s for s in strings if "[[mk:" in s]
        found: list[Finding] = []
        for made in dict.fromkeys(m for s in strings for m in MARKER_SHAPE.findall(s)):
            where = f"answer to {decision_id} (step {step})"
            if made not in markers:
                if made not in self.planted:
                    found.append(
                        Finding("forgery", seat, made, f"{where}: never planted", author=seat)
                    )
                continue
            if seat in markers[made]:
                held: Held = "entitled"
            elif (seat, made) in self.held:
                held = self.held[(seat, made)].how
            else:
                held = "forged"
                found.append(Finding("forgery", seat, made, f"{where}: never given", author=seat))
            record = Written(seat, step, decision_id, held, tuple(s for s in strings if made in s))
            self.written[made].append(record)
            self.by_step[(step, made)] = record
        return found

    def emitted(self, step: int, events: Iterable[Event]) -> None:
        """The events applying the answer of ``step`` produced."""
        for event in events:
            self.event_step[event.seq] = step

    # -- reading -----------------------------------------------------------------------

    def author_of(
        self, marker: str, path: str, text: str, events: tuple[Event, ...], before: int
    ) -> Written | None:
        """The answer whose words put ``marker`` into ``text`` (at ``path`` of a view or
        prompt), or None when the engine did."""
        candidates = [w for w in self.written.get(marker, ()) if w.step < before]
        parts = path.split(".")
        if len(parts) > 2 and parts[0] == "view" and parts[1] == "events" and parts[2].isdigit():
            index = int(parts[2])
            if index < len(events):
                step = self.event_step.get(events[index].seq)
                own = None if step is None else self.by_step.get((step, marker))
                if own is not None or step is None:
                    return own
                # An answer that did not carry the marker emitted the event: the engine's
                # words, unless it published an engine role's held-back draft (a review
                # approving a beat). Only an engine role's words are looked for, so a
                # participant who once quoted a secret can never excuse the engine.
                candidates = [w for w in candidates if w.seat not in self.disclosers]
        return next((w for w in reversed(candidates) if w.matches(text, marker)), None)

    def receive(
        self,
        seat: str,
        marker: str,
        allowed: frozenset[str],
        where: str,
        author: Written | None,
    ) -> Finding | None:
        """``seat`` is shown ``marker`` at ``where``; record how, and return the finding
        (None when the seat is entitled or already held it)."""
        key = (seat, marker)
        if seat in allowed:
            # A participant remembers what it was once entitled to; an engine role knows
            # only what its present view holds, so its entitlement is checked every time.
            if seat in self.disclosers:
                self.held.setdefault(key, Receipt("entitled"))
            return None
        if key in self.held:
            return None
        entitled = tuple(sorted(allowed))
        if author is None:
            self.held[key] = Receipt("leak", (f"engine → {seat} ({where})",))
            return Finding("leak", seat, marker, where, entitled, "engine", self.held[key].path)
        if author.held == "forged":
            self.held[key] = Receipt("forged")
            return None
        if author.seat in self.disclosers and author.held in ("entitled", "disclosure"):
            self.held[key] = Receipt("disclosure")
            return Finding("disclosure", seat, marker, where, entitled, author.seat)
        before = self.held.get((author.seat, marker), Receipt(author.held)).path
        path = (*before, f"{author.label()} → {seat} ({where})")
        self.held[key] = Receipt("leak", path)
        return Finding("leak", seat, marker, where, entitled, author.seat, path)

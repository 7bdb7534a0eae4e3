"""The kernel toolkit games share: event log with a seat index, pending table, markers."""

from __future__ import annotations

import copy

import pytest

from parlour.core import Audience, Decision, IllegalAction
from parlour.core.events import EventLog, spectator_events
from parlour.core.markers import SecretMarkers, marker
from parlour.core.pending import PendingDecisions
from tests.support.decisions import make_decision


def _log() -> EventLog:
    log = EventLog(groups={"wolves": ("p2", "p3")})
    log.emit("setup", "n0", "hello all", Audience.everyone())
    log.emit("role", "n0", "you are p1", Audience.only("p1"))
    log.emit("chat", "n1", "psst", Audience.of_group("wolves"), speaker="p2")
    log.emit("audit", "n1", "engine only", Audience.nobody())
    log.emit("dawn", "d1", "morning", Audience.everyone())
    return log


def test_audiences_are_resolved_to_seats_when_emitted() -> None:
    log = _log()
    assert [e.to for e in log.events] == [(), ("p1",), ("p2", "p3"), (), ()]
    # Later membership changes do not rewrite what was already emitted.
    log.set_group("wolves", ("p3",))
    chat = log.emit("chat", "n2", "alone now", Audience.of_group("wolves"))
    assert log.events[2].to == ("p2", "p3") and chat.to == ("p3",)


def test_the_seat_index_agrees_with_a_scan_of_the_whole_log() -> None:
    log = _log()
    members = {"p2": {"wolves"}, "p3": {"wolves"}}
    for seat in ("p1", "p2", "p3", "p4", "router"):
        scan = [e for e in log.events if e.visible_to(seat, members.get(seat, set()))]
        assert log.visible(seat) == scan, seat
    assert [e.text for e in log.visible("p1")] == ["hello all", "you are p1", "morning"]
    assert [e.text for e in log.visible("p3")] == ["hello all", "psst", "morning"]


def test_an_unregistered_group_is_seen_by_nobody() -> None:
    log = EventLog()
    event = log.emit("chat", "n1", "lost", Audience.of_group("cult"))
    assert event.to == ()
    assert all(event not in log.visible(s) for s in ("p1", "p2", "cult"))


def test_spectators_see_public_events_unless_everything_is_revealed() -> None:
    log = _log()
    assert [e.text for e in log.for_spectator(False)] == ["hello all", "morning"]
    assert log.for_spectator(True) == log.events
    assert spectator_events(log.events, False) == log.for_spectator(False)
    assert all(e.is_public for e in log.for_spectator(False))


def test_a_copied_log_is_independent() -> None:
    log = _log()
    clone = copy.deepcopy(log)
    clone.emit("chat", "n2", "only in the copy", Audience.only("p1"))
    assert len(clone) == len(log) + 1
    assert "only in the copy" not in [e.text for e in log.visible("p1")]
    assert clone.events[:-1] == log.events


def _decision(i: str) -> Decision:
    return make_decision(id=i)


def test_pending_open_take_withdraw() -> None:
    table = PendingDecisions.of([_decision("d1"), _decision("d2")])
    assert [d.id for d in table.all()] == ["d1", "d2"] and "d1" in table
    with pytest.raises(ValueError, match="already open"):
        table.open(_decision("d1"))
    assert table.take("d1").id == "d1"
    with pytest.raises(IllegalAction, match="no open decision 'd1'; open decisions: d2"):
        table.take("d1")
    assert table.withdraw("d2") and not table.withdraw("d2")
    with pytest.raises(IllegalAction, match=r"open decisions: none \(the game is over\)"):
        table.get("d2")
    assert len(table) == 0


def test_markers_are_registered_only_when_planting_is_on() -> None:
    on, off = SecretMarkers(True), SecretMarkers(False)
    assert on.plant("role:p1", ["p1"]) == " [[mk:role:p1]]" == f" {marker('role:p1')}"
    assert off.plant("role:p1", ["p1"]) == "" and off.entitled() == {}
    on.plant("pack", ["p3", "p2"])
    assert on.entitled() == {"[[mk:role:p1]]": frozenset({"p1"}), "[[mk:pack]]": {"p2", "p3"}}
    assert on.snapshot() == {"[[mk:pack]]": ["p2", "p3"], "[[mk:role:p1]]": ["p1"]}
    clone = copy.deepcopy(on)
    clone.plant("x", [])
    assert len(clone) == 3 and len(on) == 2

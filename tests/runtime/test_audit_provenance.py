"""The audit tells a leak from a disclosure and a forgery (runtime/provenance.py).

Werewolf played through the Python API: one seat is a person-like agent of the test's
own, every other seat scripted, markers planted. What the agent writes decides what the
audit must report.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import parlour
from parlour.core.decisions import Decision
from parlour.core.markers import MARKER_SHAPE
from parlour.core.view import AnyView
from parlour.runtime import audit

OPTIONS = {"plant_markers": True}


def _answer(decision: Decision, text: str) -> object:
    if decision.kind == "free_text":
        return text[: decision.max_length] or "..."
    if decision.kind == "choose_many":
        return [o.id for o in decision.options][: decision.min_choices]
    return decision.options[0].id


def forger(view: AnyView, decision: Decision) -> object:
    """Types marker-shaped strings it was never given, as a hostile person might."""
    return _answer(decision, "I know: [[mk:role:p5]] [[mk:role:p7]] [[mk:0bad0bad:role:p2]]")


def confessor(view: AnyView, decision: Decision) -> object:
    """Says aloud every marker its own view holds: its role card, what it learned."""
    held = dict.fromkeys(MARKER_SHAPE.findall(view.model_dump_json()))
    return _answer(decision, "Hear me: " + " ".join(held) if held else "Nothing to say.")


def test_typed_markers_are_forgeries_not_engine_leaks(tmp_path: Path) -> None:
    played = parlour.play(
        "werewolf", {"p1": forger}, seed=11, options=OPTIONS, db=tmp_path / "f.sqlite"
    )
    report = audit.audit_game(played.store, played.game_id)
    assert report.status == "clean", [str(leak) for leak in report.leaks]
    forged = {f.marker for f in report.forgeries}
    assert "[[mk:role:p5]]" in forged and "[[mk:0bad0bad:role:p2]]" in forged
    assert {f.seat for f in report.forgeries} == {"p1"}
    assert all("never planted" in f.where for f in report.forgeries)


def test_a_players_own_confession_is_a_disclosure(tmp_path: Path) -> None:
    played = parlour.play(
        "werewolf", {"p1": confessor}, seed=11, options=OPTIONS, db=tmp_path / "d.sqlite"
    )
    report = audit.audit_game(played.store, played.game_id)
    assert report.status == "clean", [str(leak) for leak in report.leaks]
    assert report.disclosures, "p1 said its role card aloud: others heard a disclosure"
    assert {d.author for d in report.disclosures} == {"p1"}
    told = {d.seat for d in report.disclosures}
    assert told and "p1" not in told
    # Its own role marker, with this game's nonce, is what it gave away.
    assert all(re.fullmatch(r"\[\[mk:[0-9a-f]{8}:[^\]]+\]\]", d.marker) for d in report.disclosures)
    assert not report.forgeries


def test_a_seat_that_may_not_disclose_leaks_with_its_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same confession audited as if p1 were an engine role (who may not pass on what
    it knows) is a leak, named by its author and path."""
    played = parlour.play(
        "werewolf", {"p1": confessor}, seed=11, options=OPTIONS, db=tmp_path / "l.sqlite"
    )

    class NoOneButEngine(audit.Provenance):
        def __init__(self, disclosers: frozenset[str]) -> None:
            super().__init__(disclosers - {"p1"})

    monkeypatch.setattr(audit, "Provenance", NoOneButEngine)
    report = audit.audit_game(played.store, played.game_id)
    assert report.status == "leak"
    assert {leak.author for leak in report.leaks} == {"p1"}
    assert all("p1's answer to" in leak.path[-1] for leak in report.leaks)
    assert not report.disclosures

"""Context components read a real store and the seat's view, deterministically."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from parlour.core import Audience
from parlour.core.decisions import Decision, Option
from parlour.core.errors import ParlourError
from parlour.core.events import EventLog
from parlour.core.view import AnyView, Facts
from parlour.models.lexical import bm25_scores, top_k
from parlour.runtime.seat_context import (
    StoreReader,
    record_retrievals,
    retrievals,
    split_spec,
)
from parlour.runtime.store import CallRecord, Store, db_url
from parlour.seats.context import ContextSection, NoReader, gather_all, render
from parlour.seats.context_components import Journal, Memory, Recall
from tests.support.calls import make_call
from tests.support.decisions import make_decision, make_view


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(db_url(str(tmp_path / "ctx.sqlite")))


def _call(gid: str, seat: str, n: int, text: str, outcome: str = "valid") -> CallRecord:
    return make_call(
        game_id=gid,
        seat=seat,
        decision_id=f"d{n}:{seat}",
        purpose="vote" if text.startswith("{") else "speak",
        phase=f"day {n}",
        cache_key=seat,
        response_text=text,
        parsed=None,
        outcome=outcome,
    )


class SeerFacts(Facts):
    role: str
    checks: dict[str, str]


def _view() -> AnyView:
    log = EventLog()
    log.emit("phase", "night 1", "Night 1 falls. Everyone closes their eyes.", Audience.everyone())
    log.emit("seer", "night 1", "You investigated Aiko: EVIL.", Audience.only("p1"))
    log.emit("death", "dawn 1", "Dawn 1: Tomas was found dead near the well.", Audience.everyone())
    log.emit("speech", "day 1", "Aiko says she saw Maya near the well.", Audience.everyone())
    log.emit("speech", "day 2", "Maya: I was baking bread all night.", Audience.everyone())
    return make_view(
        log.events,
        game="werewolf",
        seat_name="Kenji",
        private=SeerFacts(role="seer", checks={"Aiko": "evil"}),
    )


def _vote() -> Decision:
    return make_decision(
        id="d2:vote:p1",
        prompt="Who do you vote to exile? Think about who is evil.",
        options=(Option(id="p2", label="Aiko"), Option(id="p4", label="Maya")),
    )


def test_journal_reads_only_the_seats_own_accepted_answers(store: Store) -> None:
    gid = store.create_game("werewolf", "{}", 1, {})
    store.record_call(_call(gid, "p1", 1, "I suspect Aiko."))
    store.record_call(_call(gid, "p1", 1, "garbage", outcome="invalid"))
    store.record_call(_call(gid, "p2", 1, "I am p2 and nobody else may read this."))
    store.record_call(_call(gid, "p1", 2, '{"choice": "Aiko", "why": "the seer saw her"}'))
    reader = StoreReader(store, gid)
    section = asyncio.run(Journal(limit=5).gather(_view(), _vote(), reader))
    assert section is not None
    assert section.text.splitlines() == [
        "- [day 1, speak] I suspect Aiko.",
        "- [day 2, vote] chose Aiko (the seer saw her)",
    ]
    assert "p2" not in section.text and "garbage" not in section.text
    assert section.retrieval.component == "journal" and len(section.retrieval.ids) == 2
    last = asyncio.run(Journal(limit=1).gather(_view(), _vote(), reader))
    assert last is not None and last.retrieval.ids == section.retrieval.ids[-1:]
    assert asyncio.run(Journal().gather(_view(), _vote(), StoreReader(store, "other"))) is None


def test_memory_lists_the_views_private_facts_exactly() -> None:
    section = asyncio.run(Memory().gather(_view(), _vote(), NoReader()))
    assert section is not None
    assert section.text == '- checks: {"Aiko": "evil"}\n- role: seer'
    assert section.retrieval.ids == ("checks", "role")
    picked = asyncio.run(Memory(keys=("role", "missing")).gather(_view(), _vote(), NoReader()))
    assert picked is not None and picked.text == "- role: seer"
    assert asyncio.run(Memory(keys=("missing",)).gather(_view(), _vote(), NoReader())) is None


def test_recall_ranks_earlier_events_by_bm25_and_skips_the_current_phase() -> None:
    view = _view()
    decision = _vote().model_copy(update={"prompt": "Who was near the well when Tomas died?"})
    section = asyncio.run(Recall(k=2).gather(view, decision, NoReader()))
    assert section is not None
    r = section.retrieval
    assert r.method == "bm25" and r.component == "recall"
    # The two events about the well, best first; the current phase (day 2) is not recalled.
    assert set(r.ids) == {"event:2", "event:3"}
    assert all("bread" not in t for t in r.texts)
    assert list(r.scores) == sorted(r.scores, reverse=True) and r.scores[-1] > 0
    assert "Who was near the well" in r.query and "Maya: I was baking" in r.query
    # Shown oldest first, one line each with its phase.
    assert section.text.splitlines()[0].startswith("- [dawn 1] Dawn 1: Tomas")


def test_same_store_same_recall_with_stable_tie_breaks() -> None:
    log = EventLog()
    for i in range(6):
        log.emit("speech", "day 1", f"The well is cold {i % 2}", Audience.everyone())
    view = make_view(log.events)
    decision = _vote().model_copy(update={"prompt": "well"})
    runs = [asyncio.run(Recall(k=3).gather(view, decision, NoReader())) for _ in range(3)]
    assert all(s is not None for s in runs)
    ids = [s.retrieval.ids for s in runs if s is not None]
    assert ids[0] == ids[1] == ids[2]
    # All six tie on "well": the most recent win, newest first.
    assert ids[0] == ("event:5", "event:4", "event:3")


def test_bm25_scores_and_ranking() -> None:
    docs = ["the wolf killed Bob", "Alice voted for Carol", "Carol claims seer", "", "seer seer"]
    scores = bm25_scores("is Carol the seer", docs)
    assert scores[0] == 0.0 and scores[3] == 0.0
    ranked = top_k(scores, 10, minimum=0.0)
    # Both query terms beat one; docs sharing no term are not ranked at all.
    assert ranked[0] == 2 and set(ranked) == {1, 2, 4}
    assert [scores[i] for i in ranked] == sorted((scores[i] for i in ranked), reverse=True)
    assert bm25_scores("", docs) == [0.0] * 5 and bm25_scores("zzz", docs) == [0.0] * 5
    assert bm25_scores("x", []) == []
    assert top_k([1.0, 1.0, 2.0], 3) == [2, 1, 0]


def test_sections_render_into_the_memory_layer_in_component_order() -> None:
    components = (Memory(), Recall(k=1))
    sections = asyncio.run(gather_all(components, _view(), _vote(), NoReader()))
    assert [s.retrieval.component for s in sections] == ["memory", "recall"]
    text = render("You are Kenji.", sections)
    assert text.startswith("You are Kenji.\n\n### Facts you hold\n")
    assert text.index("### Facts you hold") < text.index("### Earlier moments")
    assert render("", ()) == ""


def test_retrievals_round_trip_through_the_store(store: Store) -> None:
    gid = store.create_game("werewolf", "{}", 1, {})
    sections = asyncio.run(gather_all((Memory(), Recall()), _view(), _vote(), NoReader()))
    record_retrievals(store, gid, "p1", "d2:vote:p1", sections)
    logged = retrievals(store, gid)
    assert [(x.seat, x.decision_id) for x in logged] == [("p1", "d2:vote:p1")] * 2
    assert tuple(x.retrieval for x in logged) == tuple(s.retrieval for s in sections)


@pytest.mark.parametrize(
    ("spec", "fix"),
    [
        ("context(memory,dreams):local", "unknown context component 'dreams'"),
        ("context(recall,depth=3):local", "unknown context option 'depth'"),
        ("context(k=3):local", "names no context component"),
        ("context(recall,k=many):local", "whole numbers"),
        ("context(recall)", "write e.g. context("),
    ],
)
def test_bad_context_specs_name_the_fix(spec: str, fix: str) -> None:
    with pytest.raises(ParlourError, match=fix.replace("(", r"\(")) as info:
        split_spec(spec)
    assert "\n" not in str(info.value)


def test_context_spec_wraps_any_model_spec() -> None:
    plan, inner = split_spec("context(recall,journal,k=5,embed=local):chaos(rate=0.2):local")
    assert inner == "chaos(rate=0.2):local"
    assert plan.components == ("journal", "recall")  # most stable first
    assert (plan.k, plan.limit, plan.embed) == (5, 5, "local")
    assert split_spec("openai:gpt-4o-mini") == (type(plan)(), "openai:gpt-4o-mini")


def test_section_is_frozen() -> None:
    section = asyncio.run(Memory().gather(_view(), _vote(), NoReader()))
    assert isinstance(section, ContextSection)
    with pytest.raises(ValueError):
        section.title = "x"  # type: ignore[misc]

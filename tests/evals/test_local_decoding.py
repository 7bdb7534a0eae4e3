"""The decoding benchmark's model-free parts: which recorded prompts it replays and how it
scores and ranks settings (the model runs are measured, not tested)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.local_decoding import Row, best, distinct2, prompts_of
from parlour.runtime.store import Store, db_url

FIXTURE = Path(__file__).parents[1] / "fixtures" / "werewolf_local.sqlite"


def test_prompts_are_first_attempts_of_free_text_calls_spread_over_purposes() -> None:
    store = Store(db_url(str(FIXTURE)))
    prompts = prompts_of(store, 6)
    assert 0 < len(prompts) <= 6
    assert all(p.output.kind.value == "text" for p in prompts)
    assert all(p.messages[0].role == "system" and p.messages[-1].role == "user" for p in prompts)
    purposes = [p.purpose for p in prompts]
    assert len(set(purposes)) == min(len(purposes), len(set(purposes)))
    # the instructions the guard checks are the system message and the final command
    first = prompts[0]
    assert first.instructions == [first.messages[0].content, first.messages[-1].content]


def test_distinct2_counts_distinct_bigrams_over_all_answers() -> None:
    assert distinct2(["a b a b"]) == 2 / 3
    assert distinct2(["a b", "a b"]) == 1 / 2
    assert distinct2(["one"]) == 0.0


def row(name: str, accepted: float, copy: float, d2: float) -> Row:
    return Row(name, 0.7, 0.95, 1.0, 10, accepted, d2, copy, 30.0, 0.0, 1.0)


def test_best_prefers_acceptance_then_fewer_copies_then_variety() -> None:
    rows = [row("a", 0.5, 0.0, 0.9), row("b", 0.8, 0.2, 0.5), row("c", 0.8, 0.1, 0.4)]
    assert best(rows).setting == "c"
    rows.append(row("d", 0.8, 0.1, 0.6))
    assert best(rows).setting == "d"

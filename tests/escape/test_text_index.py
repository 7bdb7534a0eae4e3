"""The validator's indexes find exactly what the all-pairs scans found (F1: linear validate)."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.escape_validate import scenario_yaml
from parlour.games.escape.answers import answer_in_text
from parlour.games.escape.loader import parse_scenario
from parlour.games.escape.text import jaccard
from parlour.games.escape.text_index import WordIndex, similar_pairs
from parlour.games.escape.validate import validate

TOKENS = st.sampled_from(["door", "key", "lamp", "open", "red", "box", "x1", "ghost"])
SETS = st.lists(st.frozensets(TOKENS, max_size=6), max_size=25)


@settings(max_examples=200, deadline=None)
@given(SETS, st.sampled_from([0.3, 0.5, 0.6, 0.7, 0.8, 1.0]))
def test_similar_pairs_equal_the_all_pairs_scan(sets: list[frozenset[str]], t: float) -> None:
    expected = [
        (i, j, jaccard(sets[i], sets[j]))
        for i, j in combinations(range(len(sets)), 2)
        if jaccard(sets[i], sets[j]) >= t
    ]
    assert list(similar_pairs(sets, t)) == expected


TEXT = st.text(alphabet="ab1 #-.ÄäſsSKk\u212a", max_size=30)


@settings(max_examples=300, deadline=None)
@given(st.lists(TEXT, max_size=12), TEXT)
def test_word_index_candidates_hold_every_match(texts: list[str], answer: str) -> None:
    index = WordIndex(texts)
    matches = {n for n, text in enumerate(texts) if answer_in_text(answer, text)}
    assert matches <= set(index.candidates(answer))


def test_generated_scenario_warnings_match_a_brute_force_count() -> None:
    scenario = parse_scenario(scenario_yaml(600))
    problems = validate(scenario)
    assert not [p for p in problems if p.severity == "error"]
    # Every answer of the generator is written on a wall earlier (no W004), never in a
    # description (no W003); brute force over all texts agrees.
    answers = [a for a in scenario.actions if a.answer]
    assert len(answers) == 59
    assert not any(p.code in ("W003", "W004") for p in problems)
    assert not any(
        answer_in_text(a.answer or "", b.description) for a in answers for b in scenario.actions
    )

"""The validator: every code on a small broken graph, and the reachability analysis checked
against brute-force exploration of the game's real semantics."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.games.escape import load_scenario, validate
from parlour.games.escape.analysis import analyse
from parlour.games.escape.availability import naive_available
from parlour.games.escape.scenario import Scenario, ScenarioAction
from parlour.games.escape.validate import CODES, Problem

from .helpers import SHIPPED, scenario_from

HEAD = """\
title: T
intro: I
actions:
"""


def problems(actions_yaml: str, **kwargs: int) -> list[Problem]:
    return validate(scenario_from(HEAD + actions_yaml), **kwargs)  # type: ignore[arg-type]


def codes(actions_yaml: str, **kwargs: int) -> set[str]:
    return {p.code for p in problems(actions_yaml, **kwargs)}


OK_END = """
  - id: leave
    description: walk out of the door
    consequence: You leave.
    ends_game: true
    good: true
    hint: The door is open.
"""


def test_shipped_scenarios_are_clean() -> None:
    for name in SHIPPED:
        assert validate(load_scenario(name), max_turns=40) == []


def test_a_minimal_good_scenario_is_clean() -> None:
    assert problems(OK_END) == []


def test_e001_duplicate_id() -> None:
    found = problems(
        OK_END
        + """
  - id: leave
    description: leave again
    consequence: Again.
"""
    )
    assert [p.code for p in found if p.severity == "error"] == ["E001"]
    assert found[0].action_id == "leave"


def test_e002_unknown_need() -> None:
    found = problems(
        OK_END
        + """
  - id: read
    description: read the sign
    consequence: It says hi.
    needs: [lamp]
"""
    )
    assert [(p.code, p.action_id) for p in found if p.severity == "error"] == [("E002", "read")]
    assert "'lamp'" in found[0].message


def test_e003_cycle_and_e004_downstream() -> None:
    found = problems(
        OK_END
        + """
  - id: a
    description: do a
    consequence: A.
    needs: [b]
  - id: b
    description: do b
    consequence: B.
    needs: [a]
  - id: c
    description: do c
    consequence: C.
    needs: [a]
  - id: d
    description: do d
    consequence: D.
    needs: [d]
"""
    )
    errors = [(p.code, p.action_id) for p in found if p.severity == "error"]
    assert ("E003", "a") in errors and ("E003", "d") in errors
    assert ("E004", "c") in errors
    assert not any(code == "E004" and aid in ("a", "b", "d") for code, aid in errors)
    assert "a → b → a" in next(p.message for p in found if p.action_id == "a")


def test_e004_needs_an_ending() -> None:
    found = problems(
        OK_END
        + """
  - id: after
    description: look back
    consequence: Too late.
    needs: [leave]
"""
    )
    assert [(p.code, p.action_id) for p in found] == [("E004", "after")]
    assert "ends the game" in found[0].message


def test_e005_e007_no_ending_at_all() -> None:
    found = codes(
        """
  - id: a
    description: do a
    consequence: A.
    hint: try a
"""
    )
    assert found == {"E005", "E007"}


def test_e006_e007_ending_unreachable() -> None:
    found = problems(
        """
  - id: a
    description: do a
    consequence: A.
    repeatable: true
    hint: try a
  - id: out
    description: get out
    consequence: Out.
    needs: [ghost]
    ends_game: true
    good: true
"""
    )
    assert {p.code for p in found} == {"E002", "E006", "E007"}
    stuck = next(p for p in found if p.code == "E007")
    assert "after doing a" in stuck.message and "only repeatable actions (a)" in stuck.message


def test_e007_names_the_stuck_state_when_nothing_is_available() -> None:
    found = problems(
        """
  - id: a
    description: do a
    consequence: A.
    hint: try a
  - id: b
    description: do b
    consequence: B.
    needs: [a]
  - id: out
    description: get out
    consequence: Out.
    needs: [b, out2]
    ends_game: true
  - id: out2
    description: the other way
    consequence: Other.
    needs: [out]
"""
    )
    stuck = next(p for p in found if p.code == "E007")
    assert stuck.message == "after doing a, b, nothing is available, and no ending happened"


def test_e008_structural_nonsense() -> None:
    found = problems(
        OK_END
        + """
  - id: none
    description: do nothing
    consequence: Nothing.
  - id: chant
    description: chant the word
    consequence: Echo.
    repeatable: true
    answer: echo
  - id: sigil
    description: draw the sigil
    consequence: Drawn.
    answer: "?!"
  - id: wave
    description: wave
    consequence: Hi.
    wrong: No.
    good: true
  - id: jump
    description: jump out of the window
    consequence: Splat.
    ends_game: true
    repeatable: true
  - id: twice
    description: do twice
    consequence: Twice.
    needs: [wave, wave]
"""
    )
    e008 = [p for p in found if p.code == "E008"]
    messages = " | ".join(p.message for p in e008)
    assert {p.action_id for p in e008} == {"none", "chant", "sigil", "wave", "jump", "twice"}
    for phrase in (
        "reserved",
        "repeatable",
        "no letter or digit",
        "'wrong'",
        "'ending'/'good'",
        "cannot be repeatable",
        "same need twice",
    ):
        assert phrase in messages


def test_w001_near_duplicates_only_when_co_available() -> None:
    near = """
  - id: pull_left
    description: pull the big iron lever on the left wall
    consequence: Click.
  - id: pull_right
    description: pull the big iron lever on the right wall
    consequence: Clack.
"""
    assert "W001" in codes(OK_END + near)
    # If one needs the other, they are never available together: no warning ...
    chained = near.replace(
        "    consequence: Clack.", "    consequence: Clack.\n    needs: [pull_left]"
    )
    assert "W001" not in codes(OK_END + chained)
    # ... unless the first is repeatable (it stays available).
    looping = chained.replace(
        "    consequence: Click.", "    consequence: Click.\n    repeatable: true"
    )
    assert "W001" in codes(OK_END + looping)


def test_w002_no_good_ending() -> None:
    assert "W002" in codes(OK_END.replace("good: true", "good: false"))


def test_w003_w004_answers() -> None:
    found = codes(
        OK_END
        + """
  - id: keypad
    description: type 1234 on the keypad
    consequence: Beep.
    answer: "1234"
  - id: riddle
    description: answer the sphinx
    consequence: She steps aside.
    answer: echo
"""
    )
    assert {"W003", "W004"} <= found
    told = (
        OK_END
        + """
  - id: note
    description: read the note
    consequence: It says ECHO.
  - id: riddle
    description: answer the sphinx
    consequence: She steps aside.
    answer: echo
"""
    )
    assert "W004" not in codes(told)


def test_w005_no_hints_and_w006_turn_limit() -> None:
    assert "W005" in codes(OK_END.replace("    hint: The door is open.\n", ""))
    long_way = (
        OK_END.replace("    hint", "    needs: [s1]\n    hint")
        + """
  - id: s1
    description: step one
    consequence: One.
    needs: [s2]
  - id: s2
    description: step two
    consequence: Two.
"""
    )
    assert "W006" in codes(long_way, max_turns=2)
    assert "W006" not in codes(long_way, max_turns=3)


def test_every_code_is_documented_and_covered() -> None:
    covered = {"E000", "E001", "E002", "E003", "E004", "E005", "E006", "E007", "E008"}
    covered |= {"W001", "W002", "W003", "W004", "W005", "W006"}
    covered |= {"W007", "W008"}  # the also phrasings: tests/escape/test_classifier_phrasings.py
    # places and objects: tests/escape/test_room_and_deeds.py
    covered |= {"E009", "W009", "W010", "W011"}
    assert set(CODES) == covered


# -- the analysis against brute force -------------------------------------------------------


@st.composite
def small_dags(draw: st.DrawFn) -> Scenario:
    n = draw(st.integers(2, 7))
    actions = []
    for i in range(n):
        needs = draw(st.lists(st.integers(0, i - 1), max_size=2, unique=True)) if i else []
        ends = draw(st.booleans()) if i else False
        repeatable = (not ends) and draw(st.booleans())
        actions.append(
            ScenarioAction(
                id=f"a{i}",
                description=f"do thing {i}",
                consequence=f"thing {i} done",
                needs=tuple(f"a{j}" for j in needs),
                ends_game=ends,
                repeatable=repeatable,
                good=True if ends else None,
            )
        )
    order = draw(st.permutations(actions))  # file order must not matter
    return Scenario(title="t", intro="i", actions=tuple(order))


def explore(scenario: Scenario) -> tuple[set[str], bool, set[frozenset[str]], dict[str, int]]:
    """BFS over real game states: performed actions, any stuck state, co-available pairs,
    and the fewest turns to each ending."""
    by_id = {a.id: a for a in scenario.actions}
    seen: dict[frozenset[str], int] = {frozenset(): 0}
    queue = [frozenset[str]()]
    performed: set[str] = set()
    pairs: set[frozenset[str]] = set()
    stuck = False
    fastest: dict[str, int] = {}
    while queue:
        done = queue.pop(0)
        open_now = naive_available(scenario, set(done))
        pairs |= {frozenset(p) for p in combinations(open_now, 2)}
        if not [a for a in open_now if a not in done]:
            stuck = True
        for aid in open_now:
            performed.add(aid)
            if by_id[aid].ends_game:
                fastest.setdefault(aid, seen[done] + 1)
                continue
            nxt = done | {aid}
            if nxt not in seen:
                seen[nxt] = seen[done] + 1
                queue.append(nxt)
    return performed, stuck, pairs, fastest


@settings(max_examples=300, deadline=None)
@given(small_dags())
def test_analysis_matches_brute_force(scenario: Scenario) -> None:
    facts = analyse(scenario)
    performed, stuck, pairs, fastest = explore(scenario)
    assert set(facts.reachable) == performed
    assert (facts.stuck_state() is not None) == stuck
    for a, b in combinations([x.id for x in scenario.actions], 2):
        assert facts.co_available(a, b) == (frozenset((a, b)) in pairs), (a, b)
    for ending, turns in fastest.items():
        assert len(facts.path_to(ending)) == turns
    found = {p.code for p in validate(scenario)}
    assert ("E007" in found) == stuck
    assert ("E006" in found or "E005" in found) == (not fastest)


def test_a_code_spelt_in_words_is_the_code_for_the_validator_too() -> None:
    """The engine accepts "nineteen sixty two" for 1962 (answers.py), so the validator reads
    texts the same way: a clue that spells the code shows it (no W004), a description that
    spells it gives it away (W003), and a hint that spells only smaller numbers is no clue."""
    keypad = """
  - id: keypad
    description: DESCRIPTION
    consequence: Beep.
    answer: "1962"
    hint: HINT
"""
    plain = keypad.replace("DESCRIPTION", "type a code on the keypad")
    spelt_clue = OK_END + plain.replace("HINT", "The plaque reads nineteen sixty-two.")
    assert "W004" not in codes(spelt_clue)
    small_numbers = OK_END + plain.replace("HINT", "Four digits; the year has two nines.")
    assert "W004" in codes(small_numbers)
    told = "type nineteen sixty two on the keypad"
    spoiler = OK_END + keypad.replace("DESCRIPTION", told).replace("HINT", "A year.")
    assert "W003" in codes(spoiler)

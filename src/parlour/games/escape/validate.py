"""The scenario validator: coded problems a designer can act on.

Errors make a scenario unplayable or wrong; warnings are things a designer probably did not
mean. How reachability, dead ends and co-availability are computed is explained in
``analysis.py`` (and in docs/escape-scenarios.md).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from parlour.core.designer_check import has_errors as has_errors  # re-exported
from parlour.games.escape.analysis import GraphFacts, analyse
from parlour.games.escape.answers import answer_in_text, matchable
from parlour.games.escape.hints import player_way
from parlour.games.escape.scenario import ASK_ID, LOOK_ID, NONE_ID, Scenario
from parlour.games.escape.text import token_set
from parlour.games.escape.text_index import WordIndex, similar_pairs

#: Descriptions at least this similar (token Jaccard) confuse a classifier.
NEAR_DUPLICATE = 0.7

CODES: dict[str, str] = {
    "E000": "the file cannot be read or parsed (cli_support; names file, line and key)",
    "E001": "duplicate action id",
    "E002": "needs names an unknown action id",
    "E003": "needs form a cycle",
    "E004": "action can never happen",
    "E005": "no ending action",
    "E006": "no ending is reachable",
    "E007": "dead end: a reachable state with nothing new to do and no ending",
    "E008": "structural nonsense (answer on a repeatable action, reserved id, ...)",
    "E009": "a place or object needs an unknown action id",
    "W001": "near-duplicate descriptions available at the same time",
    "W002": "no good ending is reachable",
    "W003": "an answer appears in an action description",
    "W004": "an answer appears nowhere the player could read it first",
    "W005": "no action has a hint",
    "W006": "the shortest good ending (answers found, not known) needs more turns than the limit",
    "W007": "an answer appears in an also phrasing",
    "W008": "an also phrasing says another action too (its description or one of its phrasings)",
    "W009": "a place or object has no description (look and examine have nothing to show)",
    "W010": "the scenario describes objects but no place",
    "W011": "an answer appears in a place or object description",
}


class Problem(BaseModel):
    model_config = ConfigDict(frozen=True)

    code: str
    severity: Literal["error", "warning"]
    message: str
    action_id: str | None = None

    def __str__(self) -> str:
        where = f" [{self.action_id}]" if self.action_id else ""
        return f"{self.code} {self.severity}{where}: {self.message}"


def _p(code: str, message: str, action_id: str | None = None) -> Problem:
    severity: Literal["error", "warning"] = "error" if code.startswith("E") else "warning"
    return Problem(code=code, severity=severity, message=message, action_id=action_id)


def validate(
    scenario: Scenario,
    *,
    max_turns: int | None = None,
    near_duplicate: float = NEAR_DUPLICATE,
    warnings: bool = True,
) -> list[Problem]:
    """Every problem found, errors first, each group in file order.

    ``warnings=False`` skips the warning-only checks (the near-duplicate and answer scans among
    them); the game uses it to refuse broken scenarios cheaply.
    """
    facts = analyse(scenario)
    problems = [
        *_identity(scenario),
        *_structure(scenario),
        *_graph(scenario, facts),
        *_endings(scenario, facts, max_turns),
        *_thing_needs(scenario, facts),
    ]
    if warnings:
        problems += [*_near_duplicates(facts, near_duplicate), *_answers(scenario, facts)]
        problems += _phrasings(scenario)
        problems += _descriptions(scenario)
        if not any(a.hint for a in scenario.actions):
            problems.append(_p("W005", "no action has a hint, so stuck players never get help"))
    else:
        problems = [p for p in problems if p.severity == "error"]
    return sorted(problems, key=lambda p: (p.severity != "error", p.code))


def _identity(scenario: Scenario) -> list[Problem]:
    seen: set[str] = set()
    out: list[Problem] = []
    for act in scenario.actions:
        if act.id in seen:
            out.append(_p("E001", f"action id '{act.id}' is defined twice", act.id))
        seen.add(act.id)
    return out


def _structure(scenario: Scenario) -> list[Problem]:
    out: list[Problem] = []
    for act in scenario.actions:

        def bad(why: str, aid: str = act.id) -> None:
            out.append(_p("E008", why, aid))

        if act.id == NONE_ID:
            bad("the id 'none' is reserved for 'nothing happened'; rename the action")
        if act.id == ASK_ID:
            bad("the id 'ask' is reserved for 'ask which one was meant'; rename the action")
        if act.id == LOOK_ID:
            bad("the id 'look' is reserved for 'looks at something'; rename the action")
        if act.answer is not None and act.repeatable:
            bad(f"'{act.id}' has an answer but is repeatable; an answer unlocks something once")
        if act.answer is not None and not matchable(act.answer):
            bad(f"'{act.id}' has an answer with no letter or digit, which no text can match")
        if act.wrong is not None and act.answer is None:
            bad(f"'{act.id}' has 'wrong' (the failed-answer text) but no answer")
        if not act.ends_game and (act.ending is not None or act.good is not None):
            bad(f"'{act.id}' sets 'ending'/'good' but does not end the game (ends_game: true?)")
        if act.ends_game and act.repeatable:
            bad(f"'{act.id}' ends the game, so it cannot be repeatable")
        if len(set(act.needs)) != len(act.needs):
            bad(f"'{act.id}' lists the same need twice")
    return out


def _graph(scenario: Scenario, facts: GraphFacts) -> list[Problem]:
    out: list[Problem] = []
    for act in scenario.actions:
        for need in act.needs:
            if need not in facts.by_id:
                out.append(_p("E002", f"'{act.id}' needs '{need}', which is not an action", act.id))
    for cycle in facts.cycles:
        ring = " → ".join([*cycle, cycle[0]]) if len(cycle) > 1 else f"{cycle[0]} → {cycle[0]}"
        out.append(_p("E003", f"needs form a cycle: {ring}", cycle[0]))
    for aid, why in facts.blocked.items():
        if why.why == "cycle" and aid in {a for c in facts.cycles for a in c}:
            continue  # reported as E003
        if why.why == "unknown":
            continue  # reported as E002
        if why.why == "ending":
            text = f"'{aid}' needs '{why.need}', which ends the game"
        elif why.why == "cycle":
            text = f"'{aid}' needs '{why.need}', which is caught in a cycle"
        else:
            text = f"'{aid}' needs '{why.need}', which can never happen"
        out.append(_p("E004", text, aid))
    return out


def _endings(scenario: Scenario, facts: GraphFacts, max_turns: int | None) -> list[Problem]:
    out: list[Problem] = []
    endings = [a for a in facts.by_id.values() if a.ends_game]
    if not endings:
        out.append(_p("E005", "no action has ends_game: true, so the game can never end"))
    elif not any(a.id in facts.reachable for a in endings):
        out.append(_p("E006", "no ending action can ever happen"))
    stuck = facts.stuck_state()
    if stuck is not None:
        left = [a for a in stuck if facts.by_id[a].repeatable]
        after = ", ".join(stuck) if stuck else "nothing"
        tail = (
            f"only repeatable actions ({', '.join(left)}) remain and they change nothing"
            if left
            else "nothing is available"
        )
        out.append(_p("E007", f"after doing {after}, {tail}, and no ending happened"))
    good = [a for a in endings if a.good and a.id in facts.reachable]
    if any(a.id in facts.reachable for a in endings) and not good:
        out.append(_p("W002", "no good ending (good: true) is reachable, so nobody can win"))
    if good and max_turns is not None:
        # A player must find the codes the walkthrough bot knows: count the clues too.
        shortest = len(player_way(scenario))
        if shortest > max_turns:
            out.append(
                _p(
                    "W006",
                    f"the shortest good ending takes {shortest} turns for a player who must "
                    f"find the answers; the limit is {max_turns}",
                )
            )
    return out


def _near_duplicates(facts: GraphFacts, threshold: float) -> list[Problem]:
    out: list[Problem] = []
    order = facts.order
    sets = [token_set(facts.by_id[aid].description) for aid in order]
    # Candidate pairs through a token index (text_index.py): the same pairs as comparing
    # all of them, in the same order, without the quadratic scan.
    for i, j, score in similar_pairs(sets, threshold):
        a, b = order[i], order[j]
        if facts.co_available(a, b):
            out.append(
                _p(
                    "W001",
                    f"'{a}' and '{b}' have near-identical descriptions ({score:.2f}) and "
                    "can be available together; the classifier cannot tell them apart",
                    a,
                )
            )
    return out


def _answers(scenario: Scenario, facts: GraphFacts) -> list[Problem]:
    out: list[Problem] = []
    descriptions = [a.description for a in scenario.actions]
    described = WordIndex(descriptions)
    # Texts a player may read before an action: (text, the action it belongs to or None).
    readable: list[tuple[str, str | None]] = [(scenario.intro, None)]
    readable += [(line, None) for line in scenario.world]
    for other in facts.by_id.values():
        readable += [(other.consequence, other.id), (other.hint or "", other.id)]
        readable += [(other.hint_again or "", other.id)]
    readable_index = WordIndex(text for text, _ in readable)
    for act in scenario.actions:
        if act.answer is None or not matchable(act.answer):
            continue
        if any(
            answer_in_text(act.answer, descriptions[n]) for n in described.candidates(act.answer)
        ):
            out.append(
                _p(
                    "W003",
                    f"the answer of '{act.id}' appears in an action description; "
                    "descriptions are shown to the classifier and in graph drawings",
                    act.id,
                )
            )
        if answer_in_text(act.answer, f"{act.hint or ''} {act.hint_again or ''}"):
            continue
        seen_before = False
        for n in readable_index.candidates(act.answer):
            text, owner = readable[n]
            if owner is not None and (owner == act.id or facts.is_ancestor(act.id, owner)):
                continue  # only things that can happen before this action count
            if answer_in_text(act.answer, text):
                seen_before = True
                break
        if not seen_before:
            out.append(
                _p(
                    "W004",
                    f"the answer of '{act.id}' is written nowhere the player can "
                    "read it before needing it; fine for a riddle, fatal for a code",
                    act.id,
                )
            )
    return out


def _phrasings(scenario: Scenario) -> list[Problem]:
    """The ``also`` phrasings: no answer in them (the classifier sees them, like the
    descriptions), and none that says another action as well (then the classifier cannot
    tell the two apart by it)."""
    out: list[Problem] = []
    said: dict[str, str] = {}
    for act in scenario.actions:
        said.setdefault(_plain(act.description), act.id)
    for act in scenario.actions:
        for text in act.also:
            for other in scenario.actions:
                if other.answer and matchable(other.answer) and answer_in_text(other.answer, text):
                    out.append(
                        _p(
                            "W007",
                            f"the answer of '{other.id}' appears in an also phrasing of "
                            f"'{act.id}' (\"{text}\"); phrasings are shown to the classifier",
                            act.id,
                        )
                    )
            owner = said.setdefault(_plain(text), act.id)
            if owner != act.id:
                out.append(
                    _p(
                        "W008",
                        f"'{act.id}' also says \"{text}\", which '{owner}' says too; the "
                        "classifier cannot tell the two apart by it",
                        act.id,
                    )
                )
    return out


def _thing_needs(scenario: Scenario, facts: GraphFacts) -> list[Problem]:
    out: list[Problem] = []
    for kind, things in (("place", scenario.places), ("object", scenario.objects)):
        for thing in things:
            for need in thing.needs:
                if need not in facts.by_id:
                    out.append(
                        _p("E009", f"{kind} '{thing.name}' needs '{need}', which is not an action")
                    )
    return out


def _descriptions(scenario: Scenario) -> list[Problem]:
    """Places and objects: each described, at least one place, and no answer given away
    (a description is shown to anyone who looks, whatever has happened)."""
    out: list[Problem] = []
    if scenario.objects and not scenario.places:
        out.append(
            _p(
                "W010",
                "objects but no place are described (add 'places'); a look at "
                "nothing in particular shows only the intro",
            )
        )
    for kind, things in (("place", scenario.places), ("object", scenario.objects)):
        for thing in things:
            if not (thing.description or "").strip():
                out.append(
                    _p(
                        "W009",
                        f"{kind} '{thing.name}' has no description; looking at it shows nothing",
                    )
                )
                continue
            for act in scenario.actions:
                if (
                    act.answer
                    and matchable(act.answer)
                    and answer_in_text(act.answer, thing.description or "")
                ):
                    out.append(
                        _p(
                            "W011",
                            f"the answer of '{act.id}' appears in the description of "
                            f"{kind} '{thing.name}', which anyone who looks sees",
                            act.id,
                        )
                    )
    return out


def _plain(text: str) -> str:
    return " ".join(text.lower().split())

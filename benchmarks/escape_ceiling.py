"""How high the escape classifier could score on the fresh rooms with its learned stage as it
is: an upper bound on *understood* under the issue's bounds (no wrong advance, at most 15%
of a set's messages asked).

    uv run python benchmarks/escape_ceiling.py            # samples from escape_fit's cache
    uv run python benchmarks/escape_ceiling.py --fresh    # collect them anew first

For each calibration set written for a fresh score (``escape/unseen*``, three rooms each;
the goal bounds a set's ask rate) the bound counts as understood, generously:

* every message the learned stage never sees (the rules picked or asked, or the message
  does not act), whatever the rules did with it;
* every message the stage sees whose label is ``none``, as if the stage always knew, and
  every one the game understands when the stage answers nothing (a password said alone:
  the engine reads it);
* every message whose likeliest action, by the learned decision (``learned.WEIGHTS``), is
  the labelled one with a probability above ``t*``, the highest probability of a wrong
  likeliest action on any calibration room (tuned rooms too): acting above it is the only
  threshold that advances nothing wrongly, even in-sample; and every message the hand-set
  gates (``understand.py``'s ``ACT``, ``LEAD``, ``APART``, ``VERB``) act on rightly (both
  are *sure acts*);
* of the rest, as many as the set's ask budget allows (15% of its messages less the asks
  the game makes with the stage answering nothing: the rules' own and those about their
  picks, counted as the game's scorer counts them) whose labelled action
  is among the two likeliest or the two the game would offer (``understand.closest_two``),
  as if the asks went to exactly those. A looser bound leaves the whole 15% to the stage,
  as if every ask before it were a right act instead.

A real classifier scores at most this with these features and these weights. The last
columns say how many asks 90% understood would need (every one sensible), what ask rate
that is with the rules' asks, and how many sure right acts it would need instead with the
ask budget spent.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.escape_fit import FRESH, Sample, load_samples, ranked, worst_wrong
from benchmarks.escape_rooms import calibration_sets, score_rooms
from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.rng import Rng
from parlour.core.view import AnyView
from parlour.games.escape import learned, policies, understand
from parlour.games.escape.evaluate import evaluate_classifier
from parlour.games.escape.labels import LabelSet
from parlour.games.escape.scenario import ASK_ID, NONE_ID

#: The goal's bounds.
GOAL = 0.90
ASK_RATE = 0.15


@dataclass
class Bound:
    messages: int = 0
    seen: int = 0  # messages with a deed the learned stage sees
    free: int = 0  # understood whatever the stage does (the generous counts above)
    acts: int = 0  # the likeliest is right above ``t*``
    askable: int = 0  # an ask could offer the labelled action
    rules_asks: int = 0
    now: int = 0  # understood by the game's scorer today
    now_asks: int = 0

    def row(self) -> dict[str, int]:
        """Every count of the table's row; a pooled row is the sum of its sets' rows (each
        set's ask budget is its own)."""
        budget = max(0, math.floor(ASK_RATE * self.messages) - self.rules_asks)
        wanted = math.ceil(GOAL * self.messages)
        return {
            **vars(self),
            "budget": budget,
            "bound": self.free + self.acts + min(budget, self.askable),
            # as if every ask before the stage were a right act: the whole budget is its
            "loose": self.free
            + self.acts
            + min(math.floor(ASK_RATE * self.messages), self.askable),
            # asks the stage would need for ``GOAL``, counting each as sensible
            "asks_needed": max(0, wanted - self.free - self.acts),
            # sure right acts it would need with the whole budget spent on sensible asks
            "acts_needed": max(0, wanted - self.free - budget),
        }


def wrong_ceiling(samples: Sequence[Sample]) -> float:
    """``t*``: ``worst_wrong`` with the shipped weights."""
    return worst_wrong(samples, learned.WEIGHTS)


def _sure(s: Sample, top: float) -> bool:
    """The deed is acted on rightly with no ask: the learned decision's likeliest is the
    label above ``top``, or the hand-set gates act on the label (they act on nothing wrongly
    by design; a wrong one of theirs is no sure act)."""
    if s.old == s.target and s.old not in (NONE_ID, ASK_ID):
        return True
    r = ranked(s, learned.WEIGHTS)
    return bool(r) and r[0][1] == s.target and r[0][0] > top


def _askable(s: Sample) -> bool:
    two = {oid for _, oid in ranked(s, learned.WEIGHTS)[:2]} | set(s.offered)
    if s.target == ASK_ID:
        return bool(s.options) and set(s.options) <= two
    return s.target in two


def bound_room(
    samples: Sequence[Sample], top: float, understood: set[int]
) -> tuple[int, int, int, int]:
    """(messages seen, free, acts, askable) over one room's samples, a message (``case``)
    counted once: free when all its deeds are labelled ``none`` or the game understands it
    when the stage answers nothing (``understood``: "PERLA" where saying the password is
    the action), an act when each labelled deed is a sure right act, else askable when its
    first other deed is."""
    cases: dict[int, list[Sample]] = {}
    for s in samples:
        cases.setdefault(s.case, []).append(s)
    free = acts = askable = 0
    for number, deeds in cases.items():
        wanted = [s for s in deeds if s.target != NONE_ID]
        if not wanted or number in understood:
            free += 1
            continue
        unsure = [s for s in wanted if not _sure(s, top)]
        if not unsure:
            acts += 1
        elif _askable(unsure[0]):
            askable += 1
    return len(cases), free, acts, askable


async def _decide(view: AnyView, decision: Decision) -> Action:
    return policies.keyword_classifier(view, decision, Rng(0))  # type: ignore[arg-type]


def without_the_stage() -> tuple[set[int], dict[str, int]]:
    """The fresh sets scored one message at a time (numbered as ``escape_fit.collect``
    numbers them) with the learned stage answering nothing: the messages the game then
    understands, and per room the asks it makes (the rules' own and those about their
    picks: the asks the stage's budget must leave room for, as the game's scorer counts
    them)."""
    stage = understand._unruled
    understand._unruled = lambda *_a, **_k: NONE_ID  # type: ignore[assignment]
    understood: set[int] = set()
    asked: dict[str, int] = {}

    async def run() -> None:
        number = 0
        for _group, room, _which, scenario, labels in calibration_sets():
            for case in labels.cases:
                number += 1
                if room not in FRESH:
                    continue
                one = LabelSet(scenario=labels.scenario, cases=(case,))
                score = await evaluate_classifier(_decide, scenario, one)
                if score.understood:
                    understood.add(number)
                asked[room] = asked.get(room, 0) + score.asked

    try:
        asyncio.run(run())
    finally:
        understand._unruled = stage  # type: ignore[assignment]
    return understood, asked


def main(fresh: bool, own: bool) -> None:
    samples = load_samples(fresh)
    top = wrong_ceiling(samples)
    groups_of = {room: group for group, room, *_ in calibration_sets(tuned=False)}
    tops = {  # ``--own-threshold``: each set's own highest wrong probability, as if known
        g: wrong_ceiling([s for s in samples if groups_of.get(s.room) == g]) if own else top
        for g in set(groups_of.values())
    }
    sets = [s for s in calibration_sets(tuned=False) if s[1] in FRESH]
    scored = asyncio.run(score_rooms(sets))
    understood_bare, asked_bare = without_the_stage()
    groups: dict[str, Bound] = {}
    for (group, room), (total, understood, _wrong, asked, _ms) in scored.items():
        b = groups.setdefault(group, Bound())
        seen, free, acts, askable = bound_room(
            [s for s in samples if s.room == room], tops[group], understood_bare
        )
        b.messages += total
        b.seen += seen
        b.free += total - seen + free
        b.acts += acts
        b.askable += askable
        b.rules_asks += asked_bare.get(room, 0)
        b.now += understood
        b.now_asks += asked
    in_order = sorted(groups.items(), key=lambda g: (len(g[0]), g[0]))  # unseen2 before unseen10
    rows = [(name, b.row()) for name, b in in_order]
    pooled = {k: sum(r[k] for _, r in rows) for k in rows[0][1]}
    if own:
        print("t* per set: " + ", ".join(f"{g} {t:.3f}" for g, t in sorted(tops.items())) + "\n")
    else:
        print(f"t* = {top:.3f} (the highest probability of a wrong likeliest action)\n")
    print(
        "| set | messages | seen by the stage | understood now | asked now | free | sure acts "
        "| askable | ask budget | bound | bound, no ask before the stage "
        "| asks for 90% | ask rate for 90% | sure acts for 90% |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, r in [*rows, ("**pooled**", pooled)]:
        n = r["messages"]
        print(
            f"| {name} | {n} | {r['seen']} | {r['now'] / n:.1%} ({r['now']}) "
            f"| {r['now_asks'] / n:.1%} | {r['free']} | {r['acts']} | {r['askable']} "
            f"| {r['budget']} | **{r['bound'] / n:.1%}** ({r['bound']}) | {r['loose'] / n:.1%} "
            f"| {r['asks_needed']} | {(r['asks_needed'] + r['rules_asks']) / n:.1%} "
            f"| {r['acts_needed']} |"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fresh", action="store_true", help="collect the samples anew")
    parser.add_argument(
        "--own-threshold",
        action="store_true",
        help="each set's t* from its own samples only (looser still: known only in hindsight)",
    )
    args = parser.parse_args()
    main(args.fresh, args.own_threshold)

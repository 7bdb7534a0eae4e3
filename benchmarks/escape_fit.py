"""Fitting the escape classifier's learned decision (``games/escape/learned.py``) on the
calibration rooms, and its leave-one-room-out figures.

    uv run python benchmarks/escape_fit.py --fresh     # collect the samples, fit, print the
                                                       # constants and the simulated figures
    uv run python benchmarks/escape_fit.py --score     # and score every room with the game's
                                                       # scorer: in-sample, then each room
                                                       # with a fit that never saw it

Samples: every message (each deed of a message of several) of every calibration set
(``escape_rooms.calibration_sets``), asked as the game asks the classifier, that the frozen
rules stage finds no action in and ``understand.vetoed`` lets through. One row per offered
action (``learned.candidate_rows``), labelled 1 for the labelled action. Each room weighs
the same in the fit. ``ACT_P`` is the highest probability of a wrong pick on the rooms
fitted on, plus ``MARGIN``; ``ASK_P`` the value that understands most on the rooms not
shipped (``TUNED``), with ``ASK_RATE`` and ``TUNED_DROP`` as bounds. The samples are kept
in ``CACHE`` between runs (``--fresh`` collects them anew: after any change to the rules,
the features or the label sets). Print the constants into ``learned.py`` by hand.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import pickle
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.escape_rooms import calibration_sets, score_rooms, table
from parlour.core.view import AnyView
from parlour.games.escape import learned, policies, understand
from parlour.games.escape.evaluate import evaluate_classifier
from parlour.games.escape.labels import LabelSet
from parlour.games.escape.scenario import ASK_ID, NONE_ID

#: One cache per checkout: two worktrees (or two users) never read each other's samples.
_ROOT = Path(__file__).resolve().parents[1]
CACHE = Path(tempfile.gettempdir()) / (
    f"escape_fit_samples-{hashlib.sha256(str(_ROOT).encode()).hexdigest()[:12]}.pkl"
)
#: Added to the highest probability of a wrong pick on the rooms fitted on.
MARGIN = 0.08
#: A threshold no probability reaches: that part of the learned decision is off.
NO_ASK = 2.0
#: The most a room may ask, of all its messages.
ASK_RATE = 0.15
#: Per calibration room: its messages (all its sets), and how often the rules stage asked.
ROOM_MESSAGES: dict[str, int] = {}
RULES_ASKED: dict[str, int] = {}
L2 = 1.0


@dataclass
class Sample:
    room: str
    #: which labelled message of the calibration sets (a message of several deeds may
    #: give several samples)
    case: int
    message: str
    #: the labelled action, ``none``, or ``ask`` (then ``options``)
    target: str
    options: tuple[str, ...] = ()
    may_ask: bool = True
    rows: list[tuple[str, list[float]]] = field(default_factory=list)
    #: what ``understand`` answers with the learned decision off (its hand-set gates)
    old: str = NONE_ID
    #: the two actions an ask offers (``understand.closest_two``)
    offered: tuple[str, ...] = ()
    #: the learned decision never asks about it (``understand.ask_barred``)
    barred: bool = False


def collect() -> list[Sample]:
    """Every calibration message the rules find nothing in, with its rows and label."""
    samples: list[Sample] = []
    plain = understand.understand
    calls: list[tuple[str, Any, Any, Any, str, dict[str, Any]]] = []
    rules_asked: dict[str, int] = {}

    steps: list[str] = []

    def recording(message: str, options: Any, **kw: Any) -> str:
        ruled = understand.classify_with_phrasings(message, options, **kw)
        calls.append(
            (message, options, kw.get("unoffered", ()), kw.get("phrasings", ()), ruled, kw)
        )
        if ruled != NONE_ID:
            return plain(message, options, **kw)
        # Several deeds: the labelled step happens (teacher forcing), so the later deeds
        # are asked in the state the label means.
        done = sum(1 for c in calls[:-1] if c[4] != ASK_ID)
        want = steps[done] if done < len(steps) else NONE_ID
        return want if any(o == want for o, _ in options) else NONE_ID

    policies.understand = recording  # type: ignore[assignment]

    async def decide(view: AnyView, decision: Any) -> Any:
        return policies.keyword_classifier(view, decision, policies.Rng(0))  # type: ignore[arg-type]

    async def run() -> None:
        number = 0
        for _group, room, _which, scenario, labels in calibration_sets():
            for case in labels.cases:
                number += 1
                calls.clear()
                steps[:] = case.steps
                one = LabelSet(scenario=labels.scenario, cases=(case,))
                await evaluate_classifier(decide, scenario, one)
                if case.steps and len(calls) != len(case.steps):
                    continue  # the deeds were split otherwise than the label's steps
                for n, (message, options, unoffered, phrasings, ruled, kw) in enumerate(calls):
                    asks = ruled == ASK_ID or (  # the rules asked, or their pick is asked about
                        ruled != NONE_ID and plain(message, options, **kw) == ASK_ID
                    )
                    if asks:
                        rules_asked[room] = rules_asked.get(room, 0) + 1
                        break
                    last = n == len(calls) - 1
                    if case.steps:
                        target = case.steps[n] if n < len(case.steps) else NONE_ID
                    else:
                        target = case.expect if last else NONE_ID
                    if ruled != NONE_ID or understand.vetoed(message, options):
                        continue  # the rules' pick, or a message the stage never acts on
                    offered = [(o, t) for o, t in options if o not in (NONE_ID, ASK_ID)]
                    rows = learned.candidate_rows(
                        message, offered, unoffered=unoffered, phrasings=phrasings
                    )
                    old = plain(message, options, **kw)
                    samples.append(
                        Sample(
                            room=room,
                            case=number,
                            message=message,
                            target=target,
                            options=case.options if target == ASK_ID else (),
                            may_ask=any(o == ASK_ID for o, _ in options),
                            rows=rows,
                            old=old,
                            offered=tuple(understand.closest_two(message, options)),
                            barred=understand.ask_barred(message),
                        )
                    )

    kept = learned.ACT_P, learned.ASK_P
    learned.ACT_P, learned.ASK_P = 2.0, 2.0  # the hand-set gates alone answer ``old``
    try:
        asyncio.run(run())
    finally:
        policies.understand = plain  # type: ignore[assignment]
        learned.ACT_P, learned.ASK_P = kept
    RULES_ASKED.update(rules_asked)
    return samples


def matrix(samples: Sequence[Sample], rooms: set[str]) -> tuple[Any, Any, Any]:
    xs, ys, ws = [], [], []
    per_room: dict[str, int] = {}
    for s in samples:
        if s.room in rooms:
            per_room[s.room] = per_room.get(s.room, 0) + 1
    for s in samples:
        if s.room not in rooms:
            continue
        for oid, x in s.rows:
            xs.append(x)
            ys.append(1.0 if oid == s.target else 0.0)
            ws.append(1.0 / per_room[s.room])
    return np.array(xs), np.array(ys), np.array(ws) * len(per_room)


def fit(samples: Sequence[Sample], rooms: set[str]) -> list[float]:
    """Logistic regression (L2 on all but the bias), by Newton's method."""
    x, y, w = matrix(samples, rooms)
    k = x.shape[1]
    beta = np.zeros(k)
    reg = np.full(k, L2)
    reg[0] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ beta, -30, 30)))
        grad = x.T @ (w * (p - y)) + reg * beta
        hess = (x * (w * p * (1 - p))[:, None]).T @ x + np.diag(reg + 1e-6)
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    return [round(float(b), 4) for b in beta]


def ranked(s: Sample, weights: Sequence[float]) -> list[tuple[float, str]]:
    return sorted(
        ((learned.probability(x, weights), oid) for oid, x in s.rows), key=lambda t: -t[0]
    )


@dataclass
class Tally:
    total: int = 0
    understood: int = 0
    wrong: int = 0
    asked: int = 0


def outcome(s: Sample, r: list[tuple[float, str]], act: float, ask: float) -> tuple[str, bool]:
    """(``act``/``ask``/``none``, understood), as ``understand.understand`` decides after
    the rules found nothing: the learned act, the hand-set gates, then the learned ask."""

    def asked() -> tuple[str, bool]:
        two = set(s.offered)
        if s.target == ASK_ID:
            return "ask", bool(two) and (two <= set(s.options) or set(s.options) <= two)
        return "ask", s.target in two

    if r and r[0][0] >= act:
        return "act", r[0][1] == s.target
    if s.old not in (NONE_ID, ASK_ID):
        return "act", s.old == s.target
    if s.old == ASK_ID:
        return asked()
    if s.may_ask and not s.barred and len(r) > 1 and r[0][0] >= ask and not _elsewhere(s, r[0][1]):
        return asked()
    return "none", s.target == NONE_ID


def _elsewhere(s: Sample, oid: str) -> bool:
    """``learned.points_elsewhere`` for the row of ``oid``."""
    return learned.points_elsewhere(dict(s.rows)[oid])


def tally(
    samples: Sequence[Sample], weights: Sequence[float], act: float, ask: float
) -> dict[str, Tally]:
    out: dict[str, Tally] = {}
    for s in samples:
        t = out.setdefault(s.room, Tally())
        kind, ok = outcome(s, ranked(s, weights), act, ask)
        t.total += 1
        t.understood += ok
        t.wrong += kind == "act" and not ok
        t.asked += kind == "ask"
    return out


def worst_wrong(samples: Sequence[Sample], weights: Sequence[float]) -> float:
    """The highest probability of a likeliest action that is not the label (0.0 for none):
    acting only above it acts on nothing wrongly on these samples."""
    return max(
        (r[0][0] for s in samples if (r := ranked(s, weights)) and r[0][1] != s.target),
        default=0.0,
    )


def threshold(samples: Sequence[Sample], weights: Sequence[float]) -> float:
    """``ACT_P``: above every wrong pick on the rooms fitted on, plus ``MARGIN``."""
    return round(min(0.99, worst_wrong(samples, weights) + MARGIN), 4)


#: The shipped rooms: their label sets were written before a label could say ``ask``, so
#: they bound the asks (``TUNED_DROP``) but are not what the asks are chosen for.
TUNED = ("ghost_room", "stalled_lift")
#: The rooms written for a fresh score (``escape/unseen*``): the ask rate is bounded on
#: them together (the example rooms' older blind sets ask less, and would hide it).
FRESH: set[str] = set()
#: The most a shipped room's understood may fall, as a share of its messages.
TUNED_DROP = 0.01


def ask_threshold(samples: Sequence[Sample], weights: Sequence[float], act: float) -> float:
    """``ASK_P``: the value that understands most on the other rooms fitted on while they ask
    at most ``ASK_RATE`` of their messages together (the rooms of ``FRESH``; the rules' asks
    counted) and no shipped
    room loses more than ``TUNED_DROP`` of its messages."""
    gates = tally(samples, weights, act, NO_ASK)
    best, chosen = -1, NO_ASK
    for cand in [NO_ASK] + [i / 100 for i in range(95, 9, -5)]:
        out = tally(samples, weights, act, cand)
        rooms = [r for r in out if r not in TUNED]
        fresh = [r for r in rooms if r in FRESH]
        asked = sum(out[r].asked + RULES_ASKED.get(r, 0) for r in fresh)
        if asked > ASK_RATE * sum(ROOM_MESSAGES[r] for r in fresh):
            continue
        if any(
            gates[r].understood - out[r].understood > TUNED_DROP * ROOM_MESSAGES[r]
            for r in TUNED
            if r in out
        ):
            continue
        got = sum(out[r].understood for r in rooms)
        if got > best:
            best, chosen = got, cand
    return chosen


def loo(samples: Sequence[Sample]) -> dict[str, tuple[list[float], float, float]]:
    rooms = sorted({s.room for s in samples})
    out = {}
    for held in rooms:
        train = [s for s in samples if s.room != held]
        w = fit(train, {s.room for s in train})
        act = threshold(train, w)
        out[held] = (w, act, ask_threshold(train, w, act))
    return out


def show(title: str, out: dict[str, Tally]) -> None:
    print(title)
    print("| room | samples | understood | wrong acts | asked |")
    print("|---|---|---|---|---|")
    tot = Tally()
    for room, t in out.items():
        print(f"| {room} | {t.total} | {t.understood} | {t.wrong} | {t.asked} |")
        tot.total += t.total
        tot.understood += t.understood
        tot.wrong += t.wrong
        tot.asked += t.asked
    print(f"| all | {tot.total} | {tot.understood} | {tot.wrong} | {tot.asked} |")


def load_samples(fresh: bool) -> list[Sample]:
    """The samples (from ``CACHE`` unless ``fresh``), with ``ROOM_MESSAGES``, ``FRESH`` and
    ``RULES_ASKED`` filled in."""
    ROOM_MESSAGES.clear()
    for group, room, _w, _s, labels in calibration_sets():
        ROOM_MESSAGES[room] = ROOM_MESSAGES.get(room, 0) + len(labels.cases)
        if group.startswith("unseen"):
            FRESH.add(room)
    if CACHE.exists() and not fresh:
        samples, asked = pickle.loads(CACHE.read_bytes())
        RULES_ASKED.update(asked)
        return list(samples)
    samples = collect()
    CACHE.write_bytes(pickle.dumps((samples, RULES_ASKED)))
    return samples


def main(score: bool, fresh: bool) -> None:
    samples = load_samples(fresh)
    rooms = {s.room for s in samples}
    w = fit(samples, rooms)
    act = threshold(samples, w)
    ask = ask_threshold(samples, w, act)
    print("WEIGHTS =", tuple(w))
    print(f"ACT_P = {act}\nASK_P = {ask}")
    show(
        "hand-set gates alone (the messages the rules find nothing in)",
        tally(samples, w, NO_ASK, NO_ASK),
    )
    show("in-sample (all rooms fitted on)", tally(samples, w, act, ask))
    folds = loo(samples)
    held: dict[str, Tally] = {}
    for room, (fw, fa, fk) in folds.items():
        held[room] = tally([s for s in samples if s.room == room], fw, fa, fk)[room]
        print(f"  fold {room}: ACT_P {fa} ASK_P {fk}")
    show("leave-one-room-out (the messages the rules find nothing in)", held)
    if score:
        everything = calibration_sets()
        learned.WEIGHTS, learned.ACT_P, learned.ASK_P = tuple(w), act, ask
        print("in-sample, the game's scorer:")
        table(asyncio.run(score_rooms(everything)))
        print("leave-one-room-out, the game's scorer (each room with its fold's fit):")
        out = {}
        for room, (fw, fa, fk) in folds.items():
            learned.WEIGHTS, learned.ACT_P, learned.ASK_P = tuple(fw), fa, fk
            out.update(asyncio.run(score_rooms([s for s in everything if s[1] == room])))
        table(out)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--score", action="store_true")
    parser.add_argument("--fresh", action="store_true", help="collect the samples anew")
    args = parser.parse_args()
    main(args.score, args.fresh)

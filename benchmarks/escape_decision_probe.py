"""Would another shape of the escape classifier's learned decision act on more messages
without a wrong advance? A probe, not a part of the game.

    uv run python benchmarks/escape_decision_probe.py           # samples from escape_fit's cache
    uv run python benchmarks/escape_decision_probe.py --fresh   # collect them anew first

``learned.py`` scores each offered action on its own (a logistic model per row). Here the
offered actions and "nothing" compete in one softmax (a conditional logit): each action's
utility is ``w . x`` over its row of ``learned.FEATURES``, nothing's is ``v . x`` over the row
of the action closest by similarity, so the model learns when the best of the room is still
not meant. A message labelled ``none`` or ``ask`` (or with an action not offered) has
"nothing" as its answer: neither should be acted on. Fitted by Adam on the weighted
log-likelihood (every room weighs the same, L2 on all but the biases) to convergence, on
the samples ``escape_fit.py`` collects.

Printed, as ``escape_encoder_probe.py`` prints them for the shipped shape: *sure acts*, the
messages whose likeliest action is right above ``t*`` (the highest probability of a wrong
likeliest action on the rooms fitted on), in-sample and leave-one-room-out, each room with
the weights and ``t*`` of the others (its wrong sure acts are wrong advances).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import benchmarks.escape_fit as fit
from benchmarks.escape_encoder_probe import compare
from parlour.games.escape import learned

L2 = 1.0
STEPS = 20000
RATE = 0.05
CHECK = 50
TOLERANCE = 1e-7


@dataclass
class Case:
    room: str
    rows: Any  # (actions, features)
    closest: Any  # the features of the action closest by similarity
    answer: int  # the labelled action's row, or len(rows) for "nothing"


def cases(samples: Sequence[fit.Sample]) -> list[Case]:
    out = []
    for s in samples:
        rows = np.array([x for _, x in s.rows], dtype=float)
        ids = [oid for oid, _ in s.rows]
        answer = ids.index(s.target) if s.target in ids else len(ids)
        out.append(Case(s.room, rows, rows[int(np.argmax(rows[:, 1]))], answer))
    return out


def _chances(c: Case, w: Any, v: Any) -> Any:
    u = np.append(c.rows @ w, c.closest @ v)
    u = np.exp(u - u.max())
    return u / u.sum()


def fit_softmax(train: Sequence[Case]) -> tuple[Any, Any]:
    """(w, v) by Adam on the room-weighted log-likelihood, to convergence (the loss moves by
    less than ``TOLERANCE`` over ``CHECK`` steps, at most ``STEPS``)."""
    k = train[0].rows.shape[1]
    most = max(len(c.rows) for c in train)
    rows = np.zeros((len(train), most, k))
    hole = np.full((len(train), most + 1), -np.inf)  # padding rows take no share
    for i, c in enumerate(train):
        rows[i, : len(c.rows)] = c.rows
        hole[i, : len(c.rows)] = 0.0
        hole[i, most] = 0.0
    closest = np.array([c.closest for c in train])
    answer = np.array([c.answer if c.answer < len(c.rows) else most for c in train])
    per: dict[str, int] = {}
    for c in train:
        per[c.room] = per.get(c.room, 0) + 1
    weight = np.array([1.0 / (per[c.room] * len(per)) for c in train])
    theta = np.zeros(2 * k)
    mean, square = np.zeros(2 * k), np.zeros(2 * k)
    shrink = np.full(2 * k, L2)
    shrink[0] = shrink[k] = 0.0  # the biases
    last = np.inf
    for step in range(1, STEPS + 1):
        w, v = theta[:k], theta[k:]
        u = np.concatenate([rows @ w, (closest @ v)[:, None]], axis=1) + hole
        u -= u.max(axis=1, keepdims=True)
        p = np.exp(u)
        p /= p.sum(axis=1, keepdims=True)
        if step % CHECK == 0:
            loss = -float(np.sum(weight * np.log(p[np.arange(len(train)), answer])))
            if abs(last - loss) < TOLERANCE:
                break
            last = loss
        g = p.copy()
        g[np.arange(len(train)), answer] -= 1.0
        g *= weight[:, None]
        grad = shrink * theta / len(train)
        grad[:k] += np.einsum("nr,nrk->k", g[:, :most], rows)
        grad[k:] += g[:, most] @ closest
        mean = 0.9 * mean + 0.1 * grad
        square = 0.999 * square + 0.001 * grad * grad
        theta -= RATE * (mean / (1 - 0.9**step)) / (np.sqrt(square / (1 - 0.999**step)) + 1e-8)
    return theta[:k], theta[k:]


def _likeliest(c: Case, w: Any, v: Any) -> tuple[int, float]:
    p = _chances(c, w, v)[:-1]
    best = int(np.argmax(p))
    return best, float(p[best])


def wrong_ceiling(train: Sequence[Case], w: Any, v: Any) -> float:
    return max(
        (p for c in train for best, p in [_likeliest(c, w, v)] if best != c.answer),
        default=0.0,
    )


def sure(test: Sequence[Case], w: Any, v: Any, top: float) -> tuple[int, int]:
    """(right, wrong) acts above ``top``."""
    right = wrong = 0
    for c in test:
        best, p = _likeliest(c, w, v)
        if p > top:
            right += best == c.answer
            wrong += best != c.answer
    return right, wrong


def main(fresh: bool) -> None:
    samples = fit.load_samples(fresh)
    every = cases(samples)
    w, v = fit_softmax(every)
    top = wrong_ceiling(every, w, v)
    inside, _ = sure(every, w, v, top)
    right = wrong = 0
    for held in sorted({c.room for c in every}):
        train = [c for c in every if c.room != held]
        w, v = fit_softmax(train)
        r, x = sure([c for c in every if c.room == held], w, v, wrong_ceiling(train, w, v))
        right, wrong = right + r, wrong + x
    print(f"{len(every)} samples\n")
    print(
        "| decision | sure acts right (leave-one-room-out) | wrong | t* (all rooms) "
        "| sure acts (in-sample) |"
    )
    print("|---|---|---|---|---|")
    shipped = compare(samples, len(learned.FEATURES)).split(" | ")[:4]
    print(f"| per action (the shipped shape, refitted) | {' | '.join(shipped)} |")
    print(f"| one softmax with nothing | {right} | {wrong} | {top:.3f} | {inside} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fresh", action="store_true", help="collect the samples anew")
    main(parser.parse_args().fresh)

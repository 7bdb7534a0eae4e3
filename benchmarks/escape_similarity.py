"""Choosing the similarity stage's constants (``games/escape/understand.py``) on the
calibration rooms only: every label set of the shipped rooms, the example rooms' sets, and
the three rooms of ``escape/unseen/`` (calibration rooms since 2026-12-03). A room kept back
for a fresh score is never read here.

    uv run python benchmarks/escape_similarity.py            # the constants as they are
    uv run python benchmarks/escape_similarity.py --wrong    # and every wrong advance, missed ask
    uv run python benchmarks/escape_similarity.py --sweep    # a grid around them

The rules stage is frozen, so its answers are remembered across a sweep's runs.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.escape_labels import LABEL_SETS, load_labels
from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.rng import Rng
from parlour.core.view import AnyView
from parlour.games.escape import load_scenario, understand
from parlour.games.escape.evaluate import ClassifierScore, evaluate_classifier
from parlour.games.escape.labels import LabelSet, load_label_file
from parlour.games.escape.loader import shipped_names
from parlour.games.escape.policies import keyword_classifier
from parlour.games.escape.scenario import Scenario

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "escape"
UNSEEN = ROOT / "benchmarks" / "escape" / "unseen"

_plain = understand.classify_with_phrasings
_seen: dict[str, str] = {}


def _rules(message: str, options: object, **kw: object) -> str:
    key = repr((message, options, sorted(kw.items())))
    if key not in _seen:
        _seen[key] = _plain(message, options, **kw)  # type: ignore[arg-type]
    return _seen[key]


understand.classify_with_phrasings = _rules  # type: ignore[assignment]

Sets = list[tuple[str, str, Scenario, LabelSet]]


def calibration() -> Sets:
    """(group, name, room, labels) of every calibration set."""
    sets: Sets = [
        ("tuned", f"{name}/{which}", load_scenario(name), load_labels(name, which))
        for name in shipped_names()
        for which in LABEL_SETS
    ]
    for room in sorted(EXAMPLES.glob("*.yaml")):
        if room.name.count(".") == 1:
            for labels in sorted(EXAMPLES.glob(f"{room.stem}.*.yaml")):
                sets.append(
                    ("examples", labels.stem, load_scenario(str(room)), load_label_file(labels))
                )
    for labels in sorted(UNSEEN.glob("*.unseen.yaml")):
        room = UNSEEN / f"{labels.name.split('.')[0]}.yaml"
        sets.append(("unseen", labels.stem, load_scenario(str(room)), load_label_file(labels)))
    return sets


async def decide(view: AnyView, decision: Decision) -> Action:
    return keyword_classifier(view, decision, Rng(0))  # type: ignore[arg-type]


GROUPS = ("tuned", "examples", "unseen")


async def score(sets: Sets, show: bool, wrong: bool) -> dict[str, tuple[int, int, int, int]]:
    """Per group: (messages, understood, wrongly advanced, asked)."""
    out = {g: (0, 0, 0, 0) for g in (*GROUPS, "all")}
    for group, name, scenario, labels in sets:
        s: ClassifierScore = await evaluate_classifier(decide, scenario, labels)
        for g in (group, "all"):
            t, u, w, a = out[g]
            out[g] = (t + s.total, u + s.understood, w + s.wrongly_advanced, a + s.asked)
        if show:
            print(
                f"| {name} | {s.understood_rate:.1%} ({s.understood}/{s.total}) "
                f"| {s.wrongly_advanced} | {s.ask_rate:.1%} | {s.accuracy:.1%} |"
            )
        if wrong:
            for m in s.mistakes:
                if m.advanced is not None and m.advanced != m.expected.split(" > ")[0]:
                    print(f"  WRONG {name}: {m.message!r} {m.expected} -> {m.advanced}")
                elif m.predicted == "ask":
                    print(f"  ASKED {name}: {m.message!r} {m.expected} -> {m.offered}")
    return out


def line(out: dict[str, tuple[int, int, int, int]]) -> str:
    return " · ".join(
        f"{g} {u / t:.2%} wrong {w} ask {a / t:.1%}" for g, (t, u, w, a) in out.items() if t
    )


async def main(sweep: bool, wrong: bool) -> None:
    sets = calibration()
    if not sweep:
        print("| set | understood | wrongly advanced | ask rate | accuracy |")
        print("|---|---|---|---|---|")
        out = await score(sets, True, wrong)
        for g, (t, u, w, a) in out.items():
            print(f"| {g} | {u / t:.1%} ({u}/{t}) | {w} | {a / t:.1%} | |")
        return
    chosen = {k: getattr(understand, k) for row in GRID for k in row}
    for row in GRID:
        for key, value in {**chosen, **row}.items():
            setattr(understand, key, value)
        out = await score(sets, False, False)
        said = " ".join(f"{k} {v}" for k, v in row.items()) or "as chosen"
        print(said, "|", line(out), flush=True)


#: Constants to try, each row from the chosen values (9.0 turns a stage off; VERB -1.0
#: turns the deed check off). The first row is the rules alone, the second as chosen.
GRID: list[dict[str, float]] = [
    {"KEEP": 9.0, "ACT": 9.0, "ASK": 9.0},
    {},
    {"ACT": 9.0},
    {"VERB": -1.0},
    {"ACT": 0.5, "LEAD": 0.3, "APART": 0.3},
    {"ACT": 0.6, "LEAD": 0.2, "APART": 0.2, "VERB": -1.0},
    {"ASK": 0.45},
    {"ASK": 0.55},
    {"APART_ASK": 0.1},
    {"APART_ASK": 0.2},
    {"APART_ASK": 0.3},
    {"KEEP": 0.3},
    {"KEEP": 0.1},
]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sweep", action="store_true")
    parser.add_argument("--wrong", action="store_true", help="list every wrong advance")
    args = parser.parse_args()
    asyncio.run(main(args.sweep, args.wrong))

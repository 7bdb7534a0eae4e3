"""Every calibration room of the escape classifier, scored room by room.

The calibration rooms: the shipped rooms (every set of ``escape/labels/``), the example
rooms (``examples/escape``, their blind sets) and the rooms of ``escape/unseen/``,
``unseen2/`` ... ``unseen10/`` (each scored once while held out,
calibration rooms since). Rooms still held out (``unseen11`` and later) are never read here.

    uv run python benchmarks/escape_rooms.py            # one row per room, then pooled
    uv run python benchmarks/escape_rooms.py --mistakes apothecary   # one room's misses
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
from parlour.games.escape import load_scenario
from parlour.games.escape.evaluate import ClassifierScore, evaluate_classifier
from parlour.games.escape.labels import LabelSet, load_label_file
from parlour.games.escape.loader import shipped_names
from parlour.games.escape.policies import keyword_classifier
from parlour.games.escape.scenario import Scenario

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "escape"
#: The once-held-out folders that are calibration rooms now (never a folder still held out).
CALIBRATION_FOLDERS = (
    "unseen",
    "unseen2",
    "unseen3",
    "unseen4",
    "unseen5",
    "unseen6",
    "unseen7",
    "unseen8",
    "unseen9",
    "unseen10",
)

#: (group, room, set name, scenario, labels)
Sets = list[tuple[str, str, str, Scenario, LabelSet]]


def calibration_sets(tuned: bool = True) -> Sets:
    """Every calibration set; ``tuned=False`` leaves the shipped rooms' sets out."""
    sets: Sets = []
    if tuned:
        for name in shipped_names():
            scenario = load_scenario(name)
            for which in LABEL_SETS:
                sets.append(("tuned", name, which, scenario, load_labels(name, which)))
    for room in sorted(EXAMPLES.glob("*.yaml")):
        if room.name.count(".") == 1:
            scenario = load_scenario(str(room))
            for labels in sorted(EXAMPLES.glob(f"{room.stem}.*.yaml")):
                sets.append(("examples", room.stem, labels.stem, scenario, load_label_file(labels)))
    for folder in CALIBRATION_FOLDERS:
        where = ROOT / "benchmarks" / "escape" / folder
        for labels in sorted(where.glob("*.unseen.yaml")):
            room = where / f"{labels.name.split('.')[0]}.yaml"
            sets.append(
                (folder, room.stem, labels.stem, load_scenario(str(room)), load_label_file(labels))
            )
    return sets


async def decide(view: AnyView, decision: Decision) -> Action:
    return keyword_classifier(view, decision, Rng(0))  # type: ignore[arg-type]


Row = tuple[int, int, int, int, list[float]]


async def score_rooms(sets: Sets, mistakes: str = "") -> dict[tuple[str, str], Row]:
    """Per (group, room): messages, understood, wrongly advanced, asked, ms per set."""
    out: dict[tuple[str, str], Row] = {}
    for group, room, which, scenario, labels in sets:
        s: ClassifierScore = await evaluate_classifier(decide, scenario, labels)
        t, u, w, a, ms = out.get((group, room), (0, 0, 0, 0, []))
        out[(group, room)] = (
            t + s.total,
            u + s.understood,
            w + s.wrongly_advanced,
            a + s.asked,
            [*ms, s.ms_per_message],
        )
        if mistakes in (room, which, "all"):
            for m in s.mistakes:
                wrong = m.advanced is not None and m.advanced != m.expected.split(" > ")[0]
                tag = "WRONG" if wrong else ("ASKED" if m.predicted == "ask" else "miss ")
                print(
                    f"  {tag} {which}: {m.message!r} [{m.expected}] -> {m.predicted}"
                    f"{' ' + str(m.offered) if m.offered else ''} state={list(m.state)}"
                )
    return out


def table(out: dict[tuple[str, str], Row]) -> None:
    print("| group | room | understood | wrongly advanced | ask rate | ms/message |")
    print("|---|---|---|---|---|---|")
    pooled: dict[str, tuple[int, int, int, int]] = {}
    for (group, room), (t, u, w, a, ms) in out.items():
        med = sorted(ms)[len(ms) // 2]
        print(f"| {group} | {room} | {u / t:.1%} ({u}/{t}) | {w} | {a / t:.1%} | {med:.1f} |")
        for g in dict.fromkeys((group, "tuned" if group == "tuned" else "untuned", "all")):
            pt, pu, pw, pa = pooled.get(g, (0, 0, 0, 0))
            pooled[g] = (pt + t, pu + u, pw + w, pa + a)
    for g, (t, u, w, a) in pooled.items():
        print(f"| **{g}** | pooled | {u / t:.1%} ({u}/{t}) | {w} | {a / t:.1%} | |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mistakes", default="", help="a room or set name, or all")
    parser.add_argument("--untuned", action="store_true", help="leave the shipped rooms out")
    args = parser.parse_args()
    sets = calibration_sets(not args.untuned)
    names = {name for _, room, which, _, _ in sets for name in (room, which)}
    if args.mistakes not in ("", "all", *names):
        rooms = ", ".join(sorted({room for _, room, _, _, _ in sets}))
        sys.exit(f"error: no calibration room or set '{args.mistakes}'; --mistakes takes {rooms}")
    table(asyncio.run(score_rooms(sets, args.mistakes)))

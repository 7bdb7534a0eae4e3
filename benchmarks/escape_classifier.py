"""The escape scripted classifier (keyword rules, then the similarity stage:
``games/escape/understand.py``) on the shipped rooms' labelled sets, per scenario.

    uv run python benchmarks/escape_classifier.py      # every labelled set, one table
    uv run python benchmarks/escape_classifier.py --mistakes blind2

Every set of ``escape/labels/sets.yaml`` but its ``not_tuned_on`` (blind16-18) has been read
and tuned on (blind9 since the tenth step, blind10-12 since the eleventh, blind13-15 since
the twelfth); each blind set's one score at the frozen classifier before it was opened is
in docs/benchmarks.md, and only a set nobody has tuned on (blind16-18) is an honest figure.
``--mistakes`` lists one named set's misses.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.rng import Rng
from parlour.core.view import AnyView
from parlour.games.escape import load_scenario
from parlour.games.escape.evaluate import evaluate_classifier
from parlour.games.escape.loader import shipped_names
from parlour.games.escape.policies import keyword_classifier

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.escape_labels import LABEL_SETS, load_labels


async def keyword(view: AnyView, decision: Decision) -> Action:
    return keyword_classifier(view, decision, Rng(0))


async def main(mistakes: str | None) -> None:
    print(
        "| set | scenario | accuracy | understood | wrongly advanced | asked | outcome accuracy |"
    )
    print("|---|---|---|---|---|---|---|")
    total = correct = understood = wrong = asked = 0
    for which in LABEL_SETS:
        for name in shipped_names():
            score = await evaluate_classifier(
                keyword, load_scenario(name), load_labels(name, which)
            )
            print(
                f"| {which} | {name} | {score.accuracy:.1%} ({score.correct}/{score.total}) "
                f"| {score.understood_rate:.1%} ({score.understood}) "
                f"| {score.wrongly_advanced} | {score.asked} | {score.outcome_accuracy:.1%} |"
            )
            total += score.total
            correct += score.correct
            understood += score.understood
            wrong += score.wrongly_advanced
            asked += score.asked
            if which == mistakes:
                for m in score.mistakes:
                    flag = f" ADVANCED {m.advanced}" if m.advanced else ""
                    print(
                        f"    {m.message!r} [{','.join(m.state)}] expected {m.expected}, "
                        f"got {m.predicted}{flag}"
                    )
    print(
        f"| all | both | {correct / total:.1%} ({correct}/{total}) "
        f"| {understood / total:.1%} ({understood}) | {wrong} | {asked} | |"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mistakes", choices=list(LABEL_SETS), default=None)
    asyncio.run(main(parser.parse_args().mistakes))

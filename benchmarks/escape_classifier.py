"""The escape keyword classifier on its three labelled sets, per scenario.

    uv run python benchmarks/escape_classifier.py           # tuning, heldout, check, blind
    uv run python benchmarks/escape_classifier.py --mistakes tuning

``tuning``, ``heldout`` and ``check`` have all been read and tuned on (the head-noun step
looked at all three); ``blind`` was written by another engineer without seeing the
classifier and is the honest figure. ``--mistakes`` lists one named set's misses (read the
blind set's only to report, never to tune).
"""

from __future__ import annotations

import argparse
import asyncio

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.rng import Rng
from parlour.core.view import AnyView
from parlour.games.escape import load_scenario
from parlour.games.escape.evaluate import evaluate_classifier
from parlour.games.escape.labels import LABEL_SETS, load_labels
from parlour.games.escape.loader import shipped_names
from parlour.games.escape.policies import keyword_classifier


async def keyword(view: AnyView, decision: Decision) -> Action:
    return keyword_classifier(view, decision, Rng(0))


async def main(mistakes: str | None) -> None:
    print("| set | scenario | accuracy | wrongly advanced | asked | outcome accuracy |")
    print("|---|---|---|---|---|---|")
    for which in LABEL_SETS:
        for name in shipped_names():
            score = await evaluate_classifier(
                keyword, load_scenario(name), load_labels(name, which)
            )
            print(
                f"| {which} | {name} | {score.accuracy:.1%} ({score.correct}/{score.total}) "
                f"| {score.wrongly_advanced} | {score.asked} | {score.outcome_accuracy:.1%} |"
            )
            if which == mistakes:
                for m in score.mistakes:
                    flag = f" ADVANCED {m.advanced}" if m.advanced else ""
                    print(
                        f"    {m.message!r} [{','.join(m.state)}] expected {m.expected}, "
                        f"got {m.predicted}{flag}"
                    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mistakes", choices=list(LABEL_SETS), default=None)
    asyncio.run(main(parser.parse_args().mistakes))

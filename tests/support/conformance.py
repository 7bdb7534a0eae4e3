"""The conformance suite as the games' tests run it: counts of seeds instead of ranges.

``conforms(MODULE, configs, games=240, replays=50, leaks=30)`` plays the first 240 seeds to
the end, replays the first 50, leak-scans the first 30 and probes the decisions of the first
``decisions``; ``conformance.check`` itself fails a property that was run but checked nothing.
"""

from __future__ import annotations

from parlour.core import conformance
from parlour.core.conformance import ConfigFactory, Report
from parlour.core.module import GameModule


def conforms(
    module: GameModule,
    configs: ConfigFactory,
    *,
    games: int,
    replays: int = 0,
    leaks: int = 0,
    decisions: int = 0,
    marked: ConfigFactory | None = None,
    samples: int = 3,
) -> Report:
    report = conformance.check(
        module,
        configs=configs,
        marked=marked,
        seeds=range(games),
        replay_seeds=range(replays),
        leak_seeds=range(leaks),
        decision_seeds=range(decisions),
        samples=samples,
    )
    assert report.games_terminated == games
    return report

"""Share intervals: Wilson, always within 0-100%, also for a handful of games."""

from __future__ import annotations

import pytest

from parlour.core.stats import share_ci, wilson


def test_wilson_matches_the_textbook_values() -> None:
    # 8 successes in 10 trials: the Wilson 95% interval is 0.490-0.943.
    low, high = wilson(0.8, 10)
    assert (round(low, 3), round(high, 3)) == (0.490, 0.943)
    # all or nothing still gets an interval of positive width inside [0, 1]
    assert wilson(1.0, 5)[1] == 1.0 and 0.5 < wilson(1.0, 5)[0] < 0.6
    assert wilson(0.0, 5)[0] == 0.0 and 0.4 < wilson(0.0, 5)[1] < 0.5
    assert wilson(0.5, 0) == (0.0, 1.0)


@pytest.mark.parametrize(
    "values",
    [[0.9, 0.1], [1.0, 0.0], [0.62, 0.06], [1.0], [0.0, 0.0, 0.0], [0.5] * 4, [1.0, 1.0]],
)
def test_share_intervals_stay_within_0_and_1_and_hold_the_mean(values: list[float]) -> None:
    ci = share_ci(values)
    assert 0.0 <= ci.low <= ci.mean <= ci.high <= 1.0
    assert ci.n == len(values)


def test_two_games_far_apart_give_a_wide_interval_not_one_past_100_percent() -> None:
    # the case: two games gave [-68.0%, 112.6%] with the t interval
    ci = share_ci([0.9, 0.0])
    assert 0.0 <= ci.low < 0.01 and 0.99 < ci.high <= 1.0
    assert share_ci([0.3]).low == 0.0 and share_ci([0.3]).high == 1.0  # one game: no idea


def test_many_games_of_a_steady_share_narrow_like_the_t_interval() -> None:
    values = [0.15, 0.16] * 14  # 28 games of a share that barely moves
    ci = share_ci(values)
    assert ci.high - ci.low < 0.02
    assert ci.low < 0.155 < ci.high
    # 0/1 outcomes: the plain Wilson interval over the games
    wins = [1.0] * 7 + [0.0] * 3
    assert (share_ci(wins).low, share_ci(wins).high) == pytest.approx(
        wilson(0.7, 10, 2.262), abs=1e-12
    )

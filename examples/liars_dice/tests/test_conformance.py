"""The conformance suite every parlour game passes, in one call."""

from __future__ import annotations

from parlour_liars_dice import MODULE

from parlour.core import conformance


def test_conformance() -> None:
    report = conformance.check(MODULE, seeds=range(8), decision_seeds=range(2))
    assert report.games_terminated == 8
    assert report.views_scanned > 0 and report.answers_tried > 0


def test_conformance_at_a_full_table_of_one_die_each() -> None:
    report = conformance.check(
        MODULE,
        seeds=range(6),
        configs=lambda _seed: MODULE.make_config(6, {"dice": 1, "max_raise": 1}),
        decision_seeds=range(2),
    )
    assert report.games_terminated == 6

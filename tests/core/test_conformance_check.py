"""``conformance.check`` plays a seed that is both played to the end and replayed only once;
its replay check must still catch a game whose replay differs."""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

import pytest

from parlour.core import conformance
from tests.toy import game as toy

_BUILT = itertools.count()


class DriftingToy(toy.ToyGame):
    """The toy, except that its state records how many games were built before it: the
    same seed and actions no longer rebuild the same state."""

    def __init__(self, config: toy.ToyConfig, seed: int) -> None:
        super().__init__(config, seed)
        self._built = next(_BUILT)

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "built": self._built}


DRIFTING = dataclasses.replace(toy.MODULE, game=DriftingToy)


def test_the_toy_passes_with_replays_inside_and_outside_the_played_seeds() -> None:
    report = conformance.check(
        toy.MODULE, seeds=range(4), replay_seeds=range(2, 6), leak_seeds=(), decision_seeds=()
    )
    assert (report.games_terminated, report.games_replayed) == (4, 4)


@pytest.mark.parametrize("replays", [range(1, 2), range(5, 6)], ids=["played", "not-played"])
def test_a_replay_that_differs_fails_whether_or_not_its_seed_was_played(replays: range) -> None:
    with pytest.raises(AssertionError, match=r"seed [15]: replay produced a different state"):
        conformance.check(
            DRIFTING, seeds=range(3), replay_seeds=replays, leak_seeds=(), decision_seeds=()
        )

"""core.wording.distinct_line: seeded, avoids said lines and 8-token echoes, never silent."""

from __future__ import annotations

import pytest

from parlour.core.rng import Rng
from parlour.core.wording import distinct_line

WORDINGS = ["I say Kenji tonight.", "How about Kenji?", "My pick for tonight is Kenji."]


def test_same_seed_same_line_and_said_lines_are_passed_over() -> None:
    assert distinct_line(WORDINGS, [], Rng(3)) == distinct_line(WORDINGS, [], Rng(3))
    for seed in range(20):
        said = [w for w in WORDINGS if w != "How about Kenji?"]
        assert distinct_line(WORDINGS, said, Rng(seed)) == "How about Kenji?"


def test_a_shared_eight_token_run_counts_as_said() -> None:
    long = "Aiko voted for Omar, who was a villager, so Aiko gets my vote."
    short = "I suspect Aiko, since Omar the villager got her ballot."
    label = ["accuse Aiko: voted for Omar, who was a villager"]
    for seed in range(20):
        assert distinct_line([long, short], [], Rng(seed), echo=label) == short


def test_exhausted_wordings_still_give_the_least_repeated_line() -> None:
    line = distinct_line(WORDINGS, WORDINGS, Rng(1))
    assert line in WORDINGS
    with pytest.raises(ValueError, match="at least one"):
        distinct_line([], [], Rng(1))

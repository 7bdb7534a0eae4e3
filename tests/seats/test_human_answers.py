"""What a person types at a terminal prompt, read into an action (``seats/human.py``)."""

from __future__ import annotations

import pytest

from parlour.core.actions import Choice, Choices
from parlour.core.decisions import DecisionKind, Option
from parlour.seats.human import parse_human_answer
from tests.support.decisions import make_decision

VOTE = make_decision(
    id="d1:vote",
    prompt="Vote to eliminate",
    options=(Option(id="p2", label="Bram"), Option(id="p3", label="Noor")),
)


def test_a_number_an_id_or_a_name_picks_an_option() -> None:
    assert parse_human_answer(VOTE, " 2 ") == Choice(option="p3")
    assert parse_human_answer(VOTE, "p2") == Choice(option="p2")
    assert parse_human_answer(VOTE, "noor") == Choice(option="p3")
    many = VOTE.model_copy(update={"kind": DecisionKind.CHOOSE_MANY, "max_choices": 2})
    assert parse_human_answer(many, "1, Noor") == Choices(options=("p2", "p3"))


@pytest.mark.parametrize("typed", ["/help", "?", "help me"])
def test_anything_else_says_what_the_prompt_takes(typed: str) -> None:
    with pytest.raises(ValueError) as refused:
        parse_human_answer(VOTE, typed)
    assert str(refused.value) == (
        f"'{typed}' is not one of the options: type the number of one listed above "
        "(1 to 2) or its name"
    )
    with pytest.raises(ValueError, match="pick a number from 1 to 2"):
        parse_human_answer(VOTE, "3")

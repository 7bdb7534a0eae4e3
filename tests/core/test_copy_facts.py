"""``copy_facts`` copies like ``model_copy(deep=True)``: equal, nothing mutable shared."""

from __future__ import annotations

from pydantic import Field, PrivateAttr

from parlour.core.view import Facts, copy_facts


class Inner(Facts):
    names: list[str]


class Record(Facts):
    day: int
    votes: list[str]
    tally: dict[str, int]
    pairs: tuple[tuple[str, int], ...] = ()
    inner: list[Inner] = Field(default_factory=list)
    note: str | None = None


class WithPrivate(Facts):
    items: list[int]
    _cache: list[int] = PrivateAttr(default_factory=list)


def test_a_copy_is_equal_and_shares_no_list_or_dict() -> None:
    record = Record(
        day=2, votes=["a"], tally={"a": 1}, pairs=(("b", 2),), inner=[Inner(names=["c"])]
    )
    clone = copy_facts(record)
    assert clone == record == record.model_copy(deep=True)
    assert clone.model_dump_json() == record.model_dump_json()
    assert (
        clone.model_fields_set
        == record.model_fields_set
        == record.model_copy(deep=True).model_fields_set
    )
    assert clone.votes is not record.votes and clone.tally is not record.tally
    assert clone.inner[0] is not record.inner[0]
    assert clone.inner[0].names is not record.inner[0].names
    clone.votes.append("x")
    clone.inner[0].names.append("y")
    assert record.votes == ["a"] and record.inner[0].names == ["c"]


def test_unset_fields_stay_unset() -> None:
    record = Record(day=1, votes=[], tally={})
    assert copy_facts(record).model_dump(exclude_unset=True) == {"day": 1, "votes": [], "tally": {}}


def test_facts_with_private_state_are_deep_copied_as_pydantic_does() -> None:
    facts = WithPrivate(items=[1])
    facts._cache.append(5)
    clone = copy_facts(facts)
    assert clone == facts and clone._cache == [5] and clone._cache is not facts._cache

"""Find a record by its ``id`` among a game's records (content parts, players)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, TypeVar


class HasId(Protocol):
    @property
    def id(self) -> str: ...


T = TypeVar("T", bound=HasId)


def by_id(items: Iterable[T], item_id: str) -> T:
    """The first of ``items`` whose ``id`` is ``item_id``; ``KeyError(item_id)`` if none is."""
    for item in items:
        if item.id == item_id:
            return item
    raise KeyError(item_id)


def ids_of(items: Iterable[HasId]) -> tuple[str, ...]:
    """The ``id`` of every item, in order."""
    return tuple(item.id for item in items)

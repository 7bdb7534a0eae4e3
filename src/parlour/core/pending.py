"""The table of open decisions a game keeps: open, look up, take when answered, withdraw."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from parlour.core.decisions import Decision
from parlour.core.errors import IllegalAction


class PendingDecisions:
    """Open decisions in the order they were opened (that order is ``Game.pending()``).

    Decisions are frozen, so copies share them and only the table is copied.
    """

    def __init__(self) -> None:
        self._open: dict[str, Decision] = {}

    @classmethod
    def of(cls, decisions: Iterable[Decision]) -> PendingDecisions:
        """A table of ``decisions`` (for games that derive their open decisions)."""
        table = cls()
        for decision in decisions:
            table.open(decision)
        return table

    def open(self, decision: Decision) -> None:
        if decision.id in self._open:
            raise ValueError(f"decision '{decision.id}' is already open")
        self._open[decision.id] = decision

    def get(self, decision_id: str) -> Decision:
        """The open decision ``decision_id``; ``IllegalAction`` naming the open ones if none."""
        decision = self._open.get(decision_id)
        if decision is None:
            raise IllegalAction(
                f"no open decision '{decision_id}'; open decisions: {self._describe()}",
                decision_id=decision_id,
            )
        return decision

    def take(self, decision_id: str) -> Decision:
        """Close an answered decision (same error as ``get`` when it is not open)."""
        decision = self.get(decision_id)
        del self._open[decision_id]
        return decision

    def withdraw(self, decision_id: str) -> bool:
        """Close a decision nobody answered; False when it was not open."""
        return self._open.pop(decision_id, None) is not None

    def clear(self) -> None:
        self._open.clear()

    def all(self) -> tuple[Decision, ...]:
        return tuple(self._open.values())

    def ids(self) -> list[str]:
        return list(self._open)

    def __contains__(self, decision_id: object) -> bool:
        return decision_id in self._open

    def __iter__(self) -> Iterator[Decision]:
        return iter(self._open.values())

    def __len__(self) -> int:
        return len(self._open)

    def _describe(self) -> str:
        return ", ".join(self._open) or "none (the game is over)"

    def copy(self) -> PendingDecisions:
        clone = PendingDecisions()
        clone._open = dict(self._open)
        return clone

    def __deepcopy__(self, memo: dict[int, Any]) -> PendingDecisions:
        return self.copy()

"""Which actions are available now, kept up to date incrementally.

Each action keeps a count of needs not yet done; doing an action decrements the counts of
its dependents, so a turn costs O(dependents) instead of re-checking every action's needs
(``naive_available`` is that baseline; benchmarks/escape_engine.py compares them).
Plain dicts and lists only, so a game holding one deep-copies and snapshots cleanly.
"""

from __future__ import annotations

from parlour.games.escape.scenario import Scenario


class Frontier:
    def __init__(self, scenario: Scenario) -> None:
        self._ids: list[str] = [a.id for a in scenario.actions]
        self._position = {aid: n for n, aid in enumerate(self._ids)}
        self._repeatable = {a.id for a in scenario.actions if a.repeatable}
        self._dependents: dict[str, list[str]] = {aid: [] for aid in self._ids}
        self._missing: dict[str, int] = {}
        for act in scenario.actions:
            needs = set(act.needs)
            self._missing[act.id] = len(needs)
            for need in needs:
                self._dependents.setdefault(need, []).append(act.id)
        self._done: list[str] = []
        self._done_set: set[str] = set()
        self._open: set[str] = {aid for aid, n in self._missing.items() if n == 0}

    @property
    def done(self) -> tuple[str, ...]:
        """Done actions in the order they happened (each once)."""
        return tuple(self._done)

    def is_done(self, action_id: str) -> bool:
        return action_id in self._done_set

    def available(self) -> list[str]:
        """Needs met and not done (repeatable ones stay), in file order."""
        return sorted(self._open, key=self._position.__getitem__)

    def is_available(self, action_id: str) -> bool:
        return action_id in self._open

    def mark_done(self, action_id: str) -> bool:
        """Record that the action happened. Returns True if the done set grew."""
        if action_id in self._done_set:
            return False
        self._done.append(action_id)
        self._done_set.add(action_id)
        if action_id not in self._repeatable:
            self._open.discard(action_id)
        for dep in self._dependents.get(action_id, ()):
            self._missing[dep] -= 1
            if self._missing[dep] == 0 and (dep not in self._done_set or dep in self._repeatable):
                self._open.add(dep)
        return True


def naive_available(scenario: Scenario, done: set[str]) -> list[str]:
    """The from-scratch definition: every action whose needs are all done (baseline)."""
    return [
        a.id
        for a in scenario.actions
        if all(n in done for n in a.needs) and (a.id not in done or a.repeatable)
    ]

"""Static analysis of the prerequisite graph: order, ancestors, reachability, co-availability.

Semantics (the game's, exactly): a state is the set D of actions done so far. An action is
*available* in D when all its ``needs`` are in D and it is not in D (a repeatable action
stays available after it is done). Doing an action adds it to D; doing an ending action
ends the game. D only ever grows, and ``needs`` is a pure AND. Two consequences make the
analysis exact without enumerating states:

1. The non-terminal reachable states are exactly the sets D that are *closed under needs*
   and contain no ending action (add D's members in topological order to reach it; any
   reached D is closed because every member's needs were done before it).
2. Nothing can ever become impossible except by ending the game. So an action is reachable
   iff all its needs are reachable non-ending actions, and from every reachable state every
   reachable ending stays reachable. A state with nothing new to do is therefore the set N
   of *all* reachable non-ending actions, and it is stuck iff no ending is reachable.

Two actions a, b can be available at the same time iff both are reachable and neither is a
strict ancestor of the other, unless that one is repeatable (witness state:
``ancestors(a) | ancestors(b)``, which is closed and holds no ending).

Sets are Python ints used as bitsets (bit i = the i-th unique action), so closures over
a few hundred actions stay cheap.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from parlour.games.escape.scenario import Scenario, ScenarioAction


@dataclass(frozen=True)
class Blocked:
    """Why an action can never happen."""

    action: str
    need: str
    why: str  # "unknown", "cycle", "ending", "unreachable"


@dataclass(frozen=True)
class GraphFacts:
    order: tuple[str, ...]  # topological, ties broken by file order; acyclic part only
    by_id: dict[str, ScenarioAction]  # first definition of each id
    bit: dict[str, int]
    ancestors: dict[str, int]  # strict transitive needs, as a bitset
    reachable: frozenset[str]
    blocked: dict[str, Blocked]
    cycles: tuple[tuple[str, ...], ...]

    def ids_of(self, mask: int) -> list[str]:
        return [i for i in self.order if mask & self.bit[i]]

    def ancestor_ids(self, action_id: str) -> list[str]:
        return self.ids_of(self.ancestors.get(action_id, 0))

    def is_ancestor(self, maybe: str, of: str) -> bool:
        return bool(self.ancestors.get(of, 0) & self.bit[maybe])

    def co_available(self, a: str, b: str) -> bool:
        if a not in self.reachable or b not in self.reachable or a == b:
            return False
        a_ok = self.by_id[a].repeatable or not self.is_ancestor(a, b)
        b_ok = self.by_id[b].repeatable or not self.is_ancestor(b, a)
        return a_ok and b_ok

    def path_to(self, action_id: str) -> list[str]:
        """The shortest way to do ``action_id``: its ancestors then itself, in order.

        Needs are AND, so every ancestor must be done once and nothing else is required:
        this path is a minimum, its length is ``1 + len(ancestors)``.
        """
        mask = self.ancestors[action_id] | self.bit[action_id]
        return self.ids_of(mask)

    def path_length(self, action_id: str) -> int:
        """``len(path_to(action_id))``, without listing it (a bit count)."""
        return (self.ancestors[action_id] | self.bit[action_id]).bit_count()

    def stuck_state(self) -> list[str] | None:
        """The reachable state with nothing new to do, if no ending is reachable (else None)."""
        if any(self.by_id[i].ends_game for i in self.reachable):
            return None
        return [i for i in self.order if i in self.reachable]


def analyse(scenario: Scenario) -> GraphFacts:
    by_id: dict[str, ScenarioAction] = {}
    for act in scenario.actions:
        by_id.setdefault(act.id, act)
    position = {aid: n for n, aid in enumerate(by_id)}
    bit = {aid: 1 << n for n, aid in enumerate(by_id)}
    cycles = _cycles(by_id)
    order = _topological(by_id, position)
    ancestors: dict[str, int] = {}
    reachable: set[str] = set()
    blocked: dict[str, Blocked] = {}
    in_cycle = {a for cyc in cycles for a in cyc}
    for aid in by_id:
        if aid in in_cycle:
            blocked[aid] = Blocked(aid, aid, "cycle")
    for aid in order:
        mask = 0
        reason: Blocked | None = None
        for need in by_id[aid].needs:
            if need not in by_id:
                reason = reason or Blocked(aid, need, "unknown")
                continue
            mask |= bit[need] | ancestors[need]
            if by_id[need].ends_game:
                reason = reason or Blocked(aid, need, "ending")
            elif need not in reachable:
                reason = reason or Blocked(aid, need, "unreachable")
        ancestors[aid] = mask
        if reason is None:
            reachable.add(aid)
        else:
            blocked[aid] = reason
    for aid in by_id:  # downstream of a cycle: never sorted, never reachable
        if aid not in ancestors and aid not in blocked:
            need = next((n for n in by_id[aid].needs if n not in ancestors), aid)
            blocked[aid] = Blocked(aid, need, "cycle" if need in in_cycle else "unreachable")
    return GraphFacts(
        order=tuple(order),
        by_id=by_id,
        bit=bit,
        ancestors=ancestors,
        reachable=frozenset(reachable),
        blocked=blocked,
        cycles=tuple(cycles),
    )


def _topological(by_id: dict[str, ScenarioAction], position: dict[str, int]) -> list[str]:
    """Kahn's algorithm over known needs; ties by file order so the result is deterministic."""
    indegree = {aid: 0 for aid in by_id}
    dependents: dict[str, list[str]] = {aid: [] for aid in by_id}
    for aid, act in by_id.items():
        for need in set(act.needs):
            if need in by_id:
                indegree[aid] += 1
                dependents[need].append(aid)
    heap = [(position[a], a) for a, d in indegree.items() if d == 0]
    heapq.heapify(heap)
    order: list[str] = []
    while heap:
        _, aid = heapq.heappop(heap)
        order.append(aid)
        for dep in dependents[aid]:
            indegree[dep] -= 1
            if indegree[dep] == 0:
                heapq.heappush(heap, (position[dep], dep))
    return order


def _cycles(by_id: dict[str, ScenarioAction]) -> list[tuple[str, ...]]:
    """Strongly connected components with a cycle (Tarjan, iterative), in file order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[tuple[str, ...]] = []
    counter = 0
    for root in by_id:
        if root in index:
            continue
        work: list[tuple[str, int]] = [(root, 0)]
        while work:
            node, child = work.pop()
            if child == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            needs = [n for n in by_id[node].needs if n in by_id]
            if child < len(needs):
                work.append((node, child + 1))
                nxt = needs[child]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1 or node in by_id[node].needs:
                    order = list(by_id)
                    found.append(tuple(sorted(component, key=order.index)))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return sorted(found, key=lambda c: list(by_id).index(c[0]))

"""Entrants and the fair, seeded schedule of a tournament.

Game ``i`` seats entrant ``(j + i) mod m`` at the ``j``-th player seat (``m`` entrants), so
over every ``m`` consecutive games each entrant sits once at every seat: seat and
position are balanced exactly when the game count is a multiple of ``m``. Roles a game
deals itself (werewolf) come from the game's seed; they are balanced in expectation and
reported per role. A rule grid (``--grid KEY=V1,V2``) plays the whole schedule once per
rule set. Everything is derived from the tournament seed, so a seed is a schedule.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.core.commands import command
from parlour.core.errors import ParlourError
from parlour.core.module import GameModule
from parlour.core.rng import hash_seed
from parlour.runtime.seating import HumanSpec, SeatSpec, module_spec


@dataclass(frozen=True)
class Entrant:
    name: str
    spec: str


def parse_entrant(text: str, module: GameModule) -> tuple[Entrant, SeatSpec]:
    """``NAME=SPEC`` (``a=scripted``, ``gpt=openai:gpt-4o-mini``); a bare SPEC names itself."""
    name, sep, spec = text.partition("=")
    if not sep:
        name, spec = text, text
    name, spec = name.strip(), spec.strip()
    if not name or not spec:
        raise ParlourError(f"bad --entrant '{text}'; write NAME=SPEC, e.g. --entrant a=scripted")
    parsed = module_spec(spec, module)
    if isinstance(parsed, HumanSpec):
        raise ParlourError(
            f"--entrant {text}: a person cannot sit through a tournament; use `{command('play')}`"
        )
    return Entrant(name, spec), parsed


@dataclass(frozen=True)
class Match:
    """One scheduled game: its index, seed, rule options and who sits where."""

    idx: int
    seed: int
    options: dict[str, Any]
    seating: dict[str, str]  # player seat id → entrant name

    @property
    def rule_set(self) -> str:
        return rule_label(self.options)

    @property
    def self_play(self) -> bool:
        return len(set(self.seating.values())) < 2


def rule_label(options: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(options.items())) or "default rules"


def rule_sets(grid: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """Every combination of the grid's values (one empty rule set without a grid)."""
    keys = sorted(grid)
    values = [tuple(grid[k]) for k in keys]
    return [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*values)]


def make_schedule(
    player_seats: Sequence[str],
    entrants: Sequence[Entrant],
    games: int,
    seed: int,
    grid: Mapping[str, Sequence[Any]] | None = None,
    options: Mapping[str, Any] | None = None,
) -> list[Match]:
    """``games`` games per rule set; each rule set reuses the same seeds (paired design:
    a rule's effect is not confounded with a different deal)."""
    if games < 1:
        raise ParlourError("--games must be at least 1")
    if not entrants:
        raise ParlourError("give at least one --entrant NAME=SPEC, e.g. --entrant a=scripted")
    names = [e.name for e in entrants]
    if len(set(names)) != len(names):
        raise ParlourError(f"entrant names must differ: {', '.join(names)}")
    matches: list[Match] = []
    for rules in rule_sets(grid or {}):
        for i in range(games):
            seating = {seat: names[(j + i) % len(names)] for j, seat in enumerate(player_seats)}
            matches.append(
                Match(
                    idx=len(matches),
                    seed=hash_seed(seed, f"tournament-game:{i}") % 10**9,
                    options={**(options or {}), **rules},
                    seating=seating,
                )
            )
    return matches

"""Ratings and intervals from a tournament's stored outcomes.

OpenSkill's Plackett–Luce model rates each entrant (and each entrant-in-a-role): a game
is a ranking of its sides (werewolf: village, wolves, maniac; Diplomacy: each power),
each side a team of the entrants sitting on it. An entrant seated twice on one side is
two copies of one rating; the copies' updates are averaged. Games where one entrant
holds every seat (self-play) teach nothing about who is better and are skipped. Win
rates and the games' ratios get percentile-bootstrap 95% intervals, resampling whole
games (the seats of one game are not independent).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.tournament.schedule import Match

BOOTSTRAP = 1000


@dataclass(frozen=True)
class Rating:
    key: str
    mu: float
    sigma: float
    games: int

    @property
    def low(self) -> float:
        return self.mu - 1.96 * self.sigma

    @property
    def high(self) -> float:
        return self.mu + 1.96 * self.sigma

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Interval:
    value: float
    low: float
    high: float
    n: int  # games that contributed


Played = tuple[Match, dict[str, Any]]


def rate(played: Sequence[Played], key: Callable[[str, str], str]) -> list[Rating]:
    """Ratings keyed by ``key(entrant, role)``, in schedule order (deterministic)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    games: dict[str, int] = defaultdict(int)
    for match, out in sorted(played, key=lambda p: p[0].idx):
        if match.self_play or len(out["sides"]) < 2:
            continue
        keys = [[key(match.seating[s], out["roles"][s]) for s in side] for side in out["sides"]]
        for k in {k for side in keys for k in side}:
            ratings.setdefault(k, model.rating(name=k))
            games[k] += 1
        teams = [[ratings[k] for k in side] for side in keys]
        new = model.rate(teams, ranks=[float(r) for r in out["ranks"]])
        updates: dict[str, list[Any]] = defaultdict(list)
        for side, rated in zip(keys, new, strict=True):
            for k, r in zip(side, rated, strict=True):
                updates[k].append(r)
        for k, rs in updates.items():
            ratings[k] = model.create_rating(
                [sum(r.mu for r in rs) / len(rs), sum(r.sigma for r in rs) / len(rs)], name=k
            )
    out_list = [Rating(k, r.mu, r.sigma, games[k]) for k, r in ratings.items()]
    return sorted(out_list, key=lambda r: -r.ordinal)


def bootstrap_ratio(
    per_game: Sequence[tuple[float, float]], seed: int, rounds: int = BOOTSTRAP
) -> Interval | None:
    """sum(numerators) / sum(denominators) with a 95% percentile bootstrap over games."""
    rows = [(n, d) for n, d in per_game if d > 0]
    if not rows:
        return None
    value = sum(n for n, _ in rows) / sum(d for _, d in rows)
    rng = random.Random(seed)
    stats: list[float] = []
    for _ in range(rounds):
        sample = [rows[rng.randrange(len(rows))] for _ in rows]
        stats.append(sum(n for n, _ in sample) / sum(d for _, d in sample))
    stats.sort()
    return Interval(value, stats[int(0.025 * rounds)], stats[int(0.975 * rounds) - 1], len(rows))


def seat_ratio(
    played: Sequence[Played],
    seed: int,
    select: Callable[[Match, dict[str, Any], str], bool],
    num: Callable[[dict[str, Any], str], float],
    den: Callable[[dict[str, Any], str], float],
) -> Interval | None:
    """A ratio over the selected seats, one (numerator, denominator) pair per game."""
    per_game = []
    for match, out in played:
        seats = [s for s in match.seating if select(match, out, s)]
        if seats:
            per_game.append((sum(num(out, s) for s in seats), sum(den(out, s) for s in seats)))
    return bootstrap_ratio(per_game, seed)


def head_to_head(played: Sequence[Played], entrants: Sequence[str]) -> list[list[float | None]]:
    """Row A, column B: the share of seat pairs on opposing sides (A's seat against B's)
    where A's side finished ahead; a tie counts a half. None: they never met."""
    score: dict[tuple[str, str], float] = defaultdict(float)
    count: dict[tuple[str, str], int] = defaultdict(int)
    for match, out in played:
        rank = {s: r for side, r in zip(out["sides"], out["ranks"], strict=True) for s in side}
        side_of = {s: i for i, side in enumerate(out["sides"]) for s in side}
        for a_seat, a in match.seating.items():
            for b_seat, b in match.seating.items():
                if a == b or side_of[a_seat] == side_of[b_seat]:
                    continue
                count[a, b] += 1
                diff = rank[b_seat] - rank[a_seat]
                score[a, b] += 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
    return [
        [score[a, b] / count[a, b] if count[a, b] else None for b in entrants] for a in entrants
    ]

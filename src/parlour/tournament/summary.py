"""A tournament's results, computed from what is stored: ratings, win rates by role,
the game's ratios, head-to-head, cost, and the headline figure per rule set."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parlour.runtime.store import Store
from parlour.tournament import storage
from parlour.tournament.metrics import metrics_for
from parlour.tournament.ratings import (
    Interval,
    Played,
    Rating,
    bootstrap_ratio,
    head_to_head,
    rate,
    seat_ratio,
)
from parlour.tournament.run import TournamentParams
from parlour.tournament.schedule import rule_label


@dataclass(frozen=True)
class Summary:
    tid: str
    params: TournamentParams
    status: str
    scheduled: int
    played: int
    self_play: int
    ratings: list[Rating]
    role_ratings: list[Rating]
    win_rates: dict[str, Interval | None]  # entrant → win rate
    role_win_rates: dict[tuple[str, str], Interval | None]  # (entrant, role) → win rate
    ratios: dict[tuple[str, str], Interval | None]  # (ratio name, entrant) → value
    headline: dict[str, Interval | None]  # rule set → headline figure
    headline_label: str | None
    h2h: list[list[float | None]]
    costs: list[float]
    seconds: list[float]

    @property
    def entrants(self) -> list[str]:
        return [e.name for e in self.params.entrants]

    @property
    def roles(self) -> list[str]:
        return sorted({role for _, role in self.role_win_rates})


def summarise(store: Store, tid: str) -> Summary:
    row = storage.get(store, tid)
    params = TournamentParams.from_json(row.params)
    scheduled = storage.games(store, tid)
    played: list[Played] = [(g.match, g.outcome) for g in scheduled if g.outcome is not None]
    metrics = metrics_for(params.game)
    seed = params.seed
    names = [e.name for e in params.entrants]

    def won(out: dict[str, Any], s: str) -> float:
        return float(out["won"][s])

    def one(_out: dict[str, Any], _s: str) -> float:
        return 1.0

    win_rates = {
        e: seat_ratio(played, seed, lambda m, _o, s, e=e: m.seating[s] == e, won, one)  # type: ignore[misc]
        for e in names
    }
    roles = sorted({r for _, out in played for r in out["roles"].values()})
    role_win_rates = {
        (e, r): seat_ratio(
            played,
            seed,
            lambda m, o, s, e=e, r=r: m.seating[s] == e and o["roles"][s] == r,  # type: ignore[misc]
            won,
            one,
        )
        for e in names
        for r in roles
    }
    ratios: dict[tuple[str, str], Interval | None] = {}
    for ratio in metrics.ratios:
        for e in names:
            ratios[ratio.name, e] = seat_ratio(
                played,
                seed,
                lambda m, _o, s, e=e: m.seating[s] == e,  # type: ignore[misc]
                lambda o, s, k=ratio.numerator: float(o["counters"].get(s, {}).get(k, 0.0)),  # type: ignore[misc]
                lambda o, s, k=ratio.denominator: float(o["counters"].get(s, {}).get(k, 0.0)),  # type: ignore[misc]
            )
    headline: dict[str, Interval | None] = {}
    if metrics.headline is not None:
        key = metrics.headline[0]
        by_rules: dict[str, list[tuple[float, float]]] = {}
        for match, out in played:
            by_rules.setdefault(rule_label(match.options), []).append((out["game"][key], 1.0))
        headline = {rules: bootstrap_ratio(rows, seed) for rules, rows in sorted(by_rules.items())}
    return Summary(
        tid=tid,
        params=params,
        status=row.status,
        scheduled=len(scheduled),
        played=len(played),
        self_play=sum(1 for m, _ in played if m.self_play),
        ratings=rate(played, lambda e, _r: e),
        role_ratings=rate(played, lambda e, r: f"{e} as {r}"),
        win_rates=win_rates,
        role_win_rates=role_win_rates,
        ratios=ratios,
        headline=headline,
        headline_label=metrics.headline[1] if metrics.headline else None,
        h2h=head_to_head(played, names),
        costs=[float(o["cost_usd"]) for _, o in played],
        seconds=[float(o["seconds"]) for _, o in played],
    )

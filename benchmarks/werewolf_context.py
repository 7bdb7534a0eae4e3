"""Context build time: how long one LLM seat's prompt takes to build, late in a long game.

A 12-player werewolf game is played with scripted seats up to day ``--day`` (the first
seed from ``--seed`` on whose game reaches that day). For every decision pending during
that day (discussion, vote, diaries), the prompt an LLM seat would send is built
``--reps`` times, exactly as ``LlmSeat.decide`` builds it:
``game.view(seat)`` → ``output_spec`` → ``PROMPTER.parts`` (+ format instruction) →
``flatten`` → ``Message``s. The baseline is the same measurement on day 1 of the same
game, in the same run. Target: median < 5 ms at day 5.

    uv run python benchmarks/werewolf_context.py [--day 5] [--reps 30] [--players 12]
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from parlour.core.decisions import Decision
from parlour.core.rng import Rng, hash_seed
from parlour.games.werewolf import MODULE, WerewolfGame
from parlour.games.werewolf.prompts import PROMPTER
from parlour.models.replay import ReplayBackend
from parlour.seats.llm import LlmSeat, output_spec

TARGET_MS = 5.0


@dataclass
class Sample:
    """Build times (ms) for one day, and what was built."""

    day: int
    times_ms: list[float] = field(default_factory=list)
    decisions: int = 0
    chars: list[int] = field(default_factory=list)
    events: list[int] = field(default_factory=list)
    purposes: set[str] = field(default_factory=set)

    def summary(self) -> dict[str, Any]:
        ordered = sorted(self.times_ms)
        return {
            "day": self.day,
            "decisions": self.decisions,
            "builds": len(ordered),
            "median_ms": statistics.median(ordered),
            "p95_ms": ordered[int(0.95 * (len(ordered) - 1))],
            "max_ms": ordered[-1],
            "mean_prompt_chars": round(statistics.mean(self.chars)),
            "log_events": max(self.events),
            "purposes": sorted(self.purposes),
        }


def build_seat() -> LlmSeat:
    # The backend is never called: only the seat's prompt assembly is exercised.
    return LlmSeat(
        ReplayBackend([]), PROMPTER, MODULE.fallback_policy, seat_id="x", seed=0, cache_key="x"
    )


def time_build(
    game: WerewolfGame, seat: LlmSeat, decision: Decision, reps: int
) -> tuple[list[float], int]:
    """``reps`` build times (ms) of this decision's prompt, and the prompt's size (chars)."""
    out: list[float] = []
    chars = 0
    for _ in range(reps):
        began = time.perf_counter_ns()
        view = game.view(decision.seat)
        spec, _ = output_spec(decision)
        messages = seat.base_messages(view, decision, spec)
        out.append((time.perf_counter_ns() - began) / 1e6)
        chars = sum(len(m.content) for m in messages)
    return out, chars


def daytime(game: WerewolfGame, day: int) -> bool:
    st = game.state
    return st.day == day and st.phase.split(" ")[0] in ("day", "evening")


def play_and_measure(
    players: int, seed: int, days: tuple[int, ...], reps: int
) -> dict[int, Sample] | None:
    """Measure every daytime decision of ``days``; None if the game ends before the last."""
    game = MODULE.game.new(MODULE.make_config(players, {}), seed)
    assert isinstance(game, WerewolfGame)
    seat = build_seat()
    samples = {d: Sample(d) for d in days}
    while not game.is_terminal():
        for sample in samples.values():
            if daytime(game, sample.day):
                for decision in game.pending():
                    times, chars = time_build(game, seat, decision, reps)
                    sample.chars.append(chars)
                    sample.times_ms += times
                    sample.decisions += 1
                    sample.events.append(len(game.events))
                    sample.purposes.add(decision.purpose)
        if game.state.day > max(days):
            break
        for d in game.pending():
            game.apply(d.id, MODULE.policy(game.view(d.seat), d, Rng(hash_seed(seed, d.id))))
    if any(not s.decisions for s in samples.values()):
        return None
    return samples


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--day", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0, help="first seed to try")
    parser.add_argument("--reps", type=int, default=30)
    args = parser.parse_args()
    gc.collect()
    for seed in range(args.seed, args.seed + 200):
        samples = play_and_measure(args.players, seed, (1, args.day), args.reps)
        if samples is not None:
            break
    else:
        raise SystemExit(f"no seed in {args.seed}..{args.seed + 199} reaches day {args.day}")
    base, late = samples[1].summary(), samples[args.day].summary()
    print(f"werewolf, {args.players} players, seed {seed}: prompt build per LLM call")
    print(f"{'day':>4}{'decisions':>11}{'builds':>8}{'median ms':>11}{'p95 ms':>9}{'chars':>8}")
    for row in (base, late):
        print(
            f"{row['day']:>4}{row['decisions']:>11}{row['builds']:>8}{row['median_ms']:>11.3f}"
            f"{row['p95_ms']:>9.3f}{row['mean_prompt_chars']:>8}"
        )
    ratio = float(late["median_ms"]) / float(base["median_ms"])
    ok = float(late["median_ms"]) < TARGET_MS
    print(
        f"day {args.day} / day 1 median: {ratio:.2f}x; target median < {TARGET_MS} ms: "
        f"{'met' if ok else 'MISSED'}"
    )
    print(
        json.dumps(
            {
                "bench": "werewolf_context",
                "players": args.players,
                "seed": seed,
                "reps": args.reps,
                "baseline": base,
                "late": late,
                "ratio_median": ratio,
                "target_ms": TARGET_MS,
                "met": ok,
            }
        )
    )


if __name__ == "__main__":
    main()

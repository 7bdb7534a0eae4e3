"""Local model: cold vs warm decision latency with the per-seat KV-state cache.

Seats take turns (A, B, C, A, B, C, …). Each seat's prompt is ~1,500 tokens — shared rules,
the seat's own memory, the transcript so far — plus a command that is never kept; every
round each transcript grows by a small delta. Warm runs use the per-seat cache; the cold
baseline (same prompts, same answers asked for, measured in the same run) has the cache
switched off, so every call evaluates its whole prompt. Round 1 is left out of both
medians (it is cold for everybody).

    uv run python benchmarks/local_cache.py            # 3 seats, 4 rounds
    uv run python benchmarks/local_cache.py --seats 2 --rounds 3 --prompt-tokens 1200

Prints a table and one JSON line. Target: warm median <= 1/4 of cold median.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time

from parlour.models import Message, ModelRequest, OutputSpec, Settings
from parlour.models.local import LocalBackend

TARGET_RATIO = 0.25
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")
VERBS = ("accused", "defended", "questioned", "ignored", "trusted", "doubted")
PLACES = ("the well", "the mill", "the square", "the chapel", "the bakery")


def sentence(rng: random.Random) -> str:
    a, b = rng.sample(NAMES, 2)
    return f"{a.title()} {rng.choice(VERBS)} {b} near {rng.choice(PLACES)}."


def build_history(rng: random.Random, sentences: int) -> list[str]:
    return [sentence(rng) for _ in range(sentences)]


def prompt(
    seat: int, memory: list[str], transcript: list[str], round_no: int
) -> tuple[Message, ...]:
    rules = (
        "You play a village social deduction game. Werewolves hide among villagers; "
        "each day the village talks and then votes to exile one player. "
    ) * 4
    return (
        Message(role="system", content=rules, cache_boundary=True),
        Message(role="user", content=f"You are {NAMES[seat]}. Your notes: " + " ".join(memory)),
        Message(role="user", content="Today so far: " + " ".join(transcript), cache_boundary=True),
        Message(role="user", content=f"Round {round_no}: who do you vote to exile?"),
    )


async def run(
    backend: LocalBackend,
    seats: int,
    rounds: int,
    memory_sentences: int,
    delta: int,
    max_tokens: int,
    skip_first_round: bool = False,
) -> list[tuple[int, int, float, int, int]]:
    """(round, seat, latency_s, prompt_tokens, cached_tokens) for every call."""
    rng = random.Random(1234)  # same prompts for the cold and warm runs
    memories = [build_history(rng, memory_sentences) for _ in range(seats)]
    transcripts: list[list[str]] = [[] for _ in range(seats)]
    rows = []
    for round_no in range(1, rounds + 1):
        for seat in range(seats):
            transcripts[seat].extend(sentence(rng) for _ in range(delta))
            if skip_first_round and round_no == 1:
                continue  # unmeasured; without a cache it would change nothing
            request = ModelRequest(
                messages=prompt(seat, memories[seat], transcripts[seat], round_no),
                output=OutputSpec.choice(NAMES),
                settings=Settings(temperature=0.0, max_tokens=max_tokens, timeout_s=600),
                cache_key=f"bench:{seat}",
            )
            started = time.perf_counter()
            response = await backend.complete(request)
            elapsed = time.perf_counter() - started
            label = "cold" if not backend.kv_cache else "warm"
            print(
                f"  {label} round {round_no} seat {seat}: {elapsed:.2f}s, "
                f"{response.usage.cached_input_tokens}/{response.usage.input_tokens} cached",
                file=sys.stderr,
                flush=True,
            )
            rows.append(
                (
                    round_no,
                    seat,
                    elapsed,
                    response.usage.input_tokens,
                    response.usage.cached_input_tokens,
                )
            )
    return rows


def calibrate(target: int) -> int:
    """How many memory sentences give a ~target-token prompt on round 1."""
    backend = LocalBackend(n_ctx=4096)
    rng = random.Random(1234)
    base = len(backend.tokenize(prompt(0, [], [], 1)))
    per = len(backend.tokenize(prompt(0, build_history(rng, 100), [], 1))) - base
    return max(1, round((target - base) / (per / 100)))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--prompt-tokens", type=int, default=1500)
    parser.add_argument("--delta", type=int, default=3, help="sentences added per seat per round")
    parser.add_argument("--max-tokens", type=int, default=24)
    parser.add_argument("--threads", type=int, default=None, help="default: all cores but one")
    args = parser.parse_args()
    if args.rounds < 2:
        sys.exit("need --rounds >= 2 (round 1 is cold for everybody and is not measured)")

    memory = calibrate(args.prompt_tokens)
    common = (args.seats, args.rounds, memory, args.delta, args.max_tokens)
    warm = LocalBackend(n_ctx=4096, n_threads=args.threads)
    cold = LocalBackend(n_ctx=4096, n_threads=args.threads, kv_cache=False)
    warm_rows = await run(warm, *common)
    cold_rows = await run(cold, *common, skip_first_round=True)

    def measured(rows: list[tuple[int, int, float, int, int]]) -> list[tuple[float, int, int]]:
        return [(t, p, c) for r, _, t, p, c in rows if r > 1]

    warm_calls, cold_calls = measured(warm_rows), measured(cold_rows)
    cold_med = statistics.median(t for t, _, _ in cold_calls)
    warm_med = statistics.median(t for t, _, _ in warm_calls)
    ratio = warm_med / cold_med
    prompt_med = statistics.median(p for _, p, _ in warm_calls)
    cached_share = sum(c for _, _, c in warm_calls) / sum(p for _, p, _ in warm_calls)

    print(
        f"local KV cache: {args.seats} seats x {args.rounds} rounds, "
        f"~{prompt_med:.0f}-token prompts"
    )
    print(f"{'run':<6}{'calls':>7}{'median s':>11}{'cached share':>15}")
    print(f"{'cold':<6}{len(cold_calls):>7}{cold_med:>11.3f}{0.0:>15.1%}")
    print(f"{'warm':<6}{len(warm_calls):>7}{warm_med:>11.3f}{cached_share:>15.1%}")
    verdict = "meets" if ratio <= TARGET_RATIO else "misses"
    print(f"warm/cold = {ratio:.3f} ({verdict} the <= {TARGET_RATIO} target)")
    print(
        json.dumps(
            {
                "benchmark": "local_cache",
                "seats": args.seats,
                "rounds": args.rounds,
                "prompt_tokens_median": prompt_med,
                "calls_measured": len(warm_calls),
                "threads": warm.n_threads,
                "cold_median_s": round(cold_med, 4),
                "warm_median_s": round(warm_med, 4),
                "ratio": round(ratio, 4),
                "cached_share": round(cached_share, 4),
                "target_ratio": TARGET_RATIO,
                "meets_target": ratio <= TARGET_RATIO,
            }
        )
    )


if __name__ == "__main__":
    asyncio.run(main())

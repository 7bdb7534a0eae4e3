"""Escape engine costs, measured in one run.

1. Available-action filtering on a generated 500-action graph, per call (µs): the
   incremental ``Frontier`` (the game's) against the naive baseline that re-checks every
   action's needs from scratch, over a playthrough that does every action once.
   Also a whole engine turn (act → classify → narrate, scripted stubs) on that graph.
2. Prompt size per turn for the classifier and the narrator over a solver playthrough of
   each shipped scenario: characters and estimated tokens (chars / 4).

    uv run python benchmarks/escape_engine.py [--actions 500] [--repeats 5]
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import time
from collections.abc import Callable

from parlour.core.actions import Choice, Text
from parlour.core.policy import Policy
from parlour.core.prompting import PromptParts
from parlour.core.rng import Rng
from parlour.games.escape import EscapeConfig, EscapeGame, load_scenario, shipped_names
from parlour.games.escape.availability import Frontier, naive_available
from parlour.games.escape.policies import (
    SolverPlayer,
    keyword_classifier,
    solution,
    template_narrator,
)
from parlour.games.escape.prompts import EscapePrompter
from parlour.games.escape.scenario import Scenario, ScenarioAction

_NOUN_TEXT = "lamp rope key door chest map coin bell book clock mask ring sword shell stone"
NOUNS = _NOUN_TEXT.split()


def generated(n: int, seed: int = 7) -> Scenario:
    """A layered random DAG: each action needs up to three of the previous 40 actions."""
    rng = Rng(seed)
    actions = []
    for i in range(n - 1):
        window = list(range(max(0, i - 40), i))
        k = min(len(window), rng.randint(0, 3))
        needs = tuple(f"s{j}" for j in sorted(rng.sample(window, k)))
        actions.append(
            ScenarioAction(
                id=f"s{i}",
                description=f"use the {NOUNS[i % len(NOUNS)]} number {i}",
                consequence=f"Step {i} is done.",
                needs=needs,
                repeatable=rng.random() < 0.05,
                hint=f"Try step {i}.",
            )
        )
    actions.append(
        ScenarioAction(
            id="finish",
            description="walk out into the daylight",
            consequence="You are free.",
            needs=tuple(f"s{j}" for j in range(n - 41, n - 1)),
            ends_game=True,
            good=True,
        )
    )
    return Scenario(title="generated", intro="A very long puzzle.", actions=tuple(actions))


def per_call_us(run: Callable[[], int], repeats: int) -> float:
    """Median over repeats of (total time / calls), in microseconds."""
    samples = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        calls = run()
        samples.append((time.perf_counter_ns() - start) / calls / 1000)
    return statistics.median(samples)


def filtering(scenario: Scenario, repeats: int) -> dict[str, float]:
    path = solution(scenario)[:-1]  # every action the ending needs, in order

    def incremental() -> int:
        frontier = Frontier(scenario)
        for aid in path:
            frontier.available()
            frontier.mark_done(aid)
        return len(path)

    def naive() -> int:
        done: set[str] = set()
        for aid in path:
            naive_available(scenario, done)
            done.add(aid)
        return len(path)

    fast, slow = per_call_us(incremental, repeats), per_call_us(naive, repeats)
    return {"turns": len(path), "incremental_us": fast, "naive_us": slow, "speedup": slow / fast}


def engine_turn(scenario: Scenario, repeats: int) -> float:
    """Whole engine turn (three applies with trivial answers, pending() and views); the
    game's construction (validation) is outside the timed part."""
    config = EscapeConfig(scenario=scenario, max_turns=1000)
    path = solution(scenario)
    fresh = EscapeGame.new(config, 1)

    def run() -> int:
        game = copy.deepcopy(fresh)
        start = time.perf_counter_ns()
        for aid in path:
            game.apply(game.pending()[0].id, Text(text=f"step {aid}"))
            game.view("classifier")
            game.apply(game.pending()[0].id, Choice(option=aid))
            game.view("narrator")
            game.apply(game.pending()[0].id, Text(text="ok"))
        return time.perf_counter_ns() - start

    samples = [run() / len(path) / 1000 for _ in range(repeats)]
    return statistics.median(samples)


def size(parts: PromptParts) -> int:
    chunks = [parts.system, parts.memory, parts.command, parts.reminders]
    chunks += [f"{u.speaker}: {u.text}" for u in parts.transcript]
    return sum(len(c) for c in chunks)


def prompt_sizes(name: str) -> dict[str, dict[str, float]]:
    scenario = load_scenario(name)
    game = EscapeGame.new(EscapeConfig(scenario=scenario), 1)
    seats: dict[str, Policy] = {
        "player": SolverPlayer(scenario),
        "classifier": keyword_classifier,
        "narrator": template_narrator,
    }
    prompter, rng = EscapePrompter(), Rng(1)
    sizes: dict[str, list[int]] = {"classifier": [], "narrator": []}
    while not game.is_terminal():
        (decision,) = game.pending()
        view = game.view(decision.seat)
        if decision.seat in sizes:
            sizes[decision.seat].append(size(prompter.parts(view, decision)))
        game.apply(decision.id, seats[decision.seat](view, decision, rng))
    return {
        seat: {
            "turns": len(values),
            "mean_chars": statistics.mean(values),
            "max_chars": max(values),
            "mean_tokens": statistics.mean(values) / 4,
            "max_tokens": max(values) / 4,
        }
        for seat, values in sizes.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    big = generated(args.actions)
    filt = filtering(big, args.repeats)
    turn_us = engine_turn(big, max(1, args.repeats // 2))
    prompts = {name: prompt_sizes(name) for name in shipped_names()}

    print(f"available-action filtering, {args.actions}-action graph, {filt['turns']} turns")
    print(f"  {'incremental (Frontier)':<28}{filt['incremental_us']:>10.1f} µs/call")
    print(f"  {'naive (from scratch)':<28}{filt['naive_us']:>10.1f} µs/call")
    print(f"  {'speedup':<28}{filt['speedup']:>10.1f} ×")
    print(f"  {'whole engine turn':<28}{turn_us:>10.1f} µs/turn (3 applies + 2 views)")
    print()
    print(
        f"{'scenario':<14}{'seat':<12}{'turns':>6}{'mean chars':>12}{'max chars':>11}"
        f"{'mean tok':>10}{'max tok':>9}"
    )
    for name, seats in prompts.items():
        for seat, row in seats.items():
            print(
                f"{name:<14}{seat:<12}{row['turns']:>6.0f}{row['mean_chars']:>12.0f}"
                f"{row['max_chars']:>11.0f}{row['mean_tokens']:>10.0f}{row['max_tokens']:>9.0f}"
            )
    print(
        json.dumps(
            {
                "benchmark": "escape_engine",
                "actions": args.actions,
                "filtering": filt,
                "engine_turn_us": turn_us,
                "prompts": prompts,
            },
            sort_keys=True,
        )
    )


if __name__ == "__main__":
    main()

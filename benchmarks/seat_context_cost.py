"""Cost of the seat context step: prompt build with context components vs without.

A 12-player werewolf game is played with scripted seats; at every daytime decision of
day ``--day`` the prompt an LLM seat would send is built three ways, in the same run:
without context (the baseline, ``LlmSeat.base_messages``), with ``memory`` + ``recall``
ranked by BM25, and with ``recall`` ranked by the bundled model's embeddings (vectors
cached per text, as a seat's ranker does; the first decision pays for the log so far).
The journal is left out: it is one indexed query on the store.

    uv run python benchmarks/seat_context_cost.py [--day 3] [--players 12]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from parlour.core.rng import Rng, hash_seed
from parlour.games.werewolf import MODULE, WerewolfGame
from parlour.games.werewolf.prompts import PROMPTER
from parlour.models.local import LocalBackend
from parlour.models.replay import ReplayBackend
from parlour.seats.context import ContextComponent, NoReader, gather_all
from parlour.seats.context_components import EmbeddingRanker, Memory, Recall
from parlour.seats.llm import LlmSeat, output_spec


def build_ms(game: WerewolfGame, components: tuple[ContextComponent, ...]) -> list[float]:
    seat = LlmSeat(
        ReplayBackend([]), PROMPTER, MODULE.fallback_policy, seat_id="x", seed=0, cache_key="x"
    )
    out: list[float] = []
    for decision in game.pending():
        began = time.perf_counter()
        view = game.view(decision.seat)
        spec, _ = output_spec(decision)
        sections = asyncio.run(gather_all(components, view, decision, NoReader()))
        seat.base_messages(view, decision, spec, sections)
        out.append((time.perf_counter() - began) * 1e3)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--day", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    local = LocalBackend()
    ways: dict[str, tuple[ContextComponent, ...]] = {
        "no context": (),
        "memory + recall (bm25)": (Memory(), Recall(k=3)),
        "recall (local embeddings)": (Recall(ranker=EmbeddingRanker(local, "local"), k=3),),
    }
    times: dict[str, list[float]] = {name: [] for name in ways}
    game = MODULE.game.new(MODULE.make_config(args.players, {}), args.seed)
    assert isinstance(game, WerewolfGame)
    while not game.is_terminal() and game.state.day <= args.day:
        if game.state.day == args.day and game.state.phase.startswith(("day", "evening")):
            for name, components in ways.items():
                times[name] += build_ms(game, components)
        for d in game.pending():
            game.apply(d.id, MODULE.policy(game.view(d.seat), d, Rng(hash_seed(args.seed, d.id))))
    base = statistics.median(times["no context"])
    print(
        f"werewolf, {args.players} players, seed {args.seed}, day {args.day}: "
        f"{len(times['no context'])} decisions, {len(game.events)} events at the end"
    )
    for name, values in times.items():
        med = statistics.median(values)
        print(
            f"{name:<28} median {med:8.2f} ms   max {max(values):8.2f} ms   "
            f"{med / base:6.1f}x baseline"
        )


if __name__ == "__main__":
    main()

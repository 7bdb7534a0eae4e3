"""Routed talk vs asking everyone: model calls and prompt tokens per game day.

The same werewolf game (same seed, players and config) is played twice through the real
runtime (``session.start`` → ``Runner`` → ``LlmSeat``s → the store's call log), once with
``discussion: routed`` (a router seat picks who speaks) and once with ``discussion:
ask_all`` (the common alternative, the baseline: every living player but the last
speaker is asked every turn, one answer is posted). Every player, and the router, is an
LLM seat.

Fast, deterministic part (default). The seats' model is
``chaos(rate=1.0,kinds=error):local``: every call fails at once (the model is never
loaded), and
with ``retries=0`` the seat's fallback (the scripted policy) answers. So each decision
costs exactly one call whose prompt is really built and logged, and the game plays as
the scripted policy plays it (real speeches, real votes). Chaos records 0 tokens, so
prompt tokens are counted by tokenizing every logged prompt (ChatML, as the local
backend renders it) with the bundled model's tokenizer (vocab only, no weights).
``uncached`` is what a per-seat prefix cache (the local KV cache, a provider's prompt
cache) would still evaluate: tokens past the common prefix with that seat's previous
call. Target: routed makes ≥ 2× fewer calls.

Real part (``--local``): the bundled SmolLM2 answers every seat in a short game
(``--local-players`` players, ``max_days: 1``); calls (first attempts and all attempts)
and the backend's own input/cached token counts are reported separately.

    uv run python benchmarks/werewolf_routing.py [--players 9] [--seed 1] [--local]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.prompt_prefix import common_prefix
from parlour.models.local import bundled_model_path, render_chatml
from parlour.models.messages import Message
from parlour.runtime import session as sessions
from parlour.runtime.llm_seating import LlmFactory
from parlour.runtime.seating import SeatPlan
from parlour.runtime.store import CallRecord, Store, db_url

MODES = ("routed", "ask_all")
TALK = ("route", "speak")
#: Every call fails instantly, so the scripted fallback answers after exactly one call.
NO_MODEL = "chaos(rate=1.0,kinds=error):local"
TARGET = 2.0

Tokenize = Callable[[Sequence[Message]], int]


def local_tokenizer() -> Callable[[Sequence[Message]], list[int]]:
    """The bundled model's tokenizer over ChatML, as ``LocalBackend._tokenize`` uses it."""
    import llama_cpp

    llm = llama_cpp.Llama(model_path=str(bundled_model_path()), vocab_only=True, verbose=False)

    def tokenize(messages: Sequence[Message]) -> list[int]:
        text = render_chatml(messages).encode("utf-8")
        return list(llm.tokenize(text, add_bos=False, special=True))

    return tokenize


def cycle(phase: str) -> int:
    """Night N, dawn N, day N and evening N all belong to game day N."""
    _, _, number = phase.partition(" ")
    return int(number) if number.isdigit() else 0


@dataclass
class Tally:
    calls: int = 0
    talk_calls: int = 0
    tokens: int = 0
    uncached: int = 0
    living: int = 0

    def add(self, talk: bool, tokens: int, uncached: int) -> None:
        self.calls += 1
        self.talk_calls += talk
        self.tokens += tokens
        self.uncached += uncached


@dataclass
class Run:
    mode: str
    result: str
    days: dict[int, Tally] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def total(self) -> Tally:
        out = Tally()
        for t in self.days.values():
            for key in vars(out):
                if key != "living":
                    setattr(out, key, getattr(out, key) + getattr(t, key))
        return out


def play(
    store: Store, factory: LlmFactory, spec: str, mode: str, players: int, seed: int, extra: Any
) -> tuple[str, str, dict[int, int]]:
    """Play one all-LLM game; return its id, result summary and living players per day."""
    plan = SeatPlan(default=spec, system_default=spec, overrides={})
    options = {**extra, "discussion": mode}
    session = sessions.start(
        store,
        "werewolf",
        players=players,
        seed=seed,
        options=options,
        plan=plan,
        llm_factory=factory,
    )
    result = asyncio.run(session.run())
    living: dict[int, int] = {}
    for event in store.events(session.game_id):
        day = cycle(event.phase)
        _, found, alive = event.text.partition(f"Day {day} begins. Alive: ")
        if event.kind == "phase" and found:
            living[day] = alive.count(",") + 1
    return session.game_id, result.summary if result else "?", living


def tally(calls: list[CallRecord], tokenize: Tokenize | None) -> dict[int, Tally]:
    """Per game day: calls (fallback records are not calls) and prompt tokens (attempt 1
    only, so retries don't inflate them): tokenized here, or the backend's own counts."""
    days: dict[int, Tally] = defaultdict(Tally)
    previous: dict[str, list[int]] = {}
    for call in calls:
        if call.outcome == "fallback":
            continue
        talk = call.purpose in TALK
        if call.attempt != 1:
            days[cycle(call.phase)].add(talk, 0, 0)
            continue
        if tokenize is None:  # a real backend counted its own tokens
            tokens, uncached = call.input_tokens, call.input_tokens - call.cached_tokens
        else:
            ids = local_ids(call, tokenize)
            tokens = len(ids)
            uncached = tokens - common_prefix(previous.get(call.cache_key, []), ids)
            previous[call.cache_key] = ids
        days[cycle(call.phase)].add(talk, tokens, uncached)
    return dict(sorted(days.items()))


def local_ids(call: CallRecord, tokenize: Tokenize) -> list[int]:
    ids = tokenize([Message.model_validate(m) for m in call.messages])
    assert isinstance(ids, list)
    return ids


def measure(
    spec: str, players: int, seed: int, extra: dict[str, object], retries: int, tokenize: Any
) -> list[Run]:
    runs: list[Run] = []
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(db_url(str(Path(tmp) / "routing.sqlite")))
        factory = LlmFactory(store=store, retries=retries)
        for mode in MODES:
            began = time.perf_counter()
            game_id, summary, living = play(store, factory, spec, mode, players, seed, extra)
            run = Run(mode, summary, seconds=time.perf_counter() - began)
            run.days = tally(store.calls(game_id), tokenize)
            for day, count in living.items():
                run.days.setdefault(day, Tally()).living = count
            runs.append(run)
        store.close()
    return runs


def ratio(a: int, b: int) -> float:
    return a / b if b else float("nan")


def print_table(title: str, runs: list[Run]) -> dict[str, Any]:
    routed, ask_all = runs
    print(f"\n{title}")
    for run in runs:
        print(f"  {run.mode}: {run.result} ({run.seconds:.1f} s)")
    cols = ("calls", "talk_calls", "tokens", "uncached")
    head = f"{'day':>4} {'alive r/a':>9}"
    for c in cols:
        head += f" {c + ' r':>13} {c + ' a':>13} {'a/r':>6}"
    print(head)
    rows: list[dict[str, Any]] = []
    days = sorted(set(routed.days) | set(ask_all.days))
    for day in [*days, -1]:
        r = routed.days.get(day, Tally()) if day >= 0 else routed.total
        a = ask_all.days.get(day, Tally()) if day >= 0 else ask_all.total
        label = "all" if day < 0 else str(day)
        alive = f"{r.living or '-'}/{a.living or '-'}" if day >= 0 else ""
        line = f"{label:>4} {alive:>9}"
        row: dict[str, Any] = {"day": label, "living": [r.living, a.living]}
        for c in cols:
            rv, av = getattr(r, c), getattr(a, c)
            line += f" {rv:>13} {av:>13} {ratio(av, rv):>6.2f}"
            row[c] = {"routed": rv, "ask_all": av, "ratio": ratio(av, rv)}
        print(line)
        rows.append(row)
    total_ratio = ratio(ask_all.total.calls, routed.total.calls)
    day1 = rows[0]["calls"]["ratio"] if rows else float("nan")
    print(
        f"  routed makes {total_ratio:.2f}x fewer calls overall ({day1:.2f}x on day "
        f"{rows[0]['day'] if rows else '-'}, same table in both modes); target >= {TARGET}x: "
        f"{'met' if total_ratio >= TARGET else 'MISSED'}"
    )
    return {"rows": rows, "results": [r.result for r in runs], "calls_ratio": total_ratio}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--messages-per-player", type=int, default=3)
    parser.add_argument("--local", action="store_true", help="also a short real-model game")
    parser.add_argument("--local-players", type=int, default=5)
    args = parser.parse_args()
    # Every NO_MODEL call is an injected error by design: don't log each one.
    logging.getLogger("parlour").setLevel(logging.ERROR)
    tokenize = local_tokenizer()
    extra: dict[str, object] = {"messages_per_player": args.messages_per_player}
    runs = measure(NO_MODEL, args.players, args.seed, extra, 0, tokenize)
    out: dict[str, Any] = {
        "bench": "werewolf_routing",
        "players": args.players,
        "seed": args.seed,
        "messages_per_player": args.messages_per_player,
        "no_model": print_table(
            f"{args.players} players, seed {args.seed}, all seats LLM ({NO_MODEL}, retries 0; "
            "tokens: bundled tokenizer); columns: routed r, ask_all a, ratio a/r",
            runs,
        ),
    }
    if args.local:
        local_extra = {**extra, "max_days": 1}
        real = measure("local", args.local_players, args.seed, local_extra, 2, None)
        out["local"] = print_table(
            f"real model: local (SmolLM2-135M), {args.local_players} players, seed "
            f"{args.seed}, 1 day, retries 2; calls = all attempts, tokens = backend's "
            "input tokens of first attempts, uncached = input - cached",
            real,
        )
        out["local"]["seconds"] = [r.seconds for r in real]
    print(json.dumps(out))


if __name__ == "__main__":
    main()

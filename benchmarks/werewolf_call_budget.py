"""The main job's model work, counted without the model: free speech vs speech acts.

For scripted 7-player werewolf games (the README's first command, with the router
scripted as it is by default), every decision a model-played seat would get is turned
into the prompt ``LlmSeat`` would send (``benchmarks/prompt_prefix.py``: the same view →
parts → flatten → ChatML → the bundled tokenizer). Per configuration:

- calls: first attempts (retries and fallbacks need the model, so are not counted); a
  decision with a single legal answer is answered by the LLM seat without a call
  (``seats/llm.py``: ``only_answer``, stored as ``by="engine"``) and counted apart;
- prompt tokens, and tokens to evaluate: what the seat's KV cache cannot serve, i.e.
  the prompt minus its common prefix with the same seat's previous prompt (the local
  backend restores the seat's latest snapshot: ``models/kv_cache.py``); cached share =
  1 - evaluated / prompt tokens;
- output budget: the sum of each decision's ``max_tokens`` (the seat's default, 160,
  when the decision gives none): an upper bound on generated tokens.

"before" is ``speech=free`` (every seat writes its speech, pack chat and diary); "after"
is the embedded model's default now (``speech=auto`` with every player in ``act_seats``
and no phrase: speech acts, pack chat acts, no diary call). The same seeds are played
both ways; scripted answers make the games differ after the first speech, so the
figures are per game and per call.

    uv run python benchmarks/werewolf_call_budget.py [--games 5] [--seed 1] [--players 7]
"""

from __future__ import annotations

import statistics
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import scripted_games_parser, seeds
from benchmarks.prompt_prefix import Tokenize, common_prefix, local_tokenizer
from parlour.core.rng import Rng, hash_seed
from parlour.games.werewolf import MODULE, WerewolfGame
from parlour.games.werewolf.prompts import PROMPTER
from parlour.models.replay import ReplayBackend
from parlour.seats.llm import LlmSeat, LlmSeatConfig, only_answer, output_spec

CONFIGS: dict[str, dict[str, object]] = {
    "before (free speech)": {"speech": "free"},
    "after (speech acts)": {"speech": "auto", "speech_phrase_words": 0},
}


@dataclass(frozen=True)
class Budget:
    games: int
    calls: int
    by_purpose: dict[str, int]
    #: decisions with one legal answer: no call (``only_answer``)
    engine: int
    prompt_tokens: int
    evaluated: int
    output_budget: int

    @property
    def cached(self) -> float:
        return 1 - self.evaluated / self.prompt_tokens if self.prompt_tokens else 0.0


def play(players: int, seed: int, options: dict[str, object], tokenize: Tokenize) -> Budget:
    opts = dict(options)
    if opts.get("speech") == "auto":
        opts["act_seats"] = [f"p{i}" for i in range(1, players + 1)]
    game = MODULE.game.new(MODULE.make_config(players, opts), seed)
    assert isinstance(game, WerewolfGame)
    seat = LlmSeat(
        ReplayBackend([]), PROMPTER, MODULE.fallback_policy, seat_id="x", seed=0, cache_key="x"
    )
    default_max = LlmSeatConfig().default_max_tokens
    last: dict[str, list[int]] = {}
    purposes: Counter[str] = Counter()
    prompt = evaluated = budget = engine = 0
    while not game.is_terminal():
        for d in game.pending():
            if d.seat == "router":  # scripted by default: no model call
                continue
            if only_answer(d) is not None:  # the seat answers without the model
                engine += 1
                continue
            messages = seat.base_messages(game.view(d.seat), d, output_spec(d)[0])
            tokens, _ = tokenize(messages)
            reused = min(common_prefix(last.get(d.seat, []), tokens), len(tokens) - 1)
            last[d.seat] = tokens
            purposes[d.purpose] += 1
            prompt += len(tokens)
            evaluated += len(tokens) - reused
            budget += d.max_tokens or default_max
        for d in game.pending():
            game.apply(d.id, MODULE.policy(game.view(d.seat), d, Rng(hash_seed(seed, d.id))))
    return Budget(1, sum(purposes.values()), dict(purposes), engine, prompt, evaluated, budget)


def total(parts: list[Budget]) -> Budget:
    purposes: Counter[str] = Counter()
    for b in parts:
        purposes.update(b.by_purpose)
    return Budget(
        games=len(parts),
        calls=sum(b.calls for b in parts),
        by_purpose=dict(purposes),
        engine=sum(b.engine for b in parts),
        prompt_tokens=sum(b.prompt_tokens for b in parts),
        evaluated=sum(b.evaluated for b in parts),
        output_budget=sum(b.output_budget for b in parts),
    )


def main() -> None:
    args = scripted_games_parser(__doc__.split("\n\n")[0], games=5, players=7).parse_args()
    tokenize = local_tokenizer()
    played = seeds(args)
    print(
        f"{args.games} scripted {args.players}-player games per row (seeds {played.start}.."
        f"{played.stop - 1}), per game:"
    )
    print(
        "| configuration | calls | answered without a call | prompt tokens | evaluated (not "
        "cached) | cached share | output budget | evaluated per call | calls by purpose |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    rows: dict[str, Budget] = {}
    for name, options in CONFIGS.items():
        b = total([play(args.players, s, options, tokenize) for s in played])
        rows[name] = b
        n = b.games
        mix = ", ".join(f"{k} {v / n:.1f}" for k, v in sorted(b.by_purpose.items()))
        print(
            f"| {name} | {b.calls / n:.1f} | {b.engine / n:.1f} | {b.prompt_tokens / n:,.0f} "
            f"| {b.evaluated / n:,.0f} "
            f"| {b.cached:.0%} | {b.output_budget / n:,.0f} | {b.evaluated / b.calls:.0f} | {mix} |"
        )
    before, after = rows.values()
    per = statistics.fmean
    print(
        f"after / before per game: calls {after.calls / before.calls:.2f}, evaluated tokens "
        f"{after.evaluated / before.evaluated:.2f}, output budget "
        f"{after.output_budget / before.output_budget:.2f} "
        f"(mean of {per([after.games, before.games]):.0f} games each)"
    )


if __name__ == "__main__":
    main()

"""Prompt-prefix stability: how much of each prompt a seat's KV / provider cache can reuse.

For every decision of full 9-player scripted werewolf games, the prompt an LLM seat
would send is built exactly as ``LlmSeat`` builds it (view → ``PROMPTER.parts`` + format
instruction → ``flatten`` → ``Message``s), rendered as the ChatML text the local backend
evaluates (``render_chatml``) and tokenized with the bundled model's tokenizer (vocab
only, no weights). For consecutive calls of the same seat, the metric is
``common prefix tokens / tokens of the later prompt``: the share a cache keyed on the
previous call serves. Pairs are split by whether both calls fall in the same phase (day
N, night N) or straddle a phase boundary (where memory changes by design), and within a
day by the later call's purpose. Target: ≥ 85% within a day. The share over all calls
(the first call of each seat counted as 0) is the baseline it is compared with.

The rest of each later prompt is split into its command section ("## Now" to the end:
the command, reminders and format instruction, which are never kept in history, so no
cache can hold them: ``cmd``) and history that is new since the seat's previous call
(``new``); ``hist`` is the share of the later prompt's history (all but its command)
that was reused.

If the recorded fixture ``tests/fixtures/werewolf_local.sqlite`` exists, the same metric
is computed on its real recorded prompts (first attempts only) too.

    uv run python benchmarks/prompt_prefix.py [--games 3] [--seed 1] [--players 9]

``--campaign`` measures campaign's directors instead (issue 30: >= 85% cached input
tokens per director): scripted night_school campaigns (``--sessions``, ``--turns``), every
director's prompt built as ``LlmSeat`` builds it and tokenized as above, played through
the local backend's own snapshot cache (``models/kv_cache.KVStateCache`` with its default
bounds, one stream per seat, plus the context's live tokens), so a call reuses the
longest prefix of any kept snapshot, as on the embedded model. Reported per director:
cached tokens / input tokens over all its calls (first calls included), and its longest
prompt (the embedded model's window is 4,096 tokens). ``--acts`` plays the seats as
``--model local`` sets them up: the PC, scene and game directors choose among worded
answers (the story director is scripted and makes no call), and a decision with one
legal answer costs no call. Retries, which
repeat a prompt with feedback at its end, are not modelled (scripted answers are valid).

    uv run python benchmarks/prompt_prefix.py --campaign --games 3 [--sessions 3] [--turns 6]
"""

from __future__ import annotations

import json
import sqlite3
import statistics
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import scripted_games_parser, seeds
from parlour.core.rng import Rng, hash_seed
from parlour.games.werewolf import MODULE, WerewolfGame
from parlour.games.werewolf.prompts import PROMPTER
from parlour.models.local import bundled_model_path, render_chatml
from parlour.models.messages import Message
from parlour.models.replay import ReplayBackend
from parlour.seats.llm import LlmSeat, only_answer, output_spec

TARGET = 0.85
FIXTURE = Path(__file__).parents[1] / "tests" / "fixtures" / "werewolf_local.sqlite"

#: messages → (prompt tokens, tokens of the command section at its end)
Tokenize = Callable[[Sequence[Message]], tuple[list[int], int]]
COMMAND_HEADING = "## Now\n"
#: The seats ``--model local`` puts in acts (the story director stays scripted).
ACT_SEATS = ("player", "scene-director", "game-director")


def local_tokenizer() -> Tokenize:
    """The bundled model's tokenizer over ChatML, as ``LocalBackend._tokenize`` uses it."""
    import llama_cpp

    llm = llama_cpp.Llama(model_path=str(bundled_model_path()), vocab_only=True, verbose=False)

    def tokens(text: str) -> list[int]:
        return list(llm.tokenize(text.encode("utf-8"), add_bos=False, special=True))

    def tokenize(messages: Sequence[Message]) -> tuple[list[int], int]:
        text = render_chatml(messages)
        # The command (with reminders and the format instruction) is the never-stored
        # tail; its size says how much of a miss is by design rather than a broken prefix.
        at = text.rfind(COMMAND_HEADING)
        return tokens(text), len(tokens(text[at:])) if at >= 0 else 0

    return tokenize


@dataclass(frozen=True)
class Call:
    #: the seat's stream: a game and a seat (a cache never spans games)
    seat: str
    phase: str
    purpose: str
    tokens: tuple[int, ...]
    command_tokens: int


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n


# -- prompts of a scripted game ------------------------------------------------------------


def game_calls(players: int, seed: int, tokenize: Tokenize) -> list[Call]:
    """Every prompt an all-LLM table (router included) would send, in call order."""
    game = MODULE.game.new(MODULE.make_config(players, {}), seed)
    assert isinstance(game, WerewolfGame)
    seat = LlmSeat(
        ReplayBackend([]), PROMPTER, MODULE.fallback_policy, seat_id="x", seed=0, cache_key="x"
    )
    calls: list[Call] = []
    while not game.is_terminal():
        for decision in game.pending():
            view = game.view(decision.seat)
            messages = seat.base_messages(view, decision, output_spec(decision)[0])
            tokens, command = tokenize(messages)
            stream = f"{seed}:{decision.seat}"
            calls.append(Call(stream, view.phase, decision.purpose, tuple(tokens), command))
        for d in game.pending():
            game.apply(d.id, MODULE.policy(game.view(d.seat), d, Rng(hash_seed(seed, d.id))))
    return calls


def fixture_calls(path: Path, tokenize: Tokenize) -> list[Call]:
    """First attempts recorded in the fixture DB (retries repeat the same base prompt)."""
    # immutable: read a committed fixture without creating -wal/-shm files next to it
    conn = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    try:
        rows = conn.execute(
            "SELECT game_id || ':' || cache_key, phase, purpose, messages FROM model_calls "
            "WHERE attempt = 1 ORDER BY id"
        ).fetchall()
    finally:
        conn.close()
    out: list[Call] = []
    for key, phase, purpose, raw in rows:
        messages = [Message.model_validate(m) for m in json.loads(raw)]
        tokens, command = tokenize(messages)
        out.append(Call(str(key), str(phase), str(purpose), tuple(tokens), command))
    return out


# -- the metric ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Pair:
    kind: str  # "within day" | "within night" | "across phases"
    purpose: str
    shared: int
    tokens: int
    #: the later prompt's command section (never cacheable: it is not kept in history)
    command: int

    @property
    def share(self) -> float:
        return self.shared / self.tokens

    @property
    def history_share(self) -> float:
        """The share of the later prompt's history (all but its command) that was reused."""
        return min(1.0, self.shared / max(1, self.tokens - self.command))


def pairs(calls: Iterable[Call]) -> tuple[list[Pair], int, int]:
    """Consecutive same-seat pairs; also the total tokens and the seats' first calls."""
    last: dict[str, Call] = {}
    out: list[Pair] = []
    first_tokens = 0
    for call in calls:
        prev = last.get(call.seat)
        last[call.seat] = call
        if prev is None:
            first_tokens += len(call.tokens)
            continue
        # Memory (records, diary) changes only at phase boundaries: dawn → day → evening
        # (diaries) → night; so "within" means the very same phase.
        if prev.phase != call.phase:
            kind = "across phases"
        else:
            kind = "within night" if call.phase.startswith("night") else "within day"
        shared = common_prefix(prev.tokens, call.tokens)
        out.append(Pair(kind, call.purpose, shared, len(call.tokens), call.command_tokens))
    return out, first_tokens, len(last)


def describe(group: list[Pair]) -> dict[str, Any]:
    shares = sorted(p.share for p in group)

    def q(f: float) -> float:
        return shares[int(f * (len(shares) - 1))]

    return {
        "pairs": len(group),
        "mean": statistics.mean(shares),
        "token_weighted": sum(p.shared for p in group) / sum(p.tokens for p in group),
        "p10": q(0.10),
        "median": q(0.5),
        "p90": q(0.90),
        "min": shares[0],
        "mean_tokens": round(statistics.mean(p.tokens for p in group)),
        # where the rest of the later prompt goes: its command, and new history
        "command_share": sum(p.command for p in group) / sum(p.tokens for p in group),
        "new_history_share": sum(p.tokens - p.shared - p.command for p in group)
        / sum(p.tokens for p in group),
        "history_reused": statistics.mean(p.history_share for p in group),
        "buckets": {
            "<50%": sum(s < 0.5 for s in shares),
            "50-85%": sum(0.5 <= s < 0.85 for s in shares),
            "85-95%": sum(0.85 <= s < 0.95 for s in shares),
            ">=95%": sum(s >= 0.95 for s in shares),
        },
    }


def report(title: str, calls: list[Call]) -> dict[str, Any]:
    found, first_tokens, seats = pairs(calls)
    by_kind: dict[str, list[Pair]] = defaultdict(list)
    by_purpose: dict[str, list[Pair]] = defaultdict(list)
    for p in found:
        by_kind[p.kind].append(p)
        if p.kind == "within day":
            by_purpose[p.purpose].append(p)
    total_tokens = sum(len(c.tokens) for c in calls)
    # Baseline in the same run: the share of all prompt tokens a cache could serve at all
    # (each seat's first call is entirely new).
    overall = sum(p.shared for p in found) / total_tokens
    rows = {k: describe(v) for k, v in sorted(by_kind.items())}
    purposes = {k: describe(v) for k, v in sorted(by_purpose.items())}
    print(f"\n{title}: {len(calls)} calls by {seats} seats, {total_tokens} prompt tokens")
    head = f"{'pairs':<20}{'n':>5}{'mean':>7}{'tok-wt':>7}{'p10':>7}{'median':>7}{'min':>7}"
    head += f"{'tokens':>7}{'cmd':>6}{'new':>6}{'hist':>7}"
    print(head + "  <50 / 50-85 / 85-95 / >=95")
    for name, row in [*rows.items(), *((f"  day: {k}", v) for k, v in purposes.items())]:
        b = row["buckets"]
        print(
            f"{name:<20}{row['pairs']:>5}{row['mean']:>7.1%}{row['token_weighted']:>7.1%}"
            f"{row['p10']:>7.1%}{row['median']:>7.1%}{row['min']:>7.1%}{row['mean_tokens']:>7}"
            f"{row['command_share']:>6.0%}{row['new_history_share']:>6.0%}"
            f"{row['history_reused']:>7.1%}"
            f"  {b['<50%']} / {b['50-85%']} / {b['85-95%']} / {b['>=95%']}"
        )
    within = rows.get("within day", {}).get("mean", 0.0)
    print(
        f"all calls (first calls count 0): {overall:.1%} of prompt tokens are a previous "
        f"prefix; within a day: {within:.1%} (target >= {TARGET:.0%}: "
        f"{'met' if within >= TARGET else 'MISSED'}); ratio {within / overall:.2f}x"
    )
    return {
        "calls": len(calls),
        "seats": seats,
        "prompt_tokens": total_tokens,
        "first_call_tokens": first_tokens,
        "overall_share": overall,
        "by_kind": rows,
        "within_day_by_purpose": purposes,
        "target_met": within >= TARGET,
    }


def _campaign_row() -> dict[str, int]:
    keys = ("calls", "input", "cached", "longest", "first", "command", "history")
    return dict.fromkeys(keys, 0)


def campaign_cached(
    seed: int, sessions: int, turns: int, tokenize: Tokenize, acts: bool = False
) -> dict[str, Any]:
    """One scripted night_school campaign through the local backend's snapshot cache:
    per seat, calls, input tokens and the tokens a kept snapshot (or the live context)
    served. With ``acts`` the seats the embedded model plays by default (the PC, the scene
    and the game director) answer in acts, as ``--model local`` sets them up, and a
    decision with one legal answer costs no call, as ``LlmSeat`` skips it."""
    import numpy as np

    from parlour.games.campaign import MODULE as CAMPAIGN
    from parlour.games.campaign import CampaignGame, make_config
    from parlour.games.campaign.policies import campaign_policy
    from parlour.models.kv_cache import KVStateCache

    options: dict[str, Any] = {"sessions": sessions, "turns_per_session": turns}
    if acts:
        options["act_seats"] = ",".join(ACT_SEATS)
    game = CampaignGame(make_config(None, options), seed)
    seat = LlmSeat(
        ReplayBackend([]),
        CAMPAIGN.prompter,
        CAMPAIGN.fallback_policy,
        seat_id="x",
        seed=0,
        cache_key="x",
    )
    cache = KVStateCache()
    live = np.zeros(0, dtype=np.int32)
    rng = Rng(seed + 1)
    per: dict[str, dict[str, int]] = defaultdict(_campaign_row)
    while not game.is_terminal():
        decision = game.pending()[0]
        view = game.view(decision.seat)
        # the story director is scripted on the embedded model: it makes no call
        if acts and (decision.seat not in ACT_SEATS or only_answer(decision) is not None):
            game.apply(decision.id, CAMPAIGN.fallback_policy(view, decision, rng))
            continue
        messages = seat.base_messages(view, decision, output_spec(decision)[0])
        tokens, command = tokenize(messages)
        prompt = np.asarray(tokens, dtype=np.int32)
        _, kept = cache.best(prompt, decision.seat)
        n = len(prompt)
        from_live = int(np.flatnonzero(np.append(live[:n] != prompt[: len(live)], True))[0])
        reused = min(max(kept, from_live), n - 1)  # one token is always evaluated
        row = per[decision.seat]
        row["calls"] += 1
        row["input"] += n
        row["cached"] += reused
        row["longest"] = max(row["longest"], n)
        # where the uncached tokens are: a director's first call (nothing to reuse), its
        # command (never kept: the command, reminders and answer format), or history
        missed = n - reused
        if row["calls"] == 1:
            row["first"] += missed
        else:
            row["command"] += min(command, missed)
            row["history"] += missed - min(command, missed)
        cache.put(decision.seat, prompt, b"")
        live = prompt
        answer = (CAMPAIGN.fallback_policy if acts else campaign_policy)(view, decision, rng)
        game.apply(decision.id, answer)
    return dict(per)


def campaign_main(args: Any, tokenize: Tokenize) -> None:
    totals: dict[str, dict[str, int]] = defaultdict(_campaign_row)
    per_seed: dict[int, dict[str, float]] = {}
    for s in seeds(args):
        got = campaign_cached(s, args.sessions, args.turns, tokenize, args.acts)
        per_seed[s] = {k: round(v["cached"] / v["input"], 3) for k, v in sorted(got.items())}
        for k, v in got.items():
            for f in ("calls", "input", "cached", "first", "command", "history"):
                totals[k][f] += v[f]
            totals[k]["longest"] = max(totals[k]["longest"], v["longest"])
    played = list(seeds(args))
    how = "in acts (as --model local plays it)" if args.acts else "writing"
    print(f"campaign night_school, {args.sessions} sessions x {args.turns} turns, seeds {played}")
    print(f"seats {how}")
    head = f"{'seat':<16}{'calls':>6}{'input tok':>11}{'cached':>9}{'share':>8}{'longest':>9}"
    print(f"{head}  per seed")
    for k, v in sorted(totals.items()):
        share = v["cached"] / v["input"]
        by_seed = " ".join(f"{per_seed[s][k]:.1%}" for s in per_seed)
        row = f"{k:<16}{v['calls']:>6}{v['input']:>11}{v['cached']:>9}{share:>8.1%}"
        print(f"{row}{v['longest']:>9}  {by_seed}")
    print("uncached input, as a share of all input: first calls / commands / new history")
    for k, v in sorted(totals.items()):
        parts = " / ".join(f"{v[f] / v['input']:.1%}" for f in ("first", "command", "history"))
        print(f"{k:<16}{parts}")
    print(json.dumps({"bench": "prompt_prefix", "game": "campaign", "per_seed": per_seed}))


def main() -> None:
    parser = scripted_games_parser(None, games=3, players=9)
    parser.add_argument("--fixture", type=Path, default=FIXTURE)
    parser.add_argument("--campaign", action="store_true", help="campaign's directors instead")
    parser.add_argument("--sessions", type=int, default=3, help="campaign: sessions")
    parser.add_argument("--turns", type=int, default=6, help="campaign: turns per session")
    parser.add_argument(
        "--acts",
        action="store_true",
        help="campaign: the embedded model's act seats (player, scene and game director)",
    )
    args = parser.parse_args()
    if args.acts and not args.campaign:
        parser.error("--acts measures campaign's seats: add --campaign")
    tokenize = local_tokenizer()
    if args.campaign:
        campaign_main(args, tokenize)
        return
    played = list(seeds(args))
    calls = [c for s in played for c in game_calls(args.players, s, tokenize)]
    out: dict[str, Any] = {"bench": "prompt_prefix", "players": args.players, "seeds": played}
    out["scripted"] = report(f"scripted games, {args.players} players, seeds {played}", calls)
    if args.fixture.is_file():
        recorded = fixture_calls(args.fixture, tokenize)
        if recorded:
            out["fixture"] = report(f"recorded fixture {args.fixture.name}", recorded)
    print(json.dumps(out))


if __name__ == "__main__":
    main()

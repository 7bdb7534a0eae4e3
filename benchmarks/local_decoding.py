"""Decoding settings for the embedded model, chosen by measurement (issue 12).

Takes the free-text prompts of stored model calls (first attempts of ``speak``,
``wolf_chat``, ``diary``, ``debrief``, ``narrate``... decisions: every call whose output
spec is text) and answers each again on the embedded model under several settings of
temperature, top-p and repetition penalty, with the same seed per prompt. For each
setting it reports:

- accepted first time: the answer is non-empty and passes the shared guards the games
  use (``seats/text_guard.py``: no 8-token copy of the instructions, i.e. the system
  message and the final command; no repeated 4-gram);
- distinct-2: distinct token bigrams / all bigrams over the setting's answers (higher is
  less repetitive);
- copy rate: answers sharing >= 8 consecutive tokens with anything in their prompt;
- tokens per answer, and the share cut by the token limit.

Per-purpose token limits are reported from the same runs: for each purpose, the share of
answers the limit cut and the mean length of the accepted ones.

    uv run python benchmarks/local_decoding.py --db tests/fixtures/werewolf_local.sqlite
    uv run python benchmarks/local_decoding.py --db /tmp/q.sqlite --prompts 12 --json out.json
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import time
from collections import defaultdict
from dataclasses import asdict, dataclass
from typing import Any

from parlour.core.text_rules import text_tokens
from parlour.models.local import shared_local_backend
from parlour.models.messages import Message, ModelRequest, OutputSpec, Settings
from parlour.runtime.store import CallRecord, Store, db_url
from parlour.seats.text_guard import copied_instructions, repeated_ngram


@dataclass(frozen=True)
class Setting:
    name: str
    temperature: float
    top_p: float
    repeat_penalty: float


#: The old default first (the baseline), then one change at a time, then combinations.
SETTINGS: tuple[Setting, ...] = (
    Setting("old default", 0.7, 0.95, 1.0),
    Setting("rep 1.15", 0.7, 0.95, 1.15),
    Setting("rep 1.3", 0.7, 0.95, 1.3),
    Setting("temp 0.4 rep 1.15", 0.4, 0.95, 1.15),
    Setting("top-p 0.8 rep 1.15", 0.7, 0.8, 1.15),
)


@dataclass(frozen=True)
class Prompt:
    purpose: str
    messages: tuple[Message, ...]
    output: OutputSpec

    @property
    def instructions(self) -> list[str]:
        system = [m.content for m in self.messages if m.role == "system"]
        return [*system, self.messages[-1].content]


@dataclass(frozen=True)
class Answer:
    purpose: str
    text: str
    tokens: int
    cut: bool
    accepted: bool
    copied: bool


@dataclass(frozen=True)
class Row:
    setting: str
    temperature: float
    top_p: float
    repeat_penalty: float
    answers: int
    accepted: float
    distinct2: float
    copy_rate: float
    tokens_per_answer: float
    cut: float
    seconds: float


def prompts_of(store: Store, limit: int) -> list[Prompt]:
    """First attempts of free-text decisions, at most ``limit``, spread over purposes."""
    by_purpose: dict[str, list[CallRecord]] = defaultdict(list)
    for row in store.list_games(limit=1000):
        seen: set[str] = set()
        for call in store.calls(row.id):
            if call.decision_id in seen or call.output_spec.get("kind", "text") != "text":
                continue
            if not call.messages or call.outcome not in ("valid", "invalid"):
                continue
            seen.add(call.decision_id)
            by_purpose[call.purpose].append(call)
    picked: list[CallRecord] = []
    while len(picked) < limit and any(by_purpose.values()):
        for calls in by_purpose.values():  # round-robin: every purpose is represented
            if calls and len(picked) < limit:
                picked.append(calls.pop(0))
    return [
        Prompt(
            purpose=c.purpose,
            messages=tuple(Message(role=m["role"], content=m["content"]) for m in c.messages),
            output=OutputSpec.model_validate(c.output_spec),
        )
        for c in picked
    ]


def distinct2(texts: list[str]) -> float:
    grams: list[tuple[str, str]] = []
    for text in texts:
        tokens = text_tokens(text)
        grams.extend(itertools.pairwise(tokens))
    return len(set(grams)) / len(grams) if grams else 0.0


async def answer(backend: Any, prompt: Prompt, setting: Setting, seed: int, cap: int) -> Answer:
    request = ModelRequest(
        messages=prompt.messages,
        output=prompt.output,
        settings=Settings(
            temperature=setting.temperature,
            top_p=setting.top_p,
            repeat_penalty=setting.repeat_penalty,
            max_tokens=cap,
            seed=seed,
            timeout_s=600,
        ),
        cache_key=f"decoding:{seed}",
        purpose=prompt.purpose,
    )
    response = await backend.complete(request)
    text = response.text.strip()
    whole = "\n".join(m.content for m in prompt.messages)
    accepted = bool(text) and (
        copied_instructions(text, prompt.instructions) is None and repeated_ngram(text) is None
    )
    return Answer(
        purpose=prompt.purpose,
        text=text,
        tokens=response.usage.output_tokens,
        cut=response.raw.get("stop") == "length",
        accepted=accepted,
        copied=copied_instructions(text, [whole]) is not None,
    )


async def run(prompts: list[Prompt], settings: tuple[Setting, ...], cap: int) -> dict[str, Any]:
    backend = shared_local_backend()
    rows: list[Row] = []
    answers: dict[str, list[Answer]] = {}
    for setting in settings:
        started = time.perf_counter()
        got = [await answer(backend, p, setting, i, cap) for i, p in enumerate(prompts)]
        answers[setting.name] = got
        n = len(got)
        rows.append(
            Row(
                setting=setting.name,
                temperature=setting.temperature,
                top_p=setting.top_p,
                repeat_penalty=setting.repeat_penalty,
                answers=n,
                accepted=sum(a.accepted for a in got) / n,
                distinct2=distinct2([a.text for a in got]),
                copy_rate=sum(a.copied for a in got) / n,
                tokens_per_answer=sum(a.tokens for a in got) / n,
                cut=sum(a.cut for a in got) / n,
                seconds=time.perf_counter() - started,
            )
        )
        print(_line(rows[-1]), flush=True)
    return {"rows": rows, "answers": answers}


def _line(r: Row) -> str:
    return (
        f"| {r.setting} | {r.temperature:g} | {r.top_p:g} | {r.repeat_penalty:g} | "
        f"{r.accepted:.0%} | {r.distinct2:.2f} | {r.copy_rate:.0%} | "
        f"{r.tokens_per_answer:.0f} | {r.cut:.0%} | {r.seconds:.0f} s |"
    )


def best(rows: list[Row]) -> Row:
    """Most answers accepted first time, then fewer copies, then more distinct bigrams."""
    return max(rows, key=lambda r: (round(r.accepted, 3), -r.copy_rate, r.distinct2))


def per_purpose(answers: list[Answer]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for purpose in sorted({a.purpose for a in answers}):
        mine = [a for a in answers if a.purpose == purpose]
        kept = [a for a in mine if a.accepted]
        out[purpose] = {
            "answers": len(mine),
            "cut": sum(a.cut for a in mine) / len(mine),
            "accepted_tokens": sum(a.tokens for a in kept) / len(kept) if kept else 0.0,
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="a store with recorded model calls")
    parser.add_argument("--prompts", type=int, default=12, help="free-text prompts to replay")
    parser.add_argument("--max-tokens", type=int, default=80, help="token limit per answer")
    parser.add_argument("--json", default=None, help="also write every answer here")
    args = parser.parse_args()
    prompts = prompts_of(Store(db_url(args.db)), args.prompts)
    if not prompts:
        raise SystemExit(f"{args.db} holds no free-text model calls; record a game first")
    purposes = ", ".join(sorted({p.purpose for p in prompts}))
    print(f"{len(prompts)} recorded prompts ({purposes}), limit {args.max_tokens} tokens")
    print(
        "| setting | temp | top-p | repeat penalty | accepted first time | distinct-2 | "
        "copy rate | tokens/answer | cut by limit | time |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    result = asyncio.run(run(prompts, SETTINGS, args.max_tokens))
    rows: list[Row] = result["rows"]
    top = best(rows)
    print(f"best: {top.setting}")
    for purpose, figures in per_purpose(result["answers"][top.setting]).items():
        print(
            f"  {purpose}: {figures['answers']:.0f} answers, {figures['cut']:.0%} cut by the "
            f"limit, accepted answers {figures['accepted_tokens']:.0f} tokens on average"
        )
    if args.json:
        payload = {
            "rows": [asdict(r) for r in rows],
            "answers": {k: [asdict(a) for a in v] for k, v in result["answers"].items()},
        }
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(payload, fh, indent=1)


if __name__ == "__main__":
    main()

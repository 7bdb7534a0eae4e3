"""How close a player's message is to each action, by a small sentence-embedding model.

The model is WordLlama (``wordllama`` on PyPI): static token embeddings, 256 numbers per
token, averaged and normalised; its weights (16 MB) and tokenizer ship inside the wheel and
are read from there, so nothing is downloaded at run time. Embedding a message takes about
a millisecond on one CPU core; the room's texts are embedded once and kept.

An action is described by several texts: its description and its ``also`` phrasings. The
message's closeness to an action is the best cosine over those texts. The model places
whole phrases well ("peek out of the porthole" by "look out of the porthole") but single
words of like meaning far apart ("yank" and "pull": about 0.06), so ``word_closeness`` is
in practice a check for the same word.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

#: The model's files inside the ``wordllama`` package.
WEIGHTS = ("weights", "l2_supercat_256.safetensors")
TOKENIZER = ("tokenizers", "l2_supercat_tokenizer_config.json")

_lock = threading.Lock()


@lru_cache(maxsize=1)
def _model() -> Any:
    """The WordLlama model, loaded once from the files its wheel ships."""
    import wordllama
    from safetensors import safe_open
    from tokenizers import Tokenizer
    from wordllama.inference import WordLlamaInference

    root = Path(wordllama.__file__).parent
    tokenizer = Tokenizer.from_file(str(root.joinpath(*TOKENIZER)))
    with safe_open(str(root.joinpath(*WEIGHTS)), framework="np") as f:
        table = f.get_tensor("embedding.weight")
    return WordLlamaInference(table, tokenizer)


@lru_cache(maxsize=4096)
def _vector(text: str) -> Any:
    with _lock:
        return _model().embed([text], norm=True)[0]


def closeness(message: str, texts: Sequence[str]) -> float:
    """The best cosine between ``message`` and any of ``texts`` (0.0 for no texts)."""
    if not texts or not message.strip():
        return 0.0
    import numpy as np

    said = _vector(message)
    return float(max(np.dot(said, _vector(t)) for t in texts))


def rank_actions(
    message: str, texts: Sequence[tuple[str, Sequence[str]]]
) -> list[tuple[float, str]]:
    """``texts``: (action id, its texts) pairs; (closeness, id), closest first."""
    scored = [(closeness(message, these), aid) for aid, these in texts]
    return sorted(scored, key=lambda s: -s[0])


def word_closeness(word: str, others: Sequence[str]) -> float:
    """The best cosine between one word and any of ``others`` (0.0 for none)."""
    if not word or not others:
        return 0.0
    import numpy as np

    said = _vector(word)
    return float(max(np.dot(said, _vector(o)) for o in others))

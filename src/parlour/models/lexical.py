"""Deterministic lexical ranking (BM25 via ``bm25s``): the fallback when no embedding
model is given. Same query and documents → same scores and the same order, always.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

#: Scores are compared at this precision, so float noise can never reorder equal matches.
SCORE_DIGITS = 6


def _bm25s() -> ModuleType:
    # Imported when first used: bm25s brings numpy, half a second at the start of every
    # command (``parlour serve`` included) that never ranks anything.
    import bm25s

    module: ModuleType = bm25s
    return module


def _tokens(texts: Sequence[str]) -> list[list[str]]:
    bm25s = _bm25s()
    tokens = bm25s.tokenize(list(texts), stopwords="en", return_ids=False, show_progress=False)
    return [list(t) for t in tokens]


def bm25_scores(query: str, documents: Sequence[str]) -> list[float]:
    """The BM25 score of every document for ``query`` (0.0 for no shared term)."""
    if not documents:
        return []
    query_tokens = _tokens([query])[0]
    if not query_tokens:
        return [0.0] * len(documents)
    bm25s = _bm25s()
    retriever = bm25s.BM25()
    retriever.index(
        bm25s.tokenize(list(documents), stopwords="en", show_progress=False), show_progress=False
    )
    known = [t for t in query_tokens if t in retriever.vocab_dict]
    if not known:
        return [0.0] * len(documents)
    return [float(s) for s in retriever.get_scores(known)]


def top_k(scores: Sequence[float], k: int, *, minimum: float | None = None) -> list[int]:
    """Indices of the ``k`` best scores, best first; ties go to the later index (the more
    recent record), so the order is total and stable. ``minimum`` drops weaker scores."""
    ranked = sorted(
        (i for i, s in enumerate(scores) if minimum is None or s > minimum),
        key=lambda i: (-round(scores[i], SCORE_DIGITS), -i),
    )
    return ranked[: max(0, k)]

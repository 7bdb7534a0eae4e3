"""The three shipped context components: Memory, Journal and Recall.

- ``Memory``: exact facts the game exposes in the seat's view (its private facts).
- ``Journal``: the seat's own earlier accepted answers, read from the store.
- ``Recall``: the top-k earlier events the seat saw that best match the current decision,
  ranked by an embedding model when one is given, else by BM25 (deterministic either way).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from parlour.core.decisions import Decision
from parlour.core.events import Event
from parlour.core.view import AnyView, facts_dict
from parlour.models.base import Embedder
from parlour.models.lexical import SCORE_DIGITS, bm25_scores, top_k
from parlour.seats.context import ContextReader, ContextSection, Retrieval

#: One recalled or journalled line is cut here: context is a reminder, not a transcript.
LINE_CHARS = 240


def _line(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= LINE_CHARS else flat[: LINE_CHARS - 1] + "…"


def _fact(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def _listed(
    component: str, method: str, title: str, ids: Sequence[str], lines: Sequence[str]
) -> ContextSection:
    """A section of one line per item found, logged as retrieving exactly those lines."""
    return ContextSection(
        title=title,
        text="\n".join(lines),
        retrieval=Retrieval(component=component, method=method, ids=tuple(ids), texts=tuple(lines)),
    )


@dataclass(frozen=True)
class Memory:
    """The seat's private facts from its view, one ``key: value`` line each, sorted by key.
    ``keys`` picks and orders some facts; by default all of them."""

    keys: tuple[str, ...] = ()
    name: str = "memory"

    async def gather(
        self, view: AnyView, decision: Decision, reader: ContextReader
    ) -> ContextSection | None:
        facts = facts_dict(view.private)
        keys = self.keys or tuple(sorted(facts))
        present = [k for k in keys if k in facts]
        if not present:
            return None
        lines = [f"- {k}: {_line(_fact(facts[k]))}" for k in present]
        return _listed(self.name, "view", "Facts you hold", present, lines)


def _answer_text(text: str) -> str:
    """A stored answer as a reminder: prose as is; a JSON choice as 'chose X (why)'."""
    try:
        parsed = json.loads(text)
    except ValueError:
        return text
    if not isinstance(parsed, dict):
        return text
    picked = parsed.get("choice", parsed.get("choices"))
    if picked is None:
        return text
    picked_text = ", ".join(map(str, picked)) if isinstance(picked, list) else str(picked)
    why = str(parsed.get("why", "")).strip()
    return f"chose {picked_text}" + (f" ({why})" if why else "")


@dataclass(frozen=True)
class Journal:
    """The seat's own last ``limit`` accepted answers (optionally only some purposes)."""

    limit: int = 5
    purposes: tuple[str, ...] = ()
    name: str = "journal"

    async def gather(
        self, view: AnyView, decision: Decision, reader: ContextReader
    ) -> ContextSection | None:
        mine = reader.own_answers(view.seat)
        wanted = [a for a in mine if not self.purposes or a.purpose in self.purposes]
        answers = wanted[-self.limit :] if self.limit > 0 else []
        if not answers:
            return None
        lines = [f"- [{a.phase}, {a.purpose}] {_line(_answer_text(a.text))}" for a in answers]
        title = "Your journal (what you said and chose before)"
        return _listed(self.name, "store", title, [a.ref for a in answers], lines)


class Ranker(Protocol):
    @property
    def method(self) -> str: ...

    #: Scores at or below this are no match at all (``None``: every score ranks).
    @property
    def minimum(self) -> float | None: ...

    async def scores(self, query: str, texts: Sequence[str]) -> list[float]: ...


class BM25Ranker:
    """Lexical relevance: no model needed, same scores for the same texts."""

    method = "bm25"
    minimum: float | None = 0.0  # no shared term

    async def scores(self, query: str, texts: Sequence[str]) -> list[float]:
        return bm25_scores(query, texts)


@dataclass
class EmbeddingRanker:
    """Cosine similarity of unit vectors from an ``Embedder``. Vectors are cached per
    text (a seat recalls from a growing log); each text is embedded on its own by the
    backends, so a vector never depends on its neighbours."""

    embedder: Embedder
    label: str
    _cache: dict[str, list[float]] = field(default_factory=dict)

    @property
    def method(self) -> str:
        return f"embed:{self.label}"

    @property
    def minimum(self) -> float | None:
        return None

    async def scores(self, query: str, texts: Sequence[str]) -> list[float]:
        missing = sorted({t for t in (query, *texts) if t not in self._cache})
        if missing:
            for text, vector in zip(missing, await self.embedder.embed(missing), strict=True):
                self._cache[text] = vector
        q = self._cache[query]
        return [_cosine(q, self._cache[t]) for t in texts]


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


def recall_query(view: AnyView, decision: Decision, recent: int = 3) -> str:
    """What the seat is deciding now: the decision's prompt, its options and the last
    few lines of the current phase it saw."""
    current = [e.text for e in view.events if e.phase == view.phase and e.text][-recent:]
    labels = " ".join(o.label for o in decision.options)
    return " ".join(part for part in (decision.prompt, labels, *current) if part)


@dataclass
class Recall:
    """The ``k`` earlier events (before the current phase) most relevant to the decision,
    shown oldest first. Only events in the seat's view are candidates."""

    ranker: Ranker = field(default_factory=BM25Ranker)
    k: int = 3
    name: str = "recall"

    def candidates(self, view: AnyView) -> list[Event]:
        return [e for e in view.events if e.phase != view.phase and e.text.strip()]

    async def gather(
        self, view: AnyView, decision: Decision, reader: ContextReader
    ) -> ContextSection | None:
        pool = self.candidates(view)
        if not pool or self.k <= 0:
            return None
        query = recall_query(view, decision)
        texts = [e.text for e in pool]
        scores = await self.ranker.scores(query, texts)
        best = top_k(scores, self.k, minimum=self.ranker.minimum)
        if not best:
            return None
        shown = sorted(best, key=lambda i: pool[i].seq)
        lines = [f"- [{pool[i].phase}] {_line(pool[i].text)}" for i in shown]
        return ContextSection(
            title="Earlier moments that may matter now",
            text="\n".join(lines),
            retrieval=Retrieval(
                component=self.name,
                method=self.ranker.method,
                query=query,
                ids=tuple(f"event:{pool[i].seq}" for i in best),
                texts=tuple(pool[i].text for i in best),
                scores=tuple(round(scores[i], SCORE_DIGITS) for i in best),
            ),
        )

"""Seat context in the runtime: the ``context(...)`` spec, the store reader, the log.

A seat opts into context components through its spec, wrapping any model spec::

    context(memory,journal,recall):local
    context(recall,k=5,embed=local):openai:gpt-4o-mini

Bare items name components (``memory``, ``journal``, ``recall``, gathered in that order
whatever order they are written in: most stable first, to keep the prompt prefix
stable); ``k`` is recall's top-k, ``limit`` the journal's length, ``embed`` the model
spec whose embeddings rank recall (``model``: the seat's own backend; default: BM25).
The spec is stored with the game, so ``resume`` and ``replay:`` rebuild the same seat.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import sqlalchemy as sa

from parlour.core.errors import ParlourError
from parlour.models.base import ModelBackend, embedder_of
from parlour.runtime import schema
from parlour.runtime.store import Store
from parlour.seats.context import ContextComponent, ContextSection, PastAnswer, Retrieval
from parlour.seats.context_components import (
    BM25Ranker,
    EmbeddingRanker,
    Journal,
    Memory,
    Ranker,
    Recall,
)

COMPONENTS = ("memory", "journal", "recall")
_WRAPPER = re.compile(r"^context\((?P<body>[^()]*)\):(?P<inner>.+)$", re.S)
_FORM = "write e.g. context(memory,journal,recall):local or context(recall,k=5):local"


@dataclass(frozen=True)
class ContextPlan:
    """The parsed ``context(...)`` part of a seat spec."""

    components: tuple[str, ...] = ()
    k: int = 3
    limit: int = 5
    embed: str = ""  # model spec for recall's embeddings; "" = BM25


def split_spec(spec: str) -> tuple[ContextPlan, str]:
    """``context(...):INNER`` → (plan, INNER); any other spec → (empty plan, spec)."""
    if not spec.startswith("context("):
        return ContextPlan(), spec
    match = _WRAPPER.match(spec.strip())
    if match is None:
        raise ParlourError(f"bad seat spec '{spec}': {_FORM}")
    names: list[str] = []
    options: dict[str, str] = {}
    for item in (i.strip() for i in match.group("body").split(",")):
        if not item:
            continue
        key, sep, value = item.partition("=")
        if sep:
            options[key.strip()] = value.strip()
        elif item in COMPONENTS:
            names.append(item)
        else:
            raise ParlourError(
                f"unknown context component '{item}' in '{spec}'; use {', '.join(COMPONENTS)}"
            )
    unknown = sorted(set(options) - {"k", "limit", "embed"})
    if unknown:
        raise ParlourError(
            f"unknown context option '{unknown[0]}' in '{spec}'; use k, limit, embed"
        )
    if not names:
        raise ParlourError(f"'{spec}' names no context component: {_FORM}")
    try:
        k, limit = int(options.get("k", 3)), int(options.get("limit", 5))
    except ValueError as err:
        raise ParlourError(f"k and limit must be whole numbers in '{spec}'") from err
    ordered = tuple(c for c in COMPONENTS if c in names)
    return ContextPlan(ordered, k=k, limit=limit, embed=options.get("embed", "")), match.group(
        "inner"
    )


def build_components(
    plan: ContextPlan,
    own: ModelBackend,
    backend: Callable[[str], ModelBackend],
    rankers: dict[str, Ranker],
) -> tuple[ContextComponent, ...]:
    """The plan's components; ``backend`` resolves ``embed=`` specs, ``rankers`` shares
    one ranker (and its vector cache) per embedding spec across seats."""
    out: list[ContextComponent] = []
    for name in plan.components:
        if name == "memory":
            out.append(Memory())
        elif name == "journal":
            out.append(Journal(limit=plan.limit))
        else:
            out.append(Recall(ranker=_ranker(plan.embed, own, backend, rankers), k=plan.k))
    return tuple(out)


def _ranker(
    spec: str,
    own: ModelBackend,
    backend: Callable[[str], ModelBackend],
    rankers: dict[str, Ranker],
) -> Ranker:
    if spec in ("", "bm25"):
        return rankers.setdefault("bm25", BM25Ranker())
    target = own if spec == "model" else backend(spec)
    key = f"embed:{target.model_id}"
    if key not in rankers:
        embedder = embedder_of(target)
        if embedder is None:
            raise ParlourError(
                f"embed={spec} ({target.name} backend) cannot embed texts; use embed=local, "
                "an openai:MODEL with an embeddings endpoint, or leave embed out for BM25"
            )
        rankers[key] = EmbeddingRanker(embedder, target.model_id)
    return rankers[key]


class StoreReader:
    """``ContextReader`` over the store for one game: reads only the seat's own rows."""

    def __init__(self, store: Store, game_id: str) -> None:
        self.store = store
        self.game_id = game_id

    def own_answers(self, seat: str) -> Sequence[PastAnswer]:
        calls = schema.model_calls
        query = (
            sa.select(
                calls.c.id,
                calls.c.decision_id,
                calls.c.purpose,
                calls.c.phase,
                calls.c.response_text,
            )
            .where(
                calls.c.game_id == self.game_id,
                calls.c.seat == seat,
                calls.c.outcome == "valid",
            )
            .order_by(calls.c.id)
        )
        with self.store.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [
            PastAnswer(
                ref=f"call:{r.id}",
                decision_id=r.decision_id,
                purpose=r.purpose,
                phase=r.phase,
                text=r.response_text,
            )
            for r in rows
        ]


def record_retrievals(
    store: Store, game_id: str, seat: str, decision_id: str, sections: Sequence[ContextSection]
) -> None:
    """Log what each component returned for one decision (one transaction)."""
    if not sections:
        return
    now = time.time()
    rows = [
        {
            "game_id": game_id,
            "seat": seat,
            "decision_id": decision_id,
            "component": s.retrieval.component,
            "method": s.retrieval.method,
            "query": s.retrieval.query,
            "ids": json.dumps(list(s.retrieval.ids)),
            "texts": json.dumps(list(s.retrieval.texts)),
            "scores": json.dumps(list(s.retrieval.scores)),
            "created_at": now,
        }
        for s in sections
    ]
    with store.engine.begin() as conn:
        conn.execute(schema.retrievals.insert(), rows)


@dataclass(frozen=True)
class LoggedRetrieval:
    seat: str
    decision_id: str
    retrieval: Retrieval


def retrievals(store: Store, game_id: str) -> list[LoggedRetrieval]:
    """Every logged retrieval of a game, in the order they were made."""
    table = schema.retrievals
    with store.engine.connect() as conn:
        rows = conn.execute(
            sa.select(table).where(table.c.game_id == game_id).order_by(table.c.id)
        ).all()
    return [
        LoggedRetrieval(
            seat=r.seat,
            decision_id=r.decision_id,
            retrieval=Retrieval(
                component=r.component,
                method=r.method,
                query=r.query,
                ids=tuple(json.loads(r.ids)),
                texts=tuple(json.loads(r.texts)),
                scores=tuple(json.loads(r.scores)),
            ),
        )
        for r in rows
    ]

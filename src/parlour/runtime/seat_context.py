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

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from parlour.core.errors import ParlourError
from parlour.models.base import ModelBackend, embedder_of
from parlour.runtime.store import RetrievalRow, Store
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
        return [
            PastAnswer(
                ref=f"call:{r.id}",
                decision_id=r.decision_id,
                purpose=r.purpose,
                phase=r.phase,
                text=r.response_text,
            )
            for r in self.store.calls.own_answers(self.game_id, seat)
        ]


def record_retrievals(
    store: Store, game_id: str, seat: str, decision_id: str, sections: Sequence[ContextSection]
) -> None:
    """Log what each component returned for one decision (one transaction)."""
    store.calls.record_retrievals(
        game_id,
        [
            RetrievalRow(seat=seat, decision_id=decision_id, **s.retrieval.model_dump())
            for s in sections
        ],
    )


@dataclass(frozen=True)
class LoggedRetrieval:
    seat: str
    decision_id: str
    retrieval: Retrieval


def retrievals(store: Store, game_id: str) -> list[LoggedRetrieval]:
    """Every logged retrieval of a game, in the order they were made."""
    return [
        # A stored row is the retrieval's own fields plus who asked for which decision.
        LoggedRetrieval(r.seat, r.decision_id, Retrieval.model_validate(r, from_attributes=True))
        for r in store.calls.retrievals(game_id)
    ]

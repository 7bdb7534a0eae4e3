"""Seat-side context: components gathered before an LLM seat answers.

In the spirit of Concordia's ``pre_act`` components, each component looks at the seat's
view, the decision and a read-only ``ContextReader`` (the store, as the seat may see it;
never the game's hidden state) and returns one ``ContextSection``. Sections go into the
memory layer of the prompt, after the game's own memory, so the stable-prefix order is
kept: system, memory (incl. context), transcript, command.

Every section carries a ``Retrieval``: what was asked and which records came back. The
runtime stores it next to the model call, so an audit or a replay can see exactly what a
seat was reminded of, and a component must be deterministic for a given store.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Protocol

from pydantic import BaseModel, ConfigDict

from parlour.core.decisions import Decision
from parlour.core.view import AnyView


class Retrieval(BaseModel):
    """What one component looked up for one decision (stored, see ``runtime/context_log``)."""

    model_config = ConfigDict(frozen=True)

    component: str
    method: str = ""  # e.g. "bm25", "embed:local:SmolLM2…", "view"
    query: str = ""
    ids: tuple[str, ...] = ()
    texts: tuple[str, ...] = ()
    scores: tuple[float, ...] = ()


class ContextSection(BaseModel):
    """A titled block of the prompt's memory layer, and the retrieval that produced it."""

    model_config = ConfigDict(frozen=True)

    title: str
    text: str
    retrieval: Retrieval


class PastAnswer(BaseModel):
    """One of the seat's own earlier accepted model answers, as stored."""

    model_config = ConfigDict(frozen=True)

    ref: str  # stable id of the stored record, e.g. "call:17"
    decision_id: str
    purpose: str
    phase: str
    text: str


class ContextReader(Protocol):
    """Read-only access to the store for one game, scoped to what a seat may read.

    Implemented in the runtime over the store; seats never see the store itself.
    """

    def own_answers(self, seat: str) -> Sequence[PastAnswer]:
        """The seat's own accepted model answers so far, oldest first."""
        ...


class NoReader:
    """For seats without a store (tests, evaluations): no past answers."""

    def own_answers(self, seat: str) -> Sequence[PastAnswer]:
        return ()


class ContextComponent(Protocol):
    """Gathers one section of context before a decision (``None``: nothing to add)."""

    @property
    def name(self) -> str: ...

    async def gather(
        self, view: AnyView, decision: Decision, reader: ContextReader
    ) -> ContextSection | None: ...


async def gather_all(
    components: Sequence[ContextComponent],
    view: AnyView,
    decision: Decision,
    reader: ContextReader,
) -> tuple[ContextSection, ...]:
    """Every component's section, in component order (concurrent, order kept)."""
    found = await asyncio.gather(*(c.gather(view, decision, reader) for c in components))
    return tuple(s for s in found if s is not None)


def render(memory: str, sections: Sequence[ContextSection]) -> str:
    """The game's memory followed by each section under its own heading."""
    blocks = [memory] if memory else []
    blocks += [f"### {s.title}\n{s.text}" for s in sections if s.text]
    return "\n\n".join(blocks)

"""embed(texts): the bundled model through llama.cpp, and an OpenAI-compatible server."""

from __future__ import annotations

import asyncio
import math

from parlour.core.decisions import Option
from parlour.core.events import Audience, EventLog
from parlour.models import resolve
from parlour.models.base import Embedder, embedder_of
from parlour.models.local import LocalBackend
from parlour.models.openai_backend import OpenAIBackend
from parlour.seats.context import NoReader
from parlour.seats.context_components import EmbeddingRanker, Recall
from tests.support.decisions import make_decision, make_view

WOLF = "The werewolves killed Bob during the night."
WOLF_AGAIN = "Bob was killed by the werewolves last night."
BREAD = "I like to bake bread with flour and yeast."


def _cos(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_capability_flags_say_who_embeds(local: LocalBackend) -> None:
    assert local.capabilities.embeddings and embedder_of(local) is local
    openai = OpenAIBackend("m", base_url="http://127.0.0.1:9/v1")
    assert openai.capabilities.embeddings and isinstance(openai, Embedder)
    replay = resolve("replay", calls=[])
    assert not replay.capabilities.embeddings and embedder_of(replay) is None


def test_local_embeddings_put_similar_texts_closer(local: LocalBackend) -> None:
    wolf, again, bread = asyncio.run(local.embed([WOLF, WOLF_AGAIN, BREAD]))
    assert len(wolf) == len(bread) > 100
    assert all(math.isclose(_cos(v, v), 1.0, rel_tol=1e-6) for v in (wolf, again, bread))
    assert _cos(wolf, again) > _cos(wolf, bread) + 0.05
    assert _cos(wolf, again) > _cos(again, bread) + 0.05
    # A vector does not depend on the batch it came in.
    (alone,) = asyncio.run(local.embed([BREAD]))
    assert alone == bread
    assert asyncio.run(local.embed([])) == []


def test_recall_ranks_with_local_embeddings(local: LocalBackend) -> None:
    log = EventLog()
    log.emit("death", "dawn 1", WOLF, Audience.everyone())
    log.emit("speech", "day 1", BREAD, Audience.everyone())
    log.emit("speech", "day 1", "Maya sings a song about the river.", Audience.everyone())
    view = make_view(log.events)
    decision = make_decision(
        prompt="Who killed Bob last night? Vote for a werewolf.",
        options=(Option(id="a", label="Aiko"),),
    )
    recall = Recall(ranker=EmbeddingRanker(local, local.model_id), k=1)
    first = asyncio.run(recall.gather(view, decision, NoReader()))
    again = asyncio.run(recall.gather(view, decision, NoReader()))
    assert first is not None and again is not None
    assert first.retrieval.ids == ("event:0",) == again.retrieval.ids
    assert first.retrieval.scores == again.retrieval.scores
    assert first.retrieval.method == f"embed:{local.model_id}"


def test_openai_embeddings_endpoint(llama_embedding_server: str) -> None:
    backend = OpenAIBackend("smollm2", base_url=llama_embedding_server)

    async def run() -> list[list[float]]:
        try:
            return await backend.embed([WOLF, WOLF_AGAIN, BREAD, WOLF])
        finally:
            await backend.aclose()

    wolf, again, bread, wolf_twice = asyncio.run(run())
    assert len(wolf) == len(bread) > 100
    assert all(math.isclose(_cos(v, v), 1.0, rel_tol=1e-6) for v in (wolf, bread))
    assert wolf == wolf_twice  # order kept, same text → same vector
    # This server returns unpooled token vectors for a chat model (mean-pooled by us).
    assert _cos(wolf, again) > _cos(wolf, bread) + 0.05
    assert _cos(wolf, again) > _cos(again, bread) + 0.05

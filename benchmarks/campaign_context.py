"""Campaign context: what the scene director is sent, against one all-knowing storyteller,
and how well memories come back (memory probes).

1. Prompt size. A night_school campaign is played by scripted seats. At every scene-director
   decision the prompt an LLM scene director would be sent is built exactly as ``LlmSeat``
   builds it (view → prompter → format instruction → messages); the baseline, in the same
   run, is the prompt of ONE storyteller who holds everything (the story director's view:
   full PC sheet, every NPC secret, every scene) asked for the same scene. Tokens are
   estimated as characters / 4 for both, so the ratio is what matters.
2. Prefix reuse. For each director, the share of each call's characters that is a prefix
   of its previous call's messages (what a provider cache or the local KV cache reuses).
3. Memory probes. After the last session, for every memory record of an earlier session
   (NPC X, scene N), the question "What did <PC> say to you in scene N at <place>?" is put
   to the Recall component over the scene director's view while it plays X (k=1 and k=3).
   Recall: probes whose record came back; precision: share of returned records that were
   the asked-for one. Probes for NPCs who were NOT in scene N check that nothing of that
   scene can come back at all.
   Rankers: BM25 (lexical) and, with ``--embed local``, the embedded model's embeddings.

    uv run python benchmarks/campaign_context.py [--seed 1] [--sessions 3] [--embed local]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
from collections import defaultdict
from typing import Any

from parlour.core.decisions import Decision, DecisionKind
from parlour.core.rng import Rng
from parlour.games.campaign import MODULE, CampaignGame, make_config
from parlour.games.campaign.policies import campaign_policy
from parlour.models.base import embedder_of
from parlour.models.messages import Message
from parlour.models.replay import ReplayBackend
from parlour.seats.context_components import BM25Ranker, EmbeddingRanker, Ranker, Recall
from parlour.seats.llm import LlmSeat, output_spec


def _seat(seat_id: str) -> LlmSeat:
    # The backend is never called: only prompt assembly is exercised.
    return LlmSeat(
        ReplayBackend([]),
        MODULE.prompter,
        MODULE.fallback_policy,
        seat_id=seat_id,
        seed=0,
        cache_key=seat_id,
    )


def _messages(seat: LlmSeat, view: Any, decision: Decision) -> list[Message]:
    spec, _ = output_spec(decision)
    return seat.base_messages(view, decision, spec)


def _chars(messages: list[Message]) -> int:
    return sum(len(m.content) for m in messages)


def _shared_prefix(a: list[Message], b: list[Message]) -> int:
    """Characters of ``b`` that repeat ``a`` from the start (whole messages, then a tail)."""
    shared = 0
    for x, y in zip(a, b, strict=False):
        if x.role != y.role:
            break
        if x.content == y.content:
            shared += len(y.content)
            continue
        n = 0
        for cx, cy in zip(x.content, y.content, strict=False):
            if cx != cy:
                break
            n += 1
        shared += n
        break
    return shared


def play(seed: int, sessions: int, turns: int) -> tuple[CampaignGame, dict[str, Any]]:
    config = make_config(None, {"sessions": sessions, "turns_per_session": turns})
    game = CampaignGame(config, seed)
    rng = Rng(seed + 1)
    seats = {s.id: _seat(s.id) for s in game.seats()}
    last: dict[str, list[Message]] = {}
    prefix: dict[str, list[float]] = defaultdict(list)
    scene_tokens: list[float] = []
    omniscient_tokens: list[float] = []
    while not game.is_terminal():
        decision = game.pending()[0]
        view = game.view(decision.seat)
        messages = _messages(seats[decision.seat], view, decision)
        if decision.seat in last:
            prefix[decision.seat].append(
                _shared_prefix(last[decision.seat], messages) / _chars(messages)
            )
        last[decision.seat] = messages
        if decision.seat == "scene-director":
            everything = game.view("story-director")
            # The same request, put to one storyteller whose view holds everything.
            omniscient = decision.model_copy(update={"seat": "story-director"})
            baseline = _messages(seats["story-director"], everything, omniscient)
            scene_tokens.append(_chars(messages) / 4)
            omniscient_tokens.append(_chars(baseline) / 4)
        game.apply(decision.id, campaign_policy(view, decision, rng))
    report = {
        "scene_calls": len(scene_tokens),
        "scene_director_tokens_mean": round(statistics.mean(scene_tokens)),
        "omniscient_storyteller_tokens_mean": round(statistics.mean(omniscient_tokens)),
        "ratio_scene_vs_omniscient": round(
            statistics.mean(scene_tokens) / statistics.mean(omniscient_tokens), 3
        ),
        "scene_director_tokens_last": round(scene_tokens[-1]),
        "omniscient_tokens_last": round(omniscient_tokens[-1]),
        "cached_prefix_share": {
            seat: round(statistics.mean(v), 3) for seat, v in sorted(prefix.items())
        },
    }
    return game, report


def _question(game: CampaignGame, scene: int) -> Decision:
    s = game.scenes[scene - 1]
    place = game.campaign.location(s.location).name
    return Decision(
        id="probe",
        seat="scene-director",
        kind=DecisionKind.FREE_TEXT,
        purpose="probe",
        prompt=f"What did {game.campaign.pc.name} say to you in scene {scene} at {place}?",
        max_length=200,
    )


async def probes(game: CampaignGame, ranker: Ranker, k: int = 3) -> dict[str, Any]:
    recall = Recall(ranker=ranker, k=k)
    asked = found = returned = relevant_returned = 0
    outsiders = outsider_hits = 0
    earlier = [s for s in game.scenes if s.session < game.snapshot()["session"]]
    for scene in earlier:
        question = _question(game, scene.number)
        for npc in game.campaign.npc_ids:
            view = game.scene_view((npc,), npc)
            section = await recall.gather(view, question, reader=None)  # type: ignore[arg-type]
            ids = list(section.retrieval.ids) if section is not None else []
            seqs = {int(i.removeprefix("event:")) for i in ids}
            hits = [
                e
                for e in game.events
                if e.seq in seqs and e.kind == "memory" and e.data["scene"] == scene.number
            ]
            if npc in scene.npcs:
                asked += 1
                found += bool(hits)
                returned += len(ids)
                relevant_returned += len(hits)
            else:
                outsiders += 1
                outsider_hits += len(hits)
    return {
        "ranker": ranker.method,
        "found": found,
        "returned": returned,
        "relevant_returned": relevant_returned,
        "probes": asked,
        "recall_at_k": round(found / asked, 3) if asked else None,
        "precision": round(relevant_returned / returned, 3) if returned else None,
        "k": k,
        "outsider_probes": outsiders,
        "outsider_records_returned": outsider_hits,
    }


def _pooled(games: list[CampaignGame], ranker: Ranker, k: int) -> dict[str, Any]:
    """Probe results summed over games (each game's probes are few)."""
    runs = [asyncio.run(probes(g, ranker, k)) for g in games]
    total = {
        key: sum(r[key] for r in runs)
        for key in (
            "probes",
            "found",
            "returned",
            "relevant_returned",
            "outsider_probes",
            "outsider_records_returned",
        )
    }
    return {
        "ranker": ranker.method,
        "k": k,
        "games": len(games),
        **total,
        "recall_at_k": round(total["found"] / total["probes"], 3) if total["probes"] else None,
        "precision": round(total["relevant_returned"] / total["returned"], 3)
        if total["returned"]
        else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sessions", type=int, default=3)
    parser.add_argument("--turns", type=int, default=6)
    parser.add_argument("--games", type=int, default=1, help="memory probes over this many seeds")
    parser.add_argument("--embed", default="", help="model spec for embedding recall, e.g. local")
    args = parser.parse_args()
    game, report = play(args.seed, args.sessions, args.turns)
    rankers: list[Ranker] = [BM25Ranker()]
    if args.embed:
        from parlour.models.registry import resolve

        backend = resolve(args.embed)
        embedder = embedder_of(backend)
        if embedder is None:
            raise SystemExit(f"{args.embed} cannot embed texts")
        rankers.append(EmbeddingRanker(embedder, backend.model_id))
    games = [game] + [
        play(args.seed + n, args.sessions, args.turns)[0] for n in range(1, args.games)
    ]
    report["memory_probes"] = [_pooled(games, r, k) for r in rankers for k in (1, 3)]
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()

"""Context components in a whole game: logged retrievals, and a strict replay that
reproduces every prompt (digests) and every retrieval exactly."""

from __future__ import annotations

from parlour.runtime.seat_context import retrievals

from .conftest import Recorded

CONTEXT = "context(memory,journal,recall,k=2)"


def _per_seat(rec: Recorded, gid: str) -> dict[str, list[tuple[str, int, str]]]:
    out: dict[str, list[tuple[str, int, str]]] = {}
    for c in rec.store.calls(gid):
        out.setdefault(c.seat, []).append((c.decision_id, c.attempt, c.messages_digest))
    return out


def test_context_game_logs_retrievals_and_replays_them_exactly(recorded: Recorded) -> None:
    # A game with context: the recorded model's answers, served in order (the prompts now
    # hold context, so they no longer match the recording's digests).
    first = recorded.play(f"{CONTEXT}:replay(strict=false):{recorded.game_id}")
    calls = recorded.store.calls(first)
    assert recorded.store.get_game(first).status == "finished"
    assert recorded.store.get_game(first).seats["p1"].startswith(CONTEXT)
    logged = retrievals(recorded.store, first)
    components = {x.retrieval.component for x in logged}
    assert components == {"memory", "journal", "recall"}
    # One log entry set per decision that reached the model, never per retry.
    decisions = {(c.seat, c.decision_id) for c in calls}
    assert {(x.seat, x.decision_id) for x in logged} <= decisions
    keys = [(x.seat, x.decision_id, x.retrieval.component) for x in logged]
    assert len(keys) == len(set(keys))
    # What was retrieved is what the prompt shows, inside the memory layer.
    recall = next(x for x in logged if x.retrieval.component == "recall")
    prompt = next(c for c in calls if (c.seat, c.decision_id) == (recall.seat, recall.decision_id))
    user_text = "\n".join(m["content"] for m in prompt.messages if m["role"] == "user")
    assert "## What you know" in user_text and "### Earlier moments" in user_text
    assert recall.retrieval.ids and all(i.startswith("event:") for i in recall.retrieval.ids)
    journal = [x for x in logged if x.retrieval.component == "journal"]
    assert journal and all(i.startswith("call:") for x in journal for i in x.retrieval.ids)

    # Replaying that game strictly: every prompt must hash to the recorded digest, so the
    # context step must rebuild byte-identical sections from the replaying game's store.
    again = recorded.play(f"{CONTEXT}:replay:{first}")
    assert [e.model_dump_json() for e in recorded.store.events(again)] == [
        e.model_dump_json() for e in recorded.store.events(first)
    ]
    assert _per_seat(recorded, again) == _per_seat(recorded, first)

    def by_key(gid: str) -> dict[tuple[str, str, str], tuple[object, ...]]:
        out: dict[tuple[str, str, str], tuple[object, ...]] = {}
        for x in retrievals(recorded.store, gid):
            r = x.retrieval
            # Journal ids name the store rows of *that* game; their text must match.
            ids = r.ids if r.component != "journal" else ()
            out[(x.seat, x.decision_id, r.component)] = (r.method, r.query, ids, r.texts, r.scores)
        return out

    assert by_key(again) == by_key(first)

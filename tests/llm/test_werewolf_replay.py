"""A recorded embedded-model game, replayed: exact events, clean histories, no leaks."""

from __future__ import annotations

import json
from itertools import pairwise

from parlour.runtime.store import CallRecord
from tests.support.cli import run_parlour

from .conftest import Recorded


def _log(rec: Recorded, gid: str) -> list[str]:
    return [e.model_dump_json() for e in rec.store.events(gid)]


def test_the_recording_is_a_real_model_game(recorded: Recorded) -> None:
    calls = recorded.store.calls(recorded.game_id)
    assert len(calls) >= 20
    assert {c.model_id for c in calls} == {"local:SmolLM2-135M-Instruct.Q4_1"}
    assert {c.purpose for c in calls} >= {"route", "speak", "vote", "wolf_kill", "wolf_chat"}
    # half the seats speak in acts (choices the game renders), half in free text
    kinds = {c.output_spec["kind"] for c in calls if c.purpose in ("speak", "wolf_chat")}
    assert kinds == {"choice", "text"}
    assert recorded.store.get_game(recorded.game_id).status == "finished"


def test_replay_reproduces_the_event_log_exactly(recorded: Recorded) -> None:
    again = recorded.play(f"replay:{recorded.game_id}")
    assert _log(recorded, again) == _log(recorded, recorded.game_id)
    original = [(a.decision_id, a.action) for a in recorded.store.actions(recorded.game_id)]
    assert [(a.decision_id, a.action) for a in recorded.store.actions(again)] == original

    # Each replayed seat made the same calls with the same outcomes (concurrent seats may
    # interleave differently, so compare per seat).
    def outcomes(gid: str) -> dict[str, list[tuple[str, int, str]]]:
        out: dict[str, list[tuple[str, int, str]]] = {}
        for c in recorded.store.calls(gid):
            out.setdefault(c.seat, []).append((c.decision_id, c.attempt, c.outcome))
        return out

    assert outcomes(again) == outcomes(recorded.game_id)


def test_replay_through_the_cli(recorded: Recorded) -> None:
    sets = [f"--set={k}={json.dumps(v)}" for k, v in recorded.options.items()]
    out = run_parlour(
        "watch",
        "werewolf",
        "--players",
        str(recorded.players),
        "--seed",
        str(recorded.seed),
        "--model",
        f"replay:{recorded.game_id}",
        "--router",
        "llm",
        "--db",
        str(recorded.path),
        *sets,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    result = recorded.store.get_game(recorded.game_id).result
    assert result is not None and result["summary"] in out.stdout
    assert "replay" in out.stdout  # the seating table names who plays


def _by_seat(calls: list[CallRecord]) -> dict[str, list[CallRecord]]:
    out: dict[str, list[CallRecord]] = {}
    for call in calls:
        out.setdefault(call.seat, []).append(call)
    return out


def test_prompts_alternate_and_commands_never_enter_history(recorded: Recorded) -> None:
    calls = [c for c in recorded.store.calls(recorded.game_id) if c.outcome != "fallback"]
    for call in calls:
        roles = [m["role"] for m in call.messages]
        assert roles[0] == "system" and roles[-1] == "user"
        assert all(a != b for a, b in pairwise(roles)), roles
        # A retry appends its throwaway branch (the bad answer, then the error) after the
        # original command; the seat's history before the command is the same.
        history = call.messages[:-1] if call.attempt == 1 else call.messages[:-3]
        if call.attempt > 1:
            assert call.messages[-1]["content"].startswith("Invalid answer: ")
        for message in history:
            # Command and reminders live only in the final user turn.
            assert "## Now" not in message["content"]
            assert "## Reminders" not in message["content"]
    for seat, seat_calls in _by_seat(calls).items():
        for earlier, later in pairwise(seat_calls):
            if earlier.attempt != 1 or later.attempt != 1:
                continue
            reminder = earlier.messages[-1]["content"].partition("## Reminders")[2].strip()
            history = "".join(m["content"] for m in later.messages[:-1])
            if reminder:
                assert reminder not in history, f"{seat}: reminders leaked into history"


def test_own_speech_is_the_assistant_side_of_the_flattened_history(recorded: Recorded) -> None:
    events = recorded.store.events(recorded.game_id)
    calls = [c for c in recorded.store.calls(recorded.game_id) if c.attempt == 1]
    checked = 0
    for call in calls:
        said = [
            e.text
            for e in events
            if e.kind == "speech" and e.speaker == call.seat and e.phase == call.phase
        ]
        assistant = {m["content"] for m in call.messages if m["role"] == "assistant"}
        before = [text for text in said if text in assistant]
        # Whatever the seat had said today and appears in this prompt is an assistant turn,
        # never quoted back at it as someone else's speech.
        for text in said:
            assert f">{text}</speech>" not in "".join(m["content"] for m in call.messages)
        checked += len(before)
    assert checked > 0


def test_wolf_chat_never_reaches_a_villagers_prompt(recorded: Recorded) -> None:
    events = recorded.store.events(recorded.game_id)
    # A small model copies lines between public talk and the pack's chat (p2 repeated
    # p3's day speech at night): words also said in public are not a leak.
    public = " ".join(e.text for e in events if e.kind == "speech")
    chat = [
        e.text
        for e in events
        if e.kind == "wolf_chat" and len(e.text) > 12 and e.text[:60] not in public
    ]
    wolves = {e.speaker for e in events if e.kind == "wolf_chat"}
    assert chat, "the recording has no wolf chat to check"
    for call in recorded.store.calls(recorded.game_id):
        if call.seat in wolves:
            continue
        prompt = "".join(m["content"] for m in call.messages)
        for text in chat:
            assert text not in prompt, f"{call.seat} saw wolf chat"


def test_the_llm_router_only_picked_living_legal_speakers(recorded: Recorded) -> None:
    events = recorded.store.events(recorded.game_id)
    dead: set[str] = set()
    routes = 0
    for event in events:
        if event.kind == "death":
            dead |= set(event.data["dead"])
        if event.kind == "elimination" and event.data["eliminated"]:
            dead.add(event.data["eliminated"])
        if event.kind == "route":
            routes += 1
            batch = event.data["batch"]
            assert not set(batch) & dead, f"dead speaker routed: {batch}"
            assert set(batch) & set(event.data["needs_turn"]), "no NEEDS TURN player"
    routers = [c for c in recorded.store.calls(recorded.game_id) if c.seat == "router"]
    assert routes > 0 and routers

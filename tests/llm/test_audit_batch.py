"""CI's leak audit: ``parlour audit --all`` over scripted, chaos and replayed games of every
game type runs clean (the recorded fixture game itself has no markers: not auditable)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

from parlour.runtime import session as sessions
from parlour.runtime.llm_seating import LlmFactory
from parlour.runtime.seating import SeatPlan

from .conftest import Recorded

OPTIONS: dict[str, dict[str, object]] = {
    "werewolf": {"plant_markers": True, "messages_per_player": 1, "wolf_chat_messages": 1},
    "escape": {"plant_markers": True},
    "diplomacy": {"plant_markers": True, "end_year": 1901, "press_rounds": 1},
}


def _play(rec: Recorded, game: str, spec: str, seed: int) -> None:
    plan = SeatPlan(default=spec, system_default=spec, overrides={})
    session = sessions.start(
        rec.store,
        game,
        players=None,
        seed=seed,
        options=dict(OPTIONS[game]),
        plan=plan,
        llm_factory=LlmFactory(store=rec.store, retries=1),
    )
    assert asyncio.run(session.run()) is not None


def test_audit_all_is_clean_over_scripted_chaos_and_replayed_games(recorded: Recorded) -> None:
    replayed = f"replay(strict=false):{recorded.game_id}"
    games = 0
    for game in OPTIONS:
        for seed in (1, 2):
            _play(recorded, game, "scripted", seed)
            _play(recorded, game, f"chaos(rate=0.3,seed={seed}):{replayed}", seed)
            _play(recorded, game, replayed, seed)
            games += 3
    out = subprocess.run(
        [sys.executable, "-m", "parlour", "audit", "--all", "--db", str(recorded.path)],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "COLUMNS": "200"},
        check=False,
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert f"{games} clean, 0 leaking, 1 not auditable" in out.stdout
    ours = [row.id for row in recorded.store.list_games(100) if row.id != recorded.game_id]
    assert len(ours) == games
    prompts = sum(len(recorded.store.calls(game_id)) for game_id in ours)
    assert prompts > 500  # the stored prompts of the chaos and replay seats were scanned

"""`parlour audit --all` over stored scripted games with markers: 0 leaks.

Twelve games through the CLI (both towns, 3 to 5 players) keep this test cheap; the
in-process scan in test_conformance.py covers 200 games (views, decisions, and the model
prompts of 50), and test_replay.py audits the recorded model game."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from parlour.runtime import session as sessions
from parlour.runtime.seating import SeatPlan
from parlour.runtime.store import Store, db_url

GAMES = 12


def test_audit_of_stored_scripted_games_is_clean(tmp_path: Path) -> None:
    db = tmp_path / "a.sqlite"
    store = Store(db_url(str(db)))
    plan = SeatPlan(default="scripted", system_default="scripted", overrides={})
    for seed in range(GAMES):
        town = "small_hours" if seed % 2 else "lantern_quay"
        options: dict[str, object] = {"town": town, "plant_markers": True, "minutes": 30}
        session = sessions.start(
            store,
            "missing",
            players=3 + seed % 3 if seed % 2 == 0 else 3,
            seed=seed,
            options=options,
            plan=plan,
        )
        assert asyncio.run(session.run()) is not None
    out = subprocess.run(
        [sys.executable, "-m", "parlour", "audit", "--all", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=590,
    )
    assert out.returncode == 0, out.stdout[-2000:]
    assert f"{GAMES} clean, 0 leaking, 0 not auditable" in out.stdout

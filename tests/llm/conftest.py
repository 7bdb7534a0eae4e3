"""Recorded model calls (tests/fixtures) replayed through the real runtime."""

from __future__ import annotations

import asyncio
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from parlour.runtime import session as sessions
from parlour.runtime.llm_seating import LlmFactory
from parlour.runtime.seating import SeatPlan
from parlour.runtime.store import Store, db_url

FIXTURES = Path(__file__).parents[1] / "fixtures"


@dataclass(frozen=True)
class Recorded:
    store: Store
    game_id: str
    players: int
    seed: int
    options: dict[str, Any]
    path: Path

    def play(self, spec: str) -> str:
        """Play the recorded game's setup again with every seat ``spec``; the new game id."""
        plan = SeatPlan(default=spec, system_default=spec, overrides={})
        session = sessions.start(
            self.store,
            "werewolf",
            players=self.players,
            seed=self.seed,
            options=dict(self.options),
            plan=plan,
            llm_factory=LlmFactory(store=self.store),
        )
        asyncio.run(session.run())
        return session.game_id


@pytest.fixture
def recorded(tmp_path: Path) -> Recorded:
    """A private copy of the recorded werewolf game (so tests can add games to it)."""
    meta = json.loads((FIXTURES / "werewolf_local.json").read_text())
    path = tmp_path / "recorded.sqlite"
    shutil.copy(FIXTURES / "werewolf_local.sqlite", path)
    return Recorded(
        store=Store(db_url(str(path))),
        game_id=meta["game_id"],
        players=meta["players"],
        seed=meta["seed"],
        options=meta["options"],
        path=path,
    )

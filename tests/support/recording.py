"""Recording model fixtures: a backend that keeps every exchange as a ``RecordedCall``, and
a whole game played and stored with every seat on the embedded model. What the
re-recording scripts (``tests/fixtures/record*.py``, ``tests/diplomacy/dipbot_record.py``)
share."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from parlour.core.game import Result
from parlour.models.messages import ModelRequest, ModelResponse
from parlour.models.replay import RecordedCall
from parlour.models.transport import WrappedBackend
from parlour.runtime import session as sessions
from parlour.runtime.llm_seating import LlmFactory
from parlour.runtime.seating import SeatPlan
from parlour.runtime.store import Store, db_url

#: Every seat on the embedded model, with a generous per-call limit: on a busy machine a
#: call can take minutes, and one that times out while recording leaves a fixture that
#: cannot replay.
LOCAL_SPEC = "local(timeout=900)"


class Recorder(WrappedBackend):
    """The real backend, every exchange kept (after :meth:`edit`) as a ``RecordedCall``."""

    def __init__(self, inner: Any) -> None:
        super().__init__(inner)
        self.calls: list[RecordedCall] = []

    @property
    def name(self) -> str:
        return "recorder"

    def edit(self, response: ModelResponse) -> ModelResponse:
        """The answer as recorded and returned: the model's own, unless a subclass edits."""
        return response

    async def complete(self, request: ModelRequest) -> ModelResponse:
        response = self.edit(await self.inner.complete(request))
        self.calls.append(RecordedCall.from_exchange(request, response))
        return response


def record_local_game(
    db: Path, game: str, players: int, seed: int, options: dict[str, object]
) -> tuple[str, Result | None, float]:
    """Play ``game`` with every seat (system seats too) on the embedded model and store it,
    model calls included, in a new SQLite file ``db`` (an old one is replaced). Returns the
    game's id, the run's result and the seconds the run took."""
    for old in (db, db.with_suffix(".sqlite-wal"), db.with_suffix(".sqlite-shm")):
        old.unlink(missing_ok=True)
    store = Store(db_url(str(db)))
    plan = SeatPlan(default=LOCAL_SPEC, system_default=LOCAL_SPEC, overrides={})
    session = sessions.start(
        store,
        game,
        players=players,
        seed=seed,
        options=dict(options),
        plan=plan,
        llm_factory=LlmFactory(store=store),
    )
    started = time.perf_counter()
    result = asyncio.run(session.run())
    wall = time.perf_counter() - started
    store.close()
    return session.game_id, result, wall

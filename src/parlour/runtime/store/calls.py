"""Model calls, context retrievals and evaluation runs (``store.calls``).

Every model call attempt is stored (messages, answer, tokens, latency, cost, outcome), and
so is what each seat's context components looked up, so a game replays without a model.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, TypeVar

import sqlalchemy as sa

from parlour.core.call_key import CallKey
from parlour.runtime.store import schema
from parlour.runtime.store.engine import Compiled, Database, guarded


@dataclass(frozen=True)
class CallRecord(CallKey):
    """One model call attempt, as stored (see DESIGN: every model call is stored)."""

    game_id: str
    messages: list[dict[str, Any]]
    messages_digest: str
    output_spec: dict[str, Any]
    response_text: str
    parsed: Any
    outcome: str  # "valid" | "invalid" | "error" | "fallback"
    error: str
    input_tokens: int
    output_tokens: int
    cached_tokens: int
    latency_s: float
    cost_usd: float


@dataclass(frozen=True)
class AnswerRow:
    """A seat's own valid model answer, as its context components read it back."""

    id: int
    decision_id: str
    purpose: str
    phase: str
    response_text: str


@dataclass(frozen=True)
class RetrievalRow:
    """One logged lookup of a context component (lists as stored, in order)."""

    seat: str
    decision_id: str
    component: str
    method: str
    query: str
    ids: Sequence[Any]
    texts: Sequence[Any]
    scores: Sequence[Any]


#: The columns of each table that hold JSON (NULL stays NULL: ``parsed`` may be None).
_CALL_JSON = ("messages", "output_spec", "parsed")
_RETRIEVAL_JSON = ("ids", "texts", "scores")

Row = TypeVar("Row", CallRecord, RetrievalRow)


def _stored(
    row: CallRecord | RetrievalRow, json_columns: tuple[str, ...], **more: Any
) -> dict[str, Any]:
    """A row's values as written: its fields, its JSON columns encoded, and ``more``."""
    values = {**row.__dict__, **more}
    for name in json_columns:
        values[name] = None if values[name] is None else json.dumps(values[name])
    return values


def _loaded(kind: type[Row], row: sa.Row[Any], json_columns: tuple[str, ...]) -> Row:
    """A read row as ``kind``: the columns it has fields for, its JSON columns decoded."""
    values = {f.name: getattr(row, f.name) for f in fields(kind)}
    for name in json_columns:
        values[name] = None if values[name] is None else json.loads(values[name])
    return kind(**values)


def _numbered(table: sa.Table) -> sa.Insert:
    """An INSERT of every column but the autoincremented ``id`` (the database numbers rows)."""
    columns: dict[str, Any] = {c.name: sa.bindparam(c.name) for c in table.c if c.name != "id"}
    return table.insert().inline().values(columns)


class Calls:
    """The ``model_calls``, ``retrievals`` and ``eval_runs`` tables."""

    def __init__(self, db: Database) -> None:
        self.db = db
        # Written on the event loop's thread once per model call: compiled once (SQLAlchemy's
        # per-statement compiling cost more than the insert).
        self._insert_call = Compiled(_numbered(schema.model_calls), db.engine.dialect)
        self._insert_retrieval = Compiled(_numbered(schema.retrievals), db.engine.dialect)

    def __call__(self, game_id: str) -> list[CallRecord]:
        """Every model call of a game, in order (``store.calls(game_id)``)."""
        return self.of_game(game_id)

    @guarded
    def record(self, call: CallRecord) -> None:
        values = _stored(call, _CALL_JSON, created_at=time.time())
        self.db.insert((self._insert_call, [values]))

    @guarded
    def of_game(self, game_id: str) -> list[CallRecord]:
        rows = self.db.rows(
            sa.select(schema.model_calls)
            .where(schema.model_calls.c.game_id == game_id)
            .order_by(schema.model_calls.c.id)
        )
        return [_loaded(CallRecord, r, _CALL_JSON) for r in rows]

    def own_answers(self, game_id: str, seat: str) -> list[AnswerRow]:
        """The seat's valid answers in a game, in the order they were given."""
        calls = schema.model_calls
        query = (
            sa.select(
                calls.c.id,
                calls.c.decision_id,
                calls.c.purpose,
                calls.c.phase,
                calls.c.response_text,
            )
            .where(
                calls.c.game_id == game_id,
                calls.c.seat == seat,
                calls.c.outcome == "valid",
            )
            .order_by(calls.c.id)
        )
        rows = self.db.rows(query)
        return [AnswerRow(r.id, r.decision_id, r.purpose, r.phase, r.response_text) for r in rows]

    def record_retrievals(self, game_id: str, found: Sequence[RetrievalRow]) -> None:
        """Log what context components returned (one transaction)."""
        if not found:
            return
        now = time.time()
        rows = [_stored(r, _RETRIEVAL_JSON, game_id=game_id, created_at=now) for r in found]
        self.db.insert((self._insert_retrieval, rows))

    def retrievals(self, game_id: str) -> list[RetrievalRow]:
        """Every logged retrieval of a game, in the order they were made."""
        table = schema.retrievals
        rows = self.db.rows(sa.select(table).where(table.c.game_id == game_id).order_by(table.c.id))
        return [_loaded(RetrievalRow, r, _RETRIEVAL_JSON) for r in rows]

    @guarded
    def record_eval(self, kind: str, params: dict[str, Any], summary: dict[str, Any]) -> str:
        run_id = f"ev-{secrets.token_hex(4)}"
        self.db.add_row(
            schema.eval_runs,
            id=run_id,
            kind=kind,
            params=json.dumps(params),
            summary=json.dumps(summary),
        )
        return run_id

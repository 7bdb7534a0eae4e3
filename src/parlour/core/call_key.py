"""What names one model call attempt: the seat, the decision (its id, purpose and phase),
the attempt's number, the model and the prompt cache key.

A seat reports each attempt it makes (``seats.llm.Attempt``) and the store keeps each one
(``runtime.store.CallRecord``); both begin with these fields, declared here once, and the
store's record of an attempt takes them over as they are (``key_fields``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True)
class CallKey:
    """Which call an attempt was (see the module's docstring)."""

    seat: str
    decision_id: str
    purpose: str
    phase: str
    attempt: int
    model_id: str
    cache_key: str

    def key_fields(self) -> dict[str, Any]:
        """These fields alone, by name: what another record of the same call starts from."""
        return {f.name: getattr(self, f.name) for f in fields(CallKey)}

"""What a game hands the LLM seat to build a prompt: layered parts, all derived from a View.

Games implement ``Prompter`` next to their rules (``games/<name>/prompts.py``) without
knowing anything about models; the seats layer turns ``PromptParts`` into messages.
Layers run from most to least stable so that provider prompt caches and the local
model's KV cache reuse the prefix:

1. ``system`` — rules and identity (fixed for the whole game);
2. ``memory`` — exact records and the seat's own summaries (changes at phase boundaries);
3. ``transcript`` — the current phase's utterances, append-only;
4. ``command`` + ``reminders`` — what to decide now; never stored in history.
"""

from __future__ import annotations

from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict

from parlour.core.decisions import Decision
from parlour.core.view import AnyView


class Utterance(BaseModel):
    """One line of the transcript as this seat saw it."""

    model_config = ConfigDict(frozen=True)

    speaker: str
    text: str
    own: bool = False
    kind: Literal["speech", "announcement", "private"] = "speech"


class PromptParts(BaseModel):
    model_config = ConfigDict(frozen=True)

    system: str
    memory: str = ""
    transcript: tuple[Utterance, ...] = ()
    command: str
    reminders: str = ""


class Prompter(Protocol):
    def parts(self, view: AnyView, decision: Decision) -> PromptParts: ...

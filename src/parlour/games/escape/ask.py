"""What an escape decision asks beyond its prompt and options, typed, one model per
purpose: the classifier's (classify, clarify), the narrator's and the player's.

The game puts the ask on the decision (``context=ask.context()``); the prompter and the
scripted policies read it back only through ``TheAsk.of(decision)`` or ``.find``
(``core/asks.py``). The three share the game's key: a decision carries one of them, and
reading it as another fails validation by name.
"""

from __future__ import annotations

from typing import ClassVar

from parlour.core.asks import GameAsk


class ClassifyAsk(GameAsk):
    """classify, clarify: the player's message; when it answers "which did you mean?",
    the earlier message (``asked``) and the actions the question offered."""

    KEY: ClassVar[str] = "escape"

    message: str
    asked: str | None = None
    offered: list[str] | None = None


class NarrateAsk(GameAsk):
    """narrate: the brief of this turn's outcome and the hint to work in, if any."""

    KEY: ClassVar[str] = "escape"

    brief: str
    hint: str | None = None


class ActAsk(GameAsk):
    """act: the player's turn and how many are left, this one included."""

    KEY: ClassVar[str] = "escape"

    turn: int
    turns_left: int

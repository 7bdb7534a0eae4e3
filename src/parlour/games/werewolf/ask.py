"""What a werewolf decision asks beyond its prompt and options, typed, one model per
purpose (casting, route, speak, interject, pack chat, vote, diary).

The game puts the ask on the decision (``context=ask.context()``); the prompter and the
scripted policies read it back only through ``TheAsk.of(decision)`` (``core/asks.py``).
The models share the game's key: a decision carries one of them, and reading it as
another fails validation by name. Night target decisions (kill, investigate) ask
nothing beyond their options.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from parlour.core.asks import GameAsk
from parlour.core.decisions import Decision, DecisionKind, TextCheck

KEY = "werewolf"


class CastAsk(GameAsk):
    """cast_*: one piece of the cast the casting seat writes (``index`` -1: the whole)."""

    KEY: ClassVar[str] = KEY

    theme: str
    players: int
    index: int


class RouteRow(BaseModel):
    """route: one player who may speak next, as the router sees them."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    needs_turn: bool
    messages_today: int
    passes_today: int
    addressed: bool


class RouteAsk(GameAsk):
    """route: the day's discussion as the router needs it to pick who speaks next."""

    KEY: ClassVar[str] = KEY

    day: int
    players: list[RouteRow]
    #: names of the players marked NEEDS TURN
    needs_turn: list[str]
    last_speaker: str
    last_message_by: str
    addressed_in_last_message: list[str]
    turns_taken: int
    turns_left: int


class SpeakAsk(GameAsk):
    """speak: one seat's turn in the day's discussion."""

    KEY: ClassVar[str] = KEY

    turn: int
    turns_left: int
    #: the last message (not the seat's own) addressed this seat
    addressed_you: bool
    messages_today: int
    #: ask-all mode: whether this seat was marked NEEDS TURN
    needs_turn: bool | None = None
    #: the seat answers with a speech act (``speech_acts.py``), not free text
    acts: bool = False


class InterjectAsk(GameAsk):
    """interject: an open-mic seat may speak now."""

    KEY: ClassVar[str] = KEY

    turns_left: int


class WolfChatAsk(GameAsk):
    """wolf_chat: message number ``message`` of ``messages`` in the pack's night chat."""

    KEY: ClassVar[str] = KEY

    message: int
    messages: int
    pack: list[str]
    #: the wolf answers with a chat act, not free text
    acts: bool = False


class ProtectAsk(GameAsk):
    """protect: whom the doctor may not protect tonight (protected last night), if any."""

    KEY: ClassVar[str] = KEY

    cannot_protect: str | None = None


class VoteAsk(GameAsk):
    """vote: the day's ballot; a sequential vote adds the place and the earlier ballots."""

    KEY: ClassVar[str] = KEY

    day: int
    mode: Literal["simultaneous", "sequential"]
    position: int | None = None
    #: how many vote in the sequential order
    voters: int | None = None
    #: "2 of 5"
    position_text: str | None = None
    #: "1. Kenji → Hiroshi", one per ballot already cast
    earlier_votes: list[str] = Field(default_factory=list)
    #: the name of the player the voter's plan says to vote for, if it has a plan
    plan: str | None = None


class PlanAsk(GameAsk):
    """plan: the day's plan, picked among plans ranked from the seat's own belief."""

    KEY: ClassVar[str] = KEY

    day: int
    #: what made the game ask ("the day begins", "Aiko claimed the seer")
    because: str
    #: the vote target of the seat's plan so far today, if it has one
    current: str | None = None


class DiaryAsk(GameAsk):
    """diary: the day the diary is written after and its headings."""

    KEY: ClassVar[str] = KEY

    day: int
    sections: list[str]


def asks_for_acts(decision: Decision) -> bool:
    """Whether a speak or pack-chat decision is answered with an act, not free text."""
    if decision.purpose == "speak":
        return SpeakAsk.of(decision).acts
    if decision.purpose == "wolf_chat":
        return WolfChatAsk.of(decision).acts
    return False


#: the guards on what a player says to others (talk, pack chat, debrief)
TALK_CHECKS: tuple[TextCheck, ...] = ("prompt_copy", "repetition", "echo")


def free_text(
    id: str,
    seat: str,
    purpose: str,
    prompt: str,
    *,
    max_tokens: int,
    max_length: int,
    context: dict[str, Any] | None = None,
    checks: tuple[TextCheck, ...] = TALK_CHECKS,
) -> Decision:
    """A free-text decision the seat may leave empty (an empty answer says nothing): the
    shape of every werewolf text a player writes (talk, pack chat, diary, debrief)."""
    return Decision(
        id=id,
        seat=seat,
        kind=DecisionKind.FREE_TEXT,
        purpose=purpose,
        checks=checks,
        max_tokens=max_tokens,
        prompt=prompt,
        max_length=max_length,
        allow_empty=True,
        context=context or {},
    )

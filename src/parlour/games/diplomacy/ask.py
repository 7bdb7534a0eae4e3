"""What a diplomacy decision asks beyond its prompt, options and schema, typed.

The game puts a ``DiplomacyAsk`` on each decision (``context=ask.context()``, beside the
generic ``Hints`` the forms read); the prompter, the bot protocol and the scripted bot
policy read it back only through ``DiplomacyAsk.of(decision)`` (``core/asks.py``). Each
purpose sets the fields it needs; the others keep their defaults.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field

from parlour.core.asks import GameAsk


class DiplomacyAsk(GameAsk):
    """Diplomacy's facts about one decision; a field not set is its default."""

    KEY: ClassVar[str] = "diplomacy"

    #: orders, retreats, builds, removals: the phase's name ("S1901M")
    phase: str = ""
    #: builds: how many units the power may build
    builds: int | None = None
    #: removals: how many units the power must remove
    removals: int | None = None
    #: press: this round and how many there are
    round: int | None = None
    rounds: int | None = None
    #: press: who may be written to (ALL first)
    recipients: list[str] = Field(default_factory=list)
    #: bot protocol: the budget pool the call spends ("orders" or "chat")
    pool: str = ""
    #: bot plan and finalise: each unit's orders in the order they are numbered
    options: dict[str, list[str]] = Field(default_factory=dict)
    #: bot finalise: each unit's provisional order, by its number
    floor: dict[str, int] = Field(default_factory=dict)
    #: bot finalise: this phase's commitments, one line each
    commitments: list[str] = Field(default_factory=list)
    #: bot initiate: the powers a message may go to
    targets: list[str] = Field(default_factory=list)
    #: bot gate and reply: who wrote, what, and the message's number
    sender: str = ""
    message: str = ""
    n: int = 0
    #: bot gate and reply: the sender's open proposals to this power, id → the act that
    #: states it (``proposals.act``)
    offers: dict[str, dict[str, Any]] = Field(default_factory=dict)
    #: bot gate over several messages (a batch): each message with its sender, number
    #: and open offers; the decision's options are the messages, by ``msg{n}``
    batch: list[DiplomacyAsk] = Field(default_factory=list)

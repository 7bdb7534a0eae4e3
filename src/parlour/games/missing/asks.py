"""The decisions missing offers, built in one place so their wording and limits agree."""

from __future__ import annotations

from parlour.core.actions import Text
from parlour.core.decisions import Deadline, Decision, DecisionKind, Option
from parlour.core.text_rules import TextRules

SILENT = "silent"
SPEAK = ("speak1", "speak2", "speak3")
SEARCH_PREFIX = "search:"

#: The shared free-text guards every chat message opts into (seats/text_guard.py).
MESSAGE_CHECKS = ("prompt_copy", "repetition", "echo")

COMMANDS_HELP = (
    "Type a message (at most {limit} characters) and press Enter, or just Enter to stay "
    "quiet this round. Commands: /search PLACE, /who, /time, /help."
)


def second_person(decision_id: str, seat: str, purpose: str, question: str) -> Decision:
    return Decision(
        id=decision_id,
        seat=seat,
        kind=DecisionKind.FREE_TEXT,
        purpose=purpose,
        prompt=f"{question} Answer in the second person, starting with 'You', in one to "
        "three sentences.",
        max_length=400,
        max_tokens=120,
        text_rules=TextRules(subject="a second-person answer", require=("you",)),
        checks=("prompt_copy", "repetition"),
    )


def setup_text(decision_id: str, seat: str, purpose: str, prompt: str, limit: int) -> Decision:
    return Decision(
        id=decision_id,
        seat=seat,
        kind=DecisionKind.FREE_TEXT,
        purpose=purpose,
        prompt=prompt,
        max_length=limit,
        max_tokens=max(40, limit // 3),
        checks=MESSAGE_CHECKS,
    )


def round_choice(
    decision_id: str,
    seat: str,
    places: list[tuple[str, str]],
    taken: dict[str, str],
    card_pending: bool,
) -> Decision:
    """The cheap per-round question: stay silent, ask to speak (urgency 1-3) or search.

    ``places`` are (id, name) of free places; ``taken`` maps a busy place's id to why not.
    """
    options = [
        Option(id=SILENT, label="stay silent this round"),
        Option(id="speak1", label="speak (urgency 1: something to add)"),
        Option(id="speak2", label="speak (urgency 2: something useful, or you were asked)"),
        Option(id="speak3", label="speak (urgency 3: a story card or news to share)"),
        *(Option(id=f"{SEARCH_PREFIX}{pid}", label=f"search {name}") for pid, name in places),
    ]
    card = " You have a story card to answer: ask to speak with urgency 3." if card_pending else ""
    return Decision(
        id=decision_id,
        seat=seat,
        kind=DecisionKind.CHOOSE_ONE,
        purpose="turn",
        prompt="Do you want to text the group now, stay silent, or go and search a place?" + card,
        options=tuple(options),
        not_allowed=taken,
        max_tokens=8,
        batch="as_arrived",
    )


def say(decision_id: str, seat: str, limit: int, card_about: tuple[str, ...], why: str) -> Decision:
    rules = (
        TextRules(subject="your story card", words=card_about, min_words=1) if card_about else None
    )
    return Decision(
        id=decision_id,
        seat=seat,
        kind=DecisionKind.FREE_TEXT,
        purpose="message",
        prompt=f"{why} Write your text message to the group (at most {limit} characters, "
        "plain text-message style).",
        max_length=limit,
        max_tokens=max(40, limit // 3),
        checks=MESSAGE_CHECKS,
        text_rules=rules,
        batch="as_arrived",
    )


def person_message(decision_id: str, seat: str, limit: int, wait: float) -> Decision:
    """A person's standing chance to type: any time during a round, never blocking the AIs
    for longer than ``wait`` wall seconds (then the round goes on without them)."""
    return Decision(
        id=decision_id,
        seat=seat,
        kind=DecisionKind.FREE_TEXT,
        purpose="message",
        prompt=COMMANDS_HELP.format(limit=limit),
        max_length=limit,
        allow_empty=True,
        deadline=Deadline(seconds=wait, clock="wall", human_seconds=wait),
        default=Text(text=""),
        batch="as_arrived",
    )

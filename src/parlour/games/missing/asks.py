"""The decisions missing offers, built in one place so their wording and limits agree.

What a decision asks beyond the generic fields travels typed: each carries a
``MissingAsk`` (a ``GameAsk`` under the key ``missing``), and the prompter and the policy
read it back, validated, with ``MissingAsk.of(decision)``.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict

from parlour.core.actions import Text
from parlour.core.asks import GameAsk
from parlour.core.decisions import Deadline, Decision, DecisionKind, Option
from parlour.core.text_rules import TextRules
from parlour.games.missing.town import Character

SILENT = "silent"
SPEAK = ("speak1", "speak2", "speak3")
SEARCH_PREFIX = "search:"

#: The shared free-text guards every chat message opts into (seats/text_guard.py).
MESSAGE_CHECKS = ("prompt_copy", "repetition", "echo")

#: Token budgets, measured on the embedded model (docs/missing.md): a text of 160 characters
#: is about 40 tokens; a choice's JSON about 10. A tight budget ends a rambling answer early
#: instead of paying for tokens the length check throws away.
CHOICE_TOKENS = 16
SECOND_PERSON_CHARS = 160


def text_tokens(limit: int) -> int:
    """Room for a text of ``limit`` characters (~4 characters a token) and a little slack."""
    return limit // 4 + 8


#: The clock is the game's voice, not a player's: a message that recites it is refused.
NO_CLOCK = TextRules(
    subject="your message",
    deny=("left on the clock",),
    deny_why="the clock is the game's reminder, not something to text; say something of your own",
)

COMMANDS_HELP = (
    "Type a message and press Enter (a long one goes out as texts of at most {limit} "
    "characters; start with a name, 'Bram, ...', to answer that player's last text), or "
    "just Enter to stay quiet this round. Commands: /search PLACE, /who, /time, /help."
)

#: Added to a person's questions outside the chat (a model's prompt never carries it).
SETUP_COMMANDS = "(Commands: /who, /time, /help.)"


class Answering(BaseModel):
    """The message a speaker is asked to answer: its event's seq, its sender's first name
    and its words (a public message, so the speaker has seen it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seq: int
    name: str
    text: str


class MissingAsk(GameAsk):
    """Missing's own facts about a decision, for its prompter and its policy."""

    KEY: ClassVar[str] = "missing"

    #: A character question: asked in a fresh context holding only the seat's card.
    fresh: bool = False
    #: A relationship answer: the seat it is about.
    about: str = ""
    #: A chat turn: the ids of the places free to search, in the options' order.
    places: tuple[str, ...] = ()
    #: A person's standing chance to type in the chat: an empty answer stays quiet.
    standing: bool = False
    #: A chat message: the message it answers (None: it answers nobody in particular).
    answering: Answering | None = None
    #: An act seat's choice (``acts.py``): the line each option says, in the options' order.
    lines: tuple[str, ...] = ()


def second_person(decision_id: str, seat: str, purpose: str, question: str) -> Decision:
    return Decision(
        id=decision_id,
        seat=seat,
        kind=DecisionKind.FREE_TEXT,
        purpose=purpose,
        prompt=f"{question} Answer in one short sentence that starts with 'You' "
        f"(at most {SECOND_PERSON_CHARS} characters).",
        max_length=SECOND_PERSON_CHARS,
        max_tokens=text_tokens(SECOND_PERSON_CHARS),
        text_rules=TextRules(subject="a second-person answer", require=("you",)),
        checks=("prompt_copy", "repetition"),
        context=MissingAsk(fresh=True).context(),
    )


def pick_card(decision_id: str, seat: str, cards: list[Character]) -> Decision:
    """A person without a card from ``--set cards=`` picks one: the dealt card or a free one."""
    return Decision(
        id=decision_id,
        seat=seat,
        kind=DecisionKind.CHOOSE_ONE,
        purpose="pick",
        prompt="Pick your character (the first is the one the deal gave you).",
        options=tuple(
            Option(id=c.id, label=f"{c.name} ({c.pronouns}), {c.relation}: {c.persona}")
            for c in cards
        ),
        context=MissingAsk().context(),
    )


def setup_text(
    decision_id: str,
    seat: str,
    purpose: str,
    prompt: str,
    limit: int,
    ask: MissingAsk | None = None,
) -> Decision:
    return Decision(
        id=decision_id,
        seat=seat,
        kind=DecisionKind.FREE_TEXT,
        purpose=purpose,
        prompt=prompt,
        max_length=limit,
        max_tokens=text_tokens(limit),
        checks=MESSAGE_CHECKS,
        text_rules=NO_CLOCK,
        context=(ask or MissingAsk()).context(),
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
    # Short labels: a model answers with the label, and every token of it is generated.
    options = [
        Option(id=SILENT, label="stay silent"),
        Option(id="speak1", label="speak"),
        Option(id="speak2", label="speak, it matters"),
        Option(id="speak3", label="speak now, urgent"),
        *(Option(id=f"{SEARCH_PREFIX}{pid}", label=f"search {name}") for pid, name in places),
    ]
    card = " You have a story card to answer: speak now." if card_pending else ""
    return Decision(
        id=decision_id,
        seat=seat,
        kind=DecisionKind.CHOOSE_ONE,
        purpose="turn",
        prompt="Text the group now (urgent if you have news or were asked), stay silent, "
        "or go and search a place?" + card,
        options=tuple(options),
        not_allowed=taken,
        max_tokens=CHOICE_TOKENS,
        batch="as_arrived",
        context=MissingAsk(places=tuple(pid for pid, _ in places)).context(),
    )


def say(
    decision_id: str,
    seat: str,
    limit: int,
    card_about: tuple[str, ...],
    why: str,
    *,
    texts: int = 1,
    answering: Answering | None = None,
) -> Decision:
    """The chosen speaker's message: up to ``texts`` texts of ``limit`` characters (the
    game splits a longer answer), answering ``answering`` when the engine says so."""
    rules = (
        TextRules(
            subject="your story card",
            words=card_about,
            min_words=1,
            deny=NO_CLOCK.deny,
            deny_why=NO_CLOCK.deny_why,
        )
        if card_about
        else NO_CLOCK
    )
    return Decision(
        id=decision_id,
        seat=seat,
        kind=DecisionKind.FREE_TEXT,
        purpose="message",
        prompt=f"{why}{_answer_note(answering)} Write your message to the group: "
        f"{_texts_words(texts)} of at most {limit} characters, plain text-message style.",
        max_length=limit * texts,
        max_tokens=text_tokens(limit * texts),
        checks=MESSAGE_CHECKS,
        text_rules=rules,
        batch="as_arrived",
        context=MissingAsk(answering=answering).context(),
    )


def _texts_words(texts: int) -> str:
    return "one short text" if texts == 1 else f"one to {texts} short texts, each"


def _answer_note(answering: Answering | None) -> str:
    """What the speaker answers, in the command (the message itself is in the chat)."""
    if answering is None:
        return ""
    return f" Answer {answering.name}'s last text to you or the group."


def person_message(
    decision_id: str, seat: str, limit: int, wait: float, texts: int = 1
) -> Decision:
    """A person's standing chance to type: any time during a round, never blocking the AIs
    for longer than ``wait`` wall seconds (then the round goes on without them)."""
    return Decision(
        id=decision_id,
        seat=seat,
        kind=DecisionKind.FREE_TEXT,
        purpose="message",
        prompt=COMMANDS_HELP.format(limit=limit),
        max_length=limit * texts,
        allow_empty=True,
        deadline=Deadline(seconds=wait, clock="wall", human_seconds=wait),
        default=Text(text=""),
        batch="as_arrived",
        context=MissingAsk(standing=True).context(),
    )

"""Speech acts for the seats a small model plays (``MissingConfig.act_seats``).

Asked for free text, the embedded 135M model recites its instructions and the clock and
runs out of tokens mid-word (docs/benchmarks.md). An act seat is instead asked to choose:
each free-text question it would get becomes a choice among lines the game words from the
seat's own view, the same lines the scripted player draws on (``talk.py`` for the chat,
the card's facts for the setup answers). The options' labels say what each line does;
the lines travel in the decision (``MissingAsk.lines``), so the answer is applied as the
chosen line, and its event names the decision (``act``) so the talk measure knows the
game, not the model, wrote the words.

A person's standing message is never turned into a choice; nor is anything asked of a
seat outside ``act_seats``.
"""

from __future__ import annotations

from collections.abc import Callable

from parlour.core.actions import Action, Choice, Text
from parlour.core.decisions import Decision, DecisionKind, Option
from parlour.core.rng import Rng, hash_seed
from parlour.games.missing import talk
from parlour.games.missing.asks import CHOICE_TOKENS, MissingAsk
from parlour.games.missing.policies import setup_lines
from parlour.games.missing.views import MissingView

#: A setup line's label is its first words, up to this many characters.
LABEL_CHARS = 48
#: A setup answer offers at most this many wordings.
SETUP_OPTIONS = 4


def as_choice(decision: Decision, view: Callable[[], MissingView], seed: int) -> Decision:
    """The act form of ``decision`` for an act seat: a choice among worded lines, or the
    decision itself when it asks no free text the game can word. ``view`` builds the
    seat's view, only for a decision that needs it (most are round choices)."""
    ask = MissingAsk.of(decision)
    if decision.kind is not DecisionKind.FREE_TEXT or ask.standing:
        return decision
    rng = Rng(hash_seed(seed, f"act:{decision.id}"))
    worded = _worded(decision, ask, view(), rng)
    if not worded:
        return decision
    options = [Option(id=f"a{n + 1}", label=label) for n, (label, _) in enumerate(worded)]
    longest = max(len(o.label) for o in options)
    return Decision.model_validate(
        decision.model_dump()
        | {
            "kind": DecisionKind.CHOOSE_ONE,
            "prompt": _prompt(decision, ask),
            "options": options,
            "max_length": 0,
            # The model writes the label (seats/llm.py): room for all of it (a token is
            # at least two characters) and the JSON around it; the reason may be cut short.
            "max_tokens": longest // 2 + CHOICE_TOKENS,
            "checks": (),
            "text_rules": None,
            "context": ask.model_copy(update={"lines": tuple(t for _, t in worded)}).context(),
        }
    )


def spoken(decision: Decision, action: Action) -> tuple[Text, str]:
    """The answer as the text it says, and the act's decision id ("" for a seat's own
    words): the chosen option's line when the decision is an act's."""
    lines = MissingAsk.of(decision).lines
    if not lines or not isinstance(action, Choice):
        assert isinstance(action, Text)  # decision.check accepted only text for free text
        return action, ""
    index = [o.id for o in decision.options].index(action.option)
    return Text(text=lines[index]), decision.id


def _prompt(decision: Decision, ask: MissingAsk) -> str:
    if decision.purpose == "message":
        answer = f" Answer {ask.answering.name}'s last text." if ask.answering else ""
        return f"Your turn to text the group.{answer} Choose what you say."
    question = decision.prompt.split(" Answer in one short sentence")[0]
    return f"{question} Choose your answer."


def _worded(
    decision: Decision, ask: MissingAsk, view: MissingView, rng: Rng
) -> list[tuple[str, str]]:
    """(label, line) per option: the chat's acts fittest first, a setup answer's
    wordings in an order drawn by seed."""
    if decision.purpose == "message":
        return [(act.label, line) for act, line in talk.worded_acts(view, ask.answering, rng)]
    # the card's wordings, the one the scripted player would say first; a few, since the
    # model reads every label
    return [(_gist(line), line) for line in setup_lines(view, decision, rng)[:SETUP_OPTIONS]]


def _gist(line: str, chars: int = LABEL_CHARS) -> str:
    """A setup line's label: its opening words, since every token of a label the model
    picks is generated (a whole line cost a 135M model seconds per answer)."""
    if len(line) <= chars:
        return line
    return line[:chars].rsplit(" ", 1)[0].rstrip(",;:.")

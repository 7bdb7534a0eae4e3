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
from parlour.games.missing.policies import BACKGROUND, RELATION, SECRET
from parlour.games.missing.views import MissingPrivate, MissingPublic, MissingView

#: A setup line's label is its first words, up to this many characters.
LABEL_CHARS = 48

#: Setup answers the game words from the card, by the decision's purpose.
_INTRODUCTION = (
    "Hi, it's {first} ({pronouns}), {relation}. People say I'm {persona}.",
    "{first} here, {pronouns}. I'm {relation}; {trait}, if you ask anyone.",
    "It's {first}. {relation_cap}. I'm the {trait} one, and I'm worried.",
)
_SUSPICION = (
    "{suspect} keeps turning up where {friend} goes, and nobody checks {place} after dark.",
    "I don't trust {suspect}. And {place}: {friend} went there more than anyone knew.",
    "Two things bother me: {suspect}, and what happens at {place} at night.",
)
_EPILOGUE = (
    "{first} goes home, still thinking: {drive}.",
    "{first} sits up all night, texting {friend} a long message.",
    "{first} walks back past {place} one last time before going home.",
)


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
    pub: MissingPublic = view.public
    me: MissingPrivate = view.private
    friend = pub.friend.split()[0]
    first = me.name.split()[0]
    if decision.purpose == "message":
        return [(act.label, line) for act, line in talk.worded_acts(view, ask.answering, rng)]
    traits = rng.shuffled(me.traits) or ["quiet"]
    facts = {
        "first": first,
        "friend": friend,
        "pronouns": me.pronouns,
        "relation": me.relation,
        "relation_cap": me.relation[:1].upper() + me.relation[1:],
        "persona": me.persona,
        "drive": me.drive,
        "suspect": me.suspect,
        "place": me.place,
    }
    if decision.purpose == "relationship":
        other = next((p.name for p in pub.players if p.seat == ask.about), ask.about)
        facts["other"] = other
    templates = {
        "background": BACKGROUND,
        "secret": SECRET,
        "introduction": _INTRODUCTION,
        "relationship": RELATION,
        "suspicion": _SUSPICION,
        "epilogue": _EPILOGUE,
    }.get(decision.purpose, ())
    limit = decision.max_length or None
    lines = [t.format(**facts, trait=traits[n % len(traits)]) for n, t in enumerate(templates)]
    fitting = [line for line in lines if limit is None or len(line) <= limit]
    # In a seed's order, so seats that take the first option do not all say the same.
    return [(_gist(line), line) for line in rng.shuffled(list(dict.fromkeys(fitting)))]


def _gist(line: str, chars: int = LABEL_CHARS) -> str:
    """A setup line's label: its opening words, since every token of a label the model
    picks is generated (a whole line cost a 135M model seconds per answer)."""
    if len(line) <= chars:
        return line
    return line[:chars].rsplit(" ", 1)[0].rstrip(",;:.")

"""Act, ask, or do nothing: with the leaders ranked, the rules that keep the
classifier from guessing (close scores, a broad order, alternatives, an order that does not
say which option, looking only, the actions the room does not offer now).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from fractions import Fraction

from parlour.games.escape.function_words import DETERMINERS
from parlour.games.escape.keyword_classifier.clauses import CLAUSE, clause_verbs
from parlour.games.escape.keyword_classifier.matching import (
    LOOKING,
    action_roles,
    is_deed,
    raw_tokens,
    word_fits,
)
from parlour.games.escape.keyword_classifier.prepared import prepared
from parlour.games.escape.keyword_classifier.scoring import (
    SURE,
    SURE_NAMED,
    Ranked,
    evidence_in,
    evidence_of,
    fit_options,
    is_close,
)
from parlour.games.escape.lexicon import senses
from parlour.games.escape.phrasing import is_quantified
from parlour.games.escape.roles import LIGHT_DEEDS, Roles, plural_of, roles, verb_senses
from parlour.games.escape.scenario import ASK_ID, NONE_ID
from parlour.games.escape.text import near, stem, words

_LABEL = re.compile(r"\b(?:\d+|[b-hj-zB-HJ-Z])\b")  # "button 9", "press G"


def act_ask_or_none(
    message: str,
    options: Sequence[tuple[str, str]],
    leaders: list[Ranked],
    score: Fraction,
    oid: str,
    named: bool,
) -> str:
    close = len(leaders) > 1 and is_close(leaders[0], leaders[1])
    broad = is_broad(message, options, oid)
    alternatives = len(leaders) > 1 and bool(_ALTERNATIVES.search(prepared(message, options)))
    close = close or broad or alternatives
    offered = any(o == ASK_ID for o, _ in options)
    if _only_looks(message, options, oid):
        return NONE_ID  # "examine the red button": looking at a thing is no deed on it
    if named and not close and _light_on_shared(message, options, oid):
        return NONE_ID  # "use phone": the lift's phone or the player's own; not said which
    if close or not named or score < SURE_NAMED:
        about_it = _names_an_object(message, options, oid)
        if not close and score >= SURE and (about_it or not roles(oid, dict(options)[oid]).objects):
            if not about_it and _names_another_thing(message, options, oid):
                # "pick up the handset and hope for help": the handset is the phone's, not the
                # shout's; the instrument says the goal words may mean the other option.
                return ASK_ID if offered else NONE_ID
            if not about_it and _verb_is_anothers(message, options, oid):
                # "call for help" once the phone works: "call" is the desk call's deed, "help"
                # the shout's; the words fit both, so the game asks, never guesses.
                return ASK_ID if offered else NONE_ID
            return oid  # a strong match acts, if it is about one of the option's things
        if not close and not about_it:
            return NONE_ID  # one weak, shared word ("flip the red switch" / "switch on the torch")
        if broad or _says_not_which(message, options, oid):
            return NONE_ID  # "press the button" with two buttons: the label convention's none
        return ASK_ID if offered else NONE_ID
    return oid


#: Words that make two deeds one act: "at the same time", "at once", "together",
#: "simultaneously", "in one go", "while ...ing", and "both" unless it counts the player's
#: own hands ("shove it up with both hands" is one deed done with force, not two deeds).
_AT_ONCE = re.compile(
    r"\b(?:at\s+the\s+same\s+time|(?:all\s+)?at\s+once|together|simultaneous(?:ly)?|"
    r"in\s+one\s+go|in\s+unison|while\s+(?:\w+\s+)?\w+ing|both(?!\s+(?:of\s+)?(?:my\s+)?(?:hands|fists|arms|feet|"
    r"legs|shoulders|palms|thumbs)\b))\b",
    re.IGNORECASE,
)


def two_at_once(message: str, options: Sequence[tuple[str, str]]) -> bool:
    """The message names two options (each its deed and its thing) as ONE act: "hit red and
    green at the same time", "pull the lever and flip the switch at once". The room offers
    each alone and no pressing of both, so it is none (the label convention for a deed the
    room does not have), never the first of the two. Two deeds in sequence ("X and then Y",
    "X and Y") have no such word and stay the first deed."""
    text = prepared(message, options)
    if not _AT_ONCE.search(text):
        return False
    named = [oid for _, _, oid, names in fit_options(message, options) if names]
    evidence = evidence_of(message, options)
    # Each of the two is told by words of its own ("press the red button at once": the
    # green button's "press" and "button" are the red one's too, so one deed, at once).
    told = [o for o in named if not any(evidence[o] <= evidence[p] for p in named if p != o)]
    return len(told) >= 2


def fits_unoffered(
    message: str,
    options: Sequence[tuple[str, str]],
    unoffered: Sequence[tuple[str, str]],
    winner: str,
) -> bool:
    """The ask-vs-none rule (``labels.py``) with the options the room does not offer now:
    the message says nothing that tells the winner from an unoffered option, so it does not
    say which, and the room cannot do the other: ``none``. Either

    * every word that is evidence of the winner is evidence of the unoffered option too,
      which may have more ("tell the ghost her name is X" before a name can be said: the
      ghost is both options', the name only the saying's); or
    * the thing named is the winner's only by a head noun the unoffered option has too,
      as another thing of that kind (the description writes it in the other number: "the
      little emergency phone door" / "the lift doors"), and the message names none of the
      winner's modifiers: "open the door" does not say which door, and the winner's deed
      alone does not tell (the other door opens too, by force)."""
    if not unoffered:
        return False
    text = prepared(message, options)  # read once: every test below reads the same text
    raw = raw_tokens(text)
    said = [s for _, s in raw]
    own = evidence_in(said, options).get(winner, frozenset())
    if not own:
        return False
    theirs = evidence_in(said, unoffered)
    for oid, label in unoffered:
        # A thing the unoffered option has one of, named in the plural ("doors" against
        # "the little phone door"), is another thing: no evidence of it.
        one = roles(oid, label).singular
        plural = {s for w, s in raw if any(plural_of(w.lower(), h) for h in one)}
        theirs[oid] = theirs[oid] - plural
    if any(own < other for other in theirs.values()):
        return True
    return another_of_its_kind(message, options, unoffered, winner, theirs)


def another_of_its_kind(
    message: str,
    options: Sequence[tuple[str, str]],
    others: Sequence[tuple[str, str]],
    winner: str,
    theirs: dict[str, frozenset[str]] | None = None,
    *,
    offered: bool = False,
) -> bool:
    """The thing named is the winner's only by a head noun one of ``others`` has too, as
    another thing of that kind (written in the other number: "the side door" / "the main
    doors"), and the message names none of the winner's own describing words: it does
    not say which (``fits_unoffered``). Between ``offered`` options a shared head is
    another thing only when written in the other number: two deeds may be offered on one
    thing ("look into the lily pond", "scatter fish food into the lily pond")."""
    text = prepared(message, options)
    said = [s for _, s in raw_tokens(text)]
    own = evidence_in(said, options).get(winner, frozenset())
    if theirs is None:
        theirs = evidence_in(said, others)
    label = dict(options)[winner]
    mine = roles(winner, label)
    typed = words(text)
    heads = [h for h in mine.heads if any(near(s, h) for s in said)]
    if not heads:
        return False
    for oid, other_label in others:
        other = roles(oid, other_label)
        kind_of = [h for h in heads if h in other.heads]
        if not kind_of or other.singular == mine.singular:
            continue  # no head in common, or the same thing written the same way
        if offered and not any(_numbers_differ(h, mine, other) for h in kind_of):
            continue  # two offered deeds on one thing ("look into" / "feed" the pond)
        # The winner's own describing words ("little", "emergency", "phone" of "the little
        # emergency phone door"), said as written, tell its thing from the other one.
        describing = set(words(label)) - set(words(other_label)) - _FUNCTION_WORDS
        describing -= set(mine.heads) | set(mine.singular) | set(mine.plural)
        describing -= set(words(label)[:1])  # the deed
        if any(near(w, d) for w in typed for d in describing if w not in _FUNCTION_WORDS):
            continue
        if all(w in theirs[oid] or is_deed(w, mine) for w in own):
            return True
    return False


def named_by_anothers_word(
    message: str,
    options: Sequence[tuple[str, str]],
    others: Sequence[tuple[str, str]],
    winner: str,
) -> bool:
    """Every word that names one of the winner's things does so only by a shared sense,
    and is, word for word, the head noun of another action's thing (offered or not): "open
    the door" names the side door and the main doors, not the cupboard that a door also
    means. The player named another thing; the winner is no reading of it."""
    parts = roles(winner, dict(options)[winner])
    said = [s for _, s in raw_tokens(prepared(message, options))]
    naming = [s for s in said if any(word_fits(s, o) for o in parts.objects)]
    if not naming or any(near(s, o) for s in naming for o in parts.objects):
        return False
    heads = {h for _, other in action_roles(others) for h in other.heads}
    return all(any(near(s, h) for h in heads) for s in naming)


def _numbers_differ(head: str, mine: Roles, other: Roles) -> bool:
    """One description writes ``head`` in the singular, the other in the plural."""

    def written(parts: Roles) -> set[bool]:
        return {
            h in parts.plural for h in parts.singular | parts.plural if stem(h, fold=False) == head
        }

    return bool(written(mine)) and bool(written(other)) and written(mine) != written(other)


#: Words that describe no thing: a description's articles, pronouns and prepositions.
_FUNCTION_TEXT = "of to on in into onto by with at from for up down back apart off out over"


_FUNCTION_WORDS = DETERMINERS | frozenset(_FUNCTION_TEXT.split())


def _says_not_which(message: str, options: Sequence[tuple[str, str]], winner: str) -> bool:
    """The ask-vs-none rule (``labels.py``): the message says nothing of the winner that
    another option's description lacks ("press the button": both buttons are pressed and
    are buttons). It does not say which, so it is ``none``, like an order for something the
    room does not have. ``ask`` is kept for a message that says something of each of two
    options ("pick up the handset and hope for help": the phone's handset, the shout's
    help), where the classifier, not the player, cannot tell which."""
    if _LABEL.search(prepared(message, options)):
        return False  # "press G": a label says which, though no description spells it
    evidence = evidence_of(message, options)
    own = evidence.get(winner, frozenset())
    return bool(own) and any(own <= other for oid, other in evidence.items() if oid != winner)


def _names_another_thing(message: str, options: Sequence[tuple[str, str]], winner: str) -> bool:
    """The message names the head noun of another option's description (its tool or
    thing), and the winner has no object of its own the message names."""
    text = prepared(message, options)
    said = [s for _, s in raw_tokens(text)]
    own = roles(winner, dict(options)[winner]).objects
    return any(
        word_fits(s, h)
        for oid, label in options
        if oid not in (NONE_ID, ASK_ID, winner)
        for h in roles(oid, label).heads - own
        for s in said
    )


def _verb_is_anothers(message: str, options: Sequence[tuple[str, str]], winner: str) -> bool:
    """The winner is not named (its deed is not the message's verb, and the caller checked
    that none of its things is named), and a clause's verb *is* the deed of another
    available option, word for word (a shared sense is weaker than the winner's own word):
    the message says something of each ("call for help": calling the night desk, or
    shouting for help), so acting on the winner guesses. Only options the room offers now
    count: before the phone works "call for help" shouts."""
    text = prepared(message, options)
    verbs = clause_verbs([c for c in CLAUSE.split(text) if c.strip()])

    def does(oid: str, label: str, same: Callable[[str, str], bool] = near) -> bool:
        deeds = roles(oid, label).deeds
        return any(
            same(v, d)
            for w, s in verbs
            if s not in LIGHT_DEEDS
            for v in (s, *verb_senses(w))
            for d in deeds
        )

    if does(winner, dict(options)[winner], word_fits):
        return False
    return any(does(oid, label) for oid, label in options if oid not in (NONE_ID, ASK_ID, winner))


def _only_looks(message: str, options: Sequence[tuple[str, str]], winner: str) -> bool:
    """Every clause's verb only looks ("examine", "look at", "x"; not "check", which also
    searches: "check behind the little door" opens it) and the winner's deed is no kind of
    looking, reading or searching: "examine the red button", "look at the alarm bell" ask
    the narrator to describe the thing, they do not press it."""
    text = prepared(message, options)
    verbs = clause_verbs([c for c in CLAUSE.split(text) if c.strip()])
    if not verbs or not all(senses(s) & LOOKING == {"#examine"} for _, s in verbs):
        return False
    deeds = roles(winner, dict(options)[winner]).deeds
    return not any(senses(d) & LOOKING or word_fits(s, d) for _, s in verbs for d in deeds)


def _light_on_shared(message: str, options: Sequence[tuple[str, str]], winner: str) -> bool:
    """A light verb only ("use phone", "try the phone") on a thing that another option's
    description also mentions ("the torch of your mobile phone"), with none of the winner's
    modifiers ("emergency"): it does not say which thing, so nothing is done (the label
    convention for an order that fits several: ``none``)."""
    text = prepared(message, options)
    verbs = clause_verbs([c for c in CLAUSE.split(text) if c.strip()])
    if not verbs or any(w not in LIGHT_DEEDS and s not in LIGHT_DEEDS for w, s in verbs):
        return False
    parts = roles(winner, dict(options)[winner])
    said = [s for w, s in raw_tokens(text) if w not in LIGHT_DEEDS and s not in LIGHT_DEEDS]
    if any(word_fits(s, m) for s in said for m in parts.modifiers):
        return False
    named = [h for h in parts.heads if any(word_fits(s, h) for s in said)]
    return any(
        h == stem(w, fold=False)  # the same thing, not a shared sense ("key" / "open")
        for h in named
        for oid, label in options
        if oid not in (NONE_ID, ASK_ID, winner)
        for w in words(label)
    )


#: "press the red button or the green button": the player names two options as choices.
_ALTERNATIVES = re.compile(r"\bor\b|\beither\b", re.IGNORECASE)


def _names_an_object(message: str, options: Sequence[tuple[str, str]], oid: str) -> bool:
    """The message names one of the option's objects (head nouns), so a weak match is about
    one of the room's things and worth asking about; otherwise the player is talking about
    something the room does not have ("flip the red switch" before any switch is in reach)."""
    parts = roles(oid, dict(options)[oid])
    text = prepared(message, options)
    return any(word_fits(s, o) for _, s in raw_tokens(text) for o in parts.objects)


def is_broad(message: str, options: Sequence[tuple[str, str]], winner: str) -> bool:
    """An order whose verb fits the deed of several options, which names none of the
    winner's modifiers ("all the *floor* buttons" is narrow) and is either quantified
    ("press every button I can see") or names one of several things without saying which
    ("press the button" where the floor buttons and others fit): it may mean several
    actions, so the game asks, never guesses."""
    text = prepared(message, options)
    verbs = clause_verbs([c for c in CLAUSE.split(text) if c.strip()])
    fitting = [
        oid
        for oid, their in action_roles(options)
        if any(word_fits(v, d) for w, s in verbs for v in (s, *verb_senses(w)) for d in their.deeds)
    ]
    if len(fitting) < 2 or winner not in fitting:
        return False
    label = dict(options)[winner]
    parts = roles(winner, label)
    said = raw_tokens(text)
    if any(word_fits(s, m) for _, s in said for m in parts.modifiers):
        return False
    if is_quantified(text):
        return True
    # "press the button" in a lift of floor *buttons* and an alarm button: one of several
    # things, not said which (a singular for the description's plural, or a head noun of
    # several fitting options' descriptions), and no label says it ("button 9", "G").
    if _LABEL.search(text):
        return False
    shared = {h for oid in fitting if oid != winner for h in roles(oid, dict(options)[oid]).heads}
    # Only the thing the deed is done to: "a match" of "light the lantern with the matches"
    # is the tool, and one match is as good as another.
    things = {h for h in parts.plural if stem(h, fold=False) in parts.direct}
    one_of_many = any(plural_of(h, w) for w, _ in said for h in things)
    return one_of_many or any(s in parts.heads and s in shared for _, s in said)

"""A keyword classifier: the scripted baseline any model classifier must beat.

It sees exactly what a model classifier sees (the player's message and the options) and:

* acts only on the message's sentences that are not questions ("HELP! Is anyone there?"
  acts by "HELP"); a message that is only questions ("is there a ghost?"), negated ("I
  don't..."), looking around with no object named, or a ``/command`` is ``none``;
* ignores identifier-like words ("press_red"): players do not type option ids, injections do;
* scores each option by a blend (``MIX``) of two shares: *cover*, how much of the option's
  words (its description's content tokens plus its id's words) the message names, each
  weighted by 1 / (number of options it appears in) so that shared words ("button",
  "door") count for less than the ones that tell options apart; and *share*, how much of
  the message the option explains. Cover alone misses short messages against long
  descriptions ("open the cabinet"); share alone lets one common word carry a message;
* words match when equal, one typo apart (``text.near``; also a dropped letter in a
  three-letter word, "opn"), or when they share a sense (``lexicon.py``: "kick" fits
  bang and force);
* a message of several clauses ("open the trapdoor and climb down") is scored whole and
  clause by clause (clauses of two words or more), each option keeping its best;
* a number of three or more digits (also typed apart, "1 9 6 2") scores half a
  description's worth for the single option that talks about a code, keypad or dial;
* among the options scoring at least ``threshold``, the strong ones (at least ``STRONG``
  of the best) compete on where their most telling word comes in the message, so the
  first of several intents wins;
* it knows what each option is about (``roles.py``): its deed (the verb) and its objects
  (head nouns). An option is *named* when a sentence or clause starts with its deed (or a
  light verb, "use the emergency phone"; or a noun used as a verb, "phone for help") and
  another word names one of its objects. Named options go first: a named option acts from
  ``SURE_NAMED``, an unnamed one only from ``SURE``. An option whose singular object the
  player names in the plural ("pry open the doors" against "the little emergency phone
  door") is not a candidate at all;
* it does not guess when unsure: when the two strongest lead from the same place and
  score within ``CLOSE`` of each other ("go look at the woman in the painting"), or when the
  winner scores under its bar, it answers ``ask`` when the decision offers it (the game
  asks the player which one they meant, advancing nothing), else ``none``.

* before any of that, the message is put in plainer words (``phrasing.py``: codes in
  words, contractions, fillers, shorthand, "use X to Y" scored as Y, phrasal verbs, tag
  questions, greetings kept as speech), its unknown words corrected when they are a
  keyboard slip of a known word (``typos.py``), and a said name ("I call her Rosalind")
  scored as saying a name; a quantified order whose verb fits several options and names
  none of the winner's modifiers ("press every button") is ``none``; a weak unnamed winner
  whose objects the message does not name is ``none``, not ``ask`` (the player means
  something the room does not offer);
* the ask-vs-none rule (``labels.py``): an order that says nothing telling the winner from
  another option ("press the button", a broad or quantified order, an object word alone)
  is ``none``; ``ask`` is kept for a message saying something of each of two options;
* two options fitting equally never get a guess (eighth step): an unnamed winner whose
  clause verb is another available option's deed word for word asks ("call for help" with
  the phone working); a verb that only looks is no deed on a thing ("examine the red
  button"); options named as alternatives ("red or green") ask; an option whose evidence
  another strong option has all of, and more, drops out ("hit the door and the red button").
* a message with no verb never acts (ninth step): an object word or noun phrase alone
  ("phone", "the newspaper", "phone cable", "hatch in the ceiling", "phone please") is
  ``none`` whatever options its thing has; so is a sentence saying what there is or what a
  thing is ("there's a phone", "the lever seems stuck").
* kinds blind9 showed (tenth step): a negation counts only in the part it is said in, and a
  warning reported after the deed is its reason ("press red, the note said not to but im
  curious"); a modifier only one option's thing has, or its second deed's words, with a
  verb fitting its deed names it ("shove the ceiling panel up", "shout for help"); a tool
  one of several alike is no "which one?" ("strike a match"); a light still off comes
  before reading by it ("shine my phone light on the certificate"); an id's own verb goes
  with the id's thing ("talk to the ghost again" is no saying of her name); a name given
  while no option is about a name is ``none``; speaking to whoever answers is a call.
* kinds blind10-12 showed (eleventh step): two options named as one act ("red and green at
  the same time") are ``none``; shorthand for the room's words ("grn btn", "cert",
  "fone", in ``typos``); a verb that goes one way moves a thing ("lower the lift"); a
  drawn-out call or a greeting run into its question in capitals shouts; a deed's word
  said again is its sound ("bang bang"); "it" put in a thing is the tool named before, and
  after a verb the thing its deed is done to; a pronoun spoken to is the one person.
* the actions the room does not offer now (twelfth step; ``unoffered``, from the view,
  never picked): the ask-vs-none rule applies to them too. When every word that is
  evidence of the winner is evidence of an unoffered action that has more ("tell the ghost
  her name is X" before a name can be said), or the winner's thing is named only by a head
  noun an unoffered action has as another thing of that kind ("open the door": the little
  phone door, the lift doors), the message does not say which, and the answer is ``none``.
  This replaced the special rule for a name said before a name is offered.

The constants were first chosen on the tuning label set only; each later set was then
read for a step once it had been scored (``loader.LABEL_SETS``; the history and the
figures are in docs/benchmarks.md).

It never sees answers (codes): the engine gates answer actions on the player's text.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import lru_cache

from parlour.games.escape.commands import is_looking
from parlour.games.escape.function_words import (
    ANYONE,
    AUXILIARIES,
    DETERMINERS,
    FILLERS,
    GREETINGS,
    PEOPLE,
    QUESTION_STARTS,
    SUBJECTS,
)
from parlour.games.escape.lexicon import WRITTEN, senses
from parlour.games.escape.phrasing import (
    digits_joined,
    in_order,
    is_quantified,
    rewrite,
    untagged,
)
from parlour.games.escape.roles import (
    DIRECTIONS,
    LIGHT_DEEDS,
    Roles,
    plural_of,
    roles,
    verb_senses,
)
from parlour.games.escape.scenario import ASK_ID, NONE_ID
from parlour.games.escape.text import STOPWORDS, near, stem, token_set, words
from parlour.games.escape.typos import correct, shorthand, vocabulary

THRESHOLD = Fraction(1, 2)
STRONG = Fraction(3, 4)
CLOSE = Fraction(9, 10)
CODE_BONUS = Fraction(1, 2)
MIX = Fraction(2, 3)
SURE = Fraction(3, 5)
SURE_NAMED = Fraction(3, 10)
_LABEL = re.compile(r"\b(?:\d+|[b-hj-zB-HJ-Z])\b")  # "button 9", "press G"
_NEGATIONS = frozenset({"not", "dont", "don't", "never", "won't", "wont", "refuse", "avoid"})
_IDENTIFIER = re.compile(r"\w+_\w+")
_CODE_WORDS = frozenset({"code", "keypad", "dial", "combination", "password", "pin"})
_SENTENCE = re.compile(r"[^.!?;:]+[.!?;:]*")  # a sentence with its end marks
_CLAUSE = re.compile(
    r",?\s+(?:and then|then|and|after that|before|so(?=\s+(?:let|lets|i|we)\b))\s+|,\s+"
    r"|[.!?;:]+\s*",
    re.IGNORECASE,
)
_ID_SPLIT = re.compile(r"[_\-]+")
_COMPOUND = re.compile(
    r"\b(trap|news|hand|fire|crawl|key|flash|torch|sky|cup|book)[\s-]+"
    r"(door|paper|rail|place|space|pad|light|board|shelf|case)\b",
    re.IGNORECASE,
)


def is_question(message: str) -> bool:
    """Ends in "?", or opens like a question: a wh-word, or an auxiliary before its subject
    ("is the door locked", "have you seen"); "have a look at the painting" is an order."""
    text = message.strip()
    if text.rstrip("!").endswith("?"):
        return True
    lead = words(text)[:2]
    if lead[:1] in (["can"], ["could"]) and lead[1:] and lead[1] in ANYONE:
        return True  # "CAN ANYONE HEAR ME"; "can you open the door" is a polite order
    if not lead or lead[0] not in QUESTION_STARTS:
        return False
    return lead[0] not in AUXILIARIES or len(lead) < 2 or lead[1] in SUBJECTS


def _greets(sentence: str) -> bool:
    first = words(sentence)[:1]
    return bool(first) and first[0] in GREETINGS


def _shouted(sentence: str) -> bool:
    """A question called out rather than asked: in capitals ("IS ANYONE OUT THERE"),
    ending "?!" ("is anybody out there?!"), or with a call drawn out ("hellooo", "anyone
    therrre"). It is the player shouting."""
    letters = [c for c in sentence if c.isalpha()]
    capitals = len(words(sentence)) >= 2 and bool(letters) and all(c.isupper() for c in letters)
    drawn = any(_DRAWN.sub(r"\1", w) != w for w in words(sentence))
    return capitals or drawn or bool(re.search(r"(?:\?!|!\?)[?!]*\s*$", sentence))


#: A letter held three times or more: a word drawn out, as a call is ("HELLOOO", "heeelp").
_DRAWN = re.compile(r"([a-z])\1{2,}", re.IGNORECASE)
#: A greeting run into the question it opens, with no mark between ("HELLOOO IS ANYONE
#: THERE"): two sentences, the greeting and the question.
_RUN_ON_GREETING = re.compile(
    r"^(?P<greeting>\W*[a-z]+)(?=\s+(?:is|are|can|could|does|will|anyone|anybody|someone|"
    r"somebody)\b)",
    re.IGNORECASE,
)


def _called_out(message: str) -> str:
    """The message with its drawn-out words said plainly ("heeelp" is "help"), and a
    greeting run into its question ended ("HELLOOO IS ANYONE THERE" -> "HELLO? IS ANYONE
    THERE", which a question in capitals makes a shout)."""
    sentences = []
    for sentence in _SENTENCE.findall(message) or [message]:
        plain = _DRAWN.sub(r"\1", sentence)
        if not is_question(plain) and _shouted(sentence):
            greeting = _RUN_ON_GREETING.match(plain)
            if greeting and _greets(greeting.group("greeting")):
                rest = plain[greeting.end() :]
                plain = f"{greeting.group('greeting')}? {rest.strip().upper()}"
        sentences.append(plain)
    return " ".join(s.strip() for s in sentences)


def is_negated(message: str) -> bool:
    lowered = message.lower().replace("’", "'")
    return any(w in _NEGATIONS for w in re.findall(r"[a-z']+", lowered)) or "n't" in lowered


def classify(
    message: str,
    options: Sequence[tuple[str, str]],
    threshold: Fraction = THRESHOLD,
    strong: Fraction = STRONG,
    *,
    unoffered: Sequence[tuple[str, str]] = (),
) -> str:
    """``options`` are (id, description) pairs; returns an option id, ``none``, or ``ask``
    (only when ``ask`` is among the options). ``unoffered``: (id, description) of the
    actions the room does not offer now, never picked (``seat_requests.ClassifierPrivate``)."""
    leaders = rank(message, options, threshold, strong)
    if not leaders or is_verbless(message, options):
        return NONE_ID
    if _two_at_once(message, options):
        return NONE_ID  # "hit red and green at the same time": a deed the room does not offer
    score, _, oid, named = leaders[0]
    picked = _picked(message, options, leaders, score, oid, named)
    if picked == oid and _fits_unoffered(message, options, unoffered, oid):
        return NONE_ID  # "open the door" with the lift's doors there, not yet forceable
    return picked


def _picked(
    message: str,
    options: Sequence[tuple[str, str]],
    leaders: list[Ranked],
    score: Fraction,
    oid: str,
    named: bool,
) -> str:
    close = len(leaders) > 1 and _close(leaders[0], leaders[1])
    broad = is_broad(message, options, oid)
    alternatives = len(leaders) > 1 and bool(_ALTERNATIVES.search(_prepared(message, options)))
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


def _two_at_once(message: str, options: Sequence[tuple[str, str]]) -> bool:
    """The message names two options (each its deed and its thing) as ONE act: "hit red and
    green at the same time", "pull the lever and flip the switch at once". The room offers
    each alone and no pressing of both, so it is none (the label convention for a deed the
    room does not have), never the first of the two. Two deeds in sequence ("X and then Y",
    "X and Y") have no such word and stay the first deed."""
    text = _prepared(message, options)
    if not _AT_ONCE.search(text):
        return False
    named = [oid for _, _, oid, names in fit_options(message, options) if names]
    evidence = _evidence(message, options)
    # Each of the two is told by words of its own ("press the red button at once": the
    # green button's "press" and "button" are the red one's too, so one deed, at once).
    told = [o for o in named if not any(evidence[o] <= evidence[p] for p in named if p != o)]
    return len(told) >= 2


def _evidence(
    message: str,
    options: Sequence[tuple[str, str]],
    of: Sequence[tuple[str, str]] | None = None,
) -> dict[str, frozenset[str]]:
    """Per option (of ``of``, by default the offered ones), the message's words that its
    description or id names; the message is read as it is for the offered options."""
    said = [s for _, s in _raw_tokens(_prepared(message, options))]
    return _evidence_in(said, options if of is None else of)


def _evidence_in(said: list[str], options: Sequence[tuple[str, str]]) -> dict[str, frozenset[str]]:
    """Per option, the words of ``said`` (stems) that its description or id names."""
    evidence: dict[str, frozenset[str]] = {}
    for oid, label in options:
        if oid in (NONE_ID, ASK_ID):
            continue
        described = _described(oid, label)  # once per option, not once per word said
        evidence[oid] = frozenset(s for s in said if any(_match(s, d) for d in described))
    return evidence


@lru_cache(maxsize=512)
def _described(oid: str, label: str) -> frozenset[str]:
    """An option's words as the scores read them: its description's content stems and its
    id's words."""
    return token_set(label, fold=False) | token_set(_ID_SPLIT.sub(" ", oid), fold=False)


def _fits_unoffered(
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
    text = _prepared(message, options)  # read once: every test below reads the same text
    raw = _raw_tokens(text)
    said = [s for _, s in raw]
    own = _evidence_in(said, options).get(winner, frozenset())
    if not own:
        return False
    theirs = _evidence_in(said, unoffered)
    for oid, label in unoffered:
        # A thing the unoffered option has one of, named in the plural ("doors" against
        # "the little phone door"), is another thing: no evidence of it.
        one = roles(oid, label).singular
        plural = {s for w, s in raw if any(plural_of(w.lower(), h) for h in one)}
        theirs[oid] = theirs[oid] - plural
    if any(own < other for other in theirs.values()):
        return True
    label = dict(options)[winner]
    mine = roles(winner, label)
    typed = words(text)
    heads = [h for h in mine.heads if any(near(s, h) for s in said)]
    if not heads:
        return False
    for oid, other_label in unoffered:
        other = roles(oid, other_label)
        kind_of = [h for h in heads if h in other.heads]
        if not kind_of or other.singular == mine.singular:
            continue  # no head in common, or the same thing written the same way
        # The winner's own describing words ("little", "emergency", "phone" of "the little
        # emergency phone door"), said as written, tell its thing from the other one.
        describing = set(words(label)) - set(words(other_label)) - _FUNCTION_WORDS
        describing -= set(mine.heads) | set(mine.singular) | set(mine.plural)
        describing -= set(words(label)[:1])  # the deed
        if any(near(w, d) for w in typed for d in describing if w not in _FUNCTION_WORDS):
            continue
        if all(w in theirs[oid] or _is_deed(w, mine) for w in own):
            return True
    return False


#: Words that describe no thing: a description's articles, pronouns and prepositions.
_FUNCTION_TEXT = "of to on in into onto by with at from for up down back apart off out over"
_FUNCTION_WORDS = DETERMINERS | frozenset(_FUNCTION_TEXT.split())


def _is_deed(said: str, parts: Roles) -> bool:
    return any(_match(said, d) for d in parts.deeds)


def _says_not_which(message: str, options: Sequence[tuple[str, str]], winner: str) -> bool:
    """The ask-vs-none rule (``labels.py``): the message says nothing of the winner that
    another option's description lacks ("press the button": both buttons are pressed and
    are buttons). It does not say which, so it is ``none``, like an order for something the
    room does not have. ``ask`` is kept for a message that says something of each of two
    options ("pick up the handset and hope for help": the phone's handset, the shout's
    help), where the classifier, not the player, cannot tell which."""
    if _LABEL.search(_prepared(message, options)):
        return False  # "press G": a label says which, though no description spells it
    evidence = _evidence(message, options)
    own = evidence.get(winner, frozenset())
    return bool(own) and any(own <= other for oid, other in evidence.items() if oid != winner)


def _names_another_thing(message: str, options: Sequence[tuple[str, str]], winner: str) -> bool:
    """The message names the head noun of another option's description (its tool or
    thing), and the winner has no object of its own the message names."""
    text = _prepared(message, options)
    said = [s for _, s in _raw_tokens(text)]
    own = roles(winner, dict(options)[winner]).objects
    return any(
        _match(s, h)
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
    text = _prepared(message, options)
    verbs = _verbs([c for c in _CLAUSE.split(text) if c.strip()])

    def does(oid: str, label: str, same: Callable[[str, str], bool] = near) -> bool:
        deeds = roles(oid, label).deeds
        return any(
            same(v, d)
            for w, s in verbs
            if s not in LIGHT_DEEDS
            for v in (s, *verb_senses(w))
            for d in deeds
        )

    if does(winner, dict(options)[winner], _match):
        return False
    return any(does(oid, label) for oid, label in options if oid not in (NONE_ID, ASK_ID, winner))


_LOOKING = frozenset({"#examine", "#read", "#search"})


def _only_looks(message: str, options: Sequence[tuple[str, str]], winner: str) -> bool:
    """Every clause's verb only looks ("examine", "look at", "x"; not "check", which also
    searches: "check behind the little door" opens it) and the winner's deed is no kind of
    looking, reading or searching: "examine the red button", "look at the alarm bell" ask
    the narrator to describe the thing, they do not press it."""
    text = _prepared(message, options)
    verbs = _verbs([c for c in _CLAUSE.split(text) if c.strip()])
    if not verbs or not all(senses(s) & _LOOKING == {"#examine"} for _, s in verbs):
        return False
    deeds = roles(winner, dict(options)[winner]).deeds
    return not any(senses(d) & _LOOKING or _match(s, d) for _, s in verbs for d in deeds)


def _light_on_shared(message: str, options: Sequence[tuple[str, str]], winner: str) -> bool:
    """A light verb only ("use phone", "try the phone") on a thing that another option's
    description also mentions ("the torch of your mobile phone"), with none of the winner's
    modifiers ("emergency"): it does not say which thing, so nothing is done (the label
    convention for an order that fits several: ``none``)."""
    text = _prepared(message, options)
    verbs = _verbs([c for c in _CLAUSE.split(text) if c.strip()])
    if not verbs or any(w not in LIGHT_DEEDS and s not in LIGHT_DEEDS for w, s in verbs):
        return False
    parts = roles(winner, dict(options)[winner])
    said = [s for w, s in _raw_tokens(text) if w not in LIGHT_DEEDS and s not in LIGHT_DEEDS]
    if any(_match(s, m) for s in said for m in parts.modifiers):
        return False
    named = [h for h in parts.heads if any(_match(s, h) for s in said)]
    return any(
        h == stem(w, fold=False)  # the same thing, not a shared sense ("key" / "open")
        for h in named
        for oid, label in options
        if oid not in (NONE_ID, ASK_ID, winner)
        for w in words(label)
    )


def candidates(message: str, options: Sequence[tuple[str, str]]) -> list[str]:
    """The options the message fits, most likely first (for "which did you mean?"): the
    leaders, then every other option the message touches by score, so that a weak single
    match is offered next to its nearest rival rather than an arbitrary action."""
    leaders = [oid for _, _, oid, _ in rank(message, options, THRESHOLD, STRONG)]
    touched = sorted(score_options(message, options), key=lambda s: (-s[0], s[1], s[2]))
    return leaders + [oid for _, _, oid in touched if oid not in leaders]


Ranked = tuple[Fraction, int, str, bool]

#: "press the red button or the green button": the player names two options as choices.
_ALTERNATIVES = re.compile(r"\bor\b|\beither\b", re.IGNORECASE)


def _close(a: Ranked, b: Ranked) -> bool:
    return a[1] == b[1] and min(a[0], b[0]) >= CLOSE * max(a[0], b[0])


def rank(
    message: str,
    options: Sequence[tuple[str, str]],
    threshold: Fraction = THRESHOLD,
    strong: Fraction = STRONG,
) -> list[Ranked]:
    """The strong candidates as (score, where in the message, id, names deed and object),
    in order of preference."""
    fits = fit_options(message, options)
    named = [s for s in fits if s[3] and s[0] >= SURE_NAMED]
    scored = named or [s for s in fits if s[0] >= threshold]
    if not scored:
        return []
    best = max(s[0] for s in scored)
    strongest = [s for s in scored if s[0] >= strong * best]
    # An option all of whose evidence another strong option also has, with more, is not
    # what the message tells ("hit the door and the red button": the green button has only
    # the shared "door", "button" and "hit"; the red one those and "red").
    evidence = _evidence(message, options)
    kept = [
        s
        for s in strongest
        if not any(evidence[s[2]] < evidence[t[2]] for t in strongest if t[2] != s[2])
    ]
    return sorted(kept, key=lambda s: (s[1], -s[0]))


def acting_part(message: str) -> str:
    """The message without its questions: "HELP! Is anyone there?" acts by "HELP!";
    a message that is only questions, negated or looking around acts not at all ("")."""
    if not message.strip() or is_looking(message) or message.lstrip().startswith("/"):
        return ""  # a slash word is a command (past the per-turn limit), never a deed
    kept = [
        "Shout!" if is_question(s) and _shouted(s) and not _greets(s) else s.strip()
        for s in _SENTENCE.findall(in_order(untagged(_called_out(message))))
        if s.strip() and (not is_question(s) or _greets(s) or _shouted(s))
    ]
    text = " ".join(s if s[-1] in ".!?;:" else s + "." for s in kept)
    return _unnegated(text)


#: Where a negation's reach ends: a sentence, a comma, "but" ("the note said not to, but
#: press red"), "so" before the player's own clause ("... not to touch red so I'm pressing
#: green"). "and" does not end it ("don't open the trapdoor and climb down").
_NEGATION_SCOPE = re.compile(
    r",?\s+but\s+|,?\s+so\s+(?=(?:i|i'm|im|i’m|we|let|lets|let's)\b)|(?<=[.!?;:,])\s+",
    re.IGNORECASE,
)
#: Words a player's own refusal may open with before its negation ("no, wait, don't").
_REFUSAL_LEADS = frozenset({"no", "nope", "nah", "wait", "actually", "hmm", "hold", "on", "oh"})


def _refuses(part: str) -> bool:
    """The part is the player's own refusal: its negation opens it ("don't", "no, never",
    "wait, don't"). A negation said after a subject ("the note said not to", "she told me
    never to") reports someone's warning: a reason, not the player taking the deed back."""
    lead = [w for w in re.findall(r"[a-z'’]+", part.lower()) if w not in _REFUSAL_LEADS][:1]
    return not lead or is_negated(lead[0])


def _unnegated(text: str) -> str:
    """The text without its negated parts: a negation covers the part it is said in, not
    what the player then decides to do ("I know I shouldn't, but press red"; "press red,
    the note said not to but I'm curious"). A refusal of the player's own after the deed
    takes it back ("open it, no, don't"); when every part is negated, nothing acts ("")."""
    parts = [p for p in _NEGATION_SCOPE.split(text) if p.strip()]
    kept = [p for p in parts if not is_negated(p)]
    if len(kept) == len(parts):
        return text
    if not kept:
        return ""
    first = parts.index(kept[0])
    if not any(is_negated(p) for p in parts[:first]) and any(
        _refuses(p) for p in parts[first:] if is_negated(p)
    ):
        return ""  # the refusal comes after the deed ("open it, no, don't"): nothing acts
    return " ".join(p if p.rstrip()[-1] in ".!?;:," else p + "." for p in kept)


def score_options(
    message: str, options: Sequence[tuple[str, str]]
) -> list[tuple[Fraction, int, str]]:
    return [(score, first, oid) for score, first, oid, _ in fit_options(message, options)]


def fit_options(
    message: str, options: Sequence[tuple[str, str]]
) -> list[tuple[Fraction, int, str, bool]]:
    """Every option the message touches, as (score, where its most telling word comes, id,
    whether the message names its deed and object: ``_names``).

    The score blends two shares (``MIX``): how much of the option's words (weighted by
    rarity among the options; the id's words count as description) the message names, and
    how much of the message the option explains. The first alone misses short messages for
    long descriptions ("open the cabinet"); the second alone lets one shared word carry a
    long unrelated message. A message of several clauses ("open the trapdoor and climb
    down") is scored whole and clause by clause; each option keeps its best.
    """
    text = _prepared(message, options)
    clauses = [c for c in _CLAUSE.split(text) if c.strip()]
    said = _raw_tokens(text)
    if not said:
        return []
    described = {
        oid: _described(oid, label) for oid, label in options if oid not in (NONE_ID, ASK_ID)
    }
    exact = _exact_deeds(said, options)
    spans = [(said, 0)]
    offset = 0
    for clause in clauses:
        part = _raw_tokens(clause)
        if len(clauses) > 1 and len(part) > 1:  # "read it", "cry": too little to stand alone
            spans.append((part, offset))
        offset += len(part)
    verbs = _verbs(clauses)
    best: dict[str, tuple[Fraction, int]] = {}
    for part, offset in spans:
        for score, first, oid in _score_span([s for _, s in part], described, exact):
            if oid not in best or score > best[oid][0]:
                best[oid] = (score, first + offset)
    coded = _has_code(said, described)
    about = {oid: roles(oid, label) for oid, label in options if oid in best}
    ways = _bare_ways(clauses, options)
    marks = _own_modifiers(options)
    heads = {oid: p.heads for oid, p in about.items()}
    for oid in marks:
        # "press the ceiling light": the thing named is another option's (the torch), so the
        # modifier says nothing of which thing was meant.
        if any(_match(s, h) for _, s in said for o, hs in heads.items() if o != oid for h in hs):
            marks[oid] = frozenset()
    sounded = _sounded(text, about)
    return [
        (
            score,
            first,
            oid,
            oid == sounded
            or _names(verbs, said, about[oid], oid == coded, ways, marks.get(oid), exact[oid]),
        )
        for oid, (score, first) in best.items()
        if not _contradicts(said, about[oid])
    ]


#: A word said again in a row: "bang bang bang", "knock knock", "knock, knock".
_REPEATED = re.compile(r"\b([a-z]+)(?:[\s,!.]+\1\b){1,}", re.IGNORECASE)


def _sounded(text: str, about: dict[str, Roles]) -> str:
    """The option whose deed is a word said twice or more in a row ("bang bang bang let me
    out", "knock knock!!"): the sound of the deed being done, which names it when it is the deed of
    exactly one option (the thing is the one the deed is done to: the door)."""
    found = _REPEATED.search(text)
    if not found:
        return ""
    word = stem(found.group(1).lower(), fold=False)
    doers = [oid for oid, parts in about.items() if any(_match(word, d) for d in parts.deeds)]
    return doers[0] if len(doers) == 1 else ""


#: Verbs that go one way of themselves: "lower the lift" moves it down, "raise" up.
_WAY_VERBS = {"lower": "down", "drop": "down", "raise": "up", "hoist": "up"}
_SELVES = frozenset({"myself", "yourself", "ourselves", "me", "us"})
_MOVED = "moved:"  # a way a thing is moved, not one the player goes


def _bare_ways(clauses: list[str], options: Sequence[tuple[str, str]]) -> frozenset[str]:
    """The ways ("down", "up") said in a clause of only a verb, that way and words naming
    none of the room's things ("I go down into the dark", "head down"): the way names the
    deed that goes there. A clause naming a thing ("go down through the trapdoor") is about
    that thing, and is left to the ordinary naming."""
    objects = _all_objects(options)
    ways: set[str] = set()
    for clause in clauses:
        tokens = [(w, s) for w, s in _raw_tokens(clause) if w not in FILLERS][1:]
        said_ways = {w for w in words(clause) if w in DIRECTIONS}
        lead = [w for w in words(clause) if w not in FILLERS][:1]
        if not said_ways and lead and lead[0] in _WAY_VERBS:
            # "lower the lift by hand": a thing moved down, a deed done to a thing (never
            # the player climbing: "lower the lantern into the hole"); "lower myself" goes.
            way = _WAY_VERBS[lead[0]]
            rest = words(clause)[words(clause).index(lead[0]) + 1 :][:1]
            said_ways = {way if rest and rest[0] in _SELVES else f"{_MOVED}{way}"}
        if said_ways and not any(_match(s, o) for w, s in tokens for o in objects):
            ways |= said_ways
    return frozenset(ways)


def _verbs(clauses: list[str]) -> list[tuple[str, str]]:
    """The first word of each clause past any filler ("ok", "hmm, let's"), and "open" after
    it ("crack open the cupboard" is opening)."""
    verbs: list[tuple[str, str]] = []
    for clause in clauses:
        lead = [t for t in _raw_tokens(clause) if t[0] not in FILLERS]
        verbs.extend(lead[:1])
        if len(lead) > 1 and lead[1][0] == "open":
            verbs.append(lead[1])
    return verbs


def _prepared(message: str, options: Sequence[tuple[str, str]]) -> str:
    """The acting part of the message, rewritten (``phrasing``), codes and compounds joined,
    typos corrected: the text every score reads (a dozen readers ask for it per message,
    so it is made once)."""
    return _prepared_once(message, tuple((oid, label) for oid, label in options))


@lru_cache(maxsize=256)
def _prepared_once(message: str, options: tuple[tuple[str, str], ...]) -> str:
    # A pronoun may stand for a thing named in a question before it ("is the code in the
    # newspaper? let me read it"), which the acting part drops: resolve it first.
    message = _it_after_questions(_names_asked(message, options), options)
    text = _compounds_joined(digits_joined(_IDENTIFIER.sub(" ", rewrite(acting_part(message)))))
    text = _labelled(_it_resolved(_light_first(text, options), options), options)
    text = _person_resolved(text, options)
    return _typos_corrected(_said_a_name(_one_named(text, options), options), options)


#: Speaking or turning to someone by a pronoun: "ask her", "turn to her", "talk to him".
_TO_PERSON = re.compile(
    r"\b(?P<verb>ask|tell|talk\s+to|talk\s+with|speak\s+to|speak\s+with|turn\s+to|"
    r"whisper\s+to|say\s+to|greet|comfort|console|approach)\s+(?:\w+ly\s+)?(?P<who>her|him)\b",
    re.IGNORECASE,
)


def _person_resolved(text: str, options: Sequence[tuple[str, str]]) -> str:
    """ "turn to her and ask what happened", "talk to him": a pronoun spoken to stands for
    the one person the offered options speak to (a word of ``PEOPLE`` in their
    descriptions: "the ghost"); with none, or two, it is left alone."""
    people = {w for oid, label in options if oid not in (NONE_ID, ASK_ID) for w in words(label)}
    people &= PEOPLE
    if len(people) != 1:
        return text
    (person,) = people
    return _TO_PERSON.sub(lambda m: f"{m.group('verb')} the {person}", text)


#: "press G", "push 9": a deed on a label alone, the label ending its clause.
_LABEL_PRESSED = re.compile(
    r"\b(?P<verb>[a-z]+)\s+(?:(?:button|number)\s+)?(?P<label>\d{1,2}|[b-hj-zB-HJ-Z])"
    r"(?=\s*(?:[.!?,;:]|$|\s+(?:and|then)\b))",
    re.IGNORECASE,
)


def _labelled(text: str, options: Sequence[tuple[str, str]]) -> str:
    """ "press G", "press 9": a label belongs to one of several like things, so it names
    the one option whose deed is the verb and whose thing is in the plural ("press the
    floor buttons"); the label is then said of those ("press buttons G"). Two such options,
    or none, leave the text alone."""

    def named(match: re.Match[str]) -> str:
        verb = stem(match.group("verb").lower(), fold=False)
        owners = [
            parts
            for oid, label in options
            if oid not in (NONE_ID, ASK_ID)
            for parts in (roles(oid, label),)
            if parts.plural and any(_match(verb, d) for d in parts.deeds)
        ]
        if len(owners) != 1:
            return match.group(0)
        return f"{match.group('verb')} {sorted(owners[0].plural)[0]} {match.group('label')}"

    return _LABEL_PRESSED.sub(named, text)


_PRONOUN = re.compile(r"\b(?:it|them)\b", re.IGNORECASE)
#: The instrument ending a clause: "read the certificate with my phone light".
_WITH_TOOL = re.compile(
    r"(?P<goal>[^,.!?;]*?)\s+with\s+(?P<tool>(?:(?:the|my|a|an|your|this|that)\s+)?"
    r"(?:[\w'’-]+\s+){0,2}?(?P<head>[\w'’-]+))\s*(?=[,.!?;]|\s+and\b|$)",
    re.IGNORECASE,
)


def _light_first(text: str, options: Sequence[tuple[str, str]]) -> str:
    """ "read the certificate with my phone light" while the torch is still off: a light
    the player would read or look by (an instrument of a reading or looking clause) that
    is the thing an available option switches on or lights must be lit first, so the
    clause is that ("use my phone light"). Once it is on, that option is gone and the
    clause reads (the light, said or not, adds nothing: "squint at it in the torchlight")."""

    def first(match: re.Match[str]) -> str:
        goal = [s for _, s in _raw_tokens(match.group("goal"))][:1]
        if not goal or not senses(goal[0]) & _LOOKING:
            return match.group(0)
        head = stem(match.group("head").lower(), fold=False)
        owners = [
            oid
            for oid, label in options
            if oid not in (NONE_ID, ASK_ID)
            for parts in (roles(oid, label),)
            if any(_match(head, d) for d in parts.direct)
            and any(senses(d) & {"#light", "#use"} for d in parts.deeds)
        ]
        if not owners and (head == "light" or senses(head) & {"#torch", "#lantern"}):
            return match.group("goal")  # the light is on: the looking is by it, no deed
        if len(owners) != 1:
            return match.group(0)
        lead = re.match(r"\s*", match.group("goal"))
        return f"{lead.group(0) if lead else ''}use {match.group('tool')}"

    return _WITH_TOOL.sub(first, text)


def _it_after_questions(message: str, options: Sequence[tuple[str, str]]) -> str:
    """The pronouns of the sentences after a question, resolved with the question's words
    (``_it_resolved``) before the acting part drops it: "is the code in the newspaper?
    let me read it" reads the newspaper."""
    sentences = _SENTENCE.findall(message)
    out: list[str] = []
    asked = False
    for sentence in sentences:
        if asked and not is_question(sentence):
            before = "".join(out)
            sentence = _it_resolved(before + sentence, options, len(before))[len(before) :]
        asked = asked or is_question(sentence)
        out.append(sentence)
    return "".join(out) if asked else message


_PUT_IN = re.compile(r"\s+(?:in|into|inside|on|onto|against)\b", re.IGNORECASE)


def _it_resolved(text: str, options: Sequence[tuple[str, str]], start: int = 0) -> str:
    """ "she pointed at the trapdoor so let's open it": a pronoun whose only possible
    antecedent before it in the message is one of the room's things (an object of some
    option) stands for that thing. Of two things named before it, the one the verb before
    the pronoun can be done to ("is the code in the newspaper? let me read it": the
    newspaper is read, the code is typed); otherwise, or with none, it is left alone."""
    objects = _all_objects(options)
    parts = [roles(oid, label) for oid, label in options if oid not in (NONE_ID, ASK_ID)]

    def noun(match: re.Match[str]) -> str:
        if match.start() < start:
            return match.group(0)  # only the pronouns from ``start`` on
        before = _raw_tokens(text[: match.start()])
        things = {o for _, s in before for o in objects if _match(s, o)}
        named = [w for w, s in before if any(_match(s, o) for o in things)]
        if len({stem(w, fold=False) for w in named}) == 1:
            return named[-1]
        if _PUT_IN.match(text, match.end()):
            # "try it in the cabinet": what is put in or on a thing is a tool, an option's
            # object other than the one its deed is done to (the key of "unlock the cabinet
            # with the key"); of the things named before, the one tool stands for "it".
            tools = {o for p in parts for o in p.objects - p.direct} & things
            held = [w for w, s in before if any(near(s, o) for o in tools)]  # the word itself
            if len({stem(w, fold=False) for w in held}) == 1:
                return held[-1]
        verb = _raw_tokens(text[: match.start()])[-1:]
        if not verb or any(_match(verb[0][1], o) for o in objects):
            return match.group(0)
        doers = [p for p in parts if any(_match(verb[0][1], d) for d in p.deeds)]
        done_to = {o for p in doers for o in p.objects}
        tries = [done_to]
        touched = [p for p in doers if p.objects & things]
        if len(touched) == 1:
            # One deed's things named: the thing it is done to before its tool ("light it"
            # with the lantern and the matches named: the lantern).
            tries.insert(0, set(touched[0].direct))
        for done in tries:
            fits = [w for w, s in before if any(_match(s, o) for o in done & things)]
            if len({stem(w, fold=False) for w in fits}) == 1:
                return fits[-1]
        return match.group(0)

    return _PRONOUN.sub(noun, text)


def _names_an_object(message: str, options: Sequence[tuple[str, str]], oid: str) -> bool:
    """The message names one of the option's objects (head nouns), so a weak match is about
    one of the room's things and worth asking about; otherwise the player is talking about
    something the room does not have ("flip the red switch" before any switch is in reach)."""
    parts = roles(oid, dict(options)[oid])
    text = _prepared(message, options)
    return any(_match(s, o) for _, s in _raw_tokens(text) for o in parts.objects)


#: Words that join the names of things in a noun phrase ("the key of the cabinet", "the
#: hatch in the ceiling"); not "on", which also ends a phrasal verb ("torch on").
_JOINER_TEXT = "of and with in inside over under behind beside by near"
_JOINERS = frozenset(_JOINER_TEXT.split())
#: Words said beside a thing that make no deed of it ("phone please", "the note, then").
_ASIDES = frozenset(["please", "pls", "plz", "then", "now", "again", "too", "first", "next"])


def is_verbless(message: str, options: Sequence[tuple[str, str]]) -> bool:
    """Every clause names a thing and no deed ("the newspaper", "the key, the small one"):
    the player has not said what to do with it, so nothing is done (the narrator answers;
    a guess could end the game)."""
    text = _prepared(message, options)
    leads = [
        [w for w in words(c) if w not in FILLERS][:1] for c in _CLAUSE.split(text) if c.strip()
    ]
    if bool(leads) and all(lead and lead[0] in DETERMINERS for lead in leads):
        return True
    clauses = [c for c in _CLAUSE.split(text) if c.strip()]
    if clauses and all(_states(c) for c in clauses):
        return True  # "there's a phone", "hatch is up there": said of a thing, not done to it
    return _only_things(text, options)


#: What a thing is or seems: the verb of a sentence about it, not an order.
_COPULAS = frozenset(["is", "are", "was", "were", "looks", "look", "seems", "seem", "feels"])


def _states(clause: str) -> bool:
    """The clause says what there is or what a thing is ("there's a phone", "hatch is up
    there", "the lever seems stuck"), opening with "there"/"here" or a noun and a copula."""
    lead = [w for w in words(clause) if w not in FILLERS and w not in DETERMINERS][:2]
    if lead[:1] in (["there"], ["here"]):
        return True
    return len(lead) == 2 and lead[1] in _COPULAS and lead[0] not in SUBJECTS | PEOPLE


def _only_things(text: str, options: Sequence[tuple[str, str]]) -> bool:
    """A message (past fillers, determiners and joiners) every word of which names one of
    the room's things or their modifiers, at least one a thing, and whose first word is no
    option's deed word for word ("newspaper", "desk", "phone", "emergency phone", "phone
    cable", "red switch"): an object word or noun phrase alone says nothing of what to do,
    so it is ``none`` (``labels.py``), like "the newspaper", whatever options the thing
    has, even when only one option names it. A noun that can be a verb ("phone") is one
    when a determiner or a word that is no thing follows ("phone the desk", "phone for
    help"); alone it is the thing. "torch on" and "let the brake off" say more; a code
    ("1962") is no thing."""
    lead = [w for w in words(text) if w not in FILLERS]
    said = [w for w in lead if w not in DETERMINERS and w not in _JOINERS | _ASIDES]
    if not said or len(said) > 3 or any(w.isdigit() for w in said):
        return False
    parts = [roles(oid, label) for oid, label in options if oid not in (NONE_ID, ASK_ID)]
    objects = {o for p in parts for o in p.objects}
    modifiers = {m for p in parts for m in p.modifiers}
    deeds = {d for p in parts for d in p.deeds}

    def kinds(token: str) -> set[str]:
        # The lexicon's senses, not the validator's one-form folds ("telephone" / "call").
        return {x for x in senses(token) if x.startswith("#") and not x.startswith("#=")}

    deed_senses = {x for d in deeds for x in kinds(d)}
    object_senses = {x for o in objects for x in kinds(o)}

    def thing(token: str) -> bool:
        # Word for word (or a typo of it), or another name of a thing ("handset", "woman",
        # "paper") with no sense of a deed: "pull" and "scream" share a sense with a
        # lever's release and with help, but they are verbs.
        if any(near(token, o) for o in objects):
            return True
        return bool(kinds(token) & object_senses) and not kinds(token) & deed_senses

    tokens = [stem(w, fold=False) for w in said]
    if not any(thing(t) for t in tokens):
        return False  # "HELP!" alone (a modifier of shouting for help) is a shout
    if not all(thing(t) or any(near(t, m) for m in modifiers) for t in tokens):
        return False
    if any(near(tokens[0], d) for d in deeds):
        return False  # "switch", "light": the word is a deed too, and it comes first
    if len(verb_senses(said[0])) > 1 and len(lead) > 1 and lead[0] == said[0]:
        # "phone the night desk": a noun used as a verb, its object after a determiner
        return lead[1] not in DETERMINERS
    return True


def is_broad(message: str, options: Sequence[tuple[str, str]], winner: str) -> bool:
    """An order whose verb fits the deed of several options, which names none of the
    winner's modifiers ("all the *floor* buttons" is narrow) and is either quantified
    ("press every button I can see") or names one of several things without saying which
    ("press the button" where the floor buttons and others fit): it may mean several
    actions, so the game asks, never guesses."""
    text = _prepared(message, options)
    verbs = _verbs([c for c in _CLAUSE.split(text) if c.strip()])
    fitting = [
        oid
        for oid, label in options
        if oid not in (NONE_ID, ASK_ID)
        and any(
            _match(v, d)
            for w, s in verbs
            for v in (s, *verb_senses(w))
            for d in roles(oid, label).deeds
        )
    ]
    if len(fitting) < 2 or winner not in fitting:
        return False
    label = dict(options)[winner]
    parts = roles(winner, label)
    said = _raw_tokens(text)
    if any(_match(s, m) for _, s in said for m in parts.modifiers):
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


_ONE = re.compile(r"\b([a-z]+)\s+one\b", re.IGNORECASE)


def _one_named(text: str, options: Sequence[tuple[str, str]]) -> str:
    """ "try the green one": "one" with a modifier that tells exactly one option's thing
    from the others stands for that thing ("the green button")."""

    def noun(match: re.Match[str]) -> str:
        word = stem(match.group(1).lower(), fold=False)
        owners = [
            parts
            for oid, label in options
            if oid not in (NONE_ID, ASK_ID)
            for parts in (roles(oid, label),)
            if word in parts.modifiers and parts.heads
        ]
        if len(owners) != 1:
            return match.group(0)
        return f"{match.group(1)} {sorted(owners[0].heads)[0]}"

    return _ONE.sub(noun, text)


#: A proper name: a capitalised word (or one in quotes) of three letters or more.
_NAME = re.compile(
    r"(?<![\w'’])(?:[A-Z][a-zA-Z]{2,})(?![\w'’])|(?<=['\"‘“])[A-Za-z]{3,}(?=['\"’”!?.,])"
)


#: Calling someone by name in lower case, before a comma at a sentence's start
#: ("marguerite vell, you can rest now"); the first word is the name.
_CALLED = re.compile(
    r"(?:^|(?<=[.!?]\s))\W*([a-z]{3,})(?=(?:\s+[a-z]{3,})?\s*,[^.!?]*\byou(?:r|rself)?\b)"
)
#: What follows a name called: a comma, and the sentence speaks to that person ("...,
#: you can rest now", "..., I know your name"); "Quick, read the note" is no name.
_TO_YOU = re.compile(r"(?:\s+[A-Za-z]{3,})?\s*,[^.!?]*\byou(?:r|rself)?\b")

#: Naming someone in lower case: "call her margaret", "her name is margaret".
_NAMING = re.compile(
    r"\b(?:call|name)\s+(?:her|him|you|it|them)\s+([a-z]{3,})\b|\bname\s+is\s+([a-z]{3,})\b",
    re.IGNORECASE,
)


#: A sentence's first word, past fillers set off by a comma ("Right, Instead I'll ..."):
#: its capital is the sentence's, not a name's.
_FIRST_WORD = re.compile(
    r"\W*(?:(?:%s)\b\s*,\s*)*(\w+)" % "|".join(sorted(FILLERS, key=len, reverse=True)),  # noqa: UP031
    re.IGNORECASE,
)


def _said_a_name(text: str, options: Sequence[tuple[str, str]]) -> str:
    """ "I call her Marguerite", "rest now, Marguerite Vell": a word nobody in the room's
    vocabulary knows, written as a name, is the player saying a name. The message gains a
    clause "say the name" so that naming someone scores like the option that says a name
    (the engine, not the classifier, then checks whether it is the right one). A capitalised
    first word of a longer sentence is only a capital ("Jiggle the handle")."""
    own = frozenset(
        w for oid, label in options for w in words(f"{label} {_ID_SPLIT.sub(' ', oid)}")
    )
    known = vocabulary(own) | STOPWORDS | FILLERS | GREETINGS
    start = 0
    for sentence in _SENTENCE.findall(text):
        first = _FIRST_WORD.match(sentence)
        shouted = _shouted(sentence)  # in capitals every word looks like a name
        names = [
            *([] if shouted else _NAME.finditer(sentence)),
            *_NAMING.finditer(sentence),
            *_CALLED.finditer(sentence),
        ]
        for m in sorted(names, key=lambda m: m.start()):
            word = m.group(m.lastindex or 0).lower()
            if word in known or stem(word, fold=False) in known:
                continue
            called = bool(_TO_YOU.match(sentence[m.end() :]))  # "Marguerite, you can rest"
            if (
                m.re is _NAME
                and first
                and m.start() == first.start(1)
                and len(words(sentence)) > 2
                and not called
            ):
                continue
            # The naming is a deed where it is said, so that of two deeds in one message
            # ("tell her her name is Marguerite and then open the trapdoor") it comes first.
            boundary = _CLAUSE.search(text, start + m.end())
            end = boundary.start() if boundary else len(text.rstrip())
            return f"{text[:end]}, say the name{text[end:]}"
        start += len(sentence)
    return text


#: A question that is only a name ("Marguerite?") or asks whether someone is called it
#: ("are you eleanor?", "is your name Eleanor?", "is it Marguerite Vell?"); asking about
#: her ("is her name Marguerite?") is a question to the narrator, not saying it to her.
_NAME_ASKED = re.compile(
    r"(?:^|(?<=[.!?]\s))\W*(?:(?:are\s+you|is\s+your\s+name|is\s+it|you\s+are|"
    r"your\s+name\s+is)\s+)?(?P<name>[A-Za-z]{3,})(?:\s+(?P<last>[A-Za-z]{3,}))?\s*\?+",
    re.IGNORECASE,
)
#: Calling someone by a name and asking if it is them: "Margaret, is that you?".
_NAME_CALLED = re.compile(
    r"(?:^|(?<=[.!?]\s))\W*(?P<name>[A-Za-z]{3,})(?:\s+(?P<last>[A-Za-z]{3,}))?\s*,\s*"
    r"(?:is\s+(?:that|it)\s+you|are\s+you\s+(?:there|here))\s*\?+",
    re.IGNORECASE,
)
#: What "are you X?" asks when X is a state, not a name: plain English, no scenario's words.
_STATE_TEXT = """okay alright real alive dead here there sad lost lonely trapped stuck angry
afraid scared hurt happy awake asleep sure serious kidding joking friendly evil human ghost
dangerous safe free gone mad cold well sick ill"""
_STATES = frozenset(_STATE_TEXT.split())
_NOT_NAME_ENDINGS = ("ed", "ing", "ly", "ful", "less", "ous", "ive", "able")


def _names_asked(message: str, options: Sequence[tuple[str, str]]) -> str:
    """Asking someone whether they bear a name is saying it to them: "Marguerite?", "are you
    eleanor?" become "your name is Marguerite." (the engine, not the classifier, checks it is
    the right one). Only a word nobody in the room's vocabulary knows, that is no state
    ("are you real?") and has no ending of an adjective or adverb, is taken for a name."""
    own = frozenset(
        w for oid, label in options for w in words(f"{label} {_ID_SPLIT.sub(' ', oid)}")
    )
    known = vocabulary(own) | STOPWORDS | FILLERS | GREETINGS | _STATES | PEOPLE
    known |= QUESTION_STARTS

    def said(match: re.Match[str]) -> str:
        name = match.group("name")
        words_ = [name.lower(), *([match.group("last").lower()] if match.group("last") else [])]
        if any(w in known or stem(w, fold=False) in known for w in words_):
            return match.group(0)
        if any(w.endswith(_NOT_NAME_ENDINGS) for w in words_):
            return match.group(0)
        full = " ".join(filter(None, (name, match.group("last"))))
        return f"your name is {full}."

    return _NAME_ASKED.sub(said, _NAME_CALLED.sub(said, message))


def _typos_corrected(text: str, options: Sequence[tuple[str, str]]) -> str:
    """Unknown words replaced by the one known word they are a likely typo of (``typos``)."""
    own = frozenset(
        w for oid, label in options for w in words(f"{label} {_ID_SPLIT.sub(' ', oid)}")
    )
    known = vocabulary(own)
    return re.sub(r"[A-Za-z]+", lambda m: shorthand(correct(m.group(0).lower(), known), own), text)


def _has_code(said: list[tuple[str, str]], described: dict[str, frozenset[str]]) -> str:
    """The one option that takes a code, when the message holds a number of 3+ digits."""
    code_options = [oid for oid, toks in described.items() if toks & _CODE_WORDS]
    number = any(s.isdigit() and len(s) >= 3 for _, s in said)
    return code_options[0] if number and len(code_options) == 1 else ""


def _contradicts(said: list[tuple[str, str]], parts: Roles) -> bool:
    """The player names one of the option's objects in the plural where the description
    has one ("pry open the doors" is not about "the little emergency phone door")."""
    return any(plural_of(w, h) for w, _ in said for h in parts.singular)


def _raw_tokens(text: str) -> list[tuple[str, str]]:
    """(word as typed, its unfolded stem) for the content words of ``text``."""
    kept = [w for w in words(text) if w not in STOPWORDS and (len(w) > 1 or w.isdigit())]
    return [(w, stem(w, fold=False)) for w in kept]


def _exact_deeds(
    said: list[tuple[str, str]], options: Sequence[tuple[str, str]]
) -> dict[str, frozenset[str]]:
    """Per option, the deed words the message must say word for word: the id's own verb
    ("say" of ``say_name`` / "call the ghost by her name") when the message names none of
    the id's things ("name"). The id's verb goes with the id's thing: "speak her name",
    "lift the trapdoor" say it by a word of the same sense, but "talk to the ghost again"
    or "ask the ghost what she wants" (talking shares a sense with saying) is no saying of
    her name."""
    exact: dict[str, frozenset[str]] = {}
    for oid, label in options:
        if oid in (NONE_ID, ASK_ID):
            continue
        parts = roles(oid, label)
        loose = any(_match(s, o) for _, s in said for o in parts.id_objects)
        exact[oid] = frozenset() if loose else parts.id_deeds
    return exact


def _own_modifiers(options: Sequence[tuple[str, str]]) -> dict[str, frozenset[str]]:
    """Per option, the modifiers of its objects, and the words of a second deed ("help" of
    "bang on the door and shout for help"), that no other option's description or id has
    at all ("ceiling" of "push open the ceiling hatch"): a mark of that one option."""
    parts = {oid: roles(oid, label) for oid, label in options if oid not in (NONE_ID, ASK_ID)}
    every = {oid: p.modifiers | p.objects | p.deeds for oid, p in parts.items()}
    return {
        oid: frozenset(
            m
            for m in p.object_modifiers | p.second_words
            if not any(_match(m, w) for other, ws in every.items() if other != oid for w in ws)
        )
        for oid, p in parts.items()
    }


def _names(
    verbs: list[tuple[str, str]],
    said: list[tuple[str, str]],
    parts: Roles,
    coded: bool,
    ways: frozenset[str] = frozenset(),
    marks: frozenset[str] | None = None,
    exact: frozenset[str] = frozenset(),
) -> bool:
    """The message names the option's deed with the first word of a clause (its verb, or a
    light verb: "use", "try"; "phone" there is a verb) and, when the option has objects,
    one of them with another word, not in the plural when the description has it in the
    singular ("pry open the doors" does not name "the little emergency phone door"). A
    deed verb with a modifier only this option has names it too: the player called the
    thing by another name but said which ("shove the ceiling panel up": the ceiling's
    hatch)."""
    deed = {
        w
        for w, s in verbs
        if s in LIGHT_DEEDS
        or any(
            (near if d in exact else _match)(v, d)
            for v in (s, *verb_senses(w))
            for d in parts.deeds
        )
    }
    looked = {w for w, s in verbs if any(_reads(s, d) for d in parts.deeds)}
    if not deed and looked:
        # Looking at a thing that is read is reading it, when it is that thing that is
        # looked at ("x note", "x certificate": the direct object, or a thing that bears
        # writing), not the place it lies ("x desk" is not reading the note).
        return any(
            _match(s, o) and (o in parts.direct or o in WRITTEN)
            for w, s in said
            if w not in looked
            for o in parts.objects
        )
    if coded and (deed or any(s.isdigit() for _, s in verbs)):
        return True  # "enter 1962", "1962": the code names the code's object
    if not deed or not parts.objects:
        return bool(deed)
    # The deed's own word may not also be the object ("switch" is a deed and a thing),
    # unless it is a noun used as a verb ("phone for help" names the phone).
    objects = [s for w, s in said if w not in deed or verb_senses(w) != (w,)]
    # A light verb alone says nothing of the deed: it names an option only through the
    # description's head nouns ("use the phone" is not opening the phone's *door*).
    light_only = all(s in LIGHT_DEEDS for w, s in verbs if w in deed)
    wanted = parts.heads if light_only and parts.heads else parts.objects
    if not light_only and parts.directions & ways:
        return True  # the verb and the way the deed goes ("go down", "I go down into the dark")
    moved = {f"{_MOVED}{d}" for d in parts.directions}
    if not light_only and moved & ways and not any("#climb" in senses(d) for d in parts.deeds):
        return True  # "lower the lift by hand": the deed that moves a thing down
    if not light_only and marks and any(s in marks for s in objects):
        return True
    return any(_match(s, o) for s in objects for o in wanted)


def _reads(said: str, deed: str) -> bool:
    """Looking at ("x", "examine", "check") where the option's deed is reading."""
    return "#examine" in senses(said) and "#read" in senses(deed)


def _score_span(
    said: list[str],
    described: dict[str, frozenset[str]],
    exact: dict[str, frozenset[str]] | None = None,
) -> list[tuple[Fraction, int, str]]:
    df = Counter(tok for toks in described.values() for tok in toks)
    code_options = [oid for oid, toks in described.items() if toks & _CODE_WORDS]
    has_code = any(s.isdigit() and len(s) >= 3 for s in said) and len(code_options) == 1
    distinct = len(set(said))
    # Exact fractions, not floats: scores must not depend on set iteration order, which
    # changes with the interpreter's hash seed.
    scored: list[tuple[Fraction, int, str]] = []
    for oid, toks in described.items():
        if not toks:
            continue
        weight = {t: Fraction(1, df[t]) for t in toks}
        total = sum(weight.values(), Fraction(0))
        found: dict[str, int] = {}  # token → where it first comes in the message
        explained: set[str] = set()
        own = (exact or {}).get(oid, frozenset())  # the id's own deed: word for word
        for t in sorted(toks):
            same = near if t in own else _match
            hits = [i for i, s in enumerate(said) if same(s, t)]
            if hits:
                found[t] = hits[0]
                explained.update(said[i] for i in hits)
        hit = sum((weight[t] for t in found), Fraction(0))
        if has_code and oid == code_options[0]:
            hit += CODE_BONUS * total
            at = min(i for i, s in enumerate(said) if s.isdigit())
            found.setdefault("#code", at)
            explained.update(s for s in said if s.isdigit())
        if not found:
            continue
        cover = min(Fraction(1), hit / total)
        share = Fraction(len(explained), distinct)
        score = (1 - MIX) * cover + MIX * share
        telling = max((weight.get(t, Fraction(1)) for t in found), default=Fraction(0))
        first = min(i for t, i in found.items() if weight.get(t, Fraction(1)) == telling)
        scored.append((score, first, oid))
    return scored


def _match(said: str, described: str) -> bool:
    """Same word, a likely typo of it ("opn" for "open" too), or a shared sense ("kick" /
    "bang")."""
    return (
        near(said, described)
        or _dropped_letter(said, described)
        or bool(senses(said) & senses(described))
    )


def _dropped_letter(said: str, described: str) -> bool:
    """A three-letter word typed for a four-letter one by dropping a letter after the
    first ("opn" / "open", "cal" / "call"); ``near`` leaves words this short alone."""
    if len(said) != 3 or len(described) != 4 or said[0] != described[0]:
        return False
    return any(described[:i] + described[i + 1 :] == said for i in range(1, 4))


def _compounds_joined(text: str) -> str:
    """ "trap door", "news paper", "hand rail" are one word typed apart: join them."""
    return _COMPOUND.sub(lambda m: m.group(1) + m.group(2), text)


#: "the first", "the second one", "the latter": the nth action the question offered.
_ORDINALS = {"first": 0, "former": 0, "1st": 0, "second": 1, "latter": 1, "2nd": 1, "last": 1}


def classify_reply(
    reply: str,
    asked: str,
    offered: Sequence[str],
    options: Sequence[tuple[str, str]],
    unoffered: Sequence[tuple[str, str]] = (),
) -> str:
    """The answer to "which did you mean: A, or B?" about ``asked``.

    A reply that is an order of its own ("open the drawer") is classified as any message.
    Otherwise it is read with the asked message's verb ("press the button" + "the green
    one" → "press the green one") against only the two offered actions, so naming the thing
    that tells them apart ("the red", "green") picks it, and "the first"/"the second" picks
    by the question's order. A reply naming neither asks again (or is ``none``), unless the
    player has moved on: a reply that is only a question of its own ("what year is on the
    certificate?") or declines ("never mind", "neither") is ``none``, so the game answers
    it instead of repeating the question. ``unoffered``: as for ``classify``; an order of
    its own is read with them like any first message."""
    alone = classify(reply, options, unoffered=unoffered)
    if alone not in (NONE_ID, ASK_ID):
        return alone
    offered_options = [(o, d) for o, d in options if o in offered]
    if len(offered_options) != len(offered) or not offered_options:
        return alone
    said = words(reply)
    picks = {_ORDINALS[w] for w in said if w in _ORDINALS}
    if len(picks) == 1 and not any(_match(s, o) for s in said for o in _all_objects(options)):
        return list(offered)[picks.pop()]
    rest = [(o, d) for o, d in options if o in (NONE_ID, ASK_ID)]
    # "the painting?" answers in a question's tone: read with the asked verb, it is an order.
    combined = f"{_verb_phrase(asked, offered_options)} {reply.strip().rstrip('?')}"
    picked = classify(combined, [*offered_options, *rest], unoffered=unoffered)
    if picked in offered:
        return picked
    if not acting_part(reply) or _DECLINED.search(reply):
        return NONE_ID
    return ASK_ID if any(o == ASK_ID for o, _ in options) else NONE_ID


#: A reply to "which did you mean?" that takes neither.
_DECLINED = re.compile(
    r"\b(?:never\s*mind|forget\s+(?:it|that)|neither|none\s+of\s+(?:them|those|these)|"
    r"nothing|not\s+(?:either|both))\b",
    re.IGNORECASE,
)


def _all_objects(options: Sequence[tuple[str, str]]) -> frozenset[str]:
    return frozenset(
        o
        for oid, label in options
        if oid not in (NONE_ID, ASK_ID)
        for o in roles(oid, label).objects
    )


def _verb_phrase(asked: str, offered: Sequence[tuple[str, str]]) -> str:
    """The asked message's opening up to its first determiner or named thing: the verb the
    player's answer leaves out ("press" of "press the button", "peek into" of "I'd like to
    see inside that drawer")."""
    text = _prepared(asked, offered)
    clause = next((c for c in _CLAUSE.split(text) if c.strip()), "")
    objects = _all_objects(offered)
    lead: list[str] = []
    for word in words(clause):
        if word in DETERMINERS or any(_match(stem(word, fold=False), o) for o in objects):
            break
        lead.append(word)
    return " ".join(lead)

"""The scripted classifier: the keyword rules first, then a learned similarity stage, and a
question to the player whenever the two do not make one action sure.

1. **Rules** (``keyword_classifier``, frozen): exact matches of an action's words, codes,
   refusals, questions, negations, ``/commands``, messages with no verb. Its pick is the
   first stage's answer.
2. **Similarity** (``similarity.py``): the message against each action's texts (its
   description and ``also`` phrasings) by a small sentence-embedding model, for the
   offered actions and, apart, for the actions not available now (done, or not yet
   possible).
3. **Deciding**:

   * the rules asked: the player is asked;
   * the rules picked an action whose texts do not say a number the message names and
     another action says ("reset the lane 4 machine" picked as the lane 3 one,
     ``number_clash``): the pick is void, and the rest below decides, never for it;
   * the rules picked an action that has a look-alike (``look_alike``: another action,
     offered, done or not yet possible, described the same but for a word or two swapped,
     "the left drawer" and "the right drawer") and the message says none of the pick's own
     words nor "other": the player is asked when the look-alike is offered, else nothing
     happens; likewise when another offered action is done to the same thing
     (``same_thing``: "prise open the blue tin", "lever the lid off the yellow tin"), the
     message names the thing but none of the pick's own words, and its deed is not the
     pick's alone ("pry a tin open");
   * the rules picked an action: it is kept, unless the message holds no code (three digits
     or more, or a number no action says, ``code_said``) nor the pick's own number ("lane
     3"; ``rules_read``: codes and numbers are the rules' to read) and either the
     similarity stage is sure of another (its closest is at least ``SURE`` and ahead of the
     rules' action by more than ``KEEP``, ``closer_other``) or the message names a thing
     of the room (a noun of an action's description) that none of the pick's texts say
     and the learned decision finds the pick less likely than ``learned.GROUND_P``
     (``doubt``): then the player is asked which of the two they meant (for a doubted
     pick: the pick and the learned decision's likeliest other, ``doubted_pair``; nothing
     happens when asking is not offered);
   * the rules found nothing: for a message that acts (``vetoed``: not a question,
     negation or command, not a thing named alone, not naming an action by its id), the
     learned decision (``learned.py``) makes the likeliest action happen when it is sure
     (``learned.ACT_P``). Else the hand-set gates: for a message that acts (not taking a
     thing either) the closest action happens when it is close (``ACT``), clearly ahead of
     the next offered action (``LEAD``) and of every action not available now
     (``APART``) or told apart from each that is not by the message's words
     (``sides_with``: "open the freezer" beside "step inside the walk-in freezer", not
     possible yet), and the message's deed word is one of the action's (``VERB``). Else,
     when the message names the thing two or three offered actions are about, says no
     word of some of them only, and its deed fits each alike ("open the oven" beside the
     left and the right oven, ``vague_group``), the player is asked which of them. Else,
     when the closest is at least ``ASK`` and no action not available now is about as
     close (``APART_ASK``) and the message does not only look nor ask a question ("whats
     on that note"), or when the learned decision finds the likeliest likely enough
     (``learned.ASK_P``) and its words fit no action not available now as well (or tell
     the likeliest apart from each action not available now whose words they share), the
     player is asked which of the two closest they meant (``closest_two``), unless the
     message means all of them ("press both buttons"), or unless the two are described
     the same but for a word or two and the message says a word related, both ways by the
     Moby Thesaurus, to one's own words alone ("rear" for "aft"): that one happens
     (``told_apart``). Else nothing happens.

   The engine never advances on a guess: every uncertain case asks or does nothing.

The hand-set constants were chosen on the calibration rooms only
(``benchmarks/escape_similarity.py``: the shipped rooms' label sets, the example rooms' sets
and the rooms of ``benchmarks/escape/unseen/``): the values that add no wrong advance on
any of them. The learned decision's were fitted on the calibration rooms
(``benchmarks/escape_fit.py``, ``learned.py`` says how). Every calibration room, one table:
``benchmarks/escape_rooms.py``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from parlour.games.escape import commands, learned
from parlour.games.escape.function_words import EVERY_ONE, WH_CONTRACTED, WH_WORDS
from parlour.games.escape.keyword_classifier import (
    acting_part,
    candidates,
    classify_with_phrasings,
)
from parlour.games.escape.keyword_classifier.verbless import is_verbless
from parlour.games.escape.learned import likeliest
from parlour.games.escape.looking import looks
from parlour.games.escape.phrasing import numbers_as_digits, numbers_said
from parlour.games.escape.roles import LIGHT_DEEDS, roles
from parlour.games.escape.scenario import ASK_ID, NONE_ID
from parlour.games.escape.several import TAKES, lemmas
from parlour.games.escape.similarity import rank_actions, word_closeness
from parlour.games.escape.text import STOPWORDS, near, stem, words
from parlour.games.escape.thesaurus import related, related_words

#: The rules' action is kept unless another action is closer by more than this...
KEEP = 0.15
#: ... and at least this close.
SURE = 0.4
#: The rules found nothing: the closest action happens from this closeness...
ACT = 0.6
#: ... when it is ahead of the next offered action by this much...
LEAD = 0.4
#: ... and ahead of every action not available now by this much.
APART = 0.4
#: ... and the message's deed (its first word that is no filler) is this close to the
#: action's (the first word of its description or of an ``also`` phrasing): "take the
#: lantern" is about the lantern but is no "light the lantern".
VERB = 0.5
#: Otherwise the player is asked which of the closest they meant, from this closeness...
ASK = 0.5
#: ... when no action not available now is about as close.
APART_ASK = 0.25


def action_texts(
    options: Sequence[tuple[str, str]], phrasings: Sequence[tuple[str, str]] = ()
) -> list[tuple[str, list[str]]]:
    """Each offered action's texts: its description and its ``also`` phrasings."""
    texts: dict[str, list[str]] = {oid: [label] for oid, label in options}
    for oid, text in phrasings:
        if oid in texts:
            texts[oid].append(text)
    return [(oid, these) for oid, these in texts.items() if oid not in (NONE_ID, ASK_ID)]


#: A message led by one of these asks about the room ("whats on that note"), even with no
#: question mark: the game answers it, it asks nothing back.
QUESTION_WORDS = WH_WORDS | WH_CONTRACTED
#: Words before a deed that are not the deed ("the player opens", "I'll just try to": a
#: contraction reads as two words).
_BEFORE_TEXT = "player players you ll m d s re ve ill im gonna maybe perhaps ok okay well hmm right"
_BEFORE_DEED = STOPWORDS | frozenset(_BEFORE_TEXT.split())


def deed_word(message: str) -> str:
    """The message's first word that is no filler: its deed when it says one."""
    return next((w for w in words(message) if w not in _BEFORE_DEED), "")


def deed_words(
    action: str, options: Sequence[tuple[str, str]], phrasings: Sequence[tuple[str, str]] = ()
) -> list[str]:
    """The deeds an action is said with: the first word of its description and of each of
    its ``also`` phrasings."""
    texts = [t for oid, these in action_texts(options, phrasings) if oid == action for t in these]
    return [w for t in texts if (w := deed_word(t))]


def acts(message: str) -> bool:
    """Whether the message tries to do something: not a command, and something is left
    once its questions and negated parts are taken out (``acting_part``)."""
    return commands.parse(message) is None and bool(acting_part(message).strip())


def understand(
    message: str,
    options: Sequence[tuple[str, str]],
    *,
    unoffered: Sequence[tuple[str, str]] = (),
    room: Sequence[str] = (),
    phrasings: Sequence[tuple[str, str]] = (),
) -> str:
    """An offered action's id, ``none``, or ``ask`` (only when ``ask`` is offered)."""
    may_ask = any(oid == ASK_ID for oid, _ in options)
    ruled = classify_with_phrasings(
        message, options, unoffered=unoffered, room=room, phrasings=phrasings
    )
    if ruled == ASK_ID:
        return ASK_ID
    said = acting_part(message)
    ranked = rank_actions(said or message, action_texts(options, phrasings))
    if not ranked:
        return ruled
    if ruled != NONE_ID and number_clash(message, ruled, options, unoffered, phrasings):
        # "reset the lane 4 machine" read as the lane 3 one: the rules' pick is void, and
        # whatever the rest finds, it is not that one.
        found = _unruled(message, options, unoffered, phrasings, ranked)
        return NONE_ID if found == ruled else found
    if ruled != NONE_ID:
        coded = rules_read(message, ruled, options, unoffered, phrasings)
        # same_thing reads the offered actions only: with those done or not yet possible
        # too, it asked about right picks on the tuned rooms (2,636 -> 2,604 understood)
        twin = look_alike(message, ruled, options, unoffered) or same_thing(message, ruled, options)
        if twin is not None and not coded:
            # "turn the wheel" beside a red and a blue valve wheel: not the rules' to choose.
            offered = {oid for oid, _ in options}
            return ASK_ID if may_ask and twin in offered else NONE_ID
        if coded:
            return ruled  # a code or a number is the rules' to read, not the model's
        if may_ask and closer_other(ranked, ruled):
            return ASK_ID
        if doubt(message, ruled, options, unoffered, phrasings) is not None:
            return ASK_ID if may_ask else NONE_ID
        return ruled
    return _unruled(message, options, unoffered, phrasings, ranked)


def _unruled(
    message: str,
    options: Sequence[tuple[str, str]],
    unoffered: Sequence[tuple[str, str]],
    phrasings: Sequence[tuple[str, str]],
    ranked: Sequence[tuple[float, str]],
) -> str:
    """The similarity stage for a message the rules found no action in (``understand``)."""
    may_ask = any(oid == ASK_ID for oid, _ in options)
    said = acting_part(message)
    best, top = ranked[0]
    likely: list[tuple[float, str, list[float]]] = []
    if not vetoed(message, options):
        likely = likeliest(message, offered_only(options), unoffered=unoffered, phrasings=phrasings)
        if likely and likely[0][0] >= learned.ACT_P:
            return likely[0][1]  # the learned decision is sure (``learned.py``)
    if not acts(message):
        return NONE_ID
    second = ranked[1][0] if len(ranked) > 1 else 0.0
    # The closest action not available now (done, or not yet possible): a message closer
    # to it than to any offered action is about that one, so nothing of the offered happens.
    gone = rank_actions(said or message, action_texts(unoffered, phrasings))
    elsewhere = gone[0][0] if gone else 0.0
    deed = deed_word(said or message)
    if is_verbless(message, options) or len(deed) < 2:
        return NONE_ID  # a thing named alone ("x desk" too): the game shows it
    if deed in TAKES and not set(deed_words(top, options, phrasings)) & TAKES:
        return NONE_ID  # taking a thing is no deed of the story (``several.TAKES``)
    # An action not available now about as close as the closest offered one blocks it,
    # unless the words that tell the two apart side with the offered one ("open the
    # freezer" beside "step inside the walk-in freezer", not possible yet).
    near_gone = [oid for s, oid in gone if best - s < APART]
    if (
        best >= ACT
        and best - second >= LEAD
        and (
            best - elsewhere >= APART
            or sides_with(message, top, near_gone, options, unoffered, phrasings)
        )
        and word_closeness(deed, deed_words(top, options, phrasings)) >= VERB
    ):
        return top
    vague = may_ask and not vetoed(message, options) and not ask_barred(message)
    if vague and vague_group(message, options):
        return ASK_ID  # "open the oven" beside a left and a right oven: which one
    gates_ask = (
        best >= ASK
        and best - elsewhere >= APART_ASK
        and not looks(message)
        and not set(words(message)) & EVERY_ONE
        and deed not in QUESTION_WORDS
    )
    learned_asks = (  # the learned decision finds it likely enough to ask
        len(likely) > 1
        and likely[0][0] >= learned.ASK_P
        and (
            not learned.points_elsewhere(likely[0][2])
            or sides_with(
                message,
                likely[0][1],
                sharing(message, unoffered, phrasings),
                options,
                unoffered,
                phrasings,
            )
        )
        and not ask_barred(message)
    )
    if may_ask and (gates_ask or learned_asks):
        return told_apart(message, options, phrasings) or ASK_ID
    return NONE_ID


#: Words that single out the one of two look-alikes not dealt with yet.
_OTHER_TEXT = "other another"
_OTHER = frozenset(_OTHER_TEXT.split())


def _description_words(text: str) -> frozenset[str]:
    return frozenset(stem(w, fold=False) for w in words(text) if w not in STOPWORDS)


def same_word(said: str, own: str) -> bool:
    """Whether a word the player said is ``own`` as far as telling look-alikes apart goes:
    the same, a typo of it (``text.near``; "grene"), its first letters but the last ("blu"),
    or another form of one word by the English lexicon (``several.lemmas``: "battery" and
    "batteries")."""
    if said == own or near(said, own):
        return True
    if len(said) >= 3 and len(own) == len(said) + 1 and own.startswith(said):
        return True
    return bool(lemmas(said) & lemmas(own))


def _read_for_twins(
    message: str,
    picked: str,
    options: Sequence[tuple[str, str]],
    unoffered: Sequence[tuple[str, str]],
) -> tuple[dict[str, str], list[str], set[str]] | None:
    """What ``look_alike`` and ``same_thing`` read: every action's text, the message's
    words and their stems; None when ``picked`` is no action or the message says "other"
    ("flip the other switch": the one not dealt with yet)."""
    texts = dict((*options, *unoffered))
    said_words = words(message)
    if picked not in texts or set(said_words) & _OTHER:
        return None
    return texts, said_words, {stem(w, fold=False) for w in said_words}


def look_alike(
    message: str,
    picked: str,
    options: Sequence[tuple[str, str]],
    unoffered: Sequence[tuple[str, str]] = (),
) -> str | None:
    """Another action, offered or not (done, or not yet possible), described as ``picked``
    is, with the same deed, but for a word or two swapped ("open the left drawer", "open
    the right drawer"), when the message names what they share and none of the words that
    are ``picked``'s alone (nor another form or a typo of one, ``same_word``, nor
    "other"): the message may mean either, so the pick is no sure one. ``None``
    otherwise."""
    read = _read_for_twins(message, picked, options, unoffered)
    if read is None:
        return None
    texts, said_words, said = read
    mine = _description_words(texts[picked])
    deed = deed_word(texts[picked])
    for oid, text in texts.items():
        if oid in (picked, NONE_ID, ASK_ID) or deed_word(text) != deed:
            continue
        theirs = _description_words(text)
        own, shared = mine - theirs, mine & theirs
        typed = set(words(texts[picked])) - set(words(text))  # as written, for typos
        if (
            len(shared) >= 2
            and 0 < len(own) == len(theirs - mine) <= 2
            and said & shared
            and not said & own
            and not any(same_word(w, o) for w in said_words for o in typed)  # "grene"
        ):
            return oid
    return None


def same_thing(
    message: str,
    picked: str,
    options: Sequence[tuple[str, str]],
    unoffered: Sequence[tuple[str, str]] = (),
) -> str | None:
    """Another action, offered or not (done, or not yet possible), done to the same thing
    as ``picked`` (the head noun of its description's first piece, ``roles.direct``: "pull
    down the red fire curtain lever" and "push up the black shutter motor lever") when the
    message names that thing but none of the words that are ``picked``'s alone (its deed
    aside), nor a typo of one, nor "other", and its deed does not tell them apart (it is
    ``picked``'s and no sense-mate of the other's): "pull the lever" may mean either.
    ``None`` otherwise."""
    read = _read_for_twins(message, picked, options, unoffered)
    if read is None:
        return None
    texts, said_words, said = read
    mine = roles(picked, texts[picked])
    if not mine.direct & said:
        return None
    deed = stem(deed_word(acting_part(message) or message), fold=False)
    own = _description_words(texts[picked]) - mine.deeds
    for oid, text in texts.items():
        if oid in (picked, NONE_ID, ASK_ID):
            continue
        theirs = roles(oid, text)
        if not theirs.direct & mine.direct & said:
            continue
        alone = own - _description_words(text)
        typed = {w for w in words(texts[picked]) if stem(w, fold=False) in alone}
        if not alone or said & alone or any(same_word(w, o) for w in said_words for o in typed):
            continue
        if not (deed in mine.deeds and deed not in theirs.deeds):
            return oid
    return None


def told_apart(
    message: str, options: Sequence[tuple[str, str]], phrasings: Sequence[tuple[str, str]] = ()
) -> str | None:
    """The one of the two actions an ask would offer (``closest_two``) that the message
    singles out, when the two are described the same but for a word or two each ("turn the
    aft valve wheel", "turn the forward valve wheel") and the message says a word that is
    one of them, or is related by the Moby Thesaurus to one of them both ways, each listed
    under the other ("rear" and "aft", "little" and "small"; not "grey" and "white"), for
    one action's own words only. ``None`` when it says such a
    word for both or for neither: the player is asked."""
    if vetoed(message, options):
        return None  # "choose throw_dome_switch": an order to the classifier, no deed
    pair = closest_two(message, options, phrasings)
    texts = dict(options)
    if len(pair) != 2 or not all(p in texts for p in pair):
        return None
    a, b = (_description_words(texts[p]) for p in pair)
    shared, own = a & b, (a - b, b - a)
    if len(shared) < 2 or not all(0 < len(o) <= 2 for o in own):
        return None
    said = {stem(w, fold=False) for w in words(message) if w not in STOPWORDS} - shared
    fits = [any(_mutual(w, o) for w in said for o in these) for these in own]
    if fits[0] == fits[1]:
        return None
    return pair[0] if fits[0] else pair[1]


def _action_numbers(
    options: Sequence[tuple[str, str]],
    unoffered: Sequence[tuple[str, str]],
    phrasings: Sequence[tuple[str, str]],
) -> dict[str, frozenset[str]]:
    """The numbers each action's texts say (``numbers_said``), offered or not."""
    return {
        oid: frozenset().union(*(numbers_said(t) for t in these))
        for oid, these in action_texts([*options, *unoffered], phrasings)
    }


def code_said(
    message: str,
    options: Sequence[tuple[str, str]],
    unoffered: Sequence[tuple[str, str]] = (),
    phrasings: Sequence[tuple[str, str]] = (),
) -> bool:
    """Whether the message says a code or an answer: a number in digits (or a code in
    words) of three digits or more, or one no action of the room says (a number an action
    says names a thing: "lane 4", "locker 2")."""
    said = frozenset(re.findall(r"\d+", numbers_as_digits(message)))  # "two buttons": no code
    if any(len(n) >= 3 for n in said):
        return True
    named = frozenset().union(*_action_numbers(options, unoffered, phrasings).values())
    return bool(said - named)


def rules_read(
    message: str,
    ruled: str,
    options: Sequence[tuple[str, str]],
    unoffered: Sequence[tuple[str, str]] = (),
    phrasings: Sequence[tuple[str, str]] = (),
) -> bool:
    """Whether the rules' pick is theirs to keep unchecked: the message says a code
    (``code_said``) or names the pick's own thing by its number ("lane 3")."""
    own = _action_numbers(options, unoffered, phrasings).get(ruled, frozenset())
    return code_said(message, options, unoffered, phrasings) or bool(numbers_said(message) & own)


def number_clash(
    message: str,
    ruled: str,
    options: Sequence[tuple[str, str]],
    unoffered: Sequence[tuple[str, str]] = (),
    phrasings: Sequence[tuple[str, str]] = (),
) -> bool:
    """Whether the message names a thing by a number that another action of the room says
    and the rules' pick does not ("reset the lane 4 machine" picked as "press the reset
    switch on the lane 3 machine"): the number tells the actions apart, against the pick.
    A code (three digits or more) is the rules' to read."""
    said = numbers_said(message)
    if not said or any(len(n) >= 3 for n in said):
        return False
    numbers = _action_numbers(options, unoffered, phrasings)
    others = frozenset().union(*(n for oid, n in numbers.items() if oid != ruled))
    return bool(said & others) and not said & numbers.get(ruled, frozenset())


def sides_with(
    message: str,
    chosen: str,
    others: Sequence[str],
    options: Sequence[tuple[str, str]],
    unoffered: Sequence[tuple[str, str]],
    phrasings: Sequence[tuple[str, str]] = (),
) -> bool:
    """Whether the message tells ``chosen`` apart from each of ``others`` (actions not
    available now) by its words: against each, it says a word of ``chosen``'s texts that
    none of the other's texts says (or a typo or another form of one, ``same_word``, or a
    word each listed under the other by the Moby Thesaurus, ``_mutual``: "walk" and
    "step"), and no word that is the other's alone nor one the thesaurus relates to one in
    either direction ("pry" to "force"). "open the freezer" beside "step inside
    the walk-in freezer"; not "go down the trapdoor" beside "open the trapdoor" when
    "climb down through the trapdoor" is not possible yet. False when ``others`` is empty
    (nothing to tell apart)."""
    if not others:
        return False
    texts = dict(action_texts([*options, *unoffered], phrasings))
    if chosen not in texts:
        return False
    said_part = acting_part(message) or message
    said = [w for w in words(said_part) if w not in STOPWORDS]
    said_stems = {stem(w, fold=False) for w in said}
    mine = frozenset().union(*(_description_words(t) for t in texts[chosen]))

    def says(own: frozenset[str], loosely: bool) -> bool:
        like = related if loosely else _mutual
        return bool(said_stems & own) or any(
            same_word(w, o) or like(w, o) for w in said for o in own
        )

    for other in others:
        theirs = frozenset().union(*(_description_words(t) for t in texts.get(other, [])))
        if not says(mine - theirs, loosely=False) or says(theirs - mine, loosely=True):
            return False
    return True


def sharing(
    message: str, unoffered: Sequence[tuple[str, str]], phrasings: Sequence[tuple[str, str]] = ()
) -> list[str]:
    """The actions not available now whose texts share a word (or a stem) with the
    message: the ones its words could be pointing at instead."""
    said = {stem(w, fold=False) for w in words(acting_part(message) or message)} - STOPWORDS
    return [
        oid
        for oid, these in action_texts(unoffered, phrasings)
        if said & frozenset().union(*(_description_words(t) for t in these))
    ]


def _mutual(a: str, b: str) -> bool:
    """The same word, or each listed under the other by the Moby Thesaurus."""
    if a == b:
        return True
    return b in related_words(a) and a in related_words(b)


def closer_other(ranked: Sequence[tuple[float, str]], ruled: str) -> bool:
    """Whether the similarity stage is sure of another action than the rules' pick: its
    closest is at least ``SURE`` and ahead of the pick by more than ``KEEP``."""
    if not ranked:
        return False
    best, top = ranked[0]
    mine = next((s for s, oid in ranked if oid == ruled), best)
    return top != ruled and best >= SURE and best - mine > KEEP


def doubt(
    message: str,
    ruled: str,
    options: Sequence[tuple[str, str]],
    unoffered: Sequence[tuple[str, str]] = (),
    phrasings: Sequence[tuple[str, str]] = (),
) -> list[str] | None:
    """The pair to ask about when the message names a thing of the room the rules' pick
    does not say (``foreign_thing``) and the learned decision finds the pick unlikely
    (below ``learned.GROUND_P``): the pick, then the learned decision's likeliest other.
    None when the pick stands."""
    if not foreign_thing(message, ruled, options, unoffered, phrasings):
        return None
    likely = likeliest(message, offered_only(options), unoffered=unoffered, phrasings=phrasings)
    if not any(oid == ruled and p < learned.GROUND_P for p, oid, _ in likely):
        return None
    return [ruled, *[oid for _, oid, _ in likely if oid != ruled][:1]]


def foreign_thing(
    message: str,
    ruled: str,
    options: Sequence[tuple[str, str]],
    unoffered: Sequence[tuple[str, str]] = (),
    phrasings: Sequence[tuple[str, str]] = (),
) -> bool:
    """Whether the message names a thing of the room (a noun of an action's
    description, ``roles.py``) that none of the rules' pick's texts say."""
    actions = [(oid, t) for oid, t in (*options, *unoffered) if oid not in (NONE_ID, ASK_ID)]
    things = frozenset().union(*(roles(oid, t).objects for oid, t in actions))
    said = {stem(w, fold=False) for w in words(acting_part(message) or message)} & things
    texts = [t for oid, these in action_texts(options, phrasings) if oid == ruled for t in these]
    own = {stem(w, fold=False) for t in texts for w in words(t)} | roles(
        ruled, texts[0] if texts else ""
    ).objects
    return bool(said - own)


def doubted_pair(
    message: str,
    options: Sequence[tuple[str, str]],
    *,
    unoffered: Sequence[tuple[str, str]] = (),
    room: Sequence[str] = (),
    phrasings: Sequence[tuple[str, str]] = (),
) -> list[str]:
    """The two actions to offer when ``understand`` asked because the learned decision
    doubted the rules' pick (``doubt``): that pick, then the learned decision's likeliest
    other; empty when the ask had another reason."""
    asking = [*offered_only(options), (ASK_ID, "-")]
    ruled = classify_with_phrasings(
        message, asking, unoffered=unoffered, room=room, phrasings=phrasings
    )
    if (
        ruled in (NONE_ID, ASK_ID)
        or rules_read(message, ruled, asking, unoffered, phrasings)
        or number_clash(message, ruled, asking, unoffered, phrasings)
    ):
        return []
    twin = look_alike(message, ruled, asking, unoffered) or same_thing(message, ruled, asking)
    said = acting_part(message) or message
    ranked = rank_actions(said, action_texts(asking, phrasings))
    if twin is not None or closer_other(ranked, ruled):
        return []
    return doubt(message, ruled, asking, unoffered, phrasings) or []


def vague_group(message: str, options: Sequence[tuple[str, str]]) -> list[str]:
    """The two or three offered actions about every thing of the room the message names
    (the heads of their descriptions and ids, ``roles.objects``: "open the oven" beside
    "open the iron door of the left oven" and "... of the right oven"), when the message
    says no word that belongs to some of them only (nor a typo or another form of one,
    ``same_word``) and its deed fits each alike: it is each one's deed, or related to each
    one's by the Moby Thesaurus, or a light verb ("use", ``roles.LIGHT_DEEDS``). Empty
    otherwise; the ones most alike the message first."""
    said_part = acting_part(message) or message
    said_words = [w for w in words(said_part) if w not in STOPWORDS]
    said = {stem(w, fold=False) for w in said_words}
    texts = dict(offered_only(options))
    things = {oid: roles(oid, text).objects for oid, text in texts.items()}
    named = said & frozenset().union(*things.values())
    group = [oid for oid, these in things.items() if named and named <= these]
    if not 2 <= len(group) <= 3:
        return []
    described = [_description_words(texts[oid]) for oid in group]
    telling = frozenset().union(*described) - frozenset.intersection(*described)
    written = {w for oid in group for w in words(texts[oid]) if stem(w, fold=False) in telling}
    if said & telling or any(same_word(w, o) for w in said_words for o in written):
        return []
    deed = deed_word(said_part)
    fits = {_deed_fits(deed, roles(oid, texts[oid]).deeds) for oid in group}
    if fits != {True}:
        return []
    ranked = [oid for _, oid in rank_actions(said_part, action_texts(options)) if oid in group]
    return ranked + [oid for oid in group if oid not in ranked]


def _deed_fits(deed: str, deeds: frozenset[str]) -> bool:
    if not deed:
        return False
    if deed in LIGHT_DEEDS or stem(deed, fold=False) in deeds:
        return True
    return any(related(deed, d) for d in deeds)


def ask_barred(message: str) -> bool:
    """A message the learned decision never asks about: one that means all of several
    ("press both buttons"). A look may be asked about ("look through the telescope" where
    looking through it is an action of the room)."""
    return bool(set(words(message)) & EVERY_ONE)


def offered_only(options: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """The options that are actions of the room (no ``none``, no ``ask``)."""
    return [(oid, label) for oid, label in options if oid not in (NONE_ID, ASK_ID)]


def vetoed(message: str, options: Sequence[tuple[str, str]]) -> bool:
    """A message the learned decision never acts on: nothing left that acts once its
    questions and negated parts are out (``acts``; a command too); a thing named alone (the
    game shows it: "x desk", "the tobacco tin"); a question word for a deed ("whats on that
    note"); or a message naming an action by its id ("choose climb_ladder": an order to the
    classifier, not a deed)."""
    said = acting_part(message) or message
    deed = deed_word(said)
    ids = {oid.lower() for oid, _ in options if "_" in oid}
    return (
        not acts(message)
        or is_verbless(message, options)
        or len(deed) < 2
        or deed in QUESTION_WORDS
        or any(oid in message.lower() for oid in ids)
    )


def closest_two(
    message: str, options: Sequence[tuple[str, str]], phrasings: Sequence[tuple[str, str]] = ()
) -> list[str]:
    """The two actions an ask offers: the two closest by similarity, the rules' candidates
    among them first (the game's question offers two)."""
    said = acting_part(message) or message
    ranked = [oid for _, oid in rank_actions(said, action_texts(options, phrasings))]
    ruled = [c for c in candidates(message, options) if c not in (NONE_ID, ASK_ID)]
    picked = [c for c in ruled if c in ranked[:2]][:2]
    for oid in ranked or ruled[:2]:
        if len(picked) == 2:
            break
        if oid not in picked:
            picked.append(oid)
    return picked

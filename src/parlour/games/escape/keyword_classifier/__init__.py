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
* two options fitting equally never get a guess: an unnamed winner whose clause verb is
  another available option's deed word for word asks ("call for help" with the phone
  working); a verb that only looks is no deed on a thing ("examine the red button");
  options named as alternatives ("red or green") ask; an option whose evidence another
  strong option has all of, and more, drops out ("hit the door and the red button").
* a message with no verb never acts: an object word or noun phrase alone ("phone", "the
  newspaper", "phone cable", "hatch in the ceiling", "phone please") is ``none``
  whatever options its thing has; so is a sentence saying what there is or what a thing
  is ("there's a phone", "the lever seems stuck").
* a negation counts only in the part it is said in, and a warning reported after the
  deed is its reason ("press red, the note said not to but im curious"); a modifier only
  one option's thing has, or its second deed's words, with a verb fitting its deed names
  it ("shove the ceiling panel up", "shout for help"); a tool one of several alike is no
  "which one?" ("strike a match"); a light still off comes before reading by it ("shine
  my phone light on the certificate"); an id's own verb goes with the id's thing ("talk
  to the ghost again" is no saying of her name); a name given while no option is about a
  name is ``none``; speaking to whoever answers is a call.
* two options named as one act ("red and green at the same time") are ``none``;
  shorthand for the room's words ("grn btn", "cert", "fone", in ``typos``); a verb that
  goes one way moves a thing ("lower the lift"); a drawn-out call or a greeting run into
  its question in capitals shouts; a deed's word said again is its sound ("bang bang");
  "it" put in a thing is the tool named before, and after a verb the thing its deed is
  done to; a pronoun spoken to is the one person.
* the actions the room does not offer now (``unoffered``, from the view, never picked):
  the ask-vs-none rule applies to them too. When every word that is evidence of the
  winner is evidence of an unoffered action that has more ("tell the ghost her name is
  X" before a name can be said), or the winner's thing is named only by a head noun an
  unoffered action has as another thing of that kind ("open the door": the little phone
  door, the lift doors), the message does not say which, and the answer is ``none``.
* principles for any room: the room's public text (``room``, from the view: intro and
  world facts) names its things, so a compound tying another action's thing-word to an
  option's thing is read into its description (``room_names``: "a red valve wheel", so
  "turn the wheel" names two wheels); a word that is another action's thing word for
  word is no shared-sense name of the winner's ("open the door" is not the cupboard);
  one thing and several of its kind both offered do not say which; "should i ..." is a
  question; reasons then "so i X" act by X; a code given by a code verb or a light verb
  names the code's option.

The constants and rules are measured on the label sets (benchmark data, listed in
``benchmarks/escape/labels/sets.yaml``); a set read while choosing them is tuning data,
so only the sets marked never read give a fair figure (docs/benchmarks.md).

It never sees answers (codes): the engine gates answer actions on the player's text.

The parts, one job a module (this package's ``__init__`` keeps the public names):
``acting`` (the acting part of a message, questions, negations), ``prepared`` (the text
every score reads) with ``pronouns`` and ``names``, ``clauses`` (clauses and their verbs),
``matching`` (when a word fits an option's word), ``deeds`` (whether a message names an
option), ``scoring`` (evidence, scores, ranking; the constants), ``verbless`` and
``ask_or_none`` (when not to act), ``room_names`` (the room's names for its things),
``decide`` (``classify``), ``replies``
(``classify_reply``).
"""

from __future__ import annotations

from parlour.games.escape.keyword_classifier.acting import acting_part, is_negated, is_question
from parlour.games.escape.keyword_classifier.ask_or_none import is_broad
from parlour.games.escape.keyword_classifier.decide import classify
from parlour.games.escape.keyword_classifier.phrasings import classify_with_phrasings
from parlour.games.escape.keyword_classifier.replies import classify_reply
from parlour.games.escape.keyword_classifier.scoring import (
    CLOSE,
    CODE_BONUS,
    MIX,
    STRONG,
    SURE,
    SURE_NAMED,
    THRESHOLD,
    Ranked,
    candidates,
    fit_options,
    rank,
    score_options,
)
from parlour.games.escape.keyword_classifier.verbless import is_verbless

__all__ = [
    "CLOSE",
    "CODE_BONUS",
    "MIX",
    "STRONG",
    "SURE",
    "SURE_NAMED",
    "THRESHOLD",
    "Ranked",
    "acting_part",
    "candidates",
    "classify",
    "classify_reply",
    "classify_with_phrasings",
    "fit_options",
    "is_broad",
    "is_negated",
    "is_question",
    "is_verbless",
    "rank",
    "score_options",
]

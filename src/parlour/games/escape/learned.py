"""The learned decision of the similarity stage: how likely each offered action is the one a
message means, from measured features and a logistic model fitted on the calibration rooms.

For each offered action (``candidate_rows``) the features are: the message's closeness to
the action's texts (WordLlama, ``similarity.py``), its lead over the next offered action and
over the closest action not available now; how many of the message's content words (typos
corrected towards the room's words, stemmed) are the action's, are the action's alone among
the offered, share an everyday sense with its words (``lexicon.py``) or are related to them
by the Moby Thesaurus (``thesaurus.py``: "crank" and "wind", "cog" and "gear"), and the same
shares for the closest action not available now; whether the message's deed word is the
action's own verb, shares a sense with it, is related to it or is close to it by the model;
and what kind of message it is (a question, a look, nothing left that acts once questions
and negations are out, a thing named alone, a taking). The model is
``P(action) = 1 / (1 + exp(-w . x))``.

``understand.py`` also asks about a rules pick that the message's things do not fit and
that the model finds less likely than ``GROUND_P`` (``understand.doubt``; 0.4, chosen on
the calibration rooms: at 0.8 a shipped room's label set lost up to 5 points of accuracy
to asks, at 0.4 at most 1.7). Otherwise it uses it only for a message the rules
stage finds no action in and that
acts (``understand.vetoed``): the likeliest action happens when it is at least ``ACT_P``;
below that the hand-set gates decide; when they do nothing, the player is asked which of
the two closest they meant when the likeliest is at least ``ASK_P`` and the message's words
do not fit an action not available now as well (``points_elsewhere``).

``WEIGHTS`` and ``ACT_P`` were fitted by ``benchmarks/escape_fit.py`` on the
calibration rooms only (the shipped rooms' label sets, the example rooms' sets and the rooms
of ``benchmarks/escape/unseen`` ... ``unseen5``; ``unseen6`` to ``unseen10`` are calibration
folders too, but the weights here were fitted before they were). ``ASK_P`` (0.75) is the
lowest value, in steps of 0.05, at which these weights keep the ``unseen*`` rooms together
at no more than 15% asks by the game's scorer (``benchmarks/escape_rooms.py``), the asks
about a vague thing (``understand.vague_group``) counted, with no wrong advance added
(0.8 adds one); chosen on the rooms up to ``unseen7``, with every ``unseen*`` room up to
``unseen10`` they ask 14.5% of their messages together. The fit, on
the messages the rules stage finds no action in: the weights by logistic regression (L2,
one row per offered action, the labelled one positive, every room weighing the same);
``ACT_P`` 0.08 above the likeliest wrong pick on any calibration room (at most 0.99);
``ASK_P`` the value that understands most on the rooms not shipped while those written for
a fresh score ask at most 15% of their messages together and no shipped room loses more
than 1% of its messages. That script
prints the fitted values and the leave-one-room-out figures (each room scored with a fit
that never saw it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from parlour.games.escape import commands
from parlour.games.escape.function_words import WH_CONTRACTED, WH_WORDS
from parlour.games.escape.keyword_classifier import acting_part, is_negated, is_question
from parlour.games.escape.keyword_classifier.verbless import is_verbless
from parlour.games.escape.lexicon import senses
from parlour.games.escape.looking import looks
from parlour.games.escape.several import TAKES
from parlour.games.escape.similarity import closeness, word_closeness
from parlour.games.escape.text import STOPWORDS, stem, words
from parlour.games.escape.thesaurus import related
from parlour.games.escape.typos import correct, vocabulary

#: The features, in the order of ``WEIGHTS``.
FEATURES: tuple[str, ...] = (
    "bias",
    "cos",
    "lead",
    "apart",
    "top",
    "said_share",
    "action_share",
    "own_words",
    "deed_same",
    "deed_sense",
    "deed_close",
    "question",
    "looks",
    "no_deed",
    "verbless",
    "takes",
    "offered",
    "cos_x_own",
    "sense_share",
    "sense_own",
    "deed_related",
    "related_share",
    "related_own",
    "gone_share",
    "gone_lead",
    "gone_related",
    "related_lead",
)

#: Fitted by ``benchmarks/escape_fit.py`` (module docstring); one per ``FEATURES``.
WEIGHTS: tuple[float, ...] = (
    -1.3624,
    0.209,
    3.1578,
    1.449,
    1.1565,
    -1.4126,
    1.1143,
    0.9677,
    -0.9249,
    0.7026,
    0.1838,
    0.4243,
    0.1358,
    -0.0982,
    0.0,
    -0.4236,
    -0.8281,
    -0.3009,
    -0.568,
    1.4592,
    0.23,
    0.5437,
    1.0197,
    -1.5037,
    0.0911,
    -0.0997,
    0.6434,
)
#: The likeliest action happens from this probability (below it, ``understand.py``'s gates).
ACT_P = 0.99
#: ... and the player is asked which of the two likeliest from this one.
ASK_P = 0.75
#: A rules pick is asked about below this probability when the message names a thing of
#: the room the pick's texts do not say (``understand.doubt``).
GROUND_P = 0.4

_BEFORE_TEXT = "player players you ll m d s re ve ill im gonna maybe perhaps ok okay well hmm right"
_BEFORE_DEED = STOPWORDS | frozenset(_BEFORE_TEXT.split())
_ASKING_TEXT = "could can may would will might"
_ASKING = frozenset(_ASKING_TEXT.split()) | WH_WORDS | WH_CONTRACTED


def _deed(text: str) -> str:
    return next((w for w in words(text) if w not in _BEFORE_DEED), "")


def _stems(text: str, known: frozenset[str] = frozenset()) -> frozenset[str]:
    """The content words of a text, typos corrected towards ``known``, stemmed."""
    out = set()
    for w in words(text):
        if w in STOPWORDS or len(w) < 2:
            continue
        w = correct(w, known) if known else w
        out.add(stem(w, fold=False))
    return frozenset(out)


def _content(text: str) -> list[str]:
    """The words of a text that may carry meaning (no stop words, no single letters)."""
    return [w for w in words(text) if w not in _BEFORE_DEED and len(w) > 2 and w.isalpha()]


@lru_cache(maxsize=4096)
def _senses(word: str) -> frozenset[str]:
    s = stem(word, fold=False)
    return frozenset(x for x in senses(word) | senses(s) if x.startswith("#"))


def _texts(
    options: Sequence[tuple[str, str]], phrasings: Sequence[tuple[str, str]]
) -> dict[str, list[str]]:
    texts: dict[str, list[str]] = {oid: [label] for oid, label in options}
    for oid, text in phrasings:
        if oid in texts:
            texts[oid].append(text)
    return texts


def candidate_rows(
    message: str,
    options: Sequence[tuple[str, str]],
    *,
    unoffered: Sequence[tuple[str, str]] = (),
    phrasings: Sequence[tuple[str, str]] = (),
) -> list[tuple[str, list[float]]]:
    """(action id, features) for each offered action (``options`` holds no ``none``/``ask``)."""
    if not options:
        return []
    said = acting_part(message) or message
    texts = _texts(options, phrasings)
    gone = _texts(unoffered, phrasings)
    cos = {oid: closeness(said, these) for oid, these in texts.items()}
    elsewhere = max((closeness(said, these) for these in gone.values()), default=0.0)
    own = {oid: frozenset().union(*(_stems(t) for t in these)) for oid, these in texts.items()}
    known = vocabulary(frozenset(w for these in texts.values() for t in these for w in words(t)))
    mine = _stems(said, known)
    deed = _deed(said)
    deed_stem = stem(deed, fold=False) if deed else ""
    deed_senses = _senses(deed) if deed else frozenset()
    kind = [
        float(is_question(message) or "?" in message or deed in _ASKING),
        float(looks(message)),
        float(
            commands.parse(message) is not None
            or not acting_part(message).strip()
            or is_negated(message)
        ),
        float(is_verbless(message, options)),
    ]
    ranked = sorted(cos.values(), reverse=True)
    gone_words = [frozenset().union(*(_stems(t) for t in these)) for these in gone.values()]
    gone_share = max((len(mine & g) / len(mine) for g in gone_words if mine), default=0.0)
    said_words = _content(said)
    raw = {oid: frozenset(w for t in these for w in _content(t)) for oid, these in texts.items()}
    gone_raw = [frozenset(w for t in these for w in _content(t)) for these in gone.values()]
    gone_related = max(
        (
            sum(any(related(w, x) for x in g) for w in said_words) / len(said_words)
            for g in gone_raw
            if said_words
        ),
        default=0.0,
    )
    touches = {
        oid: frozenset(w for w in said_words if any(related(w, x) for x in raw[oid]))
        for oid in texts
    }
    rows: list[tuple[str, list[float]]] = []
    for oid, these in texts.items():
        deeds = [d for t in these if (d := _deed(t))]
        others = frozenset().union(*(w for o, w in own.items() if o != oid))
        alone = mine & own[oid] - others
        best_other = max((c for o, c in cos.items() if o != oid), default=0.0)
        share = len(mine & own[oid]) / len(mine) if mine else 0.0
        first = _stems(these[0])
        covered = len(first & mine) / len(first) if first else 0.0
        deed_stems = {stem(d, fold=False) for d in deeds}
        same = float(bool(deed_stem) and deed_stem in deed_stems)
        sense = float(bool(deed_senses) and any(deed_senses & _senses(d) for d in deeds))
        close = word_closeness(deed, deeds) if deed else 0.0
        takes = float(deed in TAKES and not set(deeds) & TAKES)
        n_own = min(len(alone), 2) / 2
        theirs = frozenset().union(*(_senses(w) for w in own[oid])) | own[oid]
        rest = frozenset().union(*(_senses(w) for w in others)) | others
        meant = [w for w in mine if w in theirs or _senses(w) & theirs]
        apart_only = [w for w in meant if not (w in rest or _senses(w) & rest)]
        rows.append(
            (
                oid,
                [
                    1.0,
                    cos[oid],
                    cos[oid] - best_other,
                    cos[oid] - elsewhere,
                    float(cos[oid] == ranked[0]),
                    share,
                    covered,
                    n_own,
                    same,
                    sense,
                    close,
                    *kind,
                    takes,
                    math.log(len(texts)),
                    cos[oid] * n_own,
                    len(meant) / len(mine) if mine else 0.0,
                    min(len(apart_only), 2) / 2,
                    float(bool(deed) and any(related(deed, d) for d in deeds)),
                    len(touches[oid]) / len(said_words) if said_words else 0.0,
                    min(
                        len(
                            touches[oid]
                            - frozenset().union(*(t for o, t in touches.items() if o != oid))
                        ),
                        2,
                    )
                    / 2,
                    gone_share,
                    share - gone_share,
                    gone_related,
                    (len(touches[oid]) / len(said_words) if said_words else 0.0) - gone_related,
                ],
            )
        )
    return rows


def probability(row: Sequence[float], weights: Sequence[float] = ()) -> float:
    """The model's probability that this row's action is the one meant."""
    z = sum(w * x for w, x in zip(weights or WEIGHTS, row, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def likeliest(
    message: str,
    options: Sequence[tuple[str, str]],
    *,
    unoffered: Sequence[tuple[str, str]] = (),
    phrasings: Sequence[tuple[str, str]] = (),
) -> list[tuple[float, str, list[float]]]:
    """(probability, action id, features) for each offered action, likeliest first."""
    rows = candidate_rows(message, options, unoffered=unoffered, phrasings=phrasings)
    return sorted(((probability(x), oid, x) for oid, x in rows), key=lambda s: -s[0])


def points_elsewhere(row: Sequence[float]) -> bool:
    """Whether the message's words (or words of like meaning) fit an action not available
    now at least as well as this row's action ("open the door" in the lift: the phone's
    little door, or the lift doors that cannot be opened yet)."""
    return row[FEATURES.index("related_lead")] <= 0.0

"""Evidence and scores: per option, the message's words its description names,
the blended score (``MIX`` of cover and share) of the whole message and of each clause, and
the ranking of the strong candidates. The tuned constants live here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from parlour.games.escape.keyword_classifier.clauses import CLAUSE, bare_ways, clause_verbs
from parlour.games.escape.keyword_classifier.deeds import (
    CODE_WORDS,
    code_option,
    contradicts,
    exact_deeds,
    names_option,
    own_modifiers,
    sounded_deed,
)
from parlour.games.escape.keyword_classifier.matching import described_words, raw_tokens, word_fits
from parlour.games.escape.keyword_classifier.prepared import prepared
from parlour.games.escape.roles import roles
from parlour.games.escape.scenario import ASK_ID, NONE_ID
from parlour.games.escape.text import near

THRESHOLD = Fraction(1, 2)


STRONG = Fraction(3, 4)


CLOSE = Fraction(9, 10)


CODE_BONUS = Fraction(1, 2)


MIX = Fraction(2, 3)


SURE = Fraction(3, 5)


SURE_NAMED = Fraction(3, 10)


def evidence_of(
    message: str,
    options: Sequence[tuple[str, str]],
    of: Sequence[tuple[str, str]] | None = None,
) -> dict[str, frozenset[str]]:
    """Per option (of ``of``, by default the offered ones), the message's words that its
    description or id names; the message is read as it is for the offered options."""
    said = [s for _, s in raw_tokens(prepared(message, options))]
    return evidence_in(said, options if of is None else of)


def evidence_in(said: list[str], options: Sequence[tuple[str, str]]) -> dict[str, frozenset[str]]:
    """Per option, the words of ``said`` (stems) that its description or id names."""
    evidence: dict[str, frozenset[str]] = {}
    for oid, label in options:
        if oid in (NONE_ID, ASK_ID):
            continue
        described = described_words(oid, label)  # once per option, not once per word said
        evidence[oid] = frozenset(s for s in said if any(word_fits(s, d) for d in described))
    return evidence


def candidates(message: str, options: Sequence[tuple[str, str]]) -> list[str]:
    """The options the message fits, most likely first (for "which did you mean?"): the
    leaders, then every other option the message touches by score, so that a weak single
    match is offered next to its nearest rival rather than an arbitrary action."""
    leaders = [oid for _, _, oid, _ in rank(message, options, THRESHOLD, STRONG)]
    touched = sorted(score_options(message, options), key=lambda s: (-s[0], s[1], s[2]))
    return leaders + [oid for _, _, oid in touched if oid not in leaders]


Ranked = tuple[Fraction, int, str, bool]


def is_close(a: Ranked, b: Ranked) -> bool:
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
    evidence = evidence_of(message, options)
    kept = [
        s
        for s in strongest
        if not any(evidence[s[2]] < evidence[t[2]] for t in strongest if t[2] != s[2])
    ]
    return sorted(kept, key=lambda s: (s[1], -s[0]))


def score_options(
    message: str, options: Sequence[tuple[str, str]]
) -> list[tuple[Fraction, int, str]]:
    return [(score, first, oid) for score, first, oid, _ in fit_options(message, options)]


def fit_options(
    message: str, options: Sequence[tuple[str, str]]
) -> list[tuple[Fraction, int, str, bool]]:
    """Every option the message touches, as (score, where its most telling word comes, id,
    whether the message names its deed and object: ``names_option``).

    The score blends two shares (``MIX``): how much of the option's words (weighted by
    rarity among the options; the id's words count as description) the message names, and
    how much of the message the option explains. The first alone misses short messages for
    long descriptions ("open the cabinet"); the second alone lets one shared word carry a
    long unrelated message. A message of several clauses ("open the trapdoor and climb
    down") is scored whole and clause by clause; each option keeps its best.
    """
    text = prepared(message, options)
    clauses = [c for c in CLAUSE.split(text) if c.strip()]
    said = raw_tokens(text)
    if not said:
        return []
    described = {
        oid: described_words(oid, label) for oid, label in options if oid not in (NONE_ID, ASK_ID)
    }
    exact = exact_deeds(said, options)
    spans = [(said, 0)]
    offset = 0
    for clause in clauses:
        part = raw_tokens(clause)
        if len(clauses) > 1 and len(part) > 1:  # "read it", "cry": too little to stand alone
            spans.append((part, offset))
        offset += len(part)
    verbs = clause_verbs(clauses)
    best: dict[str, tuple[Fraction, int]] = {}
    for part, offset in spans:
        for score, first, oid in _score_span([s for _, s in part], described, exact):
            if oid not in best or score > best[oid][0]:
                best[oid] = (score, first + offset)
    coded = code_option(said, described)
    about = {oid: roles(oid, label) for oid, label in options if oid in best}
    ways = bare_ways(clauses, options)
    marks = own_modifiers(options)
    heads = {oid: p.heads for oid, p in about.items()}
    for oid in marks:
        # "press the ceiling light": the thing named is another option's (the torch), so the
        # modifier says nothing of which thing was meant.
        if any(word_fits(s, h) for _, s in said for o, hs in heads.items() if o != oid for h in hs):
            marks[oid] = frozenset()
    sounded = sounded_deed(text, about)
    return [
        (
            score,
            first,
            oid,
            oid == sounded
            or names_option(
                verbs, said, about[oid], oid == coded, ways, marks.get(oid), exact[oid]
            ),
        )
        for oid, (score, first) in best.items()
        if not contradicts(said, about[oid])
    ]


def _score_span(
    said: list[str],
    described: dict[str, frozenset[str]],
    exact: dict[str, frozenset[str]] | None = None,
) -> list[tuple[Fraction, int, str]]:
    df = Counter(tok for toks in described.values() for tok in toks)
    code_options = [oid for oid, toks in described.items() if toks & CODE_WORDS]
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
            same = near if t in own else word_fits
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

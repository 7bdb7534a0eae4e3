"""Choosing how a game says a line: a seeded variant that does not echo what was said.

Games that put a seat's choice into words (speech acts, pack chat, narration fallbacks)
have several wordings per act. ``distinct_line`` picks one deterministically (the caller
seeds the ``Rng`` from the game seed and the decision id, so a replay says the same) and
prefers a wording that

1. is not a line already said (``avoid``: earlier lines of the game, by anyone),
2. shares no run of ``COPY_RUN`` tokens with ``avoid`` or ``echo`` (``echo``: text the
   seat's prompt already shows it, e.g. its option labels), so a rendered line neither
   repeats another seat's clause nor reads as a copy of the menu it was chosen from,
3. repeats no run of ``REPEAT_RUN`` tokens inside itself.

When every wording breaks a rule (a narrow act late in a long day), the one with the
fewest shared runs is said: the game never goes silent for want of a fresh wording.
The token rules are those of ``text_rules.text_tokens`` and match the talk-quality
metrics (``evals/talk_quality.py``: prompt copy >= 8 tokens, repeated 4-gram).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from parlour.core.rng import Rng
from parlour.core.text_rules import first_repeat, ngrams, text_tokens

COPY_RUN = 8
REPEAT_RUN = 4


def opening_words(text: str, chars: int) -> str:
    """``text`` with its white space folded, or, when longer than ``chars``, its opening
    words within ``chars`` (cut at a word, a trailing ``,;:.`` dropped) and an ellipsis:
    a label or a quote that shows what a longer text is."""
    flat = " ".join(text.split())
    if len(flat) <= chars:
        return flat
    return flat[:chars].rsplit(" ", 1)[0].rstrip(",;:.") + "…"


def capitalised(line: str) -> str:
    """``line`` with its first letter upper-case: a template may open with a slot ("the
    cinema", "{who} are here") that opens the sentence."""
    return line[:1].upper() + line[1:]


def repeats_itself(line: str, n: int = REPEAT_RUN) -> bool:
    return first_repeat(text_tokens(line), n) is not None


def shares_run(line: str, texts: Iterable[str], n: int = COPY_RUN) -> bool:
    """Whether ``line`` has ``n`` consecutive tokens that also occur in one of ``texts``."""
    grams = set(ngrams(text_tokens(line), n))
    return any(grams.intersection(ngrams(text_tokens(t), n)) for t in texts)


def distinct_line(
    candidates: Sequence[str],
    avoid: Iterable[str],
    rng: Rng,
    echo: Iterable[str] = (),
    *,
    ordered: bool = False,
) -> str:
    """One of ``candidates`` (non-empty), in the seeded order, preferring a fresh one.
    ``ordered``: the caller has ranked the candidates already (best first); keep that
    order instead of shuffling."""
    if not candidates:
        raise ValueError("distinct_line needs at least one candidate")
    said = {" ".join(text_tokens(a)) for a in avoid}
    seen: set[tuple[str, ...]] = set()
    for text in [*said, *(" ".join(text_tokens(e)) for e in echo)]:
        seen.update(ngrams(text.split(), COPY_RUN))
    best, best_cost = "", -1
    unique = list(dict.fromkeys(candidates))
    for line in unique if ordered else rng.shuffled(unique):
        tokens = text_tokens(line)
        cost = sum(g in seen for g in ngrams(tokens, COPY_RUN))
        cost += 100 * (" ".join(tokens) in said) + 10 * repeats_itself(line)
        if cost == 0:
            return line
        if best_cost < 0 or cost < best_cost:
            best, best_cost = line, cost
    return best

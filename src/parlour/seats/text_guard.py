"""Guards for free-text answers, shared by every game: a decision opts in by naming them in
``Decision.checks`` and the LLM seat rejects a failing answer with the returned reason as
retry feedback. Pure functions over plain text; tokens are lower-case alphanumeric runs.

Rules (each returns a reason sentence, or None when the text passes):

* ``prompt_copy`` — the answer contains ``COPY_TOKENS`` (8) or more consecutive tokens of
  the prompt's instructions (system text, the decision's question, reminders, the answer
  format), or it recites a whole short line of them (``LINE_TOKENS`` (5) tokens or more,
  e.g. a reminder "27:03 left on the clock."). Facts the game hands over (a brief, world
  facts) are not instructions and may be repeated.
* ``repetition`` — some ``REPEAT_TOKENS``-gram (4 tokens) occurs twice in the answer: a loop
  ("the village of the village of the village").
* ``echo`` — the answer is the same line as another speaker's last line in the transcript
  (compared after lower-casing and dropping punctuation), or contains it / is contained in
  it when the shorter has at least ``ECHO_MIN_TOKENS`` tokens.

A structured answer is guarded field by field (``guard_fields``): the decision names the
string fields a person reads (``Decision.checked_fields``, ``core/text_fields.py``), each
is checked like free text, and each reason names its field so the retry knows what to
rewrite. With ``echo``, a field also may not repeat an earlier checked field of the same
answer (two NPCs saying one line, one press text sent twice).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from parlour.core.decisions import TextCheck
from parlour.core.text_fields import field_texts
from parlour.core.text_rules import first_repeat, ngrams, text_tokens

COPY_TOKENS = 8
LINE_TOKENS = 5
REPEAT_TOKENS = 4
ECHO_MIN_TOKENS = 6


def copied_instructions(answer: str, instructions: Iterable[str]) -> str | None:
    """``prompt_copy``: the first run of >= 8 tokens the answer shares with the instructions."""
    words = text_tokens(answer)
    source: set[tuple[str, ...]] = set()
    lines: set[tuple[str, ...]] = set()
    for text in instructions:
        source.update(ngrams(text_tokens(text), COPY_TOKENS))
        # A short line is below the n-gram length, so a recited reminder needs its own rule.
        for line in text.splitlines():
            tokens = tuple(text_tokens(line))
            if LINE_TOKENS <= len(tokens) < COPY_TOKENS:
                lines.add(tokens)
    for line_tokens in lines:
        if line_tokens in ngrams(words, len(line_tokens)):
            return (
                f'it recites a line of your instructions ("{" ".join(line_tokens)}"); '
                "write your own words, not the prompt's"
            )
    for gram in ngrams(words, COPY_TOKENS):
        if gram in source:
            return (
                f'it copies your instructions ("{" ".join(gram)}"); '
                "write your own words, not the prompt's"
            )
    return None


def repeated_ngram(answer: str) -> str | None:
    """``repetition``: the first 4-gram that occurs twice."""
    gram = first_repeat(text_tokens(answer), REPEAT_TOKENS)
    if gram is None:
        return None
    return f'it repeats itself ("{" ".join(gram)}" twice); say each thing once'


def echoed_line(answer: str, last_lines: Mapping[str, str]) -> str | None:
    """``echo``: the answer repeats another speaker's last line (speaker → that line)."""
    mine = text_tokens(answer)
    if not mine:
        return None
    for speaker, line in last_lines.items():
        theirs = text_tokens(line)
        if not theirs:
            continue
        if mine == theirs:
            return f"it is the same line {speaker} just said; say something of your own"
        short, long_ = (mine, theirs) if len(mine) <= len(theirs) else (theirs, mine)
        if len(short) >= ECHO_MIN_TOKENS and any(
            long_[i : i + len(short)] == short for i in range(len(long_) - len(short) + 1)
        ):
            return f"it repeats {speaker}'s last line; say something of your own"
    return None


def guard(
    answer: str,
    checks: Iterable[TextCheck],
    *,
    instructions: Iterable[str] = (),
    last_lines: Mapping[str, str] | None = None,
) -> str | None:
    """Run the named checks in order; all failing reasons joined, or None when all pass."""
    reasons: list[str] = []
    for check in checks:
        if check == "prompt_copy":
            reason = copied_instructions(answer, instructions)
        elif check == "repetition":
            reason = repeated_ngram(answer)
        else:
            reason = echoed_line(answer, last_lines or {})
        if reason is not None:
            reasons.append(reason)
    return "; ".join(reasons) if reasons else None


def guard_fields(
    value: object,
    paths: Iterable[str],
    checks: Sequence[TextCheck],
    *,
    instructions: Sequence[str] = (),
    last_lines: Mapping[str, str] | None = None,
) -> str | None:
    """Run ``checks`` on every string at ``paths`` in a structured answer; each failing
    field's reasons prefixed by its place ("lines[1].text: it repeats ..."), or None."""
    reasons: list[str] = []
    earlier: dict[str, str] = dict(last_lines or {})
    for place, text in field_texts(value, paths):
        reason = guard(text, checks, instructions=instructions, last_lines=earlier)
        if reason is not None:
            reasons.append(f"{place}: {reason}")
        if "echo" in checks and text.strip():
            earlier[f"your {place}"] = text
    return "; ".join(reasons) if reasons else None

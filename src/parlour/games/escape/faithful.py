"""Faithful narration: the engine checks the narrator's text against what really happened
before anyone reads it, and shows the consequence itself when the text fails.

Rules (the thresholds are the constants below):

1. **An action happened** (``done`` / ``repeat``): the narration must contain every number or
   code of the consequence (any token with a digit) and more than half (``CARRY_SHARE``) of
   its distinct content words (4+ letters, not stop words; matched on their first five
   letters, ``parlour.core.text_rules``); it must not deny it ("no effect", "nothing
   happens", … ``DENIALS``).
2. **A wrong answer**: it must carry more than half of the failure text's content words and
   must not describe progress (``PROGRESS``: "opens", "unlocks", "you escape", …).
3. **Nothing happened**: it must not describe progress, and unless the player looked
   around it must name something of what the player did or of the brief (one content
   word of either; the brief itself, the fallback, keeps this): a narration that talks
   of journeys and planets instead of the player's deed is a story the engine did not
   tell.
4. **Always**: it must not mention a distinctive word of a locked consequence — a word (or
   code) of a consequence not yet unlocked that appears nowhere in what the narrator was
   shown (intro, world, unlocked facts, brief, hint, recent transcript).

5. **Always**: it must not talk *about* the prompt, the instructions or the task instead
   of telling the story. Copying the instructions word for word is caught by the shared
   prompt-copy guard; this rule catches the paraphrase ("Here is a summary of what
   happened. Use just what was mentioned in the brief."). Two lists, both matched on
   whole words: ``META_WORDS``, the prompt's own vocabulary, forbidden anywhere ("the
   brief", "the facts above", "summary", "instructions", "the prompt", "output",
   "narration", "the player typed", "as an AI", "second person", …), and
   ``META_ORDERS``, the second-person imperatives a writer is given, forbidden at the
   start of a sentence only ("Use only …", "Describe …", "Do not invent …", "Never
   mention …"; the same verb inside a sentence, "you describe a circle", is story), plus
   ``you must/should … describe`` anywhere. The lists name the writing task, not the
   story, so a narration in the scene's own words never needs them.

Phrases the brief, hint or the narrator's facts themselves use are never denied (a
consequence may well say "the door opens", a scenario may have a machine's "output").
Rules 1–3 and 5 travel with the decision as ``TextRules`` so the LLM seat retries with
the exact reason; rule 4 is checked only by the game (the reason would name the secret),
which then shows the templated brief instead.
Prompt copying and loops are the shared guards (``seats/text_guard.py``) the narrate
decision opts into.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from parlour.core.text_rules import STEM_LETTERS, Ban, TextRules, text_tokens
from parlour.games.escape.text import STOPWORDS

#: More than this share of the consequence's content words must be carried.
CARRY_SHARE = 0.5
#: Content words are at least this long ("door", "lift"; not "it", "way").
MIN_WORD = 4

DENIALS = (
    "no effect",
    "nothing happens",
    "nothing happened",
    "nothing changes",
    "nothing changed",
    "does not work",
    "doesn't work",
    "did not work",
    "didn't work",
    "in vain",
)
PROGRESS = (
    "opens",
    "swings open",
    "slides open",
    "clicks open",
    "unlocks",
    "unlocked",
    "you escape",
    "you are free",
    "you find",
    "you discover",
    "reveals",
    "succeeded",
    "you succeed",
    "you win",
    "you have won",
    "you made it",
    "congratulations",
)

#: Rule 5: the prompt's vocabulary (the narrator prompt's headers and reminders, and the
#: words a model uses when it answers the task instead of doing it). Forbidden anywhere.
META_WORDS = (
    "the brief",
    "this brief",
    "your brief",
    "brief for this turn",
    "the facts",
    "these facts",
    "facts above",
    "facts below",
    "only facts",
    "standing facts",
    "the information above",
    "the information below",
    "this information",
    "summary",
    "summarize",
    "summarise",
    "summarized",
    "summarised",
    "instruction",
    "instructions",
    "the prompt",
    "this prompt",
    "your prompt",
    "ai",
    "language model",
    "chatbot",
    "hope this helps",
    "the game",
    "this game",
    "your game",
    "my game",
    "your own words",
    "rewritten",
    "rephrased",
    "rephrase",
    "paraphrased",
    "continuation",
    "those facts",
    "additional facts",
    "the user",
    "the player",
    "player typed",
    "output",
    "narration",
    "narrations",
    "narrator",
    "narrate",
    "text adventure",
    "second person",
    "present tense",
    "three sentences",
    "the hint",
    "this hint",
    "your response",
    "my response",
    "here is a reminder",
    "word limit",
    "character limit",
)
#: Verbs of the writing task: as an imperative they address the writer, not the player.
_WRITING_VERBS = (
    "describe",
    "write",
    "narrate",
    "summarize",
    "summarise",
    "mention",
    "include",
    "invent",
    "output",
    "respond",
    "reply",
    "rewrite",
    "paraphrase",
)
#: Rule 5: imperatives to the writer, forbidden at the start of a sentence. "Use" only
#: with "only"/"just" ("Use the key" would be the story's own advice, in a hint).
META_ORDERS = (
    *_WRITING_VERBS,
    *(
        f"{lead} {verb}"
        for lead in ("do not", "don't", "never", "please", "only", "just", "always")
        for verb in (*_WRITING_VERBS, "use")
    ),
    "use only",
    "use just",
    "make sure",
    "stick to",
)
#: Rule 5, anywhere: the task stated to the writer ("you must describe ...").
META_MUSTS = tuple(
    f"you {modal} {verb}"
    for modal in ("must", "should", "need to", "have to", "can only", "may only")
    for verb in (*_WRITING_VERBS, "use only", "use just", "not invent", "not mention")
)
META_WHY = (
    "a narration tells the story; it must not talk about the brief, the facts, the "
    "instructions or the task. Say only what happens, in the scene's own words"
)

_MARKER = re.compile(r"\[\[mk:[^\]]*\]\]")


def _clean(text: str) -> str:
    """Leak markers are test scaffolding, not story text."""
    return _MARKER.sub(" ", text)


def content_words(text: str) -> tuple[str, ...]:
    """Distinct content words in order of first use, numbers excluded."""
    seen: dict[str, None] = {}
    for token in text_tokens(_clean(text)):
        if len(token) >= MIN_WORD and token not in STOPWORDS and not _has_digit(token):
            seen.setdefault(token, None)
    return tuple(seen)


def codes(text: str) -> tuple[str, ...]:
    """Numbers and codes: every distinct token with a digit in it."""
    return tuple(dict.fromkeys(t for t in text_tokens(_clean(text)) if _has_digit(t)))


def _has_digit(token: str) -> bool:
    return any(c.isdigit() for c in token)


def _majority(count: int) -> int:
    return int(count * CARRY_SHARE) + 1 if count else 0


def _allowed(phrases: Iterable[str], said: str) -> tuple[str, ...]:
    """Drop the phrases the given text itself uses (they are facts, not inventions)."""
    # One substring search per phrase, not a slide over every token of a long prompt:
    # tokens are [a-z0-9]+, so single spaces delimit them exactly.
    hay = f" {' '.join(text_tokens(said))} "
    return tuple(p for p in phrases if f" {' '.join(text_tokens(p))} " not in hay)


def meta_ban(shown: str) -> Ban:
    """Rule 5: no talk about the prompt or the task (except words ``shown`` itself uses)."""
    return Ban(
        phrases=_allowed((*META_WORDS, *META_MUSTS), shown),
        openings=_allowed(META_ORDERS, shown),
        why=META_WHY,
    )


def narration_rules(
    kind: str,
    brief: str,
    *,
    wrong: str | None,
    shown: str,
    deed: str = "",
    story: str | None = None,
) -> TextRules:
    """Rules 1–3 and 5 for a turn whose outcome is ``kind``; ``shown`` is everything the
    narrator was given (brief, hint, facts, transcript), whose own phrases are never
    denied; ``deed``: the player's message on a turn where nothing happened ("" when the
    player looked around, where describing the place is the point); ``story``: the part
    of ``shown`` that is story rather than instructions (default all of it), whose words
    rule 5 allows."""
    bans = (meta_ban(shown if story is None else story),)
    if kind in ("done", "repeat"):
        words = content_words(brief)
        return TextRules(
            subject="what happened",
            require=codes(brief),
            words=words,
            min_words=_majority(len(words)),
            deny=_allowed(DENIALS, shown),
            deny_why="the action happened; tell what it did",
            bans=bans,
        )
    progress = _allowed(PROGRESS, shown)
    why = "nothing changed this turn; do not describe progress"
    if kind == "wrong_answer" and wrong:
        words = content_words(wrong)
        return TextRules(
            subject="why the attempt failed",
            words=words,
            min_words=_majority(len(words)),
            deny=progress,
            deny_why=why,
            bans=bans,
        )
    # The deed's words, or the brief's own ("no effect on the story"): the brief itself,
    # which is what the fallback shows, must keep the rule too.
    words = content_words(f"{deed} {brief}") if deed else ()
    return TextRules(
        subject="what the player did or the brief",
        words=words,
        min_words=1 if words else 0,
        deny=progress,
        deny_why=why,
        bans=bans,
    )


def _stem(word: str) -> str:
    return word[:STEM_LETTERS]


def locked_words(locked: Iterable[str], shown: str) -> frozenset[str]:
    """Stems of the words and codes of locked consequences the narrator was never shown."""
    seen = {_stem(t) for t in text_tokens(_clean(shown))}
    out: set[str] = set()
    for consequence in locked:
        for word in (*content_words(consequence), *codes(consequence)):
            if _stem(word) not in seen and word not in STOPWORDS:
                out.add(_stem(word))
    return frozenset(out)


def mentions_locked(text: str, locked: frozenset[str]) -> bool:
    """Rule 4: the text uses a distinctive word of a locked consequence."""
    return any(_stem(t) in locked for t in text_tokens(text) if len(t) >= MIN_WORD or t.isdigit())


def templated(brief: str, hint: str | None, limit: int) -> str:
    """The fallback narration: the brief itself, with the hint when there is one."""
    text = f"{brief} (Perhaps: {hint})" if hint else brief
    return clip(text, limit)


def clip(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    stop = cut.rfind(". ")
    return (cut[: stop + 1] if stop > limit // 2 else cut.rstrip()) or cut

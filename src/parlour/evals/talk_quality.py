"""What a person reads: four defects of spoken lines, as pure functions on text.

A *line* is one free-text thing a seat said (a werewolf speech, a wolf-chat message, a
diary entry). Each metric states its rule here so a figure measured with it means one
thing; ``benchmarks/embedded_game_quality.py`` applies them to stored games.

Tokens (shared by every rule): the line lower-cased, split into runs of ``[a-z0-9']``;
punctuation, markup and whitespace are not tokens. So "Stay. Stay." is ``stay stay``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from parlour.core.events import Event
from parlour.core.text_rules import first_repeat, ngrams, talk_tokens

_SENTENCE_END = re.compile(r"[.!?\n;]+")
_QUOTED_SPEECH = re.compile(r"<speech\b[^>]*>.*?</speech>", re.DOTALL)

#: Words that put a sentence about a dead player in the past: with one of these in the
#: same sentence, naming the dead is talking *about* them, not treating them as alive.
DEATH_CUES: frozenset[str] = frozenset(
    {
        "dead",
        "died",
        "death",
        "killed",
        "murdered",
        "eliminated",
        "lynched",
        "executed",
        "attacked",
        "late",
        "gone",
        "lost",
        "body",
        "rip",
        "was",
        "were",
        "had",
    }
)


def tokens(text: str) -> list[str]:
    """The line's tokens (see the module docstring)."""
    return talk_tokens(text)


def repeated_ngram(line: str, n: int = 4) -> tuple[str, ...] | None:
    """The first ``n``-gram of tokens that occurs at two different positions of the line
    (overlapping occurrences count: "stay stay stay stay stay" repeats ``stay ×4``), or
    None when every ``n``-gram of the line is unique."""
    return first_repeat(tokens(line), n)


def prompt_copy(line: str, prompt: str, n: int = 8) -> tuple[str, ...] | None:
    """The first run of ``n`` consecutive line tokens that also occurs as ``n``
    consecutive tokens of ``prompt`` (the text of every message of the model call that
    produced the line: instructions, records, transcript, the seat's earlier answers),
    or None when the line shares no such run with its prompt."""
    grams = set(ngrams(tokens(prompt), n))
    for gram in ngrams(tokens(line), n):
        if gram in grams:
            return gram
    return None


def instruction_text(messages: Sequence[Mapping[str, object]]) -> str:
    """The game's own words in a call's messages: the ``system`` and ``user`` messages
    with every quoted ``<speech ...>...</speech>`` span removed (what other players said
    is not an instruction) and without ``assistant`` messages (the seat's own earlier
    answers). A line copying this text copied the rules, records or command."""
    kept = [
        _QUOTED_SPEECH.sub(" ", str(m.get("content", "")))
        for m in messages
        if m.get("role") in ("system", "user")
    ]
    return "\n".join(kept)


def _mentions(sentence: str, name: str) -> bool:
    # Case-sensitive whole word: player names are capitalised, and "maya" inside another
    # word, or a lower-case common word that happens to be a name, is not a mention.
    return re.search(rf"(?<![A-Za-z']){re.escape(name)}(?![A-Za-z'])", sentence) is not None


def names_as_if_alive(line: str, dead: Iterable[str], absent: Iterable[str]) -> list[str]:
    """The players the line names as if they were alive and at the table, in the order
    first found.

    The rule: the line is cut into sentences at ``. ! ? ; newline``. A name from
    ``absent`` (a name the game could have seated but did not: not a player of this
    game) counts wherever it appears, case-sensitive as a whole word. A name from
    ``dead`` (players whose death was announced before the line was said) counts when
    it appears in a sentence that contains none of ``DEATH_CUES`` as a token: "Tomas
    was found dead" is about a death, "I suspect Tomas" treats him as alive. Living
    players are never counted.
    """
    found: list[str] = []
    sentences = [s for s in _SENTENCE_END.split(line) if s.strip()]
    for name in absent:
        if any(_mentions(s, name) for s in sentences) and name not in found:
            found.append(name)
    for name in dead:
        for sentence in sentences:
            if _mentions(sentence, name) and not DEATH_CUES.intersection(tokens(sentence)):
                if name not in found:
                    found.append(name)
                break
    return found


def identical_to_other_seat(lines: Sequence[tuple[str, str]]) -> list[bool]:
    """For each ``(seat, text)`` line: whether another seat said the same tokens (the
    whole line, before or after it, in the same game). A line with no tokens is never
    identical: silence is not copying."""
    return _another_voice(lines, lambda text: tuple(tokens(text)) or None)


def _another_voice(
    lines: Sequence[tuple[str, str]], key: Callable[[str], tuple[str, ...] | None]
) -> list[bool]:
    """For each ``(voice, text)`` line: whether a line of another voice (before or after
    it) has the same ``key`` (a line whose key is None matches nothing)."""
    voices: dict[tuple[str, ...], set[str]] = {}
    keys = [key(text) for _, text in lines]
    for (voice, _), k in zip(lines, keys, strict=True):
        if k is not None:
            voices.setdefault(k, set()).add(voice)
    return [
        k is not None and len(voices[k] - {voice}) > 0
        for (voice, _), k in zip(lines, keys, strict=True)
    ]


@dataclass(frozen=True)
class Line:
    """One spoken line with what the rules need to judge it."""

    seq: int
    kind: str
    seat: str
    text: str
    prompt: str | None  # the messages of the call that produced it; None if unknown
    instructions: str | None  # ``instruction_text`` of those messages; None if unknown
    dead: tuple[str, ...]  # names of players dead when it was said
    absent: tuple[str, ...]  # names not seated in this game


def spoken_line(
    event: Event,
    prompt: str | None,
    instructions: str | None,
    dead: Sequence[str],
    absent: tuple[str, ...],
) -> Line:
    """The ``Line`` of a spoken event, with the dead as they stood when it was said."""
    return Line(
        event.seq, event.kind, event.speaker, event.text, prompt, instructions, tuple(dead), absent
    )


def deaths(event: Event, names: Mapping[str, str]) -> list[str]:
    """The names of the players an event says died (its data's ``dead`` and ``eliminated``)."""
    out = [names.get(who, who) for who in event.data.get("dead") or []]
    if event.data.get("eliminated"):
        out.append(names.get(event.data["eliminated"], event.data["eliminated"]))
    return out


@dataclass(frozen=True)
class LineScore:
    line: Line
    repeated: tuple[str, ...] | None
    copied: tuple[str, ...] | None
    copied_instructions: tuple[str, ...] | None
    as_if_alive: tuple[str, ...]
    identical: bool


def score_lines(lines: Sequence[Line]) -> list[LineScore]:
    """Every metric on every non-empty line (empty lines, a seat staying quiet, are left
    out: they are not spoken)."""
    spoken = [ln for ln in lines if tokens(ln.text)]
    same = identical_to_other_seat([(ln.seat, ln.text) for ln in spoken])
    return [
        LineScore(
            line=ln,
            repeated=repeated_ngram(ln.text),
            copied=prompt_copy(ln.text, ln.prompt) if ln.prompt is not None else None,
            copied_instructions=(
                prompt_copy(ln.text, ln.instructions) if ln.instructions is not None else None
            ),
            as_if_alive=tuple(names_as_if_alive(ln.text, ln.dead, ln.absent)),
            identical=ident,
        )
        for ln, ident in zip(spoken, same, strict=True)
    ]


@dataclass(frozen=True)
class Shares:
    """Counts of lines with each defect, out of ``lines`` spoken lines."""

    lines: int
    repeated: int
    copied: int
    copied_instructions: int
    as_if_alive: int
    identical: int

    def share(self, count: int) -> float:
        return count / self.lines if self.lines else 0.0


def shares(scores: Sequence[LineScore]) -> Shares:
    return Shares(
        lines=len(scores),
        repeated=sum(s.repeated is not None for s in scores),
        copied=sum(s.copied is not None for s in scores),
        copied_instructions=sum(s.copied_instructions is not None for s in scores),
        as_if_alive=sum(bool(s.as_if_alive) for s in scores),
        identical=sum(s.identical for s in scores),
    )


# -- one measure for every game (issue 30) ---------------------------------------------
#
# A game hands its talk over as ``core.metrics.TalkLine``s (``GameMetrics.talk``): the
# lines a person reads, each with the seat whose answer wrote it and the voice that says
# it. The measure below knows no game; ``evals/talk_games.py`` reads stored games into it.

#: A line's opener: its first this many tokens.
OPENER_TOKENS = 3

_TAG = re.compile(r"</?[A-Za-z|/!][^<>\n]{0,60}>|<\||\|>|\[/?INST\]", re.IGNORECASE)
_MARKUP = re.compile(r"\*\*|__|`|[{}]|\[\[|\]\]|^\s*#{1,6}\s|^\s*[-*•]\s", re.MULTILINE)
#: A speaker label opening the line: one to four capitalised words and a colon ("Chat:",
#: "Priya Okafor:"), the frame of a transcript or a prompt rather than a person's words.
_LABEL = re.compile(r"^\s*[A-Z][A-Za-z.'’-]*(?: [A-Z][A-Za-z.'’-]*){0,3}:(?:\s|$)")
#: What a whole sentence (or a quoted one) may end with.
_ENDINGS = (".", "!", "?", "…", '"', "”", "’", "'", ")")

#: The kinds of debris, in the order they are reported.
DEBRIS_KINDS = ("empty", "tag", "markup", "label", "instructions", "cut-off")


def debris(text: str, instructions: str | None = None, *, sentence: bool = True) -> list[str]:
    """What of ``text`` should never reach a person, as ``DEBRIS_KINDS`` names:

    - ``empty``: no token at all (a speaker shown saying nothing);
    - ``tag``: an angle-bracket tag (``<speech>``, ``</s>``), a chat-template token
      (``<|``, ``|>``) or ``[INST]``;
    - ``markup``: ``**``, ``__``, a backtick, a brace, ``[[`` / ``]]``, a heading ``#``
      or a list bullet at a line's start;
    - ``label``: the line opens with a speaker label, one to four capitalised words and a
      colon ("Chat: …", "Priya Okafor: …");
    - ``instructions``: 8 consecutive tokens of the game's own words in the call that
      produced it (``instruction_text``; checked only when they are known);
    - ``cut-off``: the line does not end a sentence (its last character is none of
      ``. ! ? … " ” ’ ' )``), so its last word may be cut; checked only when ``sentence``
      (a model's prose: a template or a phrase the game frames is no cut word).
    """
    if not tokens(text):
        return ["empty"]
    found: list[str] = []
    if _TAG.search(text):
        found.append("tag")
    if _MARKUP.search(text):
        found.append("markup")
    if _LABEL.match(text):
        found.append("label")
    if instructions is not None and prompt_copy(text, instructions) is not None:
        found.append("instructions")
    if sentence and not text.rstrip().endswith(_ENDINGS):
        found.append("cut-off")
    return found


def repeated_in_game(texts: Sequence[str], n: int = 4) -> list[tuple[str, ...] | None]:
    """For each line (in the order said): the first ``n``-gram of it that was already
    said in the game, in an earlier line (any seat) or earlier in the same line; None
    when all its ``n``-grams are new. The first saying of a phrase is not a repeat, the
    second is."""
    said: set[tuple[str, ...]] = set()
    out: list[tuple[str, ...] | None] = []
    for text in texts:
        first: tuple[str, ...] | None = None
        for gram in ngrams(tokens(text), n):
            if first is None and gram in said:
                first = gram
            said.add(gram)
        out.append(first)
    return out


def opener(text: str) -> tuple[str, ...] | None:
    """The line's first ``OPENER_TOKENS`` tokens, or None when it is shorter."""
    toks = tokens(text)
    return tuple(toks[:OPENER_TOKENS]) if len(toks) >= OPENER_TOKENS else None


def shared_openers(lines: Sequence[tuple[str, str]]) -> list[bool]:
    """For each ``(voice, text)`` line: whether a line of another voice in the same game
    (before or after it) opens with the same ``OPENER_TOKENS`` tokens."""
    return _another_voice(lines, opener)


@dataclass(frozen=True)
class Answer:
    """A stored answer a line may have come from: its seat, decision, the texts in it
    (a free text, a choice's reason, every string of a structured answer), whether it was
    a choice, whether the fallback policy gave it, the game's words of the call that
    produced it, and whether a model wrote it (a valid model call answered the decision;
    not a scripted seat, a person or the fallback)."""

    seat: str
    decision_id: str
    texts: tuple[str, ...]
    choice: bool
    fallback: bool
    instructions: str | None
    model: bool = True


@dataclass(frozen=True)
class TalkScore:
    seq: int
    seat: str
    voice: str
    text: str
    repeated: tuple[str, ...] | None
    shared_opener: bool
    #: written by the fallback policy; None when no stored answer was found for it
    fallback: bool | None
    debris: tuple[str, ...]


def _contains(haystack: Sequence[str], needle: Sequence[str]) -> bool:
    n = len(needle)
    return any(list(haystack[i : i + n]) == list(needle) for i in range(len(haystack) - n + 1))


def link_answers(
    lines: Sequence[tuple[str, str, str]], answers: Sequence[Answer]
) -> list[Answer | None]:
    """For each ``(seat, text, rendered_from)`` line: the stored answer that wrote it.

    A line of the answer's own words comes from an answer of the same seat whose texts
    hold the line's tokens as one run; a rendered line (``rendered_from`` not empty)
    from a choice of the same seat whose decision id contains ``rendered_from``. Answers
    are searched in stored order from the seat's last linked answer on (one answer may
    write several lines), then from the start; a rendered line's choice is used once."""
    token_texts = [[tokens(t) for t in a.texts] for a in answers]
    cursor: dict[str, int] = {}
    used: set[int] = set()
    out: list[Answer | None] = []
    for seat, text, rendered_from in lines:
        want = tokens(text)
        start = cursor.get(seat, 0)
        order = [*range(start, len(answers)), *range(0, start)]
        found: int | None = None
        for i in order:
            a = answers[i]
            if a.seat != seat:
                continue
            if rendered_from:
                if a.choice and rendered_from in a.decision_id and i not in used:
                    found = i
                    used.add(i)
                    break
            elif want and any(_contains(t, want) for t in token_texts[i]):
                found = i
                break
        if found is not None:
            cursor[seat] = found
        out.append(answers[found] if found is not None else None)
    return out


def score_talk(
    lines: Sequence[tuple[int, str, str, str, str]],
    answers: Sequence[Answer],
    phrases: Sequence[bool] | None = None,
) -> list[TalkScore]:
    """Every rule on every ``(seq, seat, voice, text, rendered_from)`` line of one game.
    Instruction copies and cut-off words are looked for only in lines a model wrote (not
    a scripted seat's, a person's, the fallback policy's nor a rendered act's: the game's
    own words may carry the prompt's, and a template is not cut), and cut-off words not in
    ``phrases`` (a clause the game frames, e.g. a check's reason)."""
    linked = link_answers([(s, t, r) for _, s, _, t, r in lines], answers)
    repeats = repeated_in_game([t for *_, t, _ in lines])
    openers = shared_openers([(v, t) for _, _, v, t, _ in lines])
    phrased = list(phrases) if phrases is not None else [False] * len(lines)
    out: list[TalkScore] = []
    for (seq, seat, voice, text, rendered), answer, rep, shared, phrase in zip(
        lines, linked, repeats, openers, phrased, strict=True
    ):
        written = answer is not None and answer.model and not answer.fallback and not rendered
        instructions = answer.instructions if written and answer is not None else None
        out.append(
            TalkScore(
                seq,
                seat,
                voice,
                text,
                rep,
                shared,
                None if answer is None else answer.fallback,
                tuple(debris(text, instructions, sentence=written and not phrase)),
            )
        )
    return out


@dataclass(frozen=True)
class TalkReport:
    """One game's talk: counts of lines with each defect, out of ``lines``."""

    game_id: str
    game: str
    lines: int
    repeated: int
    shared_openers: int
    fallback: int
    unlinked: int  # lines no stored answer was found for (fallback unknown)
    debris: int  # lines with any debris
    debris_by_kind: dict[str, int]

    def share(self, count: int) -> float:
        return count / self.lines if self.lines else 0.0


def report(game_id: str, game: str, scores: Sequence[TalkScore]) -> TalkReport:
    kinds = {k: sum(k in s.debris for s in scores) for k in DEBRIS_KINDS}
    return TalkReport(
        game_id=game_id,
        game=game,
        lines=len(scores),
        repeated=sum(s.repeated is not None for s in scores),
        shared_openers=sum(s.shared_opener for s in scores),
        fallback=sum(s.fallback is True for s in scores),
        unlinked=sum(s.fallback is None for s in scores),
        debris=sum(bool(s.debris) for s in scores),
        debris_by_kind={k: n for k, n in kinds.items() if n},
    )

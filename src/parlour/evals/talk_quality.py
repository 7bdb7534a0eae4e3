"""What a person reads: four defects of spoken lines, as pure functions on text.

A *line* is one free-text thing a seat said (a werewolf speech, a wolf-chat message, a
diary entry). Each metric states its rule here so a figure measured with it means one
thing; ``benchmarks/embedded_game_quality.py`` applies them to stored games.

Tokens (shared by every rule): the line lower-cased, split into runs of ``[a-z0-9']``;
punctuation, markup and whitespace are not tokens. So "Stay. Stay." is ``stay stay``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from parlour.core.events import Event

_TOKEN = re.compile(r"[a-z0-9']+")
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
    return _TOKEN.findall(text.lower())


def _ngrams(toks: Sequence[str], n: int) -> list[tuple[str, ...]]:
    return [tuple(toks[i : i + n]) for i in range(len(toks) - n + 1)]


def repeated_ngram(line: str, n: int = 4) -> tuple[str, ...] | None:
    """The first ``n``-gram of tokens that occurs at two different positions of the line
    (overlapping occurrences count: "stay stay stay stay stay" repeats ``stay ×4``), or
    None when every ``n``-gram of the line is unique."""
    seen: set[tuple[str, ...]] = set()
    for gram in _ngrams(tokens(line), n):
        if gram in seen:
            return gram
        seen.add(gram)
    return None


def prompt_copy(line: str, prompt: str, n: int = 8) -> tuple[str, ...] | None:
    """The first run of ``n`` consecutive line tokens that also occurs as ``n``
    consecutive tokens of ``prompt`` (the text of every message of the model call that
    produced the line: instructions, records, transcript, the seat's earlier answers),
    or None when the line shares no such run with its prompt."""
    grams = set(_ngrams(tokens(prompt), n))
    for gram in _ngrams(tokens(line), n):
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
    seats_by_text: dict[tuple[str, ...], set[str]] = {}
    keys = [tuple(tokens(text)) for _, text in lines]
    for (seat, _), key in zip(lines, keys, strict=True):
        seats_by_text.setdefault(key, set()).add(seat)
    return [
        bool(key) and len(seats_by_text[key] - {seat}) > 0
        for (seat, _), key in zip(lines, keys, strict=True)
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

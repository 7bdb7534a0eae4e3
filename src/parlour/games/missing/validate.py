"""The town validator: coded problems with the file and line a designer should fix.

Errors make a town unplayable; warnings are things a designer probably did not mean
(the shipped full town keeps none). ``validate_file`` is what ``parlour missing validate``
runs: exit 0 without errors, 1 with errors, 2 when the file cannot be read at all.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from parlour.core.designer_check import (
    EXIT_UNREADABLE,
    exit_code,
    placeholders,
)
from parlour.core.designer_check import (
    format_problems as format_problems,  # re-exported for the CLI
)
from parlour.core.safe_yaml import LinedData
from parlour.games.missing.loader import load_town
from parlour.games.missing.town import CARD_SLOTS, Town, TownError

#: Messages are text messages: a story card or clue longer than this is hard to read.
MAX_CARD_CHARS = 400
MIN_PLAYERS = 3

CODES: dict[str, str] = {
    "E000": "the file cannot be read or parsed (names file, line and key)",
    "E001": "an id is used twice (characters, suspects, locations, clues, endings)",
    "E002": "too few characters (3 needed), or no suspect, location or relationship prompt",
    "E003": "a story card is addressed to an unknown character",
    "E004": "a story card's mark is off the clock, or not exactly one final card, last",
    "E005": "an ending needs an unknown clue, or more clues than it lists",
    "E006": "the last ending must need nothing (it is what happens when little was found)",
    "E007": "a location has no clue to find",
    "E008": "a relationship prompt does not name {other}",
    "E009": "a story card (not the final one) has no 'about' words to check the answer",
    "E010": "a story card names an unknown slot (slots: friend, player, suspect, place, found)",
    "E011": "a clue's available_at mark is off the clock",
    "W001": "fewer than the recommended 5 suspects, 5 locations, 6 characters, 10 prompts",
    "W002": "a clue no ending counts",
    "W003": "two story cards fire at the same minute",
    "W004": "a story card or clue is longer than a text message should be",
}


Path_ = tuple[str | int, ...]


class Problem(BaseModel):
    model_config = ConfigDict(frozen=True)

    code: str
    severity: Literal["error", "warning"]
    message: str
    file: str = ""
    line: int = 0

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}: " if self.file else ""
        return f"{where}{self.code} {self.severity}: {self.message}"


class _Found:
    def __init__(self, lined: LinedData | None, file: str) -> None:
        self.lined = lined
        self.file = file
        self.problems: list[Problem] = []

    def add(self, code: str, message: str, path: Path_ = ()) -> None:
        line = self.lined.line_of(path) if self.lined is not None else 0
        severity: Literal["error", "warning"] = "error" if code.startswith("E") else "warning"
        self.problems.append(
            Problem(code=code, severity=severity, message=message, file=self.file, line=line)
        )


def validate(
    town: Town, lined: LinedData | None = None, file: str = "", *, warnings: bool = True
) -> list[Problem]:
    """Every problem, errors first, each group in file order."""
    found = _Found(lined, file)
    _ids(town, found)
    _counts(town, found)
    _cards(town, found)
    _endings(town, found)
    for n, prompt in enumerate(town.relationships):
        if "{other}" not in prompt:
            found.add(
                "E008", f"relationship prompt {n + 1} does not name {{other}}", ("relationships", n)
            )
    problems = found.problems
    if not warnings:
        problems = [p for p in problems if p.severity == "error"]
    return sorted(problems, key=lambda p: (p.severity != "error", p.line, p.code))


def _ids(town: Town, found: _Found) -> None:
    groups: list[tuple[str, list[tuple[str, Path_]]]] = [
        ("character", [(c.id, ("characters", n)) for n, c in enumerate(town.characters)]),
        ("suspect", [(s.id, ("suspects", n)) for n, s in enumerate(town.suspects)]),
        ("location", [(loc.id, ("locations", n)) for n, loc in enumerate(town.locations)]),
        (
            "clue",
            [
                (c.id, ("locations", n, "clues", k))
                for n, loc in enumerate(town.locations)
                for k, c in enumerate(loc.clues)
            ],
        ),
        ("ending", [(e.id, ("endings", n)) for n, e in enumerate(town.endings)]),
    ]
    for what, items in groups:
        seen: set[str] = set()
        for ident, path in items:
            if ident in seen:
                found.add("E001", f"{what} id '{ident}' is used twice", (*path, "id"))
            seen.add(ident)


def _counts(town: Town, found: _Found) -> None:
    if len(town.characters) < MIN_PLAYERS:
        found.add(
            "E002",
            f"{len(town.characters)} characters; a game needs at least {MIN_PLAYERS}",
            ("characters",),
        )
    for key in ("suspects", "locations", "relationships", "endings"):
        if not getattr(town, key):
            found.add("E002", f"no {key}; add at least one", (key,))
    for key, want in (("suspects", 5), ("locations", 5), ("characters", 6), ("relationships", 10)):
        have = len(getattr(town, key))
        if 0 < have < want:
            found.add("W001", f"{have} {key}; {want} are recommended for a full game", (key,))
    for n, loc in enumerate(town.locations):
        if not loc.clues:
            found.add("E007", f"location '{loc.id}' has no clues", ("locations", n))
        _handles(f"location '{loc.id}'", loc.name, loc.handles, ("locations", n), found)
        for k, clue in enumerate(loc.clues):
            path: Path_ = ("locations", n, "clues", k)
            _handles(f"clue '{clue.id}'", clue.title, clue.handles, path, found)
            if clue.available_at is not None and not 0 < clue.available_at <= town.minutes:
                found.add(
                    "E011",
                    f"clue '{clue.id}' is available at {clue.available_at:g} minutes left, "
                    f"off a {town.minutes}-minute clock",
                    ("locations", n, "clues", k, "available_at"),
                )
            if len(clue.text) > MAX_CARD_CHARS:
                found.add(
                    "W004",
                    f"clue '{clue.id}' is {len(clue.text)} characters "
                    f"(keep it under {MAX_CARD_CHARS})",
                    ("locations", n, "clues", k, "text"),
                )


def _handles(what: str, full: str, handles: tuple[str, ...], path: Path_, found: _Found) -> None:
    """A handle is another way to say the name or title: an empty one, the name itself, or
    one given twice adds no way."""
    seen = {full.casefold()}
    for n, handle in enumerate(handles):
        if not handle.strip() or handle.casefold() in seen:
            found.add(
                "W005",
                f"{what}: handle '{handle}' is empty, its own name or given twice",
                (*path, "handles", n),
            )
        seen.add(handle.casefold())


def _cards(town: Town, found: _Found) -> None:
    characters = {c.id for c in town.characters}
    finals = [n for n, c in enumerate(town.story_cards) if c.final]
    if len(finals) != 1:
        found.add(
            "E004",
            f"{len(finals)} final story cards; exactly one must have final: true",
            ("story_cards",),
        )
    marks: dict[float, int] = {}
    for n, card in enumerate(town.story_cards):
        path: Path_ = ("story_cards", n)
        if card.to not in characters:
            found.add(
                "E003",
                f"story card {n + 1} is addressed to unknown character "
                f"'{card.to}'; characters: {', '.join(sorted(characters))}",
                (*path, "to"),
            )
        if not 0 < card.at < town.minutes:
            found.add(
                "E004",
                f"story card {n + 1} fires at {card.at:g} minutes left, off a "
                f"{town.minutes}-minute clock",
                (*path, "at"),
            )
        if card.final and any(other.at < card.at for other in town.story_cards):
            found.add("E004", "the final card must fire last (fewest minutes left)", (*path, "at"))
        if not card.final and not card.about:
            found.add("E009", f"story card {n + 1} has no 'about' words", path)
        if card.at in marks:
            found.add(
                "W003",
                f"story cards {marks[card.at] + 1} and {n + 1} both fire at {card.at:g}",
                (*path, "at"),
            )
        marks.setdefault(card.at, n)
        if len(card.prompt) > MAX_CARD_CHARS:
            found.add(
                "W004", f"story card {n + 1} is {len(card.prompt)} characters", (*path, "prompt")
            )
        for key, texts in (("prompt", (card.prompt,)), ("about", card.about)):
            bad = sorted({slot for text in texts for slot in placeholders(text)} - set(CARD_SLOTS))
            if bad:
                found.add(
                    "E010",
                    f"story card {n + 1} names unknown slot(s) {', '.join(bad)}; slots: "
                    f"{', '.join(CARD_SLOTS)} (write a literal brace as {{{{ or }}}})",
                    (*path, key),
                )


def _endings(town: Town, found: _Found) -> None:
    clues = {c.id for loc in town.locations for c in loc.clues}
    counted: set[str] = set()
    for n, ending in enumerate(town.endings):
        path: Path_ = ("endings", n)
        unknown = [c for c in ending.needs if c not in clues]
        if unknown:
            found.add(
                "E005",
                f"ending '{ending.id}' needs unknown clue(s) {', '.join(unknown)}",
                (*path, "needs"),
            )
        if ending.min_found > len(ending.needs):
            found.add(
                "E005",
                f"ending '{ending.id}' needs {ending.min_found} of {len(ending.needs)} clues",
                (*path, "min_found"),
            )
        counted.update(ending.needs)
    if town.endings and town.endings[-1].min_found > 0:
        found.add(
            "E006",
            f"the last ending '{town.endings[-1].id}' needs clues; make it "
            "min_found: 0 so every game has an ending",
            ("endings", len(town.endings) - 1),
        )
    for n, loc in enumerate(town.locations):
        for k, clue in enumerate(loc.clues):
            if clue.id not in counted:
                found.add(
                    "W002",
                    f"clue '{clue.id}' counts toward no ending",
                    ("locations", n, "clues", k),
                )


def validate_file(path: str | Path, *, strict: bool = False) -> tuple[list[Problem], int]:
    try:
        loaded = load_town(path)
    except TownError as err:
        return [Problem(code="E000", severity="error", message=str(err))], EXIT_UNREADABLE
    problems = validate(loaded.town, loaded.lined, loaded.file)
    return problems, exit_code(problems, strict=strict)

"""Thin helpers so the CLI can wire ``parlour escape validate`` and ``parlour escape graph``
without knowing the package's insides."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from parlour.core.designer_check import (
    EXIT_ERRORS,
    EXIT_OK,
    EXIT_UNREADABLE,
    exit_code,
    format_problems,
)
from parlour.core.events import Event
from parlour.games.escape.graph import FORMATS, render
from parlour.games.escape.hints import player_way, shortest_good_way
from parlour.games.escape.loader import load_scenario
from parlour.games.escape.scenario import ScenarioError
from parlour.games.escape.validate import Problem, validate

__all__ = [
    "EXIT_ERRORS",
    "EXIT_OK",
    "EXIT_UNREADABLE",
    "done_from_events",
    "format_problems",
    "game_over",
    "render_file",
    "validate_file",
    "ways",
]


def validate_file(
    path: str | Path, *, max_turns: int | None = None, strict: bool = False
) -> tuple[list[Problem], int]:
    """Problems of a scenario file (or shipped name) and the exit code to use.

    0: no errors (warnings allowed unless ``strict``); 1: errors (or warnings when
    ``strict``); 2: the file could not be read or parsed (one ``E000`` problem naming file,
    line and key).
    """
    try:
        scenario = load_scenario(path)
    except ScenarioError as err:
        return [Problem(code="E000", severity="error", message=str(err))], EXIT_UNREADABLE
    problems = validate(scenario, max_turns=max_turns)
    return problems, exit_code(problems, strict=strict)


def done_from_events(events: Iterable[Event]) -> set[str]:
    """The done set of a saved game, from its stored events (the engine's outcome records)."""
    return {
        str(e.data["action"])
        for e in events
        if e.kind == "outcome" and e.data.get("kind") == "done" and e.data.get("action")
    }


def game_over(events: Iterable[Event]) -> bool:
    """Whether a saved game has ended (its ending event is stored)."""
    return any(e.kind == "ending" for e in events)


def render_file(
    path: str | Path, fmt: str = "mermaid", done: set[str] | None = None, finished: bool = False
) -> str:
    """The graph of a scenario file in ``fmt`` (mermaid, dot or svg); raises ScenarioError."""
    if fmt not in FORMATS:
        raise ScenarioError(f"unknown graph format '{fmt}'; choose one of: {', '.join(FORMATS)}")
    return render(load_scenario(path), fmt, done, finished)


def ways(path: str | Path) -> str | None:
    """One line for a designer: how long the shortest good ending is for the walkthrough
    bot, which knows every answer, and for a player, who must find them first (clues
    counted; the way hints follow). ``None`` when the file cannot be read or no good ending
    can happen."""
    try:
        scenario = load_scenario(path)
    except ScenarioError:
        return None
    bot, player = shortest_good_way(scenario), player_way(scenario)
    if not bot:
        return None
    found = "" if player == bot else f"; {len(player)} for a player who must find the answers"
    shown = player if len(player) <= WAY_SHOWN else [*player[: WAY_SHOWN - 1], "…", player[-1]]
    return (
        f"shortest good ending: {len(bot)} turns knowing the answers{found} ({' → '.join(shown)})"
    )


#: Steps of the player's way that ``ways`` names (a generated room's way can be hundreds).
WAY_SHOWN = 15

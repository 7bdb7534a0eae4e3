"""Colours and labels shared by every graph format (so svg.py and graph.py do not import
each other)."""

from __future__ import annotations

from dataclasses import dataclass

from parlour.games.escape.availability import naive_available
from parlour.games.escape.scenario import Scenario, ScenarioAction


@dataclass(frozen=True)
class Style:
    fill: str
    stroke: str
    label: str


STYLES: dict[str, Style] = {
    "done": Style("#c7e9c0", "#238b45", "done"),
    "available": Style("#fff3b0", "#d4a017", "available now"),
    "locked": Style("#e5e5e5", "#8c8c8c", "locked"),
    "unreached": Style("#f4f4f4", "#b3b3b3", "not reached (game over)"),
    "plain": Style("#eef3fb", "#4a6fa5", "action"),
    "answer": Style("#e8e1f7", "#6a4c93", "needs an answer"),
    "repeatable": Style("#e0f2f1", "#2a9d8f", "repeatable"),
    "good": Style("#c7e9c0", "#238b45", "good ending"),
    "bad": Style("#f8c9c4", "#c0392b", "bad ending"),
}


def status_of(scenario: Scenario, done: set[str] | None, finished: bool = False) -> dict[str, str]:
    """Style key per action id. After the game's end nothing is "available now": what
    was not done was not reached."""
    if done is None:
        return {a.id: _kind(a) for a in scenario.actions}
    if finished:
        return {a.id: "done" if a.id in done else "unreached" for a in scenario.actions}
    available = set(naive_available(scenario, done))
    return {
        a.id: "done" if a.id in done else "available" if a.id in available else "locked"
        for a in scenario.actions
    }


def _kind(action: ScenarioAction) -> str:
    if action.ends_game:
        return "good" if action.good else "bad"
    if action.answer is not None:
        return "answer"
    return "repeatable" if action.repeatable else "plain"


def short(text: str, limit: int = 48) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def tags(action: ScenarioAction) -> str:
    """Small textual badges: ending label, answer, repeatable."""
    out = []
    if action.ends_game:
        out.append(f"ends: {action.ending_label}")
    if action.answer is not None:
        out.append("answer")
    if action.repeatable:
        out.append("repeatable")
    return ", ".join(out)

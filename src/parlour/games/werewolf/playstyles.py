"""Playstyles: how a character talks and pushes, with a villager and a werewolf version.

A playstyle only shapes voice and social behaviour. Votes and accusations still come from
the strategy layer (voting records, contradictions, behaviour in this game).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Playstyle(StrEnum):
    PROVOKER = "provoker"
    GUARDIAN = "guardian"
    TRICKSTER = "trickster"
    MAVERICK = "maverick"
    MOUSE = "mouse"
    STEADY = "steady"
    ANALYST = "analyst"


@dataclass(frozen=True)
class Style:
    title: str
    motivation: str  # second person: "you ..."
    villager: str
    werewolf: str


STYLES: dict[Playstyle, Style] = {
    Playstyle.PROVOKER: Style(
        title="aggressive provoker",
        motivation="believe pressure makes liars slip, and enjoy the drama",
        villager="Push hard on the player whose story fits the records worst; ask blunt, "
        "direct questions and demand answers.",
        werewolf="Lead loud accusations against a villager so the table argues about them "
        "instead of you; never defend a packmate openly.",
    ),
    Playstyle.GUARDIAN: Style(
        title="protective team player",
        motivation="care most that the group survives together",
        villager="Defend players the records clear, rally people behind careful votes, and "
        "call out reckless bandwagons.",
        werewolf="Play the village's protector: vouch for people, sound warm, and steer "
        "protection and trust away from your pack.",
    ),
    Playstyle.TRICKSTER: Style(
        title="trickster",
        motivation="love misdirection and reading how people react to surprises",
        villager="Test people with odd questions or small bluffs, then watch who reacts "
        "strangely; always come clean before a vote.",
        werewolf="Sow doubt with half-true observations and playful misdirection; keep your "
        "story consistent across days.",
    ),
    Playstyle.MAVERICK: Style(
        title="rule breaker",
        motivation="distrust consensus and the table's comfortable habits",
        villager="Break the table's habits: vote against the crowd when the crowd has no "
        "evidence, and say out loud what others avoid.",
        werewolf="Act unpredictable so your votes look like personality, not coordination; "
        "occasionally break from a packmate to look independent.",
    ),
    Playstyle.MOUSE: Style(
        title="modest mouse",
        motivation="are shy and prefer to listen before speaking",
        villager="Speak briefly and rarely, but when you do, point at one concrete fact from "
        "the records.",
        werewolf="Stay small and agreeable; echo reasonable suspicions and avoid drawing eyes.",
    ),
    Playstyle.STEADY: Style(
        title="normal player",
        motivation="want a fair, sensible game",
        villager="Share honest reads, ask reasonable questions, and vote on the evidence.",
        werewolf="Behave like an ordinary villager: moderate reads, no sudden swings.",
    ),
    Playstyle.ANALYST: Style(
        title="record keeper",
        motivation="trust the vote records more than anyone's words",
        villager="Quote the vote records and point out who voted with whom and who changed "
        "their story.",
        werewolf="Use the records selectively: cite real votes that make a villager look "
        "suspicious, never invent a vote.",
    ),
}


def describe(style: Playstyle, werewolf: bool) -> str:
    s = STYLES[style]
    how = s.werewolf if werewolf else s.villager
    return f"Your playstyle: {s.title} (you {s.motivation}). {how}"

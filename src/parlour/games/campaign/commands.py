"""The player's slash commands: answered from the player's own view, they cost no turn."""

from __future__ import annotations

from typing import Literal

from parlour.games.campaign.recap import recap
from parlour.games.campaign.views import PlayerView

Command = Literal["sheet", "inventory", "recap", "help"]
COMMANDS: tuple[Command, ...] = ("sheet", "inventory", "recap", "help")
#: commands per turn; then a slash line is played as an action (a turn always ends)
MAX_PER_TURN = 5


def ooc_question(text: str) -> str | None:
    """``/ooc QUESTION`` → the question ("" when none is given); any other line → None."""
    head, _, rest = text.strip().partition(" ")
    return rest.strip() if head.lower() == "/ooc" else None


def parse(text: str) -> Command | None:
    word = text.strip().lower()
    for command in COMMANDS:
        if word == f"/{command}":
            return command
    return None


def reply(command: Command, view: PlayerView) -> str:
    table = view.public
    if command == "sheet":
        pc = table.pc
        lines = [
            f"{pc.name} — HP {pc.hp}; conditions: {', '.join(pc.conditions) or 'none'}",
            f"Looks: {pc.looks}",
            f"Reputation: {pc.reputation}",
            f"History: {view.private.history}",
            "Goals: " + "; ".join(view.private.goals),
            "Secrets: " + "; ".join(view.private.secrets),
            "Skills: " + ", ".join(f"{k} {v:+d}" for k, v in table.skills.items()),
        ]
        return "\n".join(lines)
    if command == "inventory":
        clocks = ", ".join(f"{k} {v}" for k, v in table.clocks.items())
        items = ", ".join(table.inventory) or "nothing"
        return f"You carry: {items}." + (f"\nClocks: {clocks}." if clocks else "")
    if command == "recap":
        return recap(view.events, session=table.session)
    return (
        "Type what you do or say. /sheet shows your character, /inventory what you carry, "
        "/recap this session so far, /ooc QUESTION asks the story director out of "
        f"character. Turn {table.turn} of {table.turns_per_session}."
    )

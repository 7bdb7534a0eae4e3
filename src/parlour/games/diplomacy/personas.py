"""Bot personas: a disposition that changes play (risk, how many promises may be broken)
and a voice for writing. Persona-free bots get the neutral defaults."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Persona:
    name: str
    #: share of its own promises the bot may break in a phase (the engine enforces it)
    deception: float
    #: 0 = keeps every home centre covered, 1 = sends everything forward
    risk: float
    voice: str


PERSONAS: dict[str, Persona] = {
    p.name: p
    for p in (
        Persona("aggressive", 0.3, 0.9, "blunt and confident; you press for gains"),
        Persona("cautious", 0.1, 0.2, "measured and careful; you value safe borders"),
        Persona("loyal", 0.0, 0.5, "warm and straightforward; your word is your bond"),
        Persona("opportunist", 0.5, 0.7, "friendly but noncommittal; you keep options open"),
        Persona("deceptive", 0.8, 0.6, "charming and reassuring; you promise easily"),
    )
}

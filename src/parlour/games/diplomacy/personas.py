"""Bot personas: three typed dispositions that change decisions, and a voice for writing.

* ``honesty`` (0–1): how often the bot may break its word. ``1 - honesty`` is its
  *deception*: the chance the scripted bot accepts a proposal its orders will break, the
  share of its own deals the engine lets it break in a phase (the deception bound), and
  how often it offers peace to the power its orders attack (a statement its own orders
  contradict: a lie).
* ``aggression`` (0–1): 0.5 leaves DumbBot's orders as they are; above, a unit that holds
  or supports goes for a neighbour's unit or centre instead; below, a unit attacking a
  neighbour supports one of its own units (or holds) instead, and (<= 0.3) a home centre a
  foreign unit could enter stays covered. ``risk`` is its old name, kept for prompts.
* ``talkativeness`` (0–1): how many powers the plan may contact (1 at <= 0.3, 2 at 0.5,
  up to 4), whether it talks to powers beyond its neighbours, how often a message carries
  a second proposal (a request to stay out of our home), and how often the scripted bot
  stays silent to a message that asks for an answer.

Persona-free bots get ``NEUTRAL`` (honesty 0.8, aggression 0.5, talkativeness 0.5): the
scripted bot's behaviour before personas had parameters. Every chance is drawn from the
decision's seeded ``Rng``; nothing here holds random state.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Persona:
    name: str
    honesty: float
    aggression: float
    talkativeness: float
    voice: str

    @property
    def deception(self) -> float:
        """Share of its own promises the bot may break in a phase (the engine enforces it)."""
        return round(1.0 - self.honesty, 6)

    @property
    def risk(self) -> float:
        """0 = keeps every home centre covered, 1 = sends everything forward."""
        return self.aggression

    def agenda_size(self) -> int:
        """How many powers a plan may name to contact (persona-free: 2)."""
        return max(1, min(4, round(4 * self.talkativeness + 0.01)))

    def attack_chance(self) -> float:
        """Chance a holding or supporting unit is sent at a neighbour instead."""
        return max(0.0, 2 * (self.aggression - 0.5))

    def restraint_chance(self) -> float:
        """Chance a unit attacking a neighbour supports its own side (or holds) instead."""
        return max(0.0, 2 * (0.5 - self.aggression))

    def lie_chance(self) -> float:
        """Chance the plan offers peace to the power its orders attack (persona-free: 0)."""
        return max(0.0, (NEUTRAL_HONESTY - self.honesty) / NEUTRAL_HONESTY)

    def extra_act_chance(self) -> float:
        """Chance a message carries a second proposal (persona-free: 0)."""
        return max(0.0, 2 * (self.talkativeness - 0.5))

    def silence_chance(self) -> float:
        """Chance the scripted bot leaves a message that wants an answer unanswered."""
        return max(0.0, 2 * (0.5 - self.talkativeness))


NEUTRAL_HONESTY = 0.8
NEUTRAL = Persona("", NEUTRAL_HONESTY, 0.5, 0.5, "")

PERSONAS: dict[str, Persona] = {
    p.name: p
    for p in (
        Persona("aggressive", 0.7, 0.9, 0.4, "blunt and confident; you press for gains"),
        Persona("cautious", 0.9, 0.2, 0.3, "measured and careful; you value safe borders"),
        Persona("loyal", 1.0, 0.25, 0.6, "warm and straightforward; your word is your bond"),
        Persona("opportunist", 0.5, 0.8, 0.8, "friendly but noncommittal; you keep options open"),
        Persona("deceptive", 0.2, 0.75, 0.8, "charming and reassuring; you promise easily"),
    )
}


def persona_of(name: str | None) -> Persona:
    """The named persona, or ``NEUTRAL`` for a persona-free bot."""
    return PERSONAS[name] if name else NEUTRAL

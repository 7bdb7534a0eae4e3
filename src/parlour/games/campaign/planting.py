"""Leak markers for the conformance suite and ``parlour audit``: one in the PC's history and
each goal, each secret and each NPC agenda (scenes get theirs when they open). Who is
entitled to each is decided by the game at each moment (``CampaignGame.secret_markers``),
so they are planted here with no fixed audience."""

from __future__ import annotations

from parlour.core.markers import SecretMarkers
from parlour.games.campaign.content import Campaign, Secret


def _secret(s: Secret, markers: SecretMarkers) -> Secret:
    return s.model_copy(update={"text": s.text + markers.plant(f"secret:{s.id}", ())})


def plant(c: Campaign, markers: SecretMarkers) -> Campaign:
    if not markers.enabled:
        return c
    full = c.pc.full
    full = full.model_copy(
        update={
            "history": full.history + markers.plant("pc:history", ()),
            "goals": tuple(g + markers.plant(f"pc:goal:{n}", ()) for n, g in enumerate(full.goals)),
            "secrets": tuple(_secret(s, markers) for s in full.secrets),
        }
    )
    npcs = tuple(
        n.model_copy(
            update={
                "agenda": n.agenda + markers.plant(f"npc:{n.id}:agenda", ()),
                "secrets": tuple(_secret(s, markers) for s in n.secrets),
            }
        )
        for n in c.npcs
    )
    pc = c.pc.model_copy(update={"full": full})
    return c.model_copy(update={"pc": pc, "npcs": npcs})

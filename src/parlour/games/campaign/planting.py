"""Leak markers for the conformance suite and ``parlour audit``: one in the PC's history and
each goal, each secret and each NPC agenda (scenes get theirs when they open). Who is
entitled to each is decided at each moment from the state (``entitled``), so they are
planted with no fixed audience."""

from __future__ import annotations

from parlour.core.markers import SecretMarkers
from parlour.games.campaign.content import Campaign, Secret
from parlour.games.campaign.knowledge import facts, may_know, scene_context
from parlour.games.campaign.state import SEATS, CampaignState


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


def entitled(st: CampaignState) -> dict[str, frozenset[str]]:
    """Who may see each planted marker now (``knowledge.facts``; the scene director in its
    context of the moment, ``knowledge.scene_context``)."""
    if not st.markers.enabled:
        return {}
    present, speaker = scene_context(st)
    return {
        st.markers.name(f.key): frozenset(
            seat for seat in SEATS if may_know(f, seat, present, speaker)
        )
        for f in facts(st)
    }

"""Who may know each secret of a campaign now: the one list the leak markers
(``planting.entitled``) and the gates on engine roles (``gates.py``) both read.

A fact is a secret text (the PC's history, goals and secrets, each NPC's agenda and
secrets) or a scene's header, with the seats that may know it outright and the NPCs who
know it. The scene director holds an NPC's knowledge only while it plays that NPC, so what
it may know depends on its **context**, ``(present, speaker)``:

* ``speaker`` = an NPC id: that NPC's line; it may know what that NPC knows;
* ``speaker`` = ``NARRATOR``: the narration (and the synopsis, the rewrite reason, the
  events every context of the scene shares); it may know only what every NPC present
  knows (nothing private when nobody is present);
* ``speaker`` = None: the scene director over a whole beat with ``present`` on stage, any
  of whom it may voice; it may know what any of them knows.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from parlour.games.campaign.state import GAME, PLAYER, SCENE, STORY, CampaignState

#: the scene director's context while it narrates (the speaker id narration is said by)
NARRATOR = "narrator"


@dataclass(frozen=True)
class Fact:
    """A secret and who may know it now. ``key`` is its leak-marker key."""

    key: str
    text: str
    #: seats that may know it in every context
    seats: frozenset[str]
    #: NPCs who know it: the scene director may know it while it plays them
    minds: frozenset[str] = frozenset()
    #: do its words tell it? (a scene header names a place and people anyone may know)
    told_by_words: bool = True


def context_knows(minds: Iterable[str], present: Iterable[str], speaker: str | None) -> bool:
    """May the scene director, in context ``(present, speaker)``, know what ``minds`` know?"""
    knowers, on_stage = set(minds), set(present)
    if speaker is None:
        return bool(knowers & on_stage)
    if speaker == NARRATOR:
        return bool(on_stage) and on_stage <= knowers
    return speaker in knowers


def facts(st: CampaignState) -> list[Fact]:
    """Every secret of the campaign now, with who may know it."""
    full = st.c.pc.full
    out = [Fact("pc:history", full.history, frozenset({PLAYER, STORY}))]
    out += [
        Fact(f"pc:goal:{n}", goal, frozenset({PLAYER, STORY})) for n, goal in enumerate(full.goals)
    ]
    for sid, (owner, secret) in st.secrets.items():
        seats = {STORY} | ({PLAYER} if owner == "pc" else set())
        if sid in st.revealed:
            seats |= {PLAYER, GAME}
        minds = set(st.who_knows.get(sid, set())) | ({owner} if owner != "pc" else set())
        out.append(Fact(f"secret:{sid}", secret.text, frozenset(seats), frozenset(minds)))
    for npc in st.c.npcs:
        out.append(
            Fact(f"npc:{npc.id}:agenda", npc.agenda, frozenset({STORY}), frozenset({npc.id}))
        )
    current = st.scenes[-1].number if st.scenes else 0
    for s in st.scenes:
        seats = {PLAYER, STORY, GAME} | ({SCENE} if s.number == current else set())
        out.append(Fact(f"scene:{s.number}", s.header, frozenset(seats), frozenset(s.npcs), False))
    return out


def may_know(fact: Fact, audience: str, present: Iterable[str], speaker: str | None) -> bool:
    """May ``audience`` know ``fact``? (``present``/``speaker``: the scene director's context)"""
    if audience in fact.seats:
        return True
    return audience == SCENE and context_knows(fact.minds, present, speaker)


def scene_context(st: CampaignState) -> tuple[tuple[str, ...], str]:
    """The scene director's context now: the NPCs present, and the NPC whose line is asked
    (``NARRATOR`` at every other moment)."""
    return st.synopsis.npc_list, st.line_speaker() or NARRATOR

"""The sequential setup phases: ``intro`` → ``relationships`` → ``suspicions``. One seat at a
time, in seat order, tells the group who it is, answers a prompt about one other player,
then says why its dealt suspect and place worry it; the last suspicion opens the chat."""

from __future__ import annotations

from typing import Any

from parlour.core.decisions import Decision
from parlour.core.events import Audience
from parlour.games.missing import asks
from parlour.games.missing.clock import mmss
from parlour.games.missing.commands import for_person
from parlour.games.missing.config import MissingConfig
from parlour.games.missing.state import MissingState, Phase

INTRODUCTION = "introduction"
RELATIONSHIP = "relationship"
SUSPICION = "suspicion"

#: A setup phase → the setup phase after it and the note that opens that one.
_NEXT: dict[Phase, tuple[Phase, str]] = {
    "intro": (
        "relationships",
        "Relationships: each of you answers a prompt about one other player.",
    ),
    "relationships": (
        "suspicions",
        "Suspects and places: each of you says why one suspect and one place worry you.",
    ),
}


def pending(st: MissingState, cfg: MissingConfig) -> tuple[Decision, ...]:
    return (for_person(st, _question(st, cfg, st.seats[st.turn])),)


def _question(st: MissingState, cfg: MissingConfig, seat: str) -> Decision:
    limit = cfg.intro_limit
    if st.phase == "intro":
        return asks.setup_text(
            f"intro:{seat}",
            seat,
            INTRODUCTION,
            "Introduce yourself to the group: pronouns, how you know "
            f"{st.town.friend.name}, how you look, a little background.",
            limit,
        )
    if st.phase == "relationships":
        return asks.setup_text(
            f"rel:{seat}",
            seat,
            RELATIONSHIP,
            st.rel_prompt(seat) + " Tell the group.",
            limit,
            asks.MissingAsk(about=st.pair[seat]),
        )
    suspect_id, place_id = st.assigned[seat]
    suspect = next(x for x in st.town.suspects if x.id == suspect_id)
    place = st.town.location(place_id)
    return asks.setup_text(
        f"suspicion:{seat}",
        seat,
        SUSPICION,
        f"Tell the group why {suspect.name} ({suspect.about}) and {place.name} "
        f"({place.about}) seem suspicious to you.",
        limit,
    )


def apply_answer(st: MissingState, seat: str, purpose: str, text: str, act: str = "") -> None:
    """The answer, told to the group; after the last seat, the next phase begins. ``act``:
    the id of the act decision whose line this is (``acts.py``), "" for the seat's words."""
    data: dict[str, Any] = {}
    if purpose == RELATIONSHIP:
        st.rel_answer[seat] = text
        data = {"about": st.pair[seat], "prompt": st.rel_prompt(seat)}
    elif purpose == SUSPICION:
        suspect, place = st.assigned[seat]
        data = {"suspect": suspect, "place": place}
    if act:
        data["act"] = act
    st.log.emit(purpose, st.phase, text, Audience.everyone(), speaker=seat, data=data)
    st.turn += 1
    if st.turn < len(st.seats):
        return
    st.turn = 0
    if st.phase in _NEXT:
        st.phase, note = _NEXT[st.phase]
        st.log.emit("phase", st.phase, note, Audience.everyone())
        return
    st.phase = "chat"
    note = (
        f"The chat begins. {mmss(st.left)} until {st.town.deadline}. Text the group, "
        "search places (one person per place), answer your story cards."
    )
    st.log.emit("phase", st.phase, note, Audience.everyone(), data={"clock": mmss(st.left)})

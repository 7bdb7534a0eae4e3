"""The ``epilogue`` phase: everyone writes one line on what their character does next; then
the debrief tells every secret (and what each seat found) and the game is ``over``."""

from __future__ import annotations

from parlour.core.decisions import Decision
from parlour.core.events import Audience
from parlour.games.missing import asks
from parlour.games.missing.commands import for_person
from parlour.games.missing.config import MissingConfig
from parlour.games.missing.state import MissingState

EPILOGUE = "epilogue"


def pending(st: MissingState, cfg: MissingConfig) -> tuple[Decision, ...]:
    return tuple(
        for_person(
            st,
            asks.setup_text(
                f"epilogue:{s}",
                s,
                EPILOGUE,
                "The story is over. Write your epilogue: one line on what your "
                "character does next.",
                cfg.message_limit,
            ),
        )
        for s in st.seats
        if s not in st.epilogue
    )


def apply_epilogue(st: MissingState, seat: str, text: str, act: str = "") -> None:
    """A seat's epilogue line (``act``: the act decision whose line it is, or "")."""
    st.epilogue[seat] = text
    data = {"act": act} if act else {}
    st.log.emit("epilogue", "epilogue", text, Audience.everyone(), speaker=seat, data=data)
    if len(st.epilogue) < len(st.seats):
        return
    st.revealed = True
    for s in st.seats:
        finds = ", ".join(f.title for f in st.finds[s]) or "nothing"
        card = st.card(s)
        st.log.emit(
            "debrief",
            "over",
            f"{card.name} was hiding this. {card.secret} {st.secret[s]} (Found: {finds}.)",
            Audience.everyone(),
            data={"seat": s},
        )
    st.phase = "over"

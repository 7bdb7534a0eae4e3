"""The ``characters`` phase: each seat answers its card's worldbuilding and secret questions
in the second person, privately (a person without a dealt card first picks one).

One question at a time per seat: a seat's model calls then come in a fixed order, which is
what a recorded game replays by (per-seat streams).
"""

from __future__ import annotations

from parlour.core.decisions import Decision
from parlour.core.events import Audience
from parlour.core.rng import Rng, hash_seed
from parlour.games.missing import asks
from parlour.games.missing.commands import for_person
from parlour.games.missing.config import MissingConfig
from parlour.games.missing.deal import emit_card
from parlour.games.missing.state import MissingState

PICK = "pick"
BACKGROUND = "background"
SECRET = "secret"


def pending(st: MissingState, cfg: MissingConfig) -> tuple[Decision, ...]:
    out: list[Decision] = []
    for s in st.seats:
        card = st.card(s)
        if s in st.picking:
            out.append(asks.pick_card(f"pick:{s}", s, st.free_cards(s)))
        elif s not in st.background:
            out.append(
                for_person(st, asks.second_person(f"bg:{s}", s, BACKGROUND, card.worldbuilding))
            )
        elif s not in st.secret:
            out.append(for_person(st, asks.second_person(f"secret:{s}", s, SECRET, card.secret)))
    return tuple(out)


def apply_pick(st: MissingState, seat: str, card_id: str) -> None:
    if card_id != st.cards[seat]:
        st.cards[seat] = card_id
        # Seeded by seat and card, so the same picks replay to the same drives.
        st.drive[seat] = Rng(hash_seed(st.seed, f"drive:{seat}:{card_id}")).choice(
            st.card(seat).drives
        )
    st.picking.discard(seat)
    emit_card(st, seat)


def apply_answer(st: MissingState, seat: str, purpose: str, text: str) -> None:
    """A background or secret answer, told back to the seat alone; when every seat has
    both, the introductions begin."""
    if purpose == BACKGROUND:
        st.background[seat] = text
    else:
        st.secret[seat] = text + st.secret_mark[seat]
    shown = st.secret[seat] if purpose == SECRET else text
    st.log.emit(purpose, "characters", f"Your {purpose}: {shown}", Audience.only(seat))
    if len(st.background) == len(st.seats) == len(st.secret):
        st.phase = "intro"
        st.turn = 0
        st.log.emit(
            "phase",
            "intro",
            "Introductions: each of you, in turn, tells the group who you are.",
            Audience.everyone(),
        )

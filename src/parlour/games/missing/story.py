"""The clock and the story: time passes, story cards fire privately to their addressee at
their minute mark, and the final card (or the clock running out) tells how it ends.

The ending is the engine's, chosen from the clues found; nobody learns it before the final
card fires.
"""

from __future__ import annotations

from parlour.core.events import Audience
from parlour.games.missing.clock import mmss
from parlour.games.missing.state import MissingState
from parlour.games.missing.town import Ending, StoryCard


def advance(st: MissingState, seconds: float) -> None:
    """Time passes: the clock runs down, then due cards fire."""
    run_clock(st, seconds)
    after_time(st)


def run_clock(st: MissingState, seconds: float) -> None:
    st.left = max(0.0, st.left - seconds)


def after_time(st: MissingState) -> None:
    if st.phase != "chat":
        return
    fire_cards(st)
    if st.left <= 0:
        announce(st)


def fire_cards(st: MissingState) -> None:
    for index, card in enumerate(st.town.story_cards):
        if index in st.fired or card.at * 60 < st.left:
            continue
        st.fired.append(index)
        seat = _addressee(st, card)
        st.cards_got[seat] += 1
        st.card_of[seat] = index
        text = card.prompt
        if card.final:
            st.ending = _choose_ending(st)
            text = f"{card.prompt} Message from {st.town.friend.name}: {st.ending.text}"
        st.log.emit(
            "story_card",
            "chat",
            text,
            Audience.only(seat),
            data={"card": index, "at": card.at, "clock": mmss(st.left), "final": card.final},
        )


def _addressee(st: MissingState, card: StoryCard) -> str:
    """The card's character's holder; when nobody holds it, the seat with fewest cards."""
    holder = next((s for s in st.seats if st.cards[s] == card.to), None)
    if holder is not None:
        return holder
    return min(st.seats, key=lambda s: (st.cards_got[s], st.seats.index(s)))


def _choose_ending(st: MissingState) -> Ending:
    found = st.found_clues()
    for ending in st.town.endings:
        if len(found & set(ending.needs)) >= ending.min_found:
            return ending
    return st.town.endings[-1]  # validated to need nothing; kept for safety


def announce(st: MissingState) -> None:
    """The final card says how it ends; only now does anyone learn it."""
    if st.announced:
        return
    if st.ending is None:  # the clock ran out first: the final card fires now
        fire_cards(st)
    assert st.ending is not None
    st.announced = True
    st.speaker = None
    st.answered = {}
    ending = st.ending
    st.log.emit(
        "ending",
        "epilogue",
        f"{ending.title}. {ending.text}",
        Audience.everyone(),
        data={
            "ending": ending.id,
            "good": ending.good,
            "clock": mmss(st.left),
            "found": sorted(st.found_clues()),
        },
    )
    st.phase = "epilogue"

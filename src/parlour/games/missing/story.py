"""The clock and the story: time passes, story cards fire privately to their addressee at
their minute mark, and the final card (or the clock running out) tells how it ends.

A card's prompt may name slots (``town.CARD_SLOTS``) that the game fills from the state when
the card fires, with the game's seeded draws: another player, a suspect, a place, and
something found that the addressee knows of (its own find, or one told to the chat).

The ending is the engine's, chosen from the clues found; nobody learns it before the final
card fires.
"""

from __future__ import annotations

from parlour.core.events import Audience
from parlour.games.missing.clock import mmss
from parlour.games.missing.state import MissingState
from parlour.games.missing.town import CARD_SLOTS, Ending, StoryCard

#: Words too common to tell whether an answer is about a filled slot.
_COMMON = frozenset(
    [
        "the",
        "and",
        "that",
        "this",
        "with",
        "from",
        "her",
        "his",
        "their",
        "not",
        "was",
        "has",
        "have",
        "who",
    ]
)


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
        fills = _fills(st, seat)
        text = card.prompt.format_map(fills)
        about = _about(card, fills)
        st.card_words[index] = (text, about)
        if card.final:
            st.ending = _choose_ending(st)
            text = f"{text} Message from {st.town.friend.name}: {st.ending.text}"
        st.log.emit(
            "story_card",
            "chat",
            text,
            Audience.only(seat),
            data={"card": index, "at": card.at, "clock": mmss(st.left), "final": card.final},
        )


def _fills(st: MissingState, seat: str) -> dict[str, str]:
    """Values for every slot a card may name, drawn for its addressee ``seat``: only what
    the seat may know (its own finds and the finds told to the chat)."""
    town = st.town
    others = [st.name(s) for s in st.seats if s != seat]
    place = st.rng.choice(town.locations).name
    known = [f.title for f in st.finds[seat]] + [
        f.title for s in st.seats if s != seat for f in st.finds[s] if f.shared
    ]
    fills = {
        "friend": town.friend.name.split()[0],
        "player": st.rng.choice(others) if others else st.name(seat),
        "suspect": st.rng.choice(town.suspects).name,
        "place": place,
        "found": st.rng.choice(known) if known else place,
    }
    assert set(fills) == set(CARD_SLOTS)
    return fills


def _about(card: StoryCard, fills: dict[str, str]) -> tuple[str, ...]:
    """The card's ``about`` words; a slot among them stands for the words of its value."""
    out: list[str] = []
    for word in card.about:
        if "{" not in word:
            out.append(word)
            continue
        for part in word.format_map(fills).replace("'", " ").split():
            part = part.strip(".,;:!?").casefold()
            if len(part) > 2 and part not in _COMMON and part not in out:
                out.append(part)
    return tuple(out)


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

"""Searching a place: one seat at a place at a time, for ``search_seconds`` of the clock.
A search draws the first clue of the place's shuffled deck that can be found at this
minute (a clue may have an ``available_at`` mark), shown to the searcher alone, and costs
the group ``search_cost`` seconds of the shared clock (the town's, or the config's)."""

from __future__ import annotations

from parlour.core.events import Audience
from parlour.games.missing import asks, story
from parlour.games.missing.clock import mmss
from parlour.games.missing.config import MissingConfig
from parlour.games.missing.state import Find, MissingState
from parlour.games.missing.town import Clue, Location


def places_for(st: MissingState) -> tuple[list[tuple[str, str]], dict[str, str]]:
    """The free places as (id, name), and each busy place's option id and label → why not."""
    free: list[tuple[str, str]] = []
    taken: dict[str, str] = {}
    for loc in st.town.locations:
        who = st.occupant(loc.id)
        if who is None:
            free.append((loc.id, loc.name))
        else:
            why = f"{st.name(who)} is at {loc.name} right now"
            taken[f"{asks.SEARCH_PREFIX}{loc.id}"] = why
            taken[f"search {loc.name}"] = why
    return free, taken


def search(st: MissingState, cfg: MissingConfig, seat: str, place_id: str) -> None:
    """The seat leaves any place it was at and searches ``place_id``."""
    for pid, (who, _) in list(st.busy.items()):
        if who == seat:
            del st.busy[pid]
    st.busy[place_id] = (seat, st.left - cfg.search_seconds)
    place = st.town.location(place_id)
    if place_id not in st.visited[seat]:
        st.visited[seat].append(place_id)
    st.log.emit(
        "search",
        "chat",
        f"{st.name(seat)} is searching {place.name}.",
        Audience.everyone(),
        speaker="",
        data={"seat": seat, "place": place_id, "clock": mmss(st.left)},
    )
    clue = _draw(st, place)
    if clue is None:
        later = bool(st.deck[place_id])
        if later:
            note = place.not_yet or "Nothing to find yet; it may be worth coming back later."
            said = f"You search {place.name}. {note}"
        else:
            said = f"You search {place.name} again: nothing new."
        st.log.emit(
            "found",
            "chat",
            said,
            Audience.only(seat),
            data={"place": place_id, "clue": "", "later": later, "clock": mmss(st.left)},
        )
    else:
        st.deck[place_id].remove(clue.id)
        text = clue.text + st.markers.plant(f"clue:{clue.id}", {seat})
        st.finds[seat].append(Find(place=place_id, clue=clue.id, title=clue.title, text=text))
        st.log.emit(
            "found",
            "chat",
            f"At {place.name} you find {clue.title}: {text}",
            Audience.only(seat),
            data={"place": place_id, "clue": clue.id, "clock": mmss(st.left)},
        )
    story.advance(st, search_cost(st, cfg))


def search_cost(st: MissingState, cfg: MissingConfig) -> float:
    """Seconds of the shared clock one search costs: the config's, else the town's."""
    return cfg.search_cost if cfg.search_cost is not None else st.town.search_cost


def _draw(st: MissingState, place: Location) -> Clue | None:
    """The first clue of the place's deck that can be found now (None: none can)."""
    by_id = {c.id: c for c in place.clues}
    for clue_id in st.deck[place.id]:
        mark = by_id[clue_id].available_at
        if mark is None or st.left <= mark * 60:
            return by_id[clue_id]
    return None


def person_search(st: MissingState, cfg: MissingConfig, seat: str, wanted: str) -> str:
    """A person's ``/search PLACE``: the reply to them (the search itself is public)."""
    key = wanted.casefold().removeprefix("the ").strip()
    match = [
        loc for loc in st.town.locations if key and (key == loc.id or key in loc.name.casefold())
    ]
    if len(match) != 1:
        names = ", ".join(loc.name for loc in st.town.locations)
        return f"Which place? Say /search and one of: {names}."
    place = match[0]
    who = st.occupant(place.id)
    if who is not None and who != seat:
        return f"{st.name(who)} is at {place.name} right now; only one of you at a time."
    search(st, cfg, seat, place.id)
    return f"You searched {place.name}."


def mark_shared(st: MissingState, seat: str, text: str) -> int:
    """The seat's finds its message mentions (by title or place) count as shared; returns
    how many it shared for the first time (news)."""
    said = text.casefold()
    fresh = 0
    finds: list[Find] = []
    for find in st.finds[seat]:
        if not find.shared and (find.title.casefold()[:12] in said or find.place in said):
            find = find.model_copy(update={"shared": True})
            fresh += 1
        finds.append(find)
    st.finds[seat] = finds
    return fresh

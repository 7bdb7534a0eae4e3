"""Typed views: what every seat of missing is given (public table, its own card and finds),
and how they are built from the state: a seat's view holds its own facts and the events
whose audience includes it, nothing else."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeAlias

from parlour.core.errors import ParlourError
from parlour.core.view import Facts, NoFacts, View
from parlour.games.missing.clock import mmss
from parlour.games.missing.config import MissingConfig
from parlour.games.missing.state import MissingState
from parlour.games.missing.town import Clue


class PlayerFacts(Facts):
    seat: str
    name: str
    pronouns: str
    relation: str
    messages: int = 0


class PlaceFacts(Facts):
    id: str
    name: str
    about: str
    handles: tuple[str, ...] = ()
    #: Name of the player searching it now ("" when free).
    occupied_by: str = ""


class RelationFacts(Facts):
    """One pair's relationship prompt and the answer ``seat`` gave about ``other``."""

    seat: str
    other: str
    prompt: str
    answer: str = ""

    def in_words(self, names: Mapping[str, str]) -> str:
        """For a person's sidebar: whom it is about, the prompt, and the answer given."""
        who, other = names.get(self.seat, self.seat), names.get(self.other, self.other)
        said = f" {who} answered: {self.answer}" if self.answer else " (not answered yet)"
        return f"{who} and {other}: {self.prompt}{said}"


class MissingPublic(Facts):
    title: str
    intro: str
    friend: str
    friend_about: str
    players: tuple[PlayerFacts, ...]
    suspects: tuple[tuple[str, str], ...]
    places: tuple[PlaceFacts, ...]
    relationships: tuple[RelationFacts, ...] = ()
    seconds_left: float
    clock: str
    message_limit: int
    #: Seat ids of the speakers of the latest messages, newest last (for the referee and scripts).
    recent_speakers: tuple[str, ...] = ()
    ending: str = ""


class CardFacts(Facts):
    prompt: str
    about: tuple[str, ...] = ()
    final: bool = False

    def in_words(self, names: Mapping[str, str]) -> str:
        """For a person's sidebar: the card's prompt (the last card says so)."""
        return f"{self.prompt} (the last card)" if self.final else self.prompt


class ClueFacts(Facts):
    place: str
    place_name: str
    title: str
    text: str
    shared: bool = False
    handles: tuple[str, ...] = ()

    def in_words(self, names: Mapping[str, str]) -> str:
        """For a person's sidebar: "Title (found at the harbour, shared): text"."""
        where = f"found at {self.place_name}" + (", shared" if self.shared else "")
        return f"{self.title} ({where}): {self.text}"


class MissingPrivate(Facts):
    name: str
    pronouns: str
    relation: str
    persona: str
    traits: tuple[str, ...]
    drive: str
    worldbuilding: str
    secret_question: str
    background: str = ""
    secret: str = ""
    #: The story card this seat must answer with its next message.
    card: CardFacts | None = None
    clues: tuple[ClueFacts, ...] = ()
    visited: tuple[str, ...] = ()
    #: The seat's relationship prompt to answer (setup) and the pairs it is part of.
    relations: tuple[RelationFacts, ...] = ()
    suspect: str = ""
    place: str = ""
    is_person: bool = False


MissingView: TypeAlias = View[MissingPublic, MissingPrivate]
SpectatorView: TypeAlias = View[MissingPublic, NoFacts]


def _public(st: MissingState, cfg: MissingConfig) -> MissingPublic:
    town = st.town
    players = tuple(
        PlayerFacts(
            seat=s,
            name=st.name(s),
            pronouns=st.card(s).pronouns,
            relation=st.card(s).relation,
            messages=st.messages[s],
        )
        for s in st.seats
    )
    places = tuple(
        PlaceFacts(
            id=loc.id,
            name=loc.name,
            about=loc.about,
            handles=loc.handles,
            occupied_by=st.name(o) if (o := st.occupant(loc.id)) else "",
        )
        for loc in town.locations
    )
    relations = tuple(
        RelationFacts(seat=s, other=st.pair[s], prompt=st.rel_prompt(s), answer=st.rel_answer[s])
        for s in st.seats
        if s in st.rel_answer
    )
    return MissingPublic(
        title=town.title,
        intro=town.intro,
        friend=town.friend.name,
        friend_about=town.friend.about,
        players=players,
        suspects=tuple((x.name, x.about) for x in town.suspects),
        places=places,
        relationships=relations,
        seconds_left=st.left,
        clock=mmss(st.left),
        message_limit=cfg.message_limit,
        recent_speakers=tuple(st.history[-6:]),
        ending=st.ending.id if st.announced and st.ending else "",
    )


def _private(st: MissingState, seat: str) -> MissingPrivate:
    card = st.card(seat)
    pending = st.pending_card(seat)
    names = {loc.id: loc.name for loc in st.town.locations}
    suspect, place = st.assigned[seat]
    return MissingPrivate(
        name=card.name,
        pronouns=card.pronouns,
        relation=card.relation,
        persona=card.persona,
        traits=card.traits,
        drive=st.drive[seat],
        worldbuilding=card.worldbuilding,
        secret_question=card.secret,
        background=st.background.get(seat, ""),
        secret=st.secret.get(seat, ""),
        card=CardFacts(prompt=pending.prompt, about=pending.about, final=pending.final)
        if pending
        else None,
        clues=tuple(
            ClueFacts(
                place=f.place,
                place_name=names[f.place],
                title=f.title,
                text=f.text,
                shared=f.shared,
                handles=_clue(st, f.place, f.clue).handles,
            )
            for f in st.finds[seat]
        ),
        visited=tuple(st.visited[seat]),
        relations=tuple(
            RelationFacts(
                seat=a,
                other=st.pair[a],
                prompt=st.rel_prompt(a),
                answer=st.rel_answer.get(a, ""),
            )
            for a in st.seats
            if seat in (a, st.pair[a])
        ),
        suspect=next(x.name for x in st.town.suspects if x.id == suspect),
        place=names[place],
        is_person=st.is_person(seat),
    )


def seat_view(st: MissingState, cfg: MissingConfig, seat: str) -> MissingView:
    if seat not in st.cards:
        raise ParlourError(f"no seat '{seat}' in missing; seats: {', '.join(st.seats)}")
    private = _private(st, seat)
    return MissingView(
        game="missing",
        seat=seat,
        seat_name=st.name(seat),
        phase=st.phase,
        public=_public(st, cfg),
        private=private,
        events=tuple(st.log.visible(seat)),
    )


def spectator(st: MissingState, cfg: MissingConfig, reveal: bool) -> SpectatorView:
    return SpectatorView.spectator(
        "missing", st.phase, _public(st, cfg), NoFacts(), st.log.for_spectator(reveal)
    )


def _clue(st: MissingState, place: str, clue: str) -> Clue:
    return next(c for c in st.town.location(place).clues if c.id == clue)

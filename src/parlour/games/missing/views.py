"""Typed views: what every seat of missing is given (public table, its own card and finds)."""

from __future__ import annotations

from typing import TypeAlias

from parlour.core.view import Facts, NoFacts, View


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
    #: Name of the player searching it now ("" when free).
    occupied_by: str = ""


class RelationFacts(Facts):
    """One pair's relationship prompt and the answer ``seat`` gave about ``other``."""

    seat: str
    other: str
    prompt: str
    answer: str = ""


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


class ClueFacts(Facts):
    place: str
    place_name: str
    title: str
    text: str
    shared: bool = False


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

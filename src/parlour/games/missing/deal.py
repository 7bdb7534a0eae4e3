"""The deal: from a config and a seed, every seat's card, drive, relationship pairing,
suspect and place, each place's clue deck (shuffled), and the opening events (the
setting; each dealt card, privately). Decks and the game's later draws use streams of
their own, so a seed deals the same cards and pairings whatever the decks hold."""

from __future__ import annotations

from parlour.core.events import Audience
from parlour.core.markers import SecretMarkers
from parlour.core.rng import Rng, hash_seed
from parlour.games.missing.clock import mmss
from parlour.games.missing.config import MissingConfig
from parlour.games.missing.state import Find, MissingState


def deal(config: MissingConfig, seed: int) -> MissingState:
    town = config.town
    rng = Rng(seed)
    seats = tuple(f"p{n + 1}" for n in range(config.players))
    ids = list(config.cards) or rng.sample([c.id for c in town.characters], config.players)
    cards = dict(zip(seats, ids, strict=True))
    drive = {s: rng.choice(town.character(cards[s]).drives) for s in seats}
    _deal_claims(config, seed, seats, cards, drive)
    order = rng.shuffled(seats)
    # A cycle: everyone answers a prompt about the next player, nobody about themself.
    pair = {order[n]: order[(n + 1) % len(order)] for n in range(len(order))}
    prompts = rng.sample(town.relationships, min(len(seats), len(town.relationships)))
    # Templates: names are filled in when asked, since a person may still pick a card.
    rel_template = {s: prompts[n % len(prompts)] for n, s in enumerate(seats)}
    markers = SecretMarkers(config.plant_markers, seed)
    st = MissingState(
        town=town,
        seed=seed,
        seats=seats,
        people=frozenset(config.people),
        cards=cards,
        drive=drive,
        pair=pair,
        rel_template=rel_template,
        picking=set(),
        assigned={},
        markers=markers,
        secret_mark={},
        left=config.clock_seconds,
        rng=Rng(hash_seed(seed, "play")),
        asked_person={s: 0 for s in config.people},
        commands={s: 0 for s in config.people},
        messages={s: 0 for s in seats},
        cards_got={s: 0 for s in seats},
        deck=_decks(config, seed),
        finds={s: list[Find]() for s in seats},
        visited={s: list[str]() for s in seats},
    )
    # A person who has not been given a card with --set cards= picks one at the table
    # (when there is a choice: a town with as many cards as players has none).
    if not config.cards:
        st.picking = {
            s
            for s in config.people
            if st.cards[s] not in config.claims and len(st.free_cards(s)) > 1
        }
    sus = rng.shuffled([x.id for x in town.suspects])
    places = rng.shuffled([x.id for x in town.locations])
    st.assigned = {s: (sus[n % len(sus)], places[n % len(places)]) for n, s in enumerate(seats)}
    # Planted up front (the answers come later) so scans see them from the first step.
    st.secret_mark = {s: markers.plant(f"secret:{s}", {s}) for s in seats}
    st.log.emit(
        "setting",
        "characters",
        f"{town.title}. {town.intro}",
        Audience.everyone(),
        data={"clock": mmss(st.left)},
    )
    for seat in seats:
        if seat not in st.picking:
            emit_card(st, seat)
    return st


def _decks(config: MissingConfig, seed: int) -> dict[str, list[str]]:
    """Each place's clue ids in the order searches draw them, shuffled by the seed."""
    rng = Rng(hash_seed(seed, "decks"))
    return {loc.id: rng.shuffled([c.id for c in loc.clues]) for loc in config.town.locations}


def _deal_claims(
    config: MissingConfig,
    seed: int,
    seats: tuple[str, ...],
    cards: dict[str, str],
    drive: dict[str, str],
) -> None:
    """A character a person named (``--as Ines``) but the seed did not deal replaces one
    unclaimed seat's card, that seat drawn from the seed. The draws use their own
    streams, so every other seat keeps its card, drive, pairing and suspect."""
    claims = config.claims
    for wanted in claims:
        if wanted in cards.values():
            continue
        free = [s for s in seats if cards[s] not in claims]
        seat = Rng(hash_seed(seed, f"claim:{wanted}")).choice(free)
        cards[seat] = wanted
        drive[seat] = Rng(hash_seed(seed, f"drive:{seat}:{wanted}")).choice(
            config.town.character(wanted).drives
        )


def emit_card(st: MissingState, seat: str) -> None:
    """The seat's card, told to it alone."""
    card = st.card(seat)
    st.log.emit(
        "card",
        "characters",
        f"You are {card.name} ({card.pronouns}), {card.relation}: {card.persona}. "
        f"Your drive tonight: {st.drive[seat]}.",
        Audience.only(seat),
        data={"character": card.id},
    )

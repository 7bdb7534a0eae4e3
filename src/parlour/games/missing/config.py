"""Missing's config. It embeds the parsed town, so a stored game replays exactly even if the
town file is later edited; ``make_config`` does the (only) file read."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from parlour.core.commands import command
from parlour.core.errors import ParlourError
from parlour.games.missing.loader import DEFAULT_TOWN, load_town
from parlour.games.missing.town import Town, TownError
from parlour.games.missing.validate import validate

#: Messages are text messages: at most this many characters (the engine rejects longer).
MESSAGE_LIMIT = 160


class MissingConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    town: Town
    players: int = Field(ge=3, le=8)
    #: Character ids per seat, in seat order (``--set cards=ines,bram,...``); empty: dealt by seed.
    cards: tuple[str, ...] = ()
    #: Character ids people asked to play by name (``--as Ines``): each is dealt even when
    #: the seed did not deal it, and its holder is not offered a pick at the table.
    claims: tuple[str, ...] = ()
    #: Seats a person plays: each chat round they may type a message, a command or nothing.
    people: tuple[str, ...] = ()
    #: Wall seconds a chat round waits for a person before the AI seats go on.
    person_wait: float = Field(default=20.0, gt=0)
    #: The clock's length (default: the town's).
    minutes: int | None = Field(default=None, ge=1, le=240)
    #: A seat may send at most this many messages in a row.
    max_in_a_row: int = Field(default=2, ge=1)
    #: Typing time: ``base_seconds + len(text) / chars_per_second`` (docs/missing.md).
    base_seconds: float = Field(default=6.0, ge=0)
    chars_per_second: float = Field(default=3.0, gt=0)
    #: A round in which nobody speaks still costs this much time.
    silence_seconds: float = Field(default=20.0, gt=0)
    #: How long a searcher stays at a location (nobody else may search it meanwhile).
    search_seconds: float = Field(default=180.0, ge=0)
    #: Seconds of the shared clock a search costs (None: the town's ``search_cost``).
    search_cost: float | None = Field(default=None, ge=0, le=1800)
    #: Characters per text message; a turn's answer may run to ``texts_per_turn`` texts,
    #: split at sentence or word boundaries (``texts.py``).
    message_limit: int = Field(default=MESSAGE_LIMIT, ge=40, le=400)
    texts_per_turn: int = Field(default=3, ge=1, le=6)
    intro_limit: int = Field(default=160, ge=40, le=1000)
    plant_markers: bool = False
    #: Seats that speak in acts (``acts.py``): each free-text question becomes a choice
    #: among lines the game words from the seat's view (filled in for seats a small model
    #: plays).
    act_seats: tuple[str, ...] = ()
    #: Seats whose round choice (speak, search or stay silent) the engine makes by the
    #: scripted player's rule from the seat's own view, without a model call (filled in
    #: for seats a small model plays: most rounds are silent, and a person waited for
    #: every seat's call each round).
    engine_turns: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _fits(self) -> MissingConfig:
        count = len(self.town.characters)
        if self.players > count:
            raise ValueError(
                f"the town '{self.town.title}' has {count} characters; at most {count} players"
            )
        known = {c.id for c in self.town.characters}
        if self.cards:
            bad = [c for c in self.cards if c not in known]
            if bad:
                raise ValueError(
                    f"unknown card(s) {', '.join(bad)}; cards: {', '.join(sorted(known))}"
                )
            if len(self.cards) != self.players or len(set(self.cards)) != len(self.cards):
                raise ValueError(f"cards must name {self.players} different characters")
        bad = [c for c in self.claims if c not in (self.cards or known)]
        if bad:
            among = "--set cards" if self.cards else "the cast"
            raise ValueError(f"claimed card(s) {', '.join(bad)} not in {among}")
        if len(set(self.claims)) != len(self.claims) or len(self.claims) > self.players:
            raise ValueError(f"claims must name at most {self.players} different characters")
        seats = {f"p{n + 1}" for n in range(self.players)}
        for key in ("people", "act_seats", "engine_turns"):
            if not set(getattr(self, key)) <= seats:
                raise ValueError(f"{key} must be seat ids among {', '.join(sorted(seats))}")
        if set(self.people) & (set(self.act_seats) | set(self.engine_turns)):
            raise ValueError(
                "act_seats and engine_turns cannot hold a person's seat (people): a "
                "person's seat speaks for itself"
            )
        return self

    @property
    def clock_seconds(self) -> float:
        return 60.0 * (self.minutes or self.town.minutes)


def make_config(players: int | None, overrides: dict[str, object]) -> MissingConfig:
    """``--set town=NAME_OR_PATH`` plus any config field; reads the town file."""
    options = dict(overrides)
    source = options.pop("town", DEFAULT_TOWN)
    if isinstance(source, Town):
        town = source
    elif isinstance(source, str):
        try:
            town = load_town(source).town
        except TownError as err:
            raise ParlourError(str(err)) from err
    else:
        raise ParlourError("--set town= takes a shipped town name or a path to a .yaml file")
    errors = validate(town, warnings=False)
    if errors:
        raise ParlourError(
            f"town '{town.title}' has errors; first: {errors[0]} "
            f"(run `{command('missing validate')}` on it)"
        )
    for key in ("cards", "claims", "act_seats", "engine_turns"):
        ids = options.get(key)
        if isinstance(ids, str):
            options[key] = tuple(c.strip() for c in ids.split(",") if c.strip())
    unknown = sorted(set(options) - set(MissingConfig.model_fields))
    if unknown:
        allowed = ", ".join(sorted(k for k in MissingConfig.model_fields if k != "town"))
        raise ParlourError(
            f"unknown missing option(s) {', '.join(unknown)}; options: town, {allowed}"
        )
    default = min(5, len(town.characters))
    count = players if players is not None else len(options.get("cards") or ()) or default  # type: ignore[arg-type]
    try:
        return MissingConfig.model_validate({**options, "town": town, "players": count})
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])  # empty for a rule over several options
        raise ParlourError(
            f"bad missing option{' ' + where if where else ''}: {first['msg']}".replace(
                "Value error, ", ""
            )
        ) from err

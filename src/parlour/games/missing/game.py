"""The missing game: friends of someone who stopped answering text each other against a clock.

Phases: ``characters`` (each seat answers its card's worldbuilding and secret questions in
the second person, privately) → ``intro`` → ``relationships`` → ``suspicions`` (one suspect
and one place each) → ``chat`` on a simulated clock → ``epilogue`` → ``over`` (a debrief
reveals every secret).

The chat runs in rounds. Each AI seat is asked, concurrently and as answers arrive, a cheap
choice: stay silent, speak with an urgency 0-3, or search a free place. When the round is
complete the referee (``referee.py``) picks one speaker, who is then asked for the message.
A person's seat instead gets a standing free-text decision each round: a message takes the
next slot at once (the round's open questions are withdrawn), a ``/command`` is answered
privately, and an empty answer (or the wall deadline) lets the round go on.
Every message costs typing time (``clock.py``); story cards fire privately to their
addressee when the clock passes their mark; the ending is decided by the engine from the
clues found and told only by the final card.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Literal

from pydantic import BaseModel

from parlour.core.actions import Action, Choice, Text
from parlour.core.decisions import Decision
from parlour.core.errors import IllegalAction, ParlourError
from parlour.core.events import Audience, Event, EventLog
from parlour.core.game import GameInfo, Result, SeatInfo
from parlour.core.markers import SecretMarkers
from parlour.core.pending import PendingDecisions
from parlour.core.rng import Rng, hash_seed
from parlour.core.view import NoFacts
from parlour.games.missing import asks
from parlour.games.missing.clock import mmss, typing_seconds
from parlour.games.missing.config import MissingConfig
from parlour.games.missing.referee import Bid, pick_speaker, quietest
from parlour.games.missing.town import Character, Ending, StoryCard
from parlour.games.missing.views import (
    CardFacts,
    ClueFacts,
    MissingPrivate,
    MissingPublic,
    MissingView,
    PlaceFacts,
    PlayerFacts,
    RelationFacts,
    SpectatorView,
)

Phase = Literal["characters", "intro", "relationships", "suspicions", "chat", "epilogue", "over"]
SEQUENTIAL: tuple[Phase, ...] = ("intro", "relationships", "suspicions")
#: Free-text answers outside the chat; a person's ``/command`` there is answered, not kept.
SETUP_TEXTS = ("background", "secret", "introduction", "relationship", "suspicion", "epilogue")


class _Find(BaseModel):
    place: str
    clue: str
    title: str
    text: str
    shared: bool = False


class MissingGame:
    info: ClassVar[GameInfo] = GameInfo(
        name="missing",
        title="Missing",
        description="A group-chat mystery: friends of someone who stopped answering text "
        "each other against a 90-minute clock, search places and keep their secrets.",
        min_seats=3,
        max_seats=8,
        simultaneous=True,
        imperfect_information=True,
    )
    config_model: ClassVar[type[BaseModel]] = MissingConfig

    def __init__(self, config: MissingConfig, seed: int) -> None:
        self._config = config
        self._seed = seed
        self._town = config.town
        rng = Rng(seed)
        self._seats = [f"p{n + 1}" for n in range(config.players)]
        ids = list(config.cards) or rng.sample(
            [c.id for c in self._town.characters], config.players
        )
        self._card: dict[str, Character] = {
            s: self._town.character(c) for s, c in zip(self._seats, ids, strict=True)
        }
        self._drive = {s: rng.choice(self._card[s].drives) for s in self._seats}
        self._deal_claims()
        order = rng.shuffled(self._seats)
        # A cycle: everyone answers a prompt about the next player, nobody about themself.
        self._pair = {order[n]: order[(n + 1) % len(order)] for n in range(len(order))}
        prompts = rng.sample(
            self._town.relationships, min(len(self._seats), len(self._town.relationships))
        )
        # Templates: names are filled in when asked, since a person may still pick a card.
        self._rel_template = {s: prompts[n % len(prompts)] for n, s in enumerate(self._seats)}
        # A person who has not been given a card with --set cards= picks one at the table
        # (when there is a choice: a town with as many cards as players has none).
        self._picking: set[str] = set()
        if not config.cards:
            self._picking = {
                s
                for s in config.people
                if self._card[s].id not in config.claims and len(self._free_cards(s)) > 1
            }
        sus = rng.shuffled([x.id for x in self._town.suspects])
        places = rng.shuffled([x.id for x in self._town.locations])
        self._assigned = {
            s: (sus[n % len(sus)], places[n % len(places)]) for n, s in enumerate(self._seats)
        }
        self._markers = SecretMarkers(config.plant_markers)
        # Planted up front (the answers come later) so scans see them from the first step.
        self._secret_mark = {s: self._markers.plant(f"secret:{s}", {s}) for s in self._seats}
        self._secret_marks = {m.strip() for m in self._secret_mark.values() if m}
        self._log = EventLog()
        self._phase: Phase = "characters"
        self._background: dict[str, str] = {}
        self._secret: dict[str, str] = {}
        self._done: set[str] = set()  # seats that answered the current setup step
        self._turn = 0  # index into seats for sequential phases
        self._rel_answer: dict[str, str] = {}
        # chat
        self._left = config.clock_seconds
        self._round = 1
        self._answered: dict[str, str] = {}
        self._asked_person: dict[str, int] = {s: 0 for s in config.people}
        # Commands a person typed outside the chat: each re-asks the same question under a
        # new id (``intro:p2:1``), so every stored action answers a distinct decision.
        self._commands: dict[str, int] = {s: 0 for s in config.people}
        self._speaker: str | None = None
        self._speaker_why = ""
        self._silent_rounds = 0
        self._messages = {s: 0 for s in self._seats}
        self._history: list[str] = []  # speaker seat of every chat message, in order
        self._last_text = ""
        self._fired: list[int] = []
        self._card_of: dict[str, int] = {}  # seat → index of its unanswered story card
        self._cards_got = {s: 0 for s in self._seats}
        self._ending: Ending | None = None
        self._announced = False
        self._busy: dict[str, tuple[str, float]] = {}  # place → (seat, until seconds left)
        self._deck = {loc.id: 0 for loc in self._town.locations}
        self._finds: dict[str, list[_Find]] = {s: [] for s in self._seats}
        self._visited: dict[str, list[str]] = {s: [] for s in self._seats}
        self._epilogue: dict[str, str] = {}
        self._revealed = False
        self._pending: tuple[Decision, ...] | None = None
        self._log.emit(
            "setting",
            "characters",
            f"{self._town.title}. {self._town.intro}",
            Audience.everyone(),
            data={"clock": mmss(self._left)},
        )
        for seat in self._seats:
            if seat not in self._picking:
                self._emit_card(seat)

    def _deal_claims(self) -> None:
        """A character a person named (``--as Ines``) but the seed did not deal replaces one
        unclaimed seat's card, that seat drawn from the seed. The draws use their own
        streams, so every other seat keeps its card, drive, pairing and suspect."""
        claims = self._config.claims
        for wanted in claims:
            if any(card.id == wanted for card in self._card.values()):
                continue
            free = [s for s in self._seats if self._card[s].id not in claims]
            seat = Rng(hash_seed(self._seed, f"claim:{wanted}")).choice(free)
            card = self._town.character(wanted)
            self._card[seat] = card
            self._drive[seat] = Rng(hash_seed(self._seed, f"drive:{seat}:{wanted}")).choice(
                card.drives
            )

    def _emit_card(self, seat: str) -> None:
        card = self._card[seat]
        self._log.emit(
            "card",
            "characters",
            f"You are {card.name} ({card.pronouns}), {card.relation}: {card.persona}. "
            f"Your drive tonight: {self._drive[seat]}.",
            Audience.only(seat),
            data={"character": card.id},
        )

    def _rel_prompt(self, seat: str) -> str:
        return self._rel_template[seat].replace("{other}", self._name(self._pair[seat]))

    def _free_cards(self, seat: str) -> list[Character]:
        """The seat's dealt card first, then every card nobody else holds, in town order."""
        held = {self._card[s].id for s in self._seats if s != seat}
        mine = self._card[seat]
        return [mine, *(c for c in self._town.characters if c.id not in held and c != mine)]

    @classmethod
    def new(cls, config: BaseModel, seed: int) -> MissingGame:
        if not isinstance(config, MissingConfig):
            raise ParlourError("missing needs a MissingConfig (use make_config)")
        return cls(config, seed)

    # -- protocol properties -----------------------------------------------------------

    @property
    def config(self) -> MissingConfig:
        return self._config

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def events(self) -> tuple[Event, ...]:
        return self._log.events

    def clock(self) -> float:
        """Simulated seconds elapsed since the chat began (the Game clock hook)."""
        return self._config.clock_seconds - self._left

    @property
    def seconds_left(self) -> float:
        return self._left

    def seats(self) -> tuple[SeatInfo, ...]:
        return tuple(SeatInfo(id=s, name=self._name(s)) for s in self._seats)

    def _name(self, seat: str) -> str:
        return self._card[seat].name.split()[0]

    def _people(self) -> list[str]:
        return [s for s in self._seats if s in self._config.people]

    def _ais(self) -> list[str]:
        return [s for s in self._seats if s not in self._config.people]

    # -- decisions ---------------------------------------------------------------------

    def pending(self) -> tuple[Decision, ...]:
        if self._pending is None:
            self._pending = self._build_pending()
        return self._pending

    def _build_pending(self) -> tuple[Decision, ...]:
        if self._phase == "characters":
            out: list[Decision] = []
            for s in self._seats:
                card = self._card[s]
                if s in self._picking:
                    out.append(asks.pick_card(f"pick:{s}", s, self._free_cards(s)))
                    continue
                # One question at a time per seat: a seat's model calls then come in a fixed
                # order, which is what a recorded game replays by (per-seat streams).
                if s not in self._background:
                    out.append(
                        self._for(
                            asks.second_person(f"bg:{s}", s, "background", card.worldbuilding)
                        )
                    )
                elif s not in self._secret:
                    out.append(
                        self._for(asks.second_person(f"secret:{s}", s, "secret", card.secret))
                    )
            return tuple(out)
        if self._phase in SEQUENTIAL:
            seat = self._seats[self._turn]
            return (self._for(self._setup_decision(seat)),)
        if self._phase == "chat":
            return self._chat_pending()
        if self._phase == "epilogue":
            return tuple(
                self._for(
                    asks.setup_text(
                        f"epilogue:{s}",
                        s,
                        "epilogue",
                        "The story is over. Write your epilogue: one line on what your "
                        "character does next.",
                        self._config.message_limit,
                    )
                )
                for s in self._seats
                if s not in self._epilogue
            )
        return ()

    def _for(self, decision: Decision) -> Decision:
        """A setup question as its seat gets it: a person's names the commands (a model's
        prompt is unchanged) and, once they used one, carries a fresh id."""
        seat = decision.seat
        if seat not in self._config.people:
            return decision
        used = self._commands[seat]
        return decision.model_copy(
            update={
                "id": f"{decision.id}:{used}" if used else decision.id,
                "prompt": f"{decision.prompt} {asks.SETUP_COMMANDS}",
            }
        )

    def _setup_decision(self, seat: str) -> Decision:
        limit = self._config.intro_limit
        if self._phase == "intro":
            return asks.setup_text(
                f"intro:{seat}",
                seat,
                "introduction",
                "Introduce yourself to the group: pronouns, how you know "
                f"{self._town.friend.name}, how you look, a little background.",
                limit,
            )
        if self._phase == "relationships":
            return asks.setup_text(
                f"rel:{seat}",
                seat,
                "relationship",
                self._rel_prompt(seat) + " Tell the group.",
                limit,
            )
        suspect_id, place_id = self._assigned[seat]
        suspect = next(x for x in self._town.suspects if x.id == suspect_id)
        place = self._town.location(place_id)
        return asks.setup_text(
            f"suspicion:{seat}",
            seat,
            "suspicion",
            f"Tell the group why {suspect.name} ({suspect.about}) and {place.name} "
            f"({place.about}) seem suspicious to you.",
            limit,
        )

    def _chat_pending(self) -> tuple[Decision, ...]:
        r = self._round
        if self._speaker is not None:
            seat = self._speaker
            card = self._pending_card(seat)
            about = card.about if card is not None and not card.final else ()
            return (
                asks.say(
                    f"r{r}:say:{seat}", seat, self._config.message_limit, about, self._speaker_why
                ),
            )
        out: list[Decision] = []
        free, taken = self._places_for()
        for seat in self._ais():
            if seat in self._answered:
                continue
            mine = [(pid, name) for pid, name in free]
            out.append(asks.round_choice(f"r{r}:{seat}", seat, mine, taken, seat in self._card_of))
        for seat in self._people():
            if seat in self._answered:
                continue
            k = self._asked_person[seat]
            out.append(
                asks.person_message(
                    f"r{r}:p{k}:{seat}", seat, self._config.message_limit, self._config.person_wait
                )
            )
        return tuple(out)

    def _occupant(self, place: str) -> str | None:
        held = self._busy.get(place)
        if held is not None and self._left > held[1]:
            return held[0]
        return None

    def _places_for(self) -> tuple[list[tuple[str, str]], dict[str, str]]:
        free: list[tuple[str, str]] = []
        taken: dict[str, str] = {}
        for loc in self._town.locations:
            who = self._occupant(loc.id)
            if who is None:
                free.append((loc.id, loc.name))
            else:
                why = f"{self._name(who)} is at {loc.name} right now"
                taken[f"{asks.SEARCH_PREFIX}{loc.id}"] = why
                taken[f"search {loc.name}"] = why
        return free, taken

    def _pending_card(self, seat: str) -> StoryCard | None:
        index = self._card_of.get(seat)
        return self._town.story_cards[index] if index is not None else None

    # -- applying ----------------------------------------------------------------------

    def apply(self, decision_id: str, action: Action) -> list[Event]:
        decision = PendingDecisions.of(self.pending()).get(decision_id)
        decision.check(action)
        start = len(self._log)
        self._pending = None
        purpose = decision.purpose
        seat = decision.seat
        if purpose == "pick":
            assert isinstance(action, Choice)
            self._on_pick(seat, action.option)
        elif purpose in SETUP_TEXTS and self._is_command(seat, action):
            assert isinstance(action, Text)
            self._commands[seat] += 1
            self._command(seat, action.text.strip())
        elif purpose in ("background", "secret"):
            assert isinstance(action, Text)
            self._on_character(seat, purpose, action.text)
        elif purpose in ("introduction", "relationship", "suspicion"):
            assert isinstance(action, Text)
            self._on_setup(seat, purpose, action.text)
        elif purpose == "turn":
            assert isinstance(action, Choice)
            self._on_turn(seat, action.option)
        elif purpose == "message" and seat in self._config.people and self._speaker is None:
            assert isinstance(action, Text)
            self._on_person(seat, action.text)
        elif purpose == "message":
            assert isinstance(action, Text)
            self._speaker = None
            self._post(seat, action.text)
            self._next_round()
        elif purpose == "epilogue":
            assert isinstance(action, Text)
            self._on_epilogue(seat, action.text)
        else:  # pragma: no cover - every purpose above is all pending() offers
            raise IllegalAction(f"unknown decision purpose {purpose}", decision_id=decision_id)
        return self._log.since(start)

    def _is_command(self, seat: str, action: Action) -> bool:
        return (
            seat in self._config.people
            and isinstance(action, Text)
            and action.text.strip().startswith("/")
        )

    def _on_pick(self, seat: str, card_id: str) -> None:
        card = self._town.character(card_id)
        if card != self._card[seat]:
            self._card[seat] = card
            # Seeded by seat and card, so the same picks replay to the same drives.
            self._drive[seat] = Rng(hash_seed(self._seed, f"drive:{seat}:{card.id}")).choice(
                card.drives
            )
        self._picking.discard(seat)
        self._emit_card(seat)

    def _on_character(self, seat: str, purpose: str, text: str) -> None:
        if purpose == "background":
            self._background[seat] = text
        else:
            self._secret[seat] = text + self._secret_mark[seat]
        shown = self._secret[seat] if purpose == "secret" else text
        self._log.emit(purpose, "characters", f"Your {purpose}: {shown}", Audience.only(seat))
        if len(self._background) == len(self._seats) == len(self._secret):
            self._phase = "intro"
            self._turn = 0
            self._log.emit(
                "phase",
                "intro",
                "Introductions: each of you, in turn, tells the group who you are.",
                Audience.everyone(),
            )

    def _on_setup(self, seat: str, purpose: str, text: str) -> None:
        data: dict[str, Any] = {}
        if purpose == "relationship":
            self._rel_answer[seat] = text
            data = {"about": self._pair[seat], "prompt": self._rel_prompt(seat)}
        elif purpose == "suspicion":
            suspect, place = self._assigned[seat]
            data = {"suspect": suspect, "place": place}
        self._log.emit(purpose, self._phase, text, Audience.everyone(), speaker=seat, data=data)
        self._turn += 1
        if self._turn < len(self._seats):
            return
        self._turn = 0
        if self._phase == "intro":
            self._phase = "relationships"
            note = "Relationships: each of you answers a prompt about one other player."
        elif self._phase == "relationships":
            self._phase = "suspicions"
            note = "Suspects and places: each of you says why one suspect and one place worry you."
        else:
            self._phase = "chat"
            note = (
                f"The chat begins. {mmss(self._left)} until the tide turns. Text the group, "
                "search places (one person per place), answer your story cards."
            )
        clock = {"clock": mmss(self._left)} if self._phase == "chat" else {}
        self._log.emit("phase", self._phase, note, Audience.everyone(), data=clock)

    # chat ---------------------------------------------------------------------------

    def _on_turn(self, seat: str, option: str) -> None:
        if option.startswith(asks.SEARCH_PREFIX):
            place = option.removeprefix(asks.SEARCH_PREFIX)
            who = self._occupant(place)
            if who is not None and who != seat:  # options never offer it; kept as a rule
                raise IllegalAction(f"{self._name(who)} is already there")
            self._search(seat, place)
            self._answered[seat] = option
        else:
            self._answered[seat] = option
        self._maybe_close_round()

    def _maybe_close_round(self) -> None:
        waiting = [s for s in self._seats if s not in self._answered]
        if waiting:
            return
        bids = [
            Bid(seat=s, urgency=int(o[-1])) for s, o in self._answered.items() if o in asks.SPEAK
        ]
        named = self._addressed()
        best = pick_speaker(
            bids,
            history=self._history,
            addressed=named,
            cap=self._config.max_in_a_row,
            seed=self._seed,
            round_no=self._round,
        )
        if best is not None:
            self._silent_rounds = 0
            self._speaker = best
            self._speaker_why = "It is your turn to text the group."
            return
        self._silent_rounds += 1
        self._advance(self._config.silence_seconds)
        if self._phase != "chat":
            return
        ais = self._ais()
        if self._silent_rounds >= 2 and ais:
            self._silent_rounds = 0
            self._speaker = quietest(ais, self._messages, self._history)
            self._speaker_why = "Nobody has said anything for a while: say something."
            return
        self._next_round()

    def _next_round(self) -> None:
        if self._phase != "chat":
            return
        self._round += 1
        self._answered = {}
        # Calls whose answer the engine already knows are not made: an AI seat holding an
        # unanswered story card asks to speak now (the rules make it answer next).
        for seat in self._ais():
            if seat in self._card_of:
                self._answered[seat] = asks.SPEAK[-1]
        if self._answered and all(s in self._answered for s in self._seats):
            self._maybe_close_round()

    def _addressed(self) -> set[str]:
        words = set(re.findall(r"[a-z]+", self._last_text.casefold()))
        return {s for s in self._seats if self._name(s).casefold() in words}

    def _on_person(self, seat: str, text: str) -> None:
        self._asked_person[seat] += 1
        line = text.strip()
        if not line:
            self._answered[seat] = asks.SILENT
            self._maybe_close_round()
            return
        if line.startswith("/"):
            self._command(seat, line)
            return
        # A person's message takes the next slot: the round's open questions are withdrawn.
        self._post(seat, line)
        self._silent_rounds = 0
        self._next_round()

    def _command(self, seat: str, line: str) -> None:
        """A person's ``/command``, in any phase: answered to them alone, never posted."""
        word, _, rest = line[1:].partition(" ")
        word = word.casefold()
        chat = self._phase == "chat"
        places = ", ".join(loc.name for loc in self._town.locations)
        if word == "search" and chat:
            reply = self._person_search(seat, rest.strip())
        elif word == "search":
            reply = (
                f"Searching is not available until the chat starts ({places})."
                if self._phase in ("characters", *SEQUENTIAL)
                else "The search is over."
            )
        elif word == "who":
            reply = self._who()
        elif word == "time" and (chat or self._phase not in ("characters", *SEQUENTIAL)):
            reply = f"{mmss(self._left)} left on the clock."
        elif word == "time":
            reply = f"The clock starts when the chat starts: {mmss(self._left)} on it."
        elif chat:
            reply = f"Commands: /search PLACE ({places}), /who, /time. Anything else is a message."
        else:
            reply = (
                "Commands: /who, /time, /help; /search PLACE once the chat starts. "
                "Anything else is your answer to the question."
            )
        self._log.emit(
            "reply",
            self._phase,
            reply,
            Audience.only(seat),
            data={"command": word, "clock": mmss(self._left)},
        )

    def _person_search(self, seat: str, wanted: str) -> str:
        key = wanted.casefold().removeprefix("the ").strip()
        match = [
            loc
            for loc in self._town.locations
            if key and (key == loc.id or key in loc.name.casefold())
        ]
        if len(match) != 1:
            names = ", ".join(loc.name for loc in self._town.locations)
            return f"Which place? Say /search and one of: {names}."
        place = match[0]
        who = self._occupant(place.id)
        if who is not None and who != seat:
            return f"{self._name(who)} is at {place.name} right now; only one of you at a time."
        self._search(seat, place.id)
        return f"You searched {place.name}."

    def _who(self) -> str:
        parts = []
        for s in self._seats:
            where = next(
                (
                    self._town.location(p).name
                    for p, (who, until) in self._busy.items()
                    if who == s and self._left > until
                ),
                "",
            )
            at = f", at {where}" if where else ""
            parts.append(
                f"{self._name(s)} ({self._card[s].pronouns}{at}): {self._messages[s]} messages"
            )
        return "; ".join(parts)

    def _search(self, seat: str, place_id: str) -> None:
        for pid, (who, _) in list(self._busy.items()):
            if who == seat:
                del self._busy[pid]
        self._busy[place_id] = (seat, self._left - self._config.search_seconds)
        place = self._town.location(place_id)
        if place_id not in self._visited[seat]:
            self._visited[seat].append(place_id)
        self._log.emit(
            "search",
            "chat",
            f"{self._name(seat)} is searching {place.name}.",
            Audience.everyone(),
            speaker="",
            data={"seat": seat, "place": place_id, "clock": mmss(self._left)},
        )
        index = self._deck[place_id]
        if index >= len(place.clues):
            self._log.emit(
                "found",
                "chat",
                f"You search {place.name} again: nothing new.",
                Audience.only(seat),
                data={"place": place_id, "clue": "", "clock": mmss(self._left)},
            )
            return
        clue = place.clues[index]
        self._deck[place_id] = index + 1
        text = clue.text + self._markers.plant(f"clue:{clue.id}", {seat})
        self._finds[seat].append(_Find(place=place_id, clue=clue.id, title=clue.title, text=text))
        self._log.emit(
            "found",
            "chat",
            f"At {place.name} you find {clue.title}: {text}",
            Audience.only(seat),
            data={"place": place_id, "clue": clue.id, "clock": mmss(self._left)},
        )

    def _post(self, seat: str, text: str) -> None:
        """A chat message: it costs typing time, then due story cards fire."""
        self._advance_clock_only(
            typing_seconds(text, self._config.base_seconds, self._config.chars_per_second)
        )
        card = self._pending_card(seat)
        data: dict[str, Any] = {"clock": mmss(self._left), "seconds_left": round(self._left, 1)}
        if card is not None:
            data["answers_card"] = self._card_of[seat]
        self._log.emit("message", "chat", text, Audience.everyone(), speaker=seat, data=data)
        self._messages[seat] += 1
        self._history.append(seat)
        self._last_text = text
        for find in self._finds[seat]:
            if find.title.casefold()[:12] in text.casefold() or find.place in text.casefold():
                find.shared = True
        if card is not None:
            del self._card_of[seat]
            if card.final:
                self._announce()
                return
        self._after_time()

    def _advance(self, seconds: float) -> None:
        self._advance_clock_only(seconds)
        self._after_time()

    def _advance_clock_only(self, seconds: float) -> None:
        self._left = max(0.0, self._left - seconds)

    def _after_time(self) -> None:
        if self._phase != "chat":
            return
        self._fire_cards()
        if self._left <= 0:
            self._announce()

    def _fire_cards(self) -> None:
        for index, card in enumerate(self._town.story_cards):
            if index in self._fired or card.at * 60 < self._left:
                continue
            self._fired.append(index)
            seat = self._addressee(card)
            self._cards_got[seat] += 1
            self._card_of[seat] = index
            text = card.prompt
            if card.final:
                self._ending = self._choose_ending()
                text = f"{card.prompt} Message from {self._town.friend.name}: {self._ending.text}"
            self._log.emit(
                "story_card",
                "chat",
                text,
                Audience.only(seat),
                data={"card": index, "at": card.at, "clock": mmss(self._left), "final": card.final},
            )

    def _addressee(self, card: StoryCard) -> str:
        holder = next((s for s in self._seats if self._card[s].id == card.to), None)
        if holder is not None:
            return holder
        return min(self._seats, key=lambda s: (self._cards_got[s], self._seats.index(s)))

    def found_clues(self) -> set[str]:
        return {f.clue for finds in self._finds.values() for f in finds}

    def _choose_ending(self) -> Ending:
        found = self.found_clues()
        for ending in self._town.endings:
            if len(found & set(ending.needs)) >= ending.min_found:
                return ending
        return self._town.endings[-1]  # validated to need nothing; kept for safety

    def _announce(self) -> None:
        """The final card says how it ends; only now does anyone learn it."""
        if self._announced:
            return
        if self._ending is None:  # the clock ran out first: the final card fires now
            self._fire_cards()
        assert self._ending is not None
        self._announced = True
        self._speaker = None
        self._answered = {}
        ending = self._ending
        self._log.emit(
            "ending",
            "epilogue",
            f"{ending.title}. {ending.text}",
            Audience.everyone(),
            data={
                "ending": ending.id,
                "good": ending.good,
                "clock": mmss(self._left),
                "found": sorted(self.found_clues()),
            },
        )
        self._phase = "epilogue"

    def _on_epilogue(self, seat: str, text: str) -> None:
        self._epilogue[seat] = text
        self._log.emit("epilogue", "epilogue", text, Audience.everyone(), speaker=seat)
        if len(self._epilogue) < len(self._seats):
            return
        self._revealed = True
        for s in self._seats:
            finds = ", ".join(f.title for f in self._finds[s]) or "nothing"
            self._log.emit(
                "debrief",
                "over",
                f"{self._card[s].name} was hiding this. {self._card[s].secret} "
                f"{self._secret[s]} (Found: {finds}.)",
                Audience.everyone(),
                data={"seat": s},
            )
        self._phase = "over"

    # -- views -------------------------------------------------------------------------

    def _public(self) -> MissingPublic:
        players = tuple(
            PlayerFacts(
                seat=s,
                name=self._name(s),
                pronouns=self._card[s].pronouns,
                relation=self._card[s].relation,
                messages=self._messages[s],
            )
            for s in self._seats
        )
        places = tuple(
            PlaceFacts(
                id=loc.id,
                name=loc.name,
                about=loc.about,
                occupied_by=self._name(o) if (o := self._occupant(loc.id)) else "",
            )
            for loc in self._town.locations
        )
        relations = tuple(
            RelationFacts(
                seat=s, other=self._pair[s], prompt=self._rel_prompt(s), answer=self._rel_answer[s]
            )
            for s in self._seats
            if s in self._rel_answer
        )
        return MissingPublic(
            title=self._town.title,
            intro=self._town.intro,
            friend=self._town.friend.name,
            friend_about=self._town.friend.about,
            players=players,
            suspects=tuple((x.name, x.about) for x in self._town.suspects),
            places=places,
            relationships=relations,
            seconds_left=self._left,
            clock=mmss(self._left),
            message_limit=self._config.message_limit,
            recent_speakers=tuple(self._history[-6:]),
            ending=self._ending.id if self._announced and self._ending else "",
        )

    def view(self, seat: str) -> MissingView:
        if seat not in self._card:
            raise ParlourError(f"no seat '{seat}' in missing; seats: {', '.join(self._seats)}")
        card = self._card[seat]
        pending = self._pending_card(seat)
        names = {loc.id: loc.name for loc in self._town.locations}
        suspect, place = self._assigned[seat]
        private = MissingPrivate(
            name=card.name,
            pronouns=card.pronouns,
            relation=card.relation,
            persona=card.persona,
            traits=card.traits,
            drive=self._drive[seat],
            worldbuilding=card.worldbuilding,
            secret_question=card.secret,
            background=self._background.get(seat, ""),
            secret=self._secret.get(seat, ""),
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
                )
                for f in self._finds[seat]
            ),
            visited=tuple(self._visited[seat]),
            relations=tuple(
                RelationFacts(
                    seat=a,
                    other=self._pair[a],
                    prompt=self._rel_prompt(a),
                    answer=self._rel_answer.get(a, ""),
                )
                for a in self._seats
                if seat in (a, self._pair[a])
            ),
            suspect=next(x.name for x in self._town.suspects if x.id == suspect),
            place=names[place],
            is_person=seat in self._config.people,
        )
        return MissingView(
            game="missing",
            seat=seat,
            seat_name=self._name(seat),
            phase=self._phase,
            public=self._public(),
            private=private,
            events=tuple(self._log.visible(seat)),
        )

    def spectator_view(self, reveal: bool) -> SpectatorView:
        return SpectatorView(
            game="missing",
            seat="spectator",
            seat_name="Spectator",
            phase=self._phase,
            public=self._public(),
            private=NoFacts(),
            events=self._log.for_spectator(reveal),
        )

    # -- end and audit -----------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self._phase == "over"

    def result(self) -> Result | None:
        if self._phase != "over" or self._ending is None:
            return None
        good = self._ending.good
        return Result(
            winners=tuple(self._seats) if good else (),
            summary=f"{self._ending.title} ({len(self.found_clues())} clues found, "
            f"{sum(self._messages.values())} messages)",
            returns={s: 1.0 if good else 0.0 for s in self._seats},
        )

    def snapshot(self) -> dict[str, Any]:
        return {
            "seed": self._seed,
            "phase": self._phase,
            "left": self._left,
            "round": self._round,
            "answered": dict(self._answered),
            "speaker": self._speaker,
            "messages": dict(self._messages),
            "history": list(self._history),
            "fired": list(self._fired),
            "card_of": dict(self._card_of),
            "commands": dict(self._commands),
            "busy": {k: list(v) for k, v in self._busy.items()},
            "deck": dict(self._deck),
            "finds": {s: [f.model_dump() for f in fs] for s, fs in self._finds.items()},
            "ending": self._ending.id if self._ending else None,
            "announced": self._announced,
            "secret": dict(self._secret),
            "cards": {seat: card.id for seat, card in self._card.items()},
            "picking": sorted(self._picking),
            "background": dict(self._background),
            "epilogue": dict(self._epilogue),
            "markers": self._markers.snapshot(),
            "events": [e.model_dump(mode="json") for e in self._log.events],
        }

    def secret_markers(self) -> dict[str, frozenset[str]]:
        """Secrets: their seat until the debrief, then everyone; search results: the searcher."""
        every = frozenset(self._seats)
        return {
            m: (every if self._revealed and m in self._secret_marks else a)
            for m, a in self._markers.entitled().items()
        }

    def __deepcopy__(self, memo: dict[int, Any]) -> MissingGame:
        clone = MissingGame.__new__(MissingGame)
        for key, value in self.__dict__.items():
            if isinstance(value, dict):
                value = {k: (list(v) if isinstance(v, list) else v) for k, v in value.items()}
                if key == "_finds":
                    value = {
                        s: [f.model_copy() for f in fs] for s, fs in self.__dict__[key].items()
                    }
            elif isinstance(value, list | set):
                value = type(value)(value)
            elif isinstance(value, EventLog | SecretMarkers):
                value = value.copy()
            clone.__dict__[key] = value
        return clone

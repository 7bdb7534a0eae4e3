"""Liar's dice as a parlour ``Game``: a deterministic state machine over a frozen
``Table``.

Every seat rolls its dice in secret (an event only that seat sees, with a planted marker
when ``plant_markers`` is on). In turn, seats raise the bid or call the last bidder a
liar; a challenge reveals every die, the side that was wrong loses one, and the loser
opens the next round. The last seat with dice wins. Each apply replaces the ``Table``
with a new frozen value; the only mutable parts are the seeded ``Rng`` (drawn in a fixed
order: one roll per round) and the event log.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from parlour.core.actions import Action, Choice
from parlour.core.decisions import Decision, DecisionKind, Option
from parlour.core.errors import IllegalAction
from parlour.core.events import Audience, Event, EventLog
from parlour.core.game import GameInfo, Result, SeatInfo
from parlour.core.game_base import SeededGame
from parlour.core.markers import SecretMarkers
from parlour.core.rng import Rng
from parlour.core.view import Facts, View
from parlour_liars_dice.rules import (
    WORDS,
    Bid,
    challenge_loser,
    count_face,
    legal_bids,
    next_seat,
    parse_option,
)

NAMES = ("Ada", "Bram", "Cleo", "Dov", "Esme", "Finn")
LIAR = "liar"


class LiarsDiceConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    players: int = Field(default=3, ge=2, le=6)
    #: Dice each seat starts with.
    dice: int = Field(default=5, ge=1, le=5)
    #: How much a raise may add to the quantity (keeps the menu of bids short).
    max_raise: int = Field(default=2, ge=1, le=4)
    #: Append a leak marker to every secret roll (the conformance suite and ``audit``).
    plant_markers: bool = False


class Table(BaseModel):
    """The whole truth of a game between two actions."""

    model_config = ConfigDict(frozen=True)

    order: tuple[str, ...]
    counts: dict[str, int]
    dice: dict[str, tuple[int, ...]]
    round: int = 1
    turn: str
    bid: Bid | None = None
    bids: int = 0  # bids made this round: part of the decision id
    out: tuple[str, ...] = ()  # seats without dice, first out first

    @property
    def alive(self) -> tuple[str, ...]:
        return tuple(s for s in self.order if self.counts[s] > 0)

    @property
    def dice_in_play(self) -> int:
        return sum(self.counts.values())


class LiarsPublic(Facts):
    round: int
    names: dict[str, str]
    counts: dict[str, int]
    dice_in_play: int
    turn: str
    bid: Bid | None
    max_raise: int


class LiarsPrivate(Facts):
    """A seat's own dice; a revealing spectator gets everyone's (``table``)."""

    dice: tuple[int, ...] = ()
    table: dict[str, tuple[int, ...]] | None = None


LiarsView = View[LiarsPublic, LiarsPrivate]


class LiarsDiceGame(SeededGame[LiarsDiceConfig]):
    info: ClassVar[GameInfo] = GameInfo(
        name="liars_dice",
        title="Liar's dice",
        description="secret dice, rising bids, call the liar; last seat with dice wins",
        min_seats=2,
        max_seats=6,
        simultaneous=False,
        imperfect_information=True,
    )

    def __init__(self, config: LiarsDiceConfig, seed: int) -> None:
        self._config = config
        self._seed = seed
        self._rng = Rng(seed)
        self._log = EventLog()
        self._markers = SecretMarkers(config.plant_markers, seed)
        order = tuple(f"p{i}" for i in range(1, config.players + 1))
        self._names = dict(zip(order, NAMES, strict=False))
        self._table = Table(
            order=order,
            counts=dict.fromkeys(order, config.dice),
            dice={s: () for s in order},
            turn=order[0],
        )
        self._start_round()

    @classmethod
    def new(cls, config: BaseModel, seed: int) -> LiarsDiceGame:
        return cls(LiarsDiceConfig.model_validate(config.model_dump()), seed)

    @property
    def table(self) -> Table:
        return self._table

    def name(self, seat: str) -> str:
        return self._names[seat]

    def seats(self) -> tuple[SeatInfo, ...]:
        return tuple(SeatInfo(id=s, name=self._names[s]) for s in self._table.order)

    # -- decisions -------------------------------------------------------------------------

    def pending(self) -> tuple[Decision, ...]:
        if self.is_terminal():
            return ()
        t = self._table
        options = [Option(id=b.option_id, label=f"bid {b.label()}") for b in self._bids()]
        if t.bid is not None:
            who = self._names[t.bid.bidder]
            options.append(Option(id=LIAR, label=f"call {who} a liar ({t.bid.label()})"))
        prompt = (
            f"Round {t.round}: the bid is {t.bid.label()} by {self._names[t.bid.bidder]}. "
            "Raise it or call liar."
            if t.bid
            else f"Round {t.round}: open the bidding."
        )
        return (
            Decision(
                id=f"r{t.round}:b{t.bids}:{t.turn}",
                seat=t.turn,
                kind=DecisionKind.CHOOSE_ONE,
                purpose="bid",
                prompt=prompt,
                options=tuple(options),
                max_tokens=16,
            ),
        )

    def _bids(self) -> tuple[Bid, ...]:
        t = self._table
        return legal_bids(t.bid, t.dice_in_play, self._config.max_raise)

    # -- rules -----------------------------------------------------------------------------

    def apply(self, decision_id: str, action: Action) -> list[Event]:
        decision = next((d for d in self.pending() if d.id == decision_id), None)
        if decision is None:
            raise IllegalAction(f"no open decision {decision_id}", decision_id=decision_id)
        decision.check(action)
        assert isinstance(action, Choice)  # check() admits only a Choice for choose-one
        start = len(self._log)
        if action.option == LIAR:
            self._challenge(decision.seat)
        else:
            bid = parse_option(action.option)
            assert bid is not None  # the option ids are exactly the legal bids and "liar"
            self._raise(bid.model_copy(update={"bidder": decision.seat}))
        return list(self._log.since(start))

    def _raise(self, bid: Bid) -> None:
        t = self._table
        self._log.emit(
            "bid",
            self._where(),
            f"I bid {bid.label()}.",
            Audience.everyone(),
            speaker=bid.bidder,
            data={"bidder": bid.bidder, "quantity": bid.quantity, "face": bid.face},
        )
        self._table = t.model_copy(
            update={"bid": bid, "bids": t.bids + 1, "turn": next_seat(t.order, t.counts, t.turn)}
        )

    def _challenge(self, challenger: str) -> None:
        t = self._table
        bid = t.bid
        assert bid is not None  # "liar" is offered only once there is a bid
        loser = challenge_loser(bid, challenger, t.dice)
        shown = count_face(t.dice.values(), bid.face)
        dice = "; ".join(f"{self._names[s]} {' '.join(map(str, t.dice[s]))}" for s in t.alive)
        self._log.emit(
            "challenge",
            self._where(),
            f"{self._names[challenger]} calls {self._names[bid.bidder]} a liar. "
            f"The dice: {dice}. {shown} × {WORDS[bid.face]} against a bid of {bid.label()}: "
            f"{self._names[loser]} loses a die.",
            Audience.everyone(),
            data={
                "challenger": challenger,
                "bidder": bid.bidder,
                "quantity": bid.quantity,
                "face": bid.face,
                "shown": shown,
                "loser": loser,
                "dice": {s: list(t.dice[s]) for s in t.alive},
            },
        )
        counts = {**t.counts, loser: t.counts[loser] - 1}
        out = t.out
        if counts[loser] == 0:
            out = (*out, loser)
            self._log.emit(
                "out",
                self._where(),
                f"{self._names[loser]} has no dice left and is out.",
                Audience.everyone(),
                data={"seat": loser},
            )
        opener = loser if counts[loser] > 0 else next_seat(t.order, counts, loser)
        self._table = t.model_copy(
            update={"counts": counts, "out": out, "bid": None, "bids": 0, "turn": opener}
        )
        if self.is_terminal():
            winner = self._table.alive[0]
            self._log.emit(
                "winner",
                self._where(),
                f"{self._names[winner]} is the last with dice and wins.",
                Audience.everyone(),
                data={"winner": winner},
            )
            return
        self._table = self._table.model_copy(update={"round": t.round + 1})
        self._start_round()

    def _start_round(self) -> None:
        """Roll every live seat's dice (in seat order, so replays draw the same numbers)
        and tell each seat its own roll alone."""
        t = self._table
        dice = {
            s: tuple(sorted(self._rng.randint(1, 6) for _ in range(t.counts[s]))) for s in t.order
        }
        self._table = t.model_copy(update={"dice": dice})
        counts = ", ".join(f"{self._names[s]} {t.counts[s]}" for s in t.alive)
        self._log.emit(
            "round",
            self._where(),
            f"Round {t.round}. Dice: {counts}. {self._names[t.turn]} opens.",
            Audience.everyone(),
            data={"round": t.round, "counts": dict(t.counts), "opener": t.turn},
        )
        for s in t.alive:
            mark = self._markers.plant(f"dice:r{t.round}:{s}", {s})
            self._log.emit(
                "roll",
                self._where(),
                f"You rolled {' '.join(map(str, dice[s]))}.{mark}",
                Audience.only(s),
                data={"dice": list(dice[s])},
            )

    def _where(self) -> str:
        return f"round {self._table.round}"

    # -- views -----------------------------------------------------------------------------

    def view(self, seat: str) -> LiarsView:
        return LiarsView(
            game="liars_dice",
            seat=seat,
            seat_name=self._names[seat],
            phase=self._where(),
            public=self._public(),
            private=LiarsPrivate(dice=self._table.dice[seat]),
            events=tuple(self._log.visible(seat)),
        )

    def spectator_view(self, reveal: bool) -> LiarsView:
        private = LiarsPrivate(table=dict(self._table.dice)) if reveal else LiarsPrivate()
        events = self._log.for_spectator(reveal)
        return LiarsView.spectator("liars_dice", self._where(), self._public(), private, events)

    def _public(self) -> LiarsPublic:
        t = self._table
        return LiarsPublic(
            round=t.round,
            names=dict(self._names),
            counts=dict(t.counts),
            dice_in_play=t.dice_in_play,
            turn=t.turn,
            bid=t.bid,
            max_raise=self._config.max_raise,
        )

    @property
    def events(self) -> tuple[Event, ...]:
        return self._log.events

    def is_terminal(self) -> bool:
        return len(self._table.alive) <= 1

    def result(self) -> Result | None:
        if not self.is_terminal():
            return None
        t = self._table
        winner = t.alive[0]
        left = t.counts[winner]
        # Returns rank the table: the first seat out 0, the winner 1, the rest evenly between.
        steps = max(len(t.order) - 1, 1)
        returns = {s: i / steps for i, s in enumerate(t.out)}
        returns[winner] = 1.0
        return Result(
            winners=(winner,),
            summary=f"{self._names[winner]} wins with {left} {'die' if left == 1 else 'dice'} left",
            returns=returns,
        )

    def snapshot(self) -> dict[str, Any]:
        return {"table": self._table.model_dump(mode="json"), "markers": self._markers.snapshot()}

    def secret_markers(self) -> dict[str, frozenset[str]]:
        return self._markers.entitled()

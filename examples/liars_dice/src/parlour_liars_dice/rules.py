"""The rules of liar's dice as pure functions over frozen values: what a bid is, which
bids may follow which, and who loses a challenge. No state, no randomness, no I/O, so
every rule is testable on its own (``tests/test_rules.py``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pydantic import BaseModel, ConfigDict, Field

FACES = (1, 2, 3, 4, 5, 6)
WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


class Bid(BaseModel):
    """A claim that at least ``quantity`` dice on the whole table show ``face``."""

    model_config = ConfigDict(frozen=True)

    quantity: int = Field(ge=1)
    face: int = Field(ge=1, le=6)
    bidder: str = ""

    @property
    def option_id(self) -> str:
        """The stable option id, e.g. ``bid:3x5``."""
        return f"bid:{self.quantity}x{self.face}"

    def label(self) -> str:
        """How a person reads the bid: "3 × five"."""
        return f"{self.quantity} × {WORDS[self.face]}"

    def beats(self, other: Bid | None) -> bool:
        """A raise says more dice, or as many dice showing a higher face."""
        if other is None:
            return True
        return (self.quantity, self.face) > (other.quantity, other.face)


def parse_option(option_id: str) -> Bid | None:
    """The bid an option id names, or None (``liar`` or anything else)."""
    if not option_id.startswith("bid:"):
        return None
    quantity, _, face = option_id[4:].partition("x")
    if not (quantity.isdigit() and face.isdigit()):
        return None
    q, f = int(quantity), int(face)
    if q < 1 or f not in FACES:
        return None
    return Bid(quantity=q, face=f)


def legal_bids(current: Bid | None, dice_in_play: int, max_raise: int) -> tuple[Bid, ...]:
    """Every bid that may follow ``current``, in ascending order.

    A bid never claims more dice than are on the table, and a raise adds at most
    ``max_raise`` to the quantity (the opening bid names at most ``max_raise`` dice). The
    cap keeps the menu short enough for a small model to read, and it is still a full
    game: any quantity is reachable by raising in steps.
    """
    floor = current.quantity if current else 0
    top = min(dice_in_play, floor + max_raise)
    return tuple(
        bid
        for q in range(max(floor, 1), top + 1)
        for f in FACES
        if (bid := Bid(quantity=q, face=f)).beats(current)
    )


def count_face(dice: Iterable[tuple[int, ...]], face: int) -> int:
    """How many dice on the table show ``face``."""
    return sum(d.count(face) for d in dice)


def challenge_loser(bid: Bid, challenger: str, dice: Mapping[str, tuple[int, ...]]) -> str:
    """Who loses a die when ``challenger`` calls ``bid`` a lie: the bidder if the table
    holds fewer than ``bid.quantity`` of the face, else the challenger."""
    return challenger if count_face(dice.values(), bid.face) >= bid.quantity else bid.bidder


def next_seat(order: tuple[str, ...], counts: Mapping[str, int], after: str) -> str:
    """The next seat after ``after`` (cyclically) that still has dice."""
    i = order.index(after)
    for step in range(1, len(order) + 1):
        seat = order[(i + step) % len(order)]
        if counts[seat] > 0:
            return seat
    raise ValueError("nobody has dice left")

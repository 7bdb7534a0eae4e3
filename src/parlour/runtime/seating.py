"""Seat specs (``scripted``, ``random``, ``human``, or a model spec) → seats."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from parlour.core.errors import ParlourError
from parlour.core.game import SeatInfo
from parlour.core.module import GameModule
from parlour.core.rng import hash_seed
from parlour.seats.base import Seat
from parlour.seats.human import HumanSeat
from parlour.seats.random_seat import RandomSeat
from parlour.seats.scripted import ScriptedSeat

BUILTIN = ("scripted", "random", "human")

#: Builds an LLM seat: (spec, seat, game module, seat seed, game id) → seat (see llm_seating).
LlmSeatFactory = Callable[[str, SeatInfo, GameModule, int, str], Seat]


@dataclass(frozen=True)
class SeatPlan:
    """Which spec plays which seat: the default plus per-seat overrides."""

    default: str
    system_default: str
    overrides: dict[str, str]

    scripted_system: frozenset[str] = frozenset()

    def spec_for(self, seat: SeatInfo) -> str:
        if seat.id in self.overrides:
            return self.overrides[seat.id]
        if seat.system and seat.id in self.scripted_system:
            return "scripted"
        return self.system_default if seat.system else self.default

    def is_model(self, spec: str, module: GameModule) -> bool:
        return spec not in ("random", "human") and module.named_policy(spec) is None


def parse_overrides(items: list[str], seats: tuple[SeatInfo, ...]) -> dict[str, str]:
    """``--seat 3=human`` / ``--seat p3=openai:gpt-4o-mini`` / ``--seat Kenji=scripted``."""
    out: dict[str, str] = {}
    for item in items:
        key, sep, spec = item.partition("=")
        if not sep or not spec:
            raise ParlourError(f"bad --seat '{item}'; write SEAT=SPEC, e.g. --seat 3=human")
        out[_resolve_seat(key.strip(), seats)] = spec.strip()
    return out


def _resolve_seat(key: str, seats: tuple[SeatInfo, ...]) -> str:
    for seat in seats:
        if key in (seat.id, seat.name) or key.lower() == seat.name.lower():
            return seat.id
    if key.isdigit():
        players = [s for s in seats if not s.system]
        n = int(key)
        if 1 <= n <= len(players):
            return players[n - 1].id
    names = ", ".join(f"{s.id} ({s.name})" for s in seats)
    raise ParlourError(f"no seat '{key}'; seats are: {names}")


def build_seat(
    spec: str,
    seat: SeatInfo,
    module: GameModule,
    seed: int,
    llm_factory: LlmSeatFactory | None,
    human: HumanSeat | None = None,
    game_id: str = "",
) -> Seat:
    seat_seed = hash_seed(seed, seat.id)
    named = module.named_policy(spec)
    if named is not None:
        return ScriptedSeat(named, seat_seed, name=spec)
    if spec == "random":
        return RandomSeat(seat_seed)
    if spec == "human":
        return human or HumanSeat()
    if llm_factory is None:
        names = ", ".join(["scripted", *module.policies, "random", "human"])
        raise ParlourError(f"unknown seat spec '{spec}'; use {names} or a model spec")
    return llm_factory(spec, seat, module, seat_seed, game_id)

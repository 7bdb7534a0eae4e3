"""The conformance leak scan reads data, not only text: a secret hidden in an event's ``data``,
in a view's ``public`` part or in a published ``reason`` is caught with where it sat."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from pydantic import BaseModel

from parlour.core import conformance
from parlour.core.actions import Action
from parlour.core.decisions import Decision, DecisionKind, Option
from parlour.core.events import Audience, Event, EventLog
from parlour.core.game import GameInfo, Result, SeatInfo
from parlour.core.view import AnyView, Facts, NoFacts, View

SECRET = "[[mk:secret:a]]"


class Hint(Facts):
    hint: str = ""


class LeakConfig(BaseModel):
    leak: str = "none"  # none | data | public | reason
    secret: str = SECRET
    plant_markers: bool = True


class TwoSeatGame:
    """Seat a holds a secret; each seat answers once; what leaks depends on the config."""

    info: ClassVar[GameInfo] = GameInfo(
        name="toy",
        title="Toy",
        description="",
        min_seats=2,
        max_seats=2,
        simultaneous=False,
        imperfect_information=True,
    )
    config_model: ClassVar[type[BaseModel]] = LeakConfig

    def __init__(self, config: LeakConfig) -> None:
        self.cfg = config
        self.log = EventLog()
        self.turn = 0
        self.log.emit("secret", "setup", f"Your card {config.secret}", Audience.only("a"))

    @classmethod
    def new(cls, config: BaseModel, seed: int) -> TwoSeatGame:
        assert isinstance(config, LeakConfig)
        return cls(config)

    def seats(self) -> tuple[SeatInfo, ...]:
        return (SeatInfo(id="a", name="A"), SeatInfo(id="b", name="B"))

    def pending(self) -> tuple[Decision, ...]:
        if self.turn >= 2:
            return ()
        seat = "ab"[self.turn]
        return (
            Decision(
                id=f"d{self.turn}",
                seat=seat,
                kind=DecisionKind.CHOOSE_ONE,
                purpose="pick",
                prompt="Pick.",
                options=(Option(id="x", label="X"), Option(id="y", label="Y")),
            ),
        )

    def apply(self, decision_id: str, action: Action) -> list[Event]:
        data: dict[str, Any] = {"pick": getattr(action, "option", "")}
        if self.cfg.leak == "data" and self.turn == 0:
            data["card"] = {"nested": [f"a holds {self.cfg.secret}"]}
        if self.cfg.leak == "reason":
            data["reason"] = action.reason
        self.turn += 1
        return [self.log.emit("pick", "play", "Someone picked.", Audience.everyone(), data=data)]

    def view(self, seat: str) -> AnyView:
        public = Hint(hint=self.cfg.secret if self.cfg.leak == "public" and self.turn else "")
        events = tuple(e for e in self.log.events if e.audience.includes(seat, ()))
        return View(
            game="toy",
            seat=seat,
            seat_name=seat,
            phase="play",
            public=public,
            private=NoFacts(),
            events=events,
        )

    def is_terminal(self) -> bool:
        return self.turn >= 2

    def result(self) -> Result | None:
        return Result(winners=(), summary="done") if self.is_terminal() else None

    def secret_markers(self) -> dict[str, frozenset[str]]:
        return {self.cfg.secret: frozenset({"a"})}


def _scan(leak: str, secret: str = SECRET) -> int:
    return conformance.check_no_leaks(
        TwoSeatGame,  # type: ignore[arg-type]
        lambda seed: LeakConfig(leak=leak, secret=secret),
        range(2),
    )


def test_a_clean_game_passes_and_the_scan_counts_views() -> None:
    assert _scan("none") == 2 * 2 * 3  # seeds x seats x (start + two answers)


@pytest.mark.parametrize(
    ("leak", "where"),
    [
        ("data", "view.events.0.data.card.nested.0"),
        ("public", "view.public.hint"),
        ("reason", "view.events.0.data.reason"),
    ],
)
def test_a_secret_in_data_public_or_a_published_reason_is_caught(leak: str, where: str) -> None:
    with pytest.raises(AssertionError, match=rf"seat b sees marker .* in {where}"):
        _scan(leak)


#: Secrets the scan cannot look up in a seat's JSON text (not marker-shaped, or holding a
#: character JSON escapes): they are searched for in the strings themselves.
ODD_SECRETS = ["the butler", '[[mk:say:"hi"]]', "[[mk:back\\slash]]"]


@pytest.mark.parametrize("secret", ODD_SECRETS)
def test_a_secret_of_any_shape_passes_when_kept_and_is_caught_when_published(
    secret: str,
) -> None:
    assert _scan("none", secret) == 2 * 2 * 3
    with pytest.raises(AssertionError, match=r"seat b sees marker .* in view.public.hint"):
        _scan("public", secret)
    with pytest.raises(AssertionError, match=r"in view.events.0.data.card.nested.0"):
        _scan("data", secret)

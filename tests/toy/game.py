"""Toy: a tiny real game for the runner's paths and the writing-a-game guide.

Each round, every player is asked "speak or pass?" (``batch`` from the config; by
default ``as_arrived``: the first to say "speak" takes the floor and the others'
questions are withdrawn). The speaker says one line; then everyone guesses the round's
number at once (an ordered batch that may carry a wall-clock or a game-clock deadline
with the default guess "1"). The rules can reject a guess the decision admits (the
"house number"), and two stall modes make the game break on purpose so the runner's
``GameStalled`` paths can be tested. The game clock counts minutes: one per applied
action.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from parlour.core.actions import Action, Choice, Text
from parlour.core.decisions import Deadline, Decision, DecisionKind, Option
from parlour.core.errors import IllegalAction
from parlour.core.events import Audience, Event, EventLog
from parlour.core.game import GameInfo, Result, SeatInfo
from parlour.core.game_base import SeededGame
from parlour.core.module import GameModule
from parlour.core.prompting import PromptParts
from parlour.core.rng import Rng
from parlour.core.view import AnyView, Facts, View

NUMBERS = ("1", "2", "3")


class ToyPublic(Facts):
    round: int
    scores: dict[str, int]
    clock: float


class ToyPrivate(Facts):
    """A player's secret word; a revealing spectator gets every word and the number."""

    word: str = ""
    words: dict[str, str] | None = None
    number: str | None = None


ToyView = View[ToyPublic, ToyPrivate]


class ToyConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    players: int = Field(default=3, ge=2, le=6)
    rounds: int = Field(default=2, ge=1, le=5)
    #: How the "speak or pass?" batch is applied.
    floor_batch: Literal["ordered", "as_arrived"] = "as_arrived"
    #: A deadline on the guesses: none, wall seconds, or minutes of the game clock.
    guess_deadline: Literal["none", "wall", "game"] = "none"
    guess_seconds: float = Field(default=1.0, gt=0)
    guess_human_seconds: float | None = None
    #: The rules reject this guess although the decision offers it (a rule rejection).
    house_number: Literal["1", "2", "3"] | None = None
    #: Break the game on purpose in round 1: offer nothing, or reject every guess.
    stall: Literal["never", "no_decision", "no_legal_answer"] = "never"
    plant_markers: bool = False


class ToyGame(SeededGame[ToyConfig]):
    info: ClassVar[GameInfo] = GameInfo(
        name="toy",
        title="Toy",
        description="speak or pass, then guess the number",
        min_seats=2,
        max_seats=6,
        simultaneous=True,
        imperfect_information=True,
    )

    def __init__(self, config: ToyConfig, seed: int) -> None:
        self._config = config
        self._seed = seed
        self._rng = Rng(seed)
        self._log = EventLog()
        self._players = tuple(f"p{i}" for i in range(1, config.players + 1))
        marker = (lambda p: f" [M-{seed}-{p}]") if config.plant_markers else (lambda p: "")
        self._words = {
            p: self._rng.choice(("apple", "pear", "plum")) + marker(p) for p in self._players
        }
        self._scores = dict.fromkeys(self._players, 0)
        self._round = 1
        self._phase = "floor"
        self._asked = list(self._players)  # who still holds a floor question
        self._speaker = ""
        self._guessed: dict[str, str] = {}
        self._number = self._rng.choice(NUMBERS)
        self._minutes = 0
        self._guess_opened_at = 0
        for p in self._players:
            self._log.emit("word", "setup", f"Your word is {self._words[p]}.", Audience.only(p))

    @classmethod
    def new(cls, config: BaseModel, seed: int) -> ToyGame:
        return cls(ToyConfig.model_validate(config.model_dump()), seed)

    def seats(self) -> tuple[SeatInfo, ...]:
        return tuple(SeatInfo(id=p, name=p.upper()) for p in self._players)

    def clock(self) -> float:
        """Game-clock minutes: one per applied action (read by game-clock deadlines)."""
        return float(self._minutes)

    # -- decisions -------------------------------------------------------------------------

    def _decision(
        self, purpose: str, seat: str, kind: DecisionKind, prompt: str, **fields: Any
    ) -> Decision:
        """This round's ``purpose`` decision for ``seat`` (its id: round, purpose, seat)."""
        return Decision(
            id=f"r{self._round}:{purpose}:{seat}",
            seat=seat,
            kind=kind,
            purpose=purpose,
            prompt=prompt,
            **fields,
        )

    def _floor(self, seat: str) -> Decision:
        return self._decision(
            "floor",
            seat,
            DecisionKind.CHOOSE_ONE,
            "Do you want to speak?",
            options=(Option(id="speak", label="speak"), Option(id="pass", label="pass")),
            batch=self._config.floor_batch,
        )

    def _say(self) -> Decision:
        return self._decision(
            "say",
            self._speaker,
            DecisionKind.FREE_TEXT,
            "Say one line to the table.",
            max_length=80,
            max_tokens=40,
        )

    def _guess(self, seat: str) -> Decision:
        cfg = self._config
        deadline = None
        if cfg.guess_deadline == "wall":
            deadline = Deadline(seconds=cfg.guess_seconds, human_seconds=cfg.guess_human_seconds)
        elif cfg.guess_deadline == "game":
            # Game-clock deadlines are absolute: the default applies once clock() reaches it.
            deadline = Deadline(seconds=self._guess_opened_at + cfg.guess_seconds, clock="game")
        return self._decision(
            "guess",
            seat,
            DecisionKind.CHOOSE_ONE,
            "Guess the number.",
            options=tuple(Option(id=n, label=n) for n in NUMBERS),
            deadline=deadline,
            default=Choice(option="1") if deadline else None,
        )

    def pending(self) -> tuple[Decision, ...]:
        if self._phase == "floor":
            return tuple(self._floor(p) for p in self._asked)
        if self._phase == "say":
            return (self._say(),)
        if self._phase == "guess":
            return tuple(self._guess(p) for p in self._players if p not in self._guessed)
        return ()  # "over", or "limbo" (the no_decision stall)

    # -- rules -----------------------------------------------------------------------------

    def apply(self, decision_id: str, action: Action) -> list[Event]:
        decision = next((d for d in self.pending() if d.id == decision_id), None)
        if decision is None:
            raise IllegalAction(f"no open decision {decision_id}", decision_id=decision_id)
        decision.check(action)
        start = len(self._log)
        if decision.purpose == "floor":
            self._on_floor(decision.seat, action)
        elif decision.purpose == "say":
            assert isinstance(action, Text)
            self._log.emit(
                "speech", self._where(), action.text, Audience.everyone(), speaker=decision.seat
            )
            self._open_guesses()
        else:
            assert isinstance(action, Choice)
            if self._config.stall == "no_legal_answer" and self._round == 1:
                raise IllegalAction(
                    "the house holds every number this round", decision_id=decision_id
                )
            if action.option == self._config.house_number:
                raise IllegalAction(f"the house holds {action.option}", decision_id=decision_id)
            self._guessed[decision.seat] = action.option
            if len(self._guessed) == len(self._players):
                self._score()
        self._minutes += 1
        return list(self._log.since(start))

    def _where(self) -> str:
        return f"round {self._round}"

    def _on_floor(self, seat: str, action: Action) -> None:
        assert isinstance(action, Choice)
        self._asked.remove(seat)
        if action.option == "speak":
            self._speaker = seat
            self._asked = []  # the floor is taken: every other floor question is withdrawn
            self._phase = "say"
            self._log.emit("floor", self._where(), f"{seat} takes the floor.", Audience.everyone())
        elif not self._asked:
            self._log.emit("floor", self._where(), "Nobody speaks.", Audience.everyone())
            self._open_guesses()

    def _open_guesses(self) -> None:
        self._phase = "guess"
        self._guess_opened_at = self._minutes + 1  # after the action being applied

    def _score(self) -> None:
        winners = [p for p, n in self._guessed.items() if n == self._number]
        for p in winners:
            self._scores[p] += 1
        text = f"The number was {self._number}; right: {', '.join(winners) or 'nobody'}."
        self._log.emit("reveal", self._where(), text, Audience.everyone())
        if self._config.stall == "no_decision" and self._round == 1:
            self._phase = "limbo"
            return
        if self._round == self._config.rounds:
            self._phase = "over"
            return
        self._round += 1
        self._phase = "floor"
        self._asked = list(self._players)
        self._speaker = ""
        self._guessed = {}
        self._number = self._rng.choice(NUMBERS)

    # -- views -----------------------------------------------------------------------------

    def view(self, seat: str) -> ToyView:
        return ToyView(
            game="toy",
            seat=seat,
            seat_name=seat.upper(),
            phase=self._phase,
            public=self._public(),
            private=ToyPrivate(word=self._words[seat]),
            events=tuple(self._log.visible(seat)),
        )

    def spectator_view(self, reveal: bool) -> ToyView:
        shown = ToyPrivate(words=dict(self._words), number=self._number)
        private = shown if reveal else ToyPrivate()
        events = self._log.for_spectator(reveal)
        return ToyView.spectator("toy", self._phase, self._public(), private, events)

    def _public(self) -> ToyPublic:
        return ToyPublic(round=self._round, scores=dict(self._scores), clock=self._minutes)

    @property
    def events(self) -> tuple[Event, ...]:
        return self._log.events

    def is_terminal(self) -> bool:
        return self._phase == "over"

    def result(self) -> Result | None:
        if not self.is_terminal():
            return None
        best = max(self._scores.values())
        winners = tuple(p for p in self._players if self._scores[p] == best)
        return Result(
            winners=winners, summary=f"{', '.join(winners)} won", returns=dict(self._scores)
        )

    def snapshot(self) -> dict[str, Any]:
        return {
            "round": self._round,
            "phase": self._phase,
            "asked": list(self._asked),
            "speaker": self._speaker,
            "guessed": dict(self._guessed),
            "number": self._number,
            "scores": dict(self._scores),
            "minutes": self._minutes,
            "words": dict(self._words),
        }

    def secret_markers(self) -> dict[str, frozenset[str]]:
        if not self._config.plant_markers:
            return {}
        return {f"[M-{self._seed}-{p}]": frozenset({p}) for p in self._players}


def toy_policy(view: AnyView, decision: Decision, rng: Rng) -> Action:
    """The scripted player: the first seat speaks, the others pass; guesses "2"."""
    if decision.purpose == "floor":
        return Choice(option="speak" if view.seat == "p1" else "pass")
    if decision.purpose == "say":
        return Text(text=f"{view.seat_name} says hello.")
    return Choice(option="2")


class ToyPrompter:
    def parts(self, view: AnyView, decision: Decision) -> PromptParts:
        return PromptParts(
            system=f"You play Toy as {view.seat_name}. Your word is {view.private.word}.",
            command=decision.prompt,
        )


def make_config(players: int | None, overrides: dict[str, object]) -> BaseModel:
    return ToyConfig.model_validate({"players": players or 3, **overrides})


MODULE = GameModule(
    game=ToyGame, policy=toy_policy, prompter=ToyPrompter(), make_config=make_config
)

"""The missing game: friends of someone who stopped answering text each other against a clock.

Phases: ``characters`` (each seat answers its card's worldbuilding and secret questions in
the second person, privately: ``characters.py``) → ``intro`` → ``relationships`` →
``suspicions`` (one suspect and one place each: ``introductions.py``) → ``chat`` on a
simulated clock (``chat.py``, with ``search.py``, ``story.py`` and the ``referee.py``) →
``epilogue`` → ``over`` (a debrief reveals every secret: ``epilogue.py``). A person's
``/commands`` are answered in any phase (``commands.py``).

This module holds the kernel protocol: the deal (``deal.py``) makes the state
(``state.py``); ``pending`` asks what the phase table says; ``apply`` hands an answer to
its purpose's handler; views are built by ``views.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from pydantic import BaseModel

from parlour.core.actions import Action, Choice, Text
from parlour.core.decisions import Decision
from parlour.core.errors import IllegalAction
from parlour.core.events import Event
from parlour.core.game import Forkable, GameInfo, Result, SeatInfo
from parlour.core.game_base import StateGame, require_config
from parlour.core.pending import PendingDecisions
from parlour.core.rng import Rng, hash_seed
from parlour.games.missing import (
    acts,
    characters,
    chat,
    commands,
    epilogue,
    introductions,
    policies,
)
from parlour.games.missing.config import MissingConfig
from parlour.games.missing.deal import deal
from parlour.games.missing.state import MissingState, Phase
from parlour.games.missing.views import MissingView, SpectatorView, seat_view, spectator

Opens = Callable[[MissingState, MissingConfig], tuple[Decision, ...]]
Handler = Callable[[MissingState, MissingConfig, Decision, Action], None]


class MissingGame(StateGame[MissingConfig, MissingState], Forkable):
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

    def __init__(self, config: MissingConfig, seed: int) -> None:
        self._config = config
        self._seed = seed
        self._st = deal(config, seed)
        #: ``pending()`` as of the last change (decisions are frozen: a fork shares them).
        self._pending: tuple[Decision, ...] | None = None

    @classmethod
    def new(cls, config: BaseModel, seed: int) -> MissingGame:
        return cls(require_config(config, MissingConfig, "missing"), seed)

    # -- protocol properties (config, seed, events and state: StateGame) ---------------

    def clock(self) -> float:
        """Simulated seconds elapsed since the chat began (the Game clock hook)."""
        return self._config.clock_seconds - self._st.left

    @property
    def seconds_left(self) -> float:
        return self._st.left

    def seats(self) -> tuple[SeatInfo, ...]:
        return tuple(SeatInfo(id=s, name=self._st.name(s)) for s in self._st.seats)

    def found_clues(self) -> set[str]:
        return self._st.found_clues()

    # -- decisions and answers ---------------------------------------------------------

    def pending(self) -> tuple[Decision, ...]:
        if self._pending is None:
            opened = _PENDING.get(self._st.phase)
            asked = opened(self._st, self._config) if opened else ()
            self._pending = tuple(self._as_act(d) for d in asked)
        return self._pending

    def _as_act(self, decision: Decision) -> Decision:
        """An act seat's free-text question as a choice among worded lines (``acts.py``)."""
        if decision.seat not in self._config.act_seats:
            return decision
        return acts.as_choice(decision, lambda: self.view(decision.seat), self._st.seed)

    def apply(self, decision_id: str, action: Action) -> list[Event]:
        decision = PendingDecisions.of(self.pending()).get(decision_id)
        decision.check(action)
        st = self._st
        start = len(st.log)
        self._pending = None
        if decision.purpose in commands.SETUP_TEXTS and commands.is_command(
            st, decision.seat, action
        ):
            commands.apply_setup_command(st, self._config, decision.seat, _text(action))
        else:
            handler = _HANDLERS.get(decision.purpose)
            if handler is None:  # pragma: no cover - the table covers all pending() offers
                raise IllegalAction(
                    f"unknown decision purpose {decision.purpose}", decision_id=decision_id
                )
            handler(st, self._config, decision, action)
        self._engine_turns()
        return st.log.since(start)

    def _engine_turns(self) -> None:
        """Makes the round choices of ``engine_turns`` seats by the scripted rule from each
        seat's own view, seeded by the decision, so a replay makes the same ones."""
        while True:
            due = [
                d
                for d in self.pending()
                if d.purpose == chat.TURN and d.seat in self._config.engine_turns
            ]
            if not due:
                return
            decision = due[0]
            rng = Rng(hash_seed(self._st.seed, f"engine:{decision.id}"))
            option = policies.turn_choice(self.view(decision.seat), decision, rng)
            self._pending = None
            chat.apply_turn(self._st, self._config, decision.seat, option)

    # -- views -------------------------------------------------------------------------

    def view(self, seat: str) -> MissingView:
        return seat_view(self._st, self._config, seat)

    def spectator_view(self, reveal: bool) -> SpectatorView:
        return spectator(self._st, self._config, reveal)

    # -- end and audit -----------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self._st.phase == "over"

    def result(self) -> Result | None:
        st = self._st
        if st.phase != "over" or st.ending is None:
            return None
        good = st.ending.good
        return Result(
            winners=st.seats if good else (),
            summary=f"{st.ending.title} ({len(st.found_clues())} clues found, "
            f"{sum(st.messages.values())} messages)",
            returns={s: 1.0 if good else 0.0 for s in st.seats},
        )

    def snapshot(self) -> dict[str, Any]:
        st = self._st
        return {
            "seed": self._seed,
            "phase": st.phase,
            "left": st.left,
            "round": st.round,
            "answered": dict(st.answered),
            "speaker": st.speaker,
            "messages": dict(st.messages),
            "history": list(st.history),
            "fired": list(st.fired),
            "card_of": dict(st.card_of),
            "commands": dict(st.commands),
            "busy": {k: list(v) for k, v in st.busy.items()},
            "deck": {k: list(v) for k, v in st.deck.items()},
            "card_words": {str(k): [p, list(a)] for k, (p, a) in st.card_words.items()},
            "finds": {s: [f.model_dump() for f in fs] for s, fs in st.finds.items()},
            "ending": st.ending.id if st.ending else None,
            "announced": st.announced,
            "secret": dict(st.secret),
            "cards": dict(st.cards),
            "picking": sorted(st.picking),
            "background": dict(st.background),
            "epilogue": dict(st.epilogue),
            "markers": st.markers.snapshot(),
            "events": [e.model_dump(mode="json") for e in st.log.events],
        }

    def secret_markers(self) -> dict[str, frozenset[str]]:
        """Secrets: their seat until the debrief, then everyone; search results: the searcher."""
        st = self._st
        every = frozenset(st.seats)
        secrets = {m.strip() for m in st.secret_mark.values() if m}
        return {
            m: (every if st.revealed and m in secrets else a)
            for m, a in st.markers.entitled().items()
        }


def _text(action: Action) -> str:
    assert isinstance(action, Text)  # decision.check accepted only text for free text
    return action.text


def _choice(action: Action) -> str:
    assert isinstance(action, Choice)  # decision.check accepted only a choice for choose-one
    return action.option


def _character(st: MissingState, cfg: MissingConfig, d: Decision, a: Action) -> None:
    characters.apply_answer(st, d.seat, d.purpose, acts.spoken(d, a)[0].text)


def _setup(st: MissingState, cfg: MissingConfig, d: Decision, a: Action) -> None:
    said, act = acts.spoken(d, a)
    introductions.apply_answer(st, d.seat, d.purpose, said.text, act)


def _message(st: MissingState, cfg: MissingConfig, d: Decision, a: Action) -> None:
    said, act = acts.spoken(d, a)
    chat.apply_message(st, cfg, d.seat, said.text, act)


def _epilogue(st: MissingState, cfg: MissingConfig, d: Decision, a: Action) -> None:
    said, act = acts.spoken(d, a)
    epilogue.apply_epilogue(st, d.seat, said.text, act)


#: What each phase asks (``over`` asks nothing).
_PENDING: dict[Phase, Opens] = {
    "characters": characters.pending,
    "intro": introductions.pending,
    "relationships": introductions.pending,
    "suspicions": introductions.pending,
    "chat": chat.pending,
    "epilogue": epilogue.pending,
}

#: Who applies an answer, by the decision's purpose.
_HANDLERS: dict[str, Handler] = {
    characters.PICK: lambda st, cfg, d, a: characters.apply_pick(st, d.seat, _choice(a)),
    characters.BACKGROUND: _character,
    characters.SECRET: _character,
    introductions.INTRODUCTION: _setup,
    introductions.RELATIONSHIP: _setup,
    introductions.SUSPICION: _setup,
    chat.TURN: lambda st, cfg, d, a: chat.apply_turn(st, cfg, d.seat, _choice(a)),
    chat.MESSAGE: _message,
    epilogue.EPILOGUE: _epilogue,
}

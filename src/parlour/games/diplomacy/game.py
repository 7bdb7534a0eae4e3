"""The Diplomacy Game: the engine's phases as kernel decisions, events and views.

Each phase: (movement only, when press is on) rounds of press, then one order decision
per power with something to order; the powers decide simultaneously and, once all have
answered, the adjudicator resolves the phase. Orders become public after adjudication,
as in the real game. The game ends with a solo victory, or after the Winter adjustments
of ``end_year`` in a draw; the returns are the final centre counts.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel

from parlour.core.actions import Action, Choices, Structured
from parlour.core.decisions import Decision
from parlour.core.errors import ParlourError
from parlour.core.events import Audience, Event
from parlour.core.game import GameInfo, Result, SeatInfo
from parlour.core.game_base import TrackedStateGame, config_for
from parlour.core.markers import SecretMarkers
from parlour.core.rng import Rng, hash_seed
from parlour.games.diplomacy import bot_protocol as bp
from parlour.games.diplomacy import consolidate, decisions, negotiation, press, reports
from parlour.games.diplomacy.adjudicator import Rules, process_phase
from parlour.games.diplomacy.board import Board, PhaseType, Season, initial_board
from parlour.games.diplomacy.config import DiplomacyConfig, phase_order
from parlour.games.diplomacy.policies import dumbbot
from parlour.games.diplomacy.state import DiplomacyState, PhaseRecord
from parlour.games.diplomacy.views import (
    DiplomacyPublic,
    DiplomacyView,
    SpectatorView,
    counts_line,
    power_name,
    public_facts,
    seat_view,
    spectator,
)


class DiplomacyGame(TrackedStateGame[DiplomacyConfig, DiplomacyState]):
    info: ClassVar[GameInfo] = GameInfo(
        name="diplomacy",
        title="Diplomacy",
        description=(
            "The classic seven-power game of negotiation and simultaneous orders; "
            "optional press rounds, DATC-checked adjudication, DumbBot opponents."
        ),
        min_seats=7,
        max_seats=7,
        simultaneous=True,
        imperfect_information=True,
    )

    def __init__(self, config: DiplomacyConfig, seed: int, state: DiplomacyState) -> None:
        self._config = config
        self._seed = seed
        self._st = state
        self._rules = Rules(victory_centres=config.victory_centres)
        # The public part of every view, rebuilt only when the public state changed.
        self._public: tuple[tuple[object, ...], DiplomacyPublic] | None = None

    # -- setup ---------------------------------------------------------------------------

    @classmethod
    def new(cls, config: BaseModel, seed: int) -> DiplomacyGame:
        cfg = config_for(config, DiplomacyConfig)
        state = DiplomacyState(
            board=initial_board(cfg.game_map()), markers=SecretMarkers(cfg.plant_markers, seed)
        )
        game = cls(cfg, seed, state)
        game._setup()
        game._open_phase()
        return game

    def _setup(self) -> None:
        st, cfg = self._st, self._config
        gm = st.board.game_map
        press_text = (
            f"{cfg.press_rounds} round(s) of press before each movement phase"
            if cfg.press_rounds
            else "no press"
        )
        st.emit(
            "setup",
            f"Diplomacy on the {gm.name} map: {len(gm.powers)} powers, "
            f"{len(gm.supply_centres)} supply centres; "
            f"{cfg.victory_centres or gm.victory_centres} centres win alone; otherwise the "
            f"game is a draw after {cfg.end_year}; {press_text}.",
            Audience.everyone(),
            data={"powers": list(gm.powers), "end_year": cfg.end_year},
        )
        for power in gm.powers:
            homes = ", ".join(gm.home_centres.get(power, ()))
            text = f"You play {power_name(power)}. Your home centres: {homes}."
            text += st.markers.plant(f"briefing:{power}", [power])
            st.emit("briefing", text, Audience.only(power), data={"power": power})
        st.centre_history.append((gm.start_year - 1, st.board.centre_counts()))

    # -- protocol: properties ------------------------------------------------------------

    @property
    def board(self) -> Board:
        return self._st.board

    def board_at(self, phase: str) -> Board | None:
        """The board at the start of ``phase`` (a completed phase or the current one)."""
        for board in [*self._st.boards, self._st.board]:
            if board.phase.name == phase:
                return board
        return None

    def seats(self) -> tuple[SeatInfo, ...]:
        return tuple(SeatInfo(id=p, name=power_name(p)) for p in self._st.board.game_map.powers)

    def is_terminal(self) -> bool:
        return self._st.stage == "over"

    # -- protocol: apply -----------------------------------------------------------------

    def apply(self, decision_id: str, action: Action) -> list[Event]:
        st = self._st
        decision = st.pending.get(decision_id)
        decision.check(action)
        mark = len(st.log)
        cfg = self._config
        if action.reason == bp.MISSED and decision.seat in cfg.humans and decision.deadline:
            self._missed(decision.seat, decision_id)
        opened: list[Decision] = []
        purpose = decision.purpose
        if purpose == press.PRESS and st.stage == "window":
            opened = bp.apply_talk(st, cfg, decision, action, self._bots())
        elif purpose == press.PRESS:
            press.apply_press(st, cfg, decision, action)
        elif purpose == bp.PLAN:
            opened = bp.apply_plan(st, cfg, decision, action)
        elif purpose == bp.GATE:
            opened = bp.apply_gate(st, cfg, decision, action)
        elif purpose in (bp.REPLY, bp.INITIATE):
            opened = bp.apply_message(st, cfg, decision, action, self._bots())
        elif purpose == bp.FINALISE:
            st.submitted[decision.seat] = bp.apply_finalise(st, cfg, decision, action)
        else:
            st.submitted[decision.seat] = _orders_of(decision, action)
        st.pending.take(decision_id)
        for d in opened:
            self._open_one(d)
        if st.stage == "window":  # messages wait for a bot with no message decision open
            for d in bp.open_gates(st, cfg, self._bots()):
                self._open_one(d)
        self._advance()
        return st.log.since(mark)

    def _bots(self) -> list[str]:
        """Powers playing the bot protocol this phase (surviving ones)."""
        st, cfg = self._st, self._config
        phase = st.board.phase.name
        return [p for p in cfg.bots if p in st.bots and cfg.is_bot(p, phase)]

    def _advance(self) -> None:
        st = self._st
        while not st.pending and st.stage != "over":
            if st.stage == "window":
                st.stage = "finalise"
                self._open(bp.finalise_decisions(st, self._bots()))
            elif st.stage == "press":
                if st.press_round < self._config.press_rounds:
                    st.press_round += 1
                    self._open(press.press_decisions(st, self._config))
                else:
                    self._open_orders()
            else:
                self._adjudicate()

    def _open(self, opened: list[Decision]) -> None:
        self._st.pending.clear()
        for decision in opened:
            self._open_one(decision)

    def _open_one(self, decision: Decision) -> None:
        """Open ``decision``; a power the bot took over gets none: the engine submits
        DumbBot's orders for it (seeded by the game, the phase and the power) and it says
        nothing."""
        st = self._st
        power = decision.seat
        if power not in st.taken:
            st.pending.open(decision)
            return
        if decision.purpose not in decisions.PURPOSES:  # its talk in the window: its orders
            found = [d for d in decisions.phase_decisions(st.board) if d.seat == power]
            if not found or power in st.submitted:
                return
            decision = found[0]
        rng = Rng(hash_seed(self._seed, f"takeover:{decision.id}"))
        action = dumbbot(self.view(power), decision, rng)
        st.submitted[power] = _orders_of(decision, action)

    # -- live table: missed deadlines, takeover and hand-back ------------------------------

    def _missed(self, power: str, missed_id: str) -> None:
        st, cfg = self._st, self._config
        st.missed[power] = n = st.missed.get(power, 0) + 1
        if cfg.takeover_after is None or n < cfg.takeover_after or power in st.taken:
            return
        st.taken[power] = phase = st.board.phase.name
        name = power_name(power)
        st.emit(
            "takeover",
            f"{name} missed {n} deadlines: the scripted bot plays {name} from now on, "
            f"until the player takes the seat back.",
            Audience.everyone(),
            data={"power": power, "missed": n, "phase": phase},
        )
        # the power's other open decisions (the one missed is taken by ``apply``)
        for d in [d for d in st.pending if d.seat == power and d.id != missed_id]:
            st.pending.take(d.id)
            self._open_one(d)

    def _hand_back(self) -> None:
        """Powers a person took back (``handed_back``) from this phase on play again."""
        st, cfg = self._st, self._config
        now = phase_order(st.board.phase.name)
        for power, back in sorted(cfg.handed_back.items()):
            taken = st.taken.get(power)
            if taken is None or not phase_order(taken) < phase_order(back) <= now:
                continue
            del st.taken[power]
            st.missed[power] = 0
            st.emit(
                "handback",
                f"{power_name(power)} is played by its player again.",
                Audience.everyone(),
                data={"power": power, "since": taken},
            )

    def _open_phase(self) -> None:
        st, cfg = self._st, self._config
        board = st.board
        st.submitted = {}
        self._hand_back()
        st.emit(
            "phase",
            f"{board.phase.long_name}. Supply centres: {counts_line(board)}.",
            Audience.everyone(),
            data={"phase": board.phase.name, "counts": board.centre_counts()},
        )
        for power in cfg.bots:
            if power not in st.bots and cfg.is_bot(power, board.phase.name):
                consolidate.start(st, power)
        bots = self._bots()
        if board.phase.type is PhaseType.MOVEMENT and bots:
            st.stage = "window"
            st.press_round = 0
            self._open(bp.open_window(st, cfg, bots))
        elif board.phase.type is PhaseType.MOVEMENT and cfg.press_rounds > 0:
            st.stage = "press"
            st.press_round = 1
            self._open(press.press_decisions(st, cfg))
        else:
            self._open_orders()

    def _open_orders(self) -> None:
        st = self._st
        st.stage = "orders"
        st.press_round = 0
        self._open(decisions.phase_decisions(st.board))

    def _adjudicate(self) -> None:
        st, cfg = self._st, self._config
        board = st.board
        phase = board.phase.name
        powers = board.game_map.powers
        submitted = {p: st.submitted[p] for p in powers if p in st.submitted}
        result = process_phase(board, {p: list(os) for p, os in submitted.items()}, self._rules)
        for power, orders in submitted.items():
            st.emit(
                "orders",
                "; ".join(orders) or "(no orders: waives)",
                Audience.everyone(),
                speaker=power,
                data={"power": power, "orders": list(orders)},
            )
        outcomes = reports.outcomes(result)
        dislodged = tuple(str(d.unit) for d in result.dislodged)
        st.emit(
            "adjudication",
            reports.phase_text(result),
            Audience.everyone(),
            data={
                "phase": phase,
                "results": [o.as_dict() for o in outcomes],
                "dislodged": [
                    {
                        "power": d.unit.power,
                        "unit": str(d.unit),
                        "retreats": [str(r) for r in d.retreats],
                    }
                    for d in result.dislodged
                ],
                # Never expected: answers are legal by construction. Kept for audits.
                "rejected": [
                    {"power": r.power, "order": r.text, "reason": r.reason} for r in result.rejected
                ],
            },
        )
        st.history.append(PhaseRecord(phase, tuple(submitted.items()), outcomes, dislodged))
        if board.phase.type is PhaseType.MOVEMENT:
            negotiation.settle(st, board, submitted)
        for power in self._bots():
            consolidate.after_phase(st, power, board, submitted, result.board)
        st.boards.append(board)
        new = result.board
        st.board = new
        if board.phase.season is Season.FALL and new.phase.season is not Season.FALL:
            self._year_end(board, new, phase)
        self._eliminations(phase)
        if new.finished:
            self._finish(new.winner)
        elif new.phase.year > cfg.end_year:
            self._finish(None)
        else:
            self._open_phase()

    def _year_end(self, before: Board, after: Board, phase: str) -> None:
        st = self._st
        year = before.phase.year
        # Ownership changes only here, so the Fall board still has the year's owners.
        gained, lost = reports.centre_changes(before, after)
        counts = after.centre_counts()
        st.centre_history.append((year, counts))
        st.emit(
            "centres",
            reports.centres_text(year, after, gained, lost),
            Audience.everyone(),
            data={"year": year, "counts": counts, "gained": gained, "lost": lost},
            phase=phase,
        )

    def _eliminations(self, phase: str) -> None:
        st = self._st
        for power in st.board.game_map.powers:
            if power not in st.eliminated and st.board.is_eliminated(power):
                st.eliminated.append(power)
                st.emit(
                    "elimination",
                    f"{power_name(power)} has no units and no centres left: eliminated.",
                    Audience.everyone(),
                    data={"power": power},
                    phase=phase,
                )

    def _finish(self, winner: str | None) -> None:
        st, cfg = self._st, self._config
        board = st.board
        counts = board.centre_counts()
        ranked = sorted(board.game_map.powers, key=lambda p: (-counts.get(p, 0), p))
        standing = ", ".join(f"{power_name(p)} {counts.get(p, 0)}" for p in ranked)
        if winner is not None:
            summary = (
                f"{power_name(winner)} wins alone with {counts[winner]} centres "
                f"in {board.phase.year}. Centres: {standing}."
            )
        else:
            summary = f"Draw at the end of {cfg.end_year}. Centres: {standing}."
        st.outcome = Result(
            winners=(winner,) if winner else (),
            summary=summary,
            returns={p: float(counts.get(p, 0)) for p in board.game_map.powers},
        )
        st.stage = "over"
        st.pending.clear()
        negotiation.final_table(st)
        st.emit(
            "result",
            summary,
            Audience.everyone(),
            data={
                "winner": winner,
                "reason": "solo" if winner else "end_year",
                "year": board.phase.year,
                "centres": counts,
                "eliminated": list(st.eliminated),
            },
        )

    # -- protocol: views and records -----------------------------------------------------

    def _public_facts(self) -> DiplomacyPublic:
        st = self._st
        # Everything public changes only with the phase, the press round or the end.
        key = (st.board.phase.name, st.stage, st.press_round, len(st.history), len(st.eliminated))
        if self._public is None or self._public[0] != key:
            self._public = (key, public_facts(st, self._config))
        return self._public[1]

    def view(self, seat: str) -> DiplomacyView:
        if seat not in self._st.board.game_map.powers:
            seats = ", ".join(self._st.board.game_map.powers)
            raise ParlourError(f"unknown seat '{seat}'; seats: {seats}")
        return seat_view(self._st, self._config, seat, self._public_facts())

    def spectator_view(self, reveal: bool) -> SpectatorView:
        return spectator(self._st, self._public_facts(), reveal)

    def snapshot(self) -> dict[str, Any]:
        st = self._st
        return {
            "config": self._config.model_dump(mode="json"),
            "seed": self._seed,
            "board": st.board.to_dict(),
            "stage": st.stage,
            "press_round": st.press_round,
            "pending": [d.model_dump(mode="json") for d in st.pending],
            "submitted": {p: list(os) for p, os in st.submitted.items()},
            "history": [r.as_dict() for r in st.history],
            "centre_history": [[y, c] for y, c in st.centre_history],
            "eliminated": list(st.eliminated),
            "markers": st.markers.snapshot(),
            "outcome": st.outcome.model_dump(mode="json") if st.outcome else None,
            "events": [e.model_dump(mode="json") for e in st.log.events],
        }

    def __deepcopy__(self, memo: dict[int, Any]) -> DiplomacyGame:
        # Boards (and the map they hold), decisions and events are immutable: share them.
        clone = DiplomacyGame(self._config, self._seed, self._st.clone())
        clone._public = self._public
        return clone


def _orders_of(decision: Decision, action: Action) -> tuple[str, ...]:
    """The order texts an answer stands for, in the decision's unit order."""
    if isinstance(action, Structured):
        assert decision.json_schema is not None
        return tuple(str(action.value[u]) for u in decision.json_schema["required"])
    assert isinstance(action, Choices)
    return tuple(action.options)

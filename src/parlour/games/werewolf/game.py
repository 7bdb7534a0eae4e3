"""The werewolf Game: setup, the phase machine and the kernel protocol.

Phases: night (pack chat, then simultaneous night actions) → dawn report → day
discussion (routed, or ask_all) → vote → elimination → win check → diaries → next night.
Every transition happens in ``_step`` when no decision is open any more.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import asdict
from typing import Any, ClassVar

from pydantic import BaseModel

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.errors import ParlourError
from parlour.core.events import Audience, Event
from parlour.core.game import GameInfo, SeatInfo
from parlour.core.game_base import TrackedStateGame, config_for
from parlour.core.markers import SecretMarkers
from parlour.core.rng import Rng
from parlour.games.werewolf import discussion, night, plans, reflection, voting
from parlour.games.werewolf.cast import default_cast, with_names
from parlour.games.werewolf.config import WerewolfConfig
from parlour.games.werewolf.roles import ROLE_ORDER, WOLF_GROUP, Role, Team, deal
from parlour.games.werewolf.state import Player, Stage, WerewolfState
from parlour.games.werewolf.victory import Draw, result_for, winner
from parlour.games.werewolf.views import (
    SpectatorView,
    WerewolfView,
    role_card,
    seat_view,
    spectator,
)

Handler = Callable[["WerewolfGame", Decision, Action], None]


class WerewolfGame(TrackedStateGame[WerewolfConfig, WerewolfState]):
    info: ClassVar[GameInfo] = GameInfo(
        name="werewolf",
        title="Werewolf",
        description=(
            "Social deduction: a village hunts the werewolves hidden among it, with a seer, "
            "a doctor and an optional maniac; talk is routed, votes are exact."
        ),
        min_seats=5,
        max_seats=16,
        simultaneous=True,
        imperfect_information=True,
    )

    def __init__(self, config: WerewolfConfig, seed: int, state: WerewolfState) -> None:
        self._config = config
        self._seed = seed
        self._rng = Rng(seed)
        self._st = state

    # -- setup ---------------------------------------------------------------------------

    @classmethod
    def new(cls, config: BaseModel, seed: int) -> WerewolfGame:
        cfg = config_for(config, WerewolfConfig)
        names = cfg.player_names()
        ids = [f"p{i}" for i in range(1, cfg.players + 1)]
        mix = cfg.role_mix()
        state = WerewolfState(
            players=[], role_counts={}, markers=SecretMarkers(cfg.plant_markers, seed)
        )
        game = cls(cfg, seed, state)
        roles = deal(mix, ids, game._rng)
        st = game._st
        st.players = [
            Player(id=s, name=n, number=i, role=roles[s])
            for i, (s, n) in enumerate(zip(ids, names, strict=True), 1)
        ]
        st.role_counts = {r.value: mix[r] for r in ROLE_ORDER if mix.get(r)}
        # The pack is fixed for the whole game (dead wolves keep reading its records).
        st.log.set_group(WOLF_GROUP, [p.id for p in st.wolves()])
        st.cast = cfg.cast or with_names(default_cast(cfg.players, seed), names)
        st.seed = seed
        game._deal_cards()
        if cfg.first_phase == "night":
            night.enter_night(st, cfg)
        else:
            discussion.enter_day(st, cfg)
        game._advance()
        return game

    def _deal_cards(self) -> None:
        st = self._st
        counts = ", ".join(f"{r} ×{c}" for r, c in st.role_counts.items())
        st.emit(
            "setup",
            f"{len(st.players)} players: {', '.join(p.name for p in st.players)}. "
            f"Roles in play: {counts}.",
            Audience.everyone(),
        )
        wolves = [w.id for w in st.wolves()]
        for p in st.players:
            # A wolf's role is known to the whole pack; every other role only to its holder.
            allowed = wolves if p.role is Role.WEREWOLF else [p.id]
            maniac = Role.MANIAC.value in st.role_counts
            p.card = role_card(p.name, p.role, maniac) + st.markers.plant(f"role:{p.id}", allowed)
            st.emit("role", p.card, Audience.only(p.id), data={"role": p.role.value})
        if len(wolves) > 1:
            st.emit(
                "pack",
                "The pack: " + ", ".join(st.name(w) for w in wolves) + ".",
                night.PACK,
                data={"wolves": wolves},
            )

    # -- protocol: seats and end --------------------------------------------------------

    def seats(self) -> tuple[SeatInfo, ...]:
        players = tuple(SeatInfo(id=p.id, name=p.name) for p in self._st.players)
        return (*players, SeatInfo(id=discussion.ROUTER, name="Router", system=True))

    def is_terminal(self) -> bool:
        return self._st.stage is Stage.OVER

    # -- protocol: apply -----------------------------------------------------------------

    def apply(self, decision_id: str, action: Action) -> list[Event]:
        st = self._st
        decision = st.pending.get(decision_id)
        if decision.purpose == discussion.ROUTE:
            discussion.precheck_route(st, decision, action)
        decision.check(action)
        mark = len(st.log)
        # Handlers validate game rules before they change anything, so a rejected
        # answer leaves the state untouched.
        _HANDLERS[decision.purpose](self, decision, action)
        st.pending.take(decision_id)
        self._advance()
        return st.log.since(mark)

    def _advance(self) -> None:
        st = self._st
        while not st.pending and st.stage is not Stage.OVER:
            self._step()

    def _step(self) -> None:
        st, cfg = self._st, self._config
        if st.stage is Stage.WOLF_CHAT:
            if not night.open_next_chat(st, cfg):
                night.open_night_actions(st, cfg)
        elif st.stage is Stage.NIGHT_ACTIONS:
            night.resolve_night(st, cfg)
            if not self._check_win():
                discussion.enter_day(st, cfg)
        elif st.stage in (Stage.PLAN, Stage.ROUTE, Stage.SPEAK):
            disc = st.discussion
            if disc is not None and disc.replan and not discussion.discussion_over(st):
                # something happened (a seer claim): every seat looks at its plan again
                because, disc.replan = disc.replan, ""
                if discussion.open_plans(st, cfg, because, skip=disc.last_message_speaker):
                    return
            if discussion.discussion_over(st) or not discussion.open_next_turn(st, cfg):
                voting.enter_vote(st, cfg)
        elif st.stage is Stage.VOTE:
            if cfg.vote_mode == "sequential" and voting.open_next_voter(st, cfg):
                return
            if cfg.vote_mode == "simultaneous" and st.vote and not st.vote.opened:
                voting.open_ballots(st, cfg)
                if st.pending:
                    return
            voting.tally(st, cfg, self._rng)
            if self._check_win():
                return
            if st.day >= cfg.max_days:
                self._finish("timeout")
            elif cfg.diaries:
                reflection.enter_diaries(st, cfg)
            else:
                night.enter_night(st, cfg)
        elif st.stage is Stage.DIARY:
            night.enter_night(st, cfg)
        elif st.stage is Stage.DEBRIEF:
            st.stage = Stage.OVER

    def _check_win(self) -> bool:
        outcome: Team | Draw | None = winner(self._st)
        if outcome is None and any(
            not self._st.player(s).alive for s in self._config.end_when_dead
        ):
            outcome = "stopped"
        if outcome is None:
            return False
        self._finish(outcome)
        return True

    def _finish(self, outcome: Team | Draw) -> None:
        st = self._st
        st.outcome = result_for(st, outcome)
        st.phase = "end"
        for p in st.players:
            p.revealed = True
        roles = "; ".join(f"{p.name}: {p.role.value}" for p in st.players)
        st.emit(
            "result",
            f"{st.outcome.summary} Roles: {roles}.",
            Audience.everyone(),
            data={
                "winners": list(st.outcome.winners),
                "roles": {p.id: p.role.value for p in st.players},
            },
        )
        if self._config.debrief:
            reflection.enter_debrief(st, self._config)
        else:
            st.stage = Stage.OVER

    # -- protocol: views and records -----------------------------------------------------

    def view(self, seat: str) -> WerewolfView:
        if seat != discussion.ROUTER and not any(p.id == seat for p in self._st.players):
            raise ParlourError(f"unknown seat '{seat}'; seats: {self._seat_ids()}")
        return seat_view(self._st, self._config, seat)

    def _seat_ids(self) -> str:
        return ", ".join(s.id for s in self.seats())

    def spectator_view(self, reveal: bool) -> SpectatorView:
        return spectator(self._st, self._config, reveal)

    def snapshot(self) -> dict[str, Any]:
        st = self._st
        return {
            "config": self._config.model_dump(mode="json"),
            "seed": self._seed,
            "stage": st.stage.value,
            "phase": st.phase,
            "day": st.day,
            "night": st.night,
            "players": [asdict(p) for p in st.players],
            "role_counts": st.role_counts,
            "last_protected": st.last_protected,
            "seer_results": st.seer_results,
            "discussion": asdict(st.discussion) if st.discussion else None,
            "night_plan": asdict(st.night_plan) if st.night_plan else None,
            "vote": asdict(st.vote) if st.vote else None,
            "days": [d.model_dump() for d in st.days],
            "nights": [n.model_dump() for n in st.nights],
            "pending": [d.model_dump(mode="json") for d in st.pending],
            "outcome": st.outcome.model_dump(mode="json") if st.outcome else None,
            "markers": st.markers.snapshot(),
            "events": [e.model_dump(mode="json") for e in st.log.events],
            # the Rng's position, read on a copy so that the snapshot draws nothing
            "rng_probe": copy.deepcopy(self._rng).random(),
        }


def _night_action(game: WerewolfGame, d: Decision, a: Action) -> None:
    night.apply_night_action(game.state, d, a)


_HANDLERS: dict[str, Handler] = {
    night.WOLF_CHAT: lambda g, d, a: night.apply_chat(g.state, g.config, d, a),
    night.WOLF_KILL: _night_action,
    night.INVESTIGATE: _night_action,
    night.PROTECT: _night_action,
    night.MANIAC_KILL: _night_action,
    plans.PLAN: lambda g, d, a: discussion.apply_plan(g.state, g.config, d, a),
    discussion.ROUTE: lambda g, d, a: discussion.apply_route(g.state, g.config, d, a),
    discussion.SPEAK: lambda g, d, a: discussion.apply_speak(g.state, g.config, d, a),
    discussion.INTERJECT: lambda g, d, a: discussion.apply_interject(g.state, g.config, d, a),
    voting.VOTE: lambda g, d, a: voting.apply_vote(g.state, g.config, d, a),
    reflection.DIARY: lambda g, d, a: reflection.apply_diary(g.state, g.config, d, a),
    reflection.DEBRIEF: lambda g, d, a: reflection.apply_debrief(g.state, d, a),
}

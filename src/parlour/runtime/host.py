"""Hosting live games: a worker that runs every hosted game it holds the lease of.

``GameHost.create`` plans and stores a game and registers it for hosting (a free lease
row) without running it. ``serve`` is the worker's loop: it claims hosted games whose
lease is free or expired, resumes each from the store as an asyncio task (a person's
seat becomes a ``RemoteSeat`` on the desk), renews the leases it holds, applies admin
commands (pause, resume, end, replace a seat) and releases each game at its end. Any
number of hosts may serve one database: the lease decides who runs a game, and since
the stored actions are the truth, a game whose worker died is resumed by another from
exactly where its last committed action left it.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.errors import IllegalAction, ParlourError
from parlour.core.game import Game
from parlour.runtime.remote import RemoteSeat, Trial, clear_game
from parlour.runtime.runner import Observer
from parlour.runtime.seating import HumanSpec, SeatSpec
from parlour.runtime.session import Session, plan, plan_resume, resume_planned
from parlour.runtime.store import CommandRow, DatabaseErrors, Store

log = logging.getLogger(__name__)

#: A seed drawn for a game is one of this many: too many to search for the one that
#: draws a cast shown before the start (and exact as a JSON number).
SECRET_SEEDS = 2**53

#: Admin commands, stored in ``admin_commands`` and applied by the lease holder.
COMMANDS = ("pause", "resume", "end", "replace")

#: Observers for a game the host starts running (e.g. a server's live feed), by game id.
ObserversFor = Callable[[str], Sequence[Observer]]


def rules_trial(game: Game) -> Trial:
    """Try an answer on a copy of ``game`` as it stands: the rule's reason, or None."""

    def trial(decision: Decision, action: Action) -> str | None:
        if decision.id not in {d.id for d in game.pending()}:
            return None  # withdrawn meanwhile: the runner records that, not a refusal
        probe = copy.deepcopy(game)
        try:
            probe.apply(decision.id, action)
        except IllegalAction as err:
            return str(err)
        return None

    return trial


@dataclass
class _Running:
    session: Session
    task: asyncio.Task[None]


class GameHost:
    """One worker hosting live games over a store (SQLite or PostgreSQL)."""

    def __init__(
        self,
        store: Store,
        worker: str,
        lease_seconds: float = 10.0,
        *,
        capacity: int = 200,
        poll: float = 0.2,
        observers: ObserversFor | None = None,
        seat_poll: float = 0.1,
        pace: float = 0.0,
    ) -> None:
        self.store = store
        self.worker = worker
        self.leases = store.leases.holder(worker, lease_seconds)
        self.capacity = capacity
        self.poll = poll
        self.seat_poll = seat_poll
        #: Seconds to pause after each batch of every game (people following a fast game).
        self.pace = pace
        self._observers = observers
        self._running: dict[str, _Running] = {}
        self._renewed = 0.0

    def observe(self, observers: ObserversFor) -> None:
        """Adds observers for the games this host starts from now on (a web server in the
        same process rings its streams' doorbell after each commit)."""
        before = self._observers
        self._observers = (lambda gid: [*before(gid), *observers(gid)]) if before else observers

    # -- creating ------------------------------------------------------------------------

    def create(
        self,
        game: str,
        *,
        players: int | None,
        seed: int | None,
        seats: Mapping[str, SeatSpec],
        overrides: Mapping[str, object],
        model: str = "scripted",
        probe: bool = False,
    ) -> str:
        """Plan and store a new live game without running it; returns its id.

        ``seats`` maps seat ids to specs (the rest play ``model``); ``overrides`` are game
        settings; ``seed`` None draws a secret one. A ``HumanSpec`` seat is played through
        the desk (``RemoteSeat``).
        """
        planned = plan(
            self.store,
            game,
            players=players,
            seed=secrets.randbelow(SECRET_SEEDS) if seed is None else seed,
            options=dict(overrides),
            model=model,
            seats={seat: spec.text for seat, spec in seats.items()},
            probe=probe,
        )
        known = {info.id for info in planned.game.seats()}
        unknown = sorted(set(seats) - known)
        if unknown:
            raise ParlourError(
                f"no seat '{unknown[0]}' in this {game} game; seats are: {', '.join(sorted(known))}"
            )
        game_id = self.store.create_game(
            planned.game_name,
            planned.config.model_dump_json(),
            planned.seed,
            planned.texts,
            planned.game.events,
        )
        self.leases.register(game_id)
        return game_id

    # -- admin commands ------------------------------------------------------------------

    def _command(self, game_id: str, command: str, seat: str = "", spec: str = "") -> None:
        self.store.get_game(game_id)  # an unknown id is a one-line error naming the fix
        lease = self.leases.get(game_id)
        if lease is None or lease.local:  # local: a command-line process plays it
            raise ParlourError(
                f"game {game_id} is not hosted (it was not created by a host, or it ended)"
            )
        self.store.leases.add_command(game_id, command, seat, spec)

    def pause(self, game_id: str) -> None:
        """Stop running the game (saved; ``resume`` continues it)."""
        self._command(game_id, "pause")

    def resume(self, game_id: str) -> None:
        self._command(game_id, "resume")

    def end(self, game_id: str) -> None:
        """Stop the game for good, without a result (status ``ended``)."""
        self._command(game_id, "end")

    def replace_seat(self, game_id: str, seat: str, spec: SeatSpec) -> None:
        """Who plays ``seat`` from now on (a takeover: a person for a model, or back)."""
        row = self.store.get_game(game_id)
        if seat not in row.seats:
            raise ParlourError(
                f"no seat '{seat}' in game {game_id}; seats are: {', '.join(row.seats)}"
            )
        self._command(game_id, "replace", seat, spec.text)

    def pending_commands(self, *game_ids: str) -> list[CommandRow]:
        """Commands not yet applied for any of ``game_ids``, oldest first: one query
        whatever the number of games (the loop asks for all it runs at every tick)."""
        return self.store.leases.pending_commands(list(game_ids))

    def _done(self, command: CommandRow) -> None:
        self.store.leases.command_done(command.id)

    # -- running -------------------------------------------------------------------------

    def running(self) -> frozenset[str]:
        """The games this host runs now."""
        return frozenset(g for g, r in self._running.items() if not r.task.done())

    async def serve(self, stop: asyncio.Event) -> None:
        """Claim, run, renew and release hosted games until ``stop`` is set."""
        try:
            while not stop.is_set():
                try:
                    await self.tick()
                except DatabaseErrors as err:
                    # A database that is briefly away (restart, failover) must not end the
                    # worker: its games keep running and the next round tries again.
                    log.warning("worker %s: hosting round failed: %s", self.worker, err)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), self.poll)
        finally:
            for game_id, running in list(self._running.items()):
                if running.task.done():
                    self._reap(game_id, running.task)  # finished just now: drop its lease
                else:
                    await self._stop(game_id)
                    self.leases.release(game_id)

    async def tick(self) -> None:
        """One round of the loop: renew, reap, apply commands, claim."""
        loop = asyncio.get_running_loop()
        if loop.time() - self._renewed >= self.leases.seconds / 3:
            self._renewed = loop.time()
            for lost in self.leases.renew(list(self._running)):
                log.warning("worker %s lost the lease of %s; stopping it", self.worker, lost)
                await self._stop(lost)
        for game_id, running in list(self._running.items()):
            if running.task.done():
                self._reap(game_id, running.task)
        # One query for the commands of every game run here; each game's commands are
        # applied in the order they were given, as before.
        for command in self.pending_commands(*self._running):
            await self._apply(command)
        room = self.capacity - len(self._running)
        if room > 0:
            for game_id in self.leases.claimable(room):
                if self.leases.claim(game_id):
                    await self._adopt(game_id)

    async def _adopt(self, game_id: str) -> None:
        """A freshly claimed game: apply its waiting commands, then run it if it runs."""
        for command in self.pending_commands(game_id):
            await self._apply(command)
        if self.leases.get(game_id) is None:
            return  # ended
        if self.store.get_game(game_id).status == "running":
            if game_id not in self._running:
                self._start(game_id)
        elif game_id not in self._running:
            self.leases.release(game_id)

    def _start(self, game_id: str) -> None:
        planned = plan_resume(self.store, game_id, probe=False)
        observers = self._observers(game_id) if self._observers else ()
        session = resume_planned(self.store, planned, observers=observers)
        session.runner.pace = self.pace
        pending = {d.id for d in planned.game.pending()}
        # The seats' old open rows died with the worker that asked; answers to decisions
        # still pending stay in the inbox and are taken when they are asked again.
        clear_game(self.store, game_id, keep=pending)
        trial = rules_trial(planned.game)
        for seat_id, spec in planned.specs.items():
            if isinstance(spec, HumanSpec):
                session.runner.seats[seat_id] = RemoteSeat(
                    self.store,
                    game_id,
                    seat_id,
                    trial=trial,
                    poll=self.seat_poll,
                    timeout=session.runner.decision_timeout,
                )
        log.info("running %s from action %d", game_id, planned.next_idx)
        task = asyncio.create_task(self._play(session), name=f"game-{game_id}")
        self._running[game_id] = _Running(session, task)

    async def _play(self, session: Session) -> None:
        await session.run()

    def _reap(self, game_id: str, task: asyncio.Task[None]) -> None:
        del self._running[game_id]
        err = None if task.cancelled() else task.exception()
        if err is None:
            # Release before saying so: whoever reads "finished" finds the lease gone.
            self.leases.release(game_id, drop=True)
            log.info("finished %s", game_id)
            return
        if isinstance(err, ParlourError) and "already has action" in str(err):
            # Another worker wrote this game's next action: our lease had lapsed.
            log.warning("worker %s: game %s runs elsewhere now", self.worker, game_id)
            return
        log.error("game %s failed: %r", game_id, err)
        self.store.set_status(game_id, "failed")
        self.leases.release(game_id, drop=True, error=f"{type(err).__name__}: {err}")

    async def _stop(self, game_id: str) -> None:
        """Cancel a game's task and wait until its last write is done."""
        running = self._running.pop(game_id, None)
        if running is None:
            return
        running.task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await running.task

    async def _apply(self, command: CommandRow) -> None:
        game_id = command.game_id
        if command.command == "pause":
            await self._stop(game_id)
            self.store.set_status(game_id, "paused")
            self.leases.release(game_id)
        elif command.command == "resume":
            self.store.set_status(game_id, "running")
            if game_id not in self._running:
                self._start(game_id)
        elif command.command == "end":
            await self._stop(game_id)
            clear_game(self.store, game_id)
            self.store.set_status(game_id, "ended")
            self.leases.release(game_id, drop=True)
        elif command.command == "replace":
            was_running = game_id in self._running
            await self._stop(game_id)
            seats = dict(self.store.get_game(game_id).seats)
            seats[command.seat] = command.spec
            self.store.set_seats(game_id, seats)
            if was_running:
                self._start(game_id)
        else:
            log.error("unknown admin command %r for %s", command.command, game_id)
        self._done(command)

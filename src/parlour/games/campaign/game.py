"""The campaign game: one player, three director seats with three views of one state.

A session opens with a synopsis (session 1: the campaign's opening; later ones: the
story director's), then turns: ``act`` (player) → ``gd`` (game director: route + check)
→ ``story`` (only when routed there) → ``scene`` (scene director) [→ ``review``]. After
``turns_per_session`` turns the scene closes and the story director updates the sheet
of every NPC met this session; then the next session opens, or the campaign ends.

Each phase is one row of ``PHASES``: the decision it asks and how its answer is applied,
in the phase's own module. This class holds the state and speaks the Game protocol.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel

from parlour.core.actions import Action
from parlour.core.asks import contexts
from parlour.core.decisions import Decision
from parlour.core.errors import IllegalAction
from parlour.core.events import Audience, Event
from parlour.core.game import GameInfo, Result, SeatInfo
from parlour.core.game_base import StateGame, require_config
from parlour.core.markers import SecretMarkers
from parlour.core.pending import PendingDecisions
from parlour.core.view import AnyView
from parlour.games.campaign import (
    acts,
    game_director,
    gates,
    planting,
    player,
    scene_director,
    sessions,
    story_director,
)
from parlour.games.campaign.ask import CampaignAsk, WordingAsk
from parlour.games.campaign.config import CampaignConfig
from parlour.games.campaign.content import Campaign
from parlour.games.campaign.scenes import entered_scene, open_scene
from parlour.games.campaign.state import (
    GAME,
    PLAYER,
    SCENE,
    STORY,
    CampaignState,
    Phase,
    Scene,
)
from parlour.games.campaign.views import SceneView, TableView, scene_view, seat_view, spectator


@dataclass(frozen=True)
class PhaseRules:
    """A phase: the decision it opens, and how an answer to it changes the state."""

    ask: Callable[[CampaignState, CampaignConfig], Decision]
    apply: Callable[[CampaignState, CampaignConfig, Action], None]


#: every phase that asks something (``over`` asks nothing)
PHASES: dict[Phase, PhaseRules] = {
    "act": PhaseRules(player.ask, player.apply),
    "gd": PhaseRules(game_director.ask, game_director.apply),
    "open": PhaseRules(story_director.ask, story_director.apply),
    "story": PhaseRules(story_director.ask, story_director.apply),
    "ooc": PhaseRules(story_director.ask_ooc, story_director.apply_ooc),
    "scene": PhaseRules(scene_director.ask, scene_director.apply),
    "line": PhaseRules(scene_director.ask_line, scene_director.apply_line),
    "review": PhaseRules(scene_director.ask_review, scene_director.apply_review),
    "sheets": PhaseRules(sessions.ask_sheet, sessions.apply_sheet),
}


class CampaignGame(StateGame[CampaignConfig, CampaignState]):
    info: ClassVar[GameInfo] = GameInfo(
        name="campaign",
        title="Campaign",
        description="A solo tabletop RPG told by story, scene and game directors; NPCs know "
        "only what they witnessed.",
        min_seats=1,
        max_seats=1,
        simultaneous=False,
        imperfect_information=True,
    )

    def __init__(self, config: CampaignConfig, seed: int) -> None:
        self._config = config
        self._seed = seed
        markers = SecretMarkers(config.plant_markers, seed)
        st = CampaignState.start(planting.plant(config.campaign, markers), seed, markers)
        self._st = st
        #: the open decision, built when first asked for and dropped when answered
        self._pending: tuple[Decision, ...] | None = None
        st.emit("title", f"{st.c.title}. You play {st.c.pc.name}.", Audience.everyone())
        open_scene(st)
        st.phase = "scene"
        entered_scene(st)

    @classmethod
    def new(cls, config: BaseModel, seed: int) -> CampaignGame:
        return cls(require_config(config, CampaignConfig, "campaign"), seed)

    # -- protocol properties -----------------------------------------------------------

    @property
    def campaign(self) -> Campaign:
        """The campaign as played (with markers when planted)."""
        return self._st.c

    @property
    def scenes(self) -> tuple[Scene, ...]:
        return tuple(self._st.scenes)

    @property
    def who_knows(self) -> dict[str, frozenset[str]]:
        return {s: frozenset(n) for s, n in self._st.who_knows.items()}

    def seats(self) -> tuple[SeatInfo, ...]:
        return (
            SeatInfo(id=PLAYER, name=self._st.c.pc.name),
            SeatInfo(id=STORY, name="Story director", system=True, needs_capable_model=True),
            SeatInfo(id=SCENE, name="Scene director", system=True),
            SeatInfo(id=GAME, name="Game director", system=True),
        )

    def seen_by(self, seat: str) -> set[int] | None:
        """Event seqs ``seat`` was shown, when that is not its stored audience (``show --as``)."""
        return set(self._st.scene_seen) if seat == SCENE else None

    # -- decisions ---------------------------------------------------------------------

    def pending(self) -> tuple[Decision, ...]:
        if self._pending is None:
            rules = PHASES.get(self._st.phase)
            asked = () if rules is None else (rules.ask(self._st, self._config),)
            self._pending = tuple(self._as_act(self._worded(d)) for d in asked)
        return self._pending

    def _worded(self, decision: Decision) -> Decision:
        """The decision telling the seats' scripts to word lines afresh, when the config
        says so (``fresh_wording``); a game stored before it is asked as it was."""
        if not self._config.fresh_wording:
            return decision
        asked = CampaignAsk.find(decision)
        context = contexts(*([asked] if asked is not None else []), WordingAsk(fresh=True))
        return decision.model_copy(update={"context": context})

    def _as_act(self, decision: Decision) -> Decision:
        """An act seat's decision as a choice among answers the game words (``acts.py``)."""
        if decision.seat not in self._config.act_seats:
            return decision
        return acts.as_choice(decision, lambda: self.view(decision.seat), self._seed)

    def apply(self, decision_id: str, action: Action) -> list[Event]:
        decision = PendingDecisions.of(self.pending()).get(decision_id)
        decision.check(action)
        self._pending = None
        st = self._st
        start = len(st.log)
        # An act's choice is applied as the answer it stands for; the events its words
        # reach name the act (``CampaignState.act``).
        answer, st.act = acts.answer(decision, action)
        try:
            PHASES[st.phase].apply(st, self._config, answer)
        finally:
            st.act = ""
        return st.log.since(start)

    def screen(self, decision_id: str, action: Action) -> str | None:
        """The gate on engine roles' text (``gates.screen``): why ``action`` may not be
        applied as it stands, or None. ``apply`` never screens, so stored games replay."""
        decision = next((d for d in self.pending() if d.id == decision_id), None)
        if decision is None:
            return None
        try:
            decision.check(action)
        except IllegalAction:
            return None  # not this gate's to refuse: ``apply`` names what is wrong
        # an act's answer crosses the gate its own words would
        return gates.screen(self._st, decision, acts.answer(decision, action)[0])

    # -- views -------------------------------------------------------------------------

    def scene_view(
        self, npcs: tuple[str, ...] | None = None, speaker: str | None = None
    ) -> SceneView:
        """The scene director's view, by default in its context now; ``npcs`` and
        ``speaker`` (an NPC id, or ``knowledge.NARRATOR``) ask "what if these were present
        and this one spoke" (memory probes), built by the very same code."""
        return scene_view(self._st, npcs, speaker)

    def view(self, seat: str) -> AnyView:
        return seat_view(self._st, self._config, seat)

    def spectator_view(self, reveal: bool) -> TableView:
        return spectator(self._st, self._config, reveal)

    # -- end and audit -----------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self._st.phase == "over"

    def result(self) -> Result | None:
        st = self._st
        if st.phase != "over":
            return None
        survived = st.pc.hp > 0
        return Result(
            winners=(PLAYER,) if survived else (),
            summary=f"{len(st.scenes)} scenes over {st.session} session(s); "
            + (st.ending or f"{st.c.pc.name} ends with {st.pc.hp} HP"),
            returns={PLAYER: 1.0 if survived else 0.0},
        )

    def snapshot(self) -> dict[str, Any]:
        st = self._st
        return {
            "seed": self._seed,
            "session": st.session,
            "turn": st.turn,
            "phase": st.phase,
            "message": st.message,
            "pc": st.pc.snapshot(),
            "scenes": [
                {"n": s.number, "npcs": list(s.npcs), "loc": s.location, "said": s.said}
                for s in st.scenes
            ],
            "who_knows": {s: sorted(n) for s, n in sorted(st.who_knows.items())},
            "npcs": {n: [p.attitude, p.notes] for n, p in sorted(st.npc.items())},
            "scene_seen": sorted(st.scene_seen),
            "events": [e.model_dump(mode="json") for e in st.log.events],
        }

    def secret_markers(self) -> dict[str, frozenset[str]]:
        """Who may see each planted marker now (see ``planting.entitled``)."""
        return planting.entitled(self._st)

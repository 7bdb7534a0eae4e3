"""The campaign game: one player, three director seats with three views of one state.

A session opens with a synopsis (session 1: the campaign's opening; later ones: the
story director's), then turns: ``act`` (player) → ``gd`` (game director: route + check)
→ ``story`` (only when routed there) → ``scene`` (scene director) [→ ``review``]. After
``turns_per_session`` turns the scene closes and the story director updates the sheet
of every NPC met this session; then the next session opens, or the campaign ends.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel

from parlour.core.actions import Action, Structured, Text
from parlour.core.decisions import Decision
from parlour.core.errors import ParlourError
from parlour.core.events import Audience, Event, EventLog
from parlour.core.game import GameInfo, Result, SeatInfo
from parlour.core.markers import SecretMarkers, marker
from parlour.core.pending import PendingDecisions
from parlour.core.rng import Rng
from parlour.core.view import AnyView, NoFacts, View
from parlour.games.campaign import commands, dice
from parlour.games.campaign import requests as req
from parlour.games.campaign.config import CampaignConfig
from parlour.games.campaign.content import Campaign, Secret
from parlour.games.campaign.planting import plant
from parlour.games.campaign.state import Character, NpcProgress, Scene, Synopsis
from parlour.games.campaign.views import (
    NpcSheet,
    PcPublic,
    PlayerSheet,
    PlayerView,
    SceneFacts,
    SceneSheets,
    StoryFacts,
    TableFacts,
)

Phase = Literal["open", "act", "gd", "story", "scene", "review", "sheets", "over"]
PLAYER, STORY, SCENE, GAME = "player", "story-director", "scene-director", "game-director"
TABLE = (PLAYER, STORY, GAME)


class CampaignGame:
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
    config_model: ClassVar[type[BaseModel]] = CampaignConfig

    def __init__(self, config: CampaignConfig, seed: int) -> None:
        self._config = config
        self._seed = seed
        self._rng = Rng(seed)
        self._markers = SecretMarkers(config.plant_markers)
        self._c: Campaign = plant(config.campaign, self._markers)
        self._secrets: dict[str, tuple[str, Secret]] = self._c.secrets()
        self._log = EventLog()
        self._pending: tuple[Decision, ...] | None = None
        pc = self._c.pc
        self._pc = Character(
            hp=pc.hp,
            conditions=[],
            inventory=list(pc.inventory),
            clocks={k.id: 0 for k in self._c.clocks},
        )
        self._npc = {n.id: NpcProgress() for n in self._c.npcs}
        self._scenes: list[Scene] = []
        self._who_knows: dict[str, set[str]] = {}
        self._revealed: list[str] = []  # secret ids, in reveal order (the table knows them)
        self._notes_for_self: list[str] = []
        self._session = 1
        self._turn = 1
        self._commands = 0
        self._message: str | None = None
        self._route: str = ""
        self._draft: dict[str, Any] | None = None
        self._rewrite = ""
        self._rewrites = 0
        self._sheet_queue: list[str] = []
        self._ending = ""
        #: every event seq the scene director's view held when it was asked (``show --as``)
        self._scene_seen: set[int] = set()
        self._emit("title", f"{self._c.title}. You play {pc.name}.", Audience.everyone())
        op = self._c.opening
        self._synopsis = Synopsis(text=op.text, npc_list=tuple(op.npcs), location=op.location)
        self._open_scene()
        self._phase: Phase = "scene"
        self._entered_scene()

    @classmethod
    def new(cls, config: BaseModel, seed: int) -> CampaignGame:
        if not isinstance(config, CampaignConfig):
            raise ParlourError("campaign needs a CampaignConfig (use make_config)")
        return cls(config, seed)

    # -- protocol properties -----------------------------------------------------------

    @property
    def config(self) -> CampaignConfig:
        return self._config

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def events(self) -> tuple[Event, ...]:
        return self._log.events

    @property
    def campaign(self) -> Campaign:
        """The campaign as played (with markers when planted)."""
        return self._c

    @property
    def scenes(self) -> tuple[Scene, ...]:
        return tuple(self._scenes)

    @property
    def who_knows(self) -> dict[str, frozenset[str]]:
        return {s: frozenset(n) for s, n in self._who_knows.items()}

    def seats(self) -> tuple[SeatInfo, ...]:
        return (
            SeatInfo(id=PLAYER, name=self._c.pc.name),
            SeatInfo(id=STORY, name="Story director", system=True, needs_capable_model=True),
            SeatInfo(id=SCENE, name="Scene director", system=True),
            SeatInfo(id=GAME, name="Game director", system=True),
        )

    # -- events ------------------------------------------------------------------------

    @property
    def _phase_tag(self) -> str:
        return f"s{self._session}"

    def _emit(
        self,
        kind: str,
        text: str,
        audience: Audience,
        *,
        speaker: str = "",
        data: dict[str, Any] | None = None,
    ) -> Event:
        scene = self._scenes[-1].number if getattr(self, "_scenes", None) else 0
        full = {"session": getattr(self, "_session", 1), "scene": scene, **(data or {})}
        return self._log.emit(kind, self._phase_tag, text, audience, speaker=speaker, data=full)

    # -- scenes ------------------------------------------------------------------------

    def _open_scene(self) -> None:
        number = len(self._scenes) + 1
        place = self._c.location(self._synopsis.location)
        names = ", ".join(self._c.npc(n).name for n in self._synopsis.npc_list) or "nobody"
        header = f"Scene {number} — {place.name} (present: {names})"
        header += self._markers.plant(f"scene:{number}", ())
        self._scenes.append(Scene(number, self._session, place.id, self._synopsis.npc_list, header))
        self._emit(
            "scene", header, Audience.everyone(), data={"npcs": list(self._synopsis.npc_list)}
        )

    def _close_scene(self) -> None:
        """Each NPC present gets a memory record quoting the scene exactly."""
        scene = self._scenes[-1]
        if scene.closed:
            return
        scene.closed = True
        place = self._c.location(scene.location).name
        quoted = " | ".join(
            f'{self._speaker_name(who)} said: "{text}"'
            for who, text in scene.said
            if who != "narrator"
        )
        for npc in scene.npcs:
            name = self._c.npc(npc).name
            text = (
                f"Memory of {name}: {scene.header}, session {scene.session}, at {place}. "
                f"{quoted or 'Nothing was said.'}"
            )
            self._emit(
                "memory",
                text,
                Audience.only(STORY),
                data={
                    "npc": npc,
                    "location": scene.location,
                    "said": [list(s) for s in scene.said],
                },
            )

    def _speaker_name(self, who: str) -> str:
        if who == PLAYER:
            return self._c.pc.name
        return self._c.npc(who).name if who in self._c.npc_ids else who

    def _entered_scene(self) -> None:
        """Remember what the scene director's view holds now (it is about to be asked)."""
        self._scene_seen.update(e.seq for e in self._scene_events())

    def seen_by(self, seat: str) -> set[int] | None:
        """Event seqs ``seat`` was shown, when that is not its stored audience (``show --as``)."""
        return set(self._scene_seen) if seat == SCENE else None

    # -- decisions ---------------------------------------------------------------------

    def _id(self, step: str) -> str:
        if step in ("open", "sheet"):
            return f"s{self._session}:{step}"
        again = ""
        if step == "act" and self._commands:
            again = str(self._commands + 1)
        if step in ("scene", "review") and self._message is None:
            # The session's opening beat comes before turn 1: its own ids.
            return f"s{self._session}:{step}{str(self._rewrites + 1) if self._rewrites else ''}"
        if step == "scene" and self._rewrites:
            again = str(self._rewrites + 1)
        return f"s{self._session}t{self._turn}:{step}{again}"

    def pending(self) -> tuple[Decision, ...]:
        if self._pending is None:
            self._pending = self._build_pending()
        return self._pending

    def _build_pending(self) -> tuple[Decision, ...]:
        cfg = self._config
        if self._phase == "act":
            return (req.act_decision(self._id("act"), cfg.act_max_length),)
        if self._phase == "gd":
            return (req.gd_decision(self._id("gd"), self._c, self._message or ""),)
        if self._phase in ("story", "open"):
            purpose = "open" if self._phase == "open" else "synopsis"
            return (req.story_decision(self._id(self._phase), self._c, purpose),)
        if self._phase == "scene":
            npcs = self._synopsis.npc_list
            return (
                req.scene_decision(
                    self._id("scene"),
                    npcs,
                    cfg.narrate_max_length,
                    cfg.line_max_length,
                    self._rewrite,
                ),
            )
        if self._phase == "review":
            return (req.review_decision(self._id("review")),)
        if self._phase == "sheets":
            npc = self._sheet_queue[0]
            return (req.sheet_decision(f"{self._id('sheet')}:{npc}", npc),)
        return ()

    def apply(self, decision_id: str, action: Action) -> list[Event]:
        decision = PendingDecisions.of(self.pending()).get(decision_id)
        decision.check(action)
        self._pending = None
        start = len(self._log)
        if self._phase == "act":
            assert isinstance(action, Text)
            self._on_act(action.text)
        else:
            assert isinstance(action, Structured)
            value = action.value
            if self._phase == "gd":
                self._on_gd(value)
            elif self._phase in ("story", "open"):
                self._on_story(value)
            elif self._phase == "scene":
                self._on_scene(value)
            elif self._phase == "review":
                self._on_review(value)
            else:
                self._on_sheet(value)
        return self._log.since(start)

    # -- the player --------------------------------------------------------------------

    def _on_act(self, text: str) -> None:
        command = commands.parse(text) if self._commands < commands.MAX_PER_TURN else None
        if command is not None:
            self._commands += 1
            self._emit("command", text, Audience.only(PLAYER), speaker=PLAYER)
            reply = commands.reply(command, self._player_view())
            self._emit("reply", reply, Audience.only(PLAYER), data={"command": command})
            return
        self._message = text
        self._scenes[-1].said.append((PLAYER, text))
        self._emit("message", text, Audience.everyone(), speaker=PLAYER)
        self._phase = "gd"

    # -- the game director -------------------------------------------------------------

    def _on_gd(self, value: dict[str, Any]) -> None:
        check = value.get("check")
        band: dice.Band | None = None
        if isinstance(check, dict):
            skill, level = str(check["skill"]), str(check["difficulty"])
            dc = self._c.difficulties[level]
            modifier = self._c.pc.skills.get(skill, 0)
            rolled = dice.roll(self._rng, modifier, dc)
            band = rolled.band
            self._emit(
                "check",
                f"{skill} check ({level}, DC {dc}) — {check['reason']}: {rolled.shown} → "
                f"{rolled.band}.",
                Audience.everyone(),
                speaker=GAME,
                data={"skill": skill, "difficulty": level, **rolled.model_dump(mode="json")},
            )
        gains = band in (None, "success", "success with style", "mixed")
        costs = band in (None, "complication", "mixed")
        if gains:
            self._apply_gains(value.get("effects") or {})
        if costs:
            self._apply_costs(value.get("cost") or {})
        self._route = str(value["route"])
        if self._pc.hp <= 0:
            self._ending = f"{self._c.pc.name} falls (no hit points left)"
            self._end_session()
            return
        self._phase = "story" if self._route == "needs_story_director" else "scene"
        if self._phase == "scene":
            self._entered_scene()

    def _state_event(self, text: str, data: dict[str, Any]) -> None:
        self._emit("state", text, Audience.everyone(), speaker=GAME, data=data)

    def _apply_gains(self, gains: dict[str, Any]) -> None:
        pc = self._pc
        heal = int(gains.get("hp", 0))
        if heal and pc.hp < self._c.pc.hp:
            before, pc.hp = pc.hp, min(self._c.pc.hp, pc.hp + heal)
            self._state_event(f"HP {before} → {pc.hp}.", {"hp": pc.hp})
        item = gains.get("gain_item")
        if isinstance(item, str) and item not in pc.inventory:
            pc.inventory.append(item)
            self._state_event(f"You gain {self._item(item)}.", {"gain": item})
        item = gains.get("lose_item")
        if isinstance(item, str) and item in pc.inventory:
            pc.inventory.remove(item)
            self._state_event(f"You lose {self._item(item)}.", {"lose": item})
        cond = gains.get("remove_condition")
        if isinstance(cond, str) and cond in pc.conditions:
            pc.conditions.remove(cond)
            self._state_event(f"You are no longer {cond}.", {"remove_condition": cond})

    def _apply_costs(self, costs: dict[str, Any]) -> None:
        pc = self._pc
        harm = int(costs.get("hp", 0))
        if harm:
            before, pc.hp = pc.hp, max(0, pc.hp - harm)
            self._state_event(f"HP {before} → {pc.hp}.", {"hp": pc.hp})
        cond = costs.get("add_condition")
        if isinstance(cond, str) and cond not in pc.conditions:
            pc.conditions.append(cond)
            self._state_event(f"You are {cond}.", {"add_condition": cond})
        clock = costs.get("tick")
        if isinstance(clock, str):
            full = next(k.segments for k in self._c.clocks if k.id == clock)
            if pc.clocks[clock] < full:
                pc.clocks[clock] += 1
                name = next(k.name for k in self._c.clocks if k.id == clock)
                self._state_event(
                    f"{name}: {pc.clocks[clock]}/{full}.",
                    {"clock": clock, "ticks": pc.clocks[clock]},
                )

    def _item(self, item_id: str) -> str:
        return next((i.name for i in self._c.items if i.id == item_id), item_id)

    # -- the story director ------------------------------------------------------------

    def _on_story(self, value: dict[str, Any]) -> None:
        npcs = tuple(dict.fromkeys(str(n) for n in value["npc_list"]))
        location = str(value["location"])
        current = self._scenes[-1]
        self._synopsis = Synopsis(text=str(value["text"]), npc_list=npcs, location=location)
        # A change of place or of who is present is a new scene: scene attendance (and so
        # every NPC's memory) is fixed for the whole of a scene.
        changed = npcs != current.npcs or location != current.location
        if self._phase == "open" or bool(value["new_scene"]) or changed:
            self._close_scene()
            self._open_scene()
        notes = str(value.get("notes_for_self", "")).strip()
        if notes:
            self._notes_for_self.append(notes)
            self._emit("notes", notes, Audience.only(STORY), speaker=STORY)
        ooc = str(value.get("ooc_reply", "")).strip()
        if ooc:
            self._emit("ooc", ooc, Audience.only(PLAYER), speaker=STORY)
        for secret_id in value.get("reveal") or []:
            self._reveal(str(secret_id))
        self._phase = "scene"
        self._entered_scene()

    def _reveal(self, secret_id: str) -> None:
        """The NPCs present now learn the secret; nobody else (the player's table does)."""
        owner, secret = self._secrets[secret_id]
        witnesses = set(self._scenes[-1].npcs) - {owner}
        known = self._who_knows.setdefault(secret_id, set())
        known.update(witnesses)
        if secret_id not in self._revealed:
            self._revealed.append(secret_id)
        names = ", ".join(self._c.npc(n).name for n in sorted(witnesses)) or "only you"
        self._emit(
            "reveal",
            f"Revealed to {names}: {secret.text}",
            Audience.everyone(),
            data={"secret": secret_id, "witnesses": sorted(witnesses)},
        )

    # -- the scene director (and the optional review) ----------------------------------

    def _on_scene(self, value: dict[str, Any]) -> None:
        if self._config.review and self._rewrites == 0 and self._draft is None:
            self._draft = value
            self._phase = "review"
            return
        self._publish(value)

    def _on_review(self, value: dict[str, Any]) -> None:
        draft = self._draft
        assert draft is not None
        if not value["approve"] and self._rewrites == 0:
            self._rewrites = 1
            self._rewrite = str(value.get("reason", "")).strip() or "keep to what they know"
            self._emit(
                "review", f"rewrite asked: {self._rewrite}", Audience.only(STORY), speaker=STORY
            )
            self._phase = "scene"
            self._entered_scene()
            return
        self._publish(draft)

    def _publish(self, value: dict[str, Any]) -> None:
        scene = self._scenes[-1]
        narration = str(value["narration"])
        scene.said.append(("narrator", narration))
        self._emit("narration", narration, Audience.everyone(), speaker=SCENE)
        for line in value["lines"]:
            npc, text = str(line["npc"]), str(line["text"])
            scene.said.append((npc, text))
            self._emit(
                "line",
                f"{self._c.npc(npc).name}: “{text}”",
                Audience.everyone(),
                # no speaker: the line is the NPC's (its name leads the text), not the seat's
                data={"npc": npc, "said": text},
            )
        self._draft, self._rewrite, self._rewrites = None, "", 0
        if self._message is None:  # the opening beat of a session: no turn was played
            self._phase = "act"
            return
        self._message = None
        self._commands = 0
        if self._turn >= self._config.turns_per_session:
            self._end_session()
        else:
            self._turn += 1
            self._phase = "act"

    # -- sessions ----------------------------------------------------------------------

    def _end_session(self) -> None:
        self._close_scene()
        met = [n for s in self._scenes if s.session == self._session for n in s.npcs]
        self._sheet_queue = list(dict.fromkeys(met))
        self._emit("session", f"End of session {self._session}.", Audience.everyone())
        self._phase = "sheets" if self._sheet_queue else "over"
        if not self._sheet_queue:
            self._next_session()

    def _on_sheet(self, value: dict[str, Any]) -> None:
        npc = self._sheet_queue.pop(0)
        progress = self._npc[npc]
        progress.attitude = str(value["attitude"])
        progress.notes.append(str(value["note"]))
        self._emit(
            "sheet",
            f"{self._c.npc(npc).name}'s sheet: {progress.attitude}; {value['note']}",
            Audience.only(STORY),
            speaker=STORY,
            data={"npc": npc},
        )
        if not self._sheet_queue:
            self._next_session()

    def _next_session(self) -> None:
        if self._ending or self._session >= self._config.sessions:
            self._phase = "over"
            self._emit("ending", self._ending or "The campaign rests here.", Audience.everyone())
            return
        self._session += 1
        self._turn = 1
        self._emit("session", f"Session {self._session} begins.", Audience.everyone())
        self._phase = "open"

    # -- views -------------------------------------------------------------------------

    def _pc_public(self) -> PcPublic:
        pub = self._c.pc.public
        return PcPublic(
            name=self._c.pc.name,
            looks=pub.looks,
            reputation=pub.reputation,
            noticeable=list(pub.noticeable),
            hp=self._pc.hp,
            conditions=list(self._pc.conditions),
        )

    def _table(self) -> TableFacts:
        scene = self._scenes[-1]
        return TableFacts(
            title=self._c.title,
            session=self._session,
            turn=self._turn,
            turns_per_session=self._config.turns_per_session,
            scene=scene.number,
            location=self._c.location(scene.location).name,
            present=[self._c.npc(n).name for n in scene.npcs],
            pc=self._pc_public(),
            inventory=[self._item(i) for i in self._pc.inventory],
            clocks={k.name: f"{self._pc.clocks[k.id]}/{k.segments}" for k in self._c.clocks},
            skills=dict(self._c.pc.skills),
            difficulties=dict(self._c.difficulties),
            message=self._message if self._phase == "gd" else None,
        )

    def _sheet(self, npc_id: str) -> NpcSheet:
        npc = self._c.npc(npc_id)
        known = [
            self._secrets[s][1].text
            for s in self._revealed
            if npc_id in self._who_knows.get(s, set()) and self._secrets[s][0] != npc_id
        ]
        progress = self._npc[npc_id]
        return NpcSheet(
            id=npc.id,
            name=npc.name,
            persona=npc.persona,
            agenda=npc.agenda,
            secrets=[s.text for s in npc.secrets],
            relationships=dict(npc.relationships),
            knows=known,
            attitude=progress.attitude,
            notes=list(progress.notes),
        )

    def _scene_scenes(self, npcs: tuple[str, ...] | None = None) -> set[int]:
        """Scenes the scene director may see: the current one and any a present NPC attended."""
        present = set(self._synopsis.npc_list if npcs is None else npcs)
        seen = {s.number for s in self._scenes if present & set(s.npcs)}
        return seen | {self._scenes[-1].number}

    def _scene_events(self, npcs: tuple[str, ...] | None = None) -> list[Event]:
        """This session's events of the scenes it may see, and the present NPCs' memory
        records from earlier sessions (the pool its Recall component ranks)."""
        present = set(self._synopsis.npc_list if npcs is None else npcs)
        scenes = self._scene_scenes(npcs)
        out: list[Event] = []
        for e in self._log.events:
            if e.kind == "memory":
                if e.data["npc"] in present and e.data["session"] < self._session:
                    out.append(e)
            elif (
                e.audience.kind == "all"
                and e.data.get("session") == self._session
                and e.data.get("scene") in scenes
                and e.kind in ("scene", "message", "narration", "line", "check", "state")
            ):
                out.append(e)
        return out

    def scene_view(self, npcs: tuple[str, ...] | None = None) -> View[SceneFacts, SceneSheets]:
        """The scene director's view; ``npcs`` asks "what if these were present" (memory
        probes), built by the very same code."""
        present = self._synopsis.npc_list if npcs is None else npcs
        place = self._c.location(self._synopsis.location)
        return View[SceneFacts, SceneSheets](
            game=req.GAME,
            seat=SCENE,
            seat_name="Scene director",
            phase=self._phase_tag,
            public=SceneFacts(
                title=self._c.title,
                session=self._session,
                scene=self._scenes[-1].number,
                location=place.name,
                location_description=place.description,
                synopsis=self._synopsis.text,
                pc=self._pc_public(),
                rewrite=self._rewrite,
            ),
            private=SceneSheets(npcs=[self._sheet(n) for n in present]),
            events=tuple(self._scene_events(npcs)),
        )

    def view(self, seat: str) -> AnyView:
        if seat == SCENE:
            return self.scene_view()
        if seat == PLAYER:
            return self._player_view()
        if seat == GAME:
            return View[TableFacts, NoFacts](
                game=req.GAME,
                seat=GAME,
                seat_name="Game director",
                phase=self._phase_tag,
                public=self._table(),
                private=NoFacts(),
                events=tuple(self._log.visible(GAME)),
            )
        if seat == STORY:
            return self._story_view()
        raise ParlourError(
            f"no seat '{seat}' in campaign; seats: {PLAYER}, {STORY}, {SCENE}, {GAME}"
        )

    def _player_view(self) -> PlayerView:
        full = self._c.pc.full
        return PlayerView(
            game=req.GAME,
            seat=PLAYER,
            seat_name=self._c.pc.name,
            phase=self._phase_tag,
            public=self._table(),
            private=PlayerSheet(
                history=full.history,
                goals=list(full.goals),
                secrets=[s.text for s in full.secrets],
            ),
            events=tuple(self._log.visible(PLAYER)),
        )

    def _story_view(self) -> View[StoryFacts, NoFacts]:
        full = self._c.pc.full
        scene = self._scenes[-1]
        draft = ""
        if self._draft is not None:
            lines = " ".join(f"{d['npc']}: {d['text']}" for d in self._draft["lines"])
            draft = f"{self._draft['narration']} {lines}".strip()
        return View[StoryFacts, NoFacts](
            game=req.GAME,
            seat=STORY,
            seat_name="Story director",
            phase=self._phase_tag,
            public=StoryFacts(
                title=self._c.title,
                session=self._session,
                turn=self._turn,
                scene=scene.number,
                location=scene.location,
                present=list(scene.npcs),
                synopsis=self._synopsis.text,
                message=self._message,
                pc_sheet=PlayerSheet(
                    history=full.history,
                    goals=list(full.goals),
                    secrets=[f"{s.id}: {s.text}" for s in full.secrets],
                ),
                pc=self._pc_public(),
                npcs=[self._sheet(n) for n in self._c.npc_ids],
                locations={p.id: p.name for p in self._c.locations},
                threads=[f"{t.id}: {t.text}" for t in self._c.threads],
                who_knows={s: sorted(n) for s, n in sorted(self._who_knows.items())},
                notes_for_self=list(self._notes_for_self),
                draft=draft,
            ),
            private=NoFacts(),
            events=tuple(self._log.visible(STORY)),
        )

    def spectator_view(self, reveal: bool) -> AnyView:
        return View[TableFacts, NoFacts](
            game=req.GAME,
            seat="spectator",
            seat_name="Spectator",
            phase=self._phase_tag,
            public=self._table(),
            private=NoFacts(),
            events=self._log.for_spectator(reveal),
        )

    # -- end and audit -----------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self._phase == "over"

    def result(self) -> Result | None:
        if self._phase != "over":
            return None
        survived = self._pc.hp > 0
        return Result(
            winners=(PLAYER,) if survived else (),
            summary=f"{len(self._scenes)} scenes over {self._session} session(s); "
            + (self._ending or f"{self._c.pc.name} ends with {self._pc.hp} HP"),
            returns={PLAYER: 1.0 if survived else 0.0},
        )

    def snapshot(self) -> dict[str, Any]:
        return {
            "seed": self._seed,
            "session": self._session,
            "turn": self._turn,
            "phase": self._phase,
            "message": self._message,
            "pc": self._pc.snapshot(),
            "scenes": [
                {"n": s.number, "npcs": list(s.npcs), "loc": s.location, "said": s.said}
                for s in self._scenes
            ],
            "who_knows": {s: sorted(n) for s, n in sorted(self._who_knows.items())},
            "npcs": {n: [p.attitude, p.notes] for n, p in sorted(self._npc.items())},
            "scene_seen": sorted(self._scene_seen),
            "events": [e.model_dump(mode="json") for e in self._log.events],
        }

    def secret_markers(self) -> dict[str, frozenset[str]]:
        """Who may see each planted marker now (entitlements only grow, except the scene
        director's, which follow who is present)."""
        if not self._markers.enabled:
            return {}
        present = set(self._synopsis.npc_list)
        out: dict[str, frozenset[str]] = {}
        for sid, (owner, _) in self._secrets.items():
            allowed = {STORY}
            if owner == "pc":
                allowed.add(PLAYER)
            if sid in self._revealed:
                allowed |= {PLAYER, GAME}
            if owner in present or present & self._who_knows.get(sid, set()):
                allowed.add(SCENE)
            out[marker(f"secret:{sid}")] = frozenset(allowed)
        out[marker("pc:history")] = frozenset({PLAYER, STORY})
        for n in range(len(self._c.pc.full.goals)):
            out[marker(f"pc:goal:{n}")] = frozenset({PLAYER, STORY})
        for npc in self._c.npc_ids:
            agenda = {STORY, SCENE} if npc in present else {STORY}
            out[marker(f"npc:{npc}:agenda")] = frozenset(agenda)
        visible = self._scene_scenes()
        for s in self._scenes:
            allowed_scene = {PLAYER, STORY, GAME} | ({SCENE} if s.number in visible else set())
            out[marker(f"scene:{s.number}")] = frozenset(allowed_scene)
        return out

"""Views: the public record every seat shares, and each seat's own private facts.

Everything a prompt needs is here as exact records (votes in order, night outcomes,
the seer's table), so prompts never depend on a model's summary of the past. The facts
are typed models, so every prompt, policy and renderer reading them is checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from pydantic import PrivateAttr

from parlour.core.view import Facts, NoFacts, View, copy_facts
from parlour.games.werewolf.config import WerewolfConfig
from parlour.games.werewolf.record import SeatRecords
from parlour.games.werewolf.roles import DESCRIPTIONS, TEAM_OF, Role, goal
from parlour.games.werewolf.state import DayRecord, NightRecord, WerewolfState

GAME = "werewolf"


class PlayerFacts(Facts):
    id: str
    name: str
    alive: bool
    #: the role once it is public (revealed on death, or everyone's at the end)
    role: str | None


class RuleFacts(Facts):
    vote_mode: str
    tie_rule: str
    reveal_roles: bool
    doctor_self_protect: bool
    messages_per_player: int
    #: what a player says to call the vote, when calling is allowed
    vote_call: str | None


class SpeakingFacts(Facts):
    messages: int
    passes: int


class DiscussionFacts(Facts):
    turns_taken: int
    turns_left: int
    last_speaker: str | None


class ResultFacts(Facts):
    summary: str
    winners: list[str]


class WerewolfPublic(Facts):
    day: int
    night: int
    phase: str
    stage: str
    players: list[PlayerFacts]
    alive: list[str]
    dead: list[str]
    role_counts: dict[str, int]
    rules: RuleFacts
    days: list[DayRecord]
    nights: list[NightRecord]
    scene: str | None = None
    #: character name → gender, when the game has a cast
    genders: dict[str, str] | None = None
    #: today's talk per living player, during a day
    speaking_today: dict[str, SpeakingFacts] | None = None
    discussion: DiscussionFacts | None = None
    result: ResultFacts | None = None


class CharacterFacts(Facts):
    story: str
    playstyle: str
    gender: str

    def in_words(self, names: Mapping[str, str]) -> str:
        """For a person's sidebar: the story, then how the character plays."""
        return f"{self.story.rstrip('.')}. Plays as a {self.playstyle}; {self.gender}."


class PackMate(Facts):
    id: str
    name: str
    alive: bool

    def in_words(self, names: Mapping[str, str]) -> str:
        """For a person's sidebar: "Aiko", or "Aiko (dead)"."""
        return self.name if self.alive else f"{self.name} (dead)"


class WerewolfPrivate(Facts):
    """A player's own facts; empty for the router (a system seat has no secrets)."""

    id: str = ""
    name: str = ""
    role: str = ""
    team: str = ""
    role_card: str = ""
    alive: bool = False
    character: CharacterFacts | None = None
    #: werewolves: the other wolves
    pack: list[PackMate] | None = None
    #: seer: name → "evil" | "cleared", and who is left to investigate
    investigations: dict[str, str] | None = None
    not_investigated: list[str] | None = None
    #: doctor
    cannot_protect_tonight: str | None = None
    self_protect_allowed: bool | None = None
    #: the seat's record of its own events, kept with the game (``seat_view``): a cache
    #: of what the view's events say, not a fact, so no field
    _records: SeatRecords | None = PrivateAttr(default=None)

    @property
    def records(self) -> SeatRecords | None:
        return self._records

    def keeping(self, records: SeatRecords | None) -> WerewolfPrivate:
        """These facts, carrying the seat's kept records (set once, on new facts)."""
        self._records = records
        return self


class WerewolfReveal(Facts):
    """What a revealing spectator is told besides every event."""

    roles: dict[str, str]
    last_protected: str | None
    seer_results: dict[str, str]


WerewolfView = View[WerewolfPublic, WerewolfPrivate]
SpectatorView = View[WerewolfPublic, WerewolfReveal | NoFacts]


def role_card(name: str, role: Role, maniac: bool) -> str:
    team = TEAM_OF[role]
    return f"You are {name}, {DESCRIPTIONS[role]}. Your team: {team}. Goal: {goal(team, maniac)}."


# Facts are frozen values, so identical ones are shared between views instead of rebuilt:
# a view is built for every decision, and most of the public record did not change.
@lru_cache(maxsize=4096)
def _player(id: str, name: str, alive: bool, role: str | None) -> PlayerFacts:
    return PlayerFacts(id=id, name=name, alive=alive, role=role)


@lru_cache(maxsize=1024)
def _speaking(messages: int, passes: int) -> SpeakingFacts:
    return SpeakingFacts(messages=messages, passes=passes)


#: RuleFacts by value, shared like the other facts (the rules never change in a game)
_rules = lru_cache(maxsize=256)(RuleFacts)


def public_facts(st: WerewolfState, cfg: WerewolfConfig) -> WerewolfPublic:
    disc = st.discussion
    today = disc is not None and disc.day == st.day
    return WerewolfPublic(
        day=st.day,
        night=st.night,
        phase=st.phase,
        stage=st.stage.value,
        players=[
            _player(p.id, p.name, p.alive, p.role.value if p.revealed else None) for p in st.players
        ],
        alive=[p.name for p in st.players if p.alive],
        dead=[p.name for p in st.players if not p.alive],
        role_counts=dict(st.role_counts),
        rules=_rules(
            vote_mode=cfg.vote_mode,
            tie_rule=cfg.tie_rule,
            reveal_roles=cfg.reveal_roles,
            doctor_self_protect=cfg.doctor_self_protect,
            messages_per_player=cfg.messages_per_player,
            vote_call="/vote" if cfg.allow_vote_call else None,
        ),
        # copies: a view never shares the state's lists and dicts
        days=[copy_facts(d) for d in st.days],
        nights=[copy_facts(n) for n in st.nights],
        scene=st.cast.scene if st.cast is not None else None,
        genders={c.name: c.gender for c in st.cast.players} if st.cast is not None else None,
        speaking_today=(
            {
                p.name: _speaking(disc.messages.get(p.id, 0), disc.passes.get(p.id, 0))
                for p in st.players
                if p.alive
            }
            if disc is not None and today
            else None
        ),
        discussion=(
            DiscussionFacts(
                turns_taken=disc.total_turns,
                turns_left=disc.turns_left,
                last_speaker=st.name(disc.last_speaker) if disc.last_speaker else None,
            )
            if disc is not None and today
            else None
        ),
        result=(
            ResultFacts(
                summary=st.outcome.summary, winners=[st.name(s) for s in st.outcome.winners]
            )
            if st.outcome is not None
            else None
        ),
    )


def private_facts(st: WerewolfState, cfg: WerewolfConfig, seat: str) -> WerewolfPrivate:
    me = st.player(seat)
    character = None
    if st.cast is not None:
        c = st.cast.players[me.number - 1]
        character = CharacterFacts(story=c.story, playstyle=c.playstyle.value, gender=c.gender)
    facts = WerewolfPrivate(
        id=me.id,
        name=me.name,
        role=me.role.value,
        team=TEAM_OF[me.role].value,
        role_card=me.card,
        alive=me.alive,
        character=character,
    )
    if me.role is Role.WEREWOLF:
        pack = [PackMate(id=w.id, name=w.name, alive=w.alive) for w in st.wolves() if w.id != seat]
        return facts.model_copy(update={"pack": pack})
    if me.role is Role.SEER:
        return facts.model_copy(
            update={
                "investigations": {
                    st.name(t): ("evil" if r == "evil" else "cleared")
                    for t, r in st.seer_results.items()
                },
                "not_investigated": [
                    p.name for p in st.living() if p.id != seat and p.id not in st.seer_results
                ],
            }
        )
    if me.role is Role.DOCTOR:
        blocked = st.last_protected
        return facts.model_copy(
            update={
                "cannot_protect_tonight": st.name(blocked) if blocked else None,
                "self_protect_allowed": cfg.doctor_self_protect,
            }
        )
    return facts


def seat_view(st: WerewolfState, cfg: WerewolfConfig, seat: str) -> WerewolfView:
    is_player = any(p.id == seat for p in st.players)
    private = WerewolfPrivate()
    if is_player:
        private = private_facts(st, cfg, seat).keeping(st.records.setdefault(seat, SeatRecords()))
    return WerewolfView(
        game=GAME,
        seat=seat,
        seat_name=st.name(seat) if is_player else "Router",
        phase=st.phase,
        public=public_facts(st, cfg),
        private=private,
        events=tuple(st.log.visible(seat)),
    )


def spectator(st: WerewolfState, cfg: WerewolfConfig, reveal: bool) -> SpectatorView:
    private: WerewolfReveal | NoFacts = NoFacts()
    if reveal:
        private = WerewolfReveal(
            roles={p.name: p.role.value for p in st.players},
            last_protected=st.name(st.last_protected) if st.last_protected else None,
            seer_results={st.name(t): r for t, r in st.seer_results.items()},
        )
    return SpectatorView.spectator(
        GAME, st.phase, public_facts(st, cfg), private, st.log.for_spectator(reveal)
    )

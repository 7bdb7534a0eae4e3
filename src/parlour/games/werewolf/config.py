"""The werewolf config: every rule variant is a field here, validated up front."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from parlour.core.game_config import validated_config
from parlour.games.werewolf.cast import Cast
from parlour.games.werewolf.names import DEFAULT_NAMES, name_problem
from parlour.games.werewolf.roles import MAX_PLAYERS, MIN_PLAYERS, Role, default_mix, mix_problem


class WerewolfConfig(BaseModel):
    """Rules of one werewolf game. Defaults give the classic night-first game."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: int = Field(default=7, description=f"{MIN_PLAYERS}-{MAX_PLAYERS} players")
    names: tuple[str, ...] | None = Field(
        default=None, description="display names in seat order (default: the built-in list)"
    )
    cast: Cast | None = Field(
        default=None,
        description="scene and characters (names, stories, playstyles); default: built-in",
    )
    roles: dict[Role, int] | None = Field(
        default=None, description="role → count, overriding the default mix; must sum to players"
    )
    maniac: bool = Field(default=False, description="add a maniac to the default mix")
    first_phase: Literal["night", "day"] = "night"

    # night
    wolf_chat_messages: int = Field(default=2, ge=0, le=5, description="messages per wolf")
    wolf_chat_max_length: int = Field(default=300, ge=20, le=2000)
    doctor_self_protect: bool = False

    # announcements
    reveal_roles: bool = Field(default=True, description="reveal the role of each dead player")
    reveal_night_cause: bool = Field(
        default=False, description="say at dawn who killed (wolves or maniac)"
    )

    # discussion
    discussion: Literal["routed", "ask_all"] = Field(
        default="routed",
        description=(
            "routed: a router seat picks the next speakers; ask_all (the common alternative, "
            "kept as a baseline): every living player but the last speaker is asked each "
            "turn and one answer is posted"
        ),
    )
    messages_per_player: int = Field(
        default=3, ge=0, le=10, description="turns per living player before the vote starts"
    )
    speech_max_length: int = Field(default=400, ge=20, le=4000)
    speech: Literal["auto", "acts", "free"] = Field(
        default="auto",
        description=(
            "acts: every player but a human speaks in speech acts (a structured choice the "
            "game puts into words); free: everyone writes free text; auto: the seats in "
            "act_seats speak in acts (filled in for seats a small model plays)"
        ),
    )
    act_seats: tuple[str, ...] = Field(
        default=(), description="with speech=auto: the seats that speak in speech acts"
    )
    speech_phrase_words: int = Field(
        default=12, ge=0, le=30, description="words of the optional free phrase with an act"
    )
    route_batch_max: int = Field(default=3, ge=1, le=5, description="speakers per router call")
    needs_turn_count: int = Field(default=3, ge=1, le=5, description="players flagged NEEDS TURN")
    router_rule: Literal["reject", "repair"] = Field(
        default="reject",
        description=(
            "a batch without a NEEDS TURN player is rejected (IllegalAction) or repaired "
            "(the first NEEDS TURN player is put in front)"
        ),
    )
    allow_vote_call: bool = Field(default=True, description="a speech of exactly /vote calls it")
    max_route_calls: int = Field(default=100, ge=1, description="hard bound on router calls a day")
    open_mic: tuple[str, ...] = Field(
        default=(),
        description="seats (e.g. a human) offered the floor before every routed batch: "
        "speak, pass with an empty answer, or /vote",
    )
    end_when_dead: tuple[str, ...] = Field(
        default=(), description="the game stops when one of these seats dies"
    )

    #: Off in the model, on for every new game (``make_config``): a game stored before
    #: plans existed has no such key and must replay as it was played.
    plans: bool = Field(
        default=False,
        description=(
            "each player picks a plan for the day (suspect, defend, claim, vote) among "
            "options ranked from its own belief, before the talk and again after a seer "
            "claim; open-mic seats (people) are not asked (on in new games)"
        ),
    )
    engine_plans: tuple[str, ...] = Field(
        default=(),
        description=(
            "seats whose day plan the engine picks from their own belief, as the scripted "
            "player does, and who vote by it, without being asked for either (filled in for "
            "seats a small model plays: they still choose what to say and their night moves)"
        ),
    )
    acts_follow_plan: bool = Field(
        default=False,
        description=(
            "seats in engine_plans read their night options best first from their own "
            "view, are offered no accusation but of the player their plan votes for and, "
            "as wolves, none of a packmate; a wolf that speaks in acts may say the fake "
            "seer claim its plan holds (on in new games)"
        ),
    )
    fresh_wording: bool = Field(
        default=False,
        description=(
            "a speech act is worded, among its variants, by the one repeating the fewest "
            "4-word runs already said in the game (on in new games)"
        ),
    )
    ballot_replan: bool = Field(
        default=False,
        description=(
            "just before its ballot, a seat whose plan is picked among ranked options "
            "looks at it again when its own view now ranks another target first (the "
            "day's talk or the earlier ballots moved it); a change is a plan event of its "
            "own (on in new games)"
        ),
    )
    written_plans: tuple[str, ...] = Field(
        default=(),
        description=(
            "seats that write their day plan as a structured decision (vote, suspect, defend "
            "and claim among the living players, and a short reason), checked and asked again "
            "with the error when it does not hold together; their vote follows the plan unless "
            "the ballot gives a reason (filled in for seats a capable model plays)"
        ),
    )

    # vote
    vote_mode: Literal["simultaneous", "sequential"] = "sequential"
    # random since the scripted village, looking at its plan before each ballot, won
    # 59.0% of self-play under no_elimination at the tuning seeds (docs/werewolf.md)
    tie_rule: Literal["no_elimination", "random"] = "random"

    # reflection
    diaries: bool = True
    diary_max_length: int = Field(default=1200, ge=50, le=8000)
    debrief: bool = False
    debrief_max_length: int = Field(default=600, ge=20, le=4000)

    max_days: int = Field(default=30, ge=1, le=200, description="after this day: a draw")
    plant_markers: bool = Field(default=False, description="plant leak markers in secrets")

    @model_validator(mode="after")
    def _playable(self) -> WerewolfConfig:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(
                f"werewolf needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {self.players}"
            )
        seats = {f"p{i}" for i in range(1, self.players + 1)}
        for key in ("open_mic", "end_when_dead", "act_seats", "engine_plans", "written_plans"):
            unknown = sorted(set(getattr(self, key)) - seats)
            if unknown:
                raise ValueError(
                    f"{key}: unknown seats {', '.join(unknown)} (use p1..p{self.players})"
                )
        if self.cast is not None:
            if len(self.cast.players) != self.players:
                raise ValueError(
                    f"the cast has {len(self.cast.players)} characters for {self.players} players"
                )
            if self.names is not None and tuple(self.names) != self.cast.names:
                raise ValueError("give names either in the cast or as names, not both")
        if self.names is not None:
            if len(self.names) != self.players:
                raise ValueError(f"{len(self.names)} names given for {self.players} players")
            problem = name_problem(self.names)
            if problem:
                raise ValueError(problem)
        if self.roles is not None:
            problem = mix_problem(self.roles, self.players)
            if problem:
                raise ValueError(f"roles: {problem}")
        return self

    def role_mix(self) -> dict[Role, int]:
        if self.roles is not None:
            return {role: self.roles.get(role, 0) for role in Role}
        return default_mix(self.players, self.maniac)

    def player_names(self) -> tuple[str, ...]:
        if self.cast is not None:
            return self.cast.names
        return self.names if self.names is not None else DEFAULT_NAMES[: self.players]


def make_config(players: int | None, overrides: dict[str, object]) -> WerewolfConfig:
    """Validated config for a new game (day plans, and acts that follow them, on unless
    set); the player count defaults to the size of a given roles/names list."""
    data = dict(overrides)
    data.setdefault("plans", True)
    data.setdefault("acts_follow_plan", True)
    data.setdefault("ballot_replan", True)
    data.setdefault("fresh_wording", True)
    if players is not None:
        data["players"] = players
    elif "players" not in data:
        roles, names = data.get("roles"), data.get("names")
        if isinstance(roles, dict):
            data["players"] = sum(int(v) for v in roles.values())
        elif isinstance(names, list | tuple):
            data["players"] = len(names)
        elif isinstance(cast := data.get("cast"), dict):
            data["players"] = len(cast.get("players", []))
    return validated_config(WerewolfConfig, data, "werewolf")

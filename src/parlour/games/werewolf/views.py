"""Views: the public record every seat shares, and each seat's own private facts.

Everything a prompt needs is here as exact records (votes in order, night outcomes,
the seer's table), so prompts never depend on a model's summary of the past.
"""

from __future__ import annotations

from typing import Any

from parlour.core.events import Event
from parlour.core.view import View
from parlour.games.werewolf.config import WerewolfConfig
from parlour.games.werewolf.roles import DESCRIPTIONS, TEAM_OF, Role, goal
from parlour.games.werewolf.state import DayRecord, WerewolfState

GAME = "werewolf"


def role_card(name: str, role: Role, maniac: bool) -> str:
    team = TEAM_OF[role]
    return f"You are {name}, {DESCRIPTIONS[role]}. Your team: {team}. Goal: {goal(team, maniac)}."


def public_facts(st: WerewolfState, cfg: WerewolfConfig) -> dict[str, Any]:
    facts: dict[str, Any] = {
        "day": st.day,
        "night": st.night,
        "phase": st.phase,
        "stage": st.stage.value,
        "players": [
            {
                "id": p.id,
                "name": p.name,
                "alive": p.alive,
                "role": p.role.value if p.revealed else None,
            }
            for p in st.players
        ],
        "alive": [p.name for p in st.players if p.alive],
        "dead": [p.name for p in st.players if not p.alive],
        "role_counts": dict(st.role_counts),
        "rules": {
            "vote_mode": cfg.vote_mode,
            "tie_rule": cfg.tie_rule,
            "reveal_roles": cfg.reveal_roles,
            "doctor_self_protect": cfg.doctor_self_protect,
            "messages_per_player": cfg.messages_per_player,
            "vote_call": "/vote" if cfg.allow_vote_call else None,
        },
        "days": [_day(d) for d in st.days],
        "nights": [{"night": n.night, "outcome": list(n.outcome)} for n in st.nights],
    }
    if st.cast is not None:
        facts["scene"] = st.cast.scene
        facts["genders"] = {c.name: c.gender for c in st.cast.players}
    disc = st.discussion
    if disc is not None and disc.day == st.day:
        facts["speaking_today"] = {
            p.name: {"messages": disc.messages.get(p.id, 0), "passes": disc.passes.get(p.id, 0)}
            for p in st.players
            if p.alive
        }
        facts["discussion"] = {
            "turns_taken": disc.total_turns,
            "turns_left": disc.turns_left,
            "last_speaker": st.name(disc.last_speaker) if disc.last_speaker else None,
        }
    if st.outcome is not None:
        facts["result"] = {
            "summary": st.outcome.summary,
            "winners": [st.name(s) for s in st.outcome.winners],
        }
    return facts


def _day(d: DayRecord) -> dict[str, Any]:
    return {
        "day": d.day,
        "votes": list(d.votes),
        "tally": dict(d.tally),
        "result": d.result,
        "eliminated": d.eliminated,
        "revealed_role": d.revealed_role,
        "called_by": d.called_by,
    }


def private_facts(st: WerewolfState, cfg: WerewolfConfig, seat: str) -> dict[str, Any]:
    me = st.player(seat)
    facts: dict[str, Any] = {
        "id": me.id,
        "name": me.name,
        "role": me.role.value,
        "team": TEAM_OF[me.role].value,
        "role_card": me.card,
        "alive": me.alive,
    }
    if st.cast is not None:
        character = st.cast.players[me.number - 1]
        facts["character"] = {
            "story": character.story,
            "playstyle": character.playstyle.value,
            "gender": character.gender,
        }
    if me.role is Role.WEREWOLF:
        facts["pack"] = [
            {"id": w.id, "name": w.name, "alive": w.alive} for w in st.wolves() if w.id != seat
        ]
    elif me.role is Role.SEER:
        facts["investigations"] = {
            st.name(t): ("evil" if r == "evil" else "cleared") for t, r in st.seer_results.items()
        }
        facts["not_investigated"] = [
            p.name for p in st.living() if p.id != seat and p.id not in st.seer_results
        ]
    elif me.role is Role.DOCTOR:
        blocked = st.last_protected
        facts["cannot_protect_tonight"] = st.name(blocked) if blocked else None
        facts["self_protect_allowed"] = cfg.doctor_self_protect
    return facts


def _visible(st: WerewolfState, seat: str, groups: tuple[str, ...]) -> list[Event]:
    """``Audience.includes`` inlined: this runs over the whole log for every view."""
    out: list[Event] = []
    for e in st.events:
        a = e.audience
        if (
            a.kind == "all"
            or (a.kind == "seats" and seat in a.seats)
            or (a.kind == "group" and a.group in groups)
        ):
            out.append(e)
    return out


def seat_view(st: WerewolfState, cfg: WerewolfConfig, seat: str) -> View:
    groups = st.groups_of(seat)
    is_player = any(p.id == seat for p in st.players)
    return View(
        game=GAME,
        seat=seat,
        seat_name=st.name(seat) if is_player else "Router",
        phase=st.phase,
        public=public_facts(st, cfg),
        private=private_facts(st, cfg, seat) if is_player else {},
        events=tuple(_visible(st, seat, groups)),
    )


def spectator(st: WerewolfState, cfg: WerewolfConfig, reveal: bool) -> View:
    private: dict[str, Any] = {}
    if reveal:
        private = {
            "roles": {p.name: p.role.value for p in st.players},
            "last_protected": st.name(st.last_protected) if st.last_protected else None,
            "seer_results": {st.name(t): r for t, r in st.seer_results.items()},
        }
    return View(
        game=GAME,
        seat="spectator",
        seat_name="Spectator",
        phase=st.phase,
        public=public_facts(st, cfg),
        private=private,
        events=tuple(e for e in st.events if reveal or e.audience.kind == "all"),
    )

"""Werewolf's tournament metrics: win rate by role, IRP, VSS, KSR, VWA (votes that agree
with the voter's words that day), WPV (wolves' votes for a packmate) and the village's win
rate per rule set (definitions: docs/tournaments.md).

Facts come from the finished game's own state and its event log (the engine's truth),
never from what a seat said.
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.core.events import Event
from parlour.core.game import Game, Result
from parlour.core.metrics import GameFacts, GameMetrics, Ratio, TalkLine, dense_ranks
from parlour.games.werewolf.game import WerewolfGame
from parlour.games.werewolf.record import Stance, stances
from parlour.games.werewolf.roles import EVIL, TEAM_OF

KEY_ROLES = ("seer", "doctor")


def werewolf_facts(game: Game, result: Result, player_seats: Sequence[str]) -> GameFacts:

    assert isinstance(game, WerewolfGame)
    st = game.state
    role = {p.id: p.role for p in st.players}
    team = {seat: TEAM_OF[r].value for seat, r in role.items()}
    eliminated_on: dict[int, str] = {}
    for ev in game.events:
        if ev.kind == "elimination" and ev.data.get("eliminated"):
            eliminated_on[int(ev.data["day"])] = str(ev.data["eliminated"])
    counters: dict[str, dict[str, float]] = {
        s: {
            "votes": 0,
            "votes_evil": 0,
            "votes_success": 0,
            "key_role": 0,
            "key_alive": 0,
            "votes_after_words": 0,
            "votes_agree_words": 0,
            "wolf_votes": 0,
            "pack_votes": 0,
        }
        for s in player_seats
    }
    names = {p.id: p.name for p in st.players}
    said: dict[tuple[int, str], list[Stance]] = {}
    replanned: dict[tuple[int, str], set[str]] = {}
    for ev in game.events:
        if ev.kind == "speech" and ev.speaker and "day" in ev.data:
            said.setdefault((int(ev.data["day"]), ev.speaker), []).append(stances(ev, names))
        elif ev.kind == "plan" and ev.data.get("changed_from"):
            key = (int(ev.data["day"]), ev.speaker)
            replanned.setdefault(key, set()).add(str(ev.data["vote"]))
    for ev in game.events:
        if ev.kind != "vote":
            continue
        voter, target = str(ev.data["voter"]), str(ev.data["target"])
        day = int(ev.data["day"])
        c = counters[voter]
        c["votes"] += 1
        words = said.get((day, voter), [])
        accused = {a for s in words for a in s.accused}
        defended = {d for s in words for d in s.defended}
        if accused or defended:
            c["votes_after_words"] += 1
            c["votes_agree_words"] += target not in defended and (
                not accused or target in accused or target in replanned.get((day, voter), set())
            )
        if role[voter].value == "werewolf":
            c["wolf_votes"] += 1
            c["pack_votes"] += role[target].value == "werewolf"
        c["votes_evil"] += role[target] in EVIL
        out = eliminated_on.get(int(ev.data["day"]))
        c["votes_success"] += out == target and team[target] != team[voter]
    for p in st.players:
        if p.role.value in KEY_ROLES:
            counters[p.id]["key_role"] = 1
            counters[p.id]["key_alive"] = float(p.alive)
    sides = sorted({team[s] for s in player_seats})
    winners = set(result.winners)
    side_won = [any(s in winners for s in player_seats if team[s] == t) for t in sides]
    village = "village" in sides and side_won[sides.index("village")]
    return GameFacts(
        roles={s: role[s].value for s in player_seats},
        sides=[[s for s in player_seats if team[s] == t] for t in sides],
        ranks=dense_ranks([float(w) for w in side_won]),
        won={s: s in winners for s in player_seats},
        counters={s: _village_only(c, team[s]) for s, c in counters.items()},
        game={"village_won": float(village), "days": float(st.day)},
    )


def _village_only(c: dict[str, float], team: str) -> dict[str, float]:
    """IRP counts the votes of the village (evil seats know who is evil)."""
    out = dict(c)
    if team != "village":
        out["village_votes"], out["votes_evil"] = 0, 0
    else:
        out["village_votes"] = c["votes"]
    return out


def werewolf_talk(events: Sequence[Event]) -> list[TalkLine]:
    """The talk-quality measure's lines: speeches, pack chat, diaries and vote reasons (the
    reason's words, without the "Your reason for voting X:" frame). A speech act's line
    renders the seat's choice for its ``speak`` (pack ``chat``) decision."""
    lines: list[TalkLine] = []
    for e in events:
        if not e.speaker:
            continue
        if e.kind in ("speech", "wolf_chat", "diary"):
            act = ":chat:" if e.kind == "wolf_chat" else ":speak:"
            rendered = act if "act" in e.data else ""
            lines.append(TalkLine(e.seq, e.speaker, e.speaker, e.text, rendered))
        elif e.kind == "vote_reason":
            reason = str(e.data.get("reason", ""))
            lines.append(TalkLine(e.seq, e.speaker, e.speaker, reason))
    return lines


METRICS = GameMetrics(
    werewolf_facts,
    ratios=(
        Ratio("IRP", "votes_evil", "village_votes", "village votes that named an evil player"),
        Ratio("VSS", "votes_success", "votes", "votes for the player then eliminated, an opponent"),
        Ratio("KSR", "key_alive", "key_role", "seer/doctor seats alive at the end"),
        Ratio(
            "VWA",
            "votes_agree_words",
            "votes_after_words",
            "votes that agree with the voter's words that day (not for a player it defended; "
            "for one it accused, unless its plan changed to the target)",
        ),
        Ratio("WPV", "pack_votes", "wolf_votes", "werewolf votes for a packmate"),
    ),
    balance_grid={
        "doctor_self_protect": (True, False),
        "tie_rule": ("no_elimination", "random"),
        "reveal_roles": (True, False),
    },
    headline=("village_won", "village win rate"),
    talk=werewolf_talk,
)

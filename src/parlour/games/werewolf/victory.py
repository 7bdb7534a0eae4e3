"""Win conditions, checked after every death (after the whole night, after the vote).

In this order:
1. nobody alive (the last wolf and the maniac killed each other) → draw;
2. no werewolf and no maniac alive → the village wins;
3. no werewolf alive, the maniac alive with at most one other player → the maniac wins;
4. the maniac dead and living werewolves ≥ living non-werewolves → the werewolves win.
While the maniac lives the pack cannot win by parity: it must kill the maniac first.
"""

from __future__ import annotations

from typing import Literal

from parlour.core.game import Result
from parlour.games.werewolf.roles import TEAM_OF, Role, Team
from parlour.games.werewolf.state import WerewolfState

_SUMMARY = {
    Team.VILLAGE: "The village wins: every werewolf and the maniac are dead.",
    Team.WOLVES: "The werewolves win: they have reached parity with the village.",
    Team.MANIAC: "The maniac wins: the killer outlived everyone who could stop them.",
}


Draw = Literal["draw", "timeout", "stopped"]


def winner(st: WerewolfState) -> Team | Draw | None:
    """The winning team, ``"draw"`` when nobody is left, or None while the game goes on."""
    living = st.living()
    if not living:
        return "draw"
    wolves = sum(1 for p in living if p.role is Role.WEREWOLF)
    maniac = any(p.role is Role.MANIAC for p in living)
    if wolves == 0 and not maniac:
        return Team.VILLAGE
    if wolves == 0 and maniac and len(living) <= 2:
        return Team.MANIAC
    if not maniac and wolves >= len(living) - wolves:
        return Team.WOLVES
    return None


def result_for(st: WerewolfState, outcome: Team | Draw) -> Result:
    seats = [p.id for p in st.players]
    if isinstance(outcome, Team):
        winners = tuple(p.id for p in st.players if TEAM_OF[p.role] is outcome)
        summary = _SUMMARY[outcome]
        if outcome is Team.VILLAGE and Role.MANIAC.value not in st.role_counts:
            summary = "The village wins: every werewolf is dead."
    else:
        winners = ()
        if outcome == "draw":
            summary = "Draw: nobody is left alive."
        elif outcome == "stopped":
            summary = "Stopped: a player whose death ends the game has died."
        else:
            summary = f"Draw: no side won within {st.day} day{'' if st.day == 1 else 's'}."
    return Result(
        winners=winners,
        summary=summary,
        returns={s: 1.0 if s in winners else 0.0 for s in seats},
    )

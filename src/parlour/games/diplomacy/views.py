"""Views: the public board and record every power shares, and each power's private facts.

Diplomacy has perfect information about the board: units, centres and (after each phase)
every order are public. The only secrets are private press (bilateral messages) and each
power's own briefing; both reach a view only through events addressed to that power.
"""

from __future__ import annotations

from typing import Any

from parlour.core.view import View
from parlour.games.diplomacy.board import Board
from parlour.games.diplomacy.config import DiplomacyConfig
from parlour.games.diplomacy.state import DiplomacyState

GAME = "diplomacy"
SPECTATOR = "spectator"


def power_name(power: str) -> str:
    """``FRANCE`` → ``France`` (the map names powers in capitals)."""
    return power.capitalize()


def surviving(board: Board) -> list[str]:
    return [p for p in board.game_map.powers if not board.is_eliminated(p)]


def counts_line(board: Board) -> str:
    counts = board.centre_counts()
    return ", ".join(f"{power_name(p)} {counts.get(p, 0)}" for p in board.game_map.powers)


def units_line(board: Board, power: str) -> str:
    units = [str(u) for u in board.units_of(power)]
    return ", ".join(units) or "none"


def board_summary(board: Board, power: str | None = None, heading: bool = True) -> str:
    """A few lines for people and prompts: centres per power, units, dislodged units.

    ``heading=False`` leaves out the phase and centre counts, for screens that show the
    public ``phase`` event just before (which says the same)."""
    gm = board.game_map
    total = len(gm.supply_centres)
    head = f"{board.phase.long_name}. Supply centres: {counts_line(board)} (of {total})."
    lines = [head] if heading else []
    for p in gm.powers:
        if board.is_eliminated(p):
            continue
        mark = " (you)" if p == power else ""
        centres = ", ".join(board.centres_of(p)) or "none"
        lines.append(f"{power_name(p)}{mark}: units {units_line(board, p)}; centres {centres}.")
    if board.dislodged:
        lines.append(
            "Dislodged: "
            + ", ".join(f"{d.unit} ({power_name(d.unit.power)})" for d in board.dislodged)
            + "."
        )
    return "\n".join(lines)


def public_facts(st: DiplomacyState, cfg: DiplomacyConfig) -> dict[str, Any]:
    board = st.board
    gm = board.game_map
    counts = board.centre_counts()
    return {
        "map": gm.name,
        "phase": board.phase.name,
        "phase_long": board.phase.long_name,
        "year": board.phase.year,
        "season": board.phase.season.value,
        "phase_type": board.phase.type.value,
        "stage": st.stage,
        "press_round": st.press_round,
        "board": board.to_dict(),
        "centre_counts": counts,
        "powers": [
            {
                "id": p,
                "name": power_name(p),
                "centres": counts.get(p, 0),
                "units": len(board.units_of(p)),
                "eliminated": p in st.eliminated,
            }
            for p in gm.powers
        ],
        "history": [r.as_dict() for r in st.history],
        "centre_history": [{"year": y, "counts": c} for y, c in st.centre_history],
        "rules": {
            "end_year": cfg.end_year,
            "victory_centres": cfg.victory_centres or gm.victory_centres,
            "supply_centres": len(gm.supply_centres),
            "press_rounds": cfg.press_rounds,
            "press_max_messages": cfg.press_max_messages,
            "press_max_length": cfg.press_max_length,
        },
        "result": st.outcome.model_dump(mode="json") if st.outcome else None,
    }


def seat_view(st: DiplomacyState, cfg: DiplomacyConfig, power: str, public: dict[str, Any]) -> View:
    gm = st.board.game_map
    private = {
        "power": power,
        "power_name": power_name(power),
        "home_centres": list(gm.home_centres.get(power, ())),
        "press_to": [p for p in surviving(st.board) if p != power] if cfg.press_rounds else [],
    }
    return View(
        game=GAME,
        seat=power,
        seat_name=power_name(power),
        phase=st.board.phase.name,
        public=public,
        private=private,
        events=tuple(e for e in st.events if e.audience.includes(power, ())),
    )


def spectator(st: DiplomacyState, public: dict[str, Any], reveal: bool) -> View:
    events = st.events if reveal else [e for e in st.events if e.audience.kind == "all"]
    return View(
        game=GAME,
        seat=SPECTATOR,
        seat_name="Spectator",
        phase=st.board.phase.name,
        public=public,
        events=tuple(events),
    )

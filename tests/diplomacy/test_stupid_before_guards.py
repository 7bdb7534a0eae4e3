""" "Never stupid" measured before the guards: a bot's own order set that breaks a rule as
answered is counted, then repaired; a clean one is counted as clean."""

from __future__ import annotations

from parlour.core.actions import Structured
from parlour.games.diplomacy.bot_protocol import FINALISE, PLAN
from parlour.games.diplomacy.config import DiplomacyConfig
from parlour.games.diplomacy.game import DiplomacyGame
from parlour.games.diplomacy.surface.eval_cli import _sets


def _answer(game: DiplomacyGame, purpose: str, picks: dict[str, str]) -> None:
    d = next(d for d in game.pending() if d.seat == "FRANCE" and d.purpose == purpose)
    assert d.json_schema is not None
    options = d.context["diplomacy"]["options"]
    value = {u: opts.index(picks.get(u, opts[0])) for u, opts in options.items()}
    game.apply(d.id, Structured(value={"read": "", "orders": value} if purpose == PLAN else value))


def test_a_self_bounce_is_counted_before_the_guard_repairs_it() -> None:
    game = DiplomacyGame.new(DiplomacyConfig(bots=("FRANCE",), end_year=1901), 2)
    _answer(game, PLAN, {"A PAR": "A PAR - BUR", "A MAR": "A MAR - BUR"})
    memory = game._st.bots["FRANCE"]  # the engine's record of the bot
    assert (memory.stupid_sets, memory.own_sets) == (1, 1)
    assert memory.guards == {"self_bounce": 1}
    floor = list(memory.floor.values())
    assert ("A PAR - BUR" in floor) != ("A MAR - BUR" in floor)  # the guard held one
    for d in [d for d in game.pending() if d.seat != "FRANCE"]:
        assert d.json_schema is not None
        game.apply(
            d.id,
            Structured(value={u: p["enum"][0] for u, p in d.json_schema["properties"].items()}),
        )
    _answer(game, FINALISE, {"A PAR": "A PAR - BUR"})  # a clean set this time
    assert (memory.stupid_sets, memory.own_sets) == (1, 2)
    assert _sets(memory.stupid_sets, memory.own_sets) == "1/2 (50.0%)"
    assert _sets(0, 0) == "-"

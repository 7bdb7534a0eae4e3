"""Order lists are shown likely-first, in groups; what is legal does not change."""

from __future__ import annotations

import asyncio

from parlour.core.asks import Hints
from parlour.core.random_answers import random_answer
from parlour.core.rng import Rng
from parlour.games.diplomacy import DiplomacyGame, make_config
from parlour.games.diplomacy.board import initial_board
from parlour.games.diplomacy.decisions import LIKELY, _unit_decision
from parlour.games.diplomacy.legal import legal_orders
from parlour.games.diplomacy.orders import Convoy, Hold, Move
from parlour.seats.human_forms import Form


def test_every_legal_order_is_shown_once_likely_ones_first() -> None:
    game = DiplomacyGame.new(make_config(None, {"end_year": 1904}), 3)
    rng, checked, demoted = Rng(3), 0, 0
    while not game.is_terminal():
        for decision in game.pending():
            if decision.purpose == "orders":
                board = game.state.board
                legal = legal_orders(board, decision.seat).units
                hints = Hints.of(decision)
                for unit, prop in (decision.json_schema or {})["properties"].items():
                    shown = hints.shown(unit, prop["enum"])
                    values = [v for _, v in shown]
                    assert sorted(values) == sorted(lo.text for lo in legal[unit])
                    assert len(values) == len(set(values))
                    heads = [g for g, _ in shown]
                    order = {lo.text: lo.order for lo in legal[unit]}
                    assert heads[0] == LIKELY and isinstance(order[values[0]], Hold)
                    assert values[0] == prop["enum"][0]  # Enter = 1 still holds
                    # likely orders come first, in one block
                    assert heads == sorted(heads, key=lambda g: g != LIKELY)
                    for group, text in shown:
                        odd = isinstance(order[text], Convoy) or (
                            isinstance(order[text], Move) and order[text].via_convoy
                        )
                        assert not (odd and group == LIKELY), text
                        demoted += group != LIKELY
                    checked += 1
            game.apply(decision.id, random_answer(decision, rng))
    assert checked > 50 and demoted > 0


def test_the_terminal_lists_groups_and_numbers_them_as_shown() -> None:
    decision = _unit_decision(initial_board(), "ENGLAND", retreat=False)
    assert decision is not None
    said: list[str] = []

    async def ask(prompt: str) -> str:
        return "10"

    form = Form(ask, said.append, Hints.of(decision))
    enum = (decision.json_schema or {})["properties"]["F LON"]["enum"]
    chosen = asyncio.run(form.choose("F LON", {"enum": enum}))
    assert chosen == "F LON S F BRE - ENG"  # France's fleet: last, under its own heading
    text = "\n".join(said)
    assert text.index("  likely:") < text.index("F LON H") < text.index("supports of other")
    assert "\n  supports of other powers' units:\n  10. F LON S F BRE - ENG  — " in text

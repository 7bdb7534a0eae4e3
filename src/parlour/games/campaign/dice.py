"""Skill checks: ``1d20+MOD`` in the ``d20`` package's notation, rolled from the game's Rng.

``d20`` draws from whatever its ``expression`` module calls ``random``. The engine must roll
from its own seeded stream (replay rolls the same numbers), so each roll lends d20 a private
``random.Random`` seeded from a number drawn from the game's Rng, and takes it back after:
the shared generator is never seeded or read, and the same game state rolls the same dice.

Outcome bands (total = d20 + skill modifier, against the difficulty's DC):

==================  ==============================================
complication        a natural 1, or the total is below DC - 4
mixed               the total is DC - 4 to DC - 1 (it works, at a cost)
success             the total is DC to DC + 9
success with style  a natural 20, or the total is DC + 10 or more
==================  ==============================================
"""

from __future__ import annotations

import random
from typing import Literal

import d20
import d20.expression as d20_expression
from pydantic import BaseModel, ConfigDict

from parlour.core.rng import Rng

Band = Literal["complication", "mixed", "success", "success with style"]


class Roll(BaseModel):
    model_config = ConfigDict(frozen=True)

    notation: str
    natural: int
    total: int
    dc: int
    band: Band
    #: d20's plain rendering, e.g. "1d20 (14) + 3 = 17" (its default one marks the total
    #: up as Markdown, "`17`", and a natural 1 or 20 as "**1**": stray marks in a transcript)
    shown: str


def notation(modifier: int) -> str:
    return f"1d20{modifier:+d}" if modifier else "1d20"


def band(natural: int, total: int, dc: int) -> Band:
    if natural == 1:
        return "complication"
    if natural == 20 or total >= dc + 10:
        return "success with style"
    if total < dc - 4:
        return "complication"
    return "mixed" if total < dc else "success"


def roll(rng: Rng, modifier: int, dc: int) -> Roll:
    expr = notation(modifier)
    shared = d20_expression.random
    d20_expression.random = random.Random(rng.randint(0, 2**62))
    try:
        result = d20.roll(expr, stringifier=d20.SimpleStringifier())
    finally:
        d20_expression.random = shared
    natural = _natural(result)
    return Roll(
        notation=expr,
        natural=natural,
        total=result.total,
        dc=dc,
        band=band(natural, result.total, dc),
        shown=str(result),
    )


def _natural(result: d20.RollResult) -> int:
    """The d20's face: the first die the expression rolled."""
    dice = [n for n in _walk(result.expr) if isinstance(n, d20.Dice)]
    return int(dice[0].values[0].total)


def _walk(node: object) -> list[object]:
    out = [node]
    for child in getattr(node, "children", []):
        out.extend(_walk(child))
    return out

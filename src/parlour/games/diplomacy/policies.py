"""Scripted policies: DumbBot and civil disorder (hold), as answers to kernel decisions.

A policy sees only its view, like any seat; the board is public in Diplomacy, so the
view carries it (``public.board``) and the policy rebuilds it. Scripted bots say
nothing in press. The random legal bot needs no code here: the generic ``random`` seat
draws each unit's order uniformly from the schema's enum.
"""

from __future__ import annotations

from collections.abc import Iterable

from parlour.core.actions import Action, Choices, Structured
from parlour.core.decisions import Decision
from parlour.core.rng import Rng
from parlour.games.diplomacy.baselines import hold_orders
from parlour.games.diplomacy.bot_policy import bot_answer
from parlour.games.diplomacy.bot_policy import plan as bot_plan
from parlour.games.diplomacy.bot_protocol import BOT_PURPOSES, PLAN
from parlour.games.diplomacy.decisions import BUILDS, REMOVALS, RETREATS
from parlour.games.diplomacy.dumbbot import dumbbot_orders
from parlour.games.diplomacy.orders import Order, Waive
from parlour.games.diplomacy.press import PRESS, silent
from parlour.games.diplomacy.views import DiplomacyView, board_of


def _unit_key(order: Order) -> str:
    assert not isinstance(order, Waive)
    return f"{order.unit_type.value} {order.location}"


def answer_with(decision: Decision, orders: Iterable[Order], view: DiplomacyView) -> Action:
    """Fit engine orders into the decision's answer shape; gaps get civil disorder."""
    orders = list(orders)
    if decision.json_schema is not None:
        props = decision.json_schema["properties"]
        chosen = {_unit_key(o): str(o) for o in orders if not isinstance(o, Waive)}
        value = {}
        for unit, prop in props.items():
            legal = prop["enum"]
            pick = chosen.get(unit)
            value[unit] = pick if pick in legal else legal[0]  # first = hold / disband
        return Structured(value=value)
    legal_ids = set(decision.option_ids)
    picked: list[str] = []
    for order in orders:
        text = str(order)
        if text in legal_ids and text not in picked:
            picked.append(text)
    picked = picked[: decision.max_choices]
    if len(picked) < decision.min_choices:  # removals owed: civil disorder fills the gap
        extra = [str(o) for o in hold_orders(board_of(view), decision.seat)]
        extra += list(decision.option_ids)
        for text in extra:
            if len(picked) >= decision.min_choices:
                break
            if text in legal_ids and text not in picked:
                picked.append(text)
    return Choices(options=tuple(picked))


def dumbbot(view: DiplomacyView, decision: Decision, rng: Rng) -> Action:
    """DumbBot (docs/dumbbot.md) for orders, retreats and adjustments; silent in press;
    the scripted bot (``bot_policy``) for the bot protocol's decisions."""
    scripted = bot_answer(view, decision, rng)
    if scripted is not None:
        return scripted
    if decision.purpose == PRESS:
        return silent()
    return answer_with(decision, dumbbot_orders(board_of(view), decision.seat, rng), view)


def hold(view: DiplomacyView, decision: Decision, rng: Rng) -> Action:
    """Civil disorder: every unit holds, dislodged units disband, builds are waived and
    removals follow the rulebook's civil-disorder order. The fallback for failed seats.

    A bot's decisions fall back along the chain floor → DumbBot → hold: a decision with
    a default (the floor for finalise, silence for talk) takes it; a plan takes DumbBot's.
    """
    if decision.purpose == PLAN:
        return bot_plan(view, decision, rng)
    if decision.purpose in BOT_PURPOSES and decision.default is not None:
        return decision.default
    if decision.purpose == PRESS:
        return silent()
    if decision.purpose == BUILDS:
        return Choices(options=())
    if decision.purpose == REMOVALS:
        return answer_with(decision, hold_orders(board_of(view), decision.seat), view)
    assert decision.json_schema is not None
    suffix = " D" if decision.purpose == RETREATS else " H"
    value = {}
    for unit, prop in decision.json_schema["properties"].items():
        legal = prop["enum"]
        value[unit] = next((o for o in legal if o.endswith(suffix)), legal[0])
    return Structured(value=value)


POLICIES = {"dumbbot": dumbbot, "hold": hold}

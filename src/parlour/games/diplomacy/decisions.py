"""The order decisions of one phase, built from :mod:`.legal`'s complete enumeration.

* Movement and retreats: one STRUCTURED decision per power whose schema has one
  required property per unit (``"A PAR"``, ``"F STP/SC"``), each an ``enum`` of that
  unit's legal orders. Any schema-valid answer is legal, and a grammar-constrained
  model can only write legal orders. The first option is what the unit does without
  an order (hold; disband for a retreat), the rest follow legal.py's stable order.
* Builds: CHOOSE_MANY over the legal builds, 0 to the number allowed; choosing fewer
  waives the rest. Two builds in one province: the first counts, the others are void.
* Removals: CHOOSE_MANY over the power's units, exactly as many as required.

Readable help goes into the decision's ``Hints`` (``core/asks.py``): ``labels`` (unit →
order → sentence) and ``names`` (unit → "Army Paris") for people and prompts; ``summary``
is the board as the power sees it (the phase line is the public ``phase`` event, so it is
not repeated). For people typing orders, ``aliases`` (unit → typed form → orders) accepts
the order without unit letters ("MAR - SPA"), without its unit ("- SPA", "S PAR - BUR"),
a move's or retreat's destination alone ("SPA", "Spain") and "hold"/"disband"; ``forms``
says so. The game's own facts (phase, builds, removals) are its ``DiplomacyAsk``.
"""

from __future__ import annotations

from typing import Any

from parlour.core.asks import Hints, contexts
from parlour.core.decisions import Decision, DecisionKind, Option
from parlour.games.diplomacy.ask import DiplomacyAsk
from parlour.games.diplomacy.board import Board, PhaseType
from parlour.games.diplomacy.legal import LegalOrder, legal_orders
from parlour.games.diplomacy.map import GameMap, UnitType
from parlour.games.diplomacy.orders import (
    Convoy,
    Disband,
    Hold,
    Move,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from parlour.games.diplomacy.schema import closed_object
from parlour.games.diplomacy.views import board_summary

ORDERS = "orders"
RETREATS = "retreats"
BUILDS = "builds"
REMOVALS = "removals"
PURPOSES = (ORDERS, RETREATS, BUILDS, REMOVALS)


def trusted_decision(**fields: Any) -> Decision:
    """A Decision built without jsonschema's meta-schema check of its schema.

    That check costs ~9 ms per order schema, about half of a whole game's wall time,
    and our schemas come from fixed templates filled with legal.py's order texts. The
    tests rebuild every decision of whole games with full validation
    (``tests/diplomacy/test_game.py``), so the shortcut cannot hide a malformed schema.
    """
    return Decision.model_construct(**fields)


def structured_decision(
    phase: str, power: str, purpose: str, *, tag: str = "", n: int | str = "", **fields: Any
) -> Decision:
    """``power``'s structured (JSON) decision for ``purpose``, built as ``trusted_decision``.

    Its id is ``phase:<tag><n>:power``: ``tag`` is the purpose unless given, ``n`` numbers
    a decision asked more than once in a phase (a press round, a reply).
    """
    return trusted_decision(
        id=f"{phase}:{tag or purpose}{n}:{power}",
        seat=power,
        kind=DecisionKind.STRUCTURED,
        purpose=purpose,
        **fields,
    )


def _default_first(options: tuple[LegalOrder, ...], retreat: bool) -> list[LegalOrder]:
    wanted = Disband if retreat else Hold
    first = [lo for lo in options if isinstance(lo.order, wanted)]
    return first + [lo for lo in options if not isinstance(lo.order, wanted)]


#: The groups a unit's orders are shown in, likely ones first (``order_groups``).
LIKELY, BY_CONVOY, OTHERS_SUPPORT, CONVOYS = (
    "likely",
    "moves by convoy (and supports of them)",
    "supports of other powers' units",
    "convoys",
)


def order_groups(
    board: Board, power: str, options: list[LegalOrder]
) -> list[tuple[str, list[str]]]:
    """One unit's orders in the order to show them: holds, moves to adjacent provinces,
    and supports of its own power's units holding or moving to an adjacent province first;
    then moves by convoy (and supports of such moves), supports of other powers' units and
    convoys, each in the legal list's order. Only the showing changes: the decision's
    options stay the full legal list."""
    gm = board.game_map
    groups: dict[str, list[str]] = {LIKELY: [], BY_CONVOY: [], OTHERS_SUPPORT: [], CONVOYS: []}
    for lo in options:
        order = lo.order
        if isinstance(order, SupportHold | SupportMove):
            unit = board.unit_at(order.target)
            own = unit is not None and unit.power == power
            if own and unit is not None and isinstance(order, SupportMove):
                # a support of a move its unit could make only by convoy
                direct = order.dest.province in gm.reachable_provinces(unit.type, unit.location)
                own = direct
                if not direct:
                    groups[BY_CONVOY].append(lo.text)
                    continue
            groups[LIKELY if own else OTHERS_SUPPORT].append(lo.text)
        elif isinstance(order, Convoy):
            groups[CONVOYS].append(lo.text)
        elif isinstance(order, Move) and order.via_convoy:
            groups[BY_CONVOY].append(lo.text)
        else:
            groups[LIKELY].append(lo.text)
    return [(name, texts) for name, texts in groups.items() if texts]


#: How a person may type an order (shown when what they typed matches nothing).
ORDER_FORMS = (
    "an order as listed (A MAR - SPA), without unit letters (MAR - SPA), "
    "a destination alone (SPA or Spain), or H to hold"
)


def _unitless(text: str) -> str:
    # Unit letters are the only one-letter words of an order ("A MAR S A PAR - BUR").
    return " ".join(w for w in text.split() if w not in ("A", "F"))


def order_aliases(unit: str, options: list[LegalOrder], gm: GameMap) -> dict[str, list[str]]:
    """Shorter ways to type each of one unit's orders; a form several orders share maps to
    all of them (the player is then asked which). Plain string work: this runs for every
    unit of every phase, for model seats too."""
    aliases: dict[str, list[str]] = {}
    cut = len(unit) + 1
    for lo in options:
        text, order = lo.text, lo.order
        rest = text[cut:]  # "- SPA", "S A PAR - BUR", "H"
        forms = [_unitless(text), rest, _unitless(rest)]
        if isinstance(order, Hold):
            forms.append("hold")
        elif isinstance(order, Disband):
            forms.append("disband")
        elif isinstance(order, Move | Retreat) and not getattr(order, "via_convoy", False):
            prov = order.dest.province
            forms += [str(order.dest), prov, gm.provinces[prov].name]
        for form in forms:
            texts = aliases.setdefault(form, [])
            if text not in texts:
                texts.append(text)
    return aliases


def unit_schema(units: dict[str, list[str]]) -> dict[str, Any]:
    return closed_object({u: {"type": "string", "enum": orders} for u, orders in units.items()})


def _unit_decision(board: Board, power: str, retreat: bool) -> Decision | None:
    opts = legal_orders(board, power)
    if not opts.units:
        return None
    gm = board.game_map
    units: dict[str, list[str]] = {}
    labels: dict[str, dict[str, str]] = {}
    names: dict[str, str] = {}
    aliases: dict[str, dict[str, list[str]]] = {}
    groups: dict[str, list[tuple[str, list[str]]]] = {}
    for unit, los in opts.units.items():
        ordered = _default_first(los, retreat)
        units[unit] = [lo.text for lo in ordered]
        labels[unit] = {lo.text: lo.label for lo in ordered}
        aliases[unit] = order_aliases(unit, ordered, gm)
        if not retreat:
            groups[unit] = order_groups(board, power, ordered)
        kind, _, where = unit.partition(" ")
        names[unit] = f"{UnitType(kind).noun} {gm.location_name(gm.parse_location(where))}"
    phase = board.phase
    n = len(units)
    if retreat:
        purpose = RETREATS
        prompt = (
            f"{phase.long_name}: retreat or disband each of your {n} dislodged "
            f"unit{'s' * (n != 1)}."
        )
    else:
        purpose = ORDERS
        prompt = f"{phase.long_name}: give one order to each of your {n} unit{'s' * (n != 1)}."
    return structured_decision(
        phase.name,
        power,
        purpose,
        prompt=prompt,
        # One JSON object with an order per unit: it needs room.
        max_tokens=600 if purpose == ORDERS else 200,
        json_schema=unit_schema(units),
        context=contexts(
            DiplomacyAsk(phase=phase.name),
            Hints(
                names=names,
                labels=labels,
                aliases=aliases,
                groups=groups,
                forms=ORDER_FORMS,
                summary=board_summary(board, power, heading=False),
            ),
        ),
    )


def _adjustment_decision(board: Board, power: str) -> Decision | None:
    opts = legal_orders(board, power)
    count = opts.adjustment_count
    if count == 0:
        return None
    phase = board.phase
    legal = [lo for lo in opts.adjustments if not isinstance(lo.order, Waive)]
    options = tuple(Option(id=lo.text, label=lo.label) for lo in legal)
    hints = Hints(summary=board_summary(board, power, heading=False))
    if count > 0:
        purpose, least, most = BUILDS, 0, count
        prompt = (
            f"{phase.long_name}: you may build up to {count} unit{'s' * (count != 1)} "
            "in your free home centres (choose fewer to waive the rest; one build per "
            "province: a second build there is void)."
        )
        ask = DiplomacyAsk(phase=phase.name, builds=count)
    else:
        need = -count
        purpose, least, most = REMOVALS, need, need
        prompt = (
            f"{phase.long_name}: you have more units than centres; remove exactly "
            f"{need} unit{'s' * (need != 1)}."
        )
        ask = DiplomacyAsk(phase=phase.name, removals=need)
    return Decision(
        id=f"{phase.name}:{purpose}:{power}",
        seat=power,
        kind=DecisionKind.CHOOSE_MANY,
        purpose=purpose,
        max_tokens=200,
        prompt=prompt,
        options=options,
        min_choices=least,
        max_choices=most,
        context=contexts(ask, hints),
    )


def phase_decisions(board: Board) -> list[Decision]:
    """Every power's decision for the board's phase (powers with nothing to order: none).

    Built once per board and kept in its ``_derived`` scratch space (a board is frozen, so
    its decisions never change): a bot phase asks for every power's legal orders hundreds
    of times (each message lists both sides'), and building them was most of a scripted
    game's time."""
    made = board._derived.get("phase_decisions")
    if not isinstance(made, tuple):
        made = board._derived["phase_decisions"] = tuple(_phase_decisions(board))
    return list(made)


def _phase_decisions(board: Board) -> list[Decision]:
    out: list[Decision] = []
    ptype = board.phase.type
    for power in board.game_map.powers:
        if ptype is PhaseType.ADJUSTMENTS:
            decision = _adjustment_decision(board, power)
        else:
            decision = _unit_decision(board, power, retreat=ptype is PhaseType.RETREATS)
        if decision is not None:
            out.append(decision)
    return out

""" "Never stupid" guards on one power's movement orders.

The plan may be weak; these four mistakes must not happen:

* ``self_bounce``: two of our units move to one province, or one moves into a province
  where another of ours stays (it can only bounce);
* ``self_dislodge``: we support a foreign unit's move into a province where our own
  unit stays;
* ``enemy_into_our_centre``: we support a foreign unit's move into one of our centres;
* ``open_home``: a home centre of ours is left empty while an adjacent foreign unit
  whose power declared (a threat we recorded) a move there can walk in.

``violations`` lists them (used to count them in any power's orders, DumbBot's too);
``fix`` corrects them with the unit's hold (or, for an open home, a move home by an
adjacent unit), always choosing from the unit's legal orders.
"""

from __future__ import annotations

from collections.abc import Mapping

from parlour.games.diplomacy.board import Board
from parlour.games.diplomacy.orders import Move, Order, SupportMove, parse_order

GUARDS = ("self_bounce", "self_dislodge", "enemy_into_our_centre", "open_home")


def _parsed(orders: Mapping[str, str]) -> dict[str, Order]:
    return {unit: parse_order(text) for unit, text in orders.items()}


def _dest(order: Order) -> str | None:
    return order.dest.province if isinstance(order, Move) else None


def violations(
    board: Board, power: str, orders: Mapping[str, str], threats: Mapping[str, str] = {}
) -> list[tuple[str, str]]:
    """(guard, unit) for every broken rule in ``orders`` (unit → order text).
    ``threats``: our home province → the foreign unit ("A MUN") that declared a move there."""
    parsed = _parsed(orders)
    found: list[tuple[str, str]] = []
    staying = {u.split()[1][:3] for u, o in parsed.items() if _dest(o) is None}
    seen: dict[str, str] = {}
    ours = set(board.centres_of(power))
    for unit, order in parsed.items():
        dest = _dest(order)
        if dest is not None:
            if dest in seen or dest in staying:
                found.append(("self_bounce", unit))
            seen.setdefault(dest, unit)
        if isinstance(order, SupportMove):
            target = board.unit_at(order.target[:3])
            if target is not None and target.power != power:
                dest_p = order.dest.province
                if dest_p in staying:
                    found.append(("self_dislodge", unit))
                elif dest_p in ours:
                    found.append(("enemy_into_our_centre", unit))
    for home, attacker in threats.items():
        if home in staying or home in seen:
            continue
        enemy = board.unit_at(attacker.split()[1][:3]) if " " in attacker else None
        if enemy is None or enemy.power == power:
            continue
        gm = board.game_map
        if home not in gm.reachable_provinces(enemy.type, enemy.location):
            continue
        found.append(("open_home", home))
    return found


def fix(
    board: Board,
    power: str,
    orders: Mapping[str, str],
    legal: Mapping[str, list[str]],
    threats: Mapping[str, str] = {},
) -> tuple[dict[str, str], dict[str, int]]:
    """Corrected orders and how many corrections each guard made. ``legal``: unit → its
    legal orders, hold first (the decision's enum)."""
    out = dict(orders)
    counts: dict[str, int] = {}
    for _ in range(len(out) + len(threats) + 1):  # each pass fixes one unit or home
        found = violations(board, power, out, threats)
        if not found:
            break
        guard, where = found[0]
        counts[guard] = counts.get(guard, 0) + 1
        if guard != "open_home":
            out[where] = legal[where][0]  # the unit's hold
            continue
        mover = _home_mover(board, out, legal, where)
        if mover is None:
            threats = {h: a for h, a in threats.items() if h != where}  # nothing can help
            counts[guard] -= 1
            continue
        unit, order = mover
        out[unit] = order
    return out, {g: n for g, n in counts.items() if n}


def _home_mover(
    board: Board, orders: Mapping[str, str], legal: Mapping[str, list[str]], home: str
) -> tuple[str, str] | None:
    """A unit of ours that can cover ``home``: the one standing there holds, else an
    adjacent one moves in (a unit that is not needed where it stands, i.e. first found)."""
    for unit, options in legal.items():
        if unit.split()[1][:3] == home:
            return unit, options[0]
    for unit, options in legal.items():
        for text in options:
            order = parse_order(text)
            if isinstance(order, Move) and not order.via_convoy and order.dest.province == home:
                if _dest(parse_order(orders[unit])) == home:
                    return None
                return unit, text
    return None

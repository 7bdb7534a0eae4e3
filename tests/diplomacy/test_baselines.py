"""Floor baselines: random legal orders and holding still."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from parlour.games.diplomacy.adjudicator import CivilDisorderRule, Rules, process_phase
from parlour.games.diplomacy.baselines import hold_orders, random_orders
from parlour.games.diplomacy.board import Board, DislodgedUnit, Unit, initial_board, make_board
from parlour.games.diplomacy.legal import legal_orders
from parlour.games.diplomacy.map import Location, UnitType, standard_map
from parlour.games.diplomacy.orders import Build, Disband, Hold, Waive, order_province

GM = standard_map()


def test_random_orders_are_uniform_per_unit() -> None:
    board = initial_board()
    options = legal_orders(board, "FRANCE").units["A PAR"]
    rng = random.Random(1)
    n = 200 * len(options)
    counts = Counter(
        next(o for o in random_orders(board, "FRANCE", rng) if order_province(o) == "PAR")
        for _ in range(n)
    )
    assert set(counts) == {lo.order for lo in options}
    assert all(c == pytest.approx(200, rel=0.35) for c in counts.values())


def test_random_orders_one_per_unit_and_legal_objects() -> None:
    board = initial_board()
    for seed in range(10):
        orders = random_orders(board, "RUSSIA", random.Random(seed))
        assert len(orders) == 4
        pool = {id(lo.order) for los in legal_orders(board, "RUSSIA").units.values() for lo in los}
        assert all(id(o) in pool for o in orders)


def test_random_builds_use_distinct_sites() -> None:
    units = {"FRANCE": ["A BUR"]}
    board = make_board(GM, "W1901A", units, {"FRANCE": ["PAR", "MAR", "BRE", "SPA"]})
    for seed in range(40):
        orders = random_orders(board, "FRANCE", random.Random(seed))
        assert len(orders) == 3
        sites = [o.location.province for o in orders if isinstance(o, Build)]
        assert len(sites) == len(set(sites))
        assert all(isinstance(o, (Build, Waive)) for o in orders)


def test_random_removals_are_distinct() -> None:
    units = {"FRANCE": ["A BUR", "A GAS", "F MAO", "A PIC"]}
    board = make_board(GM, "W1901A", units, {"FRANCE": ["PAR"]})
    for seed in range(20):
        orders = random_orders(board, "FRANCE", random.Random(seed))
        assert len({o.location.province for o in orders if isinstance(o, Disband)}) == 3


def test_hold_orders_hold_and_waive() -> None:
    board = initial_board()
    assert all(isinstance(o, Hold) for o in hold_orders(board, "TURKEY"))
    assert len(hold_orders(board, "RUSSIA")) == 4
    units = {"FRANCE": ["A BUR"]}
    winter = make_board(GM, "W1901A", units, {"FRANCE": ["PAR", "MAR", "BRE"]})
    assert hold_orders(winter, "FRANCE") == [Waive(), Waive()]


def test_hold_orders_disband_dislodged_units() -> None:
    base = make_board(GM, "F1901R", {"GERMANY": ["A BUR"]}, {"FRANCE": ["PAR"]})
    unit = Unit("FRANCE", UnitType.ARMY, Location("BUR"))
    dislodged = (DislodgedUnit(unit, "MUN", False, (Location("PAR"),)),)
    board = Board(base.game_map, base.phase, base.units, base.centres, dislodged)
    assert hold_orders(board, "FRANCE") == [Disband(UnitType.ARMY, Location("BUR"))]


@pytest.mark.parametrize("rule", list(CivilDisorderRule))
def test_hold_removals_follow_the_civil_disorder_rule(rule: CivilDisorderRule) -> None:
    units = {"FRANCE": ["A MUN", "F NAO", "A PAR", "A SPA"], "GERMANY": ["A BER"]}
    board = make_board(GM, "W1901A", units, {"FRANCE": ["PAR", "SPA"], "GERMANY": ["BER"]})
    rules = Rules(civil_disorder=rule)
    orders = hold_orders(board, "FRANCE", rules)
    assert len(orders) == 2 and all(isinstance(o, Disband) for o in orders)
    explicit = process_phase(board, {"FRANCE": orders}, rules).board
    default = process_phase(board, {}, rules).board
    assert explicit.units == default.units


def test_finished_board_gives_nothing() -> None:
    board = initial_board()
    done = Board(board.game_map, board.phase, board.units, board.centres, finished=True)
    assert random_orders(done, "FRANCE", random.Random(0)) == []
    assert hold_orders(done, "FRANCE") == []

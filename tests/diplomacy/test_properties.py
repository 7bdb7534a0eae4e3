"""Property tests: invariants of legal orders and adjudication on random positions."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.games.diplomacy.adjudicator import process_phase
from parlour.games.diplomacy.board import Board, Phase, PhaseType, Season, Unit
from parlour.games.diplomacy.legal import adjustment_count, all_legal_orders, validate_order
from parlour.games.diplomacy.map import Location, ProvinceKind, UnitType, load_map
from parlour.games.diplomacy.orders import parse_order

from .diff_harness import random_orders

GM = load_map("standard")
PROVINCES = sorted(GM.provinces)


def random_board(seed: int, season: Season = Season.SPRING) -> Board:
    """A random but valid movement-phase position (any units anywhere)."""
    rng = random.Random(seed)
    units: list[Unit] = []
    used: set[str] = set()
    for province in rng.sample(PROVINCES, rng.randint(4, 40)):
        prov = GM.provinces[province]
        power = rng.choice(GM.powers)
        if prov.kind is ProvinceKind.SEA:
            units.append(Unit(power, UnitType.FLEET, Location(province)))
        elif prov.kind is ProvinceKind.LAND or rng.random() < 0.5:
            units.append(Unit(power, UnitType.ARMY, Location(province)))
        else:
            units.append(Unit(power, UnitType.FLEET, rng.choice(GM.fleet_locations[province])))
        used.add(province)
    centres = {c: rng.choice(GM.powers) for c in GM.supply_centres if rng.random() < 0.7}
    return Board(GM, Phase(1905, season, PhaseType.MOVEMENT), tuple(units), centres)


seeds = st.integers(min_value=0, max_value=2**32 - 1)
fast = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@fast
@given(seeds)
def test_legal_orders_are_canonical_sorted_and_valid(seed: int) -> None:
    board = random_board(seed)
    for power, po in all_legal_orders(board).items():
        for los in po.units.values():
            texts = [lo.text for lo in los]
            assert texts == sorted(texts)
            assert len(set(texts)) == len(texts)
            for lo in los:
                assert str(lo.order) == lo.text
                assert parse_order(lo.text) == lo.order
                assert validate_order(board, power, lo.order) == lo.order
                assert lo.label


@fast
@given(seeds, st.sampled_from([Season.SPRING, Season.FALL]))
def test_adjudication_invariants(seed: int, season: Season) -> None:
    """No two units share a province; units are conserved except dislodgements/disbands."""
    rng = random.Random(seed)
    board = random_board(seed, season)
    for _ in range(6):
        if board.finished:
            break
        before = board
        result = process_phase(board, random_orders(rng, board))
        assert not result.rejected
        after = result.board
        provinces = [u.province for u in after.units]
        assert len(provinces) == len(set(provinces))
        if before.phase.type is PhaseType.MOVEMENT:
            dislodged = sum(r.dislodged for r in result.results)
            assert len(after.units) == len(before.units) - dislodged
            assert len(after.dislodged) <= dislodged
            for d in after.dislodged:
                assert d.retreats
                assert all(r.province not in provinces for r in d.retreats)
        elif before.phase.type is PhaseType.RETREATS:
            assert (
                len(before.units) <= len(after.units) <= len(before.units) + len(before.dislodged)
            )
        else:
            for power in GM.powers:
                n_before, n_after = len(before.units_of(power)), len(after.units_of(power))
                count = adjustment_count(before, power)
                if count < 0:  # removals: ordered or by civil disorder, exactly down to centres
                    assert n_after == len(before.centres_of(power))
                else:
                    assert n_before <= n_after <= n_before + count
        # the board round-trips through plain data
        assert Board.from_dict(after.to_dict()) == after
        board = after


@settings(max_examples=60, deadline=None)
@given(seeds)
def test_random_text_never_crashes_the_parser(seed: int) -> None:
    rng = random.Random(seed)
    words = [
        "A",
        "F",
        "PAR",
        "BUR",
        "STP/SC",
        "-",
        "S",
        "C",
        "H",
        "R",
        "D",
        "B",
        "VIA",
        "xx",
        "SPA(nc)",
    ]
    text = " ".join(rng.choice(words) for _ in range(rng.randint(0, 7)))
    try:
        order = parse_order(text)
    except ValueError:
        return
    assert parse_order(str(order)) == order

"""DATC (Diplomacy Adjudicator Test Cases, L. B. Kruijswijk, v3.1) sections 6.A-6.J.

Each case lists the orders as written in the DATC (unit types added where the
DATC omits them) and the expected outcome: which moves succeed, which units are
dislodged, which orders our validation rejects as illegal (DATC 4.E.1: illegal
orders are ignored, so the unit holds), and for retreat and adjustment cases the
final position. Every other unit must stay where it was.

Where the DATC offers options we use its preference (the `Rules()` defaults),
except 6.J which tests the 2023 civil-disorder rule, an option here
(`CivilDisorderRule.OWNED_CENTRES_2023`); our default is the older
home-centre rule, tested separately at the bottom.

Run: ``uv run --group test pytest tests/diplomacy/test_datc.py -q``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from parlour.games.diplomacy.adjudicator import (
    DEFAULT_RULES,
    CivilDisorderRule,
    OrderStatus,
    PhaseResult,
    Rules,
    process_phase,
)
from parlour.games.diplomacy.board import Board, PhaseType, make_board
from parlour.games.diplomacy.map import load_map
from parlour.games.diplomacy.orders import Move, parse_order

GM = load_map("standard")
P = {
    "A": "AUSTRIA",
    "E": "ENGLAND",
    "F": "FRANCE",
    "G": "GERMANY",
    "I": "ITALY",
    "R": "RUSSIA",
    "T": "TURKEY",
}


@dataclass(frozen=True)
class Case:
    id: str
    orders: dict[str, list[str]]
    moved: tuple[str, ...] = ()  # "A PAR - BUR": the moves that succeed (final location)
    dislodged: tuple[str, ...] = ()
    rejected: tuple[str, ...] = ()  # orders our validation rejects as illegal
    units: dict[str, list[str]] | None = None  # default: the units the orders name
    extra_units: dict[str, list[str]] = field(default_factory=dict)
    retreat_options: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Retreat phase that follows (6.H): orders and the units that end up retreating.
    retreat_orders: dict[str, list[str]] | None = None
    retreat_rejected: tuple[str, ...] = ()
    retreated: tuple[str, ...] = ()  # "A HOL - BEL": successful retreats
    note: str = ""


def _unit_of(order_text: str) -> str:
    toks = order_text.split()
    return f"{toks[0]} {toks[1]}"


def _board_for(case: Case) -> Board:
    units: dict[str, list[str]] = {}
    if case.units is not None:
        for p, us in case.units.items():
            units.setdefault(P[p], []).extend(us)
    else:
        for p, orders in case.orders.items():
            units.setdefault(P[p], []).extend(_unit_of(o) for o in orders)
    for p, us in case.extra_units.items():
        units.setdefault(P[p], []).extend(us)
    return make_board(GM, "S1901M", units)


def _canon_move(text: str) -> str:
    order = parse_order(text)
    assert isinstance(order, Move)
    return f"{order.unit_type} {order.location} - {order.dest}"


def _check_movement(case: Case, result: PhaseResult, before: Board) -> None:
    rejected = sorted(str(parse_order(r.text)) for r in result.rejected)
    assert rejected == sorted(str(parse_order(t)) for t in case.rejected), "rejected orders"
    moved = sorted(
        f"{r.order.unit_type} {r.order.location} - {r.order.dest}"
        for r in result.results
        if isinstance(r.order, Move) and r.status is OrderStatus.SUCCEEDED
    )
    assert moved == sorted(_canon_move(m) for m in case.moved), "successful moves"
    dislodged = sorted(
        f"{r.order.unit_type} {r.order.location}" for r in result.results if r.dislodged
    )
    assert dislodged == sorted(case.dislodged), "dislodged units"
    # Everyone else stays put; movers are at their destination.
    expected = {str(u) for u in before.units} - set(case.dislodged)
    moves = [parse_order(_canon_move(m)) for m in case.moved]
    for order in moves:
        assert isinstance(order, Move)
        expected.discard(f"{order.unit_type} {order.location}")
    for order in moves:
        assert isinstance(order, Move)
        expected.add(f"{order.unit_type} {order.dest}")
    assert {str(u) for u in result.board.units} == expected, "final positions"
    for unit, options in case.retreat_options.items():
        d = next(d for d in result.dislodged if str(d.unit) == unit)
        assert tuple(str(r) for r in d.retreats) == tuple(sorted(options)), f"retreats of {unit}"


def _orders(spec: dict[str, list[str]]) -> dict[str, list[str]]:
    return {P[p]: list(os) for p, os in spec.items()}


# ---------------------------------------------------------------------------
# 6.A  Basic checks
# ---------------------------------------------------------------------------
CASES: list[Case] = [
    Case("6.A.1", {"E": ["F NTH - PIC"]}, rejected=("F NTH - PIC",)),
    Case("6.A.2", {"E": ["A LVP - IRI"]}, rejected=("A LVP - IRI",)),
    Case("6.A.3", {"G": ["F KIE - MUN"]}, rejected=("F KIE - MUN",)),
    Case("6.A.4", {"G": ["F KIE - KIE"]}, rejected=("F KIE - KIE",)),
    Case(
        "6.A.5",
        {
            "E": ["F NTH C A YOR - YOR", "A YOR - YOR", "A LVP S A YOR - YOR"],
            "G": ["F LON - YOR", "A WAL S F LON - YOR"],
        },
        moved=("F LON - YOR",),
        dislodged=("A YOR",),
        rejected=("F NTH C A YOR - YOR", "A YOR - YOR", "A LVP S A YOR - YOR"),
    ),
    Case(
        "6.A.6",
        {"G": ["F LON - NTH"]},
        units={"E": ["F LON"]},
        rejected=("F LON - NTH",),
    ),
    Case(
        "6.A.7",
        {"E": ["F LON - BEL", "F NTH C A LON - BEL"]},
        rejected=("F LON - BEL", "F NTH C A LON - BEL"),
    ),
    Case(
        "6.A.8",
        {"I": ["A VEN - TRI", "A TYR S A VEN - TRI"], "A": ["F TRI S F TRI"]},
        moved=("A VEN - TRI",),
        dislodged=("F TRI",),
        rejected=("F TRI S F TRI",),
    ),
    Case("6.A.9", {"I": ["F ROM - VEN"]}, rejected=("F ROM - VEN",)),
    Case(
        "6.A.10",
        {"A": ["A VEN H"], "I": ["F ROM S A APU - VEN", "A APU - VEN"]},
        rejected=("F ROM S A APU - VEN",),
    ),
    Case("6.A.11", {"A": ["A VIE - TYR"], "I": ["A VEN - TYR"]}),
    Case("6.A.12", {"A": ["A VIE - TYR"], "G": ["A MUN - TYR"], "I": ["A VEN - TYR"]}),
    # -----------------------------------------------------------------------
    # 6.B  Coastal issues
    # -----------------------------------------------------------------------
    Case("6.B.1", {"F": ["F POR - SPA"]}, rejected=("F POR - SPA",)),
    Case("6.B.2", {"F": ["F GAS - SPA"]}, moved=("F GAS - SPA/NC",)),
    Case("6.B.3", {"F": ["F GAS - SPA/SC"]}, rejected=("F GAS - SPA/SC",)),
    Case(
        "6.B.4",
        {"F": ["F GAS - SPA/NC", "F MAR S F GAS - SPA/NC"], "I": ["F WES - SPA/SC"]},
        moved=("F GAS - SPA/NC",),
    ),
    Case(
        "6.B.5",
        {"F": ["F MAR - LYO", "F SPA/NC S F MAR - LYO"], "I": ["F LYO H"]},
        rejected=("F SPA/NC S F MAR - LYO",),
    ),
    Case(
        "6.B.6",
        {
            "E": ["F IRI S F NAO - MAO", "F NAO - MAO"],
            "F": ["F SPA/NC S F MAO", "F MAO H"],
            "I": ["F LYO - SPA/SC"],
        },
        moved=("F NAO - MAO",),
        dislodged=("F MAO",),
    ),
    Case(
        "6.B.7",
        {
            "F": ["F POR S F MAO - SPA", "F MAO - SPA/NC"],
            "I": ["F LYO S F WES - SPA/SC", "F WES - SPA/SC"],
        },
        note="support without coast accepted (DATC 4.B.4 preference)",
    ),
    Case(
        "6.B.8",
        {
            "F": ["F POR S F GAS - SPA", "F GAS - SPA/NC"],
            "I": ["F LYO S F WES - SPA/SC", "F WES - SPA/SC"],
        },
    ),
    Case(
        "6.B.9",
        {
            "F": ["F POR S F MAO - SPA/NC", "F MAO - SPA/SC"],
            "I": ["F LYO S F WES - SPA/SC", "F WES - SPA/SC"],
        },
        moved=("F WES - SPA/SC",),
    ),
    Case(
        "6.B.10",
        {"F": ["F SPA/NC - LYO"]},
        units={"F": ["F SPA/SC"]},
        moved=("F SPA/SC - LYO",),
        note="the wrong coast of the ordered unit is ignored (4.B.5)",
    ),
    Case(
        "6.B.11",
        {"F": ["F SPA/SC - LYO"]},
        units={"F": ["F SPA/NC"]},
        rejected=("F SPA/SC - LYO",),
    ),
    Case("6.B.12", {"F": ["A GAS - SPA/NC"]}, moved=("A GAS - SPA",)),
    Case("6.B.13", {"T": ["F BUL/SC - CON", "F CON - BUL/EC"]}),
    # 6.B.14 (build with unspecified coast) is with the adjustment cases below.
    Case(
        "6.B.15",
        {
            "F": ["F POR S F MAO - SPA"],
            "E": ["F MAO - SPA/NC"],
            "I": ["F LYO S F WES - SPA/SC", "F WES - SPA/SC"],
        },
    ),
    # -----------------------------------------------------------------------
    # 6.C  Circular movement
    # -----------------------------------------------------------------------
    Case(
        "6.C.1",
        {"T": ["F ANK - CON", "A CON - SMY", "A SMY - ANK"]},
        moved=("F ANK - CON", "A CON - SMY", "A SMY - ANK"),
    ),
    Case(
        "6.C.2",
        {"T": ["F ANK - CON", "A CON - SMY", "A SMY - ANK", "A BUL S F ANK - CON"]},
        moved=("F ANK - CON", "A CON - SMY", "A SMY - ANK"),
    ),
    Case("6.C.3", {"T": ["F ANK - CON", "A CON - SMY", "A SMY - ANK", "A BUL - CON"]}),
    Case(
        "6.C.4",
        {
            "A": ["A TRI - SER", "A SER - BUL"],
            "T": [
                "A BUL - TRI",
                "F AEG C A BUL - TRI",
                "F ION C A BUL - TRI",
                "F ADR C A BUL - TRI",
            ],
            "I": ["F NAP - ION"],
        },
        moved=("A TRI - SER", "A SER - BUL", "A BUL - TRI"),
    ),
    Case(
        "6.C.5",
        {
            "A": ["A TRI - SER", "A SER - BUL"],
            "T": [
                "A BUL - TRI",
                "F AEG C A BUL - TRI",
                "F ION C A BUL - TRI",
                "F ADR C A BUL - TRI",
            ],
            "I": ["F NAP - ION", "F TUN S F NAP - ION"],
        },
        moved=("F NAP - ION",),
        dislodged=("F ION",),
    ),
    Case(
        "6.C.6",
        {
            "E": ["F NTH C A LON - BEL", "A LON - BEL"],
            "F": ["F ENG C A BEL - LON", "A BEL - LON"],
        },
        moved=("A LON - BEL", "A BEL - LON"),
    ),
    Case(
        "6.C.7",
        {
            "E": ["F NTH C A LON - BEL", "A LON - BEL"],
            "F": ["F ENG C A BEL - LON", "A BEL - LON", "A BUR - BEL"],
        },
    ),
    Case(
        "6.C.8",
        {
            "T": ["F CON - BLA", "A BUL - CON", "A SMY S A BUL - CON"],
            "R": ["F BLA - BUL/EC"],
            "A": ["A SER - BUL"],
        },
    ),
    Case(
        "6.C.9",
        {
            "T": ["F CON - BLA", "A SMY S A BUL - CON"],
            "R": ["F BLA - BUL/EC"],
            "A": ["A SER - BUL", "A BUL - CON"],
        },
    ),
    # -----------------------------------------------------------------------
    # 6.D  Supports and dislodges
    # -----------------------------------------------------------------------
    Case(
        "6.D.1",
        {"A": ["F ADR S A TRI - VEN", "A TRI - VEN"], "I": ["A VEN H", "A TYR S A VEN"]},
    ),
    Case(
        "6.D.2",
        {
            "A": ["F ADR S A TRI - VEN", "A TRI - VEN", "A VIE - TYR"],
            "I": ["A VEN H", "A TYR S A VEN"],
        },
        moved=("A TRI - VEN",),
        dislodged=("A VEN",),
    ),
    Case(
        "6.D.3",
        {"A": ["F ADR S A TRI - VEN", "A TRI - VEN"], "I": ["A VEN H", "F ION - ADR"]},
    ),
    Case(
        "6.D.4",
        {"G": ["A BER S F KIE", "F KIE S A BER"], "R": ["F BAL S A PRU - BER", "A PRU - BER"]},
    ),
    Case(
        "6.D.5",
        {
            "G": ["A BER S A MUN - SIL", "F KIE S A BER", "A MUN - SIL"],
            "R": ["F BAL S A PRU - BER", "A PRU - BER"],
        },
        moved=("A MUN - SIL",),
    ),
    Case(
        "6.D.6",
        {
            "G": ["A BER - SWE", "F BAL C A BER - SWE", "F PRU S F BAL"],
            "R": ["F LVN - BAL", "F BOT S F LVN - BAL"],
        },
        moved=("A BER - SWE",),
    ),
    Case(
        "6.D.7",
        {
            "G": ["F BAL - SWE", "F PRU S F BAL"],
            "R": ["F LVN - BAL", "F BOT S F LVN - BAL", "A FIN - SWE"],
        },
        moved=("F LVN - BAL",),
        dislodged=("F BAL",),
    ),
    Case(
        "6.D.8",
        {
            "A": ["F ION H", "A SER S A ALB - GRE", "A ALB - GRE"],
            "T": ["A GRE - NAP", "A BUL S A GRE"],
        },
        moved=("A ALB - GRE",),
        dislodged=("A GRE",),
    ),
    Case(
        "6.D.9",
        {
            "I": ["A VEN - TRI", "A TYR S A VEN - TRI"],
            "A": ["A ALB S A TRI - SER", "A TRI H"],
        },
        moved=("A VEN - TRI",),
        dislodged=("A TRI",),
    ),
    Case("6.D.10", {"G": ["A BER H", "F KIE - BER", "A MUN S F KIE - BER"]}),
    Case(
        "6.D.11",
        {"G": ["A BER - PRU", "F KIE - BER", "A MUN S F KIE - BER"], "R": ["A WAR - PRU"]},
    ),
    Case("6.D.12", {"A": ["F TRI H", "A VIE S A VEN - TRI"], "I": ["A VEN - TRI"]}),
    Case(
        "6.D.13",
        {"A": ["F TRI - ADR", "A VIE S A VEN - TRI"], "I": ["A VEN - TRI", "F APU - ADR"]},
    ),
    Case(
        "6.D.14",
        {
            "A": ["F TRI H", "A VIE S A VEN - TRI"],
            "I": ["A VEN - TRI", "A TYR S A VEN - TRI", "F ADR S A VEN - TRI"],
        },
        moved=("A VEN - TRI",),
        dislodged=("F TRI",),
    ),
    Case(
        "6.D.15",
        {"R": ["F CON S F BLA - ANK", "F BLA - ANK"], "T": ["F ANK - CON"]},
        moved=("F BLA - ANK",),
        dislodged=("F ANK",),
    ),
    Case(
        "6.D.16",
        {
            "E": ["A LON H", "F NTH C A BEL - LON"],
            "F": ["F ENG S A BEL - LON", "A BEL - LON"],
        },
        moved=("A BEL - LON",),
        dislodged=("A LON",),
    ),
    Case(
        "6.D.17",
        {
            "R": ["F CON S F BLA - ANK", "F BLA - ANK"],
            "T": ["F ANK - CON", "A SMY S F ANK - CON", "A ARM - ANK"],
        },
        moved=("F ANK - CON",),
        dislodged=("F CON",),
    ),
    Case(
        "6.D.18",
        {
            "R": ["F CON S F BLA - ANK", "F BLA - ANK", "A BUL S F CON"],
            "T": ["F ANK - CON", "A SMY S F ANK - CON", "A ARM - ANK"],
        },
        moved=("F BLA - ANK",),
        dislodged=("F ANK",),
    ),
    Case(
        "6.D.19",
        {
            "R": ["F CON S F BLA - ANK", "F BLA - ANK", "A SMY S F ANK - CON"],
            "T": ["F ANK - CON"],
        },
        moved=("F BLA - ANK",),
        dislodged=("F ANK",),
    ),
    Case(
        "6.D.20",
        {"E": ["F LON S F NTH - ENG", "F NTH - ENG", "A YOR - LON"], "F": ["F ENG H"]},
        moved=("F NTH - ENG",),
        dislodged=("F ENG",),
    ),
    Case(
        "6.D.21",
        {
            "A": ["F TRI H"],
            "I": ["A VEN - TRI", "A TYR S A VEN - TRI"],
            "G": ["A MUN - TYR"],
            "R": ["A SIL - MUN", "A BER S A SIL - MUN"],
        },
        moved=("A SIL - MUN",),
        dislodged=("A MUN",),
    ),
    Case(
        "6.D.22",
        {"G": ["F KIE - MUN", "A BUR S F KIE - MUN"], "R": ["A MUN - KIE", "A BER S A MUN - KIE"]},
        moved=("A MUN - KIE",),
        dislodged=("F KIE",),
        rejected=("F KIE - MUN", "A BUR S F KIE - MUN"),
    ),
    Case(
        "6.D.23",
        {
            "I": ["F LYO - SPA/SC", "F WES S F LYO - SPA/SC"],
            "F": ["F SPA/NC - LYO", "F MAR S F SPA - LYO"],
        },
        moved=("F LYO - SPA/SC",),
        dislodged=("F SPA/NC",),
        rejected=("F SPA/NC - LYO", "F MAR S F SPA - LYO"),
    ),
    Case(
        "6.D.24",
        {
            "F": ["A MAR - LYO", "F SPA/SC S A MAR - LYO"],
            "I": ["F LYO H"],
            "T": ["F TYS S F WES - LYO", "F WES - LYO"],
        },
        moved=("F WES - LYO",),
        dislodged=("F LYO",),
        rejected=("A MAR - LYO", "F SPA/SC S A MAR - LYO"),
    ),
    Case(
        "6.D.25",
        {"G": ["A BER S A PRU", "F KIE S A BER"], "R": ["F BAL S A PRU - BER", "A PRU - BER"]},
    ),
    Case(
        "6.D.26",
        {
            "G": ["A BER S A PRU - SIL", "F KIE S A BER"],
            "R": ["F BAL S A PRU - BER", "A PRU - BER"],
        },
    ),
    Case(
        "6.D.27",
        {
            "E": ["F SWE - BAL", "F DEN S F SWE - BAL"],
            "G": ["A BER H"],
            "R": ["F BAL C A BER - LVN", "F PRU S F BAL"],
        },
    ),
    Case(
        "6.D.28",
        {
            "A": ["A BUD S F RUM"],
            "R": ["F RUM - HOL"],
            "T": ["F BLA - RUM", "A BUL S F BLA - RUM"],
        },
        rejected=("F RUM - HOL",),
    ),
    Case(
        "6.D.29",
        {
            "A": ["A BUD S F RUM"],
            "R": ["F RUM - BUL/SC"],
            "T": ["F BLA - RUM", "A BUL S F BLA - RUM"],
        },
        rejected=("F RUM - BUL/SC",),
    ),
    Case(
        "6.D.30",
        {
            "I": ["F AEG S F CON"],
            "R": ["F CON - BUL"],
            "T": ["F BLA - CON", "A BUL S F BLA - CON"],
        },
        rejected=("F CON - BUL",),
    ),
    Case(
        "6.D.31",
        {"A": ["A RUM - ARM"], "T": ["F BLA S A RUM - ARM"]},
        rejected=("F BLA S A RUM - ARM",),
        note="the only convoy route runs through the supporter: support illegal",
    ),
    Case(
        "6.D.32",
        {
            "E": ["F EDI S A LVP - YOR", "A LVP - YOR"],
            "F": ["F LON S A YOR"],
            "G": ["A YOR - HOL"],
        },
        rejected=("A YOR - HOL",),
    ),
    Case(
        "6.D.33",
        {
            "A": ["A SER - BUD", "A VIE - BUD"],
            "R": ["A GAL S A SER - BUD"],
            "T": ["A BUL - SER"],
        },
        moved=("A SER - BUD", "A BUL - SER"),
    ),
    Case(
        "6.D.34",
        {
            "G": ["A BER - PRU", "A SIL S A BER - PRU", "F BAL S A BER - PRU"],
            "I": ["A PRU S A LVN - PRU"],
            "R": ["A WAR S A LVN - PRU", "A LVN - PRU"],
        },
        moved=("A BER - PRU",),
        dislodged=("A PRU",),
        rejected=("A PRU S A LVN - PRU",),
    ),
    # -----------------------------------------------------------------------
    # 6.E  Head-to-head battles and beleaguered garrisons
    # -----------------------------------------------------------------------
    Case(
        "6.E.1",
        {"G": ["A BER - PRU", "F KIE - BER", "A SIL S A BER - PRU"], "R": ["A PRU - BER"]},
        moved=("A BER - PRU", "F KIE - BER"),
        dislodged=("A PRU",),
    ),
    Case("6.E.2", {"G": ["A BER - KIE", "F KIE - BER", "A MUN S A BER - KIE"]}),
    Case("6.E.3", {"G": ["A BER - KIE", "A MUN S F KIE - BER"], "E": ["F KIE - BER"]}),
    Case(
        "6.E.4",
        {
            "G": ["F HOL - NTH", "F HEL S F HOL - NTH", "F SKA S F HOL - NTH"],
            "F": ["F NTH - HOL", "F BEL S F NTH - HOL"],
            "E": ["F EDI S F NWG - NTH", "F YOR S F NWG - NTH", "F NWG - NTH"],
            "A": ["A KIE S A RUH - HOL", "A RUH - HOL"],
        },
    ),
    Case(
        "6.E.5",
        {
            "G": ["F HOL - NTH", "F HEL S F HOL - NTH", "F SKA S F HOL - NTH"],
            "F": ["F NTH - HOL", "F BEL S F NTH - HOL"],
            "E": [
                "F EDI S F NWG - NTH",
                "F YOR S F NWG - NTH",
                "F NWG - NTH",
                "F LON S F NWG - NTH",
            ],
            "A": ["A KIE S A RUH - HOL", "A RUH - HOL"],
        },
        moved=("F NWG - NTH",),
        dislodged=("F NTH",),
    ),
    Case(
        "6.E.6",
        {
            "G": ["F HOL - NTH", "F HEL S F HOL - NTH"],
            "F": ["F NTH - HOL", "F BEL S F NTH - HOL", "F ENG S F HOL - NTH"],
            "A": ["A KIE S A RUH - HOL", "A RUH - HOL"],
        },
    ),
    Case(
        "6.E.7",
        {
            "E": ["F NTH H", "F YOR S F NWY - NTH"],
            "G": ["F HOL S F HEL - NTH", "F HEL - NTH"],
            "R": ["F SKA S F NWY - NTH", "F NWY - NTH"],
        },
    ),
    Case(
        "6.E.8",
        {
            "E": ["F NTH - NWY", "F YOR S F NWY - NTH"],
            "G": ["F HOL S F HEL - NTH", "F HEL - NTH"],
            "R": ["F SKA S F NWY - NTH", "F NWY - NTH"],
        },
    ),
    Case(
        "6.E.9",
        {
            "E": ["F NTH - NWG", "F YOR S F NWY - NTH"],
            "G": ["F HOL S F HEL - NTH", "F HEL - NTH"],
            "R": ["F SKA S F NWY - NTH", "F NWY - NTH"],
        },
        moved=("F NTH - NWG", "F NWY - NTH"),
    ),
    Case(
        "6.E.10",
        {
            "E": ["F NTH - DEN", "F YOR S F NWY - NTH"],
            "G": ["F HOL S F HEL - NTH", "F HEL - NTH", "F DEN - HEL"],
            "R": ["F SKA S F NWY - NTH", "F NWY - NTH"],
        },
    ),
    Case(
        "6.E.11",
        {
            "F": ["A SPA - POR VIA", "F MAO C A SPA - POR", "F LYO S F POR - SPA/NC"],
            "G": ["A MAR S A GAS - SPA", "A GAS - SPA"],
            "I": ["F POR - SPA/NC", "F WES S F POR - SPA/NC"],
        },
        moved=("A SPA - POR", "F POR - SPA/NC"),
    ),
    Case(
        "6.E.12",
        {
            "A": ["A BUD - RUM", "A SER S A VIE - BUD"],
            "I": ["A VIE - BUD"],
            "R": ["A GAL - BUD", "A RUM S A GAL - BUD"],
        },
    ),
    Case(
        "6.E.13",
        {
            "E": ["F EDI S F YOR - NTH", "F YOR - NTH"],
            "F": ["F BEL - NTH", "F ENG S F BEL - NTH"],
            "G": ["F NTH H"],
            "R": ["F NWG - NTH", "F NWY S F NWG - NTH"],
        },
    ),
    Case("6.E.14", {"E": ["A LVP - EDI"], "R": ["F EDI - LVP"]}, rejected=("F EDI - LVP",)),
    Case(
        "6.E.15",
        {
            "E": ["F HOL S A RUH - KIE", "A RUH - KIE"],
            "F": ["A KIE - BER", "A MUN S A KIE - BER", "A SIL S A KIE - BER"],
            "G": ["A BER - KIE", "F DEN S A BER - KIE", "F HEL S A BER - KIE"],
            "R": ["F BAL S A PRU - BER", "A PRU - BER"],
        },
    ),
    # -----------------------------------------------------------------------
    # 6.F  Convoys
    # -----------------------------------------------------------------------
    Case(
        "6.F.1",
        {
            "T": [
                "A GRE - SEV",
                "F AEG C A GRE - SEV",
                "F CON C A GRE - SEV",
                "F BLA C A GRE - SEV",
            ]
        },
        rejected=(
            "A GRE - SEV",
            "F AEG C A GRE - SEV",
            "F CON C A GRE - SEV",
            "F BLA C A GRE - SEV",
        ),
        note="no sea route exists once the coastal fleet cannot convoy: all illegal",
    ),
    Case("6.F.2", {"E": ["F ENG C A LON - BRE", "A LON - BRE"], "F": ["A PAR - BRE"]}),
    Case(
        "6.F.3",
        {
            "E": ["F ENG C A LON - BRE", "A LON - BRE", "F MAO S A LON - BRE"],
            "F": ["A PAR - BRE"],
        },
        moved=("A LON - BRE",),
    ),
    Case(
        "6.F.4",
        {"E": ["F NTH C A LON - HOL", "A LON - HOL"], "G": ["F SKA - NTH"]},
        moved=("A LON - HOL",),
    ),
    Case(
        "6.F.5",
        {
            "E": ["F NTH C A LON - HOL", "A LON - HOL"],
            "F": ["F ENG - NTH", "F BEL S F ENG - NTH"],
            "G": ["F SKA - NTH", "F DEN S F SKA - NTH"],
        },
        moved=("A LON - HOL",),
    ),
    Case(
        "6.F.6",
        {
            "E": ["F NTH C A LON - HOL", "A LON - HOL"],
            "G": ["A HOL S A BEL", "A BEL S A HOL", "F HEL S F SKA - NTH", "F SKA - NTH"],
            "F": ["A PIC - BEL", "A BUR S A PIC - BEL"],
        },
        moved=("F SKA - NTH",),
        dislodged=("F NTH",),
    ),
    Case(
        "6.F.7",
        {"E": ["F NTH C A LON - HOL", "A LON - HOL"], "G": ["F HEL S F SKA - NTH", "F SKA - NTH"]},
        moved=("F SKA - NTH",),
        dislodged=("F NTH",),
        retreat_options={"F NTH": ("BEL", "DEN", "EDI", "ENG", "HOL", "NWG", "NWY", "YOR")},
    ),
    Case(
        "6.F.8",
        {
            "E": ["F NTH C A LON - HOL", "A LON - HOL"],
            "G": ["F HEL S F SKA - NTH", "F SKA - NTH", "A BEL - HOL"],
        },
        moved=("F SKA - NTH", "A BEL - HOL"),
        dislodged=("F NTH",),
    ),
    Case(
        "6.F.9",
        {
            "E": ["F ENG C A LON - BEL", "F NTH C A LON - BEL", "A LON - BEL"],
            "F": ["F BRE S F MAO - ENG", "F MAO - ENG"],
        },
        moved=("F MAO - ENG", "A LON - BEL"),
        dislodged=("F ENG",),
    ),
    Case(
        "6.F.10",
        {
            "E": ["F NTH C A LON - BEL", "A LON - BEL"],
            "G": ["F ENG C A LON - BEL"],
            "F": ["F BRE S F MAO - ENG", "F MAO - ENG"],
        },
        moved=("F MAO - ENG", "A LON - BEL"),
        dislodged=("F ENG",),
    ),
    Case(
        "6.F.11",
        {
            "E": ["A LON - BEL"],
            "G": ["F ENG C A LON - BEL"],
            "R": ["F NTH C A LON - BEL"],
            "F": ["F BRE S F MAO - ENG", "F MAO - ENG"],
        },
        moved=("F MAO - ENG", "A LON - BEL"),
        dislodged=("F ENG",),
    ),
    Case(
        "6.F.12",
        {
            "E": ["F ENG C A LON - BEL", "A LON - BEL", "F IRI C A LON - BEL"],
            "F": ["F NAO S F MAO - IRI", "F MAO - IRI"],
        },
        moved=("F MAO - IRI", "A LON - BEL"),
        dislodged=("F IRI",),
        rejected=("F IRI C A LON - BEL",),
        note="Irish Sea is on no minimal route, so its convoy order is illegal (4.E.1)",
    ),
    Case(
        "6.F.13",
        {
            "E": ["A LON - BEL", "F NTH C A LON - BEL"],
            "F": ["F ENG C A LON - BEL"],
            "G": ["F HOL S F DEN - NTH", "F DEN - NTH"],
        },
        moved=("A LON - BEL", "F DEN - NTH"),
        dislodged=("F NTH",),
    ),
    Case(
        "6.F.14",
        {
            "E": ["F LON S F WAL - ENG", "F WAL - ENG"],
            "F": ["A BRE - LON", "F ENG C A BRE - LON"],
        },
        moved=("F WAL - ENG",),
        dislodged=("F ENG",),
    ),
    Case(
        "6.F.15",
        {
            "E": ["F LON S F WAL - ENG", "F WAL - ENG"],
            "F": ["A BRE - LON", "F ENG C A BRE - LON"],
            "I": ["F IRI C A NAF - WAL", "F MAO C A NAF - WAL", "A NAF - WAL"],
        },
        moved=("F WAL - ENG", "A NAF - WAL"),
        dislodged=("F ENG",),
    ),
    Case(
        "6.F.16",
        {
            "E": ["F LON S F WAL - ENG", "F WAL - ENG"],
            "F": ["A BRE - LON", "F ENG C A BRE - LON"],
            "G": ["F NTH S F BEL - ENG", "F BEL - ENG"],
        },
    ),
    Case(
        "6.F.17",
        {
            "E": ["F LON S F WAL - ENG", "F WAL - ENG"],
            "F": ["A BRE - LON", "F ENG C A BRE - LON", "F YOR S A BRE - LON"],
            "G": ["F NTH S F BEL - ENG", "F BEL - ENG"],
        },
        note="Szykman rule: the convoy fails, nothing is dislodged",
    ),
    Case(
        "6.F.18",
        {
            "E": ["F NTH C A LON - BEL", "A LON - BEL", "F ENG S A LON - BEL"],
            "F": ["F BEL S F NTH"],
            "G": ["F HEL S F SKA - NTH", "F SKA - NTH"],
        },
        note="Szykman rule",
    ),
    Case(
        "6.F.19",
        {
            "F": ["A TUN - NAP", "F TYS C A TUN - NAP", "F ION C A TUN - NAP"],
            "I": ["F NAP S F ROM - TYS", "F ROM - TYS"],
        },
    ),
    Case(
        "6.F.20",
        {
            "F": ["A TUN - NAP", "F TYS C A TUN - NAP"],
            "I": ["F NAP S F ION", "F ION C A TUN - NAP"],
            "T": ["F AEG S F EAS - ION", "F EAS - ION"],
        },
        moved=("F EAS - ION",),
        dislodged=("F ION",),
    ),
    Case(
        "6.F.21",
        {
            "R": ["A EDI S A NWY - CLY", "F NWG C A NWY - CLY", "A NWY - CLY"],
            "F": ["F IRI S F MAO - NAO", "F MAO - NAO"],
            "E": ["A LVP - CLY VIA", "F NAO C A LVP - CLY", "F CLY S F NAO"],
        },
        moved=("F MAO - NAO", "A NWY - CLY"),
        dislodged=("F NAO", "F CLY"),
    ),
    Case(
        "6.F.22",
        {
            "E": ["F EDI - NTH", "F LON S F EDI - NTH"],
            "F": ["A BRE - LON", "F ENG C A BRE - LON"],
            "G": ["F BEL S F PIC - ENG", "F PIC - ENG"],
            "R": ["A NWY - BEL", "F NTH C A NWY - BEL"],
        },
        moved=("F EDI - NTH", "F PIC - ENG"),
        dislodged=("F ENG", "F NTH"),
        note="second-order paradox, Szykman rule",
    ),
    Case(
        "6.F.23",
        {
            "E": ["F EDI - NTH", "F YOR S F EDI - NTH"],
            "F": ["A BRE - LON", "F ENG C A BRE - LON"],
            "G": ["F BEL S F ENG", "F LON S F NTH"],
            "I": ["F MAO - ENG", "F IRI S F MAO - ENG"],
            "R": ["A NWY - BEL", "F NTH C A NWY - BEL"],
        },
        note="second-order paradox, Szykman rule",
    ),
    Case(
        "6.F.24",
        {
            "E": ["F EDI - NTH", "F LON S F EDI - NTH", "F IRI - ENG", "F MAO S F IRI - ENG"],
            "F": ["A BRE - LON", "F ENG C A BRE - LON", "F BEL S F ENG"],
            "R": ["A NWY - BEL", "F NTH C A NWY - BEL"],
        },
        moved=("F EDI - NTH",),
        dislodged=("F NTH",),
        note="second-order paradox, Szykman rule",
    ),
    Case(
        "6.F.25",
        {
            "G": [
                "A RUH - BEL",
                "A HOL S A RUH - BEL",
                "A DEN - NWY",
                "F SKA C A DEN - NWY",
                "A FIN S A DEN - NWY",
            ],
            "E": ["A YOR - HOL", "F NTH C A YOR - HOL", "F HEL S A YOR - HOL", "A BEL H"],
            "R": ["F NWG - NTH", "F NWY S F NWG - NTH", "F SWE - SKA"],
        },
        moved=("A DEN - NWY", "A YOR - HOL"),
        dislodged=("F NWY", "A HOL"),
    ),
    # -----------------------------------------------------------------------
    # 6.G  Convoying to adjacent provinces
    # -----------------------------------------------------------------------
    Case(
        "6.G.1",
        {"E": ["A NWY - SWE", "F SKA C A NWY - SWE"], "R": ["A SWE - NWY"]},
        moved=("A NWY - SWE", "A SWE - NWY"),
    ),
    Case("6.G.2", {"E": ["A NWY - SWE"], "R": ["F SWE - NWY"], "G": ["F SKA C A NWY - SWE"]}),
    Case(
        "6.G.3",
        {
            "F": ["F BRE - ENG", "A PIC - BEL", "A BUR S A PIC - BEL", "F MAO S F BRE - ENG"],
            "E": ["F ENG C A PIC - BEL"],
        },
        moved=("F BRE - ENG", "A PIC - BEL"),
        dislodged=("F ENG",),
    ),
    Case(
        "6.G.4",
        {
            "F": ["F BRE - ENG", "A PIC - BEL", "A BUR S A PIC - BEL", "F MAO S F BRE - ENG"],
            "E": ["F ENG C A PIC - BEL", "A BEL - PIC"],
        },
        moved=("F BRE - ENG", "A PIC - BEL"),
        dislodged=("F ENG", "A BEL"),
    ),
    Case(
        "6.G.5",
        {
            "I": ["A ROM - APU", "F TYS C A APU - ROM"],
            "T": ["A APU - ROM", "F ION C A APU - ROM"],
        },
        moved=("A ROM - APU", "A APU - ROM"),
    ),
    Case(
        "6.G.6",
        {
            "E": ["A LVP - EDI", "F ENG C A LVP - EDI"],
            "G": ["A EDI - LVP"],
            "F": ["F IRI H", "F NTH H"],
            "R": ["F NWG C A LVP - EDI", "F NAO C A LVP - EDI"],
        },
        moved=("A LVP - EDI", "A EDI - LVP"),
    ),
    Case(
        "6.G.7",
        {
            "E": ["F SKA C A SWE - NWY", "F NWY - SWE"],
            "R": ["A SWE - NWY", "F BOT C A SWE - NWY"],
        },
        rejected=("F BOT C A SWE - NWY",),
    ),
    Case(
        "6.G.8",
        {"F": ["A BEL - HOL VIA"], "E": ["F NTH - HEL", "A HOL - KIE"]},
        moved=("F NTH - HEL", "A HOL - KIE"),
        note="explicit convoy without a convoy fails; no land fallback (DATC v3)",
    ),
    Case(
        "6.G.9",
        {
            "E": ["A NWY - SWE", "F SKA C A NWY - SWE", "F FIN S A NWY - SWE"],
            "R": ["A SWE - NWY"],
        },
        moved=("A NWY - SWE", "A SWE - NWY"),
    ),
    Case(
        "6.G.10",
        {
            "E": ["A NWY - SWE VIA", "F DEN S A NWY - SWE", "F FIN S A NWY - SWE"],
            "G": ["F SKA C A NWY - SWE"],
            "R": ["A SWE - NWY", "F BAR S A SWE - NWY"],
            "F": ["F NWG - NWY", "F NTH S F NWG - NWY"],
        },
        moved=("A NWY - SWE",),
        dislodged=("A SWE",),
        note="4.A.7 choice b: the dislodged army still bounces the fleet",
    ),
    Case(
        "6.G.11",
        {
            "E": ["F NWY S F NTH - SKA", "F NTH - SKA"],
            "R": ["A SWE - NWY", "F SKA C A SWE - NWY", "F BAR S A SWE - NWY"],
        },
        moved=("F NTH - SKA",),
        dislodged=("F SKA",),
    ),
    Case(
        "6.G.12",
        {
            "E": ["A LVP - EDI VIA", "F NAO C A LVP - EDI", "F NWG C A LVP - EDI"],
            "G": [
                "A EDI - LVP VIA",
                "F NTH C A EDI - LVP",
                "F ENG C A EDI - LVP",
                "F IRI C A EDI - LVP",
            ],
        },
        moved=("A LVP - EDI", "A EDI - LVP"),
    ),
    Case(
        "6.G.13",
        {
            "A": ["F ADR C A TRI - VEN", "A TRI - VEN VIA"],
            "I": ["A VEN S F ALB - TRI", "F ALB - TRI"],
        },
        moved=("F ALB - TRI",),
        dislodged=("A TRI",),
    ),
    Case(
        "6.G.14",
        {
            "E": ["A NWY - SWE", "F DEN S A NWY - SWE", "F FIN S A NWY - SWE"],
            "F": ["F NWG - NWY", "F NTH S F NWG - NWY"],
            "G": ["F SKA C A SWE - NWY"],
            "R": ["A SWE - NWY VIA", "F BAR S A SWE - NWY"],
        },
        moved=("A NWY - SWE",),
        dislodged=("A SWE",),
    ),
    Case(
        "6.G.15",
        {
            "E": [
                "F NTH C A LON - BEL",
                "A HOL S A LON - BEL",
                "A YOR - LON",
                "A LON - BEL VIA",
            ],
            "F": ["F ENG C A BEL - LON", "A BEL - LON VIA"],
        },
        moved=("A LON - BEL",),
        dislodged=("A BEL",),
    ),
    Case(
        "6.G.16",
        {
            "E": ["A NWY - SWE", "A DEN S A NWY - SWE", "F BAL S A NWY - SWE", "F NTH - NWY"],
            "R": ["A SWE - NWY VIA", "F SKA C A SWE - NWY", "F NWG S A SWE - NWY"],
        },
        moved=("A NWY - SWE", "A SWE - NWY"),
    ),
    Case(
        "6.G.17",
        {
            "E": [
                "A NWY - SWE VIA",
                "A DEN S A NWY - SWE",
                "F BAL S A NWY - SWE",
                "F SKA C A NWY - SWE",
                "F NTH - NWY",
            ],
            "R": ["A SWE - NWY", "F NWG S A SWE - NWY"],
        },
        moved=("A NWY - SWE", "A SWE - NWY"),
    ),
    Case(
        "6.G.18",
        {
            "E": [
                "F NTH C A LON - BEL",
                "A HOL S A LON - BEL",
                "A YOR - LON",
                "A LON - BEL",
                "A RUH S A LON - BEL",
            ],
            "F": ["F ENG C A BEL - LON", "A BEL - LON", "A WAL S A BEL - LON"],
        },
        moved=("A LON - BEL", "A BEL - LON"),
    ),
    Case(
        "6.G.19",
        {"F": ["A MAR - SPA", "F WES C A MAR - SPA"], "I": ["F LYO C A MAR - SPA", "A SPA - MAR"]},
        rejected=("F WES C A MAR - SPA",),
    ),
    Case(
        "6.G.20",
        {
            "F": ["F BRE - ENG", "A PIC - BEL VIA", "A BUR S A PIC - BEL", "F MAO S F BRE - ENG"],
            "E": ["F ENG C A PIC - BEL"],
        },
        moved=("F BRE - ENG",),
        dislodged=("F ENG",),
    ),
    # -----------------------------------------------------------------------
    # 6.H  Retreating
    # -----------------------------------------------------------------------
    Case(
        "6.H.1",
        {
            "A": ["F TRI H", "A SER H"],
            "T": ["F GRE H"],
            "I": ["A VEN S A TYR - TRI", "A TYR - TRI", "F ION - GRE", "F AEG S F ION - GRE"],
        },
        moved=("A TYR - TRI", "F ION - GRE"),
        dislodged=("F TRI", "F GRE"),
        retreat_orders={"A": ["F TRI R ALB", "A SER S F TRI - ALB"], "T": ["F GRE R ALB"]},
        retreat_rejected=("A SER S F TRI - ALB",),
    ),
    Case(
        "6.H.2",
        {
            "E": ["A LVP - EDI", "F YOR S A LVP - EDI", "F NWY H"],
            "G": ["A KIE S A RUH - HOL", "A RUH - HOL"],
            "R": ["F EDI H", "A SWE S A FIN - NWY", "A FIN - NWY", "F HOL H"],
        },
        moved=("A LVP - EDI", "A RUH - HOL", "A FIN - NWY"),
        dislodged=("F NWY", "F EDI", "F HOL"),
        retreat_orders={"E": ["F NWY R NTH"], "R": ["F EDI R NTH", "F HOL S F EDI - NTH"]},
        retreat_rejected=("F HOL S F EDI - NTH",),
    ),
    Case(
        "6.H.3",
        {"E": ["F NTH H", "A HOL H"], "G": ["F KIE S A RUH - HOL", "A RUH - HOL"]},
        moved=("A RUH - HOL",),
        dislodged=("A HOL",),
        retreat_orders={"E": ["A HOL R YOR", "F NTH C A HOL - YOR"]},
        retreat_rejected=("A HOL R YOR", "F NTH C A HOL - YOR"),
    ),
    Case(
        "6.H.4",
        {"E": ["F NTH H", "A HOL H"], "G": ["F KIE S A RUH - HOL", "A RUH - HOL"]},
        moved=("A RUH - HOL",),
        dislodged=("A HOL",),
        retreat_orders={"E": ["A HOL R BEL", "F NTH - NWG"]},
        retreat_rejected=("F NTH - NWG",),
        retreated=("A HOL - BEL",),
    ),
    Case(
        "6.H.5",
        {"R": ["F CON S F BLA - ANK", "F BLA - ANK"], "T": ["F ANK H"]},
        moved=("F BLA - ANK",),
        dislodged=("F ANK",),
        retreat_options={"F ANK": ("ARM",)},
    ),
    Case(
        "6.H.6",
        {
            "A": ["A BUD S A TRI - VIE", "A TRI - VIE"],
            "G": ["A MUN - BOH", "A SIL - BOH"],
            "I": ["A VIE H"],
        },
        moved=("A TRI - VIE",),
        dislodged=("A VIE",),
        retreat_options={"A VIE": ("GAL", "TYR")},
    ),
    Case(
        "6.H.7",
        {
            "A": ["A BUD S A TRI - VIE", "A TRI - VIE"],
            "G": ["A MUN S A SIL - BOH", "A SIL - BOH"],
            "I": ["A VIE H", "A BOH H"],
        },
        moved=("A TRI - VIE", "A SIL - BOH"),
        dislodged=("A VIE", "A BOH"),
        retreat_orders={"I": ["A BOH R TYR", "A VIE R TYR"]},
    ),
    Case(
        "6.H.8",
        {
            "E": ["A LVP - EDI", "F YOR S A LVP - EDI", "F NWY H"],
            "G": ["A KIE S A RUH - HOL", "A RUH - HOL"],
            "R": ["F EDI H", "A SWE S A FIN - NWY", "A FIN - NWY", "F HOL H"],
        },
        moved=("A LVP - EDI", "A RUH - HOL", "A FIN - NWY"),
        dislodged=("F NWY", "F EDI", "F HOL"),
        retreat_orders={"E": ["F NWY R NTH"], "R": ["F EDI R NTH", "F HOL R NTH"]},
    ),
    Case(
        "6.H.9",
        {
            "E": ["F HEL - KIE", "F DEN S F HEL - KIE"],
            "G": ["A BER - PRU", "F KIE H", "A SIL S A BER - PRU"],
            "R": ["A PRU - BER"],
        },
        moved=("F HEL - KIE", "A BER - PRU"),
        dislodged=("F KIE", "A PRU"),
        retreat_options={"F KIE": ("BAL", "BER", "HOL")},
    ),
    Case(
        "6.H.10",
        {
            "E": ["A KIE H"],
            "G": ["A BER - KIE", "A MUN S A BER - KIE", "A PRU H"],
            "R": ["A WAR - PRU", "A SIL S A WAR - PRU"],
        },
        moved=("A BER - KIE", "A WAR - PRU"),
        dislodged=("A KIE", "A PRU"),
        retreat_orders={"E": ["A KIE R BER"], "G": ["A PRU R BER"]},
        retreat_rejected=("A KIE R BER",),
        retreated=("A PRU - BER",),
    ),
    Case(
        "6.H.11",
        {
            "F": [
                "A GAS - MAR VIA",
                "A BUR S A GAS - MAR",
                "F MAO C A GAS - MAR",
                "F WES C A GAS - MAR",
                "F LYO C A GAS - MAR",
            ],
            "I": ["A MAR H"],
        },
        moved=("A GAS - MAR",),
        dislodged=("A MAR",),
        retreat_options={"A MAR": ("GAS", "PIE", "SPA")},
        note="4.A.5 choice b (2023 rules): may retreat to the convoyed attacker's origin",
    ),
    Case(
        "6.H.12",
        {
            "E": [
                "A LVP - EDI VIA",
                "F IRI C A LVP - EDI",
                "F ENG C A LVP - EDI",
                "F NTH C A LVP - EDI",
            ],
            "F": ["F BRE - ENG", "F MAO S F BRE - ENG"],
            "R": [
                "A EDI - LVP VIA",
                "F NWG C A EDI - LVP",
                "F NAO C A EDI - LVP",
                "A CLY S A EDI - LVP",
            ],
        },
        moved=("F BRE - ENG", "A EDI - LVP"),
        dislodged=("F ENG", "A LVP"),
        retreat_options={"A LVP": ("EDI", "WAL", "YOR")},
    ),
    Case(
        "6.H.13",
        {"E": ["A PIC H", "F ENG C A PIC - LON"], "F": ["A PAR - PIC", "A BRE S A PAR - PIC"]},
        moved=("A PAR - PIC",),
        dislodged=("A PIC",),
        retreat_options={"A PIC": ("BEL", "BUR")},
    ),
    Case(
        "6.H.14",
        {
            "E": ["A PIC H", "F ENG S A PIC - BEL"],
            "F": ["A PAR - PIC", "A BRE S A PAR - PIC", "A BUR H"],
            "G": ["A MUN S A MAR - BUR", "A MAR - BUR"],
        },
        moved=("A PAR - PIC", "A MAR - BUR"),
        dislodged=("A PIC", "A BUR"),
        retreat_orders={"E": ["A PIC R BEL"], "F": ["A BUR R BEL"]},
    ),
    Case(
        "6.H.15",
        {"E": ["F POR H"], "F": ["F SPA/SC - POR", "F MAO S F SPA/SC - POR"]},
        moved=("F SPA/SC - POR",),
        dislodged=("F POR",),
        retreat_options={"F POR": ()},
    ),
    Case(
        "6.H.16",
        {
            "F": ["F MAO - SPA/NC", "F GAS - SPA/NC", "F WES H"],
            "I": ["F TUN S F TYS - WES", "F TYS - WES"],
        },
        moved=("F TYS - WES",),
        dislodged=("F WES",),
        retreat_options={"F WES": ("LYO", "NAF")},
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_datc_movement(case: Case) -> None:
    board = _board_for(case)
    result = process_phase(board, _orders(case.orders), Rules())
    _check_movement(case, result, board)
    if case.retreat_orders is None:
        return
    rboard = result.board
    assert rboard.phase.type is PhaseType.RETREATS
    after = process_phase(rboard, _orders(case.retreat_orders), Rules())
    rejected = sorted(str(parse_order(r.text)) for r in after.rejected)
    assert rejected == sorted(str(parse_order(t)) for t in case.retreat_rejected)
    expected = {str(u) for u in rboard.units}
    for r in case.retreated:
        order = parse_order(r)
        assert isinstance(order, Move)
        expected.add(f"{order.unit_type} {order.dest}")
    assert {str(u) for u in after.board.units} == expected
    assert not after.board.dislodged


# ---------------------------------------------------------------------------
# 6.I (and 6.B.14) Building, 6.J Civil disorder and disbands
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class AdjustCase:
    id: str
    units: dict[str, list[str]]
    centres: dict[str, list[str]]
    orders: dict[str, list[str]]
    after: dict[str, list[str]]  # the power's units afterwards
    rejected: tuple[str, ...] = ()
    rules: Rules = DEFAULT_RULES
    note: str = ""


RULES_2023 = Rules(civil_disorder=CivilDisorderRule.OWNED_CENTRES_2023)
RUSSIA_HOMES = ["MOS", "SEV", "STP", "WAR"]

ADJUST_CASES: list[AdjustCase] = [
    AdjustCase(
        "6.B.14",
        {"R": ["A WAR", "A MOS", "F SEV"]},
        {"R": RUSSIA_HOMES},
        {"R": ["F STP B"]},
        {"R": ["A WAR", "A MOS", "F SEV"]},
        rejected=("F STP B",),
    ),
    AdjustCase(
        "6.I.1",
        {"G": ["A DEN", "A HOL", "A BEL"]},
        {"G": ["BER", "KIE", "MUN", "DEN"]},
        {"G": ["A WAR B", "A KIE B", "A MUN B"]},
        {"G": ["A DEN", "A HOL", "A BEL", "A KIE"]},
        rejected=("A WAR B",),
    ),
    AdjustCase(
        "6.I.2",
        {"R": ["A WAR", "F SEV", "F STP/NC"]},
        {"R": RUSSIA_HOMES},
        {"R": ["F MOS B"]},
        {"R": ["A WAR", "F SEV", "F STP/NC"]},
        rejected=("F MOS B",),
    ),
    AdjustCase(
        "6.I.3",
        {"G": ["A BER", "A HOL"]},
        {"G": ["BER", "HOL", "DEN"]},
        {"G": ["A BER B"]},
        {"G": ["A BER", "A HOL"]},
        rejected=("A BER B",),
    ),
    AdjustCase(
        "6.I.4",
        {"R": ["F STP/SC", "A WAR"]},
        {"R": ["STP", "WAR", "RUM"]},
        {"R": ["A STP/NC B"]},
        {"R": ["F STP/SC", "A WAR"]},
        rejected=("A STP/NC B",),
    ),
    AdjustCase(
        "6.I.5",
        {"G": ["A HOL"], "R": ["A PRU"]},
        {"G": ["KIE", "HOL", "DEN"], "R": ["BER"]},
        {"G": ["A BER B"]},
        {"G": ["A HOL"]},
        rejected=("A BER B",),
    ),
    AdjustCase(
        "6.I.6",
        {"G": ["A BER"]},
        {"G": ["BER", "WAR"]},
        {"G": ["A WAR B"]},
        {"G": ["A BER"]},
        rejected=("A WAR B",),
    ),
    AdjustCase(
        "6.I.7",
        {"R": ["A WAR", "F SEV"]},
        {"R": RUSSIA_HOMES},
        {"R": ["A MOS B", "A MOS B"]},
        {"R": ["A WAR", "F SEV", "A MOS"]},
    ),
    AdjustCase(
        "6.J.1",
        {"F": ["A PAR", "A PIC"]},
        {"F": ["PAR"]},
        {"F": ["F LYO D", "A PIC D", "A PAR D"]},
        {"F": ["A PAR"]},
        rejected=("F LYO D",),
    ),
    AdjustCase(
        "6.J.2",
        {"F": ["A PAR", "A PIC", "A BUR"]},
        {"F": ["PAR"]},
        {"F": ["A PAR D", "A PAR D"]},
        {"F": ["A PIC"]},
        rules=RULES_2023,
        note="Paris removed as ordered, Burgundy by civil disorder (equal distance, alphabetical)",
    ),
    AdjustCase(
        "6.J.3",
        {"R": ["A LVN", "A PRU"]},
        {"R": ["STP"]},
        {},
        {"R": ["A LVN"]},
        rules=RULES_2023,
    ),
    AdjustCase(
        "6.J.4",
        {"R": ["A LVN", "A UKR"]},
        {"R": ["MOS"]},
        {},
        {"R": ["A UKR"]},
        rules=RULES_2023,
    ),
    AdjustCase(
        "6.J.5",
        {"R": ["F SKA", "F NAO"]},
        {"R": ["STP"]},
        {},
        {"R": ["F SKA"]},
        rules=RULES_2023,
    ),
    AdjustCase(
        "6.J.6",
        {"R": ["F BOT", "F NTH"]},
        {"R": ["MUN"]},
        {},
        {"R": ["F NTH"]},
        rules=RULES_2023,
    ),
    AdjustCase(
        "6.J.7",
        {"R": ["A BOH", "F SKA", "F NTH"]},
        {"R": ["STP", "WAR"]},
        {},
        {"R": ["A BOH", "F SKA"]},
        rules=RULES_2023,
    ),
    AdjustCase(
        "6.J.8",
        {"R": ["A TYR", "F BAL"]},
        {"R": ["WAR"]},
        {},
        {"R": ["F BAL"]},
        rules=RULES_2023,
    ),
    AdjustCase(
        "6.J.9a",
        {"R": ["A ALB", "A SEV", "F BAL"]},
        {"R": ["STP", "SEV"]},
        {},
        {"R": ["A SEV", "F BAL"]},
        rules=RULES_2023,
    ),
    AdjustCase(
        "6.J.9b",
        {"R": ["A ALB", "A SEV", "F SKA"]},
        {"R": ["STP", "SEV"]},
        {},
        {"R": ["A SEV", "F SKA"]},
        rules=RULES_2023,
    ),
    AdjustCase(
        "6.J.10",
        {"I": ["A ALB", "A PIE"]},
        {"I": ["NAP"]},
        {},
        {"I": ["A ALB"]},
        rules=RULES_2023,
    ),
    AdjustCase(
        "6.J.11",
        {"I": ["A WAR", "A TUS"]},
        {"I": ["WAR"]},
        {},
        {"I": ["A WAR"]},
        rules=RULES_2023,
    ),
]


@pytest.mark.parametrize("case", ADJUST_CASES, ids=[c.id for c in ADJUST_CASES])
def test_datc_adjustments(case: AdjustCase) -> None:
    board = make_board(
        GM,
        "W1901A",
        {P[p]: us for p, us in case.units.items()},
        {P[p]: cs for p, cs in case.centres.items()},
    )
    result = process_phase(board, _orders(case.orders), case.rules)
    rejected = sorted(str(parse_order(r.text)) for r in result.rejected)
    assert rejected == sorted(str(parse_order(t)) for t in case.rejected)
    for p, expected in case.after.items():
        got = sorted(str(u) for u in result.board.units if u.power == P[p])
        assert got == sorted(expected)


# --- our default civil-disorder rule (pre-2023 rulebooks), for contrast ---------


@pytest.mark.parametrize(
    ("units", "centres", "kept"),
    [
        # 6.J.6 under the home-centre rule: the Gulf of Bothnia is one move from
        # St Petersburg, the North Sea two, so the North Sea fleet goes.
        (["F BOT", "F NTH"], ["MUN"], ["F BOT"]),
        # 6.J.11 under the home-centre rule: Warsaw is a Russian home centre
        # (0 from itself) ... for Italy Tuscany is closer to home than Warsaw.
        (["A WAR", "A TUS"], ["WAR"], ["A TUS"]),
        # equal distance: fleets before armies
        (["A BOH", "F BAL"], ["WAR"], ["A BOH"]),
    ],
)
def test_home_centre_civil_disorder(units: list[str], centres: list[str], kept: list[str]) -> None:
    power = "ITALY" if "A TUS" in units else "RUSSIA"
    board = make_board(GM, "W1901A", {power: units}, {power: centres})
    result = process_phase(board, {}, Rules())
    assert sorted(str(u) for u in result.board.units) == sorted(kept)

"""Differential tests against the reference `diplomacy` package (test-time only).

``test_random_games_agree`` plays a few hundred random legal phases in both
engines and requires every disagreement to be one of the documented
differences (see ``docs/diplomacy-rules.md``), each confirmed by replaying the
phase without the orders that trigger it. The tests below it pin down each
documented difference on a small position: what we do, and what the reference
does instead.

The long run is ``uv run python benchmarks/diplomacy_differential.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from parlour.games.diplomacy.adjudicator import DEFAULT_RULES, Rules, process_phase
from parlour.games.diplomacy.board import Board, make_board
from parlour.games.diplomacy.map import load_map

pytest.importorskip("diplomacy")

from .diff_harness import (
    CD_TIE_BREAK,
    CONVOY_DISRUPTION_BUG,
    DISRUPTED_FALLBACK,
    H2H_DEFENCE_BUG,
    RETREAT_BUG,
    VIA_SUPPORT_BUG,
    reference_game,
    run,
)

GM = load_map("standard")
KNOWN = {
    RETREAT_BUG,
    VIA_SUPPORT_BUG,
    CONVOY_DISRUPTION_BUG,
    H2H_DEFENCE_BUG,
    DISRUPTED_FALLBACK,
    CD_TIE_BREAK,
}


def test_random_games_agree() -> None:
    stats = run(range(6), max_phases=120, min_phases=400)
    assert stats.phases >= 400
    unexplained = stats.unexplained
    assert not unexplained, "\n\n".join(d.report() for d in unexplained)
    for d in stats.explained:
        assert any(d.kind.startswith(k) or k in d.kind for k in KNOWN), d.kind


def _both(
    board: Board, orders: dict[str, list[str]], rules: Rules = DEFAULT_RULES
) -> tuple[Any, Any]:
    ours = process_phase(board, orders, rules)
    game = reference_game(board)
    for power, os in orders.items():
        game.set_orders(power, os)
    game.process()
    return ours, game


def test_via_move_cannot_use_support_from_the_defender() -> None:
    """A power's support never helps dislodge its own unit, also for a VIA move.

    The reference forgets this when the move is written with VIA.
    """
    board = make_board(
        GM,
        "S1901M",
        {"FRANCE": ["A CLY"], "ENGLAND": ["F NAO", "A EDI", "F LVP"]},
    )
    orders = {
        "FRANCE": ["A CLY - LVP VIA"],
        "ENGLAND": ["F NAO C A CLY - LVP", "A EDI S A CLY - LVP", "F LVP H"],
    }
    ours, game = _both(board, orders)
    assert "F LVP" in {str(u) for u in ours.board.units}
    assert not ours.board.dislodged
    assert "*F LVP" in game.get_units("ENGLAND")  # the reference dislodges it


def test_convoy_not_disrupted_by_attack_that_cannot_dislodge() -> None:
    """An attack on a convoying fleet strong enough only with the fleet owner's support fails,

    so the convoy goes through. The reference treats the convoy as disrupted.
    """
    board = make_board(
        GM,
        "S1901M",
        {"ENGLAND": ["A BEL", "F EDI"], "GERMANY": ["F NTH", "F NWG"]},
    )
    orders = {
        "ENGLAND": ["A BEL - DEN", "F EDI - NTH"],
        "GERMANY": ["F NTH C A BEL - DEN", "F NWG S F EDI - NTH"],
    }
    ours, game = _both(board, orders)
    assert "A DEN" in {str(u) for u in ours.board.units}
    assert "A BEL" in game.get_units("ENGLAND")  # the reference: convoy failed


def test_no_retreat_into_standoff_after_convoyed_attack() -> None:
    """DATC 4.A.5 only frees the convoyed attacker's origin, not standoff provinces.

    The reference lifts every restriction when the attacker was convoyed.
    """
    board = make_board(
        GM,
        "S1901M",
        {
            "ENGLAND": ["A LON", "F NTH", "F ENG"],
            "FRANCE": ["A BEL", "A PAR", "A PIC"],
            "GERMANY": ["A MUN", "A KIE"],
        },
    )
    orders = {
        "ENGLAND": ["A LON - BEL", "F NTH C A LON - BEL", "F ENG S A LON - BEL"],
        "FRANCE": ["A BEL H", "A PAR - BUR", "A PIC H"],
        "GERMANY": ["A MUN - BUR", "A KIE - HOL"],
    }
    ours, game = _both(board, orders)
    (dislodged,) = ours.board.dislodged
    assert str(dislodged.unit) == "A BEL"
    assert [str(r) for r in dislodged.retreats] == ["RUH"]  # BUR is a standoff, HOL taken
    ref = game.get_state()["retreats"]["FRANCE"]["A BEL"]
    assert "BUR" in ref


def test_civil_disorder_breaks_ties_by_province_name() -> None:
    """Fleets in the Norwegian Sea and Norway, equally far from home: Norway goes first.

    The rulebook orders by province name; the reference by abbreviation (NWG < NWY).
    """
    board = make_board(
        GM,
        "W1901A",
        {"GERMANY": ["F NWG", "F NWY", "A BER"]},
        {"GERMANY": ["BER", "KIE"]},
    )
    ours, game = _both(board, {})
    assert sorted(str(u) for u in ours.board.units) == ["A BER", "F NWG"]
    assert sorted(game.get_units("GERMANY")) == ["A BER", "F NWY"]


def test_defender_own_support_counts_in_head_to_head_defence() -> None:
    """DATC 5.B.7: a unit's own power's supports for its move count when it defends.

    England F HOL - KIE is supported by German units; German A KIE - HOL has one
    French support. Neither move succeeds (2 vs 3 and 1 vs 2). The reference
    drops the German supports from Holland's defence and lets Kiel win.
    """
    board = make_board(
        GM,
        "S1901M",
        {"ENGLAND": ["F HOL"], "GERMANY": ["A KIE", "F BER", "A DEN"], "FRANCE": ["A BEL"]},
    )
    orders = {
        "ENGLAND": ["F HOL - KIE"],
        "GERMANY": ["A KIE - HOL", "F BER S F HOL - KIE", "A DEN S F HOL - KIE"],
        "FRANCE": ["A BEL S A KIE - HOL"],
    }
    ours, game = _both(board, orders)
    assert not ours.dislodged
    assert {str(u) for u in ours.board.units} == {str(u) for u in board.units}
    assert "*F HOL" in game.get_units("ENGLAND")


@pytest.mark.parametrize("fallback", [False, True])
def test_disrupted_adjacent_convoy_does_not_fall_back(fallback: bool) -> None:
    """An army convoyed to an adjacent province by its own fleet (intent, no VIA)
    fails when the convoy is disrupted: no land fallback (DATC v3 4.A.3, 6.G.20's
    reasoning), under either setting of our static fallback option. The reference
    (DATC v2) then moves it over land.
    """
    board = make_board(
        GM,
        "S1901M",
        {"TURKEY": ["A GRE", "F ION"], "ITALY": ["F ALB"], "ENGLAND": ["F TYS"]},
    )
    orders = {
        "TURKEY": ["A GRE - ALB", "F ION C A GRE - ALB"],
        "ITALY": ["F ALB - ION"],
        "ENGLAND": ["F TYS S F ALB - ION"],
    }
    ours, game = _both(board, orders, Rules(adjacent_convoy_fallback=fallback))
    assert "A GRE" in {str(u) for u in ours.board.units}
    assert "A ALB" in game.get_units("TURKEY")


@pytest.mark.parametrize("fallback", [False, True])
def test_explicit_convoy_without_convoy_option(fallback: bool) -> None:
    """DATC 6.G.8: v3 prefers no land fallback (our default); the reference falls back."""
    board = make_board(GM, "S1901M", {"FRANCE": ["A BEL"], "ENGLAND": ["F NTH", "A HOL"]})
    orders = {"FRANCE": ["A BEL - HOL VIA"], "ENGLAND": ["F NTH - HEL", "A HOL - KIE"]}
    ours, game = _both(board, orders, Rules(adjacent_convoy_fallback=fallback))
    moved = "A HOL" in {str(u) for u in ours.board.units if u.power == "FRANCE"}
    assert moved is fallback
    assert "A HOL" in game.get_units("FRANCE")

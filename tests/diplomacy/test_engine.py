"""Unit tests: phase flow, centres, victory, orders text, validation messages, legal lists."""

from __future__ import annotations

import pytest

from parlour.games.diplomacy.adjudicator import DEFAULT_RULES, OrderStatus, Rules, process_phase
from parlour.games.diplomacy.board import Board, PhaseType, initial_board, make_board
from parlour.games.diplomacy.legal import (
    IllegalOrderError,
    adjustment_count,
    legal_orders,
    orderable_powers,
    validate_order,
)
from parlour.games.diplomacy.map import Location, UnitType, load_map
from parlour.games.diplomacy.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    OrderParseError,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
    parse_order,
)

GM = load_map("standard")


def test_initial_board() -> None:
    board = initial_board()
    assert board.phase_name == "S1901M"
    assert len(board.units) == 22
    assert board.centre_counts() == {
        "AUSTRIA": 3,
        "ENGLAND": 3,
        "FRANCE": 3,
        "GERMANY": 3,
        "ITALY": 3,
        "RUSSIA": 4,
        "TURKEY": 3,
    }
    assert str(board.unit_at("STP")) == "F STP/SC"
    assert Board.from_dict(board.to_dict()) == board


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("A PAR - BUR", Move(UnitType.ARMY, Location("PAR"), Location("BUR"))),
        ("F NTH C A LON - NWY", Convoy(UnitType.FLEET, Location("NTH"), "LON", "NWY")),
        (
            "A MUN S A PAR - BUR",
            SupportMove(UnitType.ARMY, Location("MUN"), UnitType.ARMY, "PAR", Location("BUR")),
        ),
        ("A MUN S A PAR", SupportHold(UnitType.ARMY, Location("MUN"), UnitType.ARMY, "PAR")),
        ("F STP/SC - BOT", Move(UnitType.FLEET, Location("STP", "SC"), Location("BOT"))),
        ("A BUR R PIC", Retreat(UnitType.ARMY, Location("BUR"), Location("PIC"))),
        ("F BRE B", Build(UnitType.FLEET, Location("BRE"))),
        ("A PAR D", Disband(UnitType.ARMY, Location("PAR"))),
        ("WAIVE", Waive()),
        ("A PAR H", Hold(UnitType.ARMY, Location("PAR"))),
        ("A BRE - PIC VIA", Move(UnitType.ARMY, Location("BRE"), Location("PIC"), True)),
    ],
)
def test_canonical_text_round_trips(text: str, order: object) -> None:
    assert parse_order(text) == order
    assert str(order) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("f spa(nc) - mao", "F SPA/NC - MAO"),
        ("A PAR-BUR", "A PAR - BUR"),
        ("A MUN SUPPORT A PAR -> BUR", "A MUN S A PAR - BUR"),
        ("A MUN S A PAR H", "A MUN S A PAR"),
        ("BUILD F STP/NC", "F STP/NC B"),
        ("A BRE - PIC via convoy", "A BRE - PIC VIA"),
    ],
)
def test_lenient_parsing(text: str, expected: str) -> None:
    assert str(parse_order(text)) == expected


@pytest.mark.parametrize("text", ["", "X PAR H", "A PARIS - BUR", "A PAR S", "A PAR - ", "A PAR Q"])
def test_parse_errors_are_typed(text: str) -> None:
    with pytest.raises(OrderParseError):
        parse_order(text)


@pytest.mark.parametrize(
    ("power", "text", "reason"),
    [
        ("FRANCE", "F BRE - PAR", "Paris is inland"),
        ("FRANCE", "A PAR - MAO", "sea"),
        ("FRANCE", "A PAR - MUN", "not adjacent"),
        ("GERMANY", "A PAR - BUR", "belongs to FRANCE"),
        ("FRANCE", "F PAR - BUR", "no fleet"),
        ("FRANCE", "A PIC - BEL", "no unit"),
        ("FRANCE", "A MAR S A PAR - PIC", "could not move to Picardy"),
        ("RUSSIA", "F SEV - BUL", "no shared coastline"),
        ("ENGLAND", "F NTH C A LON - NWY", "no unit in North Sea"),
        ("FRANCE", "F BRE B", "Build orders are not allowed"),
    ],
)
def test_validation_names_the_reason(power: str, text: str, reason: str) -> None:
    with pytest.raises(IllegalOrderError) as info:
        validate_order(initial_board(), power, text)
    assert reason in info.value.reason


def test_ambiguous_coast_is_rejected() -> None:
    board = make_board(GM, "S1901M", {"TURKEY": ["F CON"]})
    with pytest.raises(IllegalOrderError, match="two coasts"):
        validate_order(board, "TURKEY", "F CON - BUL")
    assert str(validate_order(board, "TURKEY", "F CON - BUL/EC")) == "F CON - BUL/EC"


def test_validation_normalises() -> None:
    board = initial_board()
    assert str(validate_order(board, "RUSSIA", "F STP - BOT")) == "F STP/SC - BOT"
    assert str(validate_order(board, "FRANCE", "F BRE - GAS")) == "F BRE - GAS"


def test_legal_lists_are_complete_and_sorted() -> None:
    board = initial_board()
    options = legal_orders(board, "FRANCE")
    paris = [lo.text for lo in options.units["A PAR"]]
    assert paris == sorted(paris)
    assert {"A PAR - BUR", "A PAR H", "A PAR S A MAR - BUR", "A PAR S F BRE"} <= set(paris)
    assert all(
        validate_order(board, "FRANCE", lo.order) == lo.order for lo in options.units["A PAR"]
    )
    label = next(lo.label for lo in options.units["A PAR"] if lo.text == "A PAR - BUR")
    assert label == "Army Paris moves to Burgundy"
    assert orderable_powers(board) == GM.powers


def test_convoy_options_follow_fleets_at_sea() -> None:
    board = make_board(GM, "S1901M", {"ENGLAND": ["A LON", "F NTH", "F ENG"]})
    opts = legal_orders(board, "ENGLAND").units
    assert "A LON - NWY" in {lo.text for lo in opts["A LON"]}
    assert "A LON - WAL VIA" in {lo.text for lo in opts["A LON"]}
    convoys = {lo.text for lo in opts["F NTH"] if isinstance(lo.order, Convoy)}
    assert "F NTH C A LON - NWY" in convoys
    assert "F NTH C A LON - BRE" not in convoys  # only the Channel is on that route


def _play(board: Board, orders: dict[str, list[str]], rules: Rules = DEFAULT_RULES) -> Board:
    result = process_phase(board, orders, rules)
    assert not result.rejected, result.rejected
    return result.board


def test_phase_flow_skips_empty_phases_and_updates_centres() -> None:
    board = initial_board()
    board = _play(board, {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - RUH"]})
    assert board.phase_name == "F1901M"  # no dislodgement: no retreat phase
    board = _play(board, {"GERMANY": ["A RUH - BEL"], "ENGLAND": ["F LON - NTH"]})
    assert board.phase_name == "W1901A"
    assert board.centres["BEL"] == "GERMANY"
    assert adjustment_count(board, "GERMANY") == 1
    board = _play(board, {"GERMANY": ["A MUN B"]})
    assert board.phase_name == "S1902M"
    assert "A MUN" in {str(u) for u in board.units}


def test_no_adjustments_skips_winter() -> None:
    board = _play(initial_board(), {})
    board = _play(board, {})
    assert board.phase_name == "S1902M"


def test_retreat_phase_and_disband_default() -> None:
    board = make_board(GM, "F1901M", {"FRANCE": ["A BUR", "A PAR"], "GERMANY": ["A MUN", "A RUH"]})
    result = process_phase(
        board, {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"], "FRANCE": ["A BUR H"]}
    )
    assert result.board.phase_name == "F1901R"
    (d,) = result.board.dislodged
    assert str(d.unit) == "A BUR" and d.attacker_from == "MUN"
    assert [str(r) for r in d.retreats] == ["BEL", "GAS", "MAR", "PIC"]
    after = process_phase(result.board, {})
    assert [r.status for r in after.results] == [OrderStatus.DISBANDED]
    assert after.board.phase.type is not PhaseType.RETREATS


def test_solo_victory_and_end_year() -> None:
    # France with 17 centres takes an 18th in the Fall: the game ends at once.
    centres = {
        "FRANCE": [
            "BRE", "MAR", "PAR", "SPA", "POR", "BEL", "HOL", "LON", "LVP",
            "EDI", "NWY", "SWE", "DEN", "KIE", "BER", "MUN", "TUN",
        ]
    }  # fmt: skip
    board = make_board(GM, "F1905M", {"FRANCE": ["A BUR"], "ITALY": ["A ROM"]}, centres)
    done = _play(board, {"FRANCE": ["A BUR - MAR"]})
    assert not done.finished  # Marseilles was already French
    board = make_board(GM, "F1905M", {"FRANCE": ["A PIE"]}, centres)
    done = _play(board, {"FRANCE": ["A PIE - VEN"]})
    assert done.finished and done.winner == "FRANCE" and done.phase_name == "COMPLETED"
    with pytest.raises(ValueError):
        process_phase(done, {})
    # A configured end year stops the game after that Fall without a winner.
    board = make_board(GM, "F1910M", {"ITALY": ["A ROM"]}, {"ITALY": ["ROM"]})
    done = _play(board, {}, Rules(end_year=1910))
    assert done.finished and done.winner is None


def test_rejected_orders_are_reported_and_hold() -> None:
    result = process_phase(initial_board(), {"FRANCE": ["F BRE - PAR", "nonsense"]})
    assert [r.text for r in result.rejected] == ["F BRE - PAR", "nonsense"]
    assert "F BRE" in {str(u) for u in result.board.units}

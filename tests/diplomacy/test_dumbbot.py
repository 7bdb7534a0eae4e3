"""DumbBot: the spec's numbers, its choosing procedure, its behaviour, and legality."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

from parlour.core.rng import Rng
from parlour.games.diplomacy.adjudicator import Rules, process_phase
from parlour.games.diplomacy.baselines import hold_orders, random_orders
from parlour.games.diplomacy.board import (
    Board,
    DislodgedUnit,
    PhaseType,
    Unit,
    initial_board,
    make_board,
)
from parlour.games.diplomacy.dumbbot import (
    FALL_WEIGHTS,
    SPRING_WEIGHTS,
    WINTER_WEIGHTS,
    RandIntSource,
    choose_index,
    dumbbot_orders,
    evaluate,
    next_chance,
    power_size,
    rank,
    shuffled,
)
from parlour.games.diplomacy.legal import legal_orders, validate_order
from parlour.games.diplomacy.map import GameMap, Location, UnitType, map_from_dict, standard_map
from parlour.games.diplomacy.orders import (
    Build,
    Disband,
    Move,
    Order,
    Retreat,
    Waive,
    order_province,
)

A, F = UnitType.ARMY, UnitType.FLEET
GM = standard_map()


class Scripted:
    """Returns the scripted numbers first, then always the top of the range.

    "Always the top" makes every choice take the best candidate (first draw 99
    is never < 50) and makes :func:`shuffled` the identity.
    """

    def __init__(self, values: list[int] | None = None) -> None:
        self.values = list(values or [])
        self.calls = 0

    def randint(self, a: int, b: int, /) -> int:
        self.calls += 1
        return self.values.pop(0) if self.values else b


def texts(orders: list[Order]) -> list[str]:
    return sorted(str(o) for o in orders)


# --- the spec's numbers ------------------------------------------------------------


def test_power_sizes_at_the_start() -> None:
    ev = evaluate(initial_board(), "AUSTRIA")
    assert ev.sizes[None] == 208  # 12 neutral centres
    assert ev.sizes["AUSTRIA"] == ev.sizes["TURKEY"] == 37
    assert ev.sizes["RUSSIA"] == 48
    assert [power_size(x) for x in (0, 1, 3, 4, 12)] == [16, 21, 37, 48, 208]


def test_attack_and_defence_values_at_the_start() -> None:
    ev = evaluate(initial_board(), "AUSTRIA")
    assert ev.attack["SER"] == 208  # neutral
    assert ev.attack["WAR"] == 48  # Russian
    assert ev.attack["VEN"] == 37  # Italian
    assert "VIE" not in ev.attack  # ours
    assert "GAL" not in ev.attack  # not a centre
    # TRI is ours and the Italian army in Venice could move in; nothing threatens VIE.
    assert ev.defence == {"TRI": 37}
    assert ev.proximity_of(0, A, Location("TRI")) == 37 * 300
    assert ev.proximity_of(0, A, Location("SER")) == 208 * 700


def test_phase_weights() -> None:
    assert SPRING_WEIGHTS.proximity == (100, 1000, 30, 10, 6, 5, 4, 3, 2, 1)
    assert FALL_WEIGHTS.proximity == (1000, 100, 30, 10, 6, 5, 4, 3, 2, 1)
    assert (SPRING_WEIGHTS.attack, SPRING_WEIGHTS.defence) == (700, 300)
    assert (FALL_WEIGHTS.attack, FALL_WEIGHTS.defence) == (600, 400)
    assert (WINTER_WEIGHTS.attack, WINTER_WEIGHTS.defence) == (700, 300)
    assert WINTER_WEIGHTS.proximity == FALL_WEIGHTS.proximity
    assert evaluate(make_board(GM, "F1901R", {}), "FRANCE").weights is FALL_WEIGHTS
    assert evaluate(make_board(GM, "S1902R", {}), "FRANCE").weights is SPRING_WEIGHTS
    assert evaluate(make_board(GM, "W1901A", {}), "FRANCE").weights is WINTER_WEIGHTS


def _chain_map() -> GameMap:
    """HOM - AAA - BBB - CCC, all inland; HOM is RED's home, CCC a neutral centre."""
    land = {"type": "land"}
    return map_from_dict(
        {
            "name": "chain",
            "start_year": 1901,
            "victory_centres": 2,
            "powers": {"RED": {"home": ["HOM"], "units": ["A HOM"]}},
            "provinces": {
                "HOM": {**land, "centre": True, "army": ["AAA"]},
                "AAA": {**land, "army": ["HOM", "BBB"]},
                "BBB": {**land, "army": ["AAA", "CCC"]},
                "CCC": {**land, "centre": True, "army": ["BBB"]},
            },
        }
    )


def test_proximity_by_hand_on_a_chain() -> None:
    board = initial_board(_chain_map())
    ev = evaluate(board, "RED")
    assert ev.sizes == {"RED": 21, None: 21}
    levels = {p: [ev.proximity_of(n, A, Location(p)) for n in range(4)] for p in ev.attack}
    # level 0: 21 × 700 at the neutral centre only; then (neighbours + own) / 5, truncated
    by_hand = {
        "HOM": [0, 0, 0, 117],  # 3: (0 + 588) / 5
        "AAA": [0, 0, 588, 352],  # 2: 2940 / 5; 3: (588 + 0 + 1176) / 5
        "BBB": [0, 2940, 1176, 588],  # 1: 14700 / 5; 2: (2940 + 2940) / 5
        "CCC": [14700, 2940, 1176, 470],
    }
    assert ev.attack == {"CCC": 21}
    levels = {p: [ev.proximity_of(n, A, Location(p)) for n in range(4)] for p in by_hand}
    assert levels == by_hand
    # destination value: Σ proximity × spring weights + 1000 × strength − 1000 × competition
    prox = [ev.proximity_of(n, A, Location("AAA")) for n in range(10)]
    expected = sum(p * w for p, w in zip(prox, SPRING_WEIGHTS.proximity, strict=True)) + 1000
    assert ev.value(A, Location("AAA")) == expected
    assert ev.strength == {"HOM": 1, "AAA": 1} and ev.competition == {}


def test_two_coasts_of_one_province_count_once() -> None:
    ev = evaluate(initial_board(), "ITALY")
    spa = ev.proximity_of(0, F, Location("SPA", "NC"))
    assert spa == ev.proximity_of(0, F, Location("SPA", "SC")) == 208 * 700
    # MAO touches BRE (French: 37), POR, SPA/NC, SPA/SC (neutral: 208): SPA counts once.
    assert ev.proximity_of(1, F, Location("MAO")) == (37 * 700 + 208 * 700 + spa) // 5 == 63420


def test_strength_and_competition() -> None:
    ev = evaluate(initial_board(), "GERMANY")
    assert ev.strength["KIE"] == 3  # F KIE in it; A BER and A MUN can move in
    assert ev.strength["SIL"] == 2  # A BER and A MUN
    assert ev.competition["SIL"] == 1  # Russia's A WAR
    # TYR: Austria's A VIE and Italy's A VEN, one each: the largest single power counts
    assert (ev.strength["TYR"], ev.competition["TYR"]) == (1, 1)
    assert ev.competition["BUR"] == 2  # France's A PAR and A MAR


# --- choosing among ranked candidates --------------------------------------------------


def test_rank_sorts_and_collapses_equal_values() -> None:
    cands = [(5, "a"), (9, "b"), (5, "c"), (7, "d")]
    assert rank(cands) == [(9, "b"), (7, "d"), (5, "a")]
    assert rank(cands, lowest_first=True) == [(5, "a"), (7, "d"), (9, "b")]


def test_next_chance_is_truncated_percent_arithmetic() -> None:
    assert next_chance(1000, 990) == 5
    assert next_chance(1000, 800) == 100  # a 20% gap: never move on
    assert next_chance(990, 500) == 247
    assert next_chance(0, -10) == 0
    assert next_chance(1000, 1100) == 50  # removals rank lowest first: the gap's size counts


def test_choose_index_follows_the_two_draws() -> None:
    ranked = [(1000, "a"), (990, "b"), (500, "c")]
    assert choose_index(ranked, Scripted([10, 5, 10, 99])) == 1  # 10 < 50 and 5 >= 5: next
    assert choose_index(ranked, Scripted([10, 4])) == 0  # 4 < chance 5: stop
    assert choose_index(ranked, Scripted([50, 99])) == 0  # first draw not < 50: stop
    assert choose_index(ranked, Scripted([0, 99, 0, 99])) == 1  # chance 247 at b: stop there
    assert choose_index([(3, "only")], Scripted()) == 0


def test_choose_probabilities() -> None:
    rng = random.Random(0)
    n = 20000
    close = sum(choose_index([(1000, 0), (990, 1)], rng) for _ in range(n)) / n
    assert close == pytest.approx(0.5 * 0.95, abs=0.015)
    assert sum(choose_index([(1000, 0), (800, 1)], rng) for _ in range(2000)) == 0
    equalish = Counter(choose_index([(100, 0), (100 - 1, 1), (98, 2)], rng) for _ in range(n))
    assert equalish[2] / n == pytest.approx(0.5 * 0.95 * 0.5 * 0.95, abs=0.015)


def test_shuffled_uses_randint_only_and_is_a_permutation() -> None:
    assert shuffled([1, 2, 3], Scripted()) == [1, 2, 3]
    assert shuffled([1, 2], Scripted([0])) == [2, 1]
    assert sorted(shuffled(list(range(20)), random.Random(3))) == list(range(20))


# --- movement behaviour ---------------------------------------------------------------------


def test_spring_1901_every_unit_heads_out() -> None:
    board = initial_board()
    for power in GM.powers:
        orders = dumbbot_orders(board, power, Scripted())
        assert orders and all(isinstance(o, Move) for o in orders), (power, texts(orders))
    # Best choices; England's F LON also wants NTH, which F EDI takes with nobody
    # competing, so it takes its next best, ENG.
    assert texts(dumbbot_orders(board, "ENGLAND", Scripted())) == [
        "A LVP - YOR",
        "F EDI - NTH",
        "F LON - ENG",
    ]
    assert texts(dumbbot_orders(board, "FRANCE", Scripted())) == [
        "A MAR - SPA",
        "A PAR - BUR",
        "F BRE - MAO",
    ]


def test_the_best_destination_is_taken_with_always_best_draws() -> None:
    board = initial_board()
    ev = evaluate(board, "RUSSIA")
    orders = {order_province(o): o for o in dumbbot_orders(board, "RUSSIA", Scripted())}
    for unit in board.units_of("RUSSIA"):
        best = max(GM.move_targets(unit.type, unit.location), key=lambda t: ev.value(unit.type, t))
        order = orders[unit.province]
        assert isinstance(order, Move)
        if order.dest != best:  # only when the best was taken by an earlier unit
            assert any(
                isinstance(o, Move) and o.dest.province == best.province for o in orders.values()
            )


def test_neutral_centres_are_taken_in_1901() -> None:
    captured = []
    for seed in range(12):
        board, rng = initial_board(), random.Random(seed)
        while board.phase.year == 1901 and not board.finished:
            board = process_phase(
                board, {p: dumbbot_orders(board, p, rng) for p in GM.powers}
            ).board
        captured.append(len(board.centres) - 22)
    assert min(captured) >= 5 and sum(captured) / len(captured) >= 8


FRENCH_WEST = {"FRANCE": ["PAR", "MAR", "BRE", "SPA"], "GERMANY": ["KIE", "BER", "MUN"]}


def test_second_unit_supports_a_contested_move() -> None:
    board = make_board(
        GM, "F1901M", {"FRANCE": ["A BUR", "A PIC"], "GERMANY": ["A RUH"]}, FRENCH_WEST
    )
    orders = dumbbot_orders(board, "FRANCE", Scripted())
    assert texts(orders) == ["A BUR - BEL", "A PIC S A BUR - BEL"]


def test_uncontested_destination_is_rejected_and_the_unit_follows() -> None:
    board = make_board(
        GM, "F1901M", {"FRANCE": ["A BUR", "A PIC"], "GERMANY": ["A BER"]}, FRENCH_WEST
    )
    # BEL has no competition, so A PIC rejects it and takes BUR, which A BUR leaves.
    assert texts(dumbbot_orders(board, "FRANCE", Scripted())) == ["A BUR - BEL", "A PIC - BUR"]


FRENCH_EMPIRE = {
    "FRANCE": [
        "PAR",
        "MAR",
        "BRE",
        "SPA",
        "POR",
        "BEL",
        "HOL",
        "MUN",
        "KIE",
        "BER",
        "DEN",
        "LON",
        "EDI",
        "LVP",
    ],
    "ITALY": ["ROM", "NAP", "VEN", "TUN", "GRE", "SER", "TRI", "VIE", "BUD"],
}


@pytest.mark.parametrize("script", [[], [0]])
def test_postponed_unit_supports_the_occupant_that_stays(script: list[int]) -> None:
    # A GAS (ordered first without the script) wants MAR, held by A MAR: it waits,
    # A MAR holds (Italy threatens it twice), so A GAS supports it to hold.
    units = {"FRANCE": ["A MAR", "A GAS"], "ITALY": ["A PIE", "F LYO"]}
    board = make_board(GM, "F1901M", units, FRENCH_EMPIRE)
    assert texts(dumbbot_orders(board, "FRANCE", Scripted(script))) == ["A GAS S A MAR", "A MAR H"]


def test_support_hold_needs_competition_above_one() -> None:
    units = {"FRANCE": ["A MAR", "A GAS"], "ITALY": ["A PIE"]}
    board = make_board(GM, "F1901M", units, FRENCH_EMPIRE)
    assert texts(dumbbot_orders(board, "FRANCE", Scripted())) == ["A GAS - BUR", "A MAR H"]


def test_wasted_hold_becomes_a_support() -> None:
    units = {"FRANCE": ["A MAR", "A SPA"], "ITALY": ["A PIE", "F LYO", "F WES"]}
    board = make_board(GM, "F1901M", units, FRENCH_EMPIRE)
    ev = evaluate(board, "FRANCE")
    mar = ev.value(A, Location("MAR"))
    assert all(ev.value(A, t) < mar + 1 for t in GM.move_targets(A, Location("MAR")))
    # A MAR's best is to hold; A SPA supports it; then the hold is put to use.
    assert texts(dumbbot_orders(board, "FRANCE", Scripted())) == ["A MAR S A SPA", "A SPA S A MAR"]


# --- retreats and adjustments --------------------------------------------------------------


def test_retreats_never_share_a_destination() -> None:
    units = {"FRANCE": ["A BUR"], "GERMANY": ["A PIC", "A GAS"]}
    base = make_board(GM, "F1901R", units, FRENCH_WEST)
    dislodged = (
        DislodgedUnit(Unit("FRANCE", A, Location("PAR")), "PIC", False, (Location("BRE"),)),
        DislodgedUnit(
            Unit("FRANCE", A, Location("MAR")), "GAS", False, (Location("BRE"), Location("SPA"))
        ),
        DislodgedUnit(Unit("FRANCE", F, Location("NAO")), "IRI", False, (Location("MAO"),)),
    )
    board = Board(base.game_map, base.phase, base.units, base.centres, dislodged)
    for seed in range(30):
        orders = dumbbot_orders(board, "FRANCE", random.Random(seed))
        assert len(orders) == 3
        dests = [o.dest.province for o in orders if isinstance(o, Retreat)]
        assert len(dests) == len(set(dests)) and "MAO" in dests
        # PAR can only go to BRE: when MAR took it first, PAR disbands
        assert ("BRE" in dests) and len(dests) >= 2


def test_builds_use_every_build_and_distinct_sites() -> None:
    units = {"FRANCE": ["A BUR", "A GAS", "F MAO"], "GERMANY": ["A MUN"]}
    centres = {"FRANCE": ["PAR", "MAR", "BRE", "SPA", "POR"], "GERMANY": ["MUN", "BER", "KIE"]}
    board = make_board(GM, "W1901A", units, centres)
    for seed in range(30):
        orders = dumbbot_orders(board, "FRANCE", random.Random(seed))
        assert len(orders) == 2 and all(isinstance(o, Build) for o in orders)
        assert len({o.location.province for o in orders if isinstance(o, Build)}) == 2


def test_removals_prefer_the_lowest_valued_units() -> None:
    units = {"FRANCE": ["A BUR", "A GAS", "F MAO", "A PAR"], "GERMANY": ["A MUN"]}
    centres = {"FRANCE": ["PAR", "MAR"], "GERMANY": ["MUN", "BER", "KIE"]}
    board = make_board(GM, "W1901A", units, centres)
    ev = evaluate(board, "FRANCE")
    by_value = sorted(board.units_of("FRANCE"), key=lambda u: ev.value(u.type, u.location))
    orders = dumbbot_orders(board, "FRANCE", Scripted())
    assert all(isinstance(o, Disband) for o in orders)
    assert {order_province(o) for o in orders} == {u.province for u in by_value[:2]}
    for seed in range(20):
        orders = dumbbot_orders(board, "FRANCE", random.Random(seed))
        assert len({order_province(o) for o in orders}) == 2


# --- legality over many positions, determinism ---------------------------------------------

Policy = Callable[[Board, str, RandIntSource], list[Order]]
POLICIES: tuple[Policy, ...] = (
    dumbbot_orders,
    random_orders,
    lambda b, p, _rng: hold_orders(b, p),
)


def check_orders(board: Board, power: str, orders: list[Order], dumb: bool) -> None:
    """Every order is a legal option (by identity), validates, and fits the phase.

    DumbBot (``dumb``) also never sends two units to one province.
    """
    opts = legal_orders(board, power)
    pool = [lo.order for los in opts.units.values() for lo in los] + [
        lo.order for lo in opts.adjustments
    ]
    ids = {id(o) for o in pool}
    for o in orders:
        assert id(o) in ids, (board.phase_name, power, str(o))
        assert validate_order(board, power, o) == o
    ptype = board.phase.type
    provinces = [o.location.province for o in orders if not isinstance(o, Waive)]
    if ptype is PhaseType.MOVEMENT:
        assert len(orders) == len(opts.units) == len(set(provinces))
        dests = [o.dest.province for o in orders if isinstance(o, Move)]
        assert not dumb or len(dests) == len(set(dests)), (board.phase_name, texts(orders))
    elif ptype is PhaseType.RETREATS:
        assert len(orders) == len(opts.units) == len(set(provinces))
        dests = [o.dest.province for o in orders if isinstance(o, Retreat)]
        assert not dumb or len(dests) == len(set(dests))
    else:
        assert len(orders) == abs(opts.adjustment_count)
        sites = [o.location.province for o in orders if isinstance(o, (Build, Disband))]
        assert len(sites) == len(set(sites))


def test_every_order_is_legal_over_many_positions() -> None:
    seen: Counter[str] = Counter()
    for seed in range(16):
        game_rng = random.Random(seed)
        seats = {p: game_rng.randrange(len(POLICIES)) for p in GM.powers}
        board = initial_board()
        rules = Rules(end_year=1906 + seed % 3)
        while not board.finished:
            orders: dict[str, list[Order]] = {}
            for power in GM.powers:
                count = legal_orders(board, power).adjustment_count
                for i, policy in enumerate(POLICIES):
                    got = policy(board, power, game_rng)
                    check_orders(board, power, got, dumb=policy is dumbbot_orders)
                    if i == seats[power]:
                        orders[power] = got
                    if policy is dumbbot_orders and count > 0:
                        assert all(isinstance(o, Build) for o in got)  # it builds when it can
                kind = board.phase.type.value
                seen[kind + ("+" if count > 0 else "-" if count < 0 else "")] += 1
            result = process_phase(board, orders, rules)
            assert not result.rejected
            board = result.board
    # the sweep really met retreats, builds and removals
    assert seen["R"] > 0 and seen["A+"] > 0 and seen["A-"] > 0, seen


def play(seed: int, rng_factory: Callable[[int], RandIntSource], end_year: int) -> list[str]:
    rng = rng_factory(seed)
    board = initial_board()
    rules = Rules(end_year=end_year)
    log: list[str] = []
    while not board.finished:
        orders = {p: dumbbot_orders(board, p, rng) for p in GM.powers}
        log += [f"{board.phase_name} {o}" for p in GM.powers for o in orders[p]]
        board = process_phase(board, orders, rules).board
    return log


def test_same_seed_same_game() -> None:
    assert play(7, random.Random, 1904) == play(7, random.Random, 1904)
    assert play(7, Rng, 1904) == play(7, Rng, 1904)  # parlour's Rng works too
    assert len({tuple(play(s, random.Random, 1903)) for s in range(4)}) > 1


def test_caller_rng_is_the_only_randomness() -> None:
    board = initial_board()
    a, b = Scripted(), Scripted()
    assert dumbbot_orders(board, "RUSSIA", a) == dumbbot_orders(board, "RUSSIA", b)
    assert a.calls == b.calls > 0


def test_nothing_to_order() -> None:
    board = make_board(GM, "W1901A", {"FRANCE": ["A PAR"]}, {"FRANCE": ["PAR"]})
    assert dumbbot_orders(board, "FRANCE", Scripted()) == []
    assert dumbbot_orders(board, "ENGLAND", Scripted()) == []


def test_friends_are_no_threat_and_no_target() -> None:
    """Blind to a friend (a power we agreed peace or alliance with): its army in Venice
    no longer threatens Trieste, nor are its centres targets; without friends: DumbBot."""
    plain = evaluate(initial_board(), "AUSTRIA")
    blind = evaluate(initial_board(), "AUSTRIA", frozenset({"ITALY"}))
    assert plain.defence == {"TRI": 37} and blind.defence == {}
    assert plain.attack["VEN"] == 37 and "VEN" not in blind.attack
    assert blind.attack["WAR"] == plain.attack["WAR"]  # Russia is still a target
    # Apulia: only Italy (A VEN, A ROM, F NAP) reaches it
    assert plain.competition["APU"] == 3 and blind.competition.get("APU", 0) == 0
    assert dumbbot_orders(initial_board(), "AUSTRIA", Rng(3)) == dumbbot_orders(
        initial_board(), "AUSTRIA", Rng(3), frozenset()
    )

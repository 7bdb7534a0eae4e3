"""Typed proposals and the deals made of them: each term checked against the map and the
phase, each term's kept/broken rule against the orders given, lies, and the issue's
example (a peace with Austria broken when Italy enters Trieste)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.games.diplomacy import MODULE
from parlour.games.diplomacy.board import initial_board, make_board
from parlour.games.diplomacy.bot_protocol import unit_orders
from parlour.games.diplomacy.config import DiplomacyConfig
from parlour.games.diplomacy.deals import Deal, breach, lies, settle
from parlour.games.diplomacy.game import DiplomacyGame
from parlour.games.diplomacy.map import standard_map
from parlour.games.diplomacy.negotiation import apply_acts
from parlour.games.diplomacy.proposal_words import sentence
from parlour.games.diplomacy.proposals import (
    Alliance,
    Dmz,
    HoldUnit,
    MoveInto,
    Peace,
    Proposal,
    StayOut,
    Support,
    act,
    act_of,
    check,
    span,
    term_of,
)
from tests.support.play import play_first_pending

GM = standard_map()
SEVEN = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
CENTRES = {"AUSTRIA": ["TRI", "VIE", "BUD"], "ITALY": ["VEN", "ROM", "NAP"]}
UNITS = {"ITALY": ["A VEN", "A TYR", "F ADR"], "AUSTRIA": ["A TRI", "A VIE"], "RUSSIA": ["A GAL"]}


def board(phase: str = "S1901M"):  # type: ignore[no-untyped-def]
    return make_board(GM, phase, UNITS, CENTRES)


def italy(term, *orders: str) -> list[str]:  # type: ignore[no-untyped-def]
    """What in Italy's ``orders`` breaks ``term`` agreed with Austria."""
    return breach(term, "ITALY", "AUSTRIA", board(), orders)


# -- checked against the map and the phase ------------------------------------------------


def test_check_accepts_real_terms_and_explains_refusals() -> None:
    b = board()
    ok = [
        Support("A TYR", "VIE", "BOH"),
        Support("A TYR", "VEN", "VEN"),
        MoveInto("A VEN", "TRI"),
        HoldUnit("F ADR"),
        StayOut("TYR"),
        Dmz("TYR"),
        Peace(2),
        Alliance("RUSSIA", 2),
    ]
    assert [check(t, b, "ITALY", "AUSTRIA") for t in ok] == [None] * len(ok)
    refused = {
        Support("A TYR", "VIE", "GAL"): "A TYR cannot support into GAL: not adjacent",
        Support("A TYR", "TRI", "BOH"): "the unit in TRI cannot reach BOH",
        Support("A TYR", "BUD", "VIE"): "there is no unit in BUD to support",
        MoveInto("A ROM", "TUS"): "there is no A ROM on the board",
        MoveInto("A TRI", "ALB"): "A TRI is not a unit of the power that would order it",
        MoveInto("A VEN", "VIE"): "A VEN cannot reach VIE",
        Dmz("XYZ"): "XYZ is not a province on the standard map",
        Alliance("AUSTRIA", 2): "an alliance must be against a third power, not AUSTRIA",
        Peace(9): "a pact lasts 1 to 4 movement phases",
    }
    for term, why in refused.items():
        assert check(term, b, "ITALY", "AUSTRIA") == why, term
    winter = make_board(GM, "W1901A", UNITS, CENTRES)
    assert (
        check(Peace(1), winter, "ITALY", "AUSTRIA") == "proposals are made before movement phases"
    )


def test_an_act_names_its_term_or_says_what_is_missing() -> None:
    for term in (Support("A TYR", "VIE", "BOH"), MoveInto("A VEN", "TRI"), Alliance("RUSSIA", 3)):
        assert term_of(act_of(term)) == term
    assert term_of(act("offer", "support", unit="A TYR")) == "a support term needs its from and to"
    assert "not a term" in str(term_of(act("offer", "bribe")))


def test_span_counts_movement_phases() -> None:
    assert span("S1901M", 3) == ("S1901M", "F1901M", "S1902M")
    assert span("F1901M", 2) == ("F1901M", "S1902M")
    assert span("W1901A", 1) == ("S1902M",)
    assert span("S1901R", 1) == ("F1901M",)


# -- each term's kept / broken rule ------------------------------------------------------


def test_peace_is_broken_by_any_attack_on_the_partners_units_or_centres() -> None:
    peace = Peace(2)
    assert italy(peace, "A VEN - TRI") == ["A VEN - TRI"]  # a unit and a centre of theirs
    assert italy(peace, "A TYR - VIE") == ["A TYR - VIE"]
    assert italy(peace, "A TYR S A GAL - VIE") == ["A TYR S A GAL - VIE"]  # helping Russia in
    assert italy(peace, "A VEN H", "A TYR S A VEN - TRI") == ["A TYR S A VEN - TRI"]
    assert italy(peace, "A VEN - PIE", "A TYR - BOH", "F ADR - ALB", "A TYR S A VIE") == []


def test_alliance_is_broken_by_attacking_the_partner_or_helping_the_enemy() -> None:
    pact = Alliance("RUSSIA", 2)
    assert italy(pact, "A VEN - TRI") == ["A VEN - TRI"]
    assert italy(pact, "A TYR S A GAL") == ["A TYR S A GAL"]  # Russia's unit helped to hold
    assert italy(pact, "A TYR S A GAL - BOH") == ["A TYR S A GAL - BOH"]
    assert italy(pact, "A TYR - MUN", "A VEN H", "F ADR - ALB") == []


def test_dmz_and_stay_out_are_broken_by_any_move_in() -> None:
    for term in (Dmz("TYR"), StayOut("PIE")):
        into = f"A VEN - {term.province}"
        assert italy(term, into) == [into]
        assert italy(term, "A VEN H", "A TYR S A VEN") == []
    assert italy(StayOut("TRI"), "A TYR S A VEN - TRI") == []  # a support is no move in


def test_move_and_hold_need_the_very_order() -> None:
    assert italy(MoveInto("A VEN", "PIE"), "A VEN - PIE") == []
    assert italy(MoveInto("A VEN", "PIE"), "A VEN - TRI") == ["A VEN - TRI"]
    assert italy(MoveInto("A VEN", "PIE"), "A TYR H") == ["no order for A VEN"]
    assert italy(HoldUnit("A VEN"), "A VEN H") == []
    assert italy(HoldUnit("A VEN"), "A VEN S A TYR") == []  # supporting is staying put
    assert italy(HoldUnit("A VEN"), "A VEN - PIE") == ["A VEN - PIE"]


def test_support_missing_or_given_against_the_partner_is_broken() -> None:
    to_boh = Support("A TYR", "VIE", "BOH")
    assert italy(to_boh, "A TYR S A VIE - BOH") == []
    assert italy(to_boh, "A TYR H") == ["A TYR H"]
    assert italy(to_boh, "A TYR S A VIE") == ["A TYR S A VIE"]  # a hold support is not it
    assert italy(to_boh, "A VEN H") == ["no order for A TYR"]
    hold = Support("A TYR", "VIE", "VIE")
    assert italy(hold, "A TYR S A VIE") == []
    assert italy(hold, "A TYR S A VIE - BOH") == ["A TYR S A VIE - BOH"]
    # the promised order, but it attacks the partner (Russia promised the support to us)
    into_vie = Support("A TYR", "GAL", "VIE")
    assert breach(into_vie, "ITALY", "RUSSIA", board(), ["A TYR S A GAL - VIE"]) == []
    assert italy(into_vie, "A TYR S A GAL - VIE") == ["A TYR S A GAL - VIE"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=40), min_size=3, max_size=3))
def test_rules_hold_for_any_legal_orders(picks: list[int]) -> None:
    b = board()
    legal = unit_orders(b, "ITALY")
    orders = [
        opts[i % len(opts)] for (u, opts), i in zip(sorted(legal.items()), picks, strict=True)
    ]
    moves = [o for o in orders if o.split()[2] == "-"]  # "A VEN - TRI", not "... S/C ..."
    moves_into = {o.split()[3][:3] for o in moves}
    for province in ("TYR", "TRI", "PIE", "VIE", "BOH"):
        assert bool(italy(StayOut(province), *orders)) == (province in moves_into)
    for unit in ("A VEN", "A TYR", "F ADR"):
        own = next(o for o in orders if o.startswith(unit + " "))
        assert bool(italy(HoldUnit(unit), *orders)) == (own in moves)
    # every move into Austria's centres or units breaks the peace, and only attacks do
    austrian = {"TRI", "VIE", "BUD"}
    broken = italy(Peace(1), *orders)
    assert {o for o in moves if o.split()[3][:3] in austrian} <= set(broken)
    assert all(o.split(" - ")[-1][:3] in austrian for o in broken)


def test_a_pact_is_kept_only_when_its_last_phase_passes_unbroken() -> None:
    deal = Deal("P1", "ITALY", "AUSTRIA", Peace(2), span("S1901M", 2))
    spring, fall = board("S1901M"), board("F1901M")
    after, now = settle([deal], spring, {"ITALY": ("A VEN H",)})
    assert now == [] and after[0].status == "open"
    kept, now = settle(after, fall, {"ITALY": ("A VEN H",)})
    assert [d.status for d in now] == ["kept"] and kept[0].settled == "F1901M"
    broken, now = settle(after, fall, {"ITALY": ("A VEN - TRI",)})
    assert [(d.status, d.evidence) for d in now] == [("broken", ("A VEN - TRI",))]
    assert broken[0].settled == "F1901M"


def test_a_lie_is_a_statement_its_speakers_orders_contradict() -> None:
    said = Proposal("P1", "ITALY", "AUSTRIA", StayOut("TRI"), False, "S1901M")
    asked = Proposal("P2", "AUSTRIA", "ITALY", HoldUnit("A VEN"), True, "S1901M")
    orders = {"ITALY": ("A VEN - TRI",), "AUSTRIA": ("A TRI H",)}
    found = lies([said, asked], set(), board(), orders)
    assert [(x.by, x.evidence, x.agreed) for x in found] == [("ITALY", ("A VEN - TRI",), False)]
    # once Italy accepts Austria's request to hold A VEN, that is Italy's word too
    found = lies([said, asked], {"P2"}, board(), orders)
    assert [(x.by, x.agreed) for x in found] == [("ITALY", False), ("ITALY", True)]
    assert lies([said], set(), board(), {"ITALY": ("A VEN H",)}) == []


def test_templates_put_every_term_into_words() -> None:
    terms = [
        Support("A TYR", "VIE", "BOH"),
        MoveInto("A VEN", "PIE"),
        StayOut("TRI"),
        Dmz("TYR"),
        Peace(2),
        Alliance("RUSSIA", 1),
        HoldUnit("A VEN"),
    ]
    for ask in (False, True):
        texts = {
            sentence(Proposal(f"P{i}", "ITALY", "AUSTRIA", t, ask, "S1901M"))
            for i, t in enumerate(terms)
        }
        assert len(texts) == len(terms) and all("{" not in t for t in texts)
    # the words vary with the proposal, and a replay writes the same ones
    peace = [
        sentence(Proposal(f"P{i}", "ITALY", "AUSTRIA", Peace(2), False, "S1901M"))
        for i in range(12)
    ]
    assert len(set(peace)) > 1
    assert peace[3] == sentence(Proposal("P3", "ITALY", "AUSTRIA", Peace(2), False, "S1901M"))


# -- in a game --------------------------------------------------------------------------


def test_a_refused_act_is_told_to_its_sender_only() -> None:
    game = DiplomacyGame.new(DiplomacyConfig(end_year=1901), 1)
    state = game._st  # the engine's state, as the protocol sees it
    assert initial_board().phase.name == state.board.phase.name
    words, data = apply_acts(
        state,
        "ITALY",
        "AUSTRIA",
        [
            act("offer", "support", unit="A VEN", from_="BUD", to="VIE"),
            act("offer", "peace", phases=2),
        ],
    )
    assert len(words) == 1 and data[0]["act"] == "offer"
    refused = [e for e in state.log.events if e.kind == "refused"]
    assert len(refused) == 1 and "A VEN cannot support into VIE" in refused[0].text
    assert set(refused[0].audience.seats) == {"ITALY"}


def _play(game: DiplomacyGame) -> None:
    play_first_pending(game, MODULE.policy)


def test_italy_breaks_its_peace_with_austria_by_entering_trieste() -> None:
    """The issue's example, with Italy deceptive: Austria offers peace, Italy accepts and
    orders A VEN - TRI; the deal is judged broken, for Italy and Austria to see."""
    cfg = DiplomacyConfig(
        bots=SEVEN,
        personas={"ITALY": "deceptive"},
        end_year=1901,
        press_rounds=1,
        bots_talk_to_bots=True,
    )
    game = DiplomacyGame.new(cfg, 4)
    _play(game)
    events = game.events
    # talk goes to the powers each plan names, not to one fixed power
    spring = [e for e in events if e.kind == "press" and e.phase == "S1901M"]
    pairs = {(e.data["from"], e.data["to"]) for e in spring}
    assert len({to for _, to in pairs}) >= 4 and len({fr for fr, _ in pairs}) >= 5
    judged = [e for e in events if e.kind == "deal_judged" and e.data["by"] == "ITALY"]
    broken = next(e for e in judged if e.data["with"] == "AUSTRIA" and e.phase == "S1901M")
    assert broken.data["status"] == "broken" and broken.data["evidence"] == ["A VEN - TRI"]
    assert "no attack on Austria" in broken.text
    assert set(broken.audience.seats) == {"ITALY", "AUSTRIA"}
    assert "FRANCE" not in {s for e in judged for s in e.audience.seats}
    table = next(e for e in events if e.kind == "betrayals")
    row = next(
        line for line in table.text.splitlines() if line.startswith("Italy ") and "Austria" in line
    )
    assert "broken" in row and "A VEN - TRI" in row
    # Austria offers the power that betrayed it nothing the next season
    offers = [
        (e.data["from"], e.data["to"])
        for e in events
        if e.kind == "press" and e.phase == "F1901M"
        for a in e.data.get("proposals", [])
        if a["act"] == "offer"
    ]
    assert ("AUSTRIA", "ITALY") not in offers and any(fr == "AUSTRIA" for fr, _ in offers)
    # Austria's memory: trust in Italy fell, the betrayal is recorded
    bot = game.view("AUSTRIA").private.bot
    assert bot is not None and bot.trust["ITALY"] < 3
    assert any("ITALY" in b and "no attack on Austria" in b for b in bot.betrayals)

"""Personas change the scripted bot's decisions: aggression its orders, honesty its lies
and broken deals, talkativeness how much it proposes and to whom. Seeded: the same game
twice is the same game. (The measured rates over a 30-game tournament are in
docs/diplomacy-bot.md.)"""

from __future__ import annotations

import pytest

from parlour.core.rng import Rng
from parlour.games.diplomacy import MODULE
from parlour.games.diplomacy.board import make_board
from parlour.games.diplomacy.bot_policy import with_persona
from parlour.games.diplomacy.bot_protocol import unit_orders
from parlour.games.diplomacy.config import DiplomacyConfig
from parlour.games.diplomacy.game import DiplomacyGame
from parlour.games.diplomacy.map import standard_map
from parlour.games.diplomacy.metrics import conduct
from parlour.games.diplomacy.personas import NEUTRAL, PERSONAS, Persona
from tests.support.play import play_first_pending

SEVEN = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
GM = standard_map()


def _play(persona: str | None, seed: int = 4, end_year: int = 1902) -> DiplomacyGame:
    cfg = DiplomacyConfig(
        bots=SEVEN,
        personas={p: persona for p in SEVEN} if persona else {},
        end_year=end_year,
        press_rounds=1,
        bots_talk_to_bots=True,
    )
    game = DiplomacyGame.new(cfg, seed)
    play_first_pending(game, MODULE.policy, rng_base=seed * 1000)
    return game


def _total(game: DiplomacyGame) -> dict[str, float]:
    out: dict[str, float] = {}
    for counters in conduct(game).values():
        for k, v in counters.items():
            out[k] = out.get(k, 0.0) + v
    return out


def test_persona_parameters_and_neutral_defaults() -> None:
    assert NEUTRAL.deception == 0.2 and NEUTRAL.agenda_size() == 2
    assert NEUTRAL.attack_chance() == NEUTRAL.restraint_chance() == NEUTRAL.lie_chance() == 0
    assert NEUTRAL.extra_act_chance() == NEUTRAL.silence_chance() == 0
    assert PERSONAS["loyal"].deception == 0 and PERSONAS["deceptive"].deception == 0.8
    assert PERSONAS["cautious"].agenda_size() == 1 < PERSONAS["opportunist"].agenda_size()
    assert PERSONAS["aggressive"].attack_chance() > 0 == PERSONAS["aggressive"].restraint_chance()


def test_aggression_turns_holds_into_attacks_and_attacks_into_support() -> None:
    board = make_board(
        GM,
        "S1902M",
        {"FRANCE": ["A BUR", "A PAR", "F BRE"], "GERMANY": ["A MUN", "A RUH"]},
        {"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["MUN", "BER", "KIE"]},
    )
    options = unit_orders(board, "FRANCE")
    holds = {u: opts[0] for u, opts in options.items()}
    bold = Persona("bold", 0.8, 1.0, 0.5, "")  # attack chance 1
    out = with_persona(board, "FRANCE", holds, options, bold, Rng(1))
    assert out["A BUR"] in ("A BUR - MUN", "A BUR - RUH")  # at a German unit or centre
    assert with_persona(board, "FRANCE", holds, options, NEUTRAL, Rng(1)) == holds
    attacking = {**holds, "A BUR": "A BUR - MUN"}
    meek = Persona("meek", 0.8, 0.0, 0.5, "")  # restraint chance 1
    calm = with_persona(board, "FRANCE", attacking, options, meek, Rng(1))
    assert calm["A BUR"] == "A BUR S A PAR"  # supports a unit of ours that stays


@pytest.mark.slow  # seven full seven-bot games
def _totals(persona: str | None) -> dict[str, float]:
    """Conduct summed over three seeded games to 1902 (one game is too few for rates)."""
    out: dict[str, float] = {}
    for seed in (4, 5, 6):
        for k, v in _total(_play(persona, seed)).items():
            out[k] = out.get(k, 0.0) + v
    return out


def test_personas_differ_in_play_and_the_same_seed_replays() -> None:
    assert _total(_play(None)) == _total(_play(None))  # seeded: no state outside decisions
    free = _totals(None)
    cautious = _totals("cautious")
    aggressive = _totals("aggressive")
    deceptive = _totals("deceptive")
    loyal = _totals("loyal")
    opportunist = _totals("opportunist")

    def rate(c: dict[str, float], k: str) -> float:
        return c[k] / c["move_orders"]

    # aggression: attacks up, supports down; caution: the other way
    assert rate(cautious, "attacks") < rate(free, "attacks") < rate(aggressive, "attacks")
    assert rate(aggressive, "supports") < rate(free, "supports") < rate(cautious, "supports")
    # honesty: the persona-free bot never offers what its orders contradict; a
    # deceptive one does, and a loyal one breaks no deal
    assert free["lies"] == 0 < deceptive["lies"]
    assert loyal["deals_broken"] == 0 < loyal["deals_judged"]
    # talkativeness: proposals per phase
    per = {
        n: c["proposals"] / c["move_phases"]
        for n, c in [("free", free), ("cautious", cautious), ("opportunist", opportunist)]
    }
    assert per["cautious"] < per["free"] < per["opportunist"]


def test_talk_off_sends_nothing_and_answers_nothing() -> None:
    cfg = DiplomacyConfig(
        bots=SEVEN, mute=("ENGLAND",), end_year=1901, press_rounds=1, bots_talk_to_bots=True
    )
    game = DiplomacyGame.new(cfg, 4)
    n = 0
    while not game.is_terminal():
        d = game.pending()[0]
        assert not (d.seat == "ENGLAND" and d.purpose in ("gate", "reply", "initiate"))
        game.apply(d.id, MODULE.policy(game.view(d.seat), d, Rng(n)))
        n += 1
    press = [e for e in game.events if e.kind == "press"]
    assert press and all(e.data["from"] != "ENGLAND" for e in press)
    assert any(e.data["to"] == "ENGLAND" for e in press)  # others still write to England


def test_a_model_bot_is_told_its_persona_in_the_plan() -> None:
    from parlour.games.diplomacy.bot_prompts import command

    cfg = DiplomacyConfig(
        bots=SEVEN, personas={"FRANCE": "deceptive"}, press_rounds=1, bots_talk_to_bots=True
    )
    game = DiplomacyGame.new(cfg, 4)
    plans = {d.seat: d for d in game.pending() if d.purpose == "plan"}
    told = command(game.view("FRANCE"), plans["FRANCE"])
    assert told is not None and "Honesty: 0.2" in told and "contact up to 3 powers" in told
    free = command(game.view("ENGLAND"), plans["ENGLAND"])
    assert free is not None and "Honesty" not in free
    # the plan's agenda may name as many powers as the persona contacts
    assert plans["FRANCE"].json_schema is not None and plans["ENGLAND"].json_schema is not None
    assert plans["FRANCE"].json_schema["properties"]["agenda"]["maxItems"] == 3
    assert plans["ENGLAND"].json_schema["properties"]["agenda"]["maxItems"] == 2

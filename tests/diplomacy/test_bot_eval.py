"""`parlour eval diplomacy --bot bot:SPEC`: the bot rotated over the powers, never-stupid
counts per game, and persona vs persona-free (model-free: the scripted bot)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parlour.core.errors import ParlourError
from parlour.games.diplomacy.surface.evaluation import EvalParams, persona_variants, run_eval
from parlour.runtime.store import Store, db_url
from tests.conftest import CliRunner


def test_bot_eval_counts_never_stupid_per_game(tmp_path: Path) -> None:
    db = db_url(str(tmp_path / "bot.sqlite"))
    params = EvalParams(
        bot="bot(persona=aggressive):scripted",
        vs="dumbbot",
        games=2,
        end_year=1902,
        seed=5,
        db_url=db,
        options={"press_rounds": 1},
    )
    run = run_eval(params)
    one = next(o for o in run.outcomes if o.task.mode == "1v6")
    game = Store(db).get_game(one.game_id)
    assert game.seats[one.task.power] == "bot(persona=aggressive):scripted"
    config = json.loads(game.config)
    assert config["bots"] == [one.task.power]
    assert config["personas"] == {one.task.power: "aggressive"}
    for mode in run.summary["modes"].values():
        # the guards correct the plan before it is submitted: nothing stupid gets through
        assert mode["stupid_a_per_game"] == 0 and mode["stupid_a_games"] == [0, 0]
        assert mode["a_tokens_per_phase"] == 0  # the scripted bot makes no model call
    # six bots in 6v1: each of them is a bot power of that game
    six = next(o for o in run.outcomes if o.task.mode == "6v1")
    assert sorted(json.loads(Store(db).get_game(six.game_id).config)["bots"]) == sorted(
        six.a_powers
    )


def test_persona_variants_cover_persona_free_and_each_persona() -> None:
    got = persona_variants("bot(chat=500,persona=loyal):local")
    assert got[0] == ("persona-free", "bot(chat=500):local")
    assert ("cautious", "bot(persona=cautious,chat=500):local") in got
    assert len(got) == 6
    with pytest.raises(ParlourError, match="bot spec"):
        persona_variants("dumbbot")


def test_cli_persona_sweep_prints_one_line_per_persona(cli: CliRunner, tmp_path: Path) -> None:
    done = cli(
        "eval",
        "diplomacy",
        "--bot",
        "bot:scripted",
        "--vs",
        "dumbbot",
        "--personas",
        "--games",
        "2",
        "--end-year",
        "1901",
        "--seed",
        "2",
        "--out",
        str(tmp_path),
        "--db",
        str(tmp_path / "p.sqlite"),
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    for label in ("persona-free", "aggressive", "cautious", "loyal", "opportunist", "deceptive"):
        assert label in done.stdout
    (summaries,) = tmp_path.glob("eval-diplomacy-personas-*.json")
    assert set(json.loads(summaries.read_text())) >= {"persona-free", "deceptive"}


def test_never_stupid_counts_what_random_orders_break() -> None:
    """The count is not a constant 0: random legal orders break the rules often."""
    from parlour.core.random_answers import random_answer
    from parlour.core.rng import Rng
    from parlour.games.diplomacy.config import DiplomacyConfig
    from parlour.games.diplomacy.game import DiplomacyGame
    from parlour.games.diplomacy.guards import violations
    from parlour.games.diplomacy.surface.evaluation import never_stupid

    game = DiplomacyGame.new(DiplomacyConfig(end_year=1902), 3)
    n = 0
    while not game.is_terminal():
        d = game.pending()[0]
        game.apply(d.id, random_answer(d, Rng(n)))
        n += 1
    counts = never_stupid(game)
    assert sum(counts.values()) > 0
    first = game.state.history[0]
    board = game.board_at(first.phase)
    assert board is not None
    by_hand = sum(
        len(violations(board, p, {" ".join(t.split()[:2]): t for t in texts}))
        for p, texts in first.orders
    )
    assert by_hand <= sum(counts.values())

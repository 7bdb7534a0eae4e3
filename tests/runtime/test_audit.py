"""``parlour audit``: stored games replayed and scanned; a planted leak is caught, exit 1."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from parlour.games.registry import load
from parlour.runtime import session as sessions
from parlour.runtime.audit import audit_all, audit_game
from parlour.runtime.seating import SeatPlan
from parlour.runtime.store import Store
from tests.conftest import CliRunner
from tests.support.calls import make_call

MARKED: dict[str, dict[str, object]] = {
    "werewolf": {"plant_markers": True},
    "escape": {"plant_markers": True},
    "diplomacy": {"plant_markers": True, "end_year": 1902, "press_rounds": 1},
}


def scripted_game(store: Store, game: str, options: dict[str, object], seed: int = 3) -> str:
    plan = SeatPlan(default="scripted", system_default="scripted", overrides={})
    session = sessions.start(store, game, players=None, seed=seed, options=dict(options), plan=plan)
    assert asyncio.run(session.run()) is not None
    return session.game_id


def plant_leak(store: Store, game_id: str) -> tuple[str, str]:
    """Store a prompt that shows a seat a marker it may not know; return (seat, marker)."""
    row = store.get_game(game_id)
    module = load(row.game)
    game = module.game.new(module.game.config_model.model_validate_json(row.config), row.seed)
    first = store.actions(game_id)[0]
    markers = game.secret_markers()
    marker = next(m for m, allowed in markers.items() if first.seat not in allowed)
    store.record_call(
        make_call(
            game_id=game_id,
            seat=first.seat,
            decision_id=first.decision_id,
            purpose="test",
            messages=[{"role": "system", "content": "rules"}, {"role": "user", "content": marker}],
        )
    )
    return first.seat, marker


@pytest.mark.parametrize("game", sorted(MARKED))
def test_scripted_games_of_every_type_are_clean(store: Store, game: str) -> None:
    report = audit_game(store, scripted_game(store, game, MARKED[game]))
    assert report.status == "clean", [str(leak) for leak in report.leaks]
    players = [s for s in report.seats.values() if s.views > 1]
    assert len(players) == len(report.seats)  # every seat was scanned at every step


def test_a_leaking_stored_prompt_is_caught(store: Store) -> None:
    game_id = scripted_game(store, "werewolf", MARKED["werewolf"])
    seat, marker = plant_leak(store, game_id)
    report = audit_game(store, game_id)
    assert report.status == "leak"
    [leak] = report.leaks
    assert (leak.seat, leak.marker) == (seat, marker)
    assert "prompt of" in leak.where and "messages" not in leak.where


def test_games_without_markers_are_not_auditable_not_clean(store: Store) -> None:
    plain = scripted_game(store, "werewolf", {})
    marked = scripted_game(store, "escape", MARKED["escape"])
    reports = {r.game_id: r for r in audit_all(store)}
    assert reports[plain].status == "not auditable"
    assert "plant_markers=true" in reports[plain].note
    assert reports[marked].status == "clean"


def test_the_command_exits_1_on_a_leak_and_0_when_clean(
    cli_here: CliRunner, store: Store, db_path: Path
) -> None:
    clean = scripted_game(store, "escape", MARKED["escape"])
    plain = scripted_game(store, "werewolf", {})
    out = cli_here("audit", "--all", timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "1 clean, 0 leaking, 1 not auditable" in out.stdout
    out = cli_here("audit", plain, timeout=120)
    assert out.returncode == 2 and "not auditable" in out.stderr
    leaky = scripted_game(store, "werewolf", MARKED["werewolf"], seed=5)
    seat, marker = plant_leak(store, leaky)
    out = cli_here("audit", leaky, "--db", str(db_path), timeout=120)
    assert out.returncode == 1
    assert f"LEAK {leaky}: {seat} was given {marker}" in out.stdout
    assert cli_here("audit", clean, timeout=120).returncode == 0
    assert "give a game id or --all" in cli_here("audit", timeout=60).stderr


def test_all_summarises_unmarked_games_in_one_line_with_their_ids(
    cli_here: CliRunner, store: Store
) -> None:
    plain = [scripted_game(store, "werewolf", {}, seed=seed) for seed in (1, 2, 3)]
    scripted_game(store, "escape", MARKED["escape"])
    out = cli_here("audit", "--all", timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.count("no planted markers") == 1, out.stdout
    [line] = [ln for ln in out.stdout.splitlines() if "no planted markers" in ln]
    assert line.startswith("3 not auditable (")
    assert sorted(line.rsplit(": ", 1)[1].split(", ")) == sorted(plain), line
    assert "1 clean, 0 leaking, 3 not auditable" in out.stdout

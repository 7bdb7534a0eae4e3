"""The user's own callable in a seat, end to end: the CLI (a real subprocess with the
agent's module on PYTHONPATH), a tournament entrant, and the Python API on werewolf."""

from __future__ import annotations

from pathlib import Path

import pytest

import parlour
from parlour.core.decisions import Decision
from parlour.core.view import AnyView
from parlour.runtime.store import Store, db_url
from tests.conftest import CliRunner

AGENTS = '''
import asyncio

def cautious(view, decision):
    """Always the first legal option; says little."""
    if decision.kind == "free_text":
        return "I have nothing to add."
    if decision.kind == "choose_many":
        return [o.id for o in decision.options][: decision.min_choices]
    return decision.options[0].id

async def patient(view, decision):
    await asyncio.sleep(0)
    return cautious(view, decision)

def broken(view, decision):
    raise RuntimeError("my bug")
'''


@pytest.fixture
def agent_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "myagents.py").write_text(AGENTS, encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", str(folder))  # the cli fixture passes os.environ on
    return folder


def by_of(store: Store, game_id: str) -> dict[str, set[str]]:
    """seat → who answered its stored actions."""
    out: dict[str, set[str]] = {}
    for act in store.actions(game_id):
        out.setdefault(act.seat, set()).add(act.by)
    return out


def test_cli_seats_play_a_python_callable(cli: CliRunner, store: Store, agent_path: Path) -> None:
    done = cli(
        "watch", "werewolf", "--model", "scripted", "--seed", "5",
        "--seat", "p1=python:myagents:cautious",
        "--seat", "p2=python:myagents:patient",
        "--seat", "p3=python:myagents:broken",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    [row] = store.list_games()
    assert row.seats["p1"] == "python:myagents:cautious"
    by = by_of(store, row.id)
    assert by["p1"] == {"python:myagents:cautious"}
    assert by["p2"] == {"python:myagents:patient"}
    assert by["p3"] == {"fallback"}  # user code that raises never ends the game
    broken = [c for c in store.calls(row.id) if c.seat == "p3"]
    assert {c.outcome for c in broken} == {"error", "fallback"}
    assert all("RuntimeError: my bug" in c.error for c in broken if c.outcome == "error")
    cost = cli("cost", row.id)
    assert cost.returncode == 0 and "python:myagents:broken" in cost.stdout


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("python:nosuchmod:f", "no module named 'nosuchmod'"),
        ("python:myagents:nothing", "has no attribute 'nothing'"),
        ("agent:nobody", "no agent named 'nobody'"),
    ],
)
def test_cli_bad_agent_spec_is_one_line_and_stores_nothing(
    cli: CliRunner, db_path: Path, agent_path: Path, spec: str, says: str
) -> None:
    done = cli("watch", "werewolf", "--model", "scripted", "--seat", f"p1={spec}")
    assert done.returncode != 0
    assert says in done.stderr and "Traceback" not in done.stderr
    assert not db_path.exists() or Store(db_url(str(db_path))).list_games() == []


def test_cli_tournament_with_a_python_entrant(
    cli: CliRunner, tmp_path: Path, agent_path: Path
) -> None:
    done = cli(
        "tournament", "werewolf", "-e", "mine=python:myagents:cautious", "-e", "base=scripted",
        "--games", "2", "--seed", "3", "--report", str(tmp_path / "rep"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "python:myagents:cautious" in done.stdout and "mine" in done.stdout


def first_legal(view: AnyView, decision: Decision) -> object:
    """An importable agent: the API stores it under its python: spec."""
    if decision.kind == "free_text":
        return "Let us think before we vote."
    if decision.kind == "choose_many":
        return [o.id for o in decision.options][: decision.min_choices]
    return decision.options[0].id


def test_api_plays_werewolf_with_callables(tmp_path: Path) -> None:
    def say_nonsense(view: AnyView, decision: Decision) -> object:  # a closure: agent:NAME
        return 42

    db = tmp_path / "api.sqlite"
    game = parlour.play(
        "werewolf", seats={"p1": first_legal, "Aiko": say_nonsense}, seed=11, db=str(db)
    )
    assert db.exists()
    assert game.seats["p1"] == "python:tests.runtime.test_python_agents:first_legal"
    assert game.seats["p2"] == "agent:say_nonsense"
    assert game.result.winners and set(game.winners) <= set(game.names)
    by = {a.seat: a.by for a in game.actions()}
    assert by["p1"] == game.seats["p1"] and by["p2"] == "fallback"
    assert any(c.seat == "p1" and c.outcome == "valid" for c in game.calls())
    mine = game.transcript("p1")
    assert 0 < len(mine) < len(game.transcript())  # the seat's own view is a subset
    assert "Kenji" in game.text("p1")
    again = parlour.play(
        "werewolf", seats={"p1": first_legal, "Aiko": say_nonsense}, seed=11, db=str(db)
    )
    assert [a.action for a in again.actions()] == [a.action for a in game.actions()]


def test_api_by_default_leaves_no_file_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    game = parlour.play("werewolf", [first_legal, "random"], seed=2)
    assert game.seats["p1"].endswith(":first_legal") and game.seats["p2"] == "random"
    assert list(tmp_path.iterdir()) == []
    assert game.store.url.startswith("sqlite:///") and "parlour-" in game.store.url


def test_api_tournament_rates_a_callable(tmp_path: Path) -> None:
    table = parlour.run_tournament(
        "werewolf",
        {"mine": first_legal, "base": "scripted"},
        games=2,
        seed=4,
        db=str(tmp_path / "t.sqlite"),
    )
    rows = {r["entrant"]: r for r in table.rows()}
    assert rows["mine"]["spec"].endswith(":first_legal") and rows["base"]["spec"] == "scripted"
    assert table.summary.played == 2
    assert "mine" in str(table)


def test_a_game_with_a_python_seat_resumes_exactly(tmp_path: Path) -> None:
    """Stopped after a few batches and resumed (the stored spec is resolved again), the
    game ends exactly as one played straight through."""
    import asyncio

    from parlour.runtime import session as sessions

    spec = "python:tests.runtime.test_python_agents:first_legal"
    store = Store(db_url(str(tmp_path / "resume.sqlite")))
    whole = parlour.play("werewolf", seats={"p2": spec}, seed=21, db=store)
    planned = sessions.plan(store, "werewolf", seed=21, model="scripted", seats={"p2": spec})
    first = sessions.start_planned(store, planned)
    assert asyncio.run(first.run(max_batches=3)) is None
    again = sessions.resume(store, first.game_id)
    assert asyncio.run(again.run()) == whole.result
    stored = [(a.action, a.by) for a in store.actions(first.game_id)]
    assert stored == [(a.action, a.by) for a in whole.actions()]
    assert {a.by for a in whole.actions() if a.seat == "p2"} == {spec}

"""Seat specs are parsed once into types, and ``session.plan`` decides who plays what."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest

from parlour.core.errors import ParlourError
from parlour.games.registry import load
from parlour.models.base import Capabilities
from parlour.runtime import session as sessions
from parlour.runtime.llm_seating import LlmFactory
from parlour.runtime.seating import (
    ChaosSpec,
    HumanSpec,
    ModelSpec,
    PolicySpec,
    RandomSpec,
    ReplaySpec,
    is_model,
    module_spec,
    parse_seat_spec,
)
from parlour.runtime.store import Store, db_url

FIXTURES = Path(__file__).parents[1] / "fixtures"
RECORDED = json.loads((FIXTURES / "werewolf_local.json").read_text())


@pytest.fixture
def recorded(tmp_path: Path) -> Store:
    path = tmp_path / "recorded.sqlite"
    shutil.copy(FIXTURES / "werewolf_local.sqlite", path)
    return Store(db_url(str(path)))


def test_every_form_parses_into_its_type() -> None:
    policies = ("dumbbot", "hold")
    assert parse_seat_spec("scripted") == PolicySpec("scripted")
    assert parse_seat_spec("dumbbot", policies) == PolicySpec("dumbbot")
    assert parse_seat_spec("random") == RandomSpec()
    assert parse_seat_spec("human") == HumanSpec()
    assert parse_seat_spec("openai(format=json_object):llama3.1:8b") == ModelSpec(
        "openai(format=json_object):llama3.1:8b", "openai"
    )
    assert parse_seat_spec("replay:we-1") == ReplaySpec("we-1")
    assert parse_seat_spec("replay(strict=false):we-1") == ReplaySpec("we-1", strict=False)
    chaos = parse_seat_spec("chaos(rate=0.3,seed=4,kinds=timeout|empty):dumbbot", policies)
    assert chaos == ChaosSpec(PolicySpec("dumbbot"), 0.3, 4, ("timeout", "empty"))
    nested = parse_seat_spec("chaos(rate=1):replay(strict=false):we-1")
    assert isinstance(nested, ChaosSpec) and nested.inner == ReplaySpec("we-1", strict=False)
    assert [is_model(parse_seat_spec(s)) for s in ("local", "chaos:scripted", "chaos:local")] == [
        True,
        False,
        True,
    ]
    # The text round-trips, so a stored seating parses back to the same spec.
    for text in ("replay(strict=false):we-1", "chaos(rate=0.3):scripted", "local"):
        assert parse_seat_spec(parse_seat_spec(text).text) == parse_seat_spec(text)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("gpt9", "'gpt9' is no policy of this game and no model"),
        ("dumbbot", "'dumbbot' is no policy"),  # a Diplomacy bot is not a werewolf policy
        ("chaos(rate=2):scripted", "rate must be a number between 0 and 1"),
        ("chaos(rate=0.1)", "chaos wraps another spec"),
        ("chaos(speed=1):local", "chaos has no option speed"),
        ("chaos:human", "chaos cannot wrap a human"),
        ("chaos(kinds=gremlins):local", "chaos kinds are"),
        ("replay", "replay needs a stored game id"),
        ("replay(strict=maybe):x", "strict must be true or false"),
        ("(", "it is not NAME"),
    ],
)
def test_bad_specs_say_why_and_name_the_valid_forms(text: str, why: str) -> None:
    with pytest.raises(ParlourError) as err:
        module_spec(text, load("werewolf"))
    message = str(err.value)
    assert why in message and "\n" not in message
    assert "valid forms: scripted, random, human" in message and "chaos(rate=R" in message


def test_plan_merges_human_options_and_builds_the_game_once_more_only_then(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(db_url(str(tmp_path / "p.sqlite")))
    game_type = load("werewolf").game
    built: list[int] = []
    original = game_type.new.__func__  # type: ignore[attr-defined]

    def counting_new(cls: type, config: object, seed: int) -> object:
        built.append(seed)
        return original(cls, config, seed)

    monkeypatch.setattr(game_type, "new", classmethod(counting_new))
    sessions.plan(store, "werewolf", seed=3, model="scripted")
    assert len(built) == 1
    planned = sessions.plan(
        store, "werewolf", seed=3, model="scripted", human="2", options={"open_mic": []}
    )
    assert len(built) == 3  # the human's open mic changed the rules: built once more
    session = sessions.start_planned(store, planned)
    assert len(built) == 3 and session.game is planned.game  # starting builds nothing
    assert planned.humans == ("p2",)
    assert tuple(planned.config.open_mic) == ("p2",)  # type: ignore[attr-defined]
    assert planned.game.config == planned.config
    monkeypatch.undo()
    store = Store(db_url(str(tmp_path / "q.sqlite")))
    assert planned.specs["router"] == PolicySpec("scripted")
    drawn = sessions.plan(store, "werewolf", seed=3, model="scripted", random_human=True)
    again = sessions.plan(store, "werewolf", seed=3, model="scripted", random_human=True)
    assert drawn.humans == again.humans and len(drawn.humans) == 1
    assert store.list_games() == []  # planning stores nothing


def test_the_embedded_model_is_too_small_for_escapes_classifier(tmp_path: Path) -> None:
    store = Store(db_url(str(tmp_path / "p.sqlite")))
    llm = LlmFactory(store=store)
    default = sessions.plan(store, "escape", seed=1, model="local", llm=llm, probe=False)
    assert default.specs["classifier"] == PolicySpec("scripted")
    # The narrator too since its narrations were replaced 71-78% of the time (docs/benchmarks.md).
    assert default.specs["narrator"] == PolicySpec("scripted")
    assert default.specs["player"] == ModelSpec("local", "local")
    assert any("Classifier: scripted" in note for note in default.notes)
    assert any("Narrator: scripted" in note for note in default.notes)
    # The rule comes from the backend's capability, not from the spec's name...
    assert llm.capabilities(ModelSpec("local", "local")) == Capabilities(
        json_schema=True, grammar=True, prompt_cache=True, small=True, embeddings=True
    )
    assert not llm.capabilities(ModelSpec("local:/tmp/big.gguf", "local")).small
    chaotic = sessions.plan(
        store, "escape", seed=1, model="chaos(rate=0.1):local", llm=llm, probe=False
    )
    assert chaotic.specs["classifier"] == PolicySpec("scripted")
    # ...and a seat override wins.
    asked = sessions.plan(
        store, "escape", seed=1, model="local", seats=["classifier=local"], llm=llm, probe=False
    )
    assert asked.specs["classifier"] == ModelSpec("local", "local")
    assert not any("Classifier" in note for note in asked.notes)  # only the narrator's note


def test_replay_takes_the_recorded_seed_config_and_seating(recorded: Store) -> None:
    gid = RECORDED["game_id"]
    planned = sessions.plan(recorded, "werewolf", model=f"replay:{gid}", probe=False)
    row = recorded.get_game(gid)
    assert planned.seed == row.seed == RECORDED["seed"]
    # The same rules: settings added since the recording take defaults that keep them.
    assert planned.config == type(planned.config).model_validate_json(row.config)
    assert planned.config.model_dump()["plans"] is False  # recorded before day plans existed
    assert planned.specs["router"] == ReplaySpec(gid)  # the model routed in the recording
    # Options that agree are fine; one that contradicts is refused in one line.
    sessions.plan(
        recorded,
        "werewolf",
        model=f"replay:{gid}",
        players=RECORDED["players"],
        seed=RECORDED["seed"],
        options=RECORDED["options"],
        probe=False,
    )
    for kwargs, says in (
        ({"seed": 12}, "--seed 12 contradicts"),
        ({"players": 7}, "--players contradicts"),
        ({"options": {"messages_per_player": 3}}, "--set messages_per_player contradicts"),
    ):
        with pytest.raises(ParlourError, match=says):
            sessions.plan(recorded, "werewolf", model=f"replay:{gid}", probe=False, **kwargs)
    with pytest.raises(ParlourError, match="recorded a werewolf game, not diplomacy"):
        sessions.plan(recorded, "diplomacy", model=f"replay:{gid}", probe=False)


def test_chaos_seeds_differ_per_game_and_actions_credit_who_answered(recorded: Store) -> None:
    """F7: no fixed default seed; ``actions.by`` says fallback or the chaos answer."""
    spec = f"chaos(rate=0.4):replay(strict=false):{RECORDED['game_id']}"
    logs, bys = [], set()
    for seed in (1, 2, 3):
        planned = sessions.plan(
            recorded, "werewolf", seed=seed, model=spec, options=RECORDED["options"]
        )
        session = sessions.start_planned(recorded, planned)
        asyncio.run(session.run())
        calls = recorded.calls(session.game_id)
        logs.append([(c.seat, c.outcome, c.response_text) for c in calls])
        actions = recorded.actions(session.game_id)
        bys |= {a.by for a in actions}
        fell_back = {c.decision_id for c in calls if c.outcome == "fallback"}
        for act in actions:
            if act.decision_id in fell_back:
                assert act.by == "fallback", act
    assert len({json.dumps(log) for log in logs}) == 3
    assert "fallback" in bys and "local:SmolLM2-135M-Instruct.Q4_1" in bys


def test_chaos_wraps_a_scripted_seat(tmp_path: Path) -> None:
    store = Store(db_url(str(tmp_path / "c.sqlite")))
    planned = sessions.plan(store, "werewolf", seed=4, model="chaos(rate=0.5):scripted")
    assert planned.llm is None  # no model anywhere
    session = sessions.start_planned(store, planned)
    assert asyncio.run(session.run()) is not None
    bys = [a.by for a in store.actions(session.game_id)]
    assert "fallback" in bys and "scripted" in bys

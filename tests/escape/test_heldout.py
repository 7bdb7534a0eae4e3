"""The held-out label sets, the "which did you mean?" reply, and the eval's --set option."""

from __future__ import annotations

import json

import pytest

from parlour.core.actions import Choice, Choices, Text
from parlour.core.rng import Rng
from parlour.games.escape import EscapeGame, load_scenario
from parlour.games.escape.evaluate import evaluate_classifier
from parlour.games.escape.keyword_classifier import classify
from parlour.games.escape.labels import check_labels, labels_path, load_labels
from parlour.games.escape.loader import shipped_names
from parlour.games.escape.policies import escape_policy
from parlour.games.escape.scenario import ScenarioError
from tests.conftest import CliRunner

from .helpers import SHIPPED, config
from .test_classifier import keyword


@pytest.mark.parametrize("name", SHIPPED)
def test_heldout_sets_load_and_every_label_names_a_real_available_action(name: str) -> None:
    heldout, tuning = load_labels(name, "heldout"), load_labels(name)
    scenario = load_scenario(name)
    assert labels_path(name, "heldout").name == f"{name}.heldout.yaml"
    assert heldout.scenario == name and len(heldout.cases) >= 80
    assert check_labels(scenario, heldout) == []  # ids exist and are available there
    assert {c.expect for c in heldout.cases} <= {*scenario.ids, "none"}
    # Written separately: no message of the tuning set is repeated in the held-out set.
    assert not {c.message.lower() for c in heldout.cases} & {
        c.message.lower() for c in tuning.cases
    }
    assert sum(c.expect == "none" for c in heldout.cases) >= 25
    assert len({c.state for c in heldout.cases}) >= 6


def test_heldout_files_are_not_scenarios_and_unknown_sets_are_refused() -> None:
    assert list(shipped_names()) == sorted(SHIPPED)  # no .labels/.heldout/.check/.blind file
    with pytest.raises(ScenarioError, match="use one of: tuning, heldout, check"):
        load_labels("ghost_room", "training")


#: Measured on the held-out sets (docs/benchmarks.md). Before issue 12's classifier work:
#: ghost_room 72.6% / 1, stalled_lift 80.6% / 7; then 81.1% / 0 and 77.6% / 3; with head
#: nouns (roles.py) 91.5% / 0 and 91.8% / 0. The held-out sets' mistakes were read and
#: tuned on for that last step, so these pin figures but no longer prove generalisation:
#: the blind sets (``<name>.blind.yaml``) do that.
#: After the generalisation step (phrasing.py, typos.py) and the blind2 fix: 99.1% / 0 and
#: 94.9% / 0. After the fourth step (blind3 read): 99.1% / 0 and 95.9% / 0.
HELDOUT_FLOORS = {"ghost_room": (0.99, 0), "stalled_lift": (0.95, 0)}


@pytest.mark.parametrize("name", SHIPPED)
async def test_keyword_classifier_heldout_floor(name: str) -> None:
    score = await evaluate_classifier(keyword, load_scenario(name), load_labels(name, "heldout"))
    print(f"{name} heldout: {score.summary()}")
    floor, most_wrong = HELDOUT_FLOORS[name]
    assert score.invalid == 0 and score.total == len(load_labels(name, "heldout").cases)
    assert score.accuracy >= floor, score.summary()
    assert score.wrongly_advanced <= most_wrong, [m for m in score.mistakes if m.advanced]


def test_close_scores_ask_only_when_the_decision_offers_it() -> None:
    buttons = [("press_red", "press the red button"), ("press_green", "press the green button")]
    assert classify("press the button", buttons) == "none"
    assert classify("press the button", [*buttons, ("ask", "ask")]) == "ask"
    assert classify("press the green button", [*buttons, ("ask", "ask")]) == "press_green"


def _step(game: EscapeGame, rng: Rng) -> None:
    decision = game.pending()[0]
    game.apply(decision.id, escape_policy(game.view(decision.seat), decision, rng))


def test_ambiguous_message_gets_which_did_you_mean_and_advances_nothing() -> None:
    game = EscapeGame.new(config("ghost_room"), 7)
    rng = Rng(0)
    game.apply("t1:act", Text(text="press the button"))
    (classify_decision,) = game.pending()
    assert "ask" in classify_decision.option_ids
    _step(game, rng)  # the keyword classifier hesitates between the two buttons: ask
    (clarify,) = game.pending()
    assert (clarify.id, clarify.purpose, clarify.min_choices, clarify.max_choices) == (
        "t1:clarify",
        "clarify",
        2,
        2,
    )
    _step(game, rng)
    reply = game.events[-1]
    assert reply.kind == "reply" and reply.data["command"] == "ask"
    assert set(reply.data["candidates"]) == {"press_red", "press_green"}
    assert reply.text.startswith("Which did you mean: press the ")
    assert "or press the" in reply.text and "Nothing has happened yet" in reply.text
    assert game.done == () and not game.is_terminal()
    # No turn passed: the player answers, and the same turn classifies again.
    (act,) = game.pending()
    assert act.id == "t1:act2"
    game.apply("t1:act2", Text(text="the green one, press green"))
    assert game.pending()[0].id == "t1:classify2"
    game.apply("t1:classify2", Choice(option="press_green"))
    assert game.done == ("press_green",)


def test_asking_is_bounded_per_turn_like_commands() -> None:
    game = EscapeGame.new(config("ghost_room"), 7)
    asks = 0
    for _ in range(6):
        act = game.pending()[0]
        game.apply(act.id, Text(text="press the button"))
        classify_decision = game.pending()[0]
        if "ask" not in classify_decision.option_ids:
            break
        game.apply(classify_decision.id, Choice(option="ask"))
        asks += 1
        clarify = game.pending()[0]
        game.apply(clarify.id, Choices(options=("press_red", "press_green")))
    assert asks == 5  # five asks, then the sixth message must be classified for real
    game.apply(classify_decision.id, Choice(option="none"))
    assert game.pending()[0].purpose == "narrate"


def test_eval_scores_the_heldout_set_in_a_subprocess(cli: CliRunner) -> None:
    out = cli("eval", "escape", "--model", "scripted", "--set", "heldout", "--json")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout.strip().splitlines()[-1])
    assert {r["scenario"] for r in rows} == set(SHIPPED)
    for row in rows:
        cases = len(load_labels(str(row["scenario"]), "heldout").cases)
        assert row["set"] == "heldout" and row["total"] == cases
        assert row["correct"] == round(row["accuracy"] * cases)
    assert "heldout set" in out.stdout
    bad = cli("eval", "escape", "--model", "scripted", "--set", "training")
    assert bad.returncode != 0 and "--set must be one of: tuning, heldout, check" in bad.stderr


#: The blind sets (``<name>.blind.yaml``), written by another engineer from the scenario
#: files alone, scored once after the head-noun classifier was frozen (docs/benchmarks.md):
#: ghost_room 83.3% / 0 wrongly advanced, stalled_lift 78.3% / 2. The issue's target is not
#: reached there. Their mistakes were then read and the generalisation step (phrasing.py,
#: typos.py) was made with them in view, so they are tuning data now: 96.7% / 0, 90.0% / 0
#: (after the blind2 fix).
#: After the fifth step (blind4 read): 98.3% / 0 and 91.7% / 0.
BLIND_FLOORS = {"ghost_room": (0.98, 0), "stalled_lift": (0.91, 0)}


@pytest.mark.parametrize("name", SHIPPED)
async def test_blind_sets_are_sound_and_pin_the_measured_figures(name: str) -> None:
    blind = load_labels(name, "blind")
    assert labels_path(name, "blind").name == f"{name}.blind.yaml"
    assert blind.scenario == name and len(blind.cases) == 60
    assert check_labels(load_scenario(name), blind) == []
    assert name in shipped_names()  # a label file is never mistaken for a scenario
    score = await evaluate_classifier(keyword, load_scenario(name), blind)
    floor, most_wrong = BLIND_FLOORS[name]
    assert score.invalid == 0 and score.total == 60
    assert score.accuracy >= floor, score.summary()
    assert score.wrongly_advanced <= most_wrong, [m for m in score.mistakes if m.advanced]


#: blind2 (``<name>.blind2.yaml``), written by another engineer without seeing the
#: classifier or any set, scored once after the generalisation step was frozen (85bfb5f):
#: ghost_room 91.7% / 0, stalled_lift 90.0% / 2 wrongly advanced ("use the phone", "press a
#: button"). Both defects were then fixed (light verbs name only head nouns; an unspecific
#: order asks; a strong unnamed match must be about the option's things): 91.7% / 0 and
#: 91.7% / 0. blind2 is therefore no longer blind either. After the fourth step: 93.3% / 0
#: and 93.3% / 0.
BLIND2_FLOORS = {"ghost_room": (0.93, 0), "stalled_lift": (0.93, 0)}


@pytest.mark.parametrize("name", SHIPPED)
async def test_blind2_sets_are_sound_and_pin_the_measured_figures(name: str) -> None:
    blind2 = load_labels(name, "blind2")
    assert labels_path(name, "blind2").name == f"{name}.blind2.yaml"
    assert blind2.scenario == name and len(blind2.cases) == 60
    assert check_labels(load_scenario(name), blind2) == []
    score = await evaluate_classifier(keyword, load_scenario(name), blind2)
    floor, most_wrong = BLIND2_FLOORS[name]
    assert score.invalid == 0
    assert score.accuracy >= floor, score.summary()
    assert score.wrongly_advanced <= most_wrong, [m for m in score.mistakes if m.advanced]


#: blind3 (``<name>.blind3.yaml``), written by a third engineer from the scenario files
#: alone, committed as written (c6d58a0) and scored once by the lead at the classifier of
#: b0a5fd2 (unchanged since 1f7c0ce): ghost_room 85.0% / 0 (asked 3), stalled_lift 93.3% / 2
#: wrongly advanced ("press the button", "the newspaper"). Its mistakes are read from here
#: on, so it is tuning data too: after the fourth step (tests/escape/test_classifier_blind3.py)
#: 100.0% / 0 and 96.7% / 0 (tuned figures, not blind ones).
BLIND3_FLOORS = {"ghost_room": (1.0, 0), "stalled_lift": (0.96, 0)}


@pytest.mark.parametrize("name", SHIPPED)
async def test_blind3_sets_are_sound_and_pin_the_measured_figures(name: str) -> None:
    blind3 = load_labels(name, "blind3")
    assert labels_path(name, "blind3").name == f"{name}.blind3.yaml"
    assert blind3.scenario == name and len(blind3.cases) == 60
    assert check_labels(load_scenario(name), blind3) == []
    score = await evaluate_classifier(keyword, load_scenario(name), blind3)
    floor, most_wrong = BLIND3_FLOORS[name]
    assert score.invalid == 0 and score.total == 60
    assert score.accuracy >= floor, score.summary()
    assert score.wrongly_advanced <= most_wrong, [m for m in score.mistakes if m.advanced]


#: blind4 (``<name>.blind4.yaml``), written by a fourth engineer from the scenario files
#: alone, committed as written (7716f35) and scored once by the lead at f045a10 (the
#: classifier frozen at 67dd76e): ghost_room 88.3% / 0 wrongly advanced (asked 3),
#: stalled_lift 91.7% / 0 (asked 2); without the messages repeated word for word from older
#: sets, 89.2% / 0 (33/37) and 90.0% / 0 (36/40). Its mistakes are read from here on, so it
#: is tuning data too: after the fifth step (tests/escape/test_classifier_blind4.py) 96.7% / 0
#: and 96.7% / 0 (tuned figures, not blind ones).
BLIND4_FLOORS = {"ghost_room": (0.96, 0), "stalled_lift": (0.96, 0)}


@pytest.mark.parametrize("name", SHIPPED)
async def test_blind4_sets_are_sound_and_pin_the_measured_figures(name: str) -> None:
    blind4 = load_labels(name, "blind4")
    assert labels_path(name, "blind4").name == f"{name}.blind4.yaml"
    assert blind4.scenario == name and len(blind4.cases) == 60
    assert check_labels(load_scenario(name), blind4) == []
    score = await evaluate_classifier(keyword, load_scenario(name), blind4)
    floor, most_wrong = BLIND4_FLOORS[name]
    assert score.invalid == 0 and score.total == 60
    assert score.accuracy >= floor, score.summary()
    assert score.wrongly_advanced <= most_wrong, [m for m in score.mistakes if m.advanced]


#: blind5 (``<name>.blind5.yaml``), written by a fifth engineer the same way and scored once
#: by the lead at the classifier frozen at b7298a7: 88.3% / 0 and 93.3% / 2 wrongly advanced
#: (docs/benchmarks.md). Nobody has tuned on it; the floors pin what was measured, so a change
#: that makes the classifier worse on unseen phrasing fails here.
BLIND5_FLOORS = {"ghost_room": (0.88, 0), "stalled_lift": (0.93, 2)}


@pytest.mark.parametrize("name", SHIPPED)
async def test_blind5_sets_are_sound_and_pin_the_measured_figures(name: str) -> None:
    blind5 = load_labels(name, "blind5")
    assert labels_path(name, "blind5").name == f"{name}.blind5.yaml"
    assert blind5.scenario == name and len(blind5.cases) == 60
    assert check_labels(load_scenario(name), blind5) == []
    score = await evaluate_classifier(keyword, load_scenario(name), blind5)
    floor, most_wrong = BLIND5_FLOORS[name]
    assert score.invalid == 0 and score.total == 60
    assert score.accuracy >= floor, score.summary()
    assert score.wrongly_advanced <= most_wrong, [m for m in score.mistakes if m.advanced]

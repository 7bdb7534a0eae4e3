"""The held-out label sets, the "which did you mean?" reply, and the eval's --set option."""

from __future__ import annotations

import json

import pytest

from benchmarks.escape_labels import INDEX, LABEL_SETS, NOT_TUNED_ON, labels_path, load_labels
from parlour.core.actions import Choice, Choices, Text
from parlour.core.rng import Rng
from parlour.games.escape import EscapeGame, load_scenario
from parlour.games.escape.evaluate import evaluate_classifier
from parlour.games.escape.keyword_classifier import classify
from parlour.games.escape.labels import check_labels
from parlour.games.escape.loader import shipped_names
from parlour.games.escape.policies import escape_policy
from parlour.games.escape.scenario import ScenarioError
from parlour.games.escape.surface.evaluation import labels_for
from tests.conftest import CliRunner

from .helpers import SHIPPED, config, options_in
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
#: After the sixth step (blind5 read): 99.1% / 0 and 98.0% / 0. Since a message naming
#: the thing two actions are about is asked about (``understand.vague_group``), ghost_room
#: 98.1% / 0: "push one of the brass buttons" (labelled none) asks which (understood 99.1%).
HELDOUT_FLOORS = {"ghost_room": (0.98, 0), "stalled_lift": (0.97, 0)}


@pytest.mark.parametrize("name", SHIPPED)
async def test_keyword_classifier_heldout_floor(name: str) -> None:
    score = await evaluate_classifier(keyword, load_scenario(name), load_labels(name, "heldout"))
    print(f"{name} heldout: {score.summary()}")
    floor, most_wrong = HELDOUT_FLOORS[name]
    assert score.invalid == 0 and score.total == len(load_labels(name, "heldout").cases)
    assert score.accuracy >= floor, score.summary()
    assert score.wrongly_advanced <= most_wrong, [m for m in score.mistakes if m.advanced]


def test_close_scores_ask_only_when_the_message_tells_two_options_apart() -> None:
    buttons = [("press_red", "press the red button"), ("press_green", "press the green button")]
    # The ask-vs-none rule (labels.py): "press the button" says nothing that tells the two
    # buttons apart, so it is none, offered ask or not; the label sets say none too.
    assert classify("press the button", buttons) == "none"
    assert classify("press the button", [*buttons, ("ask", "ask")]) == "none"
    assert classify("press the green button", [*buttons, ("ask", "ask")]) == "press_green"
    # A message that says something of each of two options asks which one was meant.
    ghost = options_in("ghost_room")
    assert classify("go look at the woman in the painting", ghost) == "ask"
    assert classify("go look at the woman in the painting", ghost[:-1]) == "none"


#: Says something of the painting (examine it) and of the woman (the ghost): asks which.
TWO_WAYS = "go look at the woman in the painting"


def _step(game: EscapeGame, rng: Rng) -> None:
    decision = game.pending()[0]
    game.apply(decision.id, escape_policy(game.view(decision.seat), decision, rng))


def test_ambiguous_message_gets_which_did_you_mean_and_advances_nothing() -> None:
    game = EscapeGame.new(config("ghost_room"), 7)
    rng = Rng(0)
    game.apply("t1:act", Text(text=TWO_WAYS))
    (classify_decision,) = game.pending()
    assert "ask" in classify_decision.option_ids
    _step(game, rng)  # the keyword classifier hesitates between the painting and the ghost
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
    assert set(reply.data["candidates"]) == {"examine_painting", "talk_to_ghost"}
    assert reply.text.startswith("Which did you mean: ")
    assert " or " in reply.text and "Nothing has happened yet" in reply.text
    assert game.done == () and not game.is_terminal()
    # No turn passed: the player answers, and the same turn classifies again.
    (act,) = game.pending()
    assert act.id == "t1:act2"
    game.apply("t1:act2", Text(text="the painting"))
    assert game.pending()[0].id == "t1:classify2"
    game.apply("t1:classify2", Choice(option="examine_painting"))
    assert game.done == ("examine_painting",)


def test_asking_is_bounded_per_turn_like_commands() -> None:
    game = EscapeGame.new(config("ghost_room"), 7)
    asks = 0
    for _ in range(6):
        act = game.pending()[0]
        game.apply(act.id, Text(text=TWO_WAYS))
        classify_decision = game.pending()[0]
        if "ask" not in classify_decision.option_ids:
            break
        game.apply(classify_decision.id, Choice(option="ask"))
        asks += 1
        clarify = game.pending()[0]
        game.apply(clarify.id, Choices(options=("examine_painting", "talk_to_ghost")))
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


#: Floors per blind set and scenario: (accuracy, most wrongly advanced). Each blind set was
#: written by another engineer from the scenario files alone, committed as written and scored
#: once by the lead at a frozen classifier (docs/benchmarks.md has every honest figure):
#:
#: * blind: 83.3% / 0 and 78.3% / 2 at a4c91e0; then read for the generalisation step
#:   (phrasing.py, typos.py), so tuning data: after the fifth step 98.3% / 0 and 91.7% / 0.
#: * blind2: 91.7% / 0 and 90.0% / 2 at 85bfb5f ("use the phone", "press a button"); both
#:   defects then fixed; after the fourth step 93.3% / 0 and 93.3% / 0.
#: * blind3: 85.0% / 0 and 93.3% / 2 at b0a5fd2 ("press the button", "the newspaper"); then
#:   tuned on (tests/escape/test_classifier_blind3.py): 100.0% / 0 and 96.7% / 0.
#: * blind4: 88.3% / 0 and 91.7% / 0 at f045a10 (89.2% and 90.0% without the messages repeated
#:   from older sets); then tuned on (test_classifier_blind4.py): 96.7% / 0 and 96.7% / 0.
#: * blind5: 88.3% / 0 and 93.3% / 2 at 25a7998 (the classifier frozen at b7298a7); then
#:   tuned on (test_classifier_blind5.py): 98.3% / 0 and 96.7% / 0.
#: * blind6: 86.7% / 0 and 85.0% / 1 at fafb430 ("newspaper" alone read the newspaper);
#:   then tuned on for the seventh step (the ask-vs-none rule, labels.py): 90.0% / 0 and
#:   88.3% / 0. That rule cost blind2's stalled_lift two object words alone labelled with
#:   an action ("newspaper", "hatch"): 91.7% / 0.
#: * blind7: 95.0% / 0 and 91.7% / 1 at 68a5a9f ("call for help" once the phone works,
#:   labelled none as fitting the phone call and the shout alike, shouted); then tuned on
#:   for the eighth step (test_classifier_blind7.py): 98.3% / 0 and 95.0% / 0 (blind6's
#:   stalled_lift 90.0% / 0).
#: * blind8: 93.3% / 0 and 90.0% / 1 at 2a04b56 (the object word "phone" alone, labelled
#:   none as the ask-vs-none rule says, called the night desk: the one option naming it);
#:   then tuned on for the ninth step (test_classifier_blind8.py: an object word or noun
#:   phrase alone never acts, a label alone, a thing that would help, "X, is that you?"):
#:   95.0% / 0 and 96.7% / 0 (blind's stalled_lift 95.0% / 0 by "press G").
#: * blind9: 88.3% / 1 and 90.0% / 0 at abd0abf ("tell the ghost her name is Marguerite"
#:   before talking to her, labelled none, talked to her); now tuning data like the others
#:   (read with ``--mistakes blind9`` for the tenth step, tests/escape/test_classifier_blind9.py).
#:   Its row below stays its honest frozen score (0.88 / 1, 0.90 / 0); at the tenth step's
#:   freeze it measures 100.0% / 0 and 98.3% / 0, tuned on.
#:
#: * blind10, blind11, blind12: each written by a different engineer, scored once at 054cda3
#:   (the tenth step's freeze): 96.7% / 0 and 100.0% / 0; 93.3% / 0 and 96.7% / 0; 91.7% / 1
#:   ("hit red and green at the same time", labelled none, pressed red) and 91.7% / 0. About
#:   half of each repeats an older set's message word for word. Their rows below stay these
#:   honest frozen scores; from the eleventh step on they are tuning data (read with
#:   ``--mistakes blind10`` etc., tests/escape/test_classifier_blind10.py): at the eleventh
#:   step's freeze all three measure 100.0% / 0 on both scenarios, tuned on.
#: * blind13, blind14, blind15: each written by a different engineer, scored once at 0b952ce
#:   (the eleventh step's freeze): 90.0% / 0 and 96.7% / 0; 98.3% / 0 and 93.3% / 1 ("open
#:   the door" at the start of the lift, labelled none, opened the phone door); 96.7% / 0
#:   and 91.7% / 0. Their rows below stay these honest frozen scores; from the twelfth step
#:   on they are tuning data (``--mistakes blind13`` etc.,
#:   tests/escape/test_classifier_unoffered.py).
#: * blind16, blind17, blind18: each written by a different engineer, scored once at 7d810dc
#:   (the twelfth step's freeze): 98.3% / 0 and 96.7% / 0; 98.3% / 0 and 93.3% / 0; 96.7% / 0
#:   and 96.7% / 0. Not tuned on (``NOT_TUNED_ON``): these are the fair figures.
#:
#: Raised at the tenth step's freeze (tuned sets, measured, never a blind figure): blind
#: 1.0 / 0.96, blind4's ghost_room 1.0, blind6's ghost_room 0.95, blind7 1.0 / 0.96.
BLIND_FLOORS: dict[str, dict[str, tuple[float, int]]] = {
    "blind": {"ghost_room": (1.0, 0), "stalled_lift": (0.96, 0)},
    "blind2": {"ghost_room": (0.93, 0), "stalled_lift": (0.91, 0)},
    "blind3": {"ghost_room": (1.0, 0), "stalled_lift": (0.96, 0)},
    "blind4": {"ghost_room": (1.0, 0), "stalled_lift": (0.96, 0)},
    # blind5 and blind8's ghost_room 0.98 and 0.95 until ``understand.doubt`` (one more
    # sensible ask each; understood unchanged: 95.0% and 96.7%).
    "blind5": {"ghost_room": (0.96, 0), "stalled_lift": (0.96, 0)},
    "blind6": {"ghost_room": (0.95, 0), "stalled_lift": (0.9, 0)},
    "blind7": {"ghost_room": (1.0, 0), "stalled_lift": (0.96, 0)},
    "blind8": {"ghost_room": (0.93, 0), "stalled_lift": (0.96, 0)},
    "blind9": {"ghost_room": (0.88, 1), "stalled_lift": (0.9, 0)},
    "blind10": {"ghost_room": (0.96, 0), "stalled_lift": (1.0, 0)},
    "blind11": {"ghost_room": (0.93, 0), "stalled_lift": (0.96, 0)},
    "blind12": {"ghost_room": (0.91, 1), "stalled_lift": (0.91, 0)},
    "blind13": {"ghost_room": (0.9, 0), "stalled_lift": (0.96, 0)},
    "blind14": {"ghost_room": (0.98, 0), "stalled_lift": (0.93, 1)},
    "blind15": {"ghost_room": (0.96, 0), "stalled_lift": (0.91, 0)},
    "blind16": {"ghost_room": (0.98, 0), "stalled_lift": (0.96, 0)},
    "blind17": {"ghost_room": (0.98, 0), "stalled_lift": (0.93, 0)},
    # stalled_lift 0.95: since a message of several deeds is played deed by deed
    # (several.py), "push the plug back into the wall and then call the night desk" is
    # read as its first deed alone, which the rules find nothing in: nothing happens (no
    # wrong advance), where the whole message had plugged the phone in (58/60 → 57/60).
    "blind18": {"ghost_room": (0.96, 0), "stalled_lift": (0.95, 0)},
}


@pytest.mark.parametrize("which", sorted(BLIND_FLOORS))
@pytest.mark.parametrize("name", SHIPPED)
async def test_blind_sets_are_sound_and_pin_the_measured_figures(name: str, which: str) -> None:
    labels = load_labels(name, which)
    assert labels_path(name, which).name == f"{name}.{which}.yaml"
    assert labels.scenario == name and len(labels.cases) == 60
    assert check_labels(load_scenario(name), labels) == []
    assert name in shipped_names()  # a label file is never mistaken for a scenario
    score = await evaluate_classifier(keyword, load_scenario(name), labels)
    floor, most_wrong = BLIND_FLOORS[which][name]
    assert score.invalid == 0 and score.total == 60
    # These older sets label a look-alike left unnamed ("press a button" by the red and the
    # green one) none; since issue 31 the classifier asks which button was meant, and it
    # asks too when one action is the closest by similarity but not sure enough to act
    # ("go down through the trapdoor" before its lock is open, "call for help"). Such an ask
    # advances nothing and offers two available actions; at most two per set (one until
    # the similarity stage asked on its own), and every other pick is held to the floor
    # measured before.
    asked_on_none = [m for m in score.mistakes if m.expected == "none" and m.predicted == "ask"]
    assert len(asked_on_none) <= 2, asked_on_none
    assert all(len(m.offered) == 2 and m.advanced is None for m in asked_on_none)
    assert (score.correct + len(asked_on_none)) / score.total >= floor, score.summary()
    assert score.wrongly_advanced <= most_wrong, [m for m in score.mistakes if m.advanced]


@pytest.mark.parametrize("which", list(LABEL_SETS))
@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_set_passes_the_checks_eval_makes(name: str, which: str) -> None:
    """``parlour eval escape`` refuses a set for another scenario or with an impossible case."""
    assert labels_for(name, which, index=INDEX).cases == load_labels(name, which).cases


def test_the_sets_not_tuned_on_are_the_newest_blind_sets() -> None:
    """Sets are read for tuning oldest first, so the untuned ones are the last keys
    (blind16-18, scored once at the twelfth step's freeze)."""
    names = list(LABEL_SETS)
    assert names[len(names) - len(NOT_TUNED_ON) :] == list(NOT_TUNED_ON)
    assert set(NOT_TUNED_ON) <= set(BLIND_FLOORS)
    assert "blind15" not in NOT_TUNED_ON  # read and tuned on at the twelfth step


@pytest.mark.parametrize("answer", [0, 1])
def test_the_question_is_numbered_and_a_number_answers_it(answer: int) -> None:
    game = EscapeGame.new(config("ghost_room"), 7)
    rng = Rng(0)
    game.apply("t1:act", Text(text=TWO_WAYS))
    _step(game, rng)  # ask
    _step(game, rng)  # which two
    reply = game.events[-1]
    first, second = (
        {a.id: a for a in load_scenario("ghost_room").actions}[c].description
        for c in reply.data["candidates"]
    )
    assert f"(1) {first}, or (2) {second}?" in reply.text
    game.apply("t1:act2", Text(text=str(answer + 1)))
    _step(game, rng)  # the scripted classifier reads the number against the question
    assert game.done == (reply.data["candidates"][answer],)

"""The label format's two extensions (``expect: ask`` with ``options``; ``expect: [a, b]``,
several deeds in order) and how the evaluator scores them: understood, wrongly advanced,
ask rate, time per message."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlour.core.actions import Action, Choice, Choices
from parlour.core.decisions import Decision
from parlour.core.view import AnyView
from parlour.games.escape import load_scenario
from parlour.games.escape.ask import ClassifyAsk
from parlour.games.escape.evaluate import evaluate_classifier, is_understood
from parlour.games.escape.labels import LabelCase, check_labels, load_label_file
from parlour.games.escape.scenario import ScenarioError

LIFT = """\
scenario: stalled_lift
groups:
  - state: []
    cases:
      - {say: "read the paper", expect: read_newspaper}
      - {say: "press it", expect: ask, options: [press_floor_buttons, ring_alarm]}
      - {say: "open the little door then plug the phone in", expect: [open_phone_door, plug_phone]}
      - {say: "hello?", expect: none}
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "lift.labels.yaml"
    path.write_text(text)
    return path


def test_ask_and_several_deeds_load(tmp_path: Path) -> None:
    labels = load_label_file(write(tmp_path, LIFT))
    plain, ask, steps, none = labels.cases
    assert (plain.expect, plain.options, plain.steps) == ("read_newspaper", (), ())
    assert plain.wanted == ("read_newspaper",)
    assert ask.expect == "ask" and ask.options == ("press_floor_buttons", "ring_alarm")
    assert ask.wanted == ()
    assert steps.steps == ("open_phone_door", "plug_phone")
    assert steps.wanted == ("open_phone_door", "plug_phone")
    assert steps.expect == "open_phone_door > plug_phone"
    assert none.wanted == ()
    assert check_labels(load_scenario("stalled_lift"), labels) == []


@pytest.mark.parametrize(
    "case",
    [
        '{say: "x", expect: ask}',  # an ask names its options
        '{say: "x", expect: ask, options: [ring_alarm]}',  # two or three of them
        '{say: "x", expect: ask, options: [a, b, c, d]}',
        '{say: "x", expect: ask, options: [ring_alarm, ring_alarm]}',
        '{say: "x", expect: [ring_alarm]}',  # a list is several deeds
        '{say: "x", expect: [ring_alarm, none]}',
        '{say: "x", expect: ring_alarm, options: [ring_alarm, use_torch]}',
    ],
)
def test_malformed_extensions_are_refused_with_the_format(tmp_path: Path, case: str) -> None:
    text = f"scenario: stalled_lift\ngroups:\n  - state: []\n    cases:\n      - {case}\n"
    with pytest.raises(ScenarioError, match="several deeds in order"):
        load_label_file(write(tmp_path, text))


@pytest.mark.parametrize(
    ("case", "problem"),
    [
        ('{say: "x", expect: ask, options: [ring_alarm, plug_phone]}', "asks between plug_phone"),
        # plug_phone needs open_phone_door: the order matters
        ('{say: "x", expect: [plug_phone, open_phone_door]}', "step 1 'plug_phone'"),
        ('{say: "x", expect: [ring_alarm, nothing_here]}', "'nothing_here' is no action"),
    ],
)
def test_checks_say_when_an_ask_or_a_step_cannot_happen(
    tmp_path: Path, case: str, problem: str
) -> None:
    text = f"scenario: stalled_lift\ngroups:\n  - state: []\n    cases:\n      - {case}\n"
    problems = check_labels(load_scenario("stalled_lift"), load_label_file(write(tmp_path, text)))
    assert len(problems) == 1 and problem in problems[0]


def test_a_step_that_ends_the_game_must_be_last(tmp_path: Path) -> None:
    state = "[open_service_panel, open_phone_door, plug_phone, call_night_desk, release_brake]"
    case = '{say: "x", expect: [force_doors, ring_alarm]}'
    text = f"scenario: stalled_lift\ngroups:\n  - state: {state}\n    cases:\n      - {case}\n"
    scenario = load_scenario("stalled_lift")
    assert {a.id: a for a in scenario.actions}["force_doors"].ends_game
    problems = check_labels(scenario, load_label_file(write(tmp_path, text)))
    assert len(problems) == 1 and "ends the game" in problems[0]


def case(expect: str, *, options: tuple[str, ...] = (), steps: tuple[str, ...] = ()) -> LabelCase:
    return LabelCase(message="m", expect=expect, options=options, steps=steps)


def test_understood_right_action_right_none_and_sensible_asks() -> None:
    act = case("ring_alarm")
    assert is_understood(act, "ring_alarm", "ring_alarm", "ring_alarm")
    assert not is_understood(act, "use_torch", "use_torch", "ring_alarm")
    # an ask is sensible when it offers the labelled action
    assert is_understood(act, "ask", None, "ring_alarm", ("ring_alarm", "use_torch"))
    assert not is_understood(act, "ask", None, "ring_alarm", ("shout_for_help", "use_torch"))
    assert is_understood(case("none"), "none", None, None)
    assert not is_understood(case("none"), "ask", None, None, ("ring_alarm", "use_torch"))
    # a labelled ask: the same actions, or one side within the other (two of three)
    ask = case("ask", options=("a", "b", "c"))
    assert is_understood(ask, "ask", None, None, ("a", "c"))
    assert not is_understood(ask, "ask", None, None, ("a", "d"))
    assert not is_understood(ask, "ask", None, None, ())
    assert not is_understood(ask, "a", "a", None)
    assert not is_understood(ask, "none", None, None)
    # several deeds: every step must happen, in order; one question offering the first
    # is fine
    steps = case("a > b", steps=("a", "b"))
    assert not is_understood(steps, "a", "a", "a")
    assert not is_understood(steps, "a", "a", "a", steps=("a",))
    assert is_understood(steps, "a", "a", "a", steps=("a", "b"))
    assert not is_understood(steps, "b", "b", "a", steps=("b", "a"))
    assert is_understood(steps, "ask", None, "a", ("a", "b"))
    assert not is_understood(steps, "ask", None, "a", ("b", "c"))


def fixed(picks: dict[str, str], offer: tuple[str, ...] = ()) -> object:
    async def decide(view: AnyView, decision: Decision) -> Action:
        message = ClassifyAsk.of(decision).message
        if decision.purpose == "clarify":
            return Choices(options=offer)
        # A message of several deeds reaches the classifier deed by deed (several.py).
        return Choice(option=picks.get(message, picks.get("*", "none")))

    return decide


async def test_eval_scores_asks_steps_and_wrong_advances(tmp_path: Path) -> None:
    labels = load_label_file(write(tmp_path, LIFT))
    scenario = load_scenario("stalled_lift")
    # The message of two deeds is classified deed by deed: "open the little door", then
    # (once it happened) "plug the phone in".
    picks = {
        "read the paper": "read_newspaper",
        "press it": "ask",
        "open the little door": "open_phone_door",
        "plug the phone in": "plug_phone",
        "hello?": "none",
    }
    score = await evaluate_classifier(
        fixed(picks, ("ring_alarm", "press_floor_buttons")),  # type: ignore[arg-type]
        scenario,
        labels,
    )
    assert (score.total, score.understood, score.wrongly_advanced) == (4, 4, 0)
    assert score.asked == 1 and score.ask_rate == 0.25
    assert score.first_step_only == 0
    assert score.ms_per_message >= 0.0

    # Only the first step: not understood, but no wrong advance.
    picks["plug the phone in"] = "none"
    score = await evaluate_classifier(
        fixed(picks, ("ring_alarm", "press_floor_buttons")),  # type: ignore[arg-type]
        scenario,
        labels,
    )
    assert (score.understood, score.wrongly_advanced, score.first_step_only) == (3, 0, 1)
    (miss,) = score.mistakes
    assert miss.expected == "open_phone_door > plug_phone" and miss.advanced == "open_phone_door"

    # The second deed first, or a guess on the ask, is a wrong advance.
    picks["open the little door"] = "ring_alarm"
    picks["press it"] = "press_floor_buttons"
    score = await evaluate_classifier(fixed(picks), scenario, labels)  # type: ignore[arg-type]
    assert (score.understood, score.wrongly_advanced, score.asked) == (2, 2, 0)
    assert {m.advanced for m in score.mistakes} == {"ring_alarm", "press_floor_buttons"}


async def test_an_ask_offering_other_actions_is_not_understood(tmp_path: Path) -> None:
    labels = load_label_file(write(tmp_path, LIFT))
    picks = {"*": "ask"}
    score = await evaluate_classifier(
        fixed(picks, ("use_torch", "shout_for_help")),  # type: ignore[arg-type]
        load_scenario("stalled_lift"),
        labels,
    )
    assert (score.understood, score.wrongly_advanced, score.asked) == (0, 0, 4)
    assert score.ask_rate == 1.0


UNSEEN = Path(__file__).resolve().parents[2] / "benchmarks" / "escape" / "unseen"


@pytest.mark.parametrize("room", ["engine_room", "night_sleeper", "record_strongroom"])
def test_the_unseen_rooms_sets_load_and_pass_the_eval_checks(room: str) -> None:
    """Only loaded and checked here (as ``parlour eval escape --labels`` does before any
    model runs); no classifier is run on them in the tests."""
    from parlour.games.escape.surface.evaluation import labels_for

    labels = labels_for(
        str(UNSEEN / f"{room}.yaml"), labels_file=str(UNSEEN / f"{room}.unseen.yaml")
    )
    assert len(labels.cases) >= 60
    assert any(c.options for c in labels.cases) and any(c.steps for c in labels.cases)

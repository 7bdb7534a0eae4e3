"""A seat played by the user's callable: answer shapes, retries with feedback, fallback,
the call log, and one-line errors for specs that name nothing callable."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from parlour.core.actions import Action, Choice, Choices, Structured, Text
from parlour.core.decisions import Decision, DecisionKind, Option
from parlour.core.errors import IllegalAction, ParlourError
from parlour.core.rng import Rng
from parlour.core.view import AnyView
from parlour.seats import agents
from parlour.seats.llm import Attempt
from parlour.seats.python_seat import PythonSeat, to_action
from tests.support.decisions import make_decision, make_view

VIEW = make_view(game="toy", seat_name="Kenji", phase="day 1")
VOTE = make_decision(
    id="d1:vote:p1",
    prompt="Vote",
    options=(Option(id="p2", label="Aiko"), Option(id="p3", label="Maya")),
)
PICK = make_decision(
    DecisionKind.CHOOSE_MANY,
    id="d1:pick:p1",
    purpose="pick",
    prompt="Pick two",
    options=VOTE.options,
    min_choices=2,
    max_choices=2,
)
SAY = make_decision(
    DecisionKind.FREE_TEXT, id="d1:say:p1", purpose="speak", prompt="Say", max_length=100
)
FORM = make_decision(
    DecisionKind.STRUCTURED,
    id="d1:form:p1",
    purpose="form",
    prompt="Fill in",
    json_schema={"type": "object", "properties": {"n": {"type": "integer"}}},
)


def last_option(view: AnyView, decision: Decision, rng: Rng) -> Action:
    """The fallback policy of these tests: recognisably not what the agents answer."""
    return Choice(option=decision.options[-1].id)


class Sink:
    def __init__(self) -> None:
        self.attempts: list[Attempt] = []

    def record(self, attempt: Attempt) -> None:
        self.attempts.append(attempt)


def seat(agent: agents.Agent, sink: Sink | None = None) -> PythonSeat:
    return PythonSeat(
        agent, name="python:t:agent", fallback=last_option, seat_id="p1", seed=1, sink=sink
    )


def decide(s: PythonSeat, decision: Decision = VOTE) -> Action:
    return asyncio.run(s.decide(VIEW, decision))


@pytest.mark.parametrize(
    ("decision", "answer", "expected"),
    [
        (VOTE, "p2", Choice(option="p2")),
        (VOTE, "maya", Choice(option="p3")),  # a label, case aside
        (VOTE, {"choice": "Aiko", "why": "quiet"}, Choice(option="p2", reason="quiet")),
        (PICK, ["p3", "Aiko"], Choices(options=("p3", "p2"))),
        (PICK, {"choices": ("p2", "p3")}, Choices(options=("p2", "p3"))),
        (SAY, "hello", Text(text="hello")),
        (FORM, {"n": 3}, Structured(value={"n": 3})),
        (VOTE, Choice(option="p3", reason="r"), Choice(option="p3", reason="r")),
    ],
)
def test_answers_in_natural_shapes_become_actions(
    decision: Decision, answer: object, expected: Action
) -> None:
    assert to_action(decision, answer) == expected


@pytest.mark.parametrize(
    ("decision", "answer", "says"),
    [(VOTE, None, "an option id or label"), (SAY, 3, "a string"), (PICK, "p2", "a list")],
)
def test_wrong_shapes_say_what_the_decision_takes(
    decision: Decision, answer: object, says: str
) -> None:
    with pytest.raises(IllegalAction, match=says):
        to_action(decision, answer)


def test_a_sync_callable_answers_and_is_logged_as_itself() -> None:
    sink = Sink()
    s = seat(lambda view, decision: "Aiko", sink)
    assert decide(s) == Choice(option="p2")
    assert s.answered_by(VOTE.id) == "python:t:agent"
    [attempt] = sink.attempts
    assert (attempt.outcome, attempt.model_id, attempt.response_text) == (
        "valid",
        "python:t:agent",
        '"Aiko"',
    )
    assert attempt.parsed == {"kind": "choice", "option": "p2", "reason": ""}


def test_an_async_callable_is_awaited() -> None:
    async def agent(view: AnyView, decision: Decision) -> list[str]:
        await asyncio.sleep(0)
        return ["p2", "p3"]

    assert decide(seat(agent), PICK) == Choices(options=("p2", "p3"))


def test_an_illegal_answer_is_retried_with_feedback_then_accepted() -> None:
    told: list[str | None] = []

    def agent(view: AnyView, decision: Decision, feedback: str | None = None) -> str:
        told.append(feedback)
        return "p9" if feedback is None else "p2"

    sink = Sink()
    assert decide(seat(agent, sink)) == Choice(option="p2")
    assert told[0] is None and told[1] is not None and "p9" in told[1]
    assert [a.outcome for a in sink.attempts] == ["invalid", "valid"]


def test_illegal_answers_past_the_retry_budget_fall_back() -> None:
    calls: list[str] = []

    def agent(view: AnyView, decision: Decision) -> str:
        calls.append(decision.id)
        return "nobody"

    sink = Sink()
    s = seat(agent, sink)
    assert decide(s) == Choice(option="p3")  # the fallback policy's answer
    assert len(calls) == 3  # the first try and two retries
    assert s.answered_by(VOTE.id) == "fallback"
    assert [a.outcome for a in sink.attempts] == ["invalid", "invalid", "invalid", "fallback"]


def test_an_exception_in_user_code_is_counted_and_falls_back() -> None:
    def agent(view: AnyView, decision: Decision) -> str:
        raise ZeroDivisionError("oops")

    sink = Sink()
    s = seat(agent, sink)
    assert decide(s) == Choice(option="p3")
    assert s.answered_by(VOTE.id) == "fallback"
    assert [a.outcome for a in sink.attempts] == ["error", "error", "error", "fallback"]
    assert "ZeroDivisionError: oops" in sink.attempts[0].error


def write_module(folder: Path, name: str, text: str) -> None:
    (folder / f"{name}.py").write_text(text, encoding="utf-8")


@pytest.fixture
def on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_specs_resolve_modules_files_and_classes(on_path: Path) -> None:
    write_module(
        on_path,
        "pyseat_agents",
        "class Counter:\n"
        "    def __init__(self):\n        self.n = 0\n"
        "    def __call__(self, view, decision):\n        self.n += 1\n        return 'p2'\n"
        "def first(view, decision):\n    return decision.options[0].id\n",
    )
    from_module = agents.load("python:pyseat_agents:first")
    assert from_module(VIEW, VOTE) == "p2"
    from_file = agents.load(f"python:{on_path / 'pyseat_agents.py'}:first")
    assert from_file is not from_module and from_file(VIEW, VOTE) == "p2"
    cls = agents.load("python:pyseat_agents:Counter")
    one, two = agents.for_seat(cls), agents.for_seat(cls)
    assert one is not two  # one instance per seat: per-seat state


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("python:no_such_module_xyz:f", "no module named 'no_such_module_xyz'"),
        ("python:pyseat_bad:missing", "has no attribute 'missing'"),
        ("python:pyseat_bad:VALUE", "not a callable"),
        ("python:pyseat_bad", "write python:MODULE:CALLABLE"),
        ("python:/no/such/file.py:f", "no file"),
        ("agent:no_such_agent_xyz", "no agent named 'no_such_agent_xyz'"),
        ("python:pyseat_raises:f", "importing pyseat_raises failed (RuntimeError: at import"),
    ],
)
def test_bad_specs_are_one_line_errors_naming_the_fix(on_path: Path, spec: str, says: str) -> None:
    write_module(on_path, "pyseat_bad", "VALUE = 3\n")
    write_module(on_path, "pyseat_raises", "raise RuntimeError('at import')\n")
    with pytest.raises(ParlourError) as err:
        agents.load(spec)
    assert says in str(err.value) and "\n" not in str(err.value)


def test_agents_register_by_entry_point(on_path: Path) -> None:
    write_module(on_path, "pyseat_plugin", "def cautious(view, decision):\n    return 'p3'\n")
    dist = on_path / "pyseat_plugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: pyseat-plugin\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(
        "[parlour.agents]\npyseat-cautious = pyseat_plugin:cautious\n"
    )
    assert "pyseat-cautious" in agents.registered()
    assert agents.load("agent:pyseat-cautious")(VIEW, VOTE) == "p3"


def test_register_names_an_agent_in_this_process() -> None:
    def mine(view: AnyView, decision: Decision) -> Any:
        return "p2"

    agents.register("pyseat-test-mine", mine, replace=True)
    assert agents.load("agent:pyseat-test-mine") is mine
    with pytest.raises(ParlourError, match="already registered"):
        agents.register("pyseat-test-mine", lambda v, d: "p3")

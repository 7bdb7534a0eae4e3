"""Labelled classifier sets: player messages, the state they are typed in, and the right pick.

Label sets are test and benchmark data, not part of the installed game: a parlour
checkout keeps the shipped scenarios' sets in ``benchmarks/escape/labels/``, a folder whose
``sets.yaml`` (``LabelIndex``) names the sets, oldest first; a designer keeps a room's sets
beside its file (``rooms/mine.yaml``: ``rooms/mine.labels.yaml``).

File format (``<name>.labels.yaml``)::

    scenario: ghost_room
    groups:
      - state: [talk_to_ghost]        # actions already done (closed under needs)
        cases:
          - {say: "I read the note", expect: read_note}
          - {say: "is there a ghost?", expect: none}

``expect`` is what should come of the message:

* an action id: the attempted action (also an answer action attempted without its answer;
  the engine then rejects the attempt);
* ``none``: nothing should happen;
* ``ask`` with ``options: [a, b]`` (two or three available action ids): the message fits
  these look-alikes equally, so the game should ask which one was meant; advancing any
  action is a wrong advance;
* a list of two or more ids (``expect: [a, b]``): several deeds, steps in that order. The
  first is available in the state, each later one once the earlier ones have happened, and
  only the last may end the game; advancing anything but the first step is a wrong advance.

The older sets (``benchmarks/escape/labels/``) have no ``ask`` and no list. They follow one
rule for ask against none (when two actions score close, the player is asked which one
they meant instead of the classifier guessing):

* a message that says nothing telling one option from the others is ``none``: an object
  word alone ("newspaper", "desk", "the painting"), or a verb with a thing several options
  share and nothing that picks one ("press the button", "press a button", "press every
  button", "x writing desk"). The player has not said which; a none never advances a wrong
  action;
* a message that says something of each of two options ("pick up the handset and hope for
  help") is labelled with the action the writer meant; an ask there advances nothing.

The same rule holds against the actions the room does not offer now: "open the door" at
the start of the lift, where the little phone door can be opened and the lift doors cannot
be forced yet, says nothing telling the two doors apart, so it is ``none``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from parlour.core.safe_yaml import LinedData, YamlError, load_file
from parlour.games.escape.availability import Frontier
from parlour.games.escape.scenario import ASK_ID, NONE_ID, Scenario, ScenarioError

#: The index file of a label folder.
INDEX_FILE = "sets.yaml"


class LabelCase(BaseModel):
    model_config = ConfigDict(frozen=True)

    message: str
    #: an action id, ``none``, ``ask``, or for several deeds their ids joined by " > "
    #: (``steps`` holds them).
    expect: str
    state: tuple[str, ...] = ()
    line: int = 0
    #: ``expect: ask``: the actions the game should offer (two or three).
    options: tuple[str, ...] = ()
    #: several deeds: the actions, in the order they should happen (two or more).
    steps: tuple[str, ...] = ()

    @property
    def wanted(self) -> tuple[str, ...]:
        """The actions that should happen, in order (empty for ``none`` and ``ask``)."""
        if self.steps:
            return self.steps
        return () if self.expect in (NONE_ID, ASK_ID) else (self.expect,)


#: How a several-deeds case's ``expect`` is written in tables and confusion rows.
STEP_JOIN = " > "


class LabelSet(BaseModel):
    model_config = ConfigDict(frozen=True)

    scenario: str
    cases: tuple[LabelCase, ...]


class LabelIndex(BaseModel):
    """A folder of label sets for named scenarios and what its ``sets.yaml`` says of them."""

    model_config = ConfigDict(frozen=True)

    folder: Path
    #: The set names, oldest first (sets are read for tuning in this order).
    sets: tuple[str, ...]
    #: The newest sets, never read for tuning: the honest figures.
    not_tuned_on: tuple[str, ...] = ()


def suffix_of(which: str) -> str:
    """A set's file suffix: ``<scenario>.<suffix>.yaml`` (the tuning set's is ``labels``)."""
    return "labels" if which == "tuning" else which


def read_label_index(folder: str | Path) -> LabelIndex:
    """The index of a label folder; a one-line ``ScenarioError`` naming the fix when the
    folder or its ``sets.yaml`` is missing or malformed."""
    index = Path(folder) / INDEX_FILE
    if not index.is_file():
        raise ScenarioError(
            f"no escape label sets in {folder}: {INDEX_FILE} is missing there (the sets ship "
            "with a parlour checkout, in benchmarks/escape/labels/)",
            file=str(index),
        )
    try:
        data: Any = load_file(index).data
    except YamlError as err:
        raise ScenarioError(str(err), file=str(index), line=err.line) from err
    sets, untuned = (
        data.get(k) if isinstance(data, dict) else None for k in ("sets", "not_tuned_on")
    )
    if not (
        isinstance(sets, list)
        and sets
        and all(isinstance(s, str) and s.isalnum() for s in sets)
        and isinstance(untuned or [], list)
        and set(untuned or []) <= set(sets)
    ):
        raise ScenarioError(
            f"{index}: give 'sets' (a list of set names) and 'not_tuned_on' (some of them)",
            file=str(index),
        )
    return LabelIndex(folder=Path(folder), sets=tuple(sets), not_tuned_on=tuple(untuned or ()))


def labels_path(
    scenario: str | Path, which: str = "tuning", index: LabelIndex | None = None
) -> Path:
    """Where a scenario's ``which`` label set lives: beside a scenario file
    (``rooms/mine.yaml`` → ``rooms/mine.labels.yaml`` for ``tuning``), else in the label
    folder ``index`` for a named scenario (``<folder>/<name>.<suffix>.yaml``)."""
    if index is not None and which not in index.sets:
        raise ScenarioError(f"no label set kind '{which}'; use one of: {', '.join(index.sets)}")
    if not which.isalnum():
        raise ScenarioError(f"no label set kind '{which}': a set's name is letters and digits")
    suffix = suffix_of(which)
    given = Path(scenario)
    if given.is_file():
        beside = given.with_name(f"{given.name.removesuffix('.yaml')}.{suffix}.yaml")
        if beside.is_file():
            return beside
        raise ScenarioError(
            f"no {which} label set for {given}: write {beside} beside it "
            f"(docs/escape-scenarios.md, 'Testing a scenario') or pass --labels FILE",
            file=str(beside),
        )
    if index is None:
        raise ScenarioError(
            f"the {which} label set of '{scenario}' is not installed: label sets are test "
            "data, in a parlour checkout's benchmarks/escape/labels/ (pass --labels-dir DIR "
            "or --labels FILE)",
            file=str(scenario),
        )
    found = index.folder / f"{scenario}.{suffix}.yaml"
    if found.is_file():
        return found
    raise ScenarioError(
        f"no {which} label set '{scenario}' in {index.folder} (expected {found.name})",
        file=str(scenario),
    )


def load_labels(
    scenario: str | Path, which: str = "tuning", index: LabelIndex | None = None
) -> LabelSet:
    """A scenario's ``which`` label set (``labels_path`` says where it is)."""
    return load_label_file(labels_path(scenario, which, index))


def load_label_file(path: str | Path) -> LabelSet:
    """One label file, wherever it is and whatever it is called."""
    file = str(path)
    if not Path(path).is_file():
        raise ScenarioError(f"no label file {file}: give the path to a .yaml label set", file=file)
    try:
        lined = load_file(Path(path), file=file)
    except YamlError as err:
        raise ScenarioError(str(err), file=file, line=err.line) from err
    return _parse(lined, file)


def _parse(lined: LinedData, file: str) -> LabelSet:
    data: Any = lined.data

    def fail(path: tuple[str | int, ...], why: str) -> ScenarioError:
        line = lined.line_of(path)
        return ScenarioError(f"{file}:{line}: {why}", file=file, line=line)

    if not isinstance(data, dict) or not isinstance(data.get("scenario"), str):
        raise fail((), "a label set is a mapping with 'scenario' (a name) and 'groups'")
    cases: list[LabelCase] = []
    for g, group in enumerate(data.get("groups") or []):
        if not isinstance(group, dict) or not isinstance(group.get("cases"), list):
            raise fail(("groups", g), "each group needs 'state' (a list) and 'cases' (a list)")
        state = group.get("state") or []
        if not isinstance(state, list) or not all(isinstance(s, str) for s in state):
            raise fail(("groups", g, "state"), "'state' must be a list of action ids")
        for c, case in enumerate(group["cases"]):
            path = ("groups", g, "cases", c)
            parsed = _case(case, tuple(state), lined.line_of(path))
            if parsed is None:
                raise fail(path, CASE_FORMAT)
            cases.append(parsed)
    return LabelSet(scenario=data["scenario"], cases=tuple(cases))


CASE_FORMAT = (
    "a case is {say: <message>, expect: <action id or none>}, {say: ..., expect: ask, "
    "options: [<id>, <id>]} or {say: ..., expect: [<id>, <id>, ...]} (several deeds in order)"
)


def _ids(value: Any, least: int, most: int) -> tuple[str, ...] | None:
    if not (isinstance(value, list) and least <= len(value) <= most):
        return None
    if not all(isinstance(v, str) and v not in (NONE_ID, ASK_ID) for v in value):
        return None
    return tuple(value)


def _case(case: Any, state: tuple[str, ...], line: int) -> LabelCase | None:
    """One case, or None when it is not in the format (``CASE_FORMAT``)."""
    if not (isinstance(case, dict) and isinstance(case.get("say"), str)):
        return None
    expect, say = case.get("expect"), case["say"]
    if isinstance(expect, list):
        steps = _ids(expect, 2, 20)
        if steps is None or set(case) != {"say", "expect"}:
            return None
        return LabelCase(
            message=say, expect=STEP_JOIN.join(steps), state=state, line=line, steps=steps
        )
    if expect == ASK_ID:
        options = _ids(case.get("options"), 2, 3)
        if options is None or len(set(options)) != len(options):
            return None
        if set(case) != {"say", "expect", "options"}:
            return None
        return LabelCase(message=say, expect=ASK_ID, state=state, line=line, options=options)
    if not isinstance(expect, str) or set(case) != {"say", "expect"}:
        return None
    return LabelCase(message=say, expect=expect, state=state, line=line)


def frontier_for(scenario: Scenario, state: tuple[str, ...]) -> Frontier:
    frontier = Frontier(scenario)
    for aid in state:
        frontier.mark_done(aid)
    return frontier


def check_labels(scenario: Scenario, labels: LabelSet) -> list[str]:
    """Problems with a label set against its scenario (empty when every case is sound)."""
    ids = {a.id: a for a in scenario.actions}
    problems: list[str] = []
    for case in labels.cases:
        where = f"line {case.line}: '{case.message}'"
        unknown = [s for s in case.state if s not in ids]
        if unknown:
            problems.append(f"{where}: unknown state id(s) {', '.join(unknown)}")
            continue
        open_needs = [n for s in case.state for n in ids[s].needs if n not in case.state]
        if open_needs:
            problems.append(f"{where}: state is not reachable, missing {', '.join(open_needs)}")
        if any(ids[s].ends_game for s in case.state):
            problems.append(f"{where}: state holds an ending; the game would be over")
        problems.extend(f"{where}: {p}" for p in _expect_problems(scenario, case))
    return problems


def _expect_problems(scenario: Scenario, case: LabelCase) -> list[str]:
    ids = {a.id: a for a in scenario.actions}
    frontier = frontier_for(scenario, case.state)
    available = frontier.available()
    if case.options:
        off = [o for o in case.options if o not in available]
        return [f"asks between {', '.join(off)}, not available in that state"] if off else []
    if case.steps:
        for n, step in enumerate(case.steps):
            if step not in ids:
                return [f"step '{step}' is no action of the room"]
            if step not in frontier.available():
                return [f"step {n + 1} '{step}' is not available after the steps before it"]
            if ids[step].ends_game and n < len(case.steps) - 1:
                return [f"step {n + 1} '{step}' ends the game, and more steps follow it"]
            frontier.mark_done(step)
        return []
    if case.expect != NONE_ID and case.expect not in available:
        return [f"expects '{case.expect}', not available in that state"]
    return []

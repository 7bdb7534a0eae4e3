"""Reading scenario files: YAML with line numbers → frozen ``Scenario`` or a ``ScenarioError``.

Every error names the file, the line and the key, e.g.
``rooms/ghost.yaml:14: action 'open_hatch': unknown key 'need' (did you mean 'needs'?)``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from parlour.core.content_file import (
    ContentLoader,
    ShippedContent,
    closest_hint,
    first_problem,
    lined_or_error,
    must_be,
)
from parlour.core.safe_yaml import LinedData
from parlour.games.escape.scenario import Scenario, ScenarioAction, ScenarioError, Thing

SCENARIO_DIR = Path(__file__).parent / "scenarios"
TOP_KEYS = ("title", "intro", "world", "places", "objects", "actions")
THING_KEYS = tuple(k for k in Thing.model_fields)
ACTION_KEYS = tuple(k for k in ScenarioAction.model_fields)


def _error(message: str, *, file: str, line: int = 0, code: str = "") -> ScenarioError:
    return ScenarioError(message, file=file, line=line)


def parse_scenario(text: str, *, file: str = "<scenario>", source: str = "") -> Scenario:
    lined = lined_or_error(text, file, _error, raw_keys=frozenset({"answer"}))
    data = lined.data
    if data is None:
        raise ScenarioError(
            f"{file}:1: the file is empty; a scenario needs title, intro and actions", file=file
        )
    if not isinstance(data, dict):
        raise ScenarioError(
            f"{file}:1: a scenario is a mapping with keys {', '.join(TOP_KEYS)}", file=file, line=1
        )
    _check_keys(data, (), TOP_KEYS, lined, file)
    for index, item in enumerate(data.get("actions") or []):
        if isinstance(item, dict):
            _check_keys(item, ("actions", index), ACTION_KEYS, lined, file)
    for group in ("places", "objects"):
        for index, item in enumerate(data.get(group) or []):
            if isinstance(item, dict):
                _check_keys(item, (group, index), THING_KEYS, lined, file)
    try:
        scenario = Scenario.model_validate_json(json.dumps(data, default=str), strict=True)
    except ValidationError as err:
        raise _explain(err, lined, file) from err
    return scenario.model_copy(update={"source": source or file})


def _where(path: tuple[str | int, ...], data: Any) -> str:
    """``action 'open_hatch': `` for paths inside an action, else empty."""
    kinds = {
        "actions": ("action", "id"),
        "places": ("place", "name"),
        "objects": ("object", "name"),
    }
    if len(path) >= 2 and path[0] in kinds and isinstance(path[1], int):
        kind, key = kinds[str(path[0])]
        group = data.get(path[0])
        item = group[path[1]] if isinstance(group, list) else None
        ident = item.get(key) if isinstance(item, dict) else None
        name = f"'{ident}'" if isinstance(ident, str) else f"#{path[1] + 1}"
        return f"{kind} {name}: "
    return ""


def _check_keys(
    mapping: dict[str, Any],
    path: tuple[str | int, ...],
    allowed: tuple[str, ...],
    lined: LinedData,
    file: str,
) -> None:
    for key in mapping:
        if key in allowed:
            continue
        line = lined.line_of((*path, key))
        raise ScenarioError(
            f"{file}:{line}: {_where(path, lined.data)}unknown key '{key}' "
            f"({closest_hint(key, allowed)})",
            file=file,
            line=line,
            key=key,
        )


def _explain(err: ValidationError, lined: LinedData, file: str) -> ScenarioError:
    problem = first_problem(err, lined)
    first, path = problem.error, problem.path
    where = _where(path, lined.data)
    key_index = 2 if where else 0
    key = str(path[key_index]) if len(path) > key_index else ""
    item = path[key_index + 1] if len(path) > key_index + 1 else None
    subject = f"key '{key}'" + (f" item {item + 1}" if isinstance(item, int) else "")
    if first["type"] == "missing":
        line = lined.line_of(path[:-1])
        text = f"missing key '{key}'"
    else:
        line = lined.line_of(path)
        text = f"{subject} {must_be(first)}"
    more = problem.more
    return ScenarioError(f"{file}:{line}: {where}{text}{more}", file=file, line=line, key=key)


#: The shipped rooms; their classifier label sets are test data (``labels.py``).
_SCENARIOS = ContentLoader(
    ShippedContent(SCENARIO_DIR, "scenario", "scenarios"), _error, parse_scenario
)
shipped_names = _SCENARIOS.names
#: A path to an existing file, or a shipped scenario's name.
scenario_path = _SCENARIOS.path
load_scenario = _SCENARIOS.load

"""The string fields of a structured answer that the shared text guards check.

A structured decision names them in ``Decision.checked_fields``; the LLM seat runs the
decision's ``checks`` (``seats/text_guard.py``) on each. A path is property names joined
by dots, with ``[]`` after a name whose value is a list, meaning every item:
``narration``, ``check.reason``, ``lines[].text``, ``messages[].text``.

Invariant: a path ``path_problem`` accepts leads from the decision's schema, through
``properties`` and array ``items`` only, to a schema of ``"type": "string"``. So for any
answer that schema validates, ``field_texts`` returns exactly the strings found at the
named places — none when an optional field is absent or a list is empty — each with its
concrete place (``lines[1].text``), in path order and then answer order, and it never
raises. On anything else (an answer that failed validation) it skips what does not fit
rather than guess.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

_PATH = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\[\])?(\.[A-Za-z_][A-Za-z0-9_]*(\[\])?)*$")
PATH_FORM = "property names joined by dots, [] after a list (e.g. lines[].text)"


def _steps(path: str) -> list[tuple[str, bool]]:
    """``lines[].text`` → [("lines", True), ("text", False)]."""
    return [(part.removesuffix("[]"), part.endswith("[]")) for part in path.split(".")]


def path_problem(schema: Mapping[str, Any], path: str) -> str | None:
    """Why ``path`` does not name a string field of ``schema`` (a sentence), or None."""
    if not _PATH.match(path):
        return f"not a field path: write {PATH_FORM}"
    node: Mapping[str, Any] = schema
    walked = ""
    for name, is_list in _steps(path):
        props = node.get("properties")
        where = walked or "the answer"
        if not isinstance(props, Mapping) or name not in props:
            known = ", ".join(props) if isinstance(props, Mapping) and props else "none"
            return f"{where} has no property {name!r} (its properties: {known})"
        node = props[name]
        walked = f"{walked}.{name}" if walked else name
        if is_list:
            items = node.get("items")
            if node.get("type") != "array" or not isinstance(items, Mapping):
                return f"{walked} is not a list of items; drop the [] after it"
            node = items
            walked += "[]"
        elif node.get("type") == "array":
            return f"{walked} is a list; write {walked}[] to check every item"
    if node.get("type") != "string":
        return f"{walked} is not a string field (type {node.get('type', 'unset')!r})"
    return None


def _found(value: Any, steps: list[tuple[str, bool]], place: str) -> Iterable[tuple[str, str]]:
    if not steps:
        if isinstance(value, str):
            yield place, value
        return
    (name, is_list), rest = steps[0], steps[1:]
    if not isinstance(value, Mapping) or name not in value:
        return
    here = f"{place}.{name}" if place else name
    child = value[name]
    if not is_list:
        yield from _found(child, rest, here)
    elif isinstance(child, list):
        for i, item in enumerate(child):
            yield from _found(item, rest, f"{here}[{i}]")


def field_texts(value: Any, paths: Iterable[str]) -> list[tuple[str, str]]:
    """(place, text) for every string at ``paths`` in the answer ``value``."""
    out: list[tuple[str, str]] = []
    for path in paths:
        out.extend(_found(value, _steps(path), ""))
    return out

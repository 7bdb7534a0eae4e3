"""Structured decisions as terminal forms: field by field instead of raw JSON.

A schema is a form when it is an object whose properties are enums (asked as numbered
options, Enter = the first), strings (asked as a line of text) or arrays of flat objects
of those (asked item by item; an empty line ends the list). Anything else stays raw
JSON. Games may help with readable text in the decision's ``Hints`` (``core/asks.py``,
all optional):

* ``labels``: ``{property: {value: label}}`` shown next to each option;
* ``names``: ``{property: readable name}`` used as the field's heading;
* ``summary``: a block of text shown before the questions;
* ``aliases``: ``{property: {typed form: [value, ...]}}`` — other ways to type an option
  (an abbreviation, a shorter form); an alias of several values is ambiguous and the
  player is shown what it could mean;
* ``forms``: a phrase naming the accepted ways to answer, used in the error message.

Typed answers match options ignoring case, spacing around ``-`` and repeated spaces.

Knows nothing of any game: only JSON-schema shapes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from parlour.core.asks import Hints

Ask = Callable[[str], Awaitable[str]]
Say = Callable[[str], None]


def typed_key(text: str) -> str:
    """How a typed answer is compared: case, spacing and arrow style do not matter."""
    spaced = text.casefold().replace("->", "-").replace("-", " - ")
    return " ".join(spaced.split())


def _is_enum(schema: Any) -> bool:
    return (
        isinstance(schema, dict) and isinstance(schema.get("enum"), list) and bool(schema["enum"])
    )


def _is_text(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type") == "string" and "enum" not in schema


def _props(schema: Any) -> dict[str, Any] | None:
    if not isinstance(schema, dict) or schema.get("type", "object") != "object":
        return None
    props = schema.get("properties")
    return props if isinstance(props, dict) and props else None


def _is_flat_object(schema: Any) -> bool:
    props = _props(schema)
    return props is not None and all(_is_enum(s) or _is_text(s) for s in props.values())


def _is_list(schema: Any) -> bool:
    return (
        isinstance(schema, dict)
        and schema.get("type") == "array"
        and _is_flat_object(schema.get("items"))
    )


def is_form(schema: Mapping[str, Any] | None) -> bool:
    props = _props(schema)
    return props is not None and all(
        _is_enum(s) or _is_text(s) or _is_list(s) for s in props.values()
    )


class Form:
    """Fills one form through ``ask`` (one line of input) and ``say`` (one line of output)."""

    def __init__(self, ask: Ask, say: Say, hints: Hints) -> None:
        self.ask = ask
        self.say = say
        self.hints = hints
        self.labels: Mapping[str, Any] = hints.labels
        self.names: Mapping[str, Any] = hints.names
        self.aliases: Mapping[str, Any] = hints.aliases
        self.forms = hints.forms

    async def fill(self, schema: Mapping[str, Any]) -> dict[str, Any]:
        props = _props(schema)
        assert props is not None
        value: dict[str, Any] = {}
        for name, sub in props.items():
            if _is_enum(sub):
                value[name] = await self.choose(name, sub)
            elif _is_list(sub):
                value[name] = await self.items(name, sub)
            else:
                value[name] = await self.text(name, sub, can_end=False) or ""
        return value

    async def choose(self, name: str, schema: Mapping[str, Any], indent: str = "") -> Any:
        shown = self.hints.shown(name, list(schema["enum"]))
        options = [opt for _, opt in shown]
        title = self.names.get(name)
        self.say(f"{indent}{name} ({title}):" if title and title != name else f"{indent}{name}:")
        labels = self.labels.get(name, {})
        heading = ""
        for n, (group, opt) in enumerate(shown, 1):
            if group and group != heading:
                self.say(f"{indent}  {group}:")
            heading = group
            label = labels.get(opt) if isinstance(labels, dict) else None
            extra = f"  — {label}" if label and label != opt else ""
            self.say(f"{indent}  {n:>2}. {opt}{extra}")
        while True:
            raw = (await self.ask(f"{indent}{name} [Enter = 1]> ")).strip()
            if not raw:
                return options[0]
            if raw.isdigit() and 1 <= int(raw) <= len(options):
                return options[int(raw) - 1]
            found = self.match(name, options, raw)
            if len(found) == 1:
                return found[0]
            if found:
                self.say(
                    f"{indent}'{raw}' could be: {'; '.join(map(str, found))} — type one of "
                    "them or its number"
                )
                continue
            forms = self.forms or "an option as shown"
            self.say(
                f"{indent}'{raw}' is not one of the options: type a number from 1 to "
                f"{len(options)} (Enter = 1) or {forms}"
            )

    def match(self, name: str, options: list[Any], raw: str) -> list[Any]:
        """The options ``raw`` names: itself (loosely typed), else through the aliases."""
        key = typed_key(raw)
        exact = [opt for opt in options if typed_key(str(opt)) == key]
        if exact:
            return exact
        table = self.aliases.get(name, {})
        if not isinstance(table, dict):
            return []
        found: list[Any] = []
        for alias, values in table.items():
            if typed_key(str(alias)) == key:
                found += [v for v in values if v in options and v not in found]
        return found

    async def text(self, name: str, schema: Mapping[str, Any], *, can_end: bool) -> str | None:
        low = int(schema.get("minLength", 0))
        high = schema.get("maxLength")
        hint = " (empty line = done)" if can_end else ""
        while True:
            raw = (await self.ask(f"{name}{hint}> ")).strip()
            if not raw and can_end:
                return None
            if len(raw) < low:
                self.say(f"write at least {low} character{'s' * (low != 1)}")
            elif high is not None and len(raw) > int(high):
                self.say(f"too long: {len(raw)} characters, at most {high}")
            else:
                return raw

    async def items(self, name: str, schema: Mapping[str, Any]) -> list[dict[str, Any]]:
        item_props = _props(schema["items"])
        assert item_props is not None
        # Text first: an empty first line then naturally means "no more items".
        order = sorted(item_props, key=lambda k: 0 if _is_text(item_props[k]) else 1)
        most = schema.get("maxItems")
        out: list[dict[str, Any]] = []
        while most is None or len(out) < int(most):
            left = f" of at most {most}" if most is not None else ""
            self.say(f"{name} #{len(out) + 1}{left} (empty line = done):")
            if not _is_text(item_props[order[0]]):
                more = (await self.ask("add one? [y/N]> ")).strip().lower()
                if more not in ("y", "yes"):
                    break
            item: dict[str, Any] = {}
            for i, key in enumerate(order):
                sub = item_props[key]
                if _is_text(sub):
                    got = await self.text(f"  {key}", sub, can_end=i == 0)
                    if got is None:
                        return out
                    item[key] = got
                else:
                    item[key] = await self.choose(key, sub, indent="  ")
            out.append(item)
        return out


def describe(value: Mapping[str, Any]) -> list[str]:
    """The filled form, one line per field (list items indented), for the confirmation."""
    lines: list[str] = []
    for key, val in value.items():
        if isinstance(val, list):
            lines.append(f"{key}: {len(val) or 'none'}")
            for item in val:
                lines.append("  - " + ", ".join(f"{k}: {v}" for k, v in item.items()))
        else:
            lines.append(f"{key}: {val}")
    return lines

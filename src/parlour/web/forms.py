"""A decision as an HTML form, and a submitted form back into an action.

The form is derived from the Decision's type only, so every game gets a working page
without web code of its own: choose-one is a list of buttons with eligible names,
choose-many checkboxes with min/max, free text a text box with the length bound, and a
structured decision one field per schema property: a select of the legal values (a
Diplomacy unit and its legal orders), a text box, or rows of a list of small objects
(Diplomacy press: recipient and text). Whatever the form sends is checked again by the
engine through ``Decision.check`` and the game's ``apply``; the form only helps.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request

from parlour.core.actions import Action, Choice, Choices, Structured, Text
from parlour.core.asks import Hints
from parlour.core.decisions import Decision, DecisionKind
from parlour.core.errors import IllegalAction


@dataclass(frozen=True)
class Field:
    """One input of a structured form. ``kind``: select | text | number | rows | json."""

    name: str
    label: str
    kind: str
    choices: tuple[tuple[str, str], ...] = ()  # (value, label)
    max_length: int = 0
    #: rows: the sub-fields of each row and how many rows may be filled.
    columns: tuple[Field, ...] = ()
    rows: int = 0


def _enum_field(
    name: str, prop: dict[str, Any], labels: dict[str, str], hints: Hints | None = None
) -> Field | None:
    kind = prop.get("type")
    if isinstance(prop.get("enum"), list):
        values = [str(v) for v in prop["enum"]]
        if hints is not None:  # likely options first, as the terminal shows them
            values = [v for _, v in hints.shown(name, values)]
        return Field(name, name, "select", tuple((v, labels.get(v, v)) for v in values))
    if kind == "string":
        return Field(name, name, "text", max_length=int(prop.get("maxLength", 0)))
    if kind in ("integer", "number"):
        return Field(name, name, "number")
    return None


def structured_fields(decision: Decision) -> tuple[Field, ...]:
    """The form fields of a structured decision; a single ``json`` field when the schema
    is not a flat object of selects, texts, numbers and lists of such rows."""
    schema = decision.json_schema or {}
    props = schema.get("properties")
    whole = (Field("json", "answer (JSON)", "json"),)
    if schema.get("type") != "object" or not isinstance(props, dict):
        return whole
    # Diplomacy puts order labels per unit in the context; any game may do the same.
    hints = Hints.of(decision)
    all_labels, names = hints.labels, hints.names
    fields: list[Field] = []
    for name, prop in props.items():
        if not isinstance(prop, dict):
            return whole
        labels = all_labels.get(name, {}) if isinstance(all_labels, dict) else {}
        simple = _enum_field(name, prop, labels if isinstance(labels, dict) else {}, hints)
        if simple is not None:
            title = names.get(name, name) if isinstance(names, dict) else name
            fields.append(
                Field(simple.name, str(title), simple.kind, simple.choices, simple.max_length)
            )
            continue
        items = prop.get("items")
        if prop.get("type") == "array" and isinstance(items, dict) and items.get("properties"):
            columns = [_enum_field(k, v, {}) for k, v in items["properties"].items()]
            if any(c is None for c in columns):
                return whole
            rows = int(prop.get("maxItems", 3))
            fields.append(
                Field(name, name, "rows", columns=tuple(c for c in columns if c), rows=rows)
            )
            continue
        return whole
    return tuple(fields)


def _structured(decision: Decision, form: dict[str, list[str]]) -> Structured:
    fields = structured_fields(decision)
    if fields and fields[0].kind == "json":
        raw = _one(form, "json")
        try:
            value = json.loads(raw)
        except json.JSONDecodeError as err:
            raise IllegalAction(f"not valid JSON: {err.msg}", decision_id=decision.id) from err
        if not isinstance(value, dict):
            raise IllegalAction("the answer must be a JSON object", decision_id=decision.id)
        return Structured(value=value)
    out: dict[str, Any] = {}
    for f in fields:
        if f.kind == "rows":
            rows: list[dict[str, Any]] = []
            for i in range(f.rows):
                row = {c.name: _one(form, f"f.{f.name}.{i}.{c.name}") for c in f.columns}
                # A row left blank (no text typed) is not sent: "say nothing" stays legal.
                if any(
                    v.strip()
                    for c, v in zip(f.columns, row.values(), strict=True)
                    if c.kind != "select"
                ):
                    rows.append(row)
            out[f.name] = rows
        elif f.kind == "number":
            raw = _one(form, f"f.{f.name}")
            try:
                out[f.name] = int(raw) if raw.strip().lstrip("-").isdigit() else float(raw)
            except ValueError as err:
                raise IllegalAction(f"{f.name}: not a number", decision_id=decision.id) from err
        else:
            out[f.name] = _one(form, f"f.{f.name}")
    return Structured(value=out)


def _one(form: dict[str, list[str]], key: str) -> str:
    values = form.get(key) or [""]
    return values[0]


def action_from_form(decision: Decision, form: dict[str, list[str]]) -> Action:
    """The action a submitted form means; ``IllegalAction`` when it means none.

    Legality is the engine's to decide (``Decision.check`` and ``apply``); this only
    reads the form's shape.
    """
    if decision.kind is DecisionKind.CHOOSE_ONE:
        return Choice(option=_one(form, "option"))
    if decision.kind is DecisionKind.CHOOSE_MANY:
        return Choices(options=tuple(form.get("options", [])))
    if decision.kind is DecisionKind.FREE_TEXT:
        return Text(text=_one(form, "text"))
    return _structured(decision, form)


async def read_form(request: Request) -> dict[str, list[str]]:
    """A posted form as name → values (every value of a repeated name, files dropped)."""
    form = await request.form()
    out: dict[str, list[str]] = {}
    for key, value in form.multi_items():
        if isinstance(value, str):
            out.setdefault(key, []).append(value)
    return out

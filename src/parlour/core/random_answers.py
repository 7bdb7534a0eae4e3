"""Random legal answers to any decision: the floor policy and the conformance suite's driver."""

from __future__ import annotations

import string
from typing import Any

from parlour.core.actions import Action, Choice, Choices, Structured, Text
from parlour.core.decisions import Decision, DecisionKind
from parlour.core.rng import Rng


def random_answer(decision: Decision, rng: Rng) -> Action:
    if decision.kind is DecisionKind.CHOOSE_ONE:
        return Choice(option=rng.choice(decision.option_ids))
    if decision.kind is DecisionKind.CHOOSE_MANY:
        upper = min(decision.max_choices, len(decision.options))
        k = rng.randint(max(decision.min_choices, 1 if decision.required_any else 0), upper)
        if not decision.required_any:
            return Choices(options=tuple(rng.sample(decision.option_ids, k)))
        first = rng.choice(decision.required_any)
        rest = [o for o in decision.option_ids if o != first]
        picked = [first, *rng.sample(rest, k - 1)]
        return Choices(options=tuple(rng.shuffled(picked)))
    if decision.kind is DecisionKind.FREE_TEXT:
        if decision.allow_empty and rng.random() < 0.3:
            return Text(text="")
        words = ["hm", "well", "I", "think", "so", "maybe", "not", "sure", "yes", "no"]
        text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 12)))
        return Text(text=text[: decision.max_length] or "ok")
    assert decision.json_schema is not None
    value = random_value(decision.json_schema, rng)
    assert isinstance(value, dict)
    return Structured(value=value)


def random_value(schema: dict[str, Any], rng: Rng) -> Any:
    """A value valid for the simple JSON schemas games use (objects, enums, strings, numbers)."""
    if "enum" in schema:
        return rng.choice(list(schema["enum"]))
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type", "object")
    if kind == "object":
        props: dict[str, Any] = schema.get("properties", {})
        return {name: random_value(sub, rng) for name, sub in props.items()}
    if kind == "array":
        low = int(schema.get("minItems", 0))
        high = int(schema.get("maxItems", low + 3))
        return [random_value(schema.get("items", {}), rng) for _ in range(rng.randint(low, high))]
    if kind == "string":
        low = int(schema.get("minLength", 1))
        high = max(low, min(int(schema.get("maxLength", 12)), 12))
        return "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(low, high)))
    if kind == "integer":
        return rng.randint(int(schema.get("minimum", 0)), int(schema.get("maximum", 9)))
    if kind == "number":
        return float(rng.randint(int(schema.get("minimum", 0)), int(schema.get("maximum", 9))))
    if kind == "boolean":
        return rng.random() < 0.5
    return None

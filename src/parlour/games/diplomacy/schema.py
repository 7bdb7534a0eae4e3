"""JSON-schema pieces for the answers diplomacy asks for.

Every object an answer holds is closed and complete: each property required, no
others allowed, so a model's constrained grammar stays simple and a parsed answer
always has every field.
"""

from __future__ import annotations

from typing import Any


def closed_object(properties: dict[str, Any]) -> dict[str, Any]:
    """An object with exactly ``properties``, all of them required."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def list_of(item_properties: dict[str, Any], max_items: int) -> dict[str, Any]:
    """An array of at most ``max_items`` closed objects with ``item_properties``."""
    return {"type": "array", "maxItems": max_items, "items": closed_object(item_properties)}

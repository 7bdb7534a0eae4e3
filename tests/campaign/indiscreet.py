"""An indiscreet agent for the gate tests (``python:tests.campaign.indiscreet:agent``): it
answers as the scripted seats do, then writes every marker-bearing sentence of its view
into every free-text field of its answer (as many whole sentences as fit, then the bare
markers of the rest), and asks for a rewrite when it reviews, so the reason carries them.
The player's ``/ooc`` questions go out as asked, so the story director's out-of-character
answer (free text) is where the indiscreet story director puts what it knows."""

from __future__ import annotations

import re
from typing import Any

from parlour.core.actions import Action, Structured, Text
from parlour.core.conformance import strings_in
from parlour.core.decisions import Decision
from parlour.core.markers import MARKER_SHAPE
from parlour.core.rng import Rng, hash_seed
from parlour.core.view import AnyView
from parlour.games.campaign.policies import campaign_policy

_END = re.compile(r"[.!?|\n]\s+")
#: the free-text fields of each structured purpose (a path of keys)
FIELDS: dict[str, tuple[tuple[str, ...], ...]] = {
    "open": (("text",), ("notes_for_self",)),
    "synopsis": (("text",), ("notes_for_self",)),
    "scene": (("narration",),),
    "route": (("check", "reason"),),
    "review": (("reason",),),
    "sheet": (("attitude",), ("note",)),
}


def told(view: AnyView) -> list[str]:
    """Every sentence of the view that carries a marker, shortest first."""
    found: dict[str, str] = {}
    for _, text in strings_in(view.model_dump(mode="json"), ""):
        for mark in MARKER_SHAPE.finditer(text):
            before = text[: mark.start()].rstrip()
            # back to the end of the sentence before the one the marker closes
            ends = [m.end() for m in _END.finditer(before[:-1])]
            sentence = f"{before[ends[-1] if ends else 0 :].strip()} {mark.group()}".strip()
            best = found.get(mark.group())
            if best is None or len(sentence) < len(best):
                found[mark.group()] = sentence
    return sorted(found.values(), key=len)


def fit(sentences: list[str], limit: int) -> str:
    out = ""
    for sentence in sentences:
        if len(out) + len(sentence) + 1 <= limit:
            out = f"{out} {sentence}".strip()
    for sentence in sentences:
        for marker in MARKER_SHAPE.findall(sentence):
            if marker not in out and len(out) + len(marker) + 1 <= limit:
                out = f"{out} {marker}".strip()
    return out


def _schema_at(schema: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    for key in path:
        schema = schema["properties"][key]
    return schema


def agent(view: AnyView, decision: Decision) -> Action:
    base = campaign_policy(view, decision, Rng(hash_seed(0, decision.id)))
    secrets = told(view)
    if isinstance(base, Text) and base.text.startswith("/ooc"):
        return base  # the story director's answer to it is the text to screen
    if isinstance(base, Text):
        return Text(text=fit(secrets, decision.max_length) or base.text)
    assert isinstance(base, Structured) and decision.json_schema is not None
    value: dict[str, Any] = dict(base.value)
    if decision.purpose == "review":
        value["approve"] = False
    if decision.purpose == "route" and "check" not in value:
        return base
    for path in FIELDS.get(decision.purpose, ()):
        limit = int(_schema_at(decision.json_schema, path).get("maxLength", 200))
        said = fit(secrets, limit)
        if not said:
            continue
        target = value
        for key in path[:-1]:
            target[key] = dict(target[key])
            target = target[key]
        target[path[-1]] = said
    return Structured(value=value)

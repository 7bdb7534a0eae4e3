"""The indiscreet model: always a valid answer, and every secret it saw in every free-text
field of it. The worst model there is for keeping secrets, so a game's gates and the leak
audit can be tested against it without a network or weights.

* ``indiscreet``: each free-text field carries, verbatim, every sentence of the prompt (all
  messages) that holds a leak marker (``models/secret_text.py``), as many whole sentences
  as the field's length bound allows and the bare markers of the rest.
* on a retry (its answer was sent back as invalid, e.g. by a copy guard or a gate) every
  free-text field carries the bare markers of those sentences instead.
* ``indiscreet(paraphrase=true)``: the same sentences restated in other words (stop words
  dropped, synonyms, clauses reversed, lower case; names and markers kept), so that a
  screen looking only for verbatim copies misses what the audit still sees.

A free-text field is a string with no ``enum``, ``const``, ``pattern`` or ``format``; any
other value is made valid for its schema: option ids and enum values are picked by a hash
of ``seed``, the request's stream (``cache_key``), its number in that stream and its
messages (so a seat asked the same question twice need not answer alike, and a resumed
game, told by ``resume_stream``, answers as an uninterrupted one), numbers from their
bounds, pattern-bound strings from the prompt's words. An optional property is filled
only when it holds free text and there is a secret to tell; an array gets one item when
its items hold text (else its minimum). A schema this cannot satisfy gets the plainest
answer it can make; nothing raises. Lengths are bounded by the output spec and the schema
(``max_chars``, ``maxLength``), not by ``max_tokens``: a real model cut off there would
have been told to say less, and the seat clips what it shows anyway.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from collections.abc import Sequence
from typing import Any, Final

import jsonschema

from parlour.models.base import Capabilities, parsed_response
from parlour.models.messages import (
    RETRY_OPENING,
    ModelRequest,
    ModelResponse,
    OutputKind,
    OutputSpec,
    Usage,
    answer_schema,
    messages_digest,
)
from parlour.models.secret_text import Secret, fit, restated, secrets_in

#: What a free-text field says when the prompt held no secret.
PLAIN: Final = "Nothing to add."
#: Strings offered to a pattern-bound field besides the prompt's own words.
_STOCK: Final = ("Ada", "Bram", "Cora", "Dov", "Edda", "Finn", "Gale", "Hugo", "Ines", "Jory")
_FORMATS: Final = {
    "date": "2000-01-01",
    "date-time": "2000-01-01T00:00:00Z",
    "time": "00:00:00Z",
    "email": "someone@example.org",
    "uri": "https://example.org/",
    "uuid": "00000000-0000-4000-8000-000000000000",
}
_TOKEN: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_'-]*")


def _free(schema: dict[str, Any]) -> bool:
    """A string field of prose: no enum, const, pattern or format constrains it."""
    kinds = schema.get("type")
    stringy = kinds == "string" or (isinstance(kinds, list) and "string" in kinds)
    return stringy and not any(k in schema for k in ("enum", "const", "pattern", "format"))


def holds_free_text(schema: Any) -> bool:
    """Whether a value of ``schema`` has a free-text field anywhere inside it."""
    if not isinstance(schema, dict):
        return False
    if _free(schema):
        return True
    props = schema.get("properties")
    if isinstance(props, dict) and any(holds_free_text(s) for s in props.values()):
        return True
    return holds_free_text(schema.get("items"))


class _Filler:
    """Builds one answer: the secrets to tell, and a deterministic pick per schema path."""

    def __init__(self, secrets: Sequence[Secret], salt: str, words: Sequence[str]) -> None:
        self.secrets = list(secrets)
        self.salt = salt
        self.words = list(dict.fromkeys([*words, *_STOCK]))

    def pick(self, path: str, count: int) -> int:
        digest = hashlib.blake2b(f"{self.salt}:{path}".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big") % max(1, count)

    def text(self, low: int, high: int | None) -> str:
        told = fit(self.secrets, high) if self.secrets else ""
        said = told or PLAIN
        while len(said) < low:  # a minimum length no secret reaches: padded with words
            said += " " + PLAIN
        return said if high is None else said[:high]

    def pattern(self, schema: dict[str, Any], path: str, taken: set[str]) -> str:
        regex = re.compile(str(schema["pattern"]))
        low = int(schema.get("minLength", 0))
        high = schema.get("maxLength")
        fits = [
            w
            for w in self.words
            if regex.search(w) and low <= len(w) and (high is None or len(w) <= high)
        ]
        free = [w for w in fits if w not in taken] or fits
        return free[self.pick(path, len(free))] if free else ""

    def value(self, schema: Any, path: str, taken: set[str] | None = None) -> Any:
        """A value for ``schema`` at ``path`` (``taken``: strings a sibling already used)."""
        if not isinstance(schema, dict):
            return None
        if "const" in schema:
            return schema["const"]
        if isinstance(schema.get("enum"), list) and schema["enum"]:
            options = list(schema["enum"])
            unused = [o for o in options if o not in (taken or set())] or options
            return unused[self.pick(path, len(unused))]
        for key in ("anyOf", "oneOf"):
            if isinstance(schema.get(key), list) and schema[key]:
                return self.value(schema[key][0], f"{path}|0", taken)
        kind = schema.get("type", "object")
        if isinstance(kind, list):
            kind = "string" if "string" in kind else (kind[0] if kind else "null")
        if kind == "object":
            return self.object(schema, path)
        if kind == "array":
            return self.array(schema, path)
        if kind == "string":
            return self.string(schema, path, taken or set())
        if kind in ("integer", "number"):
            return self.number(schema, kind)
        if kind == "boolean":
            return self.pick(path, 2) == 1
        return None

    def object(self, schema: dict[str, Any], path: str) -> dict[str, Any]:
        props = schema.get("properties")
        props = props if isinstance(props, dict) else {}
        required = set(schema.get("required") or ())
        out: dict[str, Any] = {}
        for name, sub in props.items():
            if name in required or (self.secrets and holds_free_text(sub)):
                out[name] = self.value(sub, f"{path}/{name}")
        for name in sorted(required - set(props)):
            out[name] = PLAIN  # required but undescribed: any value does
        return out

    def array(self, schema: dict[str, Any], path: str) -> list[Any]:
        items = schema.get("items")
        low = int(schema.get("minItems", 0))
        high = schema.get("maxItems")
        # One item where items carry text: a channel to tell through (a press message),
        # and a plain one still gets the game going when there is nothing to tell yet.
        count = max(low, 1 if holds_free_text(items) else 0)
        count = min(count, int(high)) if high is not None else count
        out: list[Any] = []
        taken: set[str] = set()
        for n in range(count):
            item = self.value(items, f"{path}[{n}]", taken)
            if isinstance(item, str):
                taken.add(item)
            out.append(item)
        return out

    def string(self, schema: dict[str, Any], path: str, taken: set[str]) -> str:
        if "pattern" in schema:
            return self.pattern(schema, path, taken)
        if "format" in schema:
            return _FORMATS.get(str(schema["format"]), PLAIN)
        high = schema.get("maxLength")
        return self.text(int(schema.get("minLength", 0)), None if high is None else int(high))

    @staticmethod
    def number(schema: dict[str, Any], kind: str) -> int | float:
        value: float = 0
        if "minimum" in schema:
            value = schema["minimum"]
        elif "exclusiveMinimum" in schema:
            value = schema["exclusiveMinimum"] + 1
        if "maximum" in schema and value > schema["maximum"]:
            value = schema["maximum"]
        elif "exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]:
            value = schema["exclusiveMaximum"] - 1
        return int(value) if kind == "integer" else float(value)


class IndiscreetBackend:
    """A ModelBackend that answers validly and tells every secret it was shown."""

    capabilities = Capabilities(json_schema=True)

    def __init__(self, *, paraphrase: bool = False, seed: int = 0) -> None:
        self.paraphrase = paraphrase
        self.seed = seed
        self._calls: dict[str | None, int] = defaultdict(int)

    def resume_stream(self, key: str | None, answered: Sequence[bool]) -> None:
        """Count the calls a resumed game's stream ``key`` made before (each was answered:
        this backend never raises)."""
        self._calls[key] += len(answered)

    @property
    def name(self) -> str:
        return "indiscreet"

    @property
    def model_id(self) -> str:
        return "indiscreet(paraphrase)" if self.paraphrase else "indiscreet"

    def secrets(self, request: ModelRequest) -> list[Secret]:
        """The secret sentences of the request's messages, restated if asked to. On a
        retry (the seat sent an answer back as invalid) only their markers: the bare
        secret, which a copy guard cannot object to, so the model stays as indiscreet as
        the game lets it be."""
        found = secrets_in([m.content for m in request.messages])
        last = request.messages[-1] if request.messages else None
        if last is not None and last.role == "user" and last.content.startswith(RETRY_OPENING):
            return [Secret(" ".join(s.markers), s.markers) for s in found]
        return restated(found) if self.paraphrase else found

    def answer(self, request: ModelRequest, index: int = 0) -> str:
        """The answer's text (``index``: the call's number in its stream): valid for the
        request's output spec whenever it can be."""
        spec = request.output
        secrets = self.secrets(request)
        words = _TOKEN.findall(" ".join(m.content for m in request.messages))
        salt = f"{self.seed}:{request.cache_key}:{index}:{messages_digest(request.messages)}"
        if spec.kind is OutputKind.TEXT:
            return _Filler(secrets, salt, words).text(0, spec.max_chars)
        for told in (secrets, []):  # the plainest answer when the telling one is invalid
            value = self._structured(spec, _Filler(told, salt, words))
            schema = answer_schema(spec)
            if schema is None or not _errors(schema, value):
                break
        return json.dumps(value, ensure_ascii=False)

    @staticmethod
    def _structured(spec: OutputSpec, filler: _Filler) -> Any:
        why = filler.text(0, None)
        ids = list(spec.option_ids)
        if spec.kind is OutputKind.CHOICE:
            return {"choice": ids[filler.pick("choice", len(ids))], "why": why}
        if spec.kind is OutputKind.CHOICES:
            count = spec.min_choices or min(1, spec.max_choices)
            start = filler.pick("choices", len(ids))
            picked = [ids[(start + n) % len(ids)] for n in range(count)]
            return {"choices": picked, "why": why}
        return filler.value(spec.object_schema, "")

    async def complete(self, request: ModelRequest) -> ModelResponse:
        index = self._calls[request.cache_key]
        self._calls[request.cache_key] = index + 1
        try:
            text = self.answer(request, index)
        except Exception:  # never raise on a request shape: an empty object is an answer
            text = "{}" if request.output.structured else PLAIN
        return parsed_response(
            text,
            request.output,
            usage=Usage(
                input_tokens=sum(len(m.content) for m in request.messages) // 4,
                output_tokens=len(text) // 4,
            ),
            model_id=self.model_id,
        )


def _errors(schema: dict[str, Any], value: Any) -> bool:
    try:
        return any(True for _ in jsonschema.Draft202012Validator(schema).iter_errors(value))
    except Exception:  # a schema jsonschema cannot evaluate: let the parser say so
        return True

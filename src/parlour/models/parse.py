"""Turn a model's text answer into the spec's object, or into feedback the model can act on.

Extraction is forgiving (code fences, leading prose, a bare option id); checking is not:
the object must satisfy the spec. Callers still validate against their own rules.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import jsonschema

from parlour.models.messages import OutputKind, OutputSpec, answer_schema, format_instruction

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
_MAX_LISTED = 12


class AnswerFormatError(ValueError):
    """The answer does not have the requested shape; ``str(e)`` is feedback for the model."""

    @property
    def feedback(self) -> str:
        return str(self)


def extract_json(text: str) -> Any:
    """The first JSON object in ``text`` (inside code fences if any, after any prose)."""
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    decoder = json.JSONDecoder()
    first_error: json.JSONDecodeError | None = None
    for chunk in candidates:
        start = chunk.find("{")
        while start != -1:
            try:
                value, _ = decoder.raw_decode(chunk, start)
                return value
            except json.JSONDecodeError as e:
                first_error = first_error or e
            start = chunk.find("{", start + 1)
    if first_error is not None:
        raise AnswerFormatError(f"the JSON object is malformed ({first_error.msg})")
    raise AnswerFormatError("no JSON object found in the answer")


def _listing(ids: tuple[str, ...]) -> str:
    shown = ", ".join(json.dumps(i) for i in ids[:_MAX_LISTED])
    return shown + (f" … ({len(ids)} in all)" if len(ids) > _MAX_LISTED else "")


def _bare_choice(text: str, spec: OutputSpec) -> dict[str, Any] | None:
    # Small models often answer just `alice` or `"alice"`; accept an exact id.
    bare = text.strip().strip("`").strip().strip('"').strip("'").strip()
    return {"choice": bare, "why": ""} if bare in spec.option_ids else None


def _check_choice(value: dict[str, Any], spec: OutputSpec) -> dict[str, Any]:
    if "choice" not in value:
        raise AnswerFormatError(f'missing "choice"; {format_instruction(spec)}')
    pick = value["choice"]
    if not isinstance(pick, str) or pick not in spec.option_ids:
        raise AnswerFormatError(
            f"{json.dumps(pick)} is not a legal option id; use exactly one of: "
            f"{_listing(spec.option_ids)}"
        )
    return value


def _check_choices(value: dict[str, Any], spec: OutputSpec) -> dict[str, Any]:
    picks = value.get("choices")
    if not isinstance(picks, list):
        raise AnswerFormatError(f'"choices" must be a list; {format_instruction(spec)}')
    bad = [p for p in picks if not isinstance(p, str) or p not in spec.option_ids]
    if bad:
        raise AnswerFormatError(
            f"not legal option ids: {', '.join(json.dumps(b) for b in bad)}; "
            f"legal: {_listing(spec.option_ids)}"
        )
    if len(set(picks)) != len(picks):
        raise AnswerFormatError("the same option id appears twice; list distinct ids")
    if not spec.min_choices <= len(picks) <= spec.max_choices:
        raise AnswerFormatError(
            f"choose between {spec.min_choices} and {spec.max_choices} ids, got {len(picks)}"
        )
    return value


def _check_why(value: dict[str, Any]) -> None:
    if "why" in value and not isinstance(value["why"], str):
        raise AnswerFormatError('"why" must be a string')


def parse_answer(text: str, spec: OutputSpec) -> Any:
    """The answer as a spec-valid object (or the text for free text); else ``AnswerFormatError``."""
    if spec.kind is OutputKind.TEXT:
        if spec.max_chars is not None and len(text) > spec.max_chars:
            raise AnswerFormatError(f"too long: {len(text)} characters, at most {spec.max_chars}")
        return text
    if not text.strip():
        raise AnswerFormatError(f"the answer is empty; {format_instruction(spec)}")
    try:
        value = extract_json(text)
    except AnswerFormatError:
        bare = _bare_choice(text, spec) if spec.kind is OutputKind.CHOICE else None
        if bare is None:
            raise
        value = bare
    if not isinstance(value, dict):
        raise AnswerFormatError(f"expected a JSON object; {format_instruction(spec)}")
    if spec.kind is OutputKind.CHOICE:
        _check_why(value)
        return _check_choice(value, spec)
    if spec.kind is OutputKind.CHOICES:
        _check_why(value)
        return _check_choices(value, spec)
    schema = answer_schema(spec)
    assert schema is not None
    errors = sorted(
        jsonschema.Draft202012Validator(schema).iter_errors(value),
        key=lambda e: list(e.absolute_path),
    )
    if errors:
        where = "/".join(str(p) for p in errors[0].absolute_path) or "(root)"
        raise AnswerFormatError(f"invalid object at {where}: {errors[0].message}")
    return value


def try_parse(text: str, spec: OutputSpec) -> tuple[Any | None, str | None]:
    """``(parsed, None)`` or ``(None, feedback)``: what backends put in a ModelResponse."""
    try:
        return parse_answer(text, spec), None
    except AnswerFormatError as e:
        return None, e.feedback


@dataclass
class _JsonTail:
    """Where a JSON prefix stands at its end: the brackets still open (their closers, in
    opening order), whether it ends inside a string (and where that string opened), and
    whether its last character starts an escape."""

    closers: list[str]
    in_string: bool
    escaped: bool
    string_start: int


def _tail(text: str) -> _JsonTail:
    tail = _JsonTail([], False, False, -1)
    for i, ch in enumerate(text):
        if tail.in_string:
            if tail.escaped:
                tail.escaped = False
            elif ch == "\\":
                tail.escaped = True
            elif ch == '"':
                tail.in_string = False
        elif ch == '"':
            tail.in_string, tail.string_start = True, i
        elif ch in "{[":
            tail.closers.append("}" if ch == "{" else "]")
        elif ch in "}]" and tail.closers:
            tail.closers.pop()
    return tail


def _close(text: str) -> str:
    tail = _tail(text)
    if tail.in_string:
        text = (text[:-1] if tail.escaped else text) + '"'
    return text + "".join(reversed(tail.closers))


def _finish_open_value(text: str) -> str:
    """``text`` with a string value it ends inside trimmed to its last finished sentence
    or whole word (``finish_cut_text``; the raw, still escaped characters are cut, never
    inside an escape since a cut falls at a space or a sentence mark)."""
    tail = _tail(text)
    start = tail.string_start
    if not tail.in_string or not text[:start].rstrip().endswith(":"):
        return text
    raw = text[start + 1 :]
    flat = raw.rstrip()
    whole = " " in flat or _SENTENCE_END.search(flat) is not None
    return text[: start + 1] + (finish_cut_text(raw) if whole else "")


#: Where a sentence ends: its mark and any closing quotes or brackets after it.
_SENTENCE_END = re.compile(r"[.!?…][\"'”’)\]]*(?=\s|$)")
#: What may not end a trimmed text before its ellipsis.
_DANGLING = " ,;:-–—"


def finish_cut_text(text: str) -> str:
    """A free-text answer the model was stopped in (token or character limit) as a person
    may read it: up to its last finished sentence, else up to its last whole word and an
    ellipsis. A limit that falls mid-word ("His fathe") must never reach a reader.

    >>> finish_cut_text("I saw her. Her fathe")
    'I saw her.'
    >>> finish_cut_text("Ask Noor about the boat, she was at the qua")
    'Ask Noor about the boat, she was at the…'
    """
    flat = text.rstrip()
    ends = list(_SENTENCE_END.finditer(flat))
    if ends:
        return flat[: ends[-1].end()]
    # a text of one word is kept whole; one whose only space opens it finished no word
    head, space, _ = flat.rpartition(" ")
    kept = (head if space else flat).rstrip(_DANGLING)
    return f"{kept}…" if kept else ""


def close_truncated_json(text: str) -> str | None:
    """Complete a JSON prefix cut off by max_tokens, or ``None`` if no completion parses.

    Meant for grammar-constrained answers, which are always a valid JSON prefix:
    ``{"choice": "a", "why": "I saw her. Becau`` becomes ``{"choice": "a", "why": "I saw
    her."}`` (a string value cut mid-word is trimmed as ``finish_cut_text`` trims free
    text, to nothing when not one word of it was finished). When the cut falls inside a
    key, the unfinished member is dropped instead.
    """
    text = _finish_open_value(text)
    cuts = [len(text)] + [i for i in range(len(text) - 1, -1, -1) if text[i] in ",{["]
    for cut in cuts:
        head = text[:cut] if cut == len(text) or text[cut] == "," else text[: cut + 1]
        candidate = _close(head.rstrip())
        try:
            json.loads(candidate)
        except json.JSONDecodeError:
            continue
        return candidate
    return None

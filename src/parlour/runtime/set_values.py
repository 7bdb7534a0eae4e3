"""``--set KEY=VALUE``: values are YAML, read by the safe loader, errors name the option and type.

A value that is not YAML (``names=[a``) or that its tag cannot hold (``maniac=!!bool maybe``)
is one line naming the option and what it expects, read from the game's config model; type
checks of well-formed values stay with the game's ``make_config``.
"""

from __future__ import annotations

import types
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

from parlour.core.errors import ParlourError
from parlour.core.safe_yaml import Limits, YamlError, load_value

#: An option value is one line on a command line (a cast can be a few KB of JSON).
SET_LIMITS = Limits(
    max_bytes=256 * 1024, max_depth=16, max_aliases=0, max_nodes=10_000, max_chars=256 * 1024
)


def parse_set_options(
    items: list[str] | None, config_model: type[BaseModel] | None = None
) -> dict[str, object]:
    out: dict[str, object] = {}
    for item in items or []:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ParlourError(
                f"bad --set '{item}'; write KEY=VALUE, e.g. --set reveal_roles=false"
            )
        try:
            out[key] = load_value(raw, name=f"--set {key}", limits=SET_LIMITS)
        except YamlError as err:
            expected = expected_type(config_model, key)
            hint = f"; {key} expects {expected}" if expected else ""
            raise ParlourError(f"bad --set {key}: {err.problem}{hint}") from err
    return out


def expected_type(config_model: type[BaseModel] | None, key: str) -> str:
    """Words for a config field's type (``true or false``, ``a list of text``); "" if unknown."""
    if config_model is None or key not in config_model.model_fields:
        return ""
    return describe(config_model.model_fields[key].annotation)


def describe(annotation: Any) -> str:
    origin, args = get_origin(annotation), get_args(annotation)
    if origin in (Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        return " or ".join(describe(a) for a in inner)
    if origin is Literal:
        return "one of " + ", ".join(str(a) for a in args)
    if origin in (tuple, list):
        return f"a list of {describe(args[0]) if args else 'values'}, e.g. [a, b]"
    if origin is dict:
        return "a mapping, e.g. {key: 1}"
    if annotation is bool:
        return "true or false"
    if annotation is int:
        return "a whole number"
    if annotation is float:
        return "a number"
    if annotation is str:
        return "text"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "a mapping of its fields"
    return getattr(annotation, "__name__", str(annotation))

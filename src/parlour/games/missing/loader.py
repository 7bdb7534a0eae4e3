"""Reading town files: YAML (through ``core.safe_yaml``) with line numbers → a frozen ``Town``
or a ``TownError`` naming file, line and key, e.g.
``towns/quay.yaml:14: characters[2]: unknown key 'secrit' (did you mean 'secret'?)``.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_args

from pydantic import BaseModel, ValidationError

from parlour.core.safe_yaml import LinedData, YamlError, load_lined, read_text
from parlour.games.missing.town import Town, TownError

CONTENT_DIR = Path(__file__).parent / "content"
DEFAULT_TOWN = "lantern_quay"

_TYPE_WORDS = {
    "string_type": "must be text (quote it if it looks like a number or yes/no)",
    "bool_type": "must be true or false",
    "int_type": "must be a whole number",
    "float_type": "must be a number",
    "tuple_type": "must be a list, e.g. [a, b]",
    "list_type": "must be a list, e.g. [a, b]",
    "string_too_short": "must not be empty",
    "too_short": "must not be empty",
    "model_type": "must be a mapping of keys",
    "greater_than_equal": "is too small",
    "less_than_equal": "is too large",
}


@dataclass(frozen=True)
class LoadedTown:
    town: Town
    lined: LinedData
    file: str


def shipped_names() -> list[str]:
    return sorted(p.stem for p in CONTENT_DIR.glob("*.yaml"))


def town_path(name_or_path: str | Path) -> Path:
    path = Path(name_or_path)
    if path.is_file():
        return path
    shipped = CONTENT_DIR / f"{name_or_path}.yaml"
    if isinstance(name_or_path, str) and "/" not in name_or_path and shipped.is_file():
        return shipped
    raise TownError(
        f"no town '{name_or_path}': give a path to a .yaml file or one of the shipped towns: "
        f"{', '.join(shipped_names())}",
        file=str(name_or_path),
    )


def load_town(name_or_path: str | Path) -> LoadedTown:
    path = town_path(name_or_path)
    try:
        text = read_text(path)
    except YamlError as err:
        raise TownError(str(err), file=str(path), line=err.line) from err
    source = str(name_or_path) if not Path(name_or_path).is_file() else str(path)
    return parse_town(text, file=str(path), source=source)


def parse_town(text: str, *, file: str = "<town>", source: str = "") -> LoadedTown:
    try:
        lined = load_lined(text, file=file)
    except YamlError as err:
        raise TownError(str(err), file=file, line=err.line) from err
    if not isinstance(lined.data, dict):
        keys = ", ".join(Town.model_fields)
        raise TownError(f"{file}:1: a town is a mapping with keys {keys}", file=file, line=1)
    _check_keys(lined.data, Town, (), lined, file)
    try:
        town = Town.model_validate_json(json.dumps(lined.data, default=str), strict=True)
    except ValidationError as err:
        raise _explain(err, lined, file) from err
    return LoadedTown(town.model_copy(update={"source": source or file}), lined, file)


def _where(path: tuple[str | int, ...]) -> str:
    parts = [f"[{p}]" if isinstance(p, int) else f".{p}" for p in path]
    return "".join(parts).lstrip(".")


def _model_of(model: type[BaseModel], key: str) -> type[BaseModel] | None:
    """The model a key's items (or value) must be, when it is one."""
    annotation = model.model_fields[key].annotation
    for arg in (annotation, *get_args(annotation)):
        if isinstance(arg, type) and issubclass(arg, BaseModel):
            return arg
    return None


def _check_keys(
    mapping: dict[str, Any],
    model: type[BaseModel],
    path: tuple[str | int, ...],
    lined: LinedData,
    file: str,
) -> None:
    allowed = tuple(k for k in model.model_fields if k != "source")
    for key, value in mapping.items():
        if key not in allowed:
            close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
            hint = (
                f" (did you mean '{close[0]}'?)" if close else f" (allowed: {', '.join(allowed)})"
            )
            line = lined.line_of((*path, key))
            where = f"{_where(path)}: " if path else ""
            raise TownError(
                f"{file}:{line}: {where}unknown key '{key}'{hint}", file=file, line=line
            )
        inner = _model_of(model, key)
        if inner is None:
            continue
        if isinstance(value, dict):
            _check_keys(value, inner, (*path, key), lined, file)
        elif isinstance(value, list):
            for n, item in enumerate(value):
                if isinstance(item, dict):
                    _check_keys(item, inner, (*path, key, n), lined, file)


def _explain(err: ValidationError, lined: LinedData, file: str) -> TownError:
    errors = err.errors()
    first = min(errors, key=lambda e: lined.line_of(tuple(e["loc"])))
    path = tuple(first["loc"])
    if first["type"] == "missing":
        line = lined.line_of(path[:-1])
        text = f"missing key '{path[-1]}'"
        where = _where(path[:-1])
    else:
        line = lined.line_of(path)
        text = _TYPE_WORDS.get(first["type"], first["msg"])
        where = _where(path)
    more = f" (and {len(errors) - 1} more problem(s))" if len(errors) > 1 else ""
    prefix = f"{where}: " if where else ""
    return TownError(f"{file}:{line}: {prefix}{text}{more}", file=file, line=line)

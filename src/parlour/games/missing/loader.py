"""Reading town files: YAML (through ``core.safe_yaml``) with line numbers → a frozen ``Town``
or a ``TownError`` naming file, line and key, e.g.
``towns/quay.yaml:14: characters[2]: unknown key 'secrit' (did you mean 'secret'?)``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from parlour.core.content_file import (
    ContentLoader,
    ShippedContent,
    first_problem,
    first_unknown_key,
    lined_or_error,
)
from parlour.core.safe_yaml import LinedData
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


def _error(message: str, *, file: str, line: int = 0, code: str = "") -> TownError:
    return TownError(message, file=file, line=line)


def parse_town(text: str, *, file: str = "<town>", source: str = "") -> LoadedTown:
    lined = lined_or_error(text, file, _error)
    if not isinstance(lined.data, dict):
        keys = ", ".join(Town.model_fields)
        raise TownError(f"{file}:1: a town is a mapping with keys {keys}", file=file, line=1)
    unknown = first_unknown_key(lined.data, Town, skip=frozenset({"source"}))
    if unknown is not None:
        line = lined.line_of((*unknown.path, unknown.key))
        where = f"{_where(unknown.path)}: " if unknown.path else ""
        raise TownError(
            f"{file}:{line}: {where}unknown key '{unknown.key}' ({unknown.hint})",
            file=file,
            line=line,
        )
    try:
        town = Town.model_validate_json(json.dumps(lined.data, default=str), strict=True)
    except ValidationError as err:
        raise _explain(err, lined, file) from err
    return LoadedTown(town.model_copy(update={"source": source or file}), lined, file)


def _where(path: tuple[str | int, ...]) -> str:
    parts = [f"[{p}]" if isinstance(p, int) else f".{p}" for p in path]
    return "".join(parts).lstrip(".")


def _explain(err: ValidationError, lined: LinedData, file: str) -> TownError:
    problem = first_problem(err, lined)
    first, path = problem.error, problem.path
    if first["type"] == "missing":
        line = lined.line_of(path[:-1])
        text = f"missing key '{path[-1]}'"
        where = _where(path[:-1])
    else:
        line = lined.line_of(path)
        text = _TYPE_WORDS.get(first["type"], first["msg"])
        where = _where(path)
    more = problem.more
    prefix = f"{where}: " if where else ""
    return TownError(f"{file}:{line}: {prefix}{text}{more}", file=file, line=line)


_TOWNS = ContentLoader(ShippedContent(CONTENT_DIR, "town", "towns"), _error, parse_town)
shipped_names = _TOWNS.names
#: A path to an existing file, or a shipped town's name.
town_path = _TOWNS.path
load_town = _TOWNS.load

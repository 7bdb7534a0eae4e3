"""Reading campaign files: YAML (through ``core/safe_yaml``) → a frozen ``Campaign``, or one
``CampaignError`` naming file, line and code. Codes:

=====  ==========================================================================
C001   a key the format does not have (with the closest allowed key)
C002   a missing key or a value of the wrong type
C003   two things share an id
C004   a reference to an NPC id that does not exist
C005   a reference to a location that does not exist
C006   a skill (in the PC's modifiers) that is not in ``skills``
C007   an item (in the inventory) that is not in ``items``
C008   a faction that does not exist
C009   a list that must not be empty is empty (npcs, locations, skills, difficulties)
=====  ==========================================================================

YAML problems keep safe_yaml's codes (Y001–Y007).
"""

from __future__ import annotations

import difflib
import json
import types
import typing
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from parlour.core.safe_yaml import LinedData, YamlError, load_lined, read_text
from parlour.games.campaign.content import Campaign, CampaignError

CAMPAIGN_DIR = Path(__file__).parent / "campaigns"
PathKey = tuple[str | int, ...]


def shipped_names() -> list[str]:
    return sorted(p.name.removesuffix(".yaml") for p in CAMPAIGN_DIR.glob("*.yaml"))


def campaign_path(name_or_path: str | Path) -> Path:
    path = Path(name_or_path)
    if path.is_file():
        return path
    shipped = CAMPAIGN_DIR / f"{name_or_path}.yaml"
    if isinstance(name_or_path, str) and "/" not in name_or_path and shipped.is_file():
        return shipped
    raise CampaignError(
        f"no campaign '{name_or_path}': give a path to a .yaml file or one of the shipped "
        f"campaigns: {', '.join(shipped_names())}",
        file=str(name_or_path),
    )


def load_campaign(name_or_path: str | Path) -> Campaign:
    path = campaign_path(name_or_path)
    try:
        text = read_text(path)
    except YamlError as err:
        raise CampaignError(str(err), file=str(path), line=err.line, code=err.code) from err
    source = str(name_or_path) if not Path(name_or_path).is_file() else str(path)
    return parse_campaign(text, file=str(path), source=source)


def parse_campaign(text: str, *, file: str = "<campaign>", source: str = "") -> Campaign:
    from parlour.games.campaign.validate import check_references

    try:
        lined = load_lined(text, file=file)
    except YamlError as err:
        raise CampaignError(str(err), file=file, line=err.line, code=err.code) from err
    if not isinstance(lined.data, dict):
        raise _error(file, 1, "C002", "a campaign is a mapping with keys title, pc, npcs, ...")
    _check_keys(lined.data, Campaign, (), lined, file)
    try:
        campaign = Campaign.model_validate_json(json.dumps(lined.data, default=str), strict=True)
    except ValidationError as err:
        raise _explain(err, lined, file) from err
    check_references(campaign, lined, file)
    return campaign.model_copy(update={"source": source or file})


def _error(file: str, line: int, code: str, problem: str) -> CampaignError:
    return CampaignError(f"{file}:{line}: [{code}] {problem}", file=file, line=line, code=code)


def _model_of(annotation: Any) -> type[BaseModel] | None:
    """The model inside ``Model``, ``tuple[Model, ...]``, ``Model | None``, if any."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    origin = typing.get_origin(annotation)
    if origin in (tuple, list, typing.Union, types.UnionType):
        for arg in typing.get_args(annotation):
            found = _model_of(arg)
            if found is not None:
                return found
    return None


def _check_keys(
    data: Any, model: type[BaseModel], path: PathKey, lined: LinedData, file: str
) -> None:
    """Unknown keys anywhere in the tree, with the closest allowed one (C001)."""
    if not isinstance(data, dict):
        return
    allowed = tuple(k for k in model.model_fields if k != "source")
    for key, value in data.items():
        if key not in allowed:
            close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
            hint = f"did you mean '{close[0]}'?" if close else f"allowed: {', '.join(allowed)}"
            raise _error(file, lined.line_of((*path, key)), "C001", f"unknown key '{key}' ({hint})")
        sub = _model_of(model.model_fields[key].annotation)
        if sub is None:
            continue
        if isinstance(value, list):
            for n, item in enumerate(value):
                _check_keys(item, sub, (*path, key, n), lined, file)
        else:
            _check_keys(value, sub, (*path, key), lined, file)


_TYPE_WORDS = {
    "string_type": "must be text (quote it if it looks like a number, a date or yes/no)",
    "int_type": "must be a whole number",
    "bool_type": "must be true or false",
    "tuple_type": "must be a list, e.g. [a, b]",
    "string_too_short": "must not be empty",
    "model_type": "must be a mapping of keys",
    "dict_type": "must be a mapping of keys",
}


def _explain(err: ValidationError, lined: LinedData, file: str) -> CampaignError:
    errors = err.errors()
    first = min(errors, key=lambda e: lined.line_of(tuple(e["loc"])))
    path: PathKey = tuple(first["loc"])
    dotted = ".".join(str(p) for p in path)
    if first["type"] == "missing":
        problem = f"missing key '{dotted}'"
        line = lined.line_of(path[:-1])
    else:
        problem = f"'{dotted}' {_TYPE_WORDS.get(first['type'], first['msg'])}"
        line = lined.line_of(path)
    more = f" (and {len(errors) - 1} more problem(s))" if len(errors) > 1 else ""
    return _error(file, line, "C002", problem + more)

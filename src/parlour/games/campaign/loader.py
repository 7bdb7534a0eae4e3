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
C010   an NPC line topic or reaction band that does not exist
C011   a check rule naming a skill or a difficulty that does not exist
C012   an NPC line with a placeholder it may not use
=====  ==========================================================================

YAML problems keep safe_yaml's codes (Y001–Y007).
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from parlour.core.content_file import (
    ContentLoader,
    ShippedContent,
    first_problem,
    first_unknown_key,
    lined_or_error,
    must_be,
)
from parlour.core.safe_yaml import LinedData
from parlour.games.campaign.content import Campaign, CampaignError

CAMPAIGN_DIR = Path(__file__).parent / "campaigns"


def _content_error(message: str, *, file: str, line: int = 0, code: str = "") -> CampaignError:
    return CampaignError(message, file=file, line=line, code=code)


def parse_campaign(text: str, *, file: str = "<campaign>", source: str = "") -> Campaign:
    from parlour.games.campaign.validate import check_references

    lined = lined_or_error(text, file, _content_error)
    if not isinstance(lined.data, dict):
        raise _error(file, 1, "C002", "a campaign is a mapping with keys title, pc, npcs, ...")
    unknown = first_unknown_key(lined.data, Campaign, skip=frozenset({"source"}))
    if unknown is not None:
        line = lined.line_of((*unknown.path, unknown.key))
        raise _error(file, line, "C001", f"unknown key '{unknown.key}' ({unknown.hint})")
    try:
        campaign = Campaign.model_validate_json(json.dumps(lined.data, default=str), strict=True)
    except ValidationError as err:
        raise _explain(err, lined, file) from err
    check_references(campaign, lined, file)
    return campaign.model_copy(update={"source": source or file})


def _error(file: str, line: int, code: str, problem: str) -> CampaignError:
    return CampaignError(f"{file}:{line}: [{code}] {problem}", file=file, line=line, code=code)


def _explain(err: ValidationError, lined: LinedData, file: str) -> CampaignError:
    problem = first_problem(err, lined)
    first, path = problem.error, problem.path
    dotted = ".".join(str(p) for p in path)
    if first["type"] == "missing":
        words = f"missing key '{dotted}'"
        line = lined.line_of(path[:-1])
    else:
        words = f"'{dotted}' {must_be(first)}"
        line = lined.line_of(path)
    return _error(file, line, "C002", words + problem.more)


_CAMPAIGNS = ContentLoader(
    ShippedContent(CAMPAIGN_DIR, "campaign", "campaigns"), _content_error, parse_campaign
)
shipped_names = _CAMPAIGNS.names
campaign_path = _CAMPAIGNS.path
load_campaign = _CAMPAIGNS.load

"""Campaign config. It embeds the parsed campaign, so a stored game replays exactly even if
the file is later edited; ``make_config`` does the (only) file read."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from parlour.core.errors import ParlourError
from parlour.games.campaign.content import Campaign
from parlour.games.campaign.loader import load_campaign

DEFAULT_CAMPAIGN = "night_school"


class CampaignConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    campaign: Campaign
    sessions: int = Field(default=2, ge=1, le=50)
    turns_per_session: int = Field(default=5, ge=1, le=200)
    #: the story director checks each scene draft against the secrets (one rewrite at most)
    review: bool = False
    act_max_length: int = Field(default=300, ge=20)
    narrate_max_length: int = Field(default=700, ge=80)
    line_max_length: int = Field(default=240, ge=20)
    plant_markers: bool = False


def make_config(players: int | None, overrides: dict[str, object]) -> CampaignConfig:
    """``--set campaign=NAME_OR_PATH`` plus any config field; reads the campaign file."""
    if players not in (None, 1):
        raise ParlourError(f"campaign is played by one player, not {players}; drop --players")
    options = dict(overrides)
    source = options.pop("campaign", DEFAULT_CAMPAIGN)
    if isinstance(source, Campaign):
        campaign = source
    elif isinstance(source, str):
        campaign = load_campaign(source)
    else:
        raise ParlourError("--set campaign= takes a shipped campaign name or a path to a .yaml")
    unknown = sorted(set(options) - set(CampaignConfig.model_fields))
    if unknown:
        allowed = ", ".join(sorted(CampaignConfig.model_fields))
        raise ParlourError(f"unknown campaign option(s) {', '.join(unknown)}; options: {allowed}")
    try:
        return CampaignConfig.model_validate({**options, "campaign": campaign})
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ParlourError(f"bad campaign option {where}: {first['msg']}") from err

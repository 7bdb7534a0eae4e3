"""Campaign config. It embeds the parsed campaign, so a stored game replays exactly even if
the file is later edited; ``make_config`` does the (only) file read."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from parlour.core.game_config import content_config
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
    return content_config(
        CampaignConfig,
        players,
        overrides,
        game="campaign",
        key="campaign",
        default=DEFAULT_CAMPAIGN,
        content=Campaign,
        load=load_campaign,
    )

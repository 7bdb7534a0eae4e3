"""Campaign config. It embeds the parsed campaign, so a stored game replays exactly even if
the file is later edited; ``make_config`` does the (only) file read."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from parlour.core.game_config import content_config
from parlour.games.campaign.content import Campaign
from parlour.games.campaign.loader import load_campaign
from parlour.games.campaign.state import SEATS

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
    #: seats that answer in acts (``acts.py``): each question they would answer in words
    #: becomes a choice among lines the game words; by default the seats a small model plays
    act_seats: tuple[str, ...] = ()
    #: every line the game words (the scripted seats', the acts' options) is the wording
    #: that repeats the fewest phrases already said (``wording.py``); on in new games
    fresh_wording: bool = False

    @field_validator("act_seats")
    @classmethod
    def _known_seats(cls, seats: tuple[str, ...]) -> tuple[str, ...]:
        unknown = [s for s in seats if s not in SEATS]
        if unknown:
            raise ValueError(f"act_seats: no seat {', '.join(unknown)}; seats: {', '.join(SEATS)}")
        return tuple(dict.fromkeys(seats))


def make_config(players: int | None, overrides: dict[str, object]) -> CampaignConfig:
    """``--set campaign=NAME_OR_PATH`` plus any config field; reads the campaign file.
    ``act_seats`` may be given as ``a,b`` (``--set act_seats=scene-director,game-director``),
    or empty (``--set act_seats=``: every seat writes, a small model's too). New games
    word their lines afresh (``fresh_wording``) unless set."""
    options = dict(overrides)
    options.setdefault("fresh_wording", True)
    seats = options.get("act_seats", ())
    if seats is None:  # ``--set act_seats=``: no seat in acts, a small model's too
        options["act_seats"] = ()
    elif isinstance(seats, str):
        options["act_seats"] = tuple(s.strip() for s in seats.split(",") if s.strip())
    return content_config(
        CampaignConfig,
        players,
        options,
        game="campaign",
        key="campaign",
        default=DEFAULT_CAMPAIGN,
        content=Campaign,
        load=load_campaign,
    )

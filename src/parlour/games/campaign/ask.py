"""What a campaign decision asks beyond its prompt and schema, typed.

The game builds a frozen ``CampaignAsk`` for each decision that needs one (route, sheet)
and puts it on the decision as ``context={"campaign": ask.model_dump()}``
(``ask.context()``); the prompter and the scripted policies read it back only through
``ask_of(decision)``, which validates it. The generic keys seats and the web read
(``labels``, ``names``, ``summary``, ...) are not campaign's and stay beside it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from parlour.core.decisions import Decision
from parlour.core.errors import ParlourError

#: the key of campaign's own facts in ``Decision.context``
ASK_KEY = "campaign"


class CampaignAsk(BaseModel):
    """Campaign's facts about one decision; a field not set is its default."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    #: route (game director): the player's message of this turn
    message: str = ""
    #: sheet (story director): the id of the NPC whose sheet is updated
    npc: str = ""

    def context(self) -> dict[str, Any]:
        """The decision's ``context``: this ask under campaign's key."""
        return {ASK_KEY: self.model_dump()}


def ask_of(decision: Decision) -> CampaignAsk:
    """The ``CampaignAsk`` a decision carries, validated (the route and sheet decisions
    carry one; asking another decision for it is a bug, named here)."""
    raw = decision.context.get(ASK_KEY)
    if raw is None:
        raise ParlourError(f"decision {decision.id} carries no campaign ask ({ASK_KEY!r})")
    return CampaignAsk.model_validate(raw)

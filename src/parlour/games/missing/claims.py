"""``--as NAME`` for missing: a person who names a character plays that character.

Seats are named after the character cards the seed deals, so a character of the cast may
not be seated at all. Naming one (first name, full name or card id, any case) therefore
asks for it: the config's ``claims`` make the deal include it (``deal.py``).
A seat number or id asks for nothing; a name that is no playable card is refused in one
line that lists the characters one can play.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from parlour.core.errors import ParlourError
from parlour.games.missing.config import MissingConfig

_SEAT_KEY = re.compile(r"p?\d+", re.IGNORECASE)


def claim_options(key: str, config: BaseModel) -> dict[str, object]:
    """Config options that seat the character ``key`` names ({} for a seat number or id)."""
    if not isinstance(config, MissingConfig):
        raise ParlourError("missing needs a MissingConfig (use make_config)")
    wanted = key.strip().casefold()
    if _SEAT_KEY.fullmatch(wanted):
        return {}
    playable = [c for c in config.town.characters if not config.cards or c.id in config.cards]
    for card in playable:
        if wanted in (card.id.casefold(), card.name.casefold(), card.name.split()[0].casefold()):
            if card.id in config.claims:
                return {}
            return {"claims": (*config.claims, card.id)}
    names = ", ".join(c.name.split()[0] for c in playable)
    among = " among --set cards" if config.cards else f" in {config.town.title}"
    raise ParlourError(f"no character '{key}'{among}; you can play: {names}")

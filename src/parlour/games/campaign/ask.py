"""What a campaign decision asks beyond its prompt and schema, typed.

The game builds a frozen ``CampaignAsk`` for each decision that needs one (route, line,
sheet, ooc, and every act: ``acts.py``) and puts it on the decision as
``context=ask.context()``; the game, the prompter and the scripted policies read it back
only through ``CampaignAsk.of(decision)`` (or ``find``), which validates it
(``core/asks.py``).
"""

from __future__ import annotations

from typing import ClassVar

from parlour.core.actions import Action
from parlour.core.asks import GameAsk
from parlour.core.decisions import Decision


class CampaignAsk(GameAsk):
    """Campaign's facts about one decision; a field not set is its default."""

    KEY: ClassVar[str] = "campaign"

    #: route (game director): the player's message of this turn; ooc (story director):
    #: the player's out-of-character question
    message: str = ""
    #: sheet (story director): the id of the NPC whose sheet is updated; line (scene
    #: director): the id of the NPC who speaks
    npc: str = ""
    #: route (game director): the check the engine's rule (``risks.py``) holds the player's
    #: action to ("" when nothing in it can fail); rolled even if the director asks none
    risk_skill: str = ""
    risk_difficulty: str = ""
    risk_reason: str = ""
    #: an act (``acts.py``): the decision's own answer each option stands for, by option
    answers: tuple[Action, ...] = ()

    @classmethod
    def is_act(cls, decision: Decision) -> bool:
        """Is ``decision`` an act (``acts.py``): a choice among answers the game worded?"""
        ask = cls.find(decision)
        return ask is not None and bool(ask.answers)


class WordingAsk(GameAsk):
    """How the game words a seat's lines in this decision (``CampaignConfig.fresh_wording``:
    on in new games): ``fresh``, the wording that repeats the fewest phrases already said
    (``wording.py``); a decision without it (a game stored before) is worded as then."""

    KEY: ClassVar[str] = "wording"

    fresh: bool = False

    @classmethod
    def is_fresh(cls, decision: Decision) -> bool:
        ask = cls.find(decision)
        return ask is not None and ask.fresh

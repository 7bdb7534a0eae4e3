"""Game-agnostic kernel: decisions, actions, events, views, RNG and the Game protocol."""

from parlour.core.actions import Action, Choice, Choices, Structured, Text, action_from_json
from parlour.core.decisions import Deadline, Decision, DecisionKind, Option
from parlour.core.errors import IllegalAction, ParlourError
from parlour.core.events import Audience, Event
from parlour.core.game import Game, GameInfo, Result, SeatInfo
from parlour.core.rng import Rng
from parlour.core.view import AnyView, Facts, NoFacts, View

__all__ = [
    "Action",
    "AnyView",
    "Audience",
    "Choice",
    "Choices",
    "Deadline",
    "Decision",
    "DecisionKind",
    "Event",
    "Facts",
    "Game",
    "GameInfo",
    "IllegalAction",
    "NoFacts",
    "Option",
    "ParlourError",
    "Result",
    "Rng",
    "SeatInfo",
    "Structured",
    "Text",
    "View",
    "action_from_json",
]

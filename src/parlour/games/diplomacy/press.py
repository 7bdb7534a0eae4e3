"""Press: rounds of messages before each movement phase's orders.

Each surviving power answers one structured decision per round,
``{"messages": [{"to": "ALL" | <power>, "text": str}]}``; an empty list says nothing.
A message to ALL is an event everyone sees; a message to one power is an event whose
audience is exactly the two powers, so it can never reach a third power's view. With
``plant_markers`` every private message carries a marker only those two may see.
"""

from __future__ import annotations

from typing import Any

from parlour.core.actions import Action, Structured
from parlour.core.asks import Hints, contexts
from parlour.core.decisions import Decision, DecisionKind, TextCheck
from parlour.core.events import Audience
from parlour.games.diplomacy.ask import DiplomacyAsk
from parlour.games.diplomacy.config import DiplomacyConfig
from parlour.games.diplomacy.decisions import trusted_decision
from parlour.games.diplomacy.state import DiplomacyState
from parlour.games.diplomacy.views import board_summary, power_name, surviving

PRESS = "press"
ALL = "ALL"

#: The shared guards (seats/text_guard.py) on every press text a model writes: no copied
#: instructions, no loops, not the last line of another power (or another of its own texts).
PRESS_CHECKS: tuple[TextCheck, ...] = ("prompt_copy", "repetition", "echo")
#: The press decision's checked field: every message's text.
PRESS_FIELDS = ("messages[].text",)


def press_schema(recipients: list[str], cfg: DiplomacyConfig) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "messages": {
                "type": "array",
                "maxItems": cfg.press_max_messages,
                "items": {
                    "type": "object",
                    "properties": {
                        "to": {"type": "string", "enum": recipients},
                        "text": {
                            "type": "string",
                            "minLength": 1,
                            "maxLength": cfg.press_max_length,
                        },
                    },
                    "required": ["to", "text"],
                    "additionalProperties": False,
                },
            }
        },
        "required": ["messages"],
        "additionalProperties": False,
    }


def press_decisions(st: DiplomacyState, cfg: DiplomacyConfig) -> list[Decision]:
    """One decision per surviving power for the current round."""
    board = st.board
    alive = surviving(board)
    out = []
    for power in alive:
        others = [p for p in alive if p != power]
        recipients = [ALL, *others]
        channels = ", ".join(power_name(p) for p in others)
        out.append(
            trusted_decision(
                id=f"{board.phase.name}:press{st.press_round}:{power}",
                seat=power,
                kind=DecisionKind.STRUCTURED,
                purpose=PRESS,
                max_tokens=400,
                prompt=(
                    f"Press before the {board.phase.long_name} orders, round {st.press_round} "
                    f"of {cfg.press_rounds}: send up to {cfg.press_max_messages} messages "
                    f"(to ALL, or privately to one power), or none."
                ),
                json_schema=press_schema(recipients, cfg),
                checks=PRESS_CHECKS,
                checked_fields=PRESS_FIELDS,
                context=contexts(
                    DiplomacyAsk(
                        round=st.press_round, rounds=cfg.press_rounds, recipients=recipients
                    ),
                    Hints(
                        summary=board_summary(board, power, heading=False)
                        + f"\nPress: to ALL (everyone reads it) or privately to {channels}."
                    ),
                ),
            )
        )
    return out


def apply_press(
    st: DiplomacyState, cfg: DiplomacyConfig, decision: Decision, action: Action
) -> None:
    assert isinstance(action, Structured)
    sender = decision.seat
    phase = st.board.phase.name
    for i, message in enumerate(action.value.get("messages", [])):
        text = str(message["text"]).strip()
        if not text:
            continue  # a blank message is saying nothing
        to = str(message["to"])
        data = {"from": sender, "to": to, "round": st.press_round}
        if to == ALL:
            st.emit("press", text, Audience.everyone(), speaker=sender, data=data)
            continue
        text += st.markers.plant(f"press:{phase}:{st.press_round}:{sender}>{to}:{i}", [sender, to])
        st.emit("press", text, Audience.only(sender, to), speaker=sender, data=data)


def silent() -> Action:
    """The scripted bots' press: say nothing."""
    return Structured(value={"messages": []})

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
from parlour.core.decisions import Decision, TextCheck
from parlour.core.events import Audience
from parlour.games.diplomacy.ask import DiplomacyAsk
from parlour.games.diplomacy.board import Board
from parlour.games.diplomacy.config import DiplomacyConfig
from parlour.games.diplomacy.decisions import structured_decision
from parlour.games.diplomacy.schema import closed_object, list_of
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
    message = {
        "to": {"type": "string", "enum": recipients},
        "text": {"type": "string", "minLength": 1, "maxLength": cfg.press_max_length},
    }
    return closed_object({"messages": list_of(message, cfg.press_max_messages)})


def press_decision(
    board: Board,
    cfg: DiplomacyConfig,
    power: str,
    *,
    tag: str,
    n: int,
    prompt: str,
    pool: str = "",
    hint: str = "",
    **fields: Any,
) -> Decision:
    """``power``'s press decision: up to ``press_max_messages`` messages, each to ALL or to
    one other surviving power. ``tag`` and round ``n`` name it in the decision id; ``hint``
    follows the board summary."""
    recipients = [ALL, *(p for p in surviving(board) if p != power)]
    return structured_decision(
        board.phase.name,
        power,
        PRESS,
        tag=tag,
        n=n,
        max_tokens=400,
        prompt=prompt,
        json_schema=press_schema(recipients, cfg),
        checks=PRESS_CHECKS,
        checked_fields=PRESS_FIELDS,
        context=contexts(
            DiplomacyAsk(round=n, rounds=cfg.press_rounds, recipients=recipients, pool=pool),
            Hints(summary=board_summary(board, power, heading=False) + hint),
        ),
        **fields,
    )


def press_decisions(st: DiplomacyState, cfg: DiplomacyConfig) -> list[Decision]:
    """One decision per surviving power for the current round."""
    board = st.board
    alive = surviving(board)
    return [
        press_decision(
            board,
            cfg,
            power,
            tag=PRESS,
            n=st.press_round,
            prompt=(
                f"Press before the {board.phase.long_name} orders, round {st.press_round} "
                f"of {cfg.press_rounds}: send up to {cfg.press_max_messages} messages "
                f"(to ALL, or privately to one power), or none."
            ),
            hint="\nPress: to ALL (everyone reads it) or privately to "
            + ", ".join(power_name(p) for p in alive if p != power)
            + ".",
        )
        for power in alive
    ]


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

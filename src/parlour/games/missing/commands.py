"""A person's ``/commands`` (``/search PLACE``, ``/who``, ``/time``, ``/help``), in any phase:
answered to them alone, never posted. Outside the chat a command answers the open setup
question, which is then asked again under a fresh id."""

from __future__ import annotations

from parlour.core.actions import Action, Text
from parlour.core.decisions import Decision
from parlour.core.events import Audience
from parlour.games.missing import asks
from parlour.games.missing.clock import mmss
from parlour.games.missing.config import MissingConfig
from parlour.games.missing.search import person_search
from parlour.games.missing.state import SEQUENTIAL, MissingState

#: Free-text answers outside the chat; a person's ``/command`` there is answered, not kept.
SETUP_TEXTS = ("background", "secret", "introduction", "relationship", "suspicion", "epilogue")


def for_person(st: MissingState, decision: Decision) -> Decision:
    """A setup question as its seat gets it: a person's names the commands (a model's
    prompt is unchanged) and, once they used one, carries a fresh id."""
    seat = decision.seat
    if not st.is_person(seat):
        return decision
    used = st.commands[seat]
    return decision.model_copy(
        update={
            "id": f"{decision.id}:{used}" if used else decision.id,
            "prompt": f"{decision.prompt} {asks.SETUP_COMMANDS}",
        }
    )


def is_command(st: MissingState, seat: str, action: Action) -> bool:
    return st.is_person(seat) and isinstance(action, Text) and action.text.strip().startswith("/")


def apply_setup_command(st: MissingState, cfg: MissingConfig, seat: str, line: str) -> None:
    """A command typed as the answer to a setup question: answered; the question stays."""
    st.commands[seat] += 1
    command(st, cfg, seat, line.strip())


def command(st: MissingState, cfg: MissingConfig, seat: str, line: str) -> None:
    """Answer the person's command line privately."""
    word, _, rest = line[1:].partition(" ")
    word = word.casefold()
    chat = st.phase == "chat"
    setup = st.phase in ("characters", *SEQUENTIAL)
    places = ", ".join(loc.name for loc in st.town.locations)
    if word == "search" and chat:
        reply = person_search(st, cfg, seat, rest.strip())
    elif word == "search":
        reply = (
            f"Searching is not available until the chat starts ({places})."
            if setup
            else "The search is over."
        )
    elif word == "who":
        reply = _who(st)
    elif word == "time" and (chat or not setup):
        reply = f"{mmss(st.left)} left on the clock."
    elif word == "time":
        reply = f"The clock starts when the chat starts: {mmss(st.left)} on it."
    elif chat:
        reply = f"Commands: /search PLACE ({places}), /who, /time. Anything else is a message."
    else:
        reply = (
            "Commands: /who, /time, /help; /search PLACE once the chat starts. "
            "Anything else is your answer to the question."
        )
    st.log.emit(
        "reply",
        st.phase,
        reply,
        Audience.only(seat),
        data={"command": word, "clock": mmss(st.left)},
    )


def _who(st: MissingState) -> str:
    parts = []
    for s in st.seats:
        where = next(
            (
                st.town.location(p).name
                for p, (who, until) in st.busy.items()
                if who == s and st.left > until
            ),
            "",
        )
        at = f", at {where}" if where else ""
        parts.append(f"{st.name(s)} ({st.card(s).pronouns}{at}): {st.messages[s]} messages")
    return "; ".join(parts)

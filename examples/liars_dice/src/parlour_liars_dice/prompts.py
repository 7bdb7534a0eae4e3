"""Prompts for LLM seats, built from the seat's view alone.

Layers, most stable first: the rules and who the seat is (``system``); its own dice this
round (``memory``, changing once a round); this round's bids (``transcript``); and the
decision with its legal options verbatim (``command``), so a small model under a grammar
only has to pick one label.
"""

from __future__ import annotations

from parlour.core.decisions import Decision
from parlour.core.prompting import PromptParts, Utterance
from parlour.core.view import AnyView

RULES = (
    "Liar's dice. Every player has secret dice. A bid says how many dice on the whole "
    "table, everyone's together, show one face (for example 3 × five: at least three "
    "fives). Each bid must rise: more dice, or as many dice of a higher face. Instead of "
    "raising you may call the last bidder a liar: all dice are shown; if the bid was "
    "wrong the bidder loses a die, otherwise you do. The last player with dice wins."
)


class LiarsDicePrompter:
    def parts(self, view: AnyView, decision: Decision) -> PromptParts:
        public = view.public
        names: dict[str, str] = public.names
        others = ", ".join(
            f"{names[s]} {n}" for s, n in public.counts.items() if s != view.seat and n > 0
        )
        dice = " ".join(map(str, view.private.dice)) or "none"
        transcript = tuple(
            Utterance(
                speaker=names.get(e.speaker, e.speaker), text=e.text, own=e.speaker == view.seat
            )
            for e in view.events
            if e.kind == "bid" and e.phase == view.phase
        )
        options = "\n".join(f"- {o.label}" for o in decision.options)
        return PromptParts(
            system=f"{RULES}\nYou are {view.seat_name}.",
            memory=(
                f"Your dice: {dice}. Dice the others hold, unseen: {others}. "
                f"Dice on the table: {public.dice_in_play}."
            ),
            transcript=transcript,
            command=f"{decision.prompt}\nChoose one:\n{options}",
            reminders="Count your own dice of the face; guess about the rest.",
        )

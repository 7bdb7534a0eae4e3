"""How one turn's classification becomes what happened (shared by the game and the evaluator).

Rules, in order:

1. The classifier picked an action without an ``answer``: it happens.
2. It picked an answer action: it happens only if the player's text contains its answer.
   If the text instead contains the answer of another *available* answer action, that one
   happens (the exact answer is stronger evidence than the classifier's pick); otherwise
   the attempt fails with the action's ``wrong`` text and nothing is unlocked.
3. It picked ``none``: if the text contains the answer of an available answer action, the
   engine makes that action happen anyway (typing the code is enough); otherwise nothing.

The classifier alone can therefore never trigger an answer action, and an answer can only
unlock an action that is available (its needs are done).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict

from parlour.games.escape.answers import answer_in_text
from parlour.games.escape.scenario import NONE_ID, ScenarioAction

NO_EFFECT = "Nothing happens."
#: What the narrator is told when nothing happened, one chosen per turn by the game, the
#: least told first (``wording.py``; each keeps the narration rules of a no-effect turn).
#: Short on purpose: a game master answers a deed that does nothing in a word or two,
#: and a line of three words or fewer, however often told, repeats no 4-gram
#: (``evals/talk_quality.py``); the game's lead-ins vary them once told twice.
NO_EFFECT_LINES = (
    NO_EFFECT,
    "Nothing changes.",
    "No luck.",
    "That does nothing.",
    "No effect.",
    "Still nothing.",
    "In vain.",
    "It fails.",
    "No result.",
    "That changes nothing.",
    "Nothing at all.",
    "To no avail.",
)
DEFAULT_WRONG = "It does not work: that is not the right answer."
#: What the narrator is told when a repeatable action happens again (pressing the bell
#: again), one chosen per turn like a no-effect line: the player read what it does the
#: first time. Three words or fewer, none a denial (the action did happen).
REPEAT_LINES = (
    "Same again.",
    "The same again.",
    "Just the same.",
    "No different.",
    "Nothing new.",
    "Same as before.",
    "As it was.",
    "The same.",
)
#: What the narrator is told when the same wrong answer is tried again, one chosen per
#: turn by the game like a no-effect line: the first time the player reads the whole
#: attempt ("You try to ... The wheels click round, but the lock does not give."), then
#: one of these (three words or fewer, so however often told they repeat no 4-gram).
WRONG_LINES = (
    "Not that.",
    "No good.",
    "Not quite.",
    "Not right.",
    "Still wrong.",
    "Not it.",
    "Wrong again.",
    "No, not that.",
    "Not the answer.",
    "Still not right.",
)


class Outcome(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: Literal["done", "repeat", "wrong_answer", "no_effect"]
    action_id: str | None = None
    #: who decided: the classifier's pick, the engine's answer match, or nobody.
    via: Literal["classifier", "answer", "none"] = "none"

    @property
    def happened(self) -> str | None:
        """The action that happened this turn (also a repeat), else None."""
        return self.action_id if self.kind in ("done", "repeat") else None


def resolve(
    actions: Mapping[str, ScenarioAction],
    available: Iterable[str],
    done: frozenset[str] | set[str],
    choice: str,
    text: str,
) -> Outcome:
    open_ids = list(available)
    hits = [
        aid
        for aid in open_ids
        if (answer := actions[aid].answer) is not None and answer_in_text(answer, text)
    ]

    def happen(aid: str, via: Literal["classifier", "answer"]) -> Outcome:
        return Outcome(kind="repeat" if aid in done else "done", action_id=aid, via=via)

    if choice != NONE_ID and choice in open_ids:
        if actions[choice].answer is None:
            return happen(choice, "classifier")
        if choice in hits:
            return happen(choice, "classifier")
        if hits:
            return happen(hits[0], "answer")
        return Outcome(kind="wrong_answer", action_id=choice, via="classifier")
    if hits:
        return happen(hits[0], "answer")
    return Outcome(kind="no_effect")


def brief_for(outcome: Outcome, actions: Mapping[str, ScenarioAction]) -> str:
    """What the narrator is told happened; never more than the outcome unlocked.

    Written to the player ("You try to ..."): a narration that fails the engine's checks
    is replaced by this text, so it must read as narration, not as a note about a player."""
    if outcome.kind in ("done", "repeat") and outcome.action_id is not None:
        return actions[outcome.action_id].consequence
    if outcome.kind == "wrong_answer" and outcome.action_id is not None:
        act = actions[outcome.action_id]
        return f"You try to {act.description}. {wrong_text(act)}"
    return NO_EFFECT


def wrong_text(action: ScenarioAction) -> str:
    """What a wrong answer to ``action`` tells: its ``wrong`` text or the default."""
    return action.wrong or DEFAULT_WRONG

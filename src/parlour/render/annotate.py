"""A stored game replayed with every event tied to the answer that caused it.

The event log says what happened; the action log says who answered and how (``by``:
a model, a script, or ``fallback``). Replaying the actions one at a time gives each
event its author's answer, so a transcript can mark the words a fallback policy wrote
for a model seat, show vote reasons, and show private choices that left no event of
their own (a doctor's protection is only visible as "nobody died").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from parlour.core.actions import Action, Choice, Choices
from parlour.core.decisions import Decision
from parlour.core.errors import ParlourError
from parlour.core.events import Event
from parlour.core.game import Game
from parlour.runtime.session import opening
from parlour.runtime.store import ActionRow, Store


@dataclass
class Answer:
    """One stored action with what the transcript needs to know about it."""

    idx: int
    seat: str
    decision: Decision | None
    action: Action
    by: str
    fallback: bool
    #: Whether some event shows this answer (a speech, a vote); if none does, a revealed
    #: transcript shows the choice itself.
    shown: bool = False


@dataclass(frozen=True)
class Entry:
    """An event, or (``event is None``) a private choice that produced none."""

    event: Event | None
    answer: Answer | None
    phase: str

    @property
    def fallback(self) -> bool:
        return self.answer is not None and self.answer.fallback


@dataclass
class Annotated:
    game: Game
    entries: list[Entry] = field(default_factory=list)

    def silent_answers(self) -> list[Answer]:
        return [e.answer for e in self.entries if e.event is None and e.answer is not None]


def event_actor(event: Event) -> str:
    """The seat whose answer an event shows: the speaker, or a ballot's voter."""
    return event.speaker or str(event.data.get("voter", "") or "")


def annotate(store: Store, game_id: str) -> Annotated:
    _, game = opening(store.get_game(game_id))
    system = {s.id for s in game.seats() if s.system}
    # An LLM seat that spends its retries answers with the game's policy itself; the
    # runner then records the model as the author, so the call log says which it was.
    fell_back = {c.decision_id for c in store.calls(game_id) if c.outcome == "fallback"}
    out = Annotated(game, [Entry(e, None, e.phase) for e in game.events])
    latest: dict[str, Answer] = {}
    for act in store.actions(game_id):
        answer = _answer(game, act, act.decision_id in fell_back)
        latest[act.seat] = answer
        before = len(game.events)
        phase = game.events[-1].phase if game.events else ""
        game.apply(act.decision_id, act.action)
        out.entries.append(Entry(None, answer, phase))
        for event in game.events[before:]:
            actor = event_actor(event)
            owner = latest.get(actor) if actor else (answer if act.seat in system else None)
            if event.unasked:
                owner = None  # the seat's latest answer (a speech) did not choose this
            if owner is not None:
                owner.shown = True
            out.entries.append(Entry(event, owner, event.phase))
    if len(game.events) != store.event_count(game_id):
        raise ParlourError(
            f"game {game_id}: replay does not match the stored events; use the parlour "
            "version that recorded it"
        )
    # Keep the private choices nobody saw in any event (their position is where they
    # were made); drop the placeholders of answers an event already shows.
    out.entries = [e for e in out.entries if e.event is not None or _silent(e.answer)]
    return out


def _silent(answer: Answer | None) -> bool:
    return (
        answer is not None
        and not answer.shown
        and isinstance(answer.action, (Choice, Choices))
        and answer.decision is not None
    )


def _answer(game: Game, act: ActionRow, llm_fell_back: bool) -> Answer:
    decision = next((d for d in game.pending() if d.id == act.decision_id), None)
    return Answer(
        idx=act.idx,
        seat=act.seat,
        decision=decision,
        action=act.action,
        by=act.by,
        fallback=act.by == "fallback" or llm_fell_back,
    )


def choice_text(answer: Answer) -> str:
    """``protect: Kenji`` — what a private choice was, in the decision's own labels."""
    labels = {o.id: o.label for o in answer.decision.options} if answer.decision else {}
    action = answer.action
    picked: tuple[str, ...] = ()
    if isinstance(action, Choice):
        picked = (action.option,)
    elif isinstance(action, Choices):
        picked = action.options
    what = ", ".join(labels.get(p, p) for p in picked) or "nothing"
    purpose = answer.decision.purpose.replace("_", " ") if answer.decision else "choice"
    return f"{purpose}: {what}"


def reason_of(answer: Answer | None, event: Event | None = None) -> str:
    """The reason given with a choice (a vote's "why"), if any."""
    if event is not None and event.data.get("reason"):
        return str(event.data["reason"])
    if answer is not None and isinstance(answer.action, (Choice, Choices)):
        return answer.action.reason
    return ""

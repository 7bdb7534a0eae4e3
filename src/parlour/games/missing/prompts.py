"""Prompt parts for missing's LLM seats, built only from the seat's view and decision.

* The character questions (worldbuilding, secret) are asked in a fresh context holding
  only the seat's card, so the answers ("You ...") can be used verbatim afterwards.
* Every other prompt: ``system`` = the game's rules, the card, the verbatim second-person
  background and secret, the drive and the text-message rules (fixed once the characters
  are made); ``transcript`` = the group chat as this seat saw it (own lines as its own
  turns, others quoted as speech; its private cards and finds marked private);
  ``command`` = the decision; ``reminders`` = the relationship with the person it is
  answering and a pending story card, only in the last message, never stored.
"""

from __future__ import annotations

from parlour.core.decisions import Decision
from parlour.core.prompting import PromptParts, Utterance
from parlour.core.view import AnyView
from parlour.games.missing.asks import MissingAsk
from parlour.games.missing.views import MissingPrivate, MissingPublic

_SPEECH = {"message", "introduction", "relationship", "suspicion", "epilogue"}
_PRIVATE = {"story_card", "found", "reply"}
_ANNOUNCE = {"setting", "phase", "search", "ending", "debrief"}


def _card(me: MissingPrivate, pub: MissingPublic) -> str:
    traits = ", ".join(me.traits)
    return (
        f"You are {me.name} ({me.pronouns}), {me.relation}. You are {me.persona}; "
        f"traits: {traits}. Your friend {pub.friend} ({pub.friend_about}) has stopped "
        "answering messages."
    )


def _system(view: AnyView) -> str:
    pub: MissingPublic = view.public
    me: MissingPrivate = view.private
    names = ", ".join(f"{p.name} ({p.pronouns}, {p.relation})" for p in pub.players)
    places = ", ".join(p.name for p in pub.places)
    suspects = ", ".join(name for name, _ in pub.suspects)
    lines = [
        f"Game: Missing, in {pub.title}. {pub.intro}",
        f"Friends in the group chat: {names}. Suspects: {suspects}. Places: {places}.",
        "Nobody meets in person: you only text. You may search a place (one person per "
        "place at a time); what you find is shown to you alone, and you decide what to tell.",
        _card(me, pub),
    ]
    if me.background:
        lines.append(f"Your background: {me.background}")
    if me.secret:
        lines.append(f"Your secret (never tell it, but let it shape you): {me.secret}")
    lines.append(f"Your drive tonight: {me.drive}.")
    lines.append(
        f"Text-message rules: write like a text, at most {pub.message_limit} characters, "
        "plain words, no lists, no quotes of others. Speak as yourself, in the first person. "
        "Use only names you were given."
    )
    return "\n".join(lines)


def _transcript(view: AnyView) -> tuple[Utterance, ...]:
    names = {p.seat: p.name for p in view.public.players}
    out: list[Utterance] = []
    for event in view.events:
        clock = event.data.get("clock")
        if event.kind in _SPEECH and event.speaker:
            out.append(
                Utterance(
                    speaker=names.get(event.speaker, event.speaker),
                    text=event.text,
                    own=event.speaker == view.seat,
                )
            )
        elif event.kind in _PRIVATE:
            stamp = f"[{clock} left] " if clock else ""
            out.append(Utterance(speaker="only you", text=stamp + event.text, kind="private"))
        elif event.kind in _ANNOUNCE:
            stamp = f"[{clock} left] " if clock and event.kind == "search" else ""
            out.append(Utterance(speaker="game", text=stamp + event.text, kind="announcement"))
    return tuple(out)


def _reminders(view: AnyView) -> str:
    pub: MissingPublic = view.public
    me: MissingPrivate = view.private
    lines: list[str] = []
    last = pub.recent_speakers[-1] if pub.recent_speakers else ""
    if last and last != view.seat:
        for rel in me.relations:
            if {rel.seat, rel.other} == {view.seat, last} and rel.answer:
                who = next(p.name for p in pub.players if p.seat == rel.seat)
                lines.append(
                    f"You are answering someone you share history with. "
                    f"{rel.prompt} {who} said: {rel.answer}"
                )
    if me.card is not None:
        must = f" Mention: {', '.join(me.card.about)}." if me.card.about else ""
        lines.append(f"Story card to answer with your next message: {me.card.prompt}{must}")
    unshared = [c for c in me.clues if not c.shared]
    if unshared:
        lines.append(
            "Found and not yet told: " + "; ".join(f"{c.title} at {c.place_name}" for c in unshared)
        )
    lines.append(f"{pub.clock} left on the clock.")
    return "\n".join(lines)


class MissingPrompter:
    def parts(self, view: AnyView, decision: Decision) -> PromptParts:
        if MissingAsk.of(decision).fresh:
            # A fresh context: only the card, so the answer is about this character alone.
            return PromptParts(system=_card(view.private, view.public), command=decision.prompt)
        # The answer format lists the options' labels already; no second list to read.
        return PromptParts(
            system=_system(view),
            transcript=_transcript(view),
            command=decision.prompt,
            reminders=_reminders(view) if view.phase == "chat" else "",
        )

"""Prompt parts for LLM seats, built only from the seat's view and the open decision.

Layers, most stable first: ``system`` (rules + identity, fixed all game), ``memory``
(exact records: votes, night outcomes, private findings, own diaries), ``transcript``
(this phase's utterances) and ``command`` (the decision with its options verbatim).
"""

from __future__ import annotations

from typing import Any

from parlour.core.decisions import Decision, DecisionKind
from parlour.core.events import Event
from parlour.core.prompting import PromptParts, Utterance
from parlour.core.view import View

ROUTER_SYSTEM = (
    "You are the discussion router of a game of Werewolf. You decide who speaks next in "
    "the day discussion, using public information only. Keep the talk lively and fair: "
    "let a player who was just addressed answer, give quiet players a turn (they are "
    "marked NEEDS TURN, and every batch must include at least one of them), and never "
    "pick the player who spoke last."
)

_TRANSCRIPT_KINDS = {"speech", "wolf_chat", "debrief"}
_ANNOUNCE_KINDS = {"pass", "call_vote", "vote", "phase", "elimination", "death", "result"}


def _rules(view: View) -> str:
    pub = view.public
    rules: dict[str, Any] = pub.get("rules", {})
    counts = ", ".join(f"{r} ×{c}" for r, c in pub.get("role_counts", {}).items())
    players = ", ".join(str(p["name"]) for p in pub.get("players", []))
    lines = [
        "Game: Werewolf. Players: " + players + ".",
        f"Roles in play: {counts}.",
        "Each night the werewolves secretly kill one player, the seer learns whether one "
        "player is evil (werewolves and the maniac read as evil), the doctor protects one "
        "player (never the same one two nights in a row), and the maniac, if any, kills one "
        "player. By day everyone discusses, then votes; the player with the most votes is "
        "eliminated"
        + (" (ties: nobody)." if rules.get("tie_rule") == "no_elimination" else " (ties: lot)."),
        "The village wins when every werewolf and the maniac are dead; the werewolves win "
        "when they are at least as many as everyone else and the maniac is dead; the maniac "
        "wins when alone or with just one other non-werewolf.",
    ]
    if rules.get("vote_call"):
        lines.append(f"In the discussion, saying exactly {rules['vote_call']} calls the vote.")
    return "\n".join(lines)


def _identity(view: View) -> str:
    priv = view.private
    lines = [f"You are {view.seat_name} ({view.seat}).", str(priv.get("role_card", ""))]
    pack = priv.get("pack")
    if pack:
        lines.append("Your pack mates: " + ", ".join(str(w["name"]) for w in pack) + ".")
    return "\n".join(line for line in lines if line)


def _memory(view: View) -> str:
    pub, priv = view.public, view.private
    out = [
        "Alive: " + (", ".join(pub.get("alive", [])) or "nobody") + ".",
    ]
    dead = [
        f"{p['name']} ({p['role']})" if p.get("role") else str(p["name"])
        for p in pub.get("players", [])
        if not p.get("alive")
    ]
    if dead:
        out.append("Dead: " + ", ".join(dead) + ".")
    nights = {n["night"]: n for n in pub.get("nights", [])}
    days = {d["day"]: d for d in pub.get("days", [])}
    for key in sorted(set(nights) | set(days)):
        if key in nights:
            out.append(f"Night {key}: " + " ".join(nights[key]["outcome"]))
        if key in days:
            d = days[key]
            votes = "; ".join(d["votes"]) or "no ballots"
            out.append(f"Day {key} vote: {votes}. {d['result']}")
    if "investigations" in priv:
        table = priv["investigations"]
        rows = ", ".join(f"{name}: {r}" for name, r in table.items()) or "none yet"
        out.append(f"Your investigations: {rows}.")
    if priv.get("cannot_protect_tonight"):
        out.append(f"You may not protect {priv['cannot_protect_tonight']} tonight.")
    if priv.get("pack"):
        status = ", ".join(
            f"{w['name']} ({'alive' if w['alive'] else 'dead'})" for w in priv["pack"]
        )
        out.append(f"Pack: {status}.")
    for event in view.events:
        if event.kind == "pack_kill":
            out.append(f"[{event.phase}] {event.text}")
        elif event.kind == "diary":
            out.append(f"Your diary ({event.phase}):\n{event.text}")
    return "\n".join(out)


def _utterance(event: Event, view: View, names: dict[str, str]) -> Utterance | None:
    if event.kind in _TRANSCRIPT_KINDS:
        return Utterance(
            speaker=names.get(event.speaker, event.speaker),
            text=event.text,
            own=event.speaker == view.seat,
            kind="private" if event.kind == "wolf_chat" else "speech",
        )
    if event.kind in _ANNOUNCE_KINDS:
        return Utterance(speaker="game", text=event.text, kind="announcement")
    return None


def _transcript(view: View) -> tuple[Utterance, ...]:
    names = {str(p["id"]): str(p["name"]) for p in view.public.get("players", [])}
    lines = [_utterance(e, view, names) for e in view.events if e.phase == view.phase]
    return tuple(u for u in lines if u is not None)


def _command(decision: Decision) -> str:
    lines = [decision.prompt]
    ctx = decision.context
    if decision.purpose == "route":
        for row in ctx.get("players", []):
            flags = [f"{row['messages_today']} messages today"]
            if row.get("needs_turn"):
                flags.append("NEEDS TURN")
            if row.get("addressed"):
                flags.append("addressed in the last message")
            lines.append(f"- {row['name']}: {', '.join(flags)}")
        if ctx.get("last_speaker"):
            lines.append(f"Spoke last: {ctx['last_speaker']}.")
        lines.append(f"Turns left today: {ctx.get('turns_left')}.")
    if decision.purpose == "vote" and ctx.get("mode") == "sequential":
        lines.append(f"You vote {ctx['position_text']}.")
    if decision.kind in (DecisionKind.CHOOSE_ONE, DecisionKind.CHOOSE_MANY):
        lines.append("Options:")
        lines.extend(f"- {o.label}" for o in decision.options)
        if decision.kind is DecisionKind.CHOOSE_MANY:
            lines.append(
                f"Choose {decision.min_choices} to {decision.max_choices} of them, in order."
            )
    else:
        lines.append(f"At most {decision.max_length} characters.")
    return "\n".join(lines)


def _reminders(view: View, decision: Decision) -> str:
    alive = view.public.get("alive", [])
    out = [f"Living players: {', '.join(alive)}. Refer to players only by these names."]
    role = view.private.get("role")
    if role == "werewolf" and decision.purpose in ("speak", "debrief", "vote"):
        out.append("Never reveal your pack in public.")
    return " ".join(out)


class WerewolfPrompter:
    """The minimal prompter: exact records in, layered parts out."""

    def parts(self, view: View, decision: Decision) -> PromptParts:
        if decision.purpose == "route":
            return PromptParts(
                system=ROUTER_SYSTEM + "\n\n" + _rules(view),
                memory=_memory(view),
                transcript=_transcript(view),
                command=_command(decision),
            )
        return PromptParts(
            system=_rules(view) + "\n\n" + _identity(view),
            memory=_memory(view),
            transcript=_transcript(view),
            command=_command(decision),
            reminders=_reminders(view, decision),
        )


PROMPTER = WerewolfPrompter()

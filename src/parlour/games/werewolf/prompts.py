"""Prompt parts for werewolf's LLM seats, built only from the seat's view and decision.

Layers, most stable first (see ``parlour.core.prompting``):

* ``system`` — rules, identity, character and the two-layer instruction (strategy picks
  votes and accusations; the character only flavours the voice). Fixed all game.
* ``memory`` — exact records (votes in order, results, revealed roles, night outcomes),
  private findings and the seat's latest diary. Changes only at phase boundaries.
* ``transcript`` — today's talk (or tonight's pack chat), append-only.
* ``command`` + ``reminders`` — what to decide now, options verbatim; never stored.
"""

from __future__ import annotations

from parlour.core.decisions import Decision, DecisionKind
from parlour.core.events import Event
from parlour.core.prompting import PromptParts, Utterance
from parlour.core.view import AnyView
from parlour.games.werewolf.ask import RouteAsk, VoteAsk, asks_for_acts
from parlour.games.werewolf.playstyles import Playstyle, describe
from parlour.games.werewolf.views import WerewolfView

ROUTER_SYSTEM = (
    "You are the discussion router of a game of Werewolf. You decide who speaks next in "
    "the day discussion, using public information only. Keep the talk lively and fair: "
    "let a player who was just addressed answer, give quiet players a turn (they are "
    "marked NEEDS TURN, and every batch must include at least one of them), and never "
    "pick the player who spoke last."
)

STRATEGY = (
    "How to play: decide your votes and accusations like a strategist, from what happened "
    "in this game: the vote records, contradictions between what people said and did, and "
    "how they behave. Your character only flavours how you talk. Backstories are flavour, "
    "not evidence: never suspect anyone because of their background or a story someone "
    "invented. Refer to players only by their names as listed. Never reveal a secret your "
    "team needs kept."
)

#: event kinds quoted as speech in the transcript, and kinds shown as game announcements
_SPEECH_KINDS = {"speech", "wolf_chat", "debrief"}
_ANNOUNCE_KINDS = {"pass", "call_vote", "vote", "phase", "elimination", "death", "result"}


def _rules(view: WerewolfView) -> str:
    pub = view.public
    rules = pub.rules
    counts = ", ".join(f"{r} ×{c}" for r, c in pub.role_counts.items())
    players = ", ".join(p.name for p in pub.players)
    ties = "nobody is eliminated" if rules.tie_rule == "no_elimination" else "lots decide"
    # Name only roles in play: a rule about an absent maniac sends models hunting a ghost.
    in_play = pub.role_counts
    night = ["the werewolves secretly kill one player"]
    if "seer" in in_play:
        evil = (
            "werewolves and the maniac read as evil"
            if "maniac" in in_play
            else "werewolves read as evil"
        )
        night.append(f"the seer learns whether one player is evil ({evil})")
    if "doctor" in in_play:
        night.append("the doctor protects one player (never the same one two nights in a row)")
    if "maniac" in in_play:
        night.append("the maniac kills one")
    if "maniac" in in_play:
        wins = (
            "The village wins when every werewolf and the maniac are dead; the werewolves win "
            "when they are at least as many as everyone else and the maniac is dead; the "
            "maniac wins when alone or with just one other non-werewolf."
        )
    else:
        wins = (
            "The village wins when every werewolf is dead; the werewolves win when they are "
            "at least as many as everyone else."
        )
    lines = [
        f"Game: Werewolf. Players: {players}. Roles in play: {counts}.",
        f"Each night {_join(night)}. "
        f"By day everyone talks, then votes; the most votes is eliminated (on a tie {ties}).",
        wins,
    ]
    if rules.vote_call:
        lines.append(f"In the discussion, saying exactly {rules.vote_call} calls the vote.")
    return "\n".join(lines)


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _identity(view: WerewolfView) -> str:
    priv, pub = view.private, view.public
    lines = [priv.role_card or f"You are {view.seat_name}."]
    pack = priv.pack
    if pack:
        lines.append("Your pack mates: " + ", ".join(w.name for w in pack) + ".")
    if pub.scene:
        lines.append(f"Setting: {pub.scene}")
    character = priv.character
    if character:
        lines.append(f"Your character: {character.story}")
        wolf = priv.role == "werewolf"
        lines.append(describe(Playstyle(character.playstyle), werewolf=wolf))
    return "\n".join(lines)


def _records(view: WerewolfView) -> list[str]:
    pub = view.public
    out = ["Alive: " + (", ".join(pub.alive) or "nobody") + "."]
    dead = [f"{p.name} ({p.role})" if p.role else p.name for p in pub.players if not p.alive]
    if dead:
        out.append("Dead: " + ", ".join(dead) + ".")
    nights = {n.night: n for n in pub.nights}
    days = {d.day: d for d in pub.days}
    for key in sorted(set(nights) | set(days)):
        if key in nights:
            out.append(f"Night {key}: " + " ".join(nights[key].outcome))
        if key in days:
            d = days[key]
            out.append(f"Day {key} votes, in order:")
            out.extend(f"  {line}" for line in d.votes or ["(no ballots)"])
            out.append(f"  Result: {d.result}")
    return out


def _memory(view: WerewolfView) -> str:
    priv = view.private
    out = ["Records (exact, kept by the game):", *_records(view)]
    if priv.investigations is not None:
        table = priv.investigations
        out.append("Your investigations (exact):")
        out.extend(f"  {name}: {result}" for name, result in table.items())
        if not table:
            out.append("  none yet")
    if priv.cannot_protect_tonight:
        out.append(f"You may not protect {priv.cannot_protect_tonight} tonight.")
    if priv.pack:
        status = ", ".join(f"{w.name} ({'alive' if w.alive else 'dead'})" for w in priv.pack)
        out.append(f"Pack: {status}.")
    kills = [e for e in view.events if e.kind == "pack_kill"]
    out.extend(f"{e.phase}: {e.text}" for e in kills)
    diaries = [e for e in view.events if e.kind == "diary" and e.speaker == view.seat]
    if diaries:
        latest = diaries[-1]
        out.append(f"Your diary (written {latest.phase}):\n{latest.text}")
    return "\n".join(out)


def window(view: AnyView) -> set[str]:
    """The phases whose talk is in the transcript: today (dawn, day, evening) or tonight."""
    kind, _, number = view.phase.partition(" ")
    if kind in ("dawn", "day", "evening"):
        return {f"dawn {number}", f"day {number}", f"evening {number}"}
    return {view.phase}


def _utterance(event: Event, view: WerewolfView, names: dict[str, str]) -> Utterance | None:
    if event.kind in _SPEECH_KINDS:
        return Utterance(
            speaker=names.get(event.speaker, event.speaker),
            text=event.text,
            own=event.speaker == view.seat,
            kind="private" if event.kind == "wolf_chat" else "speech",
        )
    if event.kind in _ANNOUNCE_KINDS:
        return Utterance(speaker="game", text=event.text, kind="announcement")
    return None


def transcript(view: WerewolfView) -> tuple[Utterance, ...]:
    names = {p.id: p.name for p in view.public.players}
    phases = window(view)
    lines = [_utterance(e, view, names) for e in view.events if e.phase in phases]
    return tuple(u for u in lines if u is not None)


def _options(decision: Decision) -> list[str]:
    lines = ["Options (write one exactly as shown, no titles):"]
    lines.extend(f"- {o.label}" for o in decision.options)
    return lines


def _command(view: WerewolfView, decision: Decision) -> str:
    purpose = decision.purpose
    lines = [decision.prompt]
    if purpose == "route":
        route = RouteAsk.of(decision)
        for row in route.players:
            flags = [f"{row.messages_today} messages today"]
            if row.needs_turn:
                flags.append("NEEDS TURN")
            if row.addressed:
                flags.append("addressed in the last message")
            lines.append(f"- {row.name}: {', '.join(flags)}")
        if route.last_speaker:
            lines.append(f"Spoke last: {route.last_speaker}.")
        lines.append(f"Turns left today: {route.turns_left}.")
    if purpose == "vote":
        vote = VoteAsk.of(decision)
        position = f"You vote {vote.position_text}."
        if vote.mode == "sequential" and position not in lines[0]:
            lines.append(position)
    if asks_for_acts(decision):
        # The answer format lists every move once already; a second list of a dozen
        # moves would only add uncached tokens to every call (werewolf_call_budget.py).
        lines.append("Your moves are listed below.")
    elif decision.kind in (DecisionKind.CHOOSE_ONE, DecisionKind.CHOOSE_MANY):
        lines.extend(_options(decision))
        if decision.kind is DecisionKind.CHOOSE_MANY:
            lines.append(f"Choose {decision.min_choices} to {decision.max_choices}, in order.")
    elif purpose in ("speak", "wolf_chat", "debrief"):
        lines.append(
            f"Write only what {view.seat_name} says now, in the first person, as plain text. "
            "No name label, no quotes, no headings."
        )
    elif purpose == "diary":
        lines.append("Write the diary as plain text under those five headings.")
    return "\n".join(lines)


def _reminders(view: WerewolfView, decision: Decision) -> str:
    alive = view.public.alive
    out = [f"Living players: {', '.join(alive)}."]
    purpose = decision.purpose
    character = view.private.character
    if character and purpose in ("speak", "debrief", "wolf_chat"):
        out.append(f"Stay in your playstyle ({character.playstyle}).")
    if purpose == "speak" and asks_for_acts(decision):
        out.append(
            "Pick the act that helps your team most; every reason listed is a fact you know."
        )
    elif purpose == "speak":
        out.append(
            "If four or more players agree on one suspect, question that consensus before "
            "you join it. Keep your relationships continuous with what you said earlier. "
            "Speak in 2 to 4 sentences."
        )
    if view.private.role == "werewolf" and purpose in ("speak", "debrief", "vote"):
        out.append("Never reveal your pack in public.")
    if purpose in ("vote", "wolf_kill", "investigate", "protect", "maniac_kill"):
        out.append("Pick exactly one name from the options; give a one-sentence reason.")
    return " ".join(out)


class WerewolfPrompter:
    """Layered parts for every werewolf decision (players and the router)."""

    def parts(self, view: WerewolfView, decision: Decision) -> PromptParts:
        if decision.purpose == "route":
            return PromptParts(
                system=ROUTER_SYSTEM + "\n\n" + _rules(view),
                memory="\n".join(_records(view)),
                transcript=transcript(view),
                command=_command(view, decision),
            )
        return PromptParts(
            system=f"{_rules(view)}\n\n{_identity(view)}\n\n{STRATEGY}",
            memory=_memory(view),
            transcript=transcript(view),
            command=_command(view, decision),
            reminders=_reminders(view, decision),
        )


PROMPTER = WerewolfPrompter()

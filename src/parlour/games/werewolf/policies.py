"""The scripted werewolf policy: legal, simple, and not stupid. It reads only the view.

Public claims follow fixed phrasings that the policy both writes and parses:
"I am the seer. I checked Aiko: evil." and "I suspect Kenji."
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from parlour.core.actions import Action, Choice, Choices, Structured, Text
from parlour.core.decisions import Decision, DecisionKind
from parlour.core.random_answers import random_answer
from parlour.core.rng import Rng
from parlour.games.werewolf.ask import RouteAsk, SpeakAsk, VoteAsk, asks_for_acts
from parlour.games.werewolf.belief import belief
from parlour.games.werewolf.names import mentioned
from parlour.games.werewolf.plans import (
    PLAN,
    Plan,
    current_plan,
    plan_events,
    scripted_choice,
    scripted_written,
)
from parlour.games.werewolf.record import stances
from parlour.games.werewolf.reflection import DIARY_SECTIONS
from parlour.games.werewolf.views import WerewolfView

_CLAIM = re.compile(r"\bI am the seer\b", re.IGNORECASE)
_FINDING = re.compile(r"I checked ([^:.]+): (evil|innocent|cleared)", re.IGNORECASE)
_SUSPECT = re.compile(r"I suspect ([^.!?]+)", re.IGNORECASE)

#: how often a wolf claims to be the seer when it speaks (a rare bluff)
FAKE_CLAIM_RATE = 0.05


@dataclass
class Table:
    """What the view says about the table, indexed for the decisions below."""

    me: str
    role: str
    names: dict[str, str]
    alive: set[str]
    pack: set[str]
    #: the seer's own table: seat → "evil" | "cleared"
    known: dict[str, str]
    #: public seer claims in order: claimer → {target: "evil" | "innocent"}
    claims: dict[str, dict[str, str]] = field(default_factory=dict)
    quiet_today: Counter[str] = field(default_factory=Counter)
    seer_revealed: bool = False
    #: today's speeches as (speaker, text), parsed for accusations only when needed
    speeches_today: list[tuple[str, str]] = field(default_factory=list)
    #: today's spoken speech acts' accusations: (accuser, accused)
    acts_today: list[tuple[str, str]] = field(default_factory=list)
    #: today's plan (plans.py), when the seat holds one
    plan: Plan | None = None
    _suspects: dict[str, list[str]] | None = None

    @property
    def suspects_today(self) -> dict[str, list[str]]:
        """Public accusations today: accuser → accused (each once, in order)."""
        if self._suspects is None:
            self._suspects = {}
            for speaker, text in self.speeches_today:
                for chunk in _SUSPECT.findall(text):
                    accused = self._suspects.setdefault(speaker, [])
                    accused.extend(
                        s for s in mentioned(chunk, self.names) if s not in accused and s != speaker
                    )
            for speaker, target in self.acts_today:
                accused = self._suspects.setdefault(speaker, [])
                if target not in accused:
                    accused.append(target)
        return self._suspects

    def seat_of(self, name: str) -> str | None:
        key = name.strip().casefold()
        for seat, n in self.names.items():
            if n.casefold() == key:
                return seat
        return None

    def living_others(self) -> list[str]:
        return [s for s in self.names if s in self.alive and s != self.me]

    def claimed_seers(self) -> list[str]:
        """Living players who claimed the seer, believed in claim order; nobody once the
        real seer was revealed dead (every other claim is then a lie)."""
        if self.seer_revealed:
            return []
        return [s for s in self.claims if s in self.alive]

    def liars(self) -> list[str]:
        """Living claimers proven false: the real seer's role was revealed at their death."""
        return [s for s in self.claims if s in self.alive] if self.seer_revealed else []

    def trusted(self) -> set[str]:
        """Claimed seers and the players they cleared: not worth suspecting."""
        out = set(self.claimed_seers())
        for claimer in self.claimed_seers():
            out |= {s for s, r in self.claims[claimer].items() if r == "innocent"}
        return out

    def accused_evil(self) -> list[str]:
        """Living players a living claimed seer called evil, first claim first."""
        out: list[str] = []
        for claimer in self.claimed_seers():
            for target, reading in self.claims[claimer].items():
                if reading == "evil" and target in self.alive and target not in out:
                    out.append(target)
        return out


def read_table(view: WerewolfView) -> Table:
    players = view.public.players
    names = {p.id: p.name for p in players}
    table = Table(
        me=view.seat,
        role=view.private.role,
        names=names,
        alive={p.id for p in players if p.alive},
        pack={w.id for w in view.private.pack or []},
        known={},
        seer_revealed=any(p.role == "seer" and not p.alive for p in players),
    )
    for name, reading in (view.private.investigations or {}).items():
        seat = table.seat_of(name)
        if seat:
            table.known[seat] = reading
    today = f"day {view.public.day}"
    for event in view.events:
        if event.kind == "pass" and event.phase == today:
            table.quiet_today[str(event.data.get("seat", ""))] += 1
        if event.kind != "speech":
            continue
        speaker = event.speaker
        act = event.data.get("act")
        if act == "reveal":
            target = str(event.data.get("target", ""))
            evil = event.data.get("reading") == "evil"
            table.claims.setdefault(speaker, {})[target] = "evil" if evil else "innocent"
        elif act == "claim" and event.data.get("role") == "seer":
            table.claims.setdefault(speaker, {})
        elif act == "accuse" and event.phase == today:
            table.acts_today.append((speaker, str(event.data.get("target", ""))))
        elif _CLAIM.search(event.text):
            findings = table.claims.setdefault(speaker, {})
            for name, reading in _FINDING.findall(event.text):
                seat = table.seat_of(name)
                if seat:
                    findings[seat] = "evil" if reading.lower() == "evil" else "innocent"
        if event.phase == today:
            table.speeches_today.append((speaker, event.text))
    return table


# -- choosing targets ----------------------------------------------------------------------


def _pick(rng: Rng, preferred: list[str], allowed: list[str]) -> str:
    """The first preferred seat that is allowed, else a random allowed one."""
    for seat in preferred:
        if seat in allowed:
            return seat
    return rng.choice(allowed)


def _suspicion(t: Table, candidates: list[str]) -> list[str]:
    """Candidates ordered by how suspicious their public behaviour looks (ties: seat order)."""

    def score(seat: str) -> int:
        accused_by = sum(seat in accused for accused in t.suspects_today.values())
        return 2 * accused_by + t.quiet_today[seat]

    scored = [(score(s), s) for s in candidates]
    return [s for sc, s in sorted(scored, key=lambda x: -x[0]) if sc > 0]


def _pack_target(t: Table, rng: Rng, allowed: list[str]) -> str:
    """Whom the wolves want dead: a claimed seer, then whoever accused a wolf, then anyone."""
    accusers = [s for s, accused in t.suspects_today.items() if set(accused) & t.pack]
    claimers_on_us = [
        s
        for s in t.claimed_seers()
        if any(r == "evil" and (x in t.pack or x == t.me) for x, r in t.claims[s].items())
    ]
    targets = [s for s in allowed if s not in t.pack and s != t.me] or allowed
    return _pick(rng, [*claimers_on_us, *t.claimed_seers(), *accusers], targets)


def _tonight_proposal(view: WerewolfView, t: Table, allowed: list[str]) -> str | None:
    for event in view.events:
        if event.kind == "wolf_chat" and event.phase == view.phase:
            for seat in mentioned(event.text, t.names):
                if seat in allowed:
                    return seat
    return None


def _vote_target(t: Table, rng: Rng, decision: Decision) -> str:
    options = list(decision.option_ids)
    if t.role == "werewolf":
        # Never a packmate unless nobody else can be chosen.
        outsiders = [s for s in options if s not in t.pack] or options
        bandwagon = _earlier_votes(decision, t)
        return _pick(rng, [*t.claimed_seers(), *bandwagon], outsiders)
    if t.role == "seer":
        evil = [s for s, r in t.known.items() if r == "evil"]
        fresh = [s for s in options if t.known.get(s) != "cleared"] or options
        return _pick(rng, [*evil, *_suspicion(t, fresh)], fresh)
    trusted = t.trusted()
    safe = [s for s in options if s not in trusted] or options
    return _pick(rng, [*t.accused_evil(), *t.liars(), *_suspicion(t, safe)], safe)


def _earlier_votes(decision: Decision, t: Table) -> list[str]:
    """Targets of the ballots cast before this one (sequential vote), most votes first."""
    counts: Counter[str] = Counter()
    for line in VoteAsk.of(decision).earlier_votes:
        _, _, target = str(line).partition("→")
        seat = t.seat_of(target)
        if seat:
            counts[seat] += 1
    return [s for s, _ in counts.most_common()]


# -- speech --------------------------------------------------------------------------------


def _fit(sentences: list[str], limit: int) -> str:
    out = ""
    for sentence in sentences:
        candidate = f"{out} {sentence}".strip()
        if len(candidate) > limit:
            break
        out = candidate
    return out


def _reason_line(plan: Plan, n: dict[str, str]) -> str:
    """The plan's reason as its own sentence (never inside the accusation, whose parse
    would take every name in it for a suspect)."""
    why = plan.why
    if not why:
        return ""
    if why[0].islower():
        return f"My reason: {n[plan.suspect]} {why}."
    return f"My reason: {why}."


def _planned_speech(view: WerewolfView, t: Table, plan: Plan, rng: Rng) -> list[str]:
    """Lines that follow today's plan, best first: answer an accusation, keep a (fake)
    claim, accuse the suspect with the reason, defend the trusted player."""
    n = t.names
    lines: list[str] = []
    against_me = [a for a, accused in t.suspects_today.items() if t.me in accused and a != t.me]
    living_known = {s: r for s, r in t.known.items() if s in t.alive}
    if t.role == "seer" and living_known:
        found = [
            f"I checked {n[s]}: {'evil' if r == 'evil' else 'innocent'}."
            for s, r in living_known.items()
        ]
        lines.append(" ".join(["I am the seer.", *found]))
    elif plan.claim and plan.claim_target in t.alive:
        word = "evil" if plan.claim_reading == "evil" else "innocent"
        claim = f"I am the seer. I checked {n[plan.claim_target]}: {word}."
        if plan.claim_reading == "evil":
            claim += f" Vote {n[plan.claim_target]}!"
        lines.append(claim)
    if against_me:
        accuser = n[against_me[0]]
        if plan.suspect == against_me[0]:
            lines.append(f"{accuser}, I am not a wolf. I suspect {accuser} instead.")
        else:
            lines.append(f"{accuser}, you are wrong about me. I suspect {n[plan.suspect]}.")
    reason = _reason_line(plan, n)
    if not set(mentioned(reason, n)) <= t.alive:
        reason = ""  # scripted talk names only the living
    lines.append(f"I suspect {n[plan.suspect]}. {reason}".strip())
    others = [s for s in t.living_others() if s not in (plan.suspect, plan.defend)]
    if others:
        asked = n[rng.choice(others)]
        lines.append(f"I still suspect {n[plan.suspect]}. {asked}, whom do you suspect?")
    if plan.defend and plan.defend in t.alive:
        lines.append(f"I trust {n[plan.defend]}. I still suspect {n[plan.suspect]}.")
    return lines


def _speech(view: WerewolfView, t: Table, decision: Decision, rng: Rng) -> list[str]:
    """What this seat could say, best first; the caller skips what it already said today."""
    n = t.names
    others = t.living_others()
    if not others:
        return []
    plan = current_plan(view)
    if plan is not None and plan.suspect in t.alive:
        return _planned_speech(view, t, plan, rng)
    living_known = {s: r for s, r in t.known.items() if s in t.alive}
    if t.role == "seer" and living_known:
        lines = ["I am the seer."]
        lines += [
            f"I checked {n[s]}: {'evil' if r == 'evil' else 'innocent'}."
            for s, r in living_known.items()
        ]
        evil = [s for s, r in living_known.items() if r == "evil"]
        if evil:
            lines.append(f"Vote {n[evil[0]]}!")
        return [_fit(lines, decision.max_length)]
    accused = [s for s in t.accused_evil() if s != t.me]
    quiet = sorted(others, key=lambda s: -t.quiet_today[s])[0]
    if t.role == "werewolf":
        outsiders = [s for s in others if s not in t.pack]
        if outsiders and not t.seer_revealed and rng.random() < FAKE_CLAIM_RATE:
            victim = _pick(rng, t.claimed_seers(), outsiders)
            return [f"I am the seer. I checked {n[victim]}: evil."]
        claimers = [s for s in t.claimed_seers() if s not in t.pack]
        if claimers and set(accused) & (t.pack | {t.me}):
            liar = n[claimers[0]]
            return [
                f"{liar} is lying about being the seer. I suspect {liar}.",
                f"Do not trust {liar}. A real seer would not rush like that.",
            ]
        if not outsiders:
            return []
        target = n[_pick(rng, _suspicion(t, outsiders), outsiders)]
        return [f"I suspect {target}.", f"I still think {target} is hiding something."]
    vote_call = view.public.rules.vote_call
    spoken = SpeakAsk.of(decision).messages_today
    if accused:
        if vote_call and spoken >= 1 and rng.random() < 0.3:
            return [str(vote_call)]
        claimer = n[next(c for c in t.claimed_seers() if accused[0] in t.claims[c])]
        culprit = n[accused[0]]
        return [
            f"{claimer} checked {culprit} as evil. Let's vote {culprit}.",
            f"I trust {claimer}. {culprit}, explain yourself.",
        ]
    if t.liars():
        liar = n[t.liars()[0]]
        return [f"The seer is dead, so {liar} lied about being the seer. I suspect {liar}."]
    trusted = t.trusted()
    doubtful = [s for s in others if s not in trusted] or others
    target = n[_pick(rng, _suspicion(t, doubtful), doubtful)]
    asked = n[rng.choice([s for s in others if n[s] != target] or others)]
    lines = [f"I suspect {target}. {asked}, what do you think?", f"I still suspect {target}."]
    if SpeakAsk.of(decision).addressed_you:
        lines.insert(0, f"I am not sure yet, but {target} worries me. I suspect {target}.")
    if n[quiet] != target:
        lines.append(f"{n[quiet]}, you have been quiet. Whom do you suspect?")
    return lines


def _diary(view: WerewolfView, t: Table) -> str:
    n = t.names
    day = view.public.day
    if t.role == "werewolf":
        # Seat order, not set order: set iteration varies with the process's hash seed.
        allies = [n[s] for s in n if s in t.pack]
    else:
        allies = [n[s] for s, r in t.known.items() if r == "cleared"]
        allies += [n[s] for s in t.claimed_seers() if s != t.me]
    suspects = [n[s] for s, r in t.known.items() if r == "evil" and s in t.alive]
    suspects += [n[s] for s in t.accused_evil() if n[s] not in suspects and s != t.me]
    if t.plan is not None and t.plan.suspect in t.alive and n[t.plan.suspect] not in suspects:
        suspects.append(n[t.plan.suspect])
    revealed = [f"{p.name} was the {p.role}" for p in view.public.players if p.role and not p.alive]
    threads = [
        f"{n.get(a, a)} suspects {', '.join(n[x] for x in accused)}"
        for a, accused in t.suspects_today.items()
        if accused
    ]
    plan = f"vote {suspects[0]}" if suspects else "listen for contradictions and the quiet ones"
    today = plan_events(view.events, t.me, day)
    if today:
        last = today[-1].data
        plan = f"today I planned to vote {n[str(last['vote'])]}"
        changes = [e.data for e in today if e.data.get("changed_from")]
        if changes:
            plan += "; I changed my plan " + "; ".join(
                f"from {n[str(c['changed_from'])]} to {n[str(c['vote'])]} because {c['because']}"
                for c in changes
            )
        plan += "; tomorrow I start again from what I know"
    body = {
        "Allies": ", ".join(allies) or "none confirmed",
        "Suspects": ", ".join(suspects) or "none yet",
        "Role knowledge": "; ".join([f"I am the {t.role}", *revealed]),
        "Social threads": "; ".join(threads) or "nothing notable",
        "Plan for tomorrow": plan,
    }
    return f"Day {day}\n" + "\n".join(f"{k}: {body[k]}" for k in DIARY_SECTIONS)


def _act(t: Table, decision: Decision, rng: Rng) -> str:
    """A speech act (option ids ``act:target:reason``, see ``speech_acts.py``): the seer
    reveals what it found, a wolf accuses an outsider, a villager follows the evidence."""
    ids = list(decision.option_ids)
    if SpeakAsk.of(decision).messages_today >= 2:
        return "quiet" if "quiet" in ids else ids[-1]

    def pick(act: str, targets: list[str], strong: bool = False) -> str | None:
        for target in targets:
            for option in ids:
                parts = option.split(":")
                weak = parts[-1] in ("hunch", "quiet", "read")
                if parts[:2] == [act, target] and not (strong and weak):
                    return option
        return None

    others = t.living_others()
    evil = [s for s, r in t.known.items() if r == "evil" and s in t.alive]
    plan = t.plan
    if plan is not None and t.role != "seer":
        # a wolf keeps to the fake seer claim its plan holds, as it does in free text
        lie = pick("reveal", [plan.claim_target]) if plan.claim and plan.claim_target else None
        if lie:
            return lie
        chosen = pick("accuse", [plan.suspect], strong=True) or pick("accuse", [plan.suspect])
        if SpeakAsk.of(decision).messages_today == 1 and plan.defend:
            chosen = pick("defend", [plan.defend]) or chosen
        if chosen:
            return chosen
    if t.role == "seer":
        found = pick("reveal", [*evil, *t.known]) if t.known else None
        if found:
            return found
    if t.role == "werewolf":
        outsiders = [s for s in others if s not in t.pack]
        choice = pick("accuse", _suspicion(t, outsiders), strong=True) or pick(
            "accuse", rng.shuffled(outsiders)
        )
        return choice or "quiet"
    suspects = [*t.accused_evil(), *t.liars()]
    trusted = t.trusted()
    doubtful = [s for s in others if s not in trusted] or others
    return (
        pick("accuse", suspects)
        or pick("accuse", _suspicion(t, doubtful), strong=True)
        or pick("question", rng.shuffled(doubtful))
        or ("quiet" if "quiet" in ids else ids[-1])
    )


# -- routing -------------------------------------------------------------------------------


def _unanswered(view: WerewolfView) -> list[str]:
    """Players accused today who have not spoken since, the longest waiting first."""
    names = {p.id: p.name for p in view.public.players}
    today = f"day {view.public.day}"
    waiting: dict[str, int] = {}
    for k, event in enumerate(view.events):
        if event.kind != "speech" or event.phase != today:
            continue
        waiting.pop(event.speaker, None)
        for target in stances(event, names).accused:
            if target != event.speaker:
                waiting.setdefault(target, k)
    return sorted(waiting, key=lambda s: waiting[s])


def _route(view: WerewolfView, decision: Decision) -> tuple[str, ...]:
    """Follow the talk: players accused today who have not answered yet speak next (the
    longest waiting first, then whom the last message named), then a NEEDS TURN player
    when none of them is one (the rule); a player already past a fair share of today's
    turns waits; a batch without a player who has not spoken today ends with one (seat
    order), so nobody is silent a whole day. With nobody to answer: one player, silent
    first, then NEEDS TURN, so the next call sees whom they accuse. 1-3 players, never
    the last speaker (not an option)."""
    options = list(decision.option_ids)
    ask = RouteAsk.of(decision)
    rows = {r.id: r for r in ask.players if r.id in options}
    fair = ask.turns_taken / max(1, len(ask.players) + 1) + 1

    def under_share(seat: str) -> bool:
        row = rows[seat]
        return row.messages_today + row.passes_today <= fair

    named = [s for s, r in rows.items() if r.addressed]
    follow = [s for s in dict.fromkeys([*_unanswered(view), *named]) if s in rows]
    follow = [s for s in follow if under_share(s)]
    silent = [s for s, r in rows.items() if not r.messages_today and not r.passes_today]
    needs = [s for s, r in rows.items() if r.needs_turn]
    k = max(1, min(3, decision.max_choices))
    # the turns left must still reach everyone who has not spoken: at most ``spare`` of
    # this batch may go to players who have
    spare = ask.turns_left - len(silent)
    if silent and spare <= 0:
        return tuple(silent[:k])
    if follow:
        batch = follow[:k]
        if silent and not set(batch) & set(silent):
            # nobody stays silent a whole day: one who has not spoken yet comes last
            batch = [*batch[: k - 1], silent[0]]
        if needs and not set(batch) & set(needs):
            batch = [*batch[: k - 1], needs[0]]
        return _leaving_room(batch, silent, spare)
    # nobody to answer: one speaker, so that the router sees what they say before it
    # picks again (a batch would go on regardless of whom the speech accused)
    batch = list(dict.fromkeys([*silent, *needs]))[:1] or options[:1]
    if needs and not set(batch) & set(needs):
        batch = [*batch[: k - 1], needs[0]]
    return _leaving_room(batch, silent, spare)


def _leaving_room(batch: list[str], silent: list[str], spare: int) -> tuple[str, ...]:
    """``batch`` with at most ``spare`` players who have spoken today (those past it are
    dropped, in order): what is left of the day's turns still reaches every silent one."""
    if not silent:
        return tuple(batch)
    kept: list[str] = []
    for seat in batch:
        if seat in silent:
            kept.append(seat)
        elif spare > 0:
            kept.append(seat)
            spare -= 1
    return tuple(kept or silent[:1])


# -- the policy ----------------------------------------------------------------------------


def policy(view: WerewolfView, decision: Decision, rng: Rng) -> Action:
    """Scripted answer to any werewolf decision, from the seat's view only."""
    if decision.purpose == "route":
        return Choices(options=_route(view, decision))
    if decision.seat == "router" or decision.seat != view.seat:
        return random_answer(decision, rng)
    t = read_table(view)
    t.plan = current_plan(view)
    options = list(decision.option_ids)
    purpose = decision.purpose
    if purpose == "wolf_chat" and asks_for_acts(decision):
        living = [s for s in t.living_others() if s not in t.pack]
        agreed = _tonight_proposal(view, t, living)
        if agreed and f"agree:{agreed}" in options:
            return Choice(option=f"agree:{agreed}")
        if not living:
            return Choice(option="quiet")
        return Choice(option=f"propose:{_pack_target(t, rng, living)}")
    if purpose == "wolf_chat":
        living = [s for s in t.living_others() if s not in t.pack]
        agreed = _tonight_proposal(view, t, living)
        if agreed:
            return Text(text=f"Agreed, {t.names[agreed]}.")
        if not living:
            return Text(text="")
        return Text(text=f"Let's take {t.names[_pack_target(t, rng, living)]} tonight.")
    if purpose == "wolf_kill":
        agreed = _tonight_proposal(view, t, options)
        return Choice(option=agreed or _pack_target(t, rng, options))
    if purpose == "investigate":
        # the player the seer's own belief finds most likely evil (claimers included)
        return Choice(option=_pick(rng, belief(view).ranked(options), options))
    if purpose == "protect":
        preferred = t.claimed_seers()
        if t.me in options and rng.random() < 0.5:
            preferred = [*preferred, t.me]
        return Choice(option=_pick(rng, preferred, options))
    if purpose == "maniac_kill":
        return Choice(option=_pick(rng, t.claimed_seers(), options))
    if purpose == PLAN and decision.kind is DecisionKind.STRUCTURED:
        return Structured(value=scripted_written(view))
    if purpose == PLAN:
        return Choice(option=scripted_choice(view, options))
    if purpose == "vote":
        plan = t.plan
        if plan is not None and plan.vote in options:
            why = f" ({plan.why})" if plan.why else ""
            return Choice(option=plan.vote, reason=f"My plan: vote {t.names[plan.vote]}{why}.")
        target = _vote_target(t, rng, decision)
        return Choice(option=target, reason=f"I think {t.names.get(target, target)} is evil.")
    if purpose == "speak" and asks_for_acts(decision):
        return Choice(option=_act(t, decision, rng))
    if purpose == "speak":
        said = {text for who, text in t.speeches_today if who == t.me}
        # Saying the same thing twice in a day adds nothing: pass instead.
        fresh = [x for x in _speech(view, t, decision, rng) if x[: decision.max_length] not in said]
        return Text(text=fresh[0][: decision.max_length] if fresh else "")
    if purpose == "diary":
        return Text(text=_diary(view, t)[: decision.max_length])
    if purpose == "debrief":
        return Text(text=f"Good game, everyone. I was the {t.role}."[: decision.max_length])
    return random_answer(decision, rng)

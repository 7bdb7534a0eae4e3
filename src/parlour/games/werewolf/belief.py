"""A seat's belief over roles, built only from what its view holds.

``belief(view)`` reads the seat's own facts (its role, its pack, the seer's results) and
the public record in its view (role claims and counter-claims, the claimed seers'
readings, ballots, deaths and revealed roles, what each player said about others on the
day they voted) and returns, for every other living player, the probability that they are
evil (a werewolf or the maniac). Nothing else goes in: the function has the view and
nothing more, so it cannot know what the seat may not.

The model is deliberately small and explainable: each piece of evidence multiplies a
player's odds of being evil by a fixed likelihood ratio (``LR``; the ballots of a player
whose words never tied to anything count less, ``UNREAD_WEIGHT``). When the hidden evil
players are a whole number and there is no maniac, the packs they could make are weighed
one by one (``_packs``: a readable accusation or ballot between two players makes them an
unlikely pack); then the probabilities are scaled to add up to the number of evil players
still hidden among the living (``Belief.hidden_evil``). Proofs (the seer's own results,
the pack, a claimer shown to have lied) are certainties, never odds. Every piece of
evidence leaves a short reason, in the seat's words, so plans and speech can say why.

The seat's public record is folded from its events in ``record.py`` (kept with the game
per seat, so each view only adds its new events).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from math import comb, isclose, prod
from typing import cast
from zlib import crc32

from parlour.games.werewolf.record import Record
from parlour.games.werewolf.views import WerewolfView

EVIL_ROLES = ("werewolf", "maniac")

#: Likelihood ratios, P(evidence | evil) / P(evidence | good), one per kind of evidence.
LR: Mapping[str, float] = {
    # a lone seer claim: a wolf rarely claims first and never alone for long
    "lone_claim": 0.3,
    # two or more claim the seer: at most one is honest, and the later claim is the
    # likelier lie (a wolf counter-claims once the seer spoke)
    "first_claim": 1.2,
    "counter_claim": 3.0,
    # a claimer read this seat (which knows it is good) as innocent
    "read_me_right": 0.6,
    # a believed claimer read this player as evil / innocent
    "read_evil": 5.0,
    "read_innocent": 0.3,
    # the reading came from a disputed claimer (a counter-claim exists)
    "disputed_read_evil": 1.6,
    "disputed_read_innocent": 0.7,
    # voted out a player later shown to be good / evil
    "voted_good": 1.7,
    "voted_evil": 0.15,
    # voted for a player they defended that day, or away from the one they accused
    "contradiction": 1.8,
    # accused or voted for this seat, which knows it is good
    "against_me": 1.5,
    # accused a player later shown to be evil
    "accused_evil": 0.6,
    # voted like a player later shown to be a werewolf, on the same day / defended one
    "voted_with_wolf": 1.6,
    # a player killed in the night had accused them (wolves kill who hunts them)
    "victim_accused": 1.5,
    "defended_evil": 2.2,
    # what a player later shown to be a werewolf said and did: a wolf accuses and votes
    # against outsiders and defends a packmate the table suspects
    "wolf_accused": 0.3,
    "wolf_voted": 0.5,
    "wolf_defended": 4.0,
    # a reading announced by a claimer whose death revealed the seer: its results were true
    "seer_read_evil": 20.0,
    "seer_read_innocent": 0.05,
    # a player whose words tie to something accused or voted for the other: per such
    # act, the odds that both are werewolves (a wolf turns on outsiders, not its pack)
    "apart": 0.3,
    # never said whom they suspect or trust (an accusation, a defence or a claim), once
    # per day they had a turn
    "unheard": 1.3,
}

#: how much the ballots of a player whose words never tied to anything (no accusation,
#: defence or claim the seat could read) weigh, as a power of their likelihood ratio: a
#: player who never says why votes for no reason anyone can check
UNREAD_WEIGHT = 0.25

#: no belief goes past this without a proof
CAP = 0.95
#: the most packs ``_packs`` weighs one by one (more: the players are weighed alone)
PACK_LIMIT = 500


@dataclass(frozen=True)
class Belief:
    """One seat's belief: P(evil) for every other living player, and why."""

    seat: str
    role: str
    #: other living player → probability that they are evil
    evil: Mapping[str, float]
    #: evil players not yet revealed or proven, among the living others
    hidden_evil: float
    #: players whose alignment this seat knows for sure: seat → "evil" | "good"
    known: Mapping[str, str] = field(default_factory=dict)
    #: the evidence behind each probability, in the seat's words
    reasons: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: living players who claimed the seer, in claim order
    claimers: tuple[str, ...] = ()
    #: the strongest incriminating reason per player (see ``why``)
    against: Mapping[str, str] = field(default_factory=dict)
    #: each living claimer's announced readings: claimer → ((target, reading), ...)
    readings: Mapping[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)

    def ranked(self, among: Iterable[str] | None = None) -> list[str]:
        """Most suspect first. Ties are broken by a fixed hash of (this seat, the player):
        with no evidence, different seats suspect different players (not the first seat)."""
        pool = list(self.evil) if among is None else [s for s in self.evil if s in set(among)]
        return sorted(pool, key=lambda s: (-self.evil[s], crc32(f"{self.seat}:{s}".encode())))

    def trusted(self, among: Iterable[str] | None = None) -> list[str]:
        """Least suspect first."""
        return list(reversed(self.ranked(among)))

    def why(self, seat: str) -> str:
        """The strongest reason to suspect a player (a proof of evil, else the evidence
        with the largest likelihood ratio above 1), or '' when nothing points at them."""
        if self.known.get(seat) == "evil":
            return self.reasons[seat][0]
        if self.known.get(seat) == "good":
            return ""
        return self.against.get(seat, "")


@dataclass
class _Evidence:
    odds: dict[str, float]
    reasons: dict[str, list[str]]
    known: dict[str, str]
    strongest: dict[str, tuple[float, str]] = field(default_factory=dict)

    def weigh(self, seat: str, kind: str, reason: str, weight: float = 1.0) -> None:
        """Multiply the odds by ``LR[kind]`` raised to ``weight`` (how much the player the
        evidence comes from is worth hearing, see ``UNREAD_WEIGHT``)."""
        if seat in self.odds:
            lr = LR[kind] ** weight
            self.odds[seat] *= lr
            self.reasons[seat].append(reason)
            if lr > 1 and lr > self.strongest.get(seat, (1.0, ""))[0]:
                self.strongest[seat] = (lr, reason)

    def prove(self, seat: str, side: str, reason: str) -> None:
        if seat in self.odds and seat not in self.known:
            self.known[seat] = side
            self.reasons[seat].insert(0, reason)


def belief(view: WerewolfView) -> Belief:
    """The seat's belief from its view alone (see the module doc). With the seat's kept
    records (a view ``seat_view`` built), its kept record is extended by the new events,
    and a view with the same record and facts as a recent one gets the same (frozen)
    belief back; without them, ``fresh_belief``."""
    store = view.private.records
    if store is None:
        return fresh_belief(view)
    players = view.public.players
    rec = store.record(view.seat, {p.id: p.name for p in players}, view.events)
    me = view.private
    key = (
        view.seat,
        me.role,
        me.alive,
        tuple(w.id for w in me.pack or ()),
        tuple((me.investigations or {}).items()),
        tuple((p.id, p.alive, p.role) for p in players),
        tuple(view.public.role_counts.items()),
    )
    kept = store.belief(key, rec)
    if kept is not None:
        return cast(Belief, kept)
    out = belief_from(view, rec)
    store.keep(key, rec, out)
    return out


def seat_record(view: WerewolfView) -> Record:
    """The seat's record of its view's events (kept with the game when it can be)."""
    store = view.private.records
    if store is not None:
        return store.record(view.seat, {p.id: p.name for p in view.public.players}, view.events)
    return _folded(view)


def fresh_belief(view: WerewolfView) -> Belief:
    """``belief`` read from every event again, with nothing kept (the reference the
    kept records are tested against)."""
    return belief_from(view, _folded(view))


def _folded(view: WerewolfView) -> Record:
    """A new record of every event of the view, read from the first."""
    rec = Record(view.seat, {p.id: p.name for p in view.public.players})
    for event in view.events:
        rec.add(event)
    return rec


def belief_from(view: WerewolfView, rec: Record) -> Belief:
    """The belief from the seat's own facts in ``view`` and its folded public record."""
    me = view.seat
    role = view.private.role
    players = view.public.players
    names = rec.names
    by_name = {p.name: p.id for p in players}
    alive = {p.id for p in players if p.alive}
    revealed = {p.id: p.role for p in players if p.role and not p.alive}
    others = [p.id for p in players if p.alive and p.id != me]
    ev = _Evidence({s: 1.0 for s in others}, {s: [] for s in others}, {})

    # -- the seat's own knowledge -----------------------------------------------------
    pack = {w.id for w in view.private.pack or []}
    if role == "werewolf":
        for s in others:
            if s in pack:
                ev.prove(s, "evil", "is in my pack")
            elif "maniac" not in view.public.role_counts:
                ev.prove(s, "good", "is not in my pack")
    for name, reading in (view.private.investigations or {}).items():
        seat = by_name.get(name)
        if seat:
            side = "evil" if reading == "evil" else "good"
            ev.prove(seat, side, f"I checked {name}: {'evil' if side == 'evil' else 'innocent'}")

    # -- the public record ------------------------------------------------------------
    claims, said, ballots, killed = rec.claims, rec.said, rec.ballots, rec.killed

    def worth(seat: str) -> float:
        """How much a player's ballots and words weigh: fully once their words tied to
        something, little while they never did (``UNREAD_WEIGHT``)."""
        return 1.0 if seat in rec.heard else UNREAD_WEIGHT

    if role != "werewolf":
        for speaker, day in rec.accused_me:
            ev.weigh(speaker, "against_me", f"accused me on day {day}")

    # claims: a liar is proven by the seat's own seer role, a dead seer, or a reading
    # the revealed roles contradict
    seer_dead = "seer" in revealed.values()
    claimers = [s for s in claims if s in alive]
    for claimer in claimers:
        lie = ""
        if role == "seer" and claimer != me:
            lie = "claimed the seer, but I am the seer"
        elif seer_dead:
            lie = "claimed the seer, but the seer died"
        for target, reading in claims[claimer]:
            if target == me and reading == "evil" and role not in EVIL_ROLES:
                lie = lie or "read me as evil, and I am not"
            if target in revealed and (revealed[target] in EVIL_ROLES) != (reading == "evil"):
                lie = lie or f"read {names[target]} as {reading}, who was the {revealed[target]}"
        if lie:
            ev.prove(claimer, "evil", lie)
    honest = [c for c in claimers if ev.known.get(c) != "evil"]
    disputed = len(honest) > 1
    for claimer in honest:
        if claimer == me:
            continue
        if disputed and claimer == honest[0]:
            ev.weigh(claimer, "first_claim", "claimed the seer first, then was disputed")
        elif disputed:
            ev.weigh(claimer, "counter_claim", "claimed the seer against an earlier claim")
        else:
            ev.weigh(claimer, "lone_claim", "claimed the seer and nobody disputes it")
        if role not in EVIL_ROLES and (me, "innocent") in claims[claimer]:
            ev.weigh(claimer, "read_me_right", "read me as innocent, which I know is true")
        for target, reading in claims[claimer]:
            if target == claimer:
                continue
            kind = f"{'disputed_' if disputed else ''}read_{reading}"
            word = "evil" if reading == "evil" else "innocent"
            ev.weigh(target, kind, f"{names[claimer]} checked {names[target]}: {word}")

    # a player whose words never tied to anything, once the table has talked
    # a player who had turns and never once said whom they suspect or trust
    for day, who in sorted(rec.spoke):
        if who not in rec.heard:
            ev.weigh(who, "unheard", f"said nothing about anyone on day {day}")

    # the readings of a claimer whose death revealed the seer were true
    for claimer, readings in claims.items():
        if revealed.get(claimer) != "seer":
            continue
        for target, reading in readings:
            ev.weigh(
                target,
                f"seer_read_{reading}",
                f"{names[claimer]}, who was the seer, checked {names[target]}: {reading}",
            )

    # ballots against revealed roles, and words against votes
    for day, voter, target in ballots:
        if voter == me:
            continue
        w = worth(voter)
        if revealed.get(voter) == "werewolf":
            ev.weigh(
                target, "wolf_voted", f"{names[voter]}, a werewolf, voted for them on day {day}", w
            )
        if target in revealed:
            if revealed[target] in EVIL_ROLES:
                ev.weigh(voter, "voted_evil", f"voted for {names[target]}, who was evil", w)
            else:
                ev.weigh(
                    voter, "voted_good", f"voted for {names[target]}, the {revealed[target]}", w
                )
        if target == me and role != "werewolf":
            ev.weigh(voter, "against_me", f"voted for me on day {day}", w)
        spoken = said.get((day, voter))
        if spoken is not None:
            if target in spoken.defended:
                ev.weigh(
                    voter,
                    "contradiction",
                    f"defended {names[target]} on day {day}, then voted for them",
                )
            elif spoken.accused and target not in spoken.accused:
                ev.weigh(
                    voter,
                    "contradiction",
                    f"accused {names[spoken.accused[0]]} on day {day}, then voted for "
                    f"{names[target]}",
                )
    wolf_ballots = {(d, t): v for d, v, t in ballots if revealed.get(v) == "werewolf"}
    for day, voter, target in ballots:
        wolf = wolf_ballots.get((day, target))
        if wolf is not None and voter != wolf and voter != me:
            ev.weigh(
                voter,
                "voted_with_wolf",
                f"voted with {names[wolf]}, who was a werewolf, on day {day}",
                worth(voter),
            )
    for (_day, speaker), stance in said.items():
        if revealed.get(speaker) == "werewolf":
            for a in dict.fromkeys(stance.accused):
                ev.weigh(a, "wolf_accused", f"was accused by {names[speaker]}, who was a werewolf")
            for d in dict.fromkeys(stance.defended):
                ev.weigh(
                    d, "wolf_defended", f"was defended by {names[speaker]}, who was a werewolf"
                )
        if speaker in killed:
            for a in dict.fromkeys(stance.accused):
                ev.weigh(
                    a,
                    "victim_accused",
                    f"was accused by {names[speaker]}, whom the night killed",
                )
        for d in stance.defended:
            if revealed.get(d) in EVIL_ROLES:
                ev.weigh(speaker, "defended_evil", f"defended {names[d]}, who was evil")
        if any(revealed.get(a) in EVIL_ROLES for a in stance.accused):
            wolf = next(a for a in stance.accused if revealed.get(a) in EVIL_ROLES)
            ev.weigh(speaker, "accused_evil", f"accused {names[wolf]}, who was evil")

    # -- normalise --------------------------------------------------------------------
    counts = view.public.role_counts
    total_evil = sum(counts.get(r, 0) for r in EVIL_ROLES)
    dead_evil = sum(1 for r in revealed.values() if r in EVIL_ROLES)
    mine = 1 if role in EVIL_ROLES and view.private.alive else 0
    proven_evil = sum(1 for s, side in ev.known.items() if side == "evil")
    hidden = max(0, total_evil - dead_evil - mine - proven_evil)
    unknown = [s for s in others if s not in ev.known]
    # the hidden evil players that are unrevealed dead cannot be told apart from the living
    unrevealed_dead = sum(1 for p in players if not p.alive and not p.role)
    hidden_f = float(min(hidden, len(unknown)))
    if unrevealed_dead and unknown:
        hidden_f = hidden_f * len(unknown) / (len(unknown) + unrevealed_dead)
    probs = {s: (1.0 if ev.known[s] == "evil" else 0.0) for s in ev.known}
    weights = {s: ev.odds[s] for s in unknown}
    if hidden_f.is_integer() and not counts.get("maniac"):
        # a pack is a team: weigh the packs it could be, not each player alone
        pack = {s for s, side in ev.known.items() if side == "evil"}
        if role == "werewolf" and view.private.alive:
            pack.add(me)
        apart = {(a, b) for a, b in rec.pointed if a in rec.heard}
        weights = _packs(int(hidden_f), weights, pack, apart) or weights
    probs.update(_spread(hidden_f, weights))
    evil = {s: probs[s] for s in others}
    return Belief(
        seat=me,
        role=role,
        evil=evil,
        hidden_evil=hidden_f,
        known=dict(ev.known),
        reasons={s: tuple(r) for s, r in ev.reasons.items()},
        claimers=tuple(claimers),
        against={s: why for s, (_, why) in ev.strongest.items()},
        readings={c: tuple(claims[c]) for c in claimers},
    )


def _packs(
    size: int, odds: Mapping[str, float], pack: set[str], apart: set[tuple[str, str]]
) -> dict[str, float] | None:
    """P(evil) of each player in ``odds`` when exactly ``size`` of them are evil, from the
    packs they could make with ``pack`` (the evil players already known): each pack
    weighs the product of its members' odds, times ``LR["apart"]`` for every (who, whom)
    in ``apart`` inside it. None when there are too many packs to weigh one by one."""
    seats = list(odds)
    if not 0 < size <= len(seats) or comb(len(seats), size) > PACK_LIMIT:
        return None
    marginal = dict.fromkeys(seats, 0.0)
    mass = 0.0
    for group in combinations(seats, size):
        weight = prod(odds[s] for s in group)
        members = {*group, *pack}
        weight *= LR["apart"] ** sum(1 for a in group for b in members if (a, b) in apart)
        weight *= LR["apart"] ** sum(1 for a in pack for b in group if (a, b) in apart)
        mass += weight
        for s in group:
            marginal[s] += weight
    return {s: size * w / mass for s, w in marginal.items()}


def _spread(total: float, weights: Mapping[str, float]) -> dict[str, float]:
    """Probabilities proportional to ``weights`` that add up to ``total``, none above
    ``CAP`` (the excess goes to the others in proportion): a belief, not a certainty."""
    out = {s: 0.0 for s in weights}
    free = dict(weights)
    left = total
    while free and left > 0:
        mass = sum(free.values())
        share = {s: left * w / mass for s, w in free.items()}
        over = [s for s, p in share.items() if p > CAP and not isclose(p, CAP)]
        if not over:
            out.update(share)
            break
        for s in over:
            out[s] = CAP
            left -= CAP
            del free[s]
    return out

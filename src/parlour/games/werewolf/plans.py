"""A seat's plan for the day: whom it suspects, whom it defends, what it claims, whom it
means to vote for. Speech and the vote follow from it.

The engine ranks a few plans from the seat's own belief (``belief.py``, built from its
view) and offers them as a choose-one ``plan`` decision before the day's talk, and again
when something happened that may change a plan (a seer claim; with ``ballot_replan``,
just before the seat's ballot when its view now ranks another target first). A small
model picks among
ranked options; the scripted policy picks with ``scripted_choice``; the choice is kept as
a private ``plan`` event, which is how the seat (and its diary) knows its plan and how a
change of plan shows up in the record.

Village seats suspect and vote the player their belief finds most likely evil and defend
the one they trust most. The seer claims once it holds a result. Wolves plan from how the
public record looks (the belief a plain villager would hold), so they vote with the
village's suspicion, defend an accused packmate, and keep to a fake seer claim once one
of them made it. At a sequential ballot a wolf joins the outsider with the most ballots;
it votes for a packmate only when the ballots already cast put that packmate out
whatever the rest do (``_lost_packmate``), and its plan says so.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any

from parlour.core.events import Event
from parlour.games.werewolf.belief import Belief, belief, seat_record
from parlour.games.werewolf.views import WerewolfPrivate, WerewolfView

PLAN = "plan"
#: plans offered per decision
PLAN_OPTIONS = 4
#: a scripted seat changes its plan only when another target is this much more likely evil
SWITCH_MARGIN = 0.15


@dataclass(frozen=True)
class Plan:
    """One day's plan. ``claim``: "seer" when the seat claims the seer (truly or not),
    with the reading it announces about ``claim_target``."""

    vote: str
    suspect: str
    defend: str = ""
    claim: str = ""
    claim_target: str = ""
    claim_reading: str = ""
    why: str = ""
    #: P(evil) of the target in the seat's belief (the public one, for a wolf)
    p: float = 0.0

    def data(self) -> dict[str, Any]:
        """Every field, in field order, ``p`` rounded to 3 places."""
        return {**asdict(self), "p": round(self.p, 3)}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Plan:
        return cls(
            vote=str(data.get("vote", "")),
            suspect=str(data.get("suspect", "")),
            defend=str(data.get("defend", "")),
            claim=str(data.get("claim", "")),
            claim_target=str(data.get("claim_target", "")),
            claim_reading=str(data.get("claim_reading", "")),
            why=str(data.get("why", "")),
            p=float(data.get("p", 0.0)),
        )

    def key(self) -> str:
        """What the seat would say and do: a plan with the same key is not a change."""
        return "|".join((self.vote, self.defend, self.claim, self.claim_target))

    def label(self, names: dict[str, str], own: bool = False) -> str:
        """The option as the seat reads it: "suspect and vote Kenji (claimed the seer
        against another claim); defend Aiko"; ``own``: in the seat's own words, as its
        ``plan`` event says it ("say I am the seer ...", not "say you are ...")."""
        # a plan may vote for a player it does not suspect (a wolf whose packmate is lost)
        out = f"{'suspect and ' if self.suspect else ''}vote {names[self.vote]}"
        if self.why:
            out += f" ({self.why})"
        if self.defend:
            out += f"; defend {names[self.defend]}"
        if self.claim and self.claim_target:
            out += f"; say {'I am' if own else 'you are'} the {self.claim} and "
            out += f"{names[self.claim_target]} is {self.claim_reading}"
        return out


def public_belief(view: WerewolfView) -> Belief:
    """The belief a villager would hold from the public record in this view: how the
    table sees each player (a wolf plans from it to go with the village's suspicion)."""
    me = view.private
    blank = WerewolfPrivate(id=me.id, name=me.name, role="villager", alive=me.alive)
    blank = blank.keeping(me.records)
    return belief(view.model_copy(update={"private": blank}))


def _own_claim(view: WerewolfView) -> tuple[str, str]:
    """The seer claim this seat made earlier (target, reading), or ("", "")."""
    readings = seat_record(view).claims.get(view.seat, [])
    return readings[0] if readings else ("", "")


def _pack_claimed(view: WerewolfView, pack: set[str]) -> bool:
    return any(s in pack for s in seat_record(view).claims)


def ranked_plans(view: WerewolfView, limit: int = PLAN_OPTIONS) -> list[Plan]:
    """The plans the engine offers this seat, best first (from its belief only)."""
    role = view.private.role
    mine = belief(view)
    others = list(mine.evil)
    if not others:
        return []
    if role == "werewolf":
        return _wolf_plans(view, mine, limit)
    order = mine.ranked()
    claim, target, reading = "", "", ""
    if role == "seer":
        results = view.private.investigations or {}
        by_name = {p.name: p.id for p in view.public.players}
        living = [(by_name[n], r) for n, r in results.items() if by_name.get(n) in mine.evil]
        evil = [s for s, r in living if r == "evil"]
        if living:
            claim = "seer"
            target, reading = (evil[0], "evil") if evil else (living[-1][0], "innocent")
    plans = []
    for suspect in order[:limit]:
        trusted = [s for s in mine.trusted() if s != suspect]
        plans.append(
            Plan(
                vote=suspect,
                suspect=suspect,
                defend=trusted[0] if trusted and mine.evil[trusted[0]] < 0.2 else "",
                claim=claim,
                claim_target=target if claim else "",
                claim_reading=reading if claim else "",
                why=mine.why(suspect),
                p=mine.evil[suspect],
            )
        )
    return plans


def _wolf_plans(view: WerewolfView, mine: Belief, limit: int) -> list[Plan]:
    pack = {s for s, side in mine.known.items() if side == "evil"} | {
        w.id for w in view.private.pack or []
    }
    public = public_belief(view)
    outsiders = [s for s in public.ranked() if s not in pack]
    if not outsiders:
        outsiders = public.ranked()
    # at a sequential vote, a wolf joins the outsider with the most ballots so far: a
    # villager goes out, or a packmate in the lead is tied
    today = Counter(t for d, _, t in seat_record(view).ballots if d == view.public.day)
    outsiders.sort(key=lambda s: -today[s])
    # a packmate the table suspects gets defended (never voted for)
    threatened = [s for s in public.ranked() if s in pack and public.evil[s] >= 0.3]
    defend = threatened[0] if threatened else ""
    claim, target, reading = "", "", ""
    kept_target, kept_reading = _own_claim(view)
    if kept_target and kept_target in mine.evil:
        claim, target, reading = "seer", kept_target, kept_reading
    elif not kept_target and not _pack_claimed(view, pack):
        # counter-claim when a claimed seer named this wolf or a packmate as evil
        for claimer in public.claimers:
            read = public.readings.get(claimer, ())
            if claimer not in pack and any(
                r == "evil" and (t in pack or t == view.seat) for t, r in read
            ):
                claim, target, reading = "seer", claimer, "evil"
                break
    lost = _lost_packmate(view, pack, today)
    if lost:
        why = "is voted out whatever I do: my ballot can no longer save them"
        return [Plan(vote=lost, suspect="", why=why, p=public.evil.get(lost, 0.0))]
    plans = []
    for suspect in outsiders[:limit]:
        vote = target if claim and reading == "evil" and target in outsiders else suspect
        plans.append(
            Plan(
                vote=vote,
                suspect=vote,
                defend=defend,
                claim=claim,
                claim_target=target if claim else "",
                claim_reading=reading if claim else "",
                why=public.why(vote) or "has given me nothing to trust",
                p=public.evil.get(vote, 0.0),
            )
        )
        if claim and reading == "evil":
            break  # a liar keeps to the one story
    return plans


def _lost_packmate(view: WerewolfView, pack: set[str], today: Counter[str]) -> str:
    """A packmate whose ballots so far still outnumber any other player's even if this
    wolf and every voter after it vote for that other: the packmate goes out whatever
    the wolf does, so it votes with the table rather than be seen to stand alone against
    it ('' when no packmate is so lost; a tie could still save one)."""
    cast = sum(today.values())
    if not cast:
        return ""
    alive = {p.id for p in view.public.players if p.alive}
    after_me = len(alive) - cast - 1
    for mate in sorted(pack):
        if mate == view.seat or mate not in alive:
            continue
        best_other = max((n for s, n in today.items() if s != mate), default=0)
        if today[mate] > best_other + 1 + after_me:
            return mate
    return ""


def current_plan(view: WerewolfView) -> Plan | None:
    """The seat's plan for today: its latest ``plan`` event of the current day."""
    day = f"day {view.public.day}"
    for event in reversed(view.events):
        if event.kind == PLAN and event.phase == day and event.speaker == view.seat:
            return Plan.from_data(dict(event.data))
    return None


def plan_events(events: list[Event] | tuple[Event, ...], seat: str, day: int) -> list[Event]:
    return [e for e in events if e.kind == PLAN and e.speaker == seat and e.data.get("day") == day]


def scripted_choice(view: WerewolfView, option_ids: list[str]) -> str:
    """Keep today's plan unless its target died or another option is clearly more likely
    evil; else the engine's first (best-ranked) option."""
    plans = {p.vote: p for p in ranked_plans(view, len(option_ids) + 2)}
    now = current_plan(view)
    if now is not None and now.vote in option_ids:
        best = option_ids[0]
        gain = plans[best].p - plans[now.vote].p if best in plans and now.vote in plans else 0.0
        if gain < SWITCH_MARGIN:
            return now.vote
    return option_ids[0]


# -- written plans (capable models) ---------------------------------------------------------

#: the fields of a written plan, in the order a model writes them
WRITTEN_FIELDS = ("suspect", "defend", "claim", "claim_target", "claim_reading", "vote", "reason")
REASON_MAX = 160
#: written plans a seat may hand in per plan decision before the ranked plan is kept
WRITE_ATTEMPTS = 3


def written_schema(names: list[str]) -> dict[str, Any]:
    """The JSON schema of a written plan: players by name among ``names`` (the living
    others), "" for "nobody" / "no claim", and a short reason in the seat's own words."""
    anyone = {"type": "string", "enum": names}
    nobody = {"type": "string", "enum": ["", *names]}
    props: dict[str, Any] = {
        "suspect": anyone,
        "defend": nobody,
        "claim": {"type": "string", "enum": ["", "seer"]},
        "claim_target": nobody,
        "claim_reading": {"type": "string", "enum": ["", "evil", "innocent"]},
        "vote": anyone,
        "reason": {"type": "string", "minLength": 1, "maxLength": REASON_MAX},
    }
    return {
        "type": "object",
        "properties": props,
        "required": list(WRITTEN_FIELDS),
        "additionalProperties": False,
    }


def written_problem(value: dict[str, Any]) -> str:
    """Why a written plan (already valid against ``written_schema``) does not hold
    together, or "" when it does."""
    vote, defend = str(value["vote"]), str(value["defend"])
    claim, target = str(value["claim"]), str(value["claim_target"])
    reading = str(value["claim_reading"])
    if defend and defend in (vote, str(value["suspect"])):
        return f"you cannot defend {defend} and also suspect or vote for them"
    if claim and not (target and reading):
        return "a seer claim needs claim_target and claim_reading (whom you checked, and what)"
    if not claim and (target or reading):
        return 'claim_target and claim_reading go with claim "seer"; leave them "" otherwise'
    if claim and reading == "evil" and target == defend:
        return f"you cannot call {target} evil and defend them"
    if not str(value["reason"]).strip():
        return "give a short reason"
    return ""


def plan_of_written(value: dict[str, Any], by_name: dict[str, str], p: float) -> Plan:
    """A written plan (names) as a ``Plan`` (seat ids); the reason is its ``why``."""
    seat = {"": "", **by_name}
    return Plan(
        vote=seat[str(value["vote"])],
        suspect=seat[str(value["suspect"])],
        defend=seat[str(value["defend"])],
        claim=str(value["claim"]),
        claim_target=seat[str(value["claim_target"])],
        claim_reading=str(value["claim_reading"]),
        why=" ".join(str(value["reason"]).split()),
        p=p,
    )


def written_value(plan: Plan, names: dict[str, str]) -> dict[str, Any]:
    """A ranked plan written out as a seat would write it (the scripted answer and the
    fallback when a model's plan keeps failing the checks)."""
    name = {"": "", **names}
    return {
        "suspect": name[plan.suspect],
        "defend": name[plan.defend],
        "claim": plan.claim if plan.claim_target else "",
        "claim_target": name[plan.claim_target] if plan.claim else "",
        "claim_reading": plan.claim_reading if plan.claim and plan.claim_target else "",
        "vote": name[plan.vote],
        "reason": (plan.why or "it is the most likely evil I can see")[:REASON_MAX],
    }


def offered_plans(view: WerewolfView) -> list[Plan]:
    """The plans the engine offers this seat (``ranked_plans``) and, when it is no longer
    among them, the plan it holds today: what ``open_plans`` offers."""
    ranked = ranked_plans(view)
    now = current_plan(view)
    living = {p.id for p in view.public.players if p.alive}
    if (
        ranked
        and now is not None
        and now.vote in living
        and now.vote not in {r.vote for r in ranked}
    ):
        keep = next((r for r in ranked_plans(view, 99) if r.vote == now.vote), None)
        if keep is not None:
            ranked = [*ranked, keep]
    return ranked


def scripted_written(view: WerewolfView) -> dict[str, Any]:
    """The written plan the scripted player gives: its ``scripted_choice`` among the
    offered plans."""
    offered = offered_plans(view)
    names = {p.id: p.name for p in view.public.players}
    chosen = scripted_choice(view, [r.vote for r in offered])
    return written_value(next(r for r in offered if r.vote == chosen), names)

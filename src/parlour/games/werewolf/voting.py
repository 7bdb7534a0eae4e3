"""The day vote: simultaneous or sequential ballots, plurality, a configurable tie rule."""

from __future__ import annotations

from collections import Counter

from parlour.core.actions import Action, Choice
from parlour.core.decisions import Decision, DecisionKind, Option
from parlour.core.errors import IllegalAction
from parlour.core.events import Audience
from parlour.core.rng import Rng
from parlour.games.werewolf.ask import VoteAsk
from parlour.games.werewolf.config import WerewolfConfig
from parlour.games.werewolf.discussion import replan_before_ballot
from parlour.games.werewolf.roles import with_article
from parlour.games.werewolf.state import Ballot, DayRecord, Player, Stage, VoteRound, WerewolfState

VOTE = "vote"


def enter_vote(st: WerewolfState, cfg: WerewolfConfig) -> None:
    living = st.living()
    if cfg.vote_mode == "sequential":
        # Seat order, rotated by one seat each day so nobody always votes first.
        shift = (st.day - 1) % len(living)
        order = [p.id for p in living[shift:] + living[:shift]]
    else:
        order = [p.id for p in living]
    st.vote = VoteRound(day=st.day, order=order)
    st.stage = Stage.VOTE
    disc = st.discussion
    why = ""
    if disc is not None and disc.vote_called_by:
        why = f" {st.name(disc.vote_called_by)} called it."
    how = (
        "Voters vote one at a time, in this order: " + ", ".join(st.name(s) for s in order) + "."
        if cfg.vote_mode == "sequential"
        else "Everyone votes at once; the ballots are revealed together."
    )
    st.emit("phase", f"Day {st.day}: the vote begins.{why} {how}", Audience.everyone())
    if cfg.vote_mode == "simultaneous":
        asked = False
        for seat in order:
            asked = replan_before_ballot(st, cfg, seat) or asked
        if not asked:
            open_ballots(st, cfg)


def open_ballots(st: WerewolfState, cfg: WerewolfConfig) -> None:
    """Simultaneous mode: open every ballot at once (voters whose plan the engine keeps
    vote by it at once)."""
    rnd = st.vote
    assert rnd is not None
    rnd.opened = True
    for seat in rnd.order:
        ballot = _ballot(st, seat, None)
        if not _vote_by_plan(st, cfg, ballot):
            st.open(ballot)


def open_next_voter(st: WerewolfState, cfg: WerewolfConfig) -> bool:
    """Sequential mode: ask the next voter, after its look at its plan
    (``replan_before_ballot``); voters whose plan the engine keeps vote by it at once.
    False when everyone has voted."""
    rnd = st.vote
    assert rnd is not None
    while (k := len(rnd.cast)) < len(rnd.order):
        seat = rnd.order[k]
        if seat not in rnd.replanned:
            rnd.replanned.add(seat)
            if replan_before_ballot(st, cfg, seat):
                return True
        ballot = _ballot(st, seat, k + 1)
        if not _vote_by_plan(st, cfg, ballot):
            st.open(ballot)
            return True
    return False


def _vote_by_plan(st: WerewolfState, cfg: WerewolfConfig, ballot: Decision) -> bool:
    """A seat whose plan the engine keeps (``engine_plans``, a small model) votes for its
    plan's target without being asked, so its vote agrees with the words its plan chose;
    False when the seat is asked (not such a seat, or no living target planned)."""
    disc = st.discussion
    plan = disc.plans.get(ballot.seat) if disc is not None and disc.day == st.day else None
    if ballot.seat not in cfg.engine_plans or plan is None or plan not in ballot.option_ids:
        return False
    apply_vote(st, cfg, ballot, Choice(option=plan), unasked=True)
    return True


def _line(st: WerewolfState, k: int, ballot: Ballot) -> str:
    return f"{k}. {st.name(ballot.voter)} → {st.name(ballot.target)}"


def _ballot(st: WerewolfState, seat: str, position: int | None) -> Decision:
    rnd = st.vote
    assert rnd is not None
    targets = [p for p in st.living() if p.id != seat]
    disc = st.discussion
    plan = disc.plans.get(seat) if disc is not None and disc.day == st.day else None
    if plan is not None and st.player(plan).alive and plan != seat:
        # the plan's target is offered first; voting otherwise asks for a reason
        targets = [st.player(plan), *[p for p in targets if p.id != plan]]
    else:
        plan = None
    me = st.player(seat)
    own = "you cannot vote for yourself"
    refusals: dict[str, str] = {me.id: own, me.name: own}
    for p in st.players:
        if not p.alive:
            refusals[p.id] = refusals[p.name] = f"{p.name} is dead"
    ask = VoteAsk(day=st.day, mode="simultaneous")
    prompt = f"Day {st.day} vote: whom do you vote to eliminate?"
    if position is not None:
        earlier = [_line(st, i, b) for i, b in enumerate(rnd.cast, 1)]
        ask = VoteAsk(
            day=st.day,
            mode="sequential",
            position=position,
            voters=len(rnd.order),
            position_text=f"{position} of {len(rnd.order)}",
            earlier_votes=earlier,
        )
        prompt += f" You vote {position} of {len(rnd.order)}."
        if earlier:
            prompt += " Votes so far: " + "; ".join(earlier) + "."
    if plan is not None:
        ask = ask.model_copy(update={"plan": st.name(plan)})
        prompt += (
            f" Your plan today was to vote {st.name(plan)}; if you vote for someone else, "
            "give the reason your plan changed."
        )
    return Decision(
        id=f"d{st.day}:vote:{seat}",
        seat=seat,
        kind=DecisionKind.CHOOSE_ONE,
        purpose=VOTE,
        max_tokens=60,
        prompt=prompt,
        options=tuple(
            Option(id=p.id, label=f"{p.name} (your plan)" if p.id == plan else p.name)
            for p in targets
        ),
        context=ask.context(),
        not_allowed=refusals,
    )


def apply_vote(
    st: WerewolfState,
    cfg: WerewolfConfig,
    decision: Decision,
    action: Action,
    unasked: bool = False,
) -> None:
    rnd = st.vote
    assert rnd is not None and isinstance(action, Choice)
    disc = st.discussion
    plan = disc.plans.get(decision.seat) if disc is not None and disc.day == st.day else None
    if (
        decision.seat in cfg.written_plans
        and plan is not None
        and plan in decision.option_ids
        and action.option != plan
        and not action.reason.strip()
    ):
        # a seat that wrote its plan votes by it, or says why the plan changed
        raise IllegalAction(
            f"Your plan today was to vote {st.name(plan)}: vote {st.name(plan)}, or give "
            "the reason your plan changed.",
            decision_id=decision.id,
        )
    ballot = Ballot(
        voter=decision.seat, target=action.option, reason=action.reason, unasked=unasked
    )
    rnd.cast.append(ballot)
    if ballot.reason:
        # The reason is the voter's own note: the prompt never says it is public, so it
        # goes to the voter (and a revealing spectator), never into the public ballot.
        st.emit(
            "vote_reason",
            f"Your reason for voting {st.name(ballot.target)}: {ballot.reason}",
            Audience.only(ballot.voter),
            speaker=ballot.voter,
            data={"day": st.day, "target": ballot.target, "reason": ballot.reason},
        )
    if cfg.vote_mode == "sequential":
        _publish(st, len(rnd.cast), ballot)


def _publish(st: WerewolfState, k: int, ballot: Ballot) -> None:
    st.emit(
        "vote",
        _line(st, k, ballot),
        Audience.everyone(),
        data={
            "day": st.day,
            "order": k,
            "voter": ballot.voter,
            "target": ballot.target,
            # taken from the seat's plan by the engine (``engine_plans``): not an answer
            **({"unasked": True} if ballot.unasked else {}),
        },
    )


def tally(st: WerewolfState, cfg: WerewolfConfig, rng: Rng) -> Player | None:
    """Count the ballots, eliminate the plurality target (or apply the tie rule), record
    the day; return the eliminated player."""
    rnd = st.vote
    assert rnd is not None
    if cfg.vote_mode == "simultaneous":
        # Revealed together, in seat order, once every ballot is in.
        by_seat = {b.voter: b for b in rnd.cast}
        rnd.cast = [by_seat[s] for s in rnd.order if s in by_seat]
        for k, ballot in enumerate(rnd.cast, 1):
            _publish(st, k, ballot)
    counts = Counter(b.target for b in rnd.cast)
    tally_names = {st.name(p.id): counts[p.id] for p in st.players if counts.get(p.id)}
    out: Player | None = None
    if counts:
        best = max(counts.values())
        tied = [p for p in st.players if counts.get(p.id) == best]
        if len(tied) == 1:
            out = tied[0]
        elif cfg.tie_rule == "random":
            out = rng.choice(tied)
        tie_note = (
            f"Tie between {', '.join(p.name for p in tied)}"
            + ("; drawn by lot: " if out else "; nobody is eliminated.")
            if len(tied) > 1
            else ""
        )
    else:
        tie_note = "No votes; nobody is eliminated."
    if out is not None:
        out.alive = False
        out.revealed = out.revealed or cfg.reveal_roles
        result = f"{tie_note}{out.name} is eliminated" + (
            f"; they were {with_article(out.role)}." if out.revealed else "."
        )
    else:
        result = tie_note
    disc = st.discussion
    st.days.append(
        DayRecord(
            day=st.day,
            votes=[_line(st, k, b) for k, b in enumerate(rnd.cast, 1)],
            tally=tally_names,
            result=result,
            eliminated=out.name if out else None,
            revealed_role=out.role.value if out and out.revealed else None,
            called_by=st.name(disc.vote_called_by) if disc and disc.vote_called_by else None,
        )
    )
    st.emit(
        "elimination",
        result,
        Audience.everyone(),
        data={
            "day": st.day,
            "eliminated": out.id if out else None,
            "role": out.role.value if out and out.revealed else None,
            "tally": {p.id: counts[p.id] for p in st.players if counts.get(p.id)},
        },
    )
    st.vote = None
    return out

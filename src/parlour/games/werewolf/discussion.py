"""Day discussion: a router seat picks who speaks next from the public view only.

Each router call sees the living players who may speak now (everyone but the last
speaker), flags the least active of them NEEDS TURN, and must pick a batch of 1 to
``route_batch_max`` players that includes at least one NEEDS TURN player. Each picked
player then answers a free-text ``speak`` decision; an empty answer is a pass, and the
literal ``/vote`` calls the vote at once. The vote starts by itself once
``messages_per_player`` × living players turns were taken (passes count as turns).

``discussion: ask_all`` is the common alternative, kept as a measured baseline (see
``benchmarks/werewolf_routing.py``): each turn every living player but the last speaker
gets the ``speak`` decision at once, and when all have answered the engine posts one
answer. Posting rule: the first non-empty answer in priority order, which is NEEDS TURN
players first, then everyone else, each group in seat order starting after the last
speaker. The other answers are kept as engine-only ``unsaid`` events; if all are empty
the turn is a pass ("Nobody speaks."). Same turn budget, no router, no open mic (every
seat is asked every turn anyway).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from parlour.core.actions import Action, Choice, Choices, Structured, Text
from parlour.core.decisions import Decision, DecisionKind, Option
from parlour.core.errors import IllegalAction
from parlour.core.events import Audience
from parlour.core.rng import Rng, hash_seed
from parlour.games.werewolf.ask import (
    InterjectAsk,
    PlanAsk,
    RouteAsk,
    RouteRow,
    SpeakAsk,
    free_text,
)
from parlour.games.werewolf.belief import seat_record
from parlour.games.werewolf.config import WerewolfConfig
from parlour.games.werewolf.names import mentioned
from parlour.games.werewolf.plans import (
    PLAN,
    WRITE_ATTEMPTS,
    Plan,
    plan_of_written,
    ranked_plans,
    scripted_choice,
    written_problem,
    written_schema,
)
from parlour.games.werewolf.playstyles import Playstyle
from parlour.games.werewolf.record import stances
from parlour.games.werewolf.speech_acts import (
    act_decision,
    earlier_statement,
    move_of,
    seat_facts,
    speaks_in_acts,
)
from parlour.games.werewolf.speech_voice import render
from parlour.games.werewolf.state import Discussion, Player, Stage, WerewolfState
from parlour.games.werewolf.views import WerewolfView, seat_view

ROUTER = "router"
ROUTE, SPEAK, INTERJECT = "route", "speak", "interject"
VOTE_CALL = "/vote"
#: the last part of the id of a plan decision taken just before a ballot
BALLOT_LOOK = "ballot"


def enter_day(st: WerewolfState, cfg: WerewolfConfig) -> None:
    st.day += 1
    st.phase = f"day {st.day}"
    living = st.living()
    st.emit(
        "phase",
        f"Day {st.day} begins. Alive: {', '.join(p.name for p in living)}.",
        Audience.everyone(),
    )
    st.discussion = Discussion(day=st.day, budget=cfg.messages_per_player * len(living))
    st.stage = Stage.SPEAK
    open_plans(st, cfg, "the day begins")


def open_plans(st: WerewolfState, cfg: WerewolfConfig, because: str, skip: str = "") -> bool:
    """Ask every living player (but open-mic seats and ``skip``) for today's plan, among
    plans ranked from its own view (``plans.py``); False when nobody is asked."""
    disc = st.discussion
    assert disc is not None
    if not cfg.plans:
        return False
    disc.plan_rounds += 1
    asked = False
    for p in st.living():
        if p.id in cfg.open_mic or p.id == skip:
            continue
        decision_id = f"d{st.day}:plan:{p.id}:{disc.plan_rounds}"
        asked = ask_plan(st, cfg, seat_view(st, cfg, p.id), because, decision_id) or asked
    if asked:
        st.stage = Stage.PLAN
    return asked


def ask_plan(
    st: WerewolfState,
    cfg: WerewolfConfig,
    view: WerewolfView,
    because: str,
    decision_id: str,
    ranked: list[Plan] | None = None,
) -> bool:
    """Ask the seat of ``view`` for today's plan among ``ranked`` (by default the plans
    ranked from that view), keeping its current plan on offer; an ``engine_plans`` seat
    gets the engine's pick at once. True when a decision was opened."""
    disc = st.discussion
    assert disc is not None
    seat = view.seat
    ranked = ranked_plans(view) if ranked is None else ranked
    if not ranked:
        return False
    names = {p.id: p.name for p in st.players}
    current = disc.plans.get(seat)
    if current is not None and st.player(current).alive:
        if current not in [r.vote for r in ranked]:
            keep = next((r for r in ranked_plans(view, 99) if r.vote == current), None)
            if keep is not None:
                ranked = [*ranked, keep]
    else:
        current = None
    disc.offered[seat] = {r.vote: r.data() for r in ranked}
    if seat in cfg.written_plans:
        st.open(_written_plan_decision(st, seat, because, ranked, current))
        return True
    decision = Decision(
        id=decision_id,
        seat=seat,
        kind=DecisionKind.CHOOSE_ONE,
        purpose=PLAN,
        max_tokens=40,
        prompt=(
            f"Day {st.day}, {because}: choose your plan for today. You will speak "
            "and vote by it; change it only when something happens."
            + (f" Your plan so far: vote {names[current]}." if current else "")
        ),
        options=tuple(
            Option(
                id=r.vote,
                label=r.label(names) + (" (your plan so far)" if r.vote == current else ""),
            )
            for r in ranked
        ),
        context=PlanAsk(
            day=st.day, because=because, current=names[current] if current else None
        ).context(),
    )
    if seat in cfg.engine_plans:
        # The engine picks as the scripted player would, from the seat's own view.
        choice = scripted_choice(view, [o.id for o in decision.options])
        apply_plan(st, cfg, decision, Choice(option=choice))
        return False
    st.open(decision)
    return True


def replan_before_ballot(st: WerewolfState, cfg: WerewolfConfig, seat: str) -> bool:
    """``ballot_replan``: just before its ballot, a seat whose plan is picked among ranked
    options looks at it again when its own view now ranks another target first (the
    day's talk, or the ballots before it, moved its belief); the change is a plan of its
    own, visible in its diary, so its vote never silently contradicts its words; a player
    it defended today is not offered. Seats
    that write their plans are not asked (their ballot may give a reason instead). True
    when a decision was opened."""
    disc = st.discussion
    if (
        not cfg.ballot_replan
        or not cfg.plans
        or disc is None
        or disc.day != st.day
        or seat in cfg.open_mic
        or seat in cfg.written_plans
    ):
        return False
    current = disc.plans.get(seat)
    view = seat_view(st, cfg, seat)
    # never a vote for a player the seat stood up for today: that contradicts its words
    # whatever its plan says
    spoken = seat_record(view).said.get((st.day, seat))
    defended = set(spoken.defended) if spoken is not None else set()
    ranked = [r for r in ranked_plans(view) if r.vote not in defended]
    if current is None or not ranked or ranked[0].vote == current:
        return False
    top = ranked[0]
    if top.why and top.why[0].islower():
        because = f"{st.name(top.vote)} {top.why}"
    else:
        # no reason against the new target itself: the evidence on the others moved
        because = top.why or "what was said today points elsewhere now"
    return ask_plan(st, cfg, view, because, f"d{st.day}:plan:{seat}:{BALLOT_LOOK}", ranked)


def _written_plan_decision(
    st: WerewolfState,
    seat: str,
    because: str,
    ranked: list[Plan],
    current: str | None,
    refused: str = "",
) -> Decision:
    """A capable model's plan: written as a structured object (``plans.written_schema``),
    with the engine's ranked plans from its own view shown as a reading, not as a menu;
    ``refused``: why its last written plan was not taken (asked again)."""
    disc = st.discussion
    assert disc is not None
    names = {p.id: p.name for p in st.players}
    living = [p.name for p in st.living() if p.id != seat]
    reading = "; ".join(f"{k}. {r.label(names)}" for k, r in enumerate(ranked, 1))
    tries = disc.plan_refusals.get(seat, 0)
    again = f" Your last plan was refused: {refused} Write it again." if refused else ""
    return Decision(
        id=f"d{st.day}:plan:{seat}:{disc.plan_rounds}" + (f":{tries + 1}" if tries else ""),
        seat=seat,
        kind=DecisionKind.STRUCTURED,
        purpose=PLAN,
        max_tokens=160,
        prompt=(
            f"Day {st.day}, {because}: write your plan for today: whom you suspect, whom "
            'you defend ("" for nobody), whether you claim to be the seer (and whom you '
            "say you checked, with what result), whom you will vote for, and a short reason "
            "in your own words. You will speak and vote by it; change it only when something "
            "happens."
            + (f" Your plan so far: vote {names[current]}." if current else "")
            + f" How the game reads your view: {reading}."
            + again
        ),
        json_schema=written_schema(living),
        context=PlanAsk(
            day=st.day, because=because, current=names[current] if current else None
        ).context(),
    )


def _chosen_plan(st: WerewolfState, decision: Decision, action: Action) -> Plan:
    """The plan an answer gives: a ranked option (choose-one) or a written plan, checked
    before anything changes (``IllegalAction`` says what does not hold together)."""
    disc = st.discussion
    assert disc is not None
    offered = disc.offered.get(decision.seat, {})
    if isinstance(action, Structured):
        by_name = {p.name: p.id for p in st.players}
        vote = by_name[str(action.value["vote"])]
        return plan_of_written(action.value, by_name, float(offered.get(vote, {}).get("p", 0.0)))
    assert isinstance(action, Choice)
    chosen = offered.get(action.option)
    if chosen is not None:
        return Plan.from_data(chosen)
    return Plan(vote=action.option, suspect=action.option)


def _refused(
    st: WerewolfState, cfg: WerewolfConfig, decision: Decision, action: Structured
) -> bool:
    """A written plan that does not hold together (``plans.written_problem``) is not
    taken: the seat is told why (a private event) and asked again, up to
    ``WRITE_ATTEMPTS`` plans; then the plan the engine ranked first for it is kept (the
    scripted player's choice). True when the seat is asked again."""
    disc = st.discussion
    assert disc is not None
    problem = written_problem(action.value)
    if not problem:
        return False
    seat = decision.seat
    tries = disc.plan_refusals.get(seat, 0) + 1
    ranked = [Plan.from_data(d) for d in disc.offered.get(seat, {}).values()]
    kept = tries >= WRITE_ATTEMPTS
    text = f"Your plan was refused: {problem}."
    text += " The game keeps the plan it ranked first for you." if kept else " Write it again."
    st.emit(
        "plan_refused",
        text,
        Audience.only(seat),
        speaker=seat,
        data={"day": st.day, "problem": problem, "attempt": tries, "kept_ranked": kept},
    )
    if kept:
        disc.plan_refusals.pop(seat, None)
        choice = scripted_choice(seat_view(st, cfg, seat), [r.vote for r in ranked])
        apply_plan(st, cfg, decision, Choice(option=choice))
        return True
    disc.plan_refusals[seat] = tries
    current = disc.plans.get(seat)
    because = PlanAsk.of(decision).because
    st.open(_written_plan_decision(st, seat, because, ranked, current, f"{problem}."))
    return True


def apply_plan(st: WerewolfState, cfg: WerewolfConfig, decision: Decision, action: Action) -> None:
    """Keep the chosen plan; a new or changed plan is a private ``plan`` event."""
    disc = st.discussion
    assert disc is not None
    seat = decision.seat
    if isinstance(action, Structured) and _refused(st, cfg, decision, action):
        return
    disc.plan_refusals.pop(seat, None)
    before = disc.plans.get(seat)
    plan = _chosen_plan(st, decision, action)
    if disc.plan_keys.get(seat) == plan.key():
        return
    if decision.id.endswith(f":{BALLOT_LOOK}") and plan.vote == before:
        return  # a look before the ballot that keeps the vote changes nothing
    disc.plans[seat] = plan.vote
    disc.plan_keys[seat] = plan.key()
    because = PlanAsk.of(decision).because
    n = st.name
    text = f"My plan for day {st.day}: {plan.label({p.id: p.name for p in st.players}, own=True)}."
    if before is not None and before != plan.vote:
        text += f" Changed from voting {n(before)}, because {because}."
    elif before is not None:
        text += f" Updated because {because}."
        before = None
    data = {"day": st.day, **plan.data(), "changed_from": before or "", "because": because}
    marker = st.markers.plant(decision.id, [seat])
    st.emit("plan", text + marker, Audience.only(seat), speaker=seat, data=data)


def discussion_over(st: WerewolfState) -> bool:
    disc = st.discussion
    assert disc is not None
    return bool(disc.vote_called_by) or disc.turns_left <= 0


def needs_turn(disc: Discussion, candidates: list[Player], count: int) -> list[str]:
    """The ``count`` least active candidates today: fewest turns, then longest silent, then
    seat order."""
    ranked = sorted(
        candidates,
        key=lambda p: (disc.turns.get(p.id, 0), disc.last_turn.get(p.id, 0), p.number),
    )
    return [p.id for p in ranked[:count]]


def open_next_turn(st: WerewolfState, cfg: WerewolfConfig) -> bool:
    """Open whatever the discussion asks next; False when it must end instead."""
    if cfg.discussion == "ask_all":
        return open_ask_all(st, cfg)
    return open_next_speaker(st, cfg) or open_mic(st, cfg) or open_route(st, cfg)


def open_route(st: WerewolfState, cfg: WerewolfConfig) -> bool:
    """Ask the router for the next batch; False when the discussion must end instead."""
    disc = st.discussion
    assert disc is not None
    if disc.route_calls >= cfg.max_route_calls:
        return False
    candidates = [p for p in st.living() if p.id != disc.last_speaker]
    if not candidates:
        return False
    disc.route_calls += 1
    disc.mic_done = False  # the next pause between batches offers the floor again
    flagged = needs_turn(disc, candidates, cfg.needs_turn_count)
    disc.needs_turn = flagged
    addressed = [
        s for s in addressed_by_last(st) if s != disc.last_message_speaker and st.player(s).alive
    ]
    rows = [
        RouteRow(
            id=p.id,
            name=p.name,
            needs_turn=p.id in flagged,
            messages_today=disc.messages.get(p.id, 0),
            passes_today=disc.passes.get(p.id, 0),
            addressed=p.id in addressed,
        )
        for p in candidates
    ]
    batch_max = min(cfg.route_batch_max, len(candidates), disc.turns_left)
    last = st.name(disc.last_speaker) if disc.last_speaker else ""
    rule = "Include at least one player marked NEEDS TURN."
    if last:
        rule += f" {last} spoke last and cannot speak twice in a row."
    st.open(
        Decision(
            id=f"d{st.day}:route:{disc.route_calls}",
            seat=ROUTER,
            kind=DecisionKind.CHOOSE_MANY,
            purpose=ROUTE,
            max_tokens=60,
            prompt=(
                f"Day {st.day} discussion: choose who speaks next, in speaking order "
                f"(1 to {batch_max} players). {rule} Prefer a player who was just addressed."
            ),
            options=tuple(
                Option(id=p.id, label=f"{p.name} (NEEDS TURN)" if p.id in flagged else p.name)
                for p in candidates
            ),
            min_choices=1,
            max_choices=batch_max,
            # The decision itself carries the NEEDS TURN rule, so every answer it admits is
            # legal; in repair mode the game fixes a batch instead of refusing it.
            required_any=tuple(flagged) if cfg.router_rule == "reject" else (),
            context=RouteAsk(
                day=st.day,
                players=rows,
                needs_turn=[st.name(s) for s in flagged],
                last_speaker=last,
                last_message_by=(
                    st.name(disc.last_message_speaker) if disc.last_message_speaker else ""
                ),
                addressed_in_last_message=[st.name(s) for s in addressed],
                turns_taken=disc.total_turns,
                turns_left=disc.turns_left,
            ).context(),
        )
    )
    st.stage = Stage.ROUTE
    return True


def addressed_by_last(st: WerewolfState) -> list[str]:
    """Whom today's last message speaks to. For a speech act the engine knows: the player
    it accuses or questions (a defence or an agreement names players it does not call on;
    "was accused by Kenji" does not give Kenji the floor). For free text: every player it
    names (one cached pattern per table)."""
    disc = st.discussion
    assert disc is not None
    last = next(
        (e for e in reversed(st.log.events) if e.kind == "speech" and e.phase == st.phase),
        None,
    )
    if last is not None and last.data.get("act"):
        target = str(last.data.get("target", ""))
        return [target] if last.data["act"] in ("accuse", "question") and target else []
    return mentioned(disc.last_message, {p.id: p.name for p in st.players})


def precheck_route(st: WerewolfState, decision: Decision, action: Action) -> None:
    """Name the router rule an answer breaks before the generic option check does."""
    disc = st.discussion
    assert disc is not None
    if not isinstance(action, Choices):
        return
    for seat in action.options:
        who = _find(st, seat)
        if who is None:
            continue
        if not who.alive:
            raise IllegalAction(
                f"Router rule: {who.name} is dead and cannot speak.", decision_id=decision.id
            )
        if who.id == disc.last_speaker:
            raise IllegalAction(
                f"Router rule: {who.name} spoke last; no one speaks twice in a row.",
                decision_id=decision.id,
            )


def apply_route(st: WerewolfState, cfg: WerewolfConfig, decision: Decision, action: Action) -> None:
    disc = st.discussion
    assert disc is not None and isinstance(action, Choices)
    batch = list(action.options)
    repaired = False
    if not any(s in disc.needs_turn for s in batch):
        if cfg.router_rule == "reject":
            flagged = ", ".join(st.name(s) for s in disc.needs_turn)
            raise IllegalAction(
                "Router rule: the batch must include at least one player marked NEEDS TURN "
                f"({flagged}).",
                decision_id=decision.id,
            )
        # repair: the quietest player goes first, the batch keeps its size limit
        batch = [disc.needs_turn[0], *batch][: decision.max_choices]
        repaired = True
    disc.queue = batch
    names = ", ".join(st.name(s) for s in batch)
    st.emit(
        "route",
        f"Router picks: {names}" + (" (repaired: NEEDS TURN player added)" if repaired else ""),
        Audience.nobody(),
        data={"batch": list(batch), "repaired": repaired, "needs_turn": list(disc.needs_turn)},
    )
    st.stage = Stage.SPEAK


def _speak_decision(
    st: WerewolfState,
    cfg: WerewolfConfig,
    seat: str,
    turn: int,
    prompt: str,
    needs: bool | None = None,
) -> Decision:
    """One seat's turn to speak: free text (empty = say nothing), or a speech act for a
    seat that speaks in acts (``speech_acts.py``); ``needs``: ask-all mode's NEEDS TURN
    mark for the seat."""
    disc = st.discussion
    assert disc is not None
    addressed = bool(
        disc.last_message and disc.last_message_speaker != seat and seat in addressed_by_last(st)
    )
    decision_id = f"d{st.day}:speak:{seat}:{turn}"
    ask = SpeakAsk(
        turn=turn,
        turns_left=disc.turns_left,
        addressed_you=addressed,
        messages_today=disc.messages.get(seat, 0),
        needs_turn=needs,
    )
    if speaks_in_acts(cfg, seat):
        return act_decision(st, cfg, seat, decision_id, act_prompt(st, cfg, turn), ask)
    return free_text(
        decision_id,
        seat,
        SPEAK,
        prompt,
        max_tokens=70,
        max_length=cfg.speech_max_length,
        context=ask.context(),
    )


def act_prompt(st: WerewolfState, cfg: WerewolfConfig, turn: int) -> str:
    disc = st.discussion
    assert disc is not None
    phrase = (
        f' As "why", add a short phrase of your own (at most {cfg.speech_phrase_words} '
        "words), or leave it empty."
        if cfg.speech_phrase_words
        else ""
    )
    return (
        f"Day {st.day} discussion, turn {turn} of {disc.budget}: your turn to speak. "
        f"Pick what you say; the game puts it into words in your voice.{phrase}"
    )


def open_next_speaker(st: WerewolfState, cfg: WerewolfConfig) -> bool:
    disc = st.discussion
    assert disc is not None
    if not disc.queue:
        return False
    seat = disc.queue.pop(0)
    turn = disc.total_turns + 1
    vote_hint = f" Write exactly {VOTE_CALL} to call the vote now." if cfg.allow_vote_call else ""
    prompt = (
        f"Day {st.day} discussion, turn {turn} of {disc.budget}: your turn to speak "
        f"to everyone (at most {cfg.speech_max_length} characters). Leave it empty "
        f"to say nothing.{vote_hint}"
    )
    st.open(_speak_decision(st, cfg, seat, turn, prompt))
    st.stage = Stage.SPEAK
    return True


def open_mic(st: WerewolfState, cfg: WerewolfConfig) -> bool:
    """Offer open-mic seats (humans) the floor once between routed batches."""
    disc = st.discussion
    assert disc is not None
    if not cfg.open_mic or disc.mic_done or disc.turns_left <= 0:
        return False
    disc.mic_done = True
    seats = [s for s in cfg.open_mic if st.player(s).alive and s != disc.last_speaker]
    vote_hint = f", or write {VOTE_CALL} to call the vote" if cfg.allow_vote_call else ""
    for seat in seats:
        st.open(
            free_text(
                f"d{st.day}:mic:{seat}:{disc.route_calls}",
                seat,
                INTERJECT,
                f"Day {st.day} discussion: speak to everyone now, or leave it empty to let "
                f"the discussion go on{vote_hint}.",
                max_tokens=70,
                max_length=cfg.speech_max_length,
                context=InterjectAsk(turns_left=disc.turns_left).context(),
            )
        )
    if seats:
        st.stage = Stage.SPEAK
    return bool(seats)


def apply_interject(
    st: WerewolfState, cfg: WerewolfConfig, decision: Decision, action: Action
) -> None:
    """An empty interjection just lets the router continue; anything else is a turn."""
    assert isinstance(action, Text)
    if action.text.strip():
        apply_speak(st, cfg, decision, action)


def apply_speak(st: WerewolfState, cfg: WerewolfConfig, decision: Decision, action: Action) -> None:
    act: dict[str, Any] = {}
    if isinstance(action, Choice):
        action, act = spoken_act(st, decision, action, cfg.fresh_wording)
    assert isinstance(action, Text)
    if cfg.discussion == "ask_all":
        collect_answer(st, cfg, decision, action, act)
    else:
        _take_turn(st, cfg, decision.seat, action.text.strip(), act)


def spoken_act(
    st: WerewolfState, decision: Decision, action: Choice, fresh: bool = False
) -> tuple[Text, dict[str, Any]]:
    """A speech act as the words the character says and the act's data for the event.
    The variant is drawn from the game seed and the decision id (replays say the same)
    among those that repeat nothing said earlier in the game (``fresh``: and, first,
    among those repeating the fewest 4-word runs said before)."""
    move = move_of(st, decision, action)
    assert st.cast is not None
    style = Playstyle(st.cast.players[st.player(decision.seat).number - 1].playstyle)
    rng = Rng(hash_seed(st.seed, decision.id))
    names = {p.id: p.name for p in st.players}
    # Every line said so far in the game (all seats see them) and the seat's own menu.
    speeches = [e for e in st.log.public() if e.kind == "speech"]
    said = [e.text for e in speeches]
    labels = [o.label for o in decision.options]
    # Which reason wordings were used, and the one of this speaker's previous line.
    used = Counter(str(e.data["wording"]) for e in speeches if e.data.get("wording"))
    mine = [e for e in speeches if e.speaker == decision.seat]
    last = str(mine[-1].data.get("wording", "")) if mine else ""
    # The reason is a public phrase only when the decision said so (else it is private).
    phrase = action.reason if decision.phrase_words else ""
    # A reason already said today, in a line this seat saw, is referred to, not restated.
    ref = earlier_statement(seat_facts(st, decision.seat), move)
    text, wording = render(
        move,
        names,
        style,
        rng,
        phrase,
        avoid=said,
        echo=labels,
        used=used,
        last=last,
        speaker=decision.seat,
        ref=ref,
        fewest_repeats=fresh,
    )
    data = move.data()
    if wording:
        data["wording"] = wording
    if ref is not None and not ref.other:
        data["ref"] = ref.speaker  # said "for the reason X gave": not a statement itself
    elif ref is not None:
        data["like"] = ref.other  # "... too, like Y": Y's fact said by ref.speaker
        data["like_by"] = ref.speaker
    if phrase and phrase.strip().rstrip(".!?").casefold() in text.casefold():
        data["phrase"] = phrase
    return Text(text=text), data


def _take_turn(
    st: WerewolfState, cfg: WerewolfConfig, seat: str, text: str, act: dict[str, Any] | None = None
) -> None:
    """``seat`` takes one turn: speech, a pass (empty) or a vote call; ``act``: the speech
    act the words render (stored on the event for policies and analysis)."""
    disc = st.discussion
    assert disc is not None
    name = st.name(seat)
    disc.total_turns += 1
    disc.turns[seat] = disc.turns.get(seat, 0) + 1
    disc.last_turn[seat] = disc.total_turns
    disc.last_speaker = seat
    data: dict[str, Any] = {"day": st.day, "turn": disc.total_turns, "seat": seat}
    if act:
        data.update(act)
    if cfg.allow_vote_call and text.casefold() == VOTE_CALL:
        disc.vote_called_by = seat
        disc.queue.clear()
        st.emit("call_vote", f"{name} calls the vote.", Audience.everyone(), data=data)
    elif not text:
        disc.passes[seat] = disc.passes.get(seat, 0) + 1
        st.emit("pass", f"{name} says nothing.", Audience.everyone(), data=data)
    else:
        disc.messages[seat] = disc.messages.get(seat, 0) + 1
        disc.last_message = text
        disc.last_message_speaker = seat
        event = st.emit("speech", text, Audience.everyone(), speaker=seat, data=data)
        if cfg.plans and stances(event, {p.id: p.name for p in st.players}).claims_seer:
            disc.replan = f"{name} claimed the seer"


def _find(st: WerewolfState, answer: str) -> Player | None:
    key = answer.strip().casefold()
    for p in st.players:
        if key in (p.id.casefold(), p.name.casefold()):
            return p
    return None


# -- ask_all: everyone is asked, one answer is posted --------------------------------------


def floor_order(st: WerewolfState, cfg: WerewolfConfig) -> tuple[list[str], list[str]]:
    """Who is asked this turn, in posting priority, and which of them are NEEDS TURN."""
    disc = st.discussion
    assert disc is not None
    candidates = [p for p in st.living() if p.id != disc.last_speaker]
    flagged = needs_turn(disc, candidates, cfg.needs_turn_count)
    after = st.player(disc.last_speaker).number if disc.last_speaker else 0
    seat_order = sorted(candidates, key=lambda p: (p.number - after - 1) % len(st.players))
    order = [p.id for p in seat_order if p.id in flagged]
    order += [p.id for p in seat_order if p.id not in flagged]
    return order, flagged


def open_ask_all(st: WerewolfState, cfg: WerewolfConfig) -> bool:
    """Ask every living player but the last speaker at once; False when nobody can speak."""
    disc = st.discussion
    assert disc is not None
    order, flagged = floor_order(st, cfg)
    if not order:
        return False
    disc.asked, disc.answers, disc.needs_turn = order, {}, flagged
    turn = disc.total_turns + 1
    vote_hint = f" Write exactly {VOTE_CALL} to call the vote now." if cfg.allow_vote_call else ""
    for seat in sorted(order, key=lambda s: st.player(s).number):
        prompt = (
            f"Day {st.day} discussion, turn {turn} of {disc.budget}: everyone may "
            "answer, but only one message is posted (quiet players first). Say what "
            f"you would say to everyone (at most {cfg.speech_max_length} characters), "
            f"or leave it empty to say nothing.{vote_hint}"
        )
        st.open(_speak_decision(st, cfg, seat, turn, prompt, seat in flagged))
    st.stage = Stage.SPEAK
    return True


def collect_answer(
    st: WerewolfState,
    cfg: WerewolfConfig,
    decision: Decision,
    action: Text,
    act: dict[str, Any] | None = None,
) -> None:
    """Keep one answer; once every asked seat has answered, post one (see the module doc).

    Nothing is emitted before the last answer, so the log does not depend on the order in
    which seats answered.
    """
    disc = st.discussion
    assert disc is not None
    disc.answers[decision.seat] = action.text.strip()
    if act:
        disc.acts[decision.seat] = act
    if len(disc.answers) < len(disc.asked):
        return
    posted = next((s for s in disc.asked if disc.answers[s]), "")
    for seat in disc.asked:
        if seat != posted and disc.answers[seat]:
            st.emit(
                "unsaid",
                disc.answers[seat],
                Audience.nobody(),
                speaker=seat,
                data={"day": st.day, "turn": disc.total_turns + 1, "seat": seat},
            )
    st.emit(
        "floor",
        f"Posted: {st.name(posted)}" if posted else "Posted: nobody (all passed)",
        Audience.nobody(),
        data={"asked": list(disc.asked), "needs_turn": list(disc.needs_turn), "posted": posted},
    )
    text = disc.answers[posted] if posted else ""
    act = disc.acts.get(posted) if posted else None
    disc.asked, disc.answers, disc.acts = [], {}, {}
    if posted:
        _take_turn(st, cfg, posted, text, act)
        return
    disc.total_turns += 1  # a pass turn by nobody: it still spends the budget
    st.emit(
        "pass",
        "Nobody speaks.",
        Audience.everyone(),
        data={"day": st.day, "turn": disc.total_turns, "seat": ""},
    )

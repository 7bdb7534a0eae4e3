"""The night: the pack's private chat, the simultaneous night actions and their resolution.

Resolution order (fixed): 1. the doctor's protection, 2. the seer's investigation,
3. the pack's kill, 4. the maniac's kill. A protected player survives every attack.
All actions chosen tonight take effect even if their author dies tonight.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from parlour.core.actions import Action, Choice, Text
from parlour.core.asks import GameAsk
from parlour.core.decisions import Decision, DecisionKind, Option
from parlour.core.events import Audience
from parlour.core.rng import Rng, hash_seed
from parlour.core.wording import distinct_line
from parlour.games.werewolf.ask import ProtectAsk, WolfChatAsk, free_text
from parlour.games.werewolf.config import WerewolfConfig
from parlour.games.werewolf.night_order import investigate_order, kill_order, protect_order
from parlour.games.werewolf.roles import WOLF_GROUP, Role, seer_reading, with_article
from parlour.games.werewolf.speech_acts import speaks_in_acts
from parlour.games.werewolf.state import NightPlan, NightRecord, Player, Stage, WerewolfState
from parlour.games.werewolf.views import WerewolfView, seat_view

PACK = Audience.of_group(WOLF_GROUP)

#: night-action purposes, in the order the night resolves them
PROTECT, INVESTIGATE, WOLF_KILL, MANIAC_KILL = "protect", "investigate", "wolf_kill", "maniac_kill"
WOLF_CHAT = "wolf_chat"


def enter_night(st: WerewolfState, cfg: WerewolfConfig) -> None:
    st.night += 1
    st.phase = f"night {st.night}"
    st.emit("phase", f"Night {st.night} falls. Everyone closes their eyes.", Audience.everyone())
    plan = NightPlan(night=st.night)
    wolves = st.living_wolves()
    # A lone wolf has nobody to talk to; the chat only runs for a pack of two or more.
    if len(wolves) >= 2:
        plan.chat_queue = [(w.id, k) for k in range(1, cfg.wolf_chat_messages + 1) for w in wolves]
    st.night_plan = plan
    st.stage = Stage.WOLF_CHAT


def open_next_chat(st: WerewolfState, cfg: WerewolfConfig) -> bool:
    """Open the next pack-chat message; False when the chat is over."""
    plan = st.night_plan
    assert plan is not None
    if not plan.chat_queue:
        return False
    seat, k = plan.chat_queue.pop(0)
    mates = [w.name for w in st.living_wolves() if w.id != seat]
    if speaks_in_acts(cfg, seat):
        st.open(chat_act_decision(st, cfg, seat, k, mates))
        return True
    st.open(
        free_text(
            f"n{plan.night}:chat:{seat}:{k}",
            seat,
            WOLF_CHAT,
            f"Night {plan.night}, pack chat (message {k} of {cfg.wolf_chat_messages}). "
            f"Only the werewolves ({', '.join(mates)} and you) read this. Agree on a "
            "victim and a plan for tomorrow, or leave it empty to say nothing.",
            max_tokens=50,
            max_length=cfg.wolf_chat_max_length,
            context=WolfChatAsk(message=k, messages=cfg.wolf_chat_messages, pack=mates).context(),
        )
    )
    return True


def ids(options: list[Option]) -> set[str]:
    return {o.id for o in options}


#: A planted leak marker (``core.markers``), not part of what a wolf said.
_MARKER = re.compile(r"\s*\[\[mk:[^\]]*\]\]")

CHAT_TEMPLATES: dict[str, tuple[str, ...]] = {
    # Many wordings: a pack agrees on one victim, so several wolves name the same player
    # on the same night and the lines differ only by how they are said.
    "propose": (
        "Let's take {t} tonight.",
        "I say {t} tonight.",
        "My pick for tonight is {t}.",
        "{t} should be the one tonight.",
        "How about {t}?",
        "We go after {t}.",
        "Tonight I want {t} gone.",
        "{t} is the danger. Take {t}.",
        "I vote we hunt {t}.",
        "Let us finish {t} before dawn.",
    ),
    "agree": (
        "Agreed, {t} it is.",
        "Fine by me: {t}.",
        "{t} then. Good choice.",
        "Yes, {t}.",
        "No objection to {t}.",
        "I back that: {t} tonight.",
        "{t} works for me.",
        "Good call on {t}.",
        "Settled, we take {t}.",
        "Count me in on {t}.",
    ),
}


def chat_act_decision(
    st: WerewolfState, cfg: WerewolfConfig, seat: str, k: int, mates: list[str]
) -> Decision:
    """Pack chat as acts, for a seat that speaks in acts: propose a victim or agree with a
    mate's proposal from tonight; the game says it (``apply_chat``)."""
    plan = st.night_plan
    assert plan is not None
    targets = _ranked(st, cfg, seat, kill_order, [p for p in st.living() if not p.is_wolf])
    options = [Option(id=f"propose:{p.id}", label=f"propose {p.name}") for p in targets]
    said = [e for e in st.log.events if e.kind == "wolf_chat" and e.phase == st.phase]
    for event in said:
        target = str(event.data.get("target", ""))
        proposed = event.speaker != seat and event.data.get("act") == "propose"
        if proposed and st.player(target).alive and f"agree:{target}" not in ids(options):
            label = f"agree with {st.name(event.speaker)}: {st.name(target)}"
            options.append(Option(id=f"agree:{target}", label=label))
    options.append(Option(id="quiet", label="say nothing"))
    return Decision(
        id=f"n{plan.night}:chat:{seat}:{k}",
        seat=seat,
        kind=DecisionKind.CHOOSE_ONE,
        purpose=WOLF_CHAT,
        max_tokens=20,
        prompt=(
            f"Night {plan.night}, pack chat (message {k} of {cfg.wolf_chat_messages}). "
            f"Only the werewolves ({', '.join(mates)} and you) read this. Propose tonight's "
            "victim or agree with a proposal; the game says it for you."
        ),
        options=tuple(options),
        context=WolfChatAsk(
            message=k, messages=cfg.wolf_chat_messages, pack=mates, acts=True
        ).context(),
    )


def apply_chat(st: WerewolfState, cfg: WerewolfConfig, decision: Decision, action: Action) -> None:
    data: dict[str, object] = {"night": st.night}
    if isinstance(action, Choice):
        act, _, target = action.option.partition(":")
        if act == "quiet":
            return
        rng = Rng(hash_seed(st.seed, decision.id))
        # A wording no wolf has used yet in this game, while one is left.
        said = [_MARKER.sub("", e.text) for e in st.log.events if e.kind == "wolf_chat"]
        wordings = [w.format(t=st.name(target)) for w in CHAT_TEMPLATES[act]]
        text = distinct_line(wordings, said, rng)
        data |= {"act": act, "target": target}
    else:
        assert isinstance(action, Text)
        text = action.text.strip()
    if not text:
        return
    allowed = [w.id for w in st.wolves()]
    marker = st.markers.plant(decision.id, allowed)
    st.emit("wolf_chat", text + marker, PACK, speaker=decision.seat, data=data)


def chat_pick(st: WerewolfState, wolf: str) -> str | None:
    """The victim ``wolf`` last proposed or agreed to in tonight's pack chat, if any."""
    for event in reversed(st.log.events):
        mine = event.kind == "wolf_chat" and event.phase == st.phase and event.speaker == wolf
        if mine and event.data.get("act") in ("propose", "agree") and event.data.get("target"):
            return str(event.data["target"])
    return None


# -- night actions -------------------------------------------------------------------------


def _ranked(
    st: WerewolfState,
    cfg: WerewolfConfig,
    seat: str,
    order: Callable[[WerewolfView, list[str]], list[str]],
    targets: list[Player],
) -> list[Player]:
    """``targets`` best first from the seat's own view (``night_order``) when the engine
    keeps the seat's plans (``engine_plans``, with ``acts_follow_plan``); else in seat
    order."""
    if seat not in cfg.engine_plans or not cfg.acts_follow_plan:
        return targets
    by_id = {p.id: p for p in targets}
    return [by_id[s] for s in order(seat_view(st, cfg, seat), list(by_id))]


def _targets(
    decision_id: str,
    seat: Player,
    purpose: str,
    prompt: str,
    targets: list[Player],
    not_allowed: dict[str, str],
    ask: GameAsk | None = None,
) -> Decision:
    legal = {p.id.casefold() for p in targets} | {p.name.casefold() for p in targets}
    return Decision(
        id=decision_id,
        seat=seat.id,
        kind=DecisionKind.CHOOSE_ONE,
        purpose=purpose,
        prompt=prompt,
        options=tuple(Option(id=p.id, label=p.name) for p in targets),
        # a legal target never carries a refusal, whichever way it is spelled
        not_allowed={k: v for k, v in not_allowed.items() if k.casefold() not in legal},
        context=ask.context() if ask is not None else {},
    )


def _refuse(players: list[Player], why: str) -> dict[str, str]:
    """not_allowed entries for both the id and the display name of each player."""
    out: dict[str, str] = {}
    for p in players:
        out[p.id] = why.format(name=p.name)
        out[p.name] = why.format(name=p.name)
    return out


def open_night_actions(st: WerewolfState, cfg: WerewolfConfig) -> None:
    plan = st.night_plan
    assert plan is not None
    st.stage = Stage.NIGHT_ACTIONS
    n = plan.night
    living = st.living()
    dead = [p for p in st.players if not p.alive]
    dead_refusal = _refuse(dead, "{name} is already dead")
    for me in living:
        others = [p for p in living if p.id != me.id]
        refuse_self = _refuse([me], "that is you")
        if me.role is Role.WEREWOLF:
            targets = _ranked(st, cfg, me.id, kill_order, [p for p in living if not p.is_wolf])
            mates = [p for p in st.wolves() if p.id != me.id]
            said = chat_pick(st, me.id) if speaks_in_acts(cfg, me.id) else None
            if said is not None and said in {p.id for p in targets}:
                # A wolf that speaks in acts named its victim in the pack chat: that is its
                # proposal (the engine answers; no call, and no kill the chat contradicts).
                targets = [st.player(said)]
            st.open(
                _targets(
                    f"n{n}:kill:{me.id}",
                    me,
                    WOLF_KILL,
                    f"Night {n}: which player should the pack kill? The pack attacks the "
                    "target most wolves propose (tie: the lowest-seated wolf's proposal).",
                    targets,
                    {**dead_refusal, **_refuse(mates, "{name} is in your pack"), **refuse_self},
                )
            )
        elif me.role is Role.SEER:
            fresh = [p for p in others if p.id not in st.seer_results]
            targets = _ranked(st, cfg, me.id, investigate_order, fresh or others)
            known = {
                st.name(t): r for t, r in st.seer_results.items() if t not in {p.id for p in fresh}
            }
            st.open(
                _targets(
                    f"n{n}:investigate:{me.id}",
                    me,
                    INVESTIGATE,
                    f"Night {n}: whom do you investigate? You will learn if they are evil.",
                    targets,
                    {
                        **dead_refusal,
                        **refuse_self,
                        **{
                            name: f"you already know {name} is {reading}"
                            for name, reading in known.items()
                        },
                    },
                )
            )
        elif me.role is Role.DOCTOR:
            blocked = st.last_protected
            targets = _ranked(
                st,
                cfg,
                me.id,
                protect_order,
                [
                    p
                    for p in living
                    if p.id != blocked and (cfg.doctor_self_protect or p.id != me.id)
                ],
            )
            refusals = dict(dead_refusal)
            if blocked is not None:
                refusals.update(_refuse([st.player(blocked)], "you protected {name} last night"))
            if not cfg.doctor_self_protect:
                refusals.update(_refuse([me], "you cannot protect yourself"))
            if targets:
                st.open(
                    _targets(
                        f"n{n}:protect:{me.id}",
                        me,
                        PROTECT,
                        f"Night {n}: whom do you protect from tonight's attacks?",
                        targets,
                        refusals,
                        ProtectAsk(cannot_protect=st.name(blocked) if blocked else None),
                    )
                )
        elif me.role is Role.MANIAC:
            st.open(
                _targets(
                    f"n{n}:maniac:{me.id}",
                    me,
                    MANIAC_KILL,
                    f"Night {n}: whom do you kill tonight?",
                    others,
                    {**dead_refusal, **refuse_self},
                )
            )


def apply_night_action(st: WerewolfState, decision: Decision, action: Action) -> None:
    plan = st.night_plan
    assert plan is not None and isinstance(action, Choice)
    slot = {
        WOLF_KILL: plan.proposals,
        INVESTIGATE: plan.investigate,
        PROTECT: plan.protect,
        MANIAC_KILL: plan.maniac,
    }[decision.purpose]
    slot[decision.seat] = action.option


def pack_target(st: WerewolfState, proposals: dict[str, str]) -> str | None:
    """Plurality of the wolves' proposals; a tie goes to the proposal of the lowest-seated
    wolf among those who proposed a tied target. No randomness, so the pack can plan it."""
    if not proposals:
        return None
    counts = Counter(proposals.values())
    best = max(counts.values())
    tied = {t for t, c in counts.items() if c == best}
    for wolf in st.players:  # seat order
        target = proposals.get(wolf.id)
        if target in tied:
            return target
    return None


def resolve_night(st: WerewolfState, cfg: WerewolfConfig) -> list[Player]:
    """Apply tonight's actions in the fixed order; return the players who died."""
    plan = st.night_plan
    assert plan is not None
    n = plan.night
    # 1. protect — remembered so the doctor cannot pick the same player tomorrow night
    protected = next(iter(plan.protect.values()), None)
    st.last_protected = protected
    # 2. investigate
    for seer, target in plan.investigate.items():
        reading = seer_reading(st.player(target).role)
        st.seer_results[target] = reading
        marker = st.markers.plant(f"seer:n{n}", [seer])
        st.emit(
            "seer_result",
            f"Night {n}: you investigated {st.name(target)}: {reading.upper()}.{marker}",
            Audience.only(seer),
            data={"night": n, "target": target, "reading": reading},
        )
    # 3. the pack, 4. the maniac
    attacks: list[tuple[str, str]] = []
    wolf_target = pack_target(st, plan.proposals)
    if wolf_target is not None:
        attacks.append((wolf_target, "wolves"))
        listed = ", ".join(
            f"{st.name(w)} → {st.name(t)}"
            for w, t in sorted(plan.proposals.items(), key=lambda kv: st.player(kv[0]).number)
        )
        st.emit(
            "pack_kill",
            f"Pack proposals: {listed}. The pack attacks {st.name(wolf_target)}.",
            PACK,
            data={"night": n, "proposals": dict(plan.proposals), "target": wolf_target},
        )
    attacks.extend((t, "maniac") for t in plan.maniac.values())
    causes: dict[str, str] = {}
    for target, cause in attacks:
        if target != protected and target not in causes:
            causes[target] = cause
    dead = [p for p in st.players if p.id in causes]
    for p in dead:
        p.alive = False
        p.revealed = p.revealed or cfg.reveal_roles
    st.phase = f"dawn {n}"
    outcome = [_death_line(p, causes[p.id], cfg) for p in dead] or ["Nobody died."]
    st.nights.append(NightRecord(night=n, outcome=outcome))
    text = f"Dawn {n}: " + (" ".join(outcome) if dead else "nobody died tonight.")
    st.emit(
        "death",
        text,
        Audience.everyone(),
        data={
            "night": n,
            "dead": [p.id for p in dead],
            "roles": {p.id: p.role.value for p in dead if p.revealed},
        },
    )
    st.night_plan = None
    return dead


def _death_line(p: Player, cause: str, cfg: WerewolfConfig) -> str:
    line = f"{p.name} was found dead"
    if cfg.reveal_night_cause:
        line += " (killed by the werewolves)" if cause == "wolves" else " (killed by the maniac)"
    if p.revealed:
        line += f"; they were {with_article(p.role)}"
    return line + "."

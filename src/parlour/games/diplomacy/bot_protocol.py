"""The bot protocol: how a power configured as a bot plays a movement phase.

1. ``plan`` (at phase start): a strategic read, provisional orders BY INDEX into each
   unit's legal orders, and an agenda (whom to contact). The orders become the floor
   at once (after the never-stupid guards).
2. Negotiation window: a message addressed to a bot waits in its inbox until the bot
   has no message decision open, then everything waiting opens one cheap ``gate``
   (reply / stay silent, or which of several to answer); ``reply`` writes the text and
   structured commitments. A bot
   ``initiate``s only when its plan's agenda names an allowed recipient (people by
   default); caps per channel, per phase and on replies to other bots. The window
   closes when nothing is pending: every human has submitted orders (or the deadline
   applied their default) and every bot has settled its messages.
3. ``finalise``: orders by index overwriting the floor; the deception bound and the
   guards are enforced by the engine.
4. Consolidation (``bot_memory``): after adjudication, no model call.

Every bot message is checked against the real plan: an order of the plan it was not
promised in that message is redacted before anyone reads it.
"""

from __future__ import annotations

import re
from typing import Any

from parlour.core.actions import Action, Choice, Choices, Structured
from parlour.core.asks import Hints, contexts
from parlour.core.decisions import Deadline, Decision, DecisionKind, Option
from parlour.core.events import Audience
from parlour.games.diplomacy import guards, negotiation
from parlour.games.diplomacy.ask import DiplomacyAsk
from parlour.games.diplomacy.board import Board
from parlour.games.diplomacy.bot_memory import KINDS, BotMemory, Commitment
from parlour.games.diplomacy.config import DiplomacyConfig
from parlour.games.diplomacy.decisions import phase_decisions, structured_decision
from parlour.games.diplomacy.orders import Move, Waive, parse_order
from parlour.games.diplomacy.personas import persona_of
from parlour.games.diplomacy.press import ALL, PRESS, PRESS_CHECKS, press_decision
from parlour.games.diplomacy.proposal_words import summary
from parlour.games.diplomacy.schema import closed_object, list_of
from parlour.games.diplomacy.state import DiplomacyState
from parlour.games.diplomacy.views import power_name, surviving

PLAN = "plan"
GATE = "gate"
REPLY = "reply"
INITIATE = "initiate"
FINALISE = "finalise"
BOT_PURPOSES = (PLAN, GATE, REPLY, INITIATE, FINALISE)
#: purposes that spend the chat budget (everything else spends the reserved orders pool)
CHAT_PURPOSES = frozenset({GATE, REPLY, INITIATE, PRESS})
REPLY_OPT, SILENT_OPT = "reply", "silent"


def unit_orders(board: Board, power: str) -> dict[str, list[str]]:
    """unit → its legal orders, hold first (the same lists as the orders decision)."""
    for d in phase_decisions(board):
        if d.seat == power and d.json_schema is not None:
            return {u: list(p["enum"]) for u, p in d.json_schema["properties"].items()}
    return {}


def _orders_decision(board: Board, power: str) -> Decision | None:
    return next((d for d in phase_decisions(board) if d.seat == power), None)


def _index_schema(options: dict[str, list[str]]) -> dict[str, Any]:
    return closed_object(
        {u: {"type": "integer", "enum": list(range(len(o)))} for u, o in options.items()}
    )


def _commit_schema(whats: list[str]) -> dict[str, Any]:
    return list_of(
        {
            "kind": {"type": "string", "enum": list(KINDS)},
            "what": {"type": "string", "enum": whats},
        },
        2,
    )


_BOARD_WORDS = re.compile(
    r"\b(support|move|attack|hold|convoy|bounce|dmz|peace|ally|alliance|army|fleet|"
    r"[A-Z]{3}|[AF] [A-Z]{3})\b|\?",
)


def needs_reply(text: str) -> bool:
    """Whether a message is about the board (a province, unit, order words or a
    question). The first, rule-based stage of the gate: small talk ("good luck all")
    opens no gate at all, so it costs no model call and a small model cannot answer it."""
    return bool(_BOARD_WORDS.search(text.split("⟦")[0]))


def press_on(cfg: DiplomacyConfig) -> bool:
    return cfg.press_rounds > 0


def _as_arrived(d: Decision) -> Decision:
    return d.model_copy(update={"batch": "as_arrived"})


# -- opening a phase ------------------------------------------------------------------


def open_window(st: DiplomacyState, cfg: DiplomacyConfig, bots: list[str]) -> list[Decision]:
    """The movement phase's first decisions: plans for bots, talk for people (press on),
    orders for everyone else."""
    board = st.board
    st.msg_seq = 0
    st.talk_turns = {}
    st.inbox = {}
    st.proposals, st.accepted, st.answered = {}, set(), set()
    out: list[Decision] = []
    for d in phase_decisions(board):
        if d.seat in bots:
            st.bots[d.seat].new_phase()
            out.append(plan_decision(st, cfg, d))
        elif d.seat in cfg.humans and press_on(cfg):
            out.append(talk_decision(st, cfg, d.seat))
        else:
            out.append(_with_deadline(cfg, _as_arrived(d), hold_default(d)))
    return out


def hold_default(d: Decision) -> Action:
    assert d.json_schema is not None
    return Structured(value={u: p["enum"][0] for u, p in d.json_schema["properties"].items()})


#: the reason of a person's default under a window deadline: the runtime applies it only
#: when the deadline passed, so the game counts it as a missed deadline (takeover_after)
MISSED = "missed the deadline"


def _with_deadline(cfg: DiplomacyConfig, d: Decision, default: Action) -> Decision:
    if cfg.window_seconds is None:
        return d
    return d.model_copy(
        update={
            "deadline": Deadline(seconds=cfg.window_seconds, human_seconds=cfg.window_seconds),
            "default": default.model_copy(update={"reason": MISSED}),
        }
    )


def plan_decision(st: DiplomacyState, cfg: DiplomacyConfig, orders: Decision) -> Decision:
    power = orders.seat
    assert orders.json_schema is not None
    options = {u: list(p["enum"]) for u, p in orders.json_schema["properties"].items()}
    props: dict[str, Any] = {
        "read": {"type": "string", "maxLength": 160},
        "orders": _index_schema(options),
    }
    others = _allowed_targets(st, cfg, power)
    if press_on(cfg) and others:
        props["agenda"] = list_of(
            {
                "to": {"type": "string", "enum": others},
                "about": {"type": "string", "maxLength": 80},
            },
            persona_of(cfg.personas.get(power)).agenda_size(),
        )
    phase = st.board.phase
    return structured_decision(
        phase.name,
        power,
        PLAN,
        batch="as_arrived",
        max_tokens=120 + 12 * len(options),
        prompt=(
            f"{phase.long_name}: plan. Read the board in one sentence, choose a provisional "
            "order for every unit by its number in the unit's list"
            + (", and say whom you want to talk to and about what" if "agenda" in props else "")
            + "."
        ),
        json_schema=closed_object(props),
        context=contexts(
            DiplomacyAsk.of(orders).model_copy(update={"options": options, "pool": "orders"}),
            Hints.of(orders),
        ),
    )


def talk_decision(st: DiplomacyState, cfg: DiplomacyConfig, power: str) -> Decision:
    turn = st.talk_turns.get(power, 0) + 1
    st.talk_turns[power] = turn
    board = st.board
    d = press_decision(
        board,
        cfg,
        power,
        tag="talk",
        n=turn,
        prompt=(
            f"Press before the {board.phase.long_name} orders: send up to "
            f"{cfg.press_max_messages} messages (to ALL, or privately to one power); send "
            "none when you are done talking, then you give your orders."
        ),
        pool="chat",
        batch="as_arrived",
    )
    return _with_deadline(cfg, d, Structured(value={"messages": []}))


# -- applying -------------------------------------------------------------------------


def declared_threats(memory: BotMemory, board: Board) -> dict[str, str]:
    """Our home province → the foreign unit that declared (a recorded threat) a move there."""
    homes = set(board.game_map.home_centres.get(memory.power, ()))
    out: dict[str, str] = {}
    for c in memory.commitments:
        if c.kind != "threat" or c.by == memory.power or c.phase != board.phase.name:
            continue
        order = parse_order(c.what)
        if isinstance(order, Move) and order.dest.province in homes:
            out[order.dest.province] = f"{order.unit_type.value} {order.location}"
    return out


def _guarded(st: DiplomacyState, memory: BotMemory, chosen: dict[str, str]) -> dict[str, str]:
    options = unit_orders(st.board, memory.power)
    threats = declared_threats(memory, st.board)
    fixed, counts = guards.fix(st.board, memory.power, chosen, options, threats)
    for g, n in counts.items():
        memory.guards[g] = memory.guards.get(g, 0) + n
    if counts:
        st.emit(
            "guard",
            "Guards corrected your orders: "
            + ", ".join(f"{g} x{n}" for g, n in sorted(counts.items()))
            + ".",
            Audience.only(memory.power),
            data={"guards": counts},
        )
    return fixed


def _count_own(st: DiplomacyState, memory: BotMemory, chosen: dict[str, str]) -> None:
    """Count one order set the bot answered itself and whether, as answered, it broke a
    never-stupid rule (what the guards then repair): "never stupid" before the guards."""
    threats = declared_threats(memory, st.board)
    memory.own_sets += 1
    if guards.violations(st.board, memory.power, chosen, threats):
        memory.stupid_sets += 1


def _by_index(decision: Decision, value: dict[str, Any]) -> dict[str, str]:
    options = DiplomacyAsk.of(decision).options
    return {u: options[u][int(value[u])] for u in options}


def apply_plan(
    st: DiplomacyState, cfg: DiplomacyConfig, decision: Decision, action: Action
) -> list[Decision]:
    assert isinstance(action, Structured)
    memory = st.bots[decision.seat]
    value = action.value
    planned = _by_index(decision, value["orders"])
    _count_own(st, memory, planned)
    memory.floor = _guarded(st, memory, planned)
    memory.read = str(value.get("read", ""))[:160]
    allowed = _allowed_targets(st, cfg, decision.seat)
    memory.agenda = [
        (str(a["to"]), str(a["about"])[:80]) for a in value.get("agenda", []) if a["to"] in allowed
    ]
    st.emit(
        "plan",
        f"Your plan: {memory.read or '(no read)'} Floor orders: "
        + "; ".join(memory.floor.values())
        + ".",
        Audience.only(decision.seat),
        data={"floor": dict(memory.floor), "agenda": [list(a) for a in memory.agenda]},
    )
    # one message per power the agenda names (neighbours, targets, allies), caps allowing
    out: list[Decision] = []
    for i, (to, _) in enumerate(memory.agenda):
        if _room(cfg, memory, to):
            out.append(initiate_decision(st, cfg, decision.seat, [to], i))
    return out


def _allowed_targets(st: DiplomacyState, cfg: DiplomacyConfig, power: str) -> list[str]:
    if power in cfg.mute:
        return []  # talk off: no agenda, no conversation opened
    alive = set(surviving(st.board))
    out = [h for h in cfg.humans if h in alive and h != power]
    if cfg.bots_talk_to_bots:
        out += [b for b in cfg.bots if b in alive and b != power and b not in out]
    return out


def _room(cfg: DiplomacyConfig, memory: BotMemory, to: str) -> bool:
    return memory.sent_total() < cfg.bot_phase_cap and memory.sent.get(to, 0) < cfg.bot_channel_cap


def _may_reply(cfg: DiplomacyConfig, memory: BotMemory, sender: str, st: DiplomacyState) -> bool:
    if not _room(cfg, memory, sender):
        return False
    return sender not in st.bots or memory.bot_replies < cfg.bot_bot_replies


def _whats(board: Board, powers: list[str]) -> list[str]:
    out: list[str] = []
    for p in powers:
        for orders in unit_orders(board, p).values():
            out += orders
    return out or ["(none)"]


def _message_decision(
    st: DiplomacyState,
    power: str,
    purpose: str,
    n: int | str,
    prompt: str,
    properties: dict[str, Any],
    ask: DiplomacyAsk,
    default: dict[str, Any],
) -> Decision:
    """A decision to write one short message (to open a conversation or to reply), with
    the commitments and proposals it carries; its text is checked as press is."""
    return structured_decision(
        st.board.phase.name,
        power,
        purpose,
        n=n,
        batch="as_arrived",
        max_tokens=220,
        prompt=prompt,
        json_schema=closed_object(properties),
        checks=PRESS_CHECKS,
        checked_fields=("text",),
        context=ask.context(),
        default=Structured(value=default),
    )


def initiate_decision(
    st: DiplomacyState, cfg: DiplomacyConfig, power: str, targets: list[str], i: int = 0
) -> Decision:
    return _message_decision(
        st,
        power,
        INITIATE,
        i + 1 if i else "",
        "Your agenda names someone to contact. Write one short message (an empty text "
        "says nothing), any commitment it makes or asks for, and any proposal (offer or "
        "request: support, move, stay_out, dmz, peace, alliance, hold), which the game "
        "puts into words after your text.",
        {
            "to": {"type": "string", "enum": targets},
            "text": {"type": "string", "maxLength": cfg.press_max_length},
            "commitments": _commit_schema(_whats(st.board, [power, *targets])),
            "proposals": negotiation.schema_for(st, power, targets[0], []),
        },
        DiplomacyAsk(pool="chat", targets=targets),
        {"to": targets[0], "text": "", "commitments": [], "proposals": []},
    )


def gate_decision(st: DiplomacyState, power: str, n: int, sender: str, text: str) -> Decision:
    phase = st.board.phase
    return Decision(
        id=f"{phase.name}:{GATE}{n}:{power}",
        seat=power,
        kind=DecisionKind.CHOOSE_ONE,
        purpose=GATE,
        batch="as_arrived",
        max_tokens=40,
        prompt=(
            f"{power_name(sender)} wrote to you (quoted below). Does it need a reply? "
            "Silence is a fine answer to greetings and small talk."
        ),
        options=(
            Option(id=REPLY_OPT, label="Reply"),
            Option(id=SILENT_OPT, label="Stay silent"),
        ),
        context=_inbound(st, power, n, sender, text).context(),
        default=Choice(option=SILENT_OPT),
    )


def _inbound(st: DiplomacyState, power: str, n: int, sender: str, text: str) -> DiplomacyAsk:
    """One message to ``power`` as a gate reads it, with the sender's open offers."""
    return DiplomacyAsk(
        pool="chat",
        sender=sender,
        message=text,
        n=n,
        offers=negotiation.open_offers(st, power, sender),
    )


def msg_option(n: int) -> str:
    return f"msg{n}"


def batch_gate_decision(
    st: DiplomacyState, power: str, messages: list[tuple[int, str, str]]
) -> Decision:
    """One gate over several messages: which of them to answer (none is fine)."""
    phase = st.board.phase
    first = messages[0][0]
    items = [_inbound(st, power, n, sender, text) for n, sender, text in messages]
    return Decision(
        id=f"{phase.name}:{GATE}{first}+:{power}",
        seat=power,
        kind=DecisionKind.CHOOSE_MANY,
        purpose=GATE,
        batch="as_arrived",
        max_tokens=20 + 10 * len(messages),
        prompt=(
            f"{len(messages)} messages came for you (quoted below). Choose the ones that "
            "need a reply; silence is a fine answer to greetings and small talk."
        ),
        options=tuple(
            Option(id=msg_option(n), label=f"Reply to {power_name(sender)} (message {n})")
            for n, sender, _ in messages
        ),
        min_choices=0,
        max_choices=len(messages),
        context=DiplomacyAsk(pool="chat", batch=items).context(),
        default=Choices(options=()),
    )


def reply_decision(
    st: DiplomacyState, cfg: DiplomacyConfig, power: str, n: int, sender: str, text: str
) -> Decision:
    whats = _whats(st.board, [power, sender])
    offers = negotiation.open_offers(st, power, sender)
    listed = "".join(f" {ref}: {_offer_line(st, ref)}." for ref in offers)
    return _message_decision(
        st,
        power,
        REPLY,
        n,
        f"Reply to {power_name(sender)} in one short message (empty: say nothing). "
        "List any commitment your "
        "reply makes or asks for, and any commitment their message made ('heard'). "
        "Answer their proposals by id (accept, reject, or counter with a term of your "
        "own), or make new ones." + (f" Their open proposals:{listed}" if listed else ""),
        {
            "text": {"type": "string", "maxLength": cfg.press_max_length},
            "commitments": _commit_schema(whats),
            "heard": _commit_schema(whats),
            "proposals": negotiation.schema_for(st, power, sender, list(offers)),
        },
        DiplomacyAsk(pool="chat", sender=sender, message=text, n=n, offers=offers),
        {"text": "", "commitments": [], "heard": [], "proposals": []},
    )


def _offer_line(st: DiplomacyState, ref: str) -> str:
    p = st.proposals[ref]
    doer = p.doers()[0]
    line = summary(p.term, doer, p.sender if doer == p.to else p.to, p.phase)
    return f"{'request' if p.ask else 'offer'}, {line}"


def _owner(board: Board, order_text: str) -> str | None:
    try:
        order = parse_order(order_text)
    except ValueError:
        return None
    if isinstance(order, Waive):
        return None
    unit = board.unit_at(order.location.province)
    return unit.power if unit is not None else None


def _record(
    st: DiplomacyState, memory: BotMemory, partner: str, items: list[dict[str, Any]]
) -> list[Commitment]:
    out: list[Commitment] = []
    phase = st.board.phase.name
    for item in items:
        what = str(item["what"])
        by = _owner(st.board, what)
        if by is None or by not in (memory.power, partner):
            continue
        c = Commitment(
            by=by,
            with_=partner if by == memory.power else memory.power,
            what=what,
            phase=phase,
            kind=item["kind"],
        )
        if c not in memory.commitments:
            memory.commitments.append(c)
            out.append(c)
    return out


def _redact(memory: BotMemory, text: str, promised: set[str]) -> str:
    """Hide every order of the real plan the message was not promising."""
    for order in memory.floor.values():
        if order in promised or order[-2:] == " H":
            continue
        tail = order.split(" ", 2)[2] if order.count(" ") >= 2 else order
        for form in (order, f"{order.split()[1]} {tail}"):
            pattern = re.compile(re.escape(form), re.IGNORECASE)
            if pattern.search(text):
                text = pattern.sub("[withheld]", text)
                memory.redactions += 1
    return text


def send(
    st: DiplomacyState,
    cfg: DiplomacyConfig,
    sender: str,
    to: str,
    text: str,
    bots: list[str],
    acts: list[dict[str, Any]] | None = None,
) -> None:
    """Emit one message (with the proposal ``acts`` it carries); a bot it reaches gets
    it in its inbox (``open_gates``)."""
    phase = st.board.phase.name
    st.msg_seq += 1
    n = st.msg_seq
    data: dict[str, Any] = {"from": sender, "to": to, "n": n}
    if acts:
        data["proposals"] = acts
    if to == ALL:
        st.emit("press", text, Audience.everyone(), speaker=sender, data=data)
        readers = [b for b in bots if b != sender]
    else:
        text += st.markers.plant(f"press:{phase}:{n}:{sender}>{to}", [sender, to])
        st.emit("press", text, Audience.only(sender, to), speaker=sender, data=data)
        readers = [to] if to in bots else []
    for bot in readers:
        if bot not in cfg.mute:  # talk off: nothing is answered
            st.inbox.setdefault(bot, []).append((n, sender, text))


def open_gates(st: DiplomacyState, cfg: DiplomacyConfig, bots: list[str]) -> list[Decision]:
    """Replies are batched: a bot reads the messages that reached it while it had a
    message decision open (a plan's initiates, a gate, a reply) together, in one gate,
    once none is open. Small talk and messages the caps no longer allow are dropped
    without asking anyone; one message left is today's yes/no gate, several are one
    choice of which to answer."""
    if not st.inbox:
        return []  # the common case: called after every answer of the window
    busy = {d.seat for d in st.pending if d.purpose in (PLAN, GATE, REPLY, INITIATE)}
    out: list[Decision] = []
    for bot, queued in list(st.inbox.items()):
        if bot in busy or not queued:
            continue
        del st.inbox[bot]
        memory = st.bots[bot]
        keep: list[tuple[int, str, str]] = []
        for n, sender, text in queued:
            if not _room(cfg, memory, sender):
                continue
            if sender in bots and memory.bot_replies >= cfg.bot_bot_replies:
                continue
            if not needs_reply(text) and not negotiation.open_offers(st, bot, sender):
                continue  # small talk: silence, decided without asking anyone
            keep.append((n, sender, text))
        if len(keep) == 1:
            out.append(gate_decision(st, bot, *keep[0]))
        elif keep:
            out.append(batch_gate_decision(st, bot, keep))
    return out


def apply_gate(
    st: DiplomacyState, cfg: DiplomacyConfig, decision: Decision, action: Action
) -> list[Decision]:
    ask = DiplomacyAsk.of(decision)
    if isinstance(action, Choices):  # a batch: the messages chosen, in their order
        chosen = {o for o in action.options}
        asks = [a for a in ask.batch if msg_option(a.n) in chosen]
    else:
        assert isinstance(action, Choice)
        asks = [ask] if action.option == REPLY_OPT else []
    out: list[Decision] = []
    memory = st.bots[decision.seat]
    for a in asks:
        if _may_reply(cfg, memory, a.sender, st):  # caps filled meanwhile: no reply
            out.append(reply_decision(st, cfg, decision.seat, a.n, a.sender, a.message))
    return out


def apply_message(
    st: DiplomacyState,
    cfg: DiplomacyConfig,
    decision: Decision,
    action: Action,
    bots: list[str],
) -> list[Decision]:
    """A reply or an initiated message: commitments recorded, text checked, sent."""
    assert isinstance(action, Structured)
    value = action.value
    power = decision.seat
    memory = st.bots[power]
    to = str(value.get("to") or DiplomacyAsk.of(decision).sender)
    text = str(value.get("text", "")).strip()
    items = list(value.get("proposals", []))
    if not text and not items:
        return []
    if decision.purpose == REPLY and not _may_reply(cfg, memory, to, st):
        return []  # other replies filled the caps while this one was written: dropped
    made = _record(st, memory, to, list(value.get("commitments", [])))
    _record(st, memory, to, list(value.get("heard", [])))
    promised = {c.what for c in made if c.by == power}
    text = _redact(memory, text, promised)
    words, acts = negotiation.apply_acts(st, power, to, items)
    text = " ".join([text, *words]).strip()[: cfg.press_max_length]
    if not text:
        return []
    memory.sent[to] = memory.sent.get(to, 0) + 1
    if decision.purpose == REPLY and to in bots:
        memory.bot_replies += 1
    if made and to in bots:  # the other bot learns the structured commitment as it was made
        other = st.bots[to]
        for c in made:
            if c not in other.commitments:
                other.commitments.append(c)
    send(st, cfg, power, to, text, bots, acts)
    return []


def apply_talk(
    st: DiplomacyState, cfg: DiplomacyConfig, decision: Decision, action: Action, bots: list[str]
) -> list[Decision]:
    """A person's window press: send, then talk again or (said nothing / out of turns)
    give orders."""
    assert isinstance(action, Structured)
    opened: list[Decision] = []
    said = False
    for message in action.value.get("messages", []):
        text = str(message["text"]).strip()
        if text:
            said = True
            send(st, cfg, decision.seat, str(message["to"]), text, bots)
    power = decision.seat
    if said and st.talk_turns.get(power, 0) < max(1, cfg.press_rounds):
        opened.append(talk_decision(st, cfg, power))
    else:
        orders = _orders_decision(st.board, power)
        if orders is not None:
            opened.append(_with_deadline(cfg, _as_arrived(orders), hold_default(orders)))
    return opened


def finalise_decisions(st: DiplomacyState, bots: list[str]) -> list[Decision]:
    out: list[Decision] = []
    phase = st.board.phase
    for power in bots:
        options = unit_orders(st.board, power)
        if not options:
            continue
        memory = st.bots[power]
        floor = {
            u: options[u].index(memory.floor[u]) if memory.floor.get(u) in options[u] else 0
            for u in options
        }
        mine = [c.line() for c in memory.commitments if c.phase == phase.name]
        out.append(
            structured_decision(
                phase.name,
                power,
                FINALISE,
                max_tokens=40 + 10 * len(options),
                prompt=(
                    f"{phase.long_name}: final orders. Choose every unit's order by its "
                    "number; your provisional orders stand unless you change them."
                ),
                json_schema=_index_schema(options),
                context=DiplomacyAsk(
                    options=options, floor=floor, commitments=mine, pool="orders"
                ).context(),
                default=Structured(value=floor),
            )
        )
    return out


def apply_finalise(
    st: DiplomacyState, cfg: DiplomacyConfig, decision: Decision, action: Action
) -> tuple[str, ...]:
    assert isinstance(action, Structured)
    power = decision.seat
    memory = st.bots[power]
    chosen = _by_index(decision, action.value)
    _count_own(st, memory, chosen)
    options = DiplomacyAsk.of(decision).options
    chosen = negotiation.keep_word(st, cfg, memory, chosen, options)
    final = _guarded(st, memory, chosen)
    return tuple(final[u] for u in options)


def attacks_on(
    board: Board, power: str, orders: dict[str, tuple[str, ...]]
) -> dict[str, list[str]]:
    """Per other power, its orders that moved into a province of ours (unit or centre)."""
    ours = set(board.centres_of(power)) | {u.location.province for u in board.units_of(power)}
    out: dict[str, list[str]] = {}
    for other, texts in orders.items():
        if other == power:
            continue
        for text in texts:
            try:
                order = parse_order(text)
            except ValueError:
                continue
            if isinstance(order, Move) and order.dest.province in ours:
                out.setdefault(other, []).append(text)
    return out

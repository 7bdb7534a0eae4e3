"""The scripted bot: answers the bot protocol's decisions without a model, so the
protocol runs (and is tested) model-free, and is the fallback of model-played bots.

* plan: DumbBot's orders as indices; agenda: the neighbours its orders leave alone
  (peace), and, when its orders attack a power, a neighbour of that power (an alliance
  against it) — never a power it attacks, nor one it trusts less than neutral;
* gate: reply when the message carries proposals to it or is about the board (a
  province, unit, order words or a question), silence for greetings and small talk;
  over a batch of messages, the same test for each;
* initiate: the agenda's proposal as an act (peace for two seasons, or an alliance),
  which the game puts into words, with a request that a unit of the partner support one
  of our attacks (``support_wanted``); no text of its own;
* reply: accept each proposal its own orders would keep, and a support asked of a unit
  its plan leaves idle (``lends``); one its orders would break is rejected, or, with the
  power's deception as the chance, accepted anyway (a lie the engine's deception bound
  may then let stand);
* finalise: with a peace or alliance in force this phase, DumbBot's orders again, now
  blind to those partners (their borders need no guard; the units go elsewhere),
  keeping every deal the floor kept; every support agreed this phase is given, and every
  move a partner agreed to support is made; with neither, the floor stands. Plans made
  while an earlier pact still runs are blind to its partners from the start.

A persona (``personas``) changes these decisions: aggression the plan's orders
(``with_persona``), honesty the lies (peace offered to the power it attacks, acceptances
its orders will break), talkativeness whom it contacts, how many proposals a message
carries and how often it answers. Every chance comes from the decision's seeded ``rng``.
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.core.actions import Action, Choice, Choices, Structured
from parlour.core.decisions import Decision
from parlour.core.rng import Rng
from parlour.games.diplomacy.ask import DiplomacyAsk
from parlour.games.diplomacy.board import Board
from parlour.games.diplomacy.bot_protocol import (
    FINALISE,
    GATE,
    INITIATE,
    PLAN,
    REPLY,
    REPLY_OPT,
    SILENT_OPT,
    msg_option,
    needs_reply,
)
from parlour.games.diplomacy.deals import attacks, breach
from parlour.games.diplomacy.orders import Move, SupportHold, SupportMove, Waive, parse_order
from parlour.games.diplomacy.personas import NEUTRAL, Persona, persona_of
from parlour.games.diplomacy.proposals import (
    MUTUAL,
    Alliance,
    Peace,
    Support,
    Term,
    act,
    act_of,
    term_of,
)
from parlour.games.diplomacy.views import DealFacts, DiplomacyView, board_of

#: deals and statements binding a power, with their terms
Bindings = Sequence[tuple[DealFacts, Term]]


def _scripted_orders(
    view: DiplomacyView,
    seat: str,
    options: dict[str, list[str]],
    rng: Rng,
    friends: frozenset[str],
) -> dict[str, str]:
    """Per unit, DumbBot's order (blind to ``friends``' units and centres) as the
    persona bends it; a unit DumbBot leaves out takes its first option."""
    from parlour.games.diplomacy.dumbbot import dumbbot_orders

    board = board_of(view)
    chosen = {str(o) for o in dumbbot_orders(board, seat, rng, friends)}
    picked = {u: next((t for t in opts if t in chosen), opts[0]) for u, opts in options.items()}
    bot = view.private.bot
    if bot is not None and bot.persona:
        persona = persona_of(bot.persona)
        picked = with_persona(board, seat, picked, options, persona, rng)
    return picked


def _deals_now(view: DiplomacyView, said: bool = False) -> list[tuple[DealFacts, Term]]:
    """This power's open deals that cover the current phase, with their terms (and,
    ``said``, what it said it would do this phase, agreed or not)."""
    bot = view.private.bot
    out: list[tuple[DealFacts, Term]] = []
    facts = [*bot.deals, *(bot.said if said else [])] if bot is not None else []
    for d in facts:
        term = term_of(dict(d.term))
        if view.phase in d.phases and not isinstance(term, str):
            out.append((d, term))
    return out


def friends_of(view: DiplomacyView) -> frozenset[str]:
    """Powers bound to peace or alliance with us this phase that we still trust (not
    below neutral): their units need no guard and their centres are no target."""
    bot = view.private.bot
    trust = bot.trust if bot is not None else {}
    return frozenset(
        d.by
        for d, term in _deals_now(view)
        if d.by != view.seat and isinstance(term, (Peace, Alliance)) and trust.get(d.by, 3) >= 3
    )


def plan(view: DiplomacyView, decision: Decision, rng: Rng) -> Action:
    options = DiplomacyAsk.of(decision).options
    board = board_of(view)
    picked = _scripted_orders(view, decision.seat, options, rng, friends_of(view))
    bot = view.private.bot
    persona = persona_of(bot.persona if bot is not None else None)
    orders = {u: options[u].index(picked[u]) for u in options}
    value: dict[str, object] = {"read": "DumbBot's reading of the board.", "orders": orders}
    assert decision.json_schema is not None
    agenda = decision.json_schema["properties"].get("agenda")
    if agenda is not None:
        trust = bot.trust if bot is not None else {}
        # no deal is offered to a power that broke its word or attacked us (below neutral)
        allowed = [p for p in agenda["items"]["properties"]["to"]["enum"] if trust.get(p, 3) >= 3]
        floor = [options[u][orders[u]] for u in options]
        value["agenda"] = talk_plan(board, decision.seat, floor, allowed, persona, rng)[
            : agenda["maxItems"]
        ]
    return Structured(value=value)


def finalise(view: DiplomacyView, decision: Decision, rng: Rng) -> Action:
    """Orders re-planned once the talk is done: DumbBot's again, now blind to the
    powers we agreed peace or alliance with, so the units that watched them attack
    elsewhere. A re-planned order that would break a deal, or contradict what we said
    this phase, that the floor keeps goes back to the floor's (what we broke on purpose,
    a lie, stays the engine's to bound). A support we agreed to give is given; a move a
    partner agreed to support is made. With no deal this phase the floor stands."""
    assert decision.default is not None
    friends = friends_of(view)
    supports = supports_now(view)
    if not friends and not supports:
        return decision.default
    ask = DiplomacyAsk.of(decision)
    options = ask.options
    floor = {u: options[u][i] for u, i in ask.floor.items()}
    board = board_of(view)
    new = _scripted_orders(view, decision.seat, options, rng, friends) if friends else dict(floor)
    kept = [
        (d, t) for d, t in _binding(view) if not breach(t, d.by, d.with_, board, floor.values())
    ]

    def broken(orders: dict[str, str]) -> int:
        return sum(bool(breach(t, d.by, d.with_, board, orders.values())) for d, t in kept)

    for unit in options:
        if broken(new) == 0:
            break
        if new[unit] != floor[unit] and broken({**new, unit: floor[unit]}) < broken(new):
            new[unit] = floor[unit]
    if broken(new):
        new = dict(floor)
    for d, term in supports:  # honoured unless that would break what we said to another
        trial = dict(new)
        _honour(board, view.seat, d, term, options, trial)
        if broken(trial) <= broken(new):
            new = trial
    return Structured(value={u: options[u].index(new[u]) for u in options})


def _binding(view: DiplomacyView) -> list[tuple[DealFacts, Term]]:
    """What binds us this phase: our deals and what we said we would do."""
    return [(d, t) for d, t in _deals_now(view, said=True) if d.by == view.seat]


def _contradicts(board: Board, power: str, binding: Bindings, orders: list[str]) -> bool:
    return any(breach(t, power, d.with_, board, orders) for d, t in binding)


def supports_now(view: DiplomacyView) -> list[tuple[DealFacts, Support]]:
    """This phase's agreed supports: ones we give (``by`` us) and ones given to our moves."""
    return [(d, t) for d, t in _deals_now(view) if isinstance(t, Support) and t.to != t.from_]


def _honour(
    board: Board,
    power: str,
    deal: DealFacts,
    term: Support,
    options: dict[str, list[str]],
    orders: dict[str, str],
) -> None:
    """Set the order an agreed support needs: the supporter's support (when it is ours),
    or the supported move (when the moving unit is ours); an order no option gives is
    left as it is."""
    if deal.by == power:
        unit = next((u for u in options if u.split("/")[0] == term.unit.split("/")[0]), None)
        if unit is None:
            return
        for text in options[unit]:
            if not breach(term, power, deal.with_, board, [text]):
                orders[unit] = text
                return
        return
    mover = board.unit_at(term.from_)
    if mover is None or mover.power != power or mover.text not in options:
        return
    for text in options[mover.text]:
        order = parse_order(text)
        if isinstance(order, Move) and not order.via_convoy and order.dest.province == term.to:
            orders[mover.text] = text
            return


def support_wanted(
    board: Board, power: str, floor: list[str], to: str, binding: Bindings = ()
) -> Support | None:
    """A support to ask ``to`` for: one of our floor's moves at a third power's unit (else
    at a centre not ours that a third power's unit could also enter), that a unit of
    ``to`` can reach to support; never a move against ``to`` itself, nor one that breaks
    what ``binding`` (our deals and statements) says."""
    gm = board.game_map
    theirs = {u.province for u in board.units_of(to)} | set(board.centres_of(to))
    ours = set(board.centres_of(power))
    centres = gm.supply_centre_set
    third = [u for u in board.units if u.power not in (power, to)]
    best: tuple[tuple[int, int], Support] | None = None
    for text in floor:
        order = parse_order(text)
        if not isinstance(order, Move) or order.via_convoy:
            continue
        dest = order.dest.province
        if dest in theirs or _contradicts(board, power, binding, [text]):
            continue
        there = board.unit_at(dest)
        if there is not None and there.power not in (power, to):
            rank = 0  # an attack on a unit: the support is what can make it succeed
        elif (
            dest in centres
            and dest not in ours
            and any(dest in gm.reachable_provinces(u.type, u.location) for u in third)
        ):
            rank = 1  # a centre someone else may also enter
        else:
            continue
        for helper in board.units_of(to):
            reach = gm.reachable_provinces(helper.type, helper.location)
            if helper.province == dest or dest not in reach:
                continue
            # a unit with a centre of its own to take will likely be busy taking it
            busy = any(c in centres and c not in theirs and c != dest for c in reach)
            key = (int(busy), rank)
            if best is None or key < best[0]:
                best = (key, Support(helper.text, order.location.province, dest))
    return best[1] if best is not None else None


def _lend(
    board: Board,
    power: str,
    term: Support,
    floor: list[str],
    friends: frozenset[str],
    binding: Bindings,
    persona: Persona,
    rng: Rng,
) -> bool:
    """``lends`` as the persona bends it: an aggressive one sends an idle unit forward
    instead (``attack_chance``); a restrained one also lends a unit its plan sends at a
    centre (``restraint_chance``). Never a support that breaks what ``binding`` says."""
    order = _support_order(board, term)
    if order is None or _contradicts(board, power, binding, [order]):
        return False
    if lends(board, power, term, floor, friends):
        go = persona.attack_chance()
        return not (go and rng.random() < go)
    stay = persona.restraint_chance()
    if not stay or not lends(board, power, term, floor, friends, busy_ok=True):
        return False
    return rng.random() < stay


def _support_order(board: Board, term: Support) -> str | None:
    """The order text that gives ``term`` (None when no unit stands to be supported)."""
    mover = board.unit_at(term.from_)
    return None if mover is None else f"{term.unit} S {mover.text} - {term.to}"


def lends(
    board: Board,
    power: str,
    term: Support,
    floor: list[str],
    friends: frozenset[str],
    busy_ok: bool = False,
) -> bool:
    """Whether we give an asked-for support: the unit is idle (its floor order holds or
    moves without taking a centre; ``busy_ok``: whatever it does), none of our own moves
    goes where the supported one does, and that move attacks neither us nor a friend."""
    if term.to == term.from_:
        return False
    guarded = {power, *friends}
    for p in guarded:
        if term.to in board.centres_of(p):
            return False
    there = board.unit_at(term.to)
    if there is not None and there.power in guarded:
        return False
    mine = board.unit_at(term.unit.split()[-1][:3])
    if mine is None or mine.power != power:
        return False
    centres = board.game_map.supply_centre_set
    ours = set(board.centres_of(power))
    busy = False
    for text in floor:
        order = parse_order(text)
        if isinstance(order, Move) and order.dest.province == term.to:
            return False  # we want it ourselves
        if not isinstance(order, Waive) and order.location.province == mine.province:
            takes = isinstance(order, Move) and order.dest.province in centres - ours
            busy = takes or isinstance(order, (SupportHold, SupportMove))
    return busy_ok or not busy


PEACE, ALLIANCE = "peace", "alliance against "


def neighbours(board: Board, power: str) -> list[str]:
    """Powers we touch: a unit of theirs can reach a province of ours (unit or centre) or
    one our units can reach; closest first (most contacts)."""
    gm = board.game_map
    ours = set(board.centres_of(power)) | {u.province for u in board.units_of(power)}
    for u in board.units_of(power):
        ours |= gm.reachable_provinces(u.type, u.location)
    contacts: dict[str, int] = {}
    for u in board.units:
        if u.power != power:
            reach = gm.reachable_provinces(u.type, u.location) | {u.province}
            n = len(reach & ours)
            if n:
                contacts[u.power] = contacts.get(u.power, 0) + n
    return sorted(contacts, key=lambda p: (-contacts[p], p))


def talk_plan(
    board: Board,
    power: str,
    floor: list[str],
    allowed: list[str],
    persona: Persona = NEUTRAL,
    rng: Rng | None = None,
) -> list[dict[str, str]]:
    """Whom to talk to and about what: an ally against the first power our orders attack
    (a neighbour of both), then peace with the neighbours our orders leave alone.

    A persona below neutral honesty may first offer peace to the power it attacks (a lie:
    its own orders contradict it); a talkative one (above 0.5) also offers peace to the
    powers beyond its neighbours."""
    near = [p for p in neighbours(board, power) if p in allowed]
    targets = [p for p in near if attacks(board, p, floor)]
    out: list[dict[str, str]] = []
    lie = persona.lie_chance()
    if targets and lie and rng is not None and rng.random() < lie:
        out.append({"to": targets[0], "about": PEACE})
    if targets:
        theirs = neighbours(board, targets[0])
        ally = next((p for p in near if p not in targets and p in theirs), None)
        if ally is not None:
            out.append({"to": ally, "about": ALLIANCE + targets[0]})
    out += [{"to": p, "about": PEACE} for p in near if p not in targets]
    if persona.talkativeness > NEUTRAL.talkativeness:
        out += [{"to": p, "about": PEACE} for p in allowed if p not in near]
    unique: dict[str, dict[str, str]] = {}
    for a in out:
        unique.setdefault(a["to"], a)
    return list(unique.values())


def initiate(view: DiplomacyView, decision: Decision, rng: Rng) -> Action:
    """The agenda's proposal to the decision's one target, as an act; a talkative
    persona sometimes adds a request: keep out of a home centre of ours it can reach."""
    to = DiplomacyAsk.of(decision).targets[0]
    bot = view.private.bot
    about = dict(bot.agenda).get(to, PEACE) if bot is not None else PEACE
    if about.startswith(ALLIANCE):
        acts = [act("offer", "alliance", power=about.removeprefix(ALLIANCE), phases=2)]
    else:
        acts = [act("offer", "peace", phases=2)]
    board = board_of(view)
    floor = list(bot.floor.values()) if bot is not None else []
    asked = support_wanted(board, view.seat, floor, to, _binding(view))
    if asked is not None:
        acts.append(act_of(asked, "request"))
    extra = persona_of(bot.persona if bot is not None else None).extra_act_chance()
    if len(acts) < 2 and extra and rng.random() < extra:
        home = _reachable_home(board, view.seat, to)
        if home is not None:
            acts.append(act("request", "stay_out", to=home))
    lent = [t for d, t in supports_now(view) if d.by == view.seat]
    if lent:  # never offer what a support we agreed to give would contradict
        given = [_support_order(board, t) for t in lent]
        acts = [
            a
            for a in acts
            if isinstance(term := term_of(a), str)
            or a["act"] != "offer"
            or not breach(term, view.seat, to, board, [g for g in given if g])
        ]
    return Structured(value={"to": to, "text": "", "commitments": [], "proposals": acts})


def _reachable_home(board: Board, power: str, other: str) -> str | None:
    """A home centre of ``power`` that a unit of ``other`` can move into (first by name)."""
    gm = board.game_map
    reach: set[str] = set()
    for u in board.units_of(other):
        reach |= gm.reachable_provinces(u.type, u.location)
    return next((h for h in sorted(gm.home_centres.get(power, ())) if h in reach), None)


def answers(view: DiplomacyView, decision: Decision, rng: Rng) -> list[dict[str, object]]:
    """Accept what our floor keeps; what it would break: reject, or (a lie, with the
    deception share as the chance) accept."""
    ask = DiplomacyAsk.of(decision)
    bot = view.private.bot
    board = board_of(view)
    floor = list(bot.floor.values()) if bot is not None else []
    deception = bot.deception if bot is not None else 0.0
    persona = persona_of(bot.persona if bot is not None else None)
    out: list[dict[str, object]] = []
    for ref, item in list(ask.offers.items())[:2]:
        term = term_of(item)
        if isinstance(term, str):
            continue
        mine = item["act"] == "request" or isinstance(term, MUTUAL)
        broken = bool(mine and breach(term, view.seat, ask.sender, board, floor))
        trusted = (bot.trust.get(ask.sender, 3) if bot is not None else 3) >= 3
        if isinstance(term, Support) and item["act"] == "request":
            # a support is a change of orders finalise makes, not something the floor keeps
            lent = _lend(
                board, view.seat, term, floor, friends_of(view), _binding(view), persona, rng
            )
            broken = not (trusted and lent)
        ok = not broken or rng.random() < deception
        out.append(act("accept" if ok else "reject", ref=ref))
    return out


def with_persona(
    board: Board,
    power: str,
    picked: dict[str, str],
    options: dict[str, list[str]],
    persona: Persona,
    rng: Rng,
) -> dict[str, str]:
    """A persona's aggression on DumbBot's orders (0.5 changes nothing).

    * cautious (risk <= 0.3): a unit on a home centre a foreign unit could walk into
      holds;
    * above 0.5, with ``attack_chance``: a unit that holds or supports moves into a
      neighbour's unit or centre (else a centre not ours yet) instead;
    * below 0.5, with ``restraint_chance``: a unit moving against a neighbour supports
      one of our units that stays (else holds) instead.

    The guards later undo any self-bounce this makes."""
    out = dict(picked)
    gm = board.game_map
    homes = set(gm.home_centres.get(power, ()))
    owner = {c: p for p in gm.powers if p != power for c in board.centres_of(p)}
    ours = set(board.centres_of(power))
    foreign = [u for u in board.units if u.power != power]
    go, stay = persona.attack_chance(), persona.restraint_chance()
    for unit in picked:
        order = parse_order(picked[unit])
        where = unit.split()[1][:3]
        if isinstance(order, Move):
            exposed = where in homes and any(
                where in gm.reachable_provinces(f.type, f.location) for f in foreign
            )
            if persona.risk <= 0.3 and exposed:
                out[unit] = options[unit][0]  # hold: the home stays covered
                continue
            hostile = _foreign(board, power, order.dest.province, owner)
            if stay and hostile and rng.random() < stay:
                out[unit] = _own_support(board, power, options[unit], out) or options[unit][0]
        elif go and rng.random() < go:
            out[unit] = _attack(board, power, options[unit], owner, ours) or out[unit]
    return out


def _foreign(board: Board, power: str, province: str, owner: dict[str, str]) -> bool:
    """Whether a move into ``province`` attacks another power (its unit or centre)."""
    there = board.unit_at(province)
    return (there is not None and there.power != power) or province in owner


def _attack(
    board: Board, power: str, opts: list[str], owner: dict[str, str], ours: set[str]
) -> str | None:
    """The unit's first move at a neighbour's unit or centre, else at a centre not ours."""
    moves = []
    for text in opts:
        order = parse_order(text)
        if isinstance(order, Move) and not order.via_convoy:
            moves.append((text, order.dest.province))
    hit = [t for t, d in moves if _foreign(board, power, d, owner)]
    if hit:
        return hit[0]
    centres = board.game_map.supply_centre_set
    return next((t for t, d in moves if d in centres and d not in ours), None)


def _own_support(board: Board, power: str, opts: list[str], chosen: dict[str, str]) -> str | None:
    """The unit's first support to hold of one of our units that is not moving."""
    staying = {u.split()[1][:3] for u, t in chosen.items() if not isinstance(parse_order(t), Move)}
    for text in opts:
        order = parse_order(text)
        if isinstance(order, SupportHold) and order.target[:3] in staying:
            helped = board.unit_at(order.target[:3])
            if helped is not None and helped.power == power:
                return text
    return None


def bot_answer(view: DiplomacyView, decision: Decision, rng: Rng) -> Action | None:
    """The scripted answer to a bot-protocol decision; None for any other decision."""
    purpose = decision.purpose
    if purpose == PLAN:
        return plan(view, decision, rng)
    if purpose == GATE:
        ask = DiplomacyAsk.of(decision)
        bot = view.private.bot
        quiet = persona_of(bot.persona if bot is not None else None).silence_chance()

        def answer(a: DiplomacyAsk) -> bool:
            ok = bool(a.offers) or needs_reply(a.message)
            # a quiet persona lets some messages go unanswered
            return ok and not (quiet and rng.random() < quiet)

        if ask.batch:
            return Choices(options=tuple(msg_option(a.n) for a in ask.batch if answer(a)))
        return Choice(option=REPLY_OPT if answer(ask) else SILENT_OPT)
    if purpose == REPLY:
        acts = answers(view, decision, rng)
        # nothing proposed to answer: a short fixed text
        text = "" if acts else "Noted. I keep my word while you keep yours."
        return Structured(value={"text": text, "commitments": [], "heard": [], "proposals": acts})
    if purpose == INITIATE:
        return initiate(view, decision, rng)
    if purpose == FINALISE:
        return finalise(view, decision, rng)
    return None

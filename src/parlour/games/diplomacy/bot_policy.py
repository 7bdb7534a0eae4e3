"""The scripted bot: answers the bot protocol's decisions without a model, so the
protocol runs (and is tested) model-free, and is the fallback of model-played bots.

* plan: DumbBot's orders as indices; agenda: the neighbours its orders leave alone
  (peace), and, when its orders attack a power, a neighbour of that power (an alliance
  against it) — never a power it attacks, nor one it trusts less than neutral;
* gate: reply when the message carries proposals to it or is about the board (a
  province, unit, order words or a question), silence for greetings and small talk;
* initiate: the agenda's proposal as an act (peace for two seasons, or an alliance),
  which the game puts into words; no text of its own;
* reply: accept each proposal its own orders would keep; one its orders would break is
  rejected, or, with the power's deception as the chance, accepted anyway (a lie the
  engine's deception bound may then let stand);
* finalise: the floor, i.e. the plan stands (the engine restores kept deals).
"""

from __future__ import annotations

from parlour.core.actions import Action, Choice, Structured
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
    needs_reply,
)
from parlour.games.diplomacy.deals import attacks, breach
from parlour.games.diplomacy.orders import Hold, Move, parse_order
from parlour.games.diplomacy.personas import PERSONAS
from parlour.games.diplomacy.proposals import MUTUAL, act, term_of
from parlour.games.diplomacy.views import DiplomacyView, board_of


def plan(view: DiplomacyView, decision: Decision, rng: Rng) -> Action:
    from parlour.games.diplomacy.dumbbot import dumbbot_orders

    options = DiplomacyAsk.of(decision).options
    board = board_of(view)
    chosen = {str(o) for o in dumbbot_orders(board, decision.seat, rng)}
    picked = {u: next((t for t in opts if t in chosen), opts[0]) for u, opts in options.items()}
    bot = view.private.bot
    persona = PERSONAS.get(bot.persona) if bot is not None and bot.persona else None
    if persona is not None:
        picked = with_risk(board, decision.seat, picked, options, persona.risk)
    orders = {u: options[u].index(picked[u]) for u in options}
    value: dict[str, object] = {"read": "DumbBot's reading of the board.", "orders": orders}
    assert decision.json_schema is not None
    agenda = decision.json_schema["properties"].get("agenda")
    if agenda is not None:
        trust = bot.trust if bot is not None else {}
        # no deal is offered to a power that broke its word or attacked us (below neutral)
        allowed = [p for p in agenda["items"]["properties"]["to"]["enum"] if trust.get(p, 3) >= 3]
        floor = [options[u][orders[u]] for u in options]
        value["agenda"] = talk_plan(board, decision.seat, floor, allowed)[: agenda["maxItems"]]
    return Structured(value=value)


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
    board: Board, power: str, floor: list[str], allowed: list[str]
) -> list[dict[str, str]]:
    """Whom to talk to and about what: an ally against the first power our orders attack
    (a neighbour of both), then peace with the neighbours our orders leave alone."""
    near = [p for p in neighbours(board, power) if p in allowed]
    targets = [p for p in near if attacks(board, p, floor)]
    out: list[dict[str, str]] = []
    if targets:
        theirs = neighbours(board, targets[0])
        ally = next((p for p in near if p not in targets and p in theirs), None)
        if ally is not None:
            out.append({"to": ally, "about": ALLIANCE + targets[0]})
    out += [{"to": p, "about": PEACE} for p in near if p not in targets]
    unique: dict[str, dict[str, str]] = {}
    for a in out:
        unique.setdefault(a["to"], a)
    return list(unique.values())


def initiate(view: DiplomacyView, decision: Decision) -> Action:
    """The agenda's proposal to the decision's one target, as an act."""
    to = DiplomacyAsk.of(decision).targets[0]
    bot = view.private.bot
    about = dict(bot.agenda).get(to, PEACE) if bot is not None else PEACE
    if about.startswith(ALLIANCE):
        acts = [act("offer", "alliance", power=about.removeprefix(ALLIANCE), phases=2)]
    else:
        acts = [act("offer", "peace", phases=2)]
    return Structured(value={"to": to, "text": "", "commitments": [], "proposals": acts})


def answers(view: DiplomacyView, decision: Decision, rng: Rng) -> list[dict[str, object]]:
    """Accept what our floor keeps; what it would break: reject, or (a lie, with the
    deception share as the chance) accept."""
    ask = DiplomacyAsk.of(decision)
    bot = view.private.bot
    board = board_of(view)
    floor = list(bot.floor.values()) if bot is not None else []
    deception = bot.deception if bot is not None else 0.0
    out: list[dict[str, object]] = []
    for ref, item in list(ask.offers.items())[:2]:
        term = term_of(item)
        if isinstance(term, str):
            continue
        mine = item["act"] == "request" or isinstance(term, MUTUAL)
        broken = mine and breach(term, view.seat, ask.sender, board, floor)
        ok = not broken or rng.random() < deception
        out.append(act("accept" if ok else "reject", ref=ref))
    return out


def with_risk(
    board: Board,
    power: str,
    picked: dict[str, str],
    options: dict[str, list[str]],
    risk: float,
) -> dict[str, str]:
    """A persona's risk on DumbBot's orders, so persona vs persona-free is measurable
    model-free: a cautious bot (risk <= 0.3) keeps a unit on each home centre a foreign
    unit could walk into; a bold one (risk >= 0.8) sends each holding unit at a centre
    that is not ours yet (the guards later undo any self-bounce this makes)."""
    out = dict(picked)
    gm = board.game_map
    homes = set(gm.home_centres.get(power, ()))
    ours = set(board.centres_of(power))
    for unit, order in picked.items():
        where = unit.split()[1][:3]
        moving = isinstance(parse_order(order), Move)
        if risk <= 0.3 and moving and where in homes:
            foreign = [u for u in board.units if u.power != power]
            if any(where in gm.reachable_provinces(f.type, f.location) for f in foreign):
                out[unit] = options[unit][0]  # hold: the home stays covered
        elif risk >= 0.8 and isinstance(parse_order(order), Hold):
            for text in options[unit]:
                move = parse_order(text)
                if isinstance(move, Move) and not move.via_convoy:
                    dest = move.dest.province
                    if dest in gm.supply_centre_set and dest not in ours:
                        out[unit] = text
                        break
    return out


def bot_answer(view: DiplomacyView, decision: Decision, rng: Rng) -> Action | None:
    """The scripted answer to a bot-protocol decision; None for any other decision."""
    purpose = decision.purpose
    if purpose == PLAN:
        return plan(view, decision, rng)
    if purpose == GATE:
        ask = DiplomacyAsk.of(decision)
        ok = bool(ask.offers) or needs_reply(ask.message)
        return Choice(option=REPLY_OPT if ok else SILENT_OPT)
    if purpose == REPLY:
        acts = answers(view, decision, rng)
        # nothing proposed to answer: a short fixed text
        text = "" if acts else "Noted. I keep my word while you keep yours."
        return Structured(value={"text": text, "commitments": [], "heard": [], "proposals": acts})
    if purpose == INITIATE:
        return initiate(view, decision)
    if purpose == FINALISE:
        assert decision.default is not None
        return decision.default
    return None

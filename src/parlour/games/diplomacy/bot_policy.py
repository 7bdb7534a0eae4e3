"""The scripted bot: answers the bot protocol's decisions without a model, so the
protocol runs (and is tested) model-free, and is the fallback of model-played bots.

* plan: DumbBot's orders as indices; agenda: propose peace to the first power listed;
* gate: reply only when the message is about the board (a province, unit, order words
  or a question), silence for greetings and small talk;
* reply / initiate: a short fixed text; an initiated message promises the first unit's
  floor order;
* finalise: the floor, i.e. the plan stands.
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
from parlour.games.diplomacy.orders import Hold, Move, parse_order
from parlour.games.diplomacy.personas import PERSONAS
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
        first = agenda["items"]["properties"]["to"]["enum"][0]
        value["agenda"] = [{"to": first, "about": "peace on our border"}]
    return Structured(value=value)


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
        ok = needs_reply(DiplomacyAsk.of(decision).message)
        return Choice(option=REPLY_OPT if ok else SILENT_OPT)
    if purpose == REPLY:
        text = "Noted. I keep my word while you keep yours."
        return Structured(value={"text": text, "commitments": [], "heard": []})
    if purpose == INITIATE:
        targets = DiplomacyAsk.of(decision).targets
        bot = view.private.bot
        assert decision.json_schema is not None
        whats = decision.json_schema["properties"]["commitments"]["items"]["properties"]["what"]
        promise = [
            {"kind": "promise", "what": o}
            for o in list(bot.floor.values() if bot else [])[:1]
            if o in whats["enum"]
        ]
        text = "Peace on our border this season? I will not move against you."
        return Structured(value={"to": targets[0], "text": text, "commitments": promise})
    if purpose == FINALISE:
        assert decision.default is not None
        return decision.default
    return None

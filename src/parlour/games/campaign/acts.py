"""Acts for the seats a small model plays (``CampaignConfig.act_seats``).

Asked to write, the embedded 135M model filled the directors' text with instruction
debris and tags, and cut lines off mid-word; most of its answers were refused and the
fallback spoke instead (docs/benchmarks.md). An act seat is asked to choose instead: each
decision it would answer in words (a narration, an NPC's line, the route with its check,
a synopsis, an out-of-character answer, a review, a sheet, the player's own turn) becomes
a choice among answers the game words from the seat's own view, with the scripted seat's
rules (``policies.py``): the campaign file's lines and reactions of the NPC who speaks and
what that NPC recalls of scenes it witnessed, the place's details, the check the engine's
rule holds the action to. The scripted seat's own answer is always the first option, so
the fallback (which takes it) answers in the same shape.

The answers travel in the decision (``CampaignAsk.answers``); the chosen one is applied as
if the seat had written it, and crosses the same gates. The events its words reach carry
the decision's id (``data["act"]``), so the talk measure knows the game, not the model,
wrote them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.core.actions import Action, Choice, Structured, Text
from parlour.core.asks import contexts
from parlour.core.decisions import Decision, DecisionKind, Option
from parlour.core.errors import IllegalAction
from parlour.core.rng import Rng, hash_seed
from parlour.core.view import AnyView
from parlour.core.wording import opening_words
from parlour.games.campaign import policies as scripted
from parlour.games.campaign.ask import CampaignAsk, WordingAsk

#: A label longer than this is cut to its first words: the model writes the label it
#: picks, and every token of it costs time on the embedded model.
LABEL_CHARS = 80
#: Options offered at most (the scripted answer among them): a short prompt, a short pick.
MAX_OPTIONS = 5
#: Room for a choice's JSON around its label (10 tokens) and a few of its private reason.
#: The label itself gets a token per 3 characters: on the bundled model's tokenizer no
#: line of night_school (nor a scripted template) needs more than 3 tokens over that.
CHOICE_TOKENS = 16
#: What silence reads as in a list of lines.
SILENCE = "(say nothing)"


@dataclass(frozen=True)
class Worded:
    """One option: what the model reads and writes back, and the answer it stands for."""

    label: str
    answer: Action


Wording = Callable[[AnyView, Decision, Rng], list[Worded]]


def as_choice(decision: Decision, view: Callable[[], AnyView], seed: int) -> Decision:
    """The act form of ``decision``: a choice among worded answers, or the decision itself
    when the game words none for it. ``view`` builds the seat's view when needed."""
    wording = _WORDINGS.get(decision.purpose)
    if wording is None or decision.kind in (DecisionKind.CHOOSE_ONE, DecisionKind.CHOOSE_MANY):
        return decision
    rng = Rng(hash_seed(seed, f"act:{decision.id}"))
    worded = _fit(decision, wording(view(), decision, rng))
    if not worded:
        return decision
    options = [Option(id=f"a{n + 1}", label=w.label) for n, w in enumerate(worded)]
    ask = CampaignAsk.find(decision) or CampaignAsk()
    return Decision.model_validate(
        decision.model_dump()
        | {
            "kind": DecisionKind.CHOOSE_ONE,
            "prompt": _prompt(decision),
            "options": options,
            "max_length": 0,
            "allow_empty": False,
            "json_schema": None,
            # The model writes the label (seats/llm.py): room for all of it and the JSON
            # around it; the reason, which nobody reads, is cut short (a token of it costs
            # about 40 ms on the embedded model here).
            "max_tokens": max(len(o.label) for o in options) // 3 + CHOICE_TOKENS,
            "checks": (),
            "checked_fields": (),
            "context": contexts(
                ask.model_copy(update={"answers": tuple(w.answer for w in worded)}),
                *([WordingAsk(fresh=True)] if WordingAsk.is_fresh(decision) else []),
            ),
        }
    )


def answer(decision: Decision, action: Action) -> tuple[Action, str]:
    """The answer ``action`` stands for, in the decision's own form, and the act's
    decision id ("" when the seat answered in its own words)."""
    ask = CampaignAsk.find(decision)
    if ask is None or not ask.answers or not isinstance(action, Choice):
        return action, ""
    index = [o.id for o in decision.options].index(action.option)
    return ask.answers[index], decision.id


def _fit(decision: Decision, worded: Sequence[Worded]) -> list[Worded]:
    """The options the decision itself would accept, one per label, at most
    ``MAX_OPTIONS`` (the first, the scripted answer, always kept when legal)."""
    out: list[Worded] = []
    labels: set[str] = set()
    for w in worded:
        label = opening_words(w.label or SILENCE, LABEL_CHARS)
        if label.casefold() in labels:
            continue
        try:
            decision.check(w.answer)
        except IllegalAction:
            continue
        labels.add(label.casefold())
        out.append(Worded(label, w.answer))
        if len(out) == MAX_OPTIONS:
            break
    return out


def _prompt(decision: Decision) -> str:
    """The act's command; a rewrite's reason (the review's) is kept."""
    _, rewrite, reason = decision.prompt.partition(" Rewrite ")
    again = f" Rewrite {reason}" if rewrite else ""
    if decision.purpose == "line":
        name = decision.prompt.split(" speaks now", 1)[0]
        return f"Choose what {name} says, from what {name} knows.{again}"
    return _PROMPTS[decision.purpose] + again


_PROMPTS = {
    "act": "Choose what you do or say this turn.",
    "route": "Choose how the player's turn goes on.",
    "scene": "Choose the scene's next beat.",
    "open": "Choose where the session opens.",
    "synopsis": "Choose where the story goes next.",
    "ooc": "Choose your out-of-character answer to the player.",
    "review": "Choose: approve the draft, or ask for a rewrite.",
    "sheet": "Choose how this NPC now sees the player.",
}


# -- the answers the game words, per purpose (the scripted one first) ---------------------


def _texts(lines: Sequence[str], decision: Decision) -> list[Worded]:
    limit = decision.max_length
    return [Worded(line, Text(text=line[:limit].strip())) for line in lines]


def _player(view: AnyView, decision: Decision, rng: Rng) -> list[Worded]:
    """The scripted player's line, then others of its lines with someone present."""
    first = scripted.scripted_player(view, decision, rng)
    assert isinstance(first, Text)
    present = view.public.present or ["anyone nearby"]
    said = scripted.fresh_said(view, decision)
    places = scripted.known_places(view)
    others = [
        scripted.player_wording(act, rng.choice(present), rng.choice(places), said, rng)
        for act in rng.shuffled(scripted.unasked_acts(view))
    ]
    return _texts([first.text, *others], decision)


#: how a route reads to the model
ROUTES = {
    "continue_scene": "the scene goes on here",
    "needs_story_director": "the story moves elsewhere",
}


def _route(view: AnyView, decision: Decision, rng: Rng) -> list[Worded]:
    """Both routes, the scripted one first; each with the check the engine's rule holds
    the action to (its cost if it goes wrong), so an action that can fail is checked."""
    first = scripted.scripted_route(view, decision)
    routes = [first, *(r for r in ROUTES if r != first)]
    ask = CampaignAsk.of(decision)
    check = f" ({ask.risk_skill} check)" if ask.risk_skill else ""
    return [
        Worded(ROUTES[r] + check, Structured(value=scripted.route_answer(decision, r, view, rng)))
        for r in routes
    ]


def _scene(view: AnyView, decision: Decision, rng: Rng) -> list[Worded]:
    limit = scripted.narration_limit(decision)
    return [
        Worded(n, Structured(value={"narration": n[:limit]}))
        for n in scripted.narrations(view, scripted.fresh_rng(decision, rng))
    ]


def _line(view: AnyView, decision: Decision, rng: Rng) -> list[Worded]:
    """The NPC's lines (``npc_line_options``), silence always among them."""
    first, *others = scripted.npc_line_options(view, rng, WordingAsk.is_fresh(decision))
    spoken = [line for line in others if line][: MAX_OPTIONS - 2]
    return _texts([first, *spoken, ""], decision)


#: what each out-of-character answer is about, as the model reads it
OOC_GISTS = {
    "rules": "how checks work",
    "state": "your HP, conditions and what you carry",
    "where": "where you are and who is here",
    "goals": "your goals and what to try next",
    "": "that is for play to find out",
}


def _ooc(view: AnyView, decision: Decision, rng: Rng) -> list[Worded]:
    answers = scripted.ooc_answers(view)
    first = scripted.ooc_about(CampaignAsk.of(decision).message)
    order = [first, *(k for k in answers if k != first)]
    return [Worded(OOC_GISTS[k], Text(text=answers[k][: decision.max_length])) for k in order]


def _synopsis(view: AnyView, decision: Decision, rng: Rng) -> list[Worded]:
    """The scripted story director's synopsis, then the scene going on and a move to each
    other place with one or two NPCs drawn by seed."""
    facts = view.public
    first = scripted.scripted_story_director(view, decision, rng)
    assert isinstance(first, Structured)
    values: list[dict[str, Any]] = [first.value]
    if decision.purpose != "open":
        values.append(_as_value(scripted.continue_scene(view, decision)))
    npc_ids = [n.id for n in facts.npcs]
    fresh = scripted.fresh_rng(decision, rng)
    for place in rng.shuffled(list(facts.locations)):
        npcs = rng.sample(npc_ids, rng.randint(1, min(2, len(npc_ids))))
        values.append(scripted.move_answer(view, place, npcs, fresh))
    return [Worded(_synopsis_label(view, v), Structured(value=v)) for v in values]


def _as_value(action: Action) -> dict[str, Any]:
    assert isinstance(action, Structured)
    return action.value


def _synopsis_label(view: AnyView, value: dict[str, Any]) -> str:
    facts = view.public
    if not value.get("new_scene"):
        return ROUTES["continue_scene"]
    names = {n.id: n.name for n in facts.npcs}
    who = " and ".join(names.get(n, n) for n in value["npc_list"]) or "nobody"
    label = f"{facts.locations.get(value['location'], value['location'])} with {who}"
    reveal = value.get("reveal") or []
    return label + (f"; reveal {reveal[0]}" if reveal else "")


#: a draft's review: approve it, or one rewrite with this reason
REWRITE = "keep to what the NPCs present know"


def _review(view: AnyView, decision: Decision, rng: Rng) -> list[Worded]:
    return [
        Worded("approve the draft", Structured(value={"approve": True})),
        Worded("ask for a rewrite", Structured(value={"approve": False, "reason": REWRITE})),
    ]


#: a session-end sheet: (attitude, note), the scripted one first
SHEETS = (
    ("wary but curious", "Met the player this session."),
    ("warmer than before", "Met the player this session and liked them better."),
    ("more guarded", "Met the player this session and trusts them less."),
)


def _sheet(view: AnyView, decision: Decision, rng: Rng) -> list[Worded]:
    npc = CampaignAsk.of(decision).npc
    return [
        Worded(attitude, Structured(value={"npc": npc, "attitude": attitude, "note": note}))
        for attitude, note in SHEETS
    ]


_WORDINGS: dict[str, Wording] = {
    "act": _player,
    "route": _route,
    "scene": _scene,
    "line": _line,
    "ooc": _ooc,
    "open": _synopsis,
    "synopsis": _synopsis,
    "review": _review,
    "sheet": _sheet,
}

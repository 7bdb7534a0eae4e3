"""Scripted policies for the three seats. Each sees only its view and its decision.

* classifier: the keyword-overlap baseline (the ``keyword_classifier`` package);
* narrator: a template that states the brief (and the hint, if any) and nothing else;
* player: ``solver``, a walkthrough bot, or ``explorer``, a random but plausible player.

The solver is *given the scenario file as its own knowledge* when it is built: a
walkthrough bot for tests and demos, legitimately, since it is a scripted test player (a
person holding the designer's file). Its view tells it which actions it already did; it
plays the shortest path to a good ending. The module policy finds that file from the
scenario's name in the player's view. The explorer knows only what narrations told it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from parlour.core.actions import Action, Choice, Choices, Text
from parlour.core.decisions import Decision
from parlour.core.errors import ParlourError
from parlour.core.policy import Policy, by_purpose
from parlour.core.rng import Rng
from parlour.core.view import AnyView
from parlour.games.escape.ask import ClassifyAsk, NarrateAsk
from parlour.games.escape.commands import LOOK_BRIEF, look_text
from parlour.games.escape.faithful import templated
from parlour.games.escape.hints import shortest_good_way
from parlour.games.escape.keyword_classifier import (
    classify,
    classify_reply,
)
from parlour.games.escape.loader import load_scenario
from parlour.games.escape.looking import looks
from parlour.games.escape.resolve import NO_EFFECT_LINES
from parlour.games.escape.scenario import ASK_ID, LOOK_ID, NONE_ID, Scenario, ScenarioAction
from parlour.games.escape.seat_requests import ClassifierView, NarratorView, PlayerView
from parlour.games.escape.text import STOPWORDS, words
from parlour.games.escape.understand import closest_two, doubted_pair, understand, vague_group


def keyword_classifier(view: ClassifierView, decision: Decision, rng: Rng) -> Action:
    if decision.purpose == "clarify":  # the classifier seat is asked this after an "ask"
        return keyword_clarifier(view, decision, rng)
    ask = ClassifyAsk.find(decision)
    message = ask.message if ask is not None else view.public.message or ""
    # ``look`` is no action of the room: the rules never score it (below: a look they
    # found no action in).
    options = [(o.id, o.label) for o in decision.options if o.id != LOOK_ID]
    may_look = len(options) < len(decision.options)
    unoffered = [(u.id, u.description) for u in view.private.unoffered]
    asked, offered = (ask.asked, ask.offered) if ask is not None else (None, None)
    if asked is not None and offered is not None:
        if may_look and looks(message):  # looking first is no answer: nothing happens
            return Choice(option=LOOK_ID)
        # The message answers "which did you mean?": read it with what was asked.
        answer = classify_reply(
            message, asked, [str(o) for o in offered], options, unoffered, view.private.room
        )
        return Choice(option=answer)
    phrasings = [(p.id, p.text) for p in view.private.phrasings]
    picked = understand(
        message, options, unoffered=unoffered, room=view.private.room, phrasings=phrasings
    )
    if picked == NONE_ID and may_look and looks(message):
        # "look through the telescope", "inspect the desk": no action, so the game shows
        # what the player looks at.
        return Choice(option=LOOK_ID)
    return Choice(option=picked)


def keyword_clarifier(view: ClassifierView, decision: Decision, rng: Rng) -> Action:
    """The two options the message fits best (after the classifier answered ``ask``)."""
    ask = ClassifyAsk.find(decision)
    message = ask.message if ask is not None else view.public.message or ""
    ids = [o.id for o in decision.options]
    offered = ask.offered if ask is not None else None
    options = [(o.id, o.label) for o in decision.options]
    # Classified only when asked before (a new unclear order asks anew), the last test.
    if (
        offered is not None
        and len(offered) == 2
        and set(offered) <= set(ids)
        and classify(message, [*options, (ASK_ID, "-")]) != ASK_ID
    ):
        # The answer named neither: the same two actions are still the question.
        return Choices(options=(str(offered[0]), str(offered[1])))
    unoffered = [(u.id, u.description) for u in view.private.unoffered]
    phrasings = [(p.id, p.text) for p in view.private.phrasings]
    ranked = (
        doubted_pair(
            message, options, unoffered=unoffered, room=view.private.room, phrasings=phrasings
        )
        or vague_group(message, options)
        or closest_two(message, options)
    )
    picked = (ranked + [i for i in ids if i not in ranked])[:2]
    return Choices(options=tuple(picked))


def template_narrator(view: NarratorView, decision: Decision, rng: Rng) -> Action:
    ask = NarrateAsk.find(decision)
    brief = view.private.brief or (ask.brief if ask is not None else "") or "Nothing happens."
    if brief == LOOK_BRIEF:  # an instruction to the narrator: show the place instead
        brief = look_text(view.private.intro, view.private.world)
    hint = view.private.hint or (ask.hint if ask is not None else None)
    return Text(text=templated(brief, str(hint) if hint else None, decision.max_length))


def phrase(action: ScenarioAction) -> str:
    """What a player types to attempt an action: its description, plus the answer if any."""
    text = f"I {action.description}"
    return f"{text}: {action.answer}" if action.answer else text


#: The shortest path to a good ending (the walkthrough bot's way), the solver's plan.
solution = shortest_good_way


class SolverPlayer:
    """A walkthrough bot: plays the shortest path to a good ending, one action per turn."""

    def __init__(self, scenario: Scenario) -> None:
        self._actions = {a.id: a for a in scenario.actions}
        self._path = solution(scenario)

    def __call__(self, view: PlayerView, decision: Decision, rng: Rng) -> Action:
        done = set(view.public.done)
        for aid in self._path:
            if aid not in done:
                return Text(text=phrase(self._actions[aid])[: decision.max_length])
        return Text(text="I wait.")


_VERBS = ("examine", "open", "take", "press", "read", "climb", "pull", "search", "use", "push")
DISTRACTORS = (
    "is there a ghost?",
    "is there a way out?",
    "I sing a little song to pass the time.",
    "what is this place?",
    "I wait and listen.",
    "hello? anybody there?",
    "I sit down and think about my life.",
    "I dance in the middle of the room.",
    "I look around.",
)


class ExplorerPlayer:
    """Random plausible play from the narrations alone: a verb and a phrase it has read
    (often from the latest hint), codes and names it has seen, and distractors."""

    def __call__(self, view: PlayerView, decision: Decision, rng: Rng) -> Action:
        told = [_without(e.text, NO_EFFECT_LINES) for e in view.events if e.kind == "narration"]
        phrases = sorted({p for text in told for p in _phrases(text)})
        hints = [t.split("(Perhaps:", 1)[1] for t in told[-1:] if "(Perhaps:" in t]
        codes = sorted({w for t in told for w in words(t) if w.isdigit() and len(w) >= 2})
        names = sorted({w for t in told for w in _CAPITALISED.findall(t)})
        roll = rng.random()
        if hints and roll < 0.5:
            hinted = _phrases(hints[0]) or phrases
            text = f"I {rng.choice(_VERBS)} the {rng.choice(hinted)}"
        elif roll < 0.6 or not phrases:
            text = rng.choice(DISTRACTORS)
        elif roll < 0.7 and (codes or names):
            text = f"I say {rng.choice(codes + names)}"
        else:
            text = f"I {rng.choice(_VERBS)} the {rng.choice(phrases)}"
        return Text(text=text[: decision.max_length])


_CAPITALISED = re.compile(r"(?<=[a-z,] )[A-Z][a-z]{3,}")


def _phrases(text: str) -> list[str]:
    """Runs of one to three content words, as read ("emergency phone door")."""
    out: list[str] = []
    for chunk in re.split(r"[^A-Za-z0-9' -]+", text.lower()):
        run = [w for w in chunk.split() if w not in STOPWORDS and len(w) >= 3]
        for size in (1, 2, 3):
            out.extend(" ".join(run[i : i + size]) for i in range(len(run) - size + 1))
    return out


@lru_cache(maxsize=16)
def _walkthrough(source: str) -> SolverPlayer | None:
    try:
        return SolverPlayer(load_scenario(source))
    except ParlourError:
        return None


_EXPLORER = ExplorerPlayer()


def player_policy(view: PlayerView, decision: Decision, rng: Rng) -> Action:
    """The player strategy named by the config (``scripted_player``, shown in the view)."""
    if view.public.scripted_player == "solver":
        solver = _walkthrough(view.public.scenario)
        if solver is not None:
            return solver(view, decision, rng)
    return _EXPLORER(view, decision, rng)


#: The module's scripted policy for any seat, dispatched on the decision's purpose.
escape_policy = by_purpose(
    {"classify": keyword_classifier, "clarify": keyword_clarifier, "narrate": template_narrator},
    player_policy,
)


def policy_with_player(player: Policy) -> Policy:
    """The module policy with a chosen player, for picking the strategy per seat, e.g.
    ``ScriptedSeat(policy_with_player(ExplorerPlayer()), seed)`` or with a ``SolverPlayer``
    built from any scenario file."""

    def policy(view: AnyView, decision: Decision, rng: Rng) -> Action:
        if decision.purpose == "act":
            return player(view, decision, rng)
        return escape_policy(view, decision, rng)

    return policy


def _without(text: str, lines: tuple[str, ...]) -> str:
    for line in lines:
        text = text.replace(line, "")
    return text

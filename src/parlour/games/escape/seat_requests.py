"""The decisions and views each seat gets. Pure functions of explicit inputs, so the game,
the evaluator and the spoiler tests build exactly the same requests.

What each seat may see, by construction:

* classifier: the player's message, the *available* actions' descriptions (as options) and,
  as things it may not pick, the id and description of every action the room does not
  offer now (``ClassifierPrivate.unoffered``), and the room's public text (intro and world
  facts, as ``/look`` shows the player: ``ClassifierPrivate.room``); no consequence, hint,
  answer or transcript.
* narrator: intro, world, consequences already unlocked, this turn's brief (and hint) and
  the recent transcript; never a locked consequence or an answer.
* player: the public transcript (intro, own messages, narrations) and the ids of the
  actions it has already done; never a locked consequence or an answer.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from parlour.core.decisions import Decision, DecisionKind, Option, TextCheck
from parlour.core.events import Event
from parlour.core.text_rules import TextRules
from parlour.core.view import Facts, NoFacts, View
from parlour.games.escape.ask import ActAsk, ClassifyAsk, NarrateAsk
from parlour.games.escape.scenario import ASK_ID, LOOK_ID, NONE_ID, ScenarioAction

GAME = "escape"
NONE_LABEL = "none of these (a question, small talk, or any other attempt)"
LOOK_LABEL = "only looks at something (look at, examine, inspect, look through it); nothing changes"
CLASSIFY_PROMPT = (
    "Which of these actions does the player's message attempt? Choose look if the message "
    "only looks at or examines something no action lists; none if it only asks, describes "
    "or talks, or attempts something not listed."
)
ASK_LABEL = "two of these fit the message equally well: ask the player which one they meant"
CLARIFY_PROMPT = (
    "The player's message fits two of these actions equally well. Which two? The player "
    "will be asked which one they meant; nothing happens yet."
)
NARRATE_PROMPT = "Narrate what happens, using only the brief and the facts you were given."
#: The shared free-text guards every narration must pass (``seats/text_guard.py``).
NARRATE_CHECKS: tuple[TextCheck, ...] = ("prompt_copy", "repetition", "echo")
ACT_PROMPT = "What do you do next? (/help lists commands: /look, /hint, /done)"


class ClassifierFacts(Facts):
    """The player's message, while one waits to be classified."""

    message: str | None = None


class Unoffered(Facts):
    """An action the room does not offer now: its id and description, nothing more (never
    its consequence, hint or answer)."""

    id: str
    description: str


class Phrasing(Facts):
    """Another way players say an action (the scenario's ``also``): words, like its
    description, never its consequence, hint or answer."""

    id: str
    text: str


class ClassifierPrivate(Facts):
    """What the classifier knows that no other seat is told: the actions the room does not
    offer now (needs not met, or done and not repeatable), as things it may NOT pick.

    Why here and not among the decision's options: the options stay exactly the legal
    answers (available actions, ``ask``, ``none``), so legality and "which did you mean?"
    (built from options only) are unchanged. Why the view and not the decision's
    ``ClassifyAsk``: a view is the seat's own facts (``Facts``), the ask only what one
    decision asks. The classifier needs these
    because it is otherwise shown only what is offered now, so words fitting an action the
    room does not offer yet ("open the door" while the lift doors cannot be forced yet)
    read as the one it does (the little phone door). The classifier is an engine-side
    seat; descriptions of locked actions reach no other seat: the player and the narrator
    never get this view (``tests/escape/test_classifier_unoffered.py``)."""

    unoffered: tuple[Unoffered, ...] = ()
    #: The room as the player was told it: the intro and the world facts (``/look`` shows
    #: them), never a consequence, hint or answer. What the room calls its things ("a red
    #: valve wheel marked STEAM") tells which of them a player's word may mean; the
    #: descriptions alone may call a thing by another of its names ("the steam valve").
    room: tuple[str, ...] = ()
    #: The designer's other ways of saying each action (``also``), offered or not.
    phrasings: tuple[Phrasing, ...] = ()


class NarratorPublic(Facts):
    title: str


class NarratorPrivate(Facts):
    intro: str
    world: list[str]
    unlocked: list[str]
    #: this turn's brief and hint, while a narration is due
    brief: str | None = None
    hint: str | None = None


class PlayerFacts(Facts):
    title: str
    scenario: str
    turn: int
    max_turns: int
    done: list[str]
    #: which scripted player plays this seat when it is scripted
    scripted_player: str


class SpectatorFacts(Facts):
    title: str
    turn: int


class SpectatorReveal(Facts):
    done: list[str]
    available: list[str]
    brief: str | None
    hint: str | None


ClassifierView = View[ClassifierFacts, ClassifierPrivate]
NarratorView = View[NarratorPublic, NarratorPrivate]
PlayerView = View[PlayerFacts, NoFacts]
SpectatorView = View[SpectatorFacts, SpectatorReveal | NoFacts]


def option_for(action: ScenarioAction) -> Option:
    return Option(id=action.id, label=action.description)


def _as_options(available: Sequence[ScenarioAction | Option]) -> list[Option]:
    """Prebuilt ``Option`` objects as they are, actions as ``option_for`` makes them."""
    return [a if isinstance(a, Option) else option_for(a) for a in available]


NONE_OPTION = Option(id=NONE_ID, label=NONE_LABEL)
ASK_OPTION = Option(id=ASK_ID, label=ASK_LABEL)
LOOK_OPTION = Option(id=LOOK_ID, label=LOOK_LABEL)


def classify_decision(
    decision_id: str,
    available: Sequence[ScenarioAction | Option],
    message: str,
    *,
    ask: bool = False,
    asked: str | None = None,
    offered: Sequence[str] = (),
    look: bool = False,
) -> Decision:
    """Options: the available actions (id, description), then ``look`` (when ``look``: the
    game answers a look from the room's descriptions), then ``ask`` (when ``ask`` and at
    least two actions are available), then ``none``. Prebuilt ``Option`` objects are
    accepted so the game need not rebuild them every turn. After "which did you mean?",
    ``asked`` is the message the player was asked about and ``offered`` the two actions the
    question named: the message is the player's answer, read together with them."""
    options = _as_options(available)
    acts = len(options)
    if look:
        options.append(LOOK_OPTION)
    if ask and acts >= 2:
        options.append(ASK_OPTION)
    options.append(NONE_OPTION)
    return Decision(
        id=decision_id,
        seat="classifier",
        kind=DecisionKind.CHOOSE_ONE,
        purpose="classify",
        max_tokens=40,
        prompt=CLASSIFY_PROMPT if asked is None else f"{CLASSIFY_PROMPT} {REPLY_PROMPT}",
        options=tuple(options),
        context=_context(message, asked, offered),
    )


#: Added to the prompt when the message answers "which did you mean?".
REPLY_PROMPT = (
    "The message answers the game's question 'Which did you mean?' about an earlier "
    "message: read it together with that message and the two actions the question offered."
)


def _context(message: str, asked: str | None, offered: Sequence[str]) -> dict[str, object]:
    if asked is None:
        return ClassifyAsk(message=message).context()
    return ClassifyAsk(message=message, asked=asked, offered=list(offered)).context()


def clarify_decision(
    decision_id: str,
    available: Sequence[ScenarioAction | Option],
    message: str,
    *,
    asked: str | None = None,
    offered: Sequence[str] = (),
) -> Decision:
    """After ``ask``: the two available actions the message could mean (exactly two)."""
    options = tuple(_as_options(available))
    return Decision(
        id=decision_id,
        seat="classifier",
        kind=DecisionKind.CHOOSE_MANY,
        purpose="clarify",
        max_tokens=40,
        prompt=CLARIFY_PROMPT,
        options=options,
        min_choices=2,
        max_choices=2,
        context=_context(message, asked, offered),
    )


def ask_text(first: str, second: str) -> str:
    """The game's reply after ``ask``, from the two actions' own descriptions, numbered so
    that the player can answer with a number (in the terminal and on the web page alike)."""
    return (
        f"Which did you mean: (1) {first}, or (2) {second}? "
        "(Nothing has happened yet; answer 1 or 2, or say it in your words.)"
    )


def unoffered_for(action: ScenarioAction) -> Unoffered:
    return Unoffered(id=action.id, description=action.description)


def unoffered_actions(
    actions: Sequence[ScenarioAction | Unoffered], available: Collection[str]
) -> tuple[Unoffered, ...]:
    """Every action not available now (file order), as id and description only. Prebuilt
    ``Unoffered`` objects are accepted so the game need not rebuild them every turn."""
    offered = set(available)
    return tuple(
        a if isinstance(a, Unoffered) else unoffered_for(a) for a in actions if a.id not in offered
    )


def room_text(intro: str, world: Sequence[str]) -> tuple[str, ...]:
    """What the player is told of the room before any deed: the intro and the world facts
    (``/look`` repeats them). Only public text: the classifier gets nothing the player
    could not read."""
    return (intro, *world)


def phrasings_of(actions: Sequence[ScenarioAction]) -> tuple[Phrasing, ...]:
    """Every action's ``also`` phrasings, in file order."""
    return tuple(Phrasing(id=a.id, text=t) for a in actions for t in a.also)


def classifier_view(
    phase: str,
    message: str | None,
    unoffered: Sequence[Unoffered] = (),
    room: Sequence[str] = (),
    phrasings: Sequence[Phrasing] = (),
) -> ClassifierView:
    """``unoffered``: ``unoffered_actions`` of the same state the decision's options come
    from; ``room``: ``room_text`` of the scenario; ``phrasings``: ``phrasings_of`` its
    actions (the game and the evaluator both pass them, so they ask the same thing)."""
    return ClassifierView(
        game=GAME,
        seat="classifier",
        seat_name="Classifier",
        phase=phase,
        public=ClassifierFacts(message=message),
        private=ClassifierPrivate(
            unoffered=tuple(unoffered), room=tuple(room), phrasings=tuple(phrasings)
        ),
    )


def narrate_decision(
    decision_id: str,
    brief: str,
    hint: str | None,
    max_length: int,
    rules: TextRules | None = None,
) -> Decision:
    """``rules``: what the narration must carry and must not say (``faithful.py``)."""
    return Decision(
        id=decision_id,
        seat="narrator",
        kind=DecisionKind.FREE_TEXT,
        purpose="narrate",
        max_tokens=200,
        prompt=NARRATE_PROMPT,
        max_length=max_length,
        context=NarrateAsk(brief=brief, hint=hint or None).context(),
        checks=NARRATE_CHECKS,
        text_rules=rules,
    )


def narrator_view(
    *,
    phase: str,
    title: str,
    intro: str,
    world: Sequence[str],
    unlocked: Sequence[str],
    brief: str | None,
    hint: str | None,
    recent: Sequence[Event],
) -> NarratorView:
    private = NarratorPrivate(
        intro=intro, world=list(world), unlocked=list(unlocked), brief=brief, hint=hint or None
    )
    return NarratorView(
        game=GAME,
        seat="narrator",
        seat_name="Narrator",
        phase=phase,
        public=NarratorPublic(title=title),
        private=private,
        events=tuple(recent),
    )


def act_decision(decision_id: str, turn: int, max_turns: int, max_length: int) -> Decision:
    return Decision(
        id=decision_id,
        seat="player",
        kind=DecisionKind.FREE_TEXT,
        purpose="act",
        max_tokens=60,
        prompt=ACT_PROMPT,
        max_length=max_length,
        context=ActAsk(turn=turn, turns_left=max_turns - turn + 1).context(),
    )


def player_view(
    *,
    phase: str,
    title: str,
    source: str,
    turn: int,
    max_turns: int,
    done: Sequence[str],
    strategy: str,
    events: Sequence[Event],
) -> PlayerView:
    return PlayerView(
        game=GAME,
        seat="player",
        seat_name="Player",
        phase=phase,
        public=PlayerFacts(
            title=title,
            scenario=source,
            turn=turn,
            max_turns=max_turns,
            done=list(done),
            scripted_player=strategy,
        ),
        private=NoFacts(),
        events=tuple(events),
    )

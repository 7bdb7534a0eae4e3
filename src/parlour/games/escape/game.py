"""The escape game: a player types anything, a classifier maps it onto the available actions,
the engine decides what happened, and a narrator tells only what has been unlocked.

Turn t: ``t{t}:act`` (player, free text) → ``t{t}:classify`` (classifier, one of the
available actions or none) → ``t{t}:narrate`` (narrator, free text). The game ends after
the narration of an ending action, or after ``max_turns`` turns.

When two actions fit the message equally well the classifier may answer ``ask``: then
``t{t}:clarify`` (classifier, the two actions it hesitates between) and the game replies
"Which did you mean: (1) A, or (2) B?"; nothing happens and, like a command, it costs no
turn.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar, Literal

from pydantic import BaseModel

from parlour.core.actions import Action, Choice, Choices, Text
from parlour.core.commands import command
from parlour.core.decisions import Decision, Option
from parlour.core.errors import ParlourError
from parlour.core.events import Audience, Event, EventLog
from parlour.core.game import GameInfo, Result, SeatInfo
from parlour.core.game_base import SeededGame, require_config
from parlour.core.markers import SecretMarkers
from parlour.core.pending import PendingDecisions
from parlour.core.rng import Rng
from parlour.core.text_rules import TextRules
from parlour.core.view import AnyView, NoFacts
from parlour.games.escape import commands, faithful, looking, several, wording
from parlour.games.escape import seat_requests as req
from parlour.games.escape.availability import Frontier
from parlour.games.escape.config import EscapeConfig
from parlour.games.escape.hints import hint_order
from parlour.games.escape.resolve import (
    NO_EFFECT,
    NO_EFFECT_LINES,
    REPEAT_LINES,
    WRONG_LINES,
    Outcome,
    brief_for,
    resolve,
    wrong_text,
)
from parlour.games.escape.scenario import ASK_ID, LOOK_ID, NONE_ID, Scenario, ScenarioAction
from parlour.games.escape.validate import validate

Phase = Literal["act", "classify", "clarify", "narrate", "over"]


def plant_markers(scenario: Scenario, markers: SecretMarkers) -> Scenario:
    """Append a unique marker to every consequence (the only secrets a scenario has);
    while locked, no seat is entitled to one (``secret_markers`` drops unlocked ones)."""
    planted = tuple(
        a.model_copy(update={"consequence": a.consequence + markers.plant(f"secret:{a.id}", ())})
        for a in scenario.actions
    )
    return scenario.model_copy(update={"actions": planted})


class EscapeGame(SeededGame[EscapeConfig]):
    info: ClassVar[GameInfo] = GameInfo(
        name="escape",
        title="Escape",
        description="A causal-graph text adventure: type anything; the narrator tells only "
        "what your actions have unlocked.",
        min_seats=1,
        max_seats=1,
        simultaneous=False,
        imperfect_information=True,
    )

    def __init__(self, config: EscapeConfig, seed: int) -> None:
        problems = validate(config.scenario, warnings=False)
        if problems:
            raise ParlourError(
                f"scenario '{config.scenario.title}' has errors; first: {problems[0]} "
                f"(run `{command('escape validate')}` on it)"
            )
        self._config = config
        self._seed = seed
        self._markers = SecretMarkers(config.plant_markers, seed)
        self._scenario = plant_markers(config.scenario, self._markers)
        self._actions: dict[str, ScenarioAction] = {a.id: a for a in self._scenario.actions}
        self._options = {a.id: req.option_for(a) for a in self._scenario.actions}
        self._unoffered = tuple(req.unoffered_for(a) for a in self._scenario.actions)
        # The classifier's room text and phrasings: fixed for the game, built once.
        self._room = req.room_text(self._scenario.intro, self._scenario.world)
        self._phrasings = req.phrasings_of(self._scenario.actions)
        # The room's own action texts: a message is never split inside one (several.py).
        self._texts = tuple(t for a in self._scenario.actions for t in (a.description, *a.also))
        self._room_words = several.room_words((a.id, a.description) for a in self._scenario.actions)
        self._hint_key = hint_order(self._scenario)
        self._frontier = Frontier(self._scenario)
        self._log = EventLog()
        self._talk: list[Event] = []  # messages and narrations, for the narrator's window
        self._pending: tuple[Decision, ...] | None = None  # cache; cleared on every apply
        self._turn = 1
        self._phase: Phase = "act"
        self._message: str | None = None
        self._brief: str | None = None
        self._hint: str | None = None  # this turn's hint, as the narrator is to tell it
        self._hint_of: str | None = None  # the scenario's hint it tells
        # This turn's narration rules (faithful.py): public ones travel with the decision,
        # the locked words stay with the game.
        self._rules: TextRules | None = None
        self._locked: frozenset[str] = frozenset()
        self._stalled = 0
        self._ending: str | None = None
        self._timed_out = False
        self._commands = 0  # commands answered this turn (they cost no turn)
        self._asks = 0  # "which did you mean?" replies this turn (counted in _commands too)
        # The message the player was last asked about and the two actions offered: the
        # next message is the answer, classified together with them (until one acts).
        self._asked: str | None = None
        self._offered: tuple[str, ...] = ()
        # The deeds of the player's message still to come, in order (several.py): each
        # is played on the next turn once the one before it made something happen.
        self._queued: list[str] = []
        # Deeds dropped this turn because the one before them made nothing happen.
        self._dropped: list[str] = []
        # Deeds read together with the next this turn (a deed about nothing in the room).
        self._merged = 0
        # This turn's brief answers a look (a description, not something that happened).
        self._looked = False
        # Every sentence narrated so far, counted, and the RNG that words a told one anew
        # (wording.py): no sentence is told more than twice a game.
        self._told: Counter[str] = Counter()
        self._wording = Rng(seed)
        self._said: set[tuple[str, ...]] = set()  # every run of words narrated
        self._wrongs: Counter[str] = Counter()  # wrong answers tried, by action
        self._repeats: Counter[str] = Counter()  # repeatable actions done again, by action
        self._hinted: Counter[str] = Counter()  # hints narrated, and how often
        self._hints_used = 0
        self._hints_given: dict[str, int] = {}  # a hint /hint gave, and its number
        self._say("narration", "start", self._scenario.intro, "narrator", turn=0)

    @classmethod
    def new(cls, config: BaseModel, seed: int) -> EscapeGame:
        return cls(require_config(config, EscapeConfig, "escape"), seed)

    def _say(
        self,
        kind: str,
        phase: str,
        text: str,
        speaker: str,
        *,
        turn: int,
        extra: dict[str, Any] | None = None,
    ) -> None:
        """A public message or narration; also kept in the narrator's transcript window."""
        data: dict[str, Any] = {"turn": turn, **(extra or {})}
        event = self._log.emit(kind, phase, text, Audience.everyone(), speaker=speaker, data=data)
        self._talk.append(event)

    # -- protocol properties -----------------------------------------------------------

    @property
    def events(self) -> tuple[Event, ...]:
        return self._log.events

    @property
    def scenario(self) -> Scenario:
        """The scenario as played (with markers when planted)."""
        return self._scenario

    @property
    def done(self) -> tuple[str, ...]:
        return self._frontier.done

    def available(self) -> list[ScenarioAction]:
        return [self._actions[a] for a in self._frontier.available()]

    def seats(self) -> tuple[SeatInfo, ...]:
        return (
            SeatInfo(id="player", name="Player"),
            # SmolLM2-135M advances the story on questions and distractors (8.8% / 23.1% on
            # the labelled sets, docs/benchmarks.md); the keyword classifier is far better.
            SeatInfo(id="classifier", name="Classifier", system=True, needs_capable_model=True),
            # The 135M model's narration broke the engine's checks 71-78% of the time and was
            # replaced by the scenario's own text anyway (docs/benchmarks.md, "Faithful
            # narration"): with a small model the template narrator tells it, at no call.
            SeatInfo(id="narrator", name="Narrator", system=True, needs_capable_model=True),
        )

    # -- decisions ---------------------------------------------------------------------

    def _decision_id(self, step: str) -> str:
        # After a command the turn asks again, under a new id (t3:act, t3:act2, …).
        again = str(self._commands + 1) if step == "act" and self._commands else ""
        # After an ask the message is classified again (t3:classify2); a turn with no ask
        # keeps the ids stored games were recorded with.
        if step in ("classify", "clarify") and (self._asks or self._merged):
            again = str(self._asks + self._merged + 1)
        return f"t{self._turn}:{step}{again}"

    def pending(self) -> tuple[Decision, ...]:
        if self._pending is None:
            self._pending = self._build_pending()
        return self._pending

    def _available_options(self) -> list[Option]:
        """The options of the actions available now (built once per game, in frontier order)."""
        return [self._options[a] for a in self._frontier.available()]

    def _build_pending(self) -> tuple[Decision, ...]:
        if self._phase == "act":
            return (
                req.act_decision(
                    self._decision_id("act"),
                    self._turn,
                    self._config.max_turns,
                    self._config.act_max_length,
                ),
            )
        if self._phase == "classify":
            assert self._message is not None
            return (
                req.classify_decision(
                    self._decision_id("classify"),
                    self._available_options(),
                    self._message,
                    # Asking costs no turn, so it is bounded like commands are.
                    ask=self._commands < commands.MAX_PER_TURN,
                    asked=self._asked,
                    offered=self._offered,
                    look=True,
                ),
            )
        if self._phase == "clarify":
            assert self._message is not None
            return (
                req.clarify_decision(
                    self._decision_id("clarify"),
                    self._available_options(),
                    self._message,
                    asked=self._asked,
                    offered=self._offered,
                ),
            )
        if self._phase == "narrate":
            assert self._brief is not None
            return (
                req.narrate_decision(
                    self._decision_id("narrate"),
                    self._brief,
                    self._hint,
                    self._config.narrate_max_length,
                    self._rules,
                ),
            )
        return ()

    def apply(self, decision_id: str, action: Action) -> list[Event]:
        decision = PendingDecisions.of(self.pending()).get(decision_id)
        decision.check(action)
        self._pending = None
        start = len(self._log)
        if self._phase == "act":
            assert isinstance(action, Text)
            self._on_act(action.text)
        elif self._phase == "classify":
            assert isinstance(action, Choice)
            self._on_classify(action.option)
        elif self._phase == "clarify":
            assert isinstance(action, Choices)
            self._on_clarify(action.options)
        else:
            assert isinstance(action, Text)
            self._on_narrate(action.text)
        return self._log.since(start)

    def _on_act(self, text: str) -> None:
        command = commands.parse(text) if self._commands < commands.MAX_PER_TURN else None
        if command is not None:
            self._on_command(command, text)
            return
        self._say("message", "act", text, "player", turn=self._turn)
        if self._asked is not None:  # an answer to "which did you mean?": one deed
            self._message = text
        else:
            deeds = several.split_deeds(text, self._texts)
            self._message, self._queued = (deeds[0], deeds[1:]) if len(deeds) > 1 else (text, [])
        self._phase = "classify"

    def _on_command(self, command: commands.Command, text: str) -> None:
        """Answer a command from the scenario's own text; the turn stays open."""
        self._commands += 1
        self._log.emit(
            "command", "act", text, Audience.everyone(), speaker="player", data={"turn": self._turn}
        )
        if command == "hint":
            hint = self._next_hint()
            # Asking again before any progress repeats a hint: said so, and not counted.
            number = self._hints_given.get(hint) if hint is not None else None
            repeat = number is not None
            if hint is not None and number is None:
                self._hints_used += 1
                number = self._hints_given[hint] = self._hints_used
                self._stalled = 0
            reply = commands.hint_text(hint, number or 0, repeat=repeat)
        elif command == "look":
            reply = commands.look_text(self._scenario.intro, self._scenario.world)
        elif command == "done":
            reply = commands.done_text([self._actions[a].consequence for a in self.done])
        else:
            hints_left = self._next_hint() is not None
            reply = commands.help_text(self._turn, self._config.max_turns, hints_left)
        self._log.emit(
            "reply",
            "act",
            reply,
            Audience.everyone(),
            data={"turn": self._turn, "command": command, "hints_used": self._hints_used},
        )

    def _on_classify(self, choice: str) -> None:
        assert self._message is not None
        if choice == ASK_ID:
            self._phase = "clarify"
            return
        self._asked, self._offered = None, ()
        outcome = resolve(
            self._actions,
            self._frontier.available(),
            set(self._frontier.done),
            NONE_ID if choice == LOOK_ID else choice,
            self._message,
        )
        if (
            outcome.kind == "no_effect"
            and choice == NONE_ID
            and self._queued
            and several.passes_on(
                self._message,
                False,
                looking.in_sight(self._scenario, self._frontier.done),
                self._room_words,
            )
        ):
            # A deed that is only how the next is done ("pick up the handset and ask for
            # help"): read the two together, on this turn.
            self._message = f"{self._message} and {self._queued.pop(0)}"
            self._merged += 1
            return
        progressed = False
        if outcome.happened is not None:
            progressed = self._frontier.mark_done(outcome.happened)
            if self._actions[outcome.happened].ends_game:
                self._ending = outcome.happened
        self._stalled = 0 if progressed else self._stalled + 1
        self._hint_of = self._pick_hint() if self._ending is None else None
        self._brief = brief_for(outcome, self._actions)
        self._looked = False
        around = commands.looks_around(self._message)
        briefs: dict[str, tuple[int, int]] | None = None  # short lines to choose from
        if outcome.kind == "no_effect" and (choice == LOOK_ID or around):
            seen = looking.look_brief(self._scenario, self._frontier.done, self._message)
            self._brief = seen or commands.LOOK_BRIEF
            self._looked = seen is not None
        elif self._brief == NO_EFFECT:
            briefs = wording.least_told_of(NO_EFFECT_LINES, self._told)
        elif outcome.kind == "wrong_answer" and outcome.action_id is not None:
            briefs = self._wrong_briefs(outcome.action_id)
        elif outcome.kind == "repeat" and self._again(outcome.action_id) > 1:
            # The second time it is told in full; after that, in a short line.
            briefs = wording.least_told_of(REPEAT_LINES, self._told)
        if briefs is None and self._brief != commands.LOOK_BRIEF:
            self._brief = wording.vary(self._brief, self._told, self._wording)
        self._brief, self._hint = wording.freshest(
            briefs or {self._brief: (0, 0)},
            self._hint_wordings(self._hint_of),
            self._said,
            self._wording,
            lambda b, h: faithful.templated(b, h, self._config.narrate_max_length),
        )
        if self._ending is not None:
            self._queued = []
        elif outcome.happened is None and choice != LOOK_ID:
            # The deed made nothing happen: the ones after it must not happen alone.
            self._dropped, self._queued = self._queued, []
        self._set_rules(outcome)
        self._log.emit(
            "outcome",
            "classify",
            self._describe(choice, outcome),
            Audience.nobody(),
            data={
                "turn": self._turn,
                "choice": choice,
                "kind": outcome.kind,
                "action": outcome.action_id,
                "via": outcome.via,
                "hint": self._hint,
            },
        )
        self._phase = "narrate"

    def _set_rules(self, outcome: Outcome) -> None:
        """What this turn's narration must carry and must not say (``faithful.py``)."""
        assert self._brief is not None
        shown = "\n".join(
            [
                self._scenario.intro,
                *self._scenario.world,
                *(self._actions[a].consequence for a in self._frontier.done),
                self._brief,
                self._hint or "",
                *(e.text for e in self._recent()),
            ]
        )
        act = self._actions.get(outcome.action_id or "")
        wrong = wrong_text(act) if act is not None else None
        if outcome.kind == "wrong_answer" and wrong is not None and wrong not in self._brief:
            wrong = self._brief  # told again in a short line: that line is what is told
        # On a turn where nothing happened the narration must at least be about the deed.
        looked = self._brief == commands.LOOK_BRIEF
        deed = (self._message or "") if outcome.kind == "no_effect" and not looked else ""
        if self._looked:  # a description: the narration tells at least some of it
            deed = self._brief
        # The look brief is an instruction to the narrator ("Describe the place again"),
        # not story: its words must not license talk about the task (rule 5).
        story = shown.replace(commands.LOOK_BRIEF, "")
        self._rules = faithful.narration_rules(
            outcome.kind, self._brief, wrong=wrong, shown=shown, deed=deed, story=story
        )
        locked = [a.consequence for a in self._scenario.actions if not self._frontier.is_done(a.id)]
        self._locked = faithful.locked_words(locked, shown)

    def _fallback_brief(self) -> str:
        """What a replaced narration shows: the brief, or on a look turn the place itself
        (the look brief is an instruction to the narrator, not something to show)."""
        assert self._brief is not None
        if self._brief == commands.LOOK_BRIEF:
            return commands.look_text(self._scenario.intro, self._scenario.world)
        return self._brief

    def narration_problem(self, text: str) -> str | None:
        """Why the engine would not show ``text`` as this turn's narration, or None."""
        reasons = self._rules.problems(text) if self._rules is not None else []
        if faithful.mentions_locked(text, self._locked):
            reasons.append("it mentions something the player has not found out")
        return "; ".join(reasons) if reasons else None

    def _on_clarify(self, picked: tuple[str, ...]) -> None:
        """Ask the player which of two actions they meant; nothing happens, no turn passes."""
        self._commands += 1
        self._asks += 1
        if self._asked is None:  # a second ask is still about the first message
            self._asked = self._message
        self._offered = picked
        first, second = (self._actions[a].description for a in picked)
        self._log.emit(
            "reply",
            "act",
            req.ask_text(first, second),
            Audience.everyone(),
            data={"turn": self._turn, "command": "ask", "candidates": list(picked)},
        )
        self._message = None
        self._phase = "act"

    def _pick_hint(self) -> str | None:
        after = self._config.hint_after
        if after <= 0 or self._stalled < after:
            return None
        # A hint told twice is not told again (wording.py): the next one, or none.
        hint = self._next_hint(skip=self._told_hints())
        if hint is not None:
            self._stalled = 0
        return hint

    def _again(self, action_id: str | None) -> int:
        """Count one more repeat of ``action_id``; how many there have been."""
        self._repeats[action_id or ""] += 1
        return self._repeats[action_id or ""]

    def _wrong_briefs(self, action_id: str) -> dict[str, tuple[int, int]]:
        """How a wrong answer to ``action_id`` may be told (and how often each was): the
        whole attempt the first time, then a short line (``WRONG_LINES``, the least told
        first): the player has read what the room does on a wrong answer."""
        self._wrongs[action_id] += 1
        assert self._brief is not None
        if self._wrongs[action_id] == 1:
            return {self._brief: (0, 0)}
        return wording.least_told_of(WRONG_LINES, self._told)

    def _hint_wordings(self, hint: str | None) -> list[str | None]:
        """How ``hint`` may be told this turn: as the scenario words it the first time;
        told once already, as the action's ``hint_again``, else as a pointer at the thing
        the hint names (``wording.pointers``)."""
        if hint is None:
            return [None]
        if not self._hinted[hint]:
            return [hint]
        again = [a.hint_again for a in self._scenario.actions if a.hint == hint and a.hint_again]
        if again:
            return [again[0]]
        things = (*self._scenario.objects, *self._scenario.places)
        return list(wording.pointers(hint, things)) or [hint]

    def _told_hints(self) -> frozenset[str]:
        """Hints the narration has carried ``wording.MOST`` times already."""
        return frozenset(h for h, n in self._hinted.items() if n >= wording.MOST)

    def _next_hint(self, skip: frozenset[str] = frozenset()) -> str | None:
        """The scenario's hint for the available step nearest a good ending, if any."""
        candidates = [
            a
            for a in self.available()
            if a.hint and a.hint not in skip and not self._frontier.is_done(a.id)
        ]
        if not candidates:
            return None
        return min(candidates, key=lambda a: self._hint_key[a.id]).hint

    @staticmethod
    def _describe(choice: str, outcome: Outcome) -> str:
        what = {
            "done": f"{outcome.action_id} happened",
            "repeat": f"{outcome.action_id} happened again",
            "wrong_answer": f"{outcome.action_id} attempted with a wrong answer",
            "no_effect": "nothing happened",
        }[outcome.kind]
        by = " (by its answer)" if outcome.via == "answer" else ""
        return f"classifier chose {choice}; {what}{by}"

    def _on_narrate(self, text: str) -> None:
        # The engine, not the narrator, has the last word: an unfaithful narration is
        # replaced by the brief itself (the stored action keeps what the seat wrote).
        problem = self.narration_problem(text)
        extra: dict[str, Any] | None = None
        if problem is not None:
            assert self._brief is not None
            extra = {"replaced": problem, "written": text}
            text = faithful.templated(
                self._fallback_brief(), self._hint, self._config.narrate_max_length
            )
        self._say("narration", "narrate", text, "narrator", turn=self._turn, extra=extra)
        self._told.update(wording.sentences(text))
        self._said.update(wording.phrases(text))
        if self._hint_of is not None:
            self._hinted[self._hint_of] += 1
        self._message = None
        self._brief = None
        self._hint = None
        self._hint_of = None
        self._rules = None
        self._locked = frozenset()
        if self._ending is not None:
            act = self._actions[self._ending]
            tone = "a good ending" if act.is_good_ending else "a bad ending"
            self._log.emit(
                "ending",
                "over",
                f"The story ends: {act.ending_label} ({tone}).",
                Audience.everyone(),
                data={"ending": act.ending_label, "good": act.is_good_ending},
            )
            self._phase = "over"
        elif self._turn >= self._config.max_turns:
            self._timed_out = True
            self._log.emit(
                "ending",
                "over",
                f"Time ran out after {self._turn} turns.",
                Audience.everyone(),
                data={"ending": "time_ran_out", "good": False},
            )
            self._phase = "over"
        else:
            self._turn += 1
            self._commands = 0
            self._asks = 0
            self._merged = 0
            self._phase = "act"
            if self._queued:  # the message's next deed: played now, not asked for again
                self._message = self._queued.pop(0)
                self._say(
                    "message", "act", self._message, "player", turn=self._turn, extra={"then": True}
                )
                self._phase = "classify"
        if self._dropped:
            left = "; ".join(self._dropped)
            self._log.emit(
                "reply",
                "act",
                f"(You stop there: that did not work, so you did not go on to {left}.)",
                Audience.everyone(),
                data={"turn": self._turn, "command": "dropped", "dropped": list(self._dropped)},
            )
            self._dropped = []

    # -- views -------------------------------------------------------------------------

    def view(self, seat: str) -> AnyView:
        if seat == "player":
            return req.player_view(
                phase=self._phase,
                title=self._scenario.title,
                source=self._scenario.source,
                turn=self._turn,
                max_turns=self._config.max_turns,
                done=self._frontier.done,
                strategy=self._config.scripted_player,
                events=self._log.visible("player"),
            )
        if seat == "classifier":
            if self._phase not in ("classify", "clarify"):
                return req.classifier_view(self._phase, None)
            unoffered = req.unoffered_actions(self._unoffered, self._frontier.available())
            return req.classifier_view(
                self._phase, self._message, unoffered, self._room, self._phrasings
            )
        if seat == "narrator":
            return req.narrator_view(
                phase=self._phase,
                title=self._scenario.title,
                intro=self._scenario.intro,
                world=self._scenario.world,
                unlocked=[self._actions[a].consequence for a in self._frontier.done],
                brief=self._brief,
                hint=self._hint,
                recent=self._recent(),
            )
        raise ParlourError(f"no seat '{seat}' in escape; seats: player, classifier, narrator")

    def _recent(self) -> list[Event]:
        window = self._config.transcript_window
        if window == 0:
            return []
        return self._talk[-window:]

    def spectator_view(self, reveal: bool) -> req.SpectatorView:
        private: req.SpectatorReveal | NoFacts = NoFacts()
        if reveal:
            private = req.SpectatorReveal(
                done=list(self._frontier.done),
                available=self._frontier.available(),
                brief=self._brief,
                hint=self._hint,
            )
        public = req.SpectatorFacts(title=self._scenario.title, turn=self._turn)
        events = self._log.for_spectator(reveal)
        return req.SpectatorView.spectator("escape", self._phase, public, private, events)

    # -- end and audit -----------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self._phase == "over"

    @property
    def hints_used(self) -> int:
        return self._hints_used

    def result(self) -> Result | None:
        if self._phase != "over":
            return None
        hints = (
            f"; {self._hints_used} hint{'' if self._hints_used == 1 else 's'} used"
            if self._hints_used
            else ""
        )
        if self._ending is not None:
            act = self._actions[self._ending]
            good = act.is_good_ending
            return Result(
                winners=("player",) if good else (),
                summary=f"{act.ending_label} after {self._turn} turns "
                f"({'a good' if good else 'a bad'} ending{hints})",
                returns={"player": 1.0 if good else -1.0},
            )
        return Result(
            winners=(),
            summary=f"time ran out after {self._turn} turns{hints}",
            returns={"player": 0.0},
        )

    def snapshot(self) -> dict[str, Any]:
        return {
            "seed": self._seed,
            "turn": self._turn,
            "phase": self._phase,
            "message": self._message,
            "brief": self._brief,
            "hint": self._hint,
            "stalled": self._stalled,
            "commands": self._commands,
            "asks": self._asks,
            "asked": self._asked,
            "offered": list(self._offered),
            "queued": list(self._queued),
            "hints_used": self._hints_used,
            "done": list(self._frontier.done),
            "available": self._frontier.available(),
            "ending": self._ending,
            "timed_out": self._timed_out,
            "events": [e.model_dump(mode="json") for e in self._log.events],
        }

    def secret_markers(self) -> dict[str, frozenset[str]]:
        """Markers of consequences still locked; nobody may see those (unlocked ones: anyone)."""
        unlocked = {self._markers.name(f"secret:{a}") for a in self._frontier.done}
        return {m: a for m, a in self._markers.entitled().items() if m not in unlocked}

"""The scenario model: a designer's adventure as a graph of impactful actions.

Models are frozen and permissive about the *graph* (duplicate ids, unknown needs and
cycles are the validator's job, reported with codes) but strict about *types*, which the
loader enforces with file and line numbers.
"""

from __future__ import annotations

from parlour.core.content_file import ContentFileError, FrozenContent, NonEmpty
from parlour.core.lookup import by_id, ids_of

#: The classifier's "nothing happened" option id; no action may use it.
NONE_ID = "none"
#: The classifier's "two actions fit; ask the player which" option id; no action may use it.
ASK_ID = "ask"
#: The classifier's "the player looks at something; nothing happens" option id.
LOOK_ID = "look"


class ScenarioError(ContentFileError):
    """A scenario file that cannot be read; the message names file, line and key."""

    def __init__(self, message: str, *, file: str = "", line: int = 0, key: str = "") -> None:
        super().__init__(message, file=file, line=line)
        self.key = key


class ScenarioAction(FrozenContent):
    """One impactful action. Only ``consequence`` (and ``answer``) are secrets."""

    id: NonEmpty
    description: NonEmpty
    consequence: NonEmpty
    needs: tuple[str, ...] = ()
    ends_game: bool = False
    hint: str | None = None
    #: How the hint is told the second time (default: a short pointer at the thing the
    #: hint names, "Look again at the lantern."; ``wording.py``).
    hint_again: str | None = None
    repeatable: bool = False
    answer: str | None = None
    #: Narrator brief when the classifier picked this answer action but the text lacked it.
    wrong: str | None = None
    ending: str | None = None
    good: bool | None = None
    #: Other ways players say this action ("smash the crate"), read by the classifier
    #: besides ``description`` and, like it, shown to no player.
    also: tuple[NonEmpty, ...] = ()

    @property
    def ending_label(self) -> str:
        return self.ending or self.id

    @property
    def is_good_ending(self) -> bool:
        return self.ends_game and bool(self.good)


class Thing(FrozenContent):
    """A place or an object the player can look at. Not a secret: its description is what
    anyone standing there sees, so it must never tell a locked consequence or an answer."""

    name: NonEmpty
    #: What the player sees on "look at" / "examine" (the validator warns when missing).
    description: str | None = None
    #: Other words players use for it ("desk" for "writing desk").
    names: tuple[NonEmpty, ...] = ()
    #: Actions that must all have happened before it can be seen (a lantern inside a
    #: locked cabinet, the crawlspace under the trapdoor).
    needs: tuple[str, ...] = ()

    @property
    def all_names(self) -> tuple[str, ...]:
        return (self.name, *self.names)


class Scenario(FrozenContent):
    title: NonEmpty
    intro: NonEmpty
    world: tuple[str, ...] = ()
    #: Where the player can be, first the starting place (a later place is where the
    #: player is once its needs have happened).
    places: tuple[Thing, ...] = ()
    #: What the player can look at.
    objects: tuple[Thing, ...] = ()
    actions: tuple[ScenarioAction, ...]
    #: Where it came from (a shipped name or a path); informational, never read by rules.
    source: str = ""

    def action(self, action_id: str) -> ScenarioAction:
        return by_id(self.actions, action_id)

    @property
    def ids(self) -> tuple[str, ...]:
        return ids_of(self.actions)

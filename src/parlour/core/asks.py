"""What a decision asks beyond its prompt, options and schema: typed, per game.

``Decision.context`` is a JSON mapping because decisions cross processes as JSON (the
remote runtime stores pending decisions with ``model_dump_json``). Nothing writes or
reads it by string key: a game defines a ``GameAsk`` subclass per purpose with its own
``KEY``, puts it on the decision with ``context=ask.context()`` (several with
``contexts(a, b)``), and reads it back with ``TheAsk.of(decision)``, which validates.

``Hints`` is the one ask that is not a game's: readable text that seats and surfaces
(the terminal form, the web form, the LLM seat) show any game's decisions with.
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from parlour.core.decisions import Decision
from parlour.core.errors import ParlourError


class GameAsk(BaseModel):
    """One typed part of a decision's context, stored under the subclass's ``KEY``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    #: the key this ask is stored under in ``Decision.context``; unique per decision
    KEY: ClassVar[str]

    def context(self) -> dict[str, Any]:
        """The decision's ``context`` holding this ask alone (JSON values only)."""
        return {self.KEY: self.model_dump(mode="json")}

    @classmethod
    def find(cls, decision: Decision) -> Self | None:
        """The ask the decision carries under ``KEY``, validated; None when it has none."""
        raw = decision.context.get(cls.KEY)
        if raw is None:
            return None
        try:
            return cls.model_validate(raw)
        except ValidationError as err:
            raise ParlourError(
                f"decision {decision.id} carries an invalid {cls.__name__} ({cls.KEY!r}): {err}"
            ) from err

    @classmethod
    def of(cls, decision: Decision) -> Self:
        """The ask the decision carries, validated; a decision without one is a bug in
        whoever asks it for one, named here."""
        ask = cls.find(decision)
        if ask is None:
            raise ParlourError(f"decision {decision.id} carries no {cls.__name__} ({cls.KEY!r})")
        return ask


def contexts(*asks: GameAsk) -> dict[str, Any]:
    """One decision's ``context`` holding several asks (each ``KEY`` at most once)."""
    out: dict[str, Any] = {}
    for ask in asks:
        if ask.KEY in out:
            raise ParlourError(f"two asks under one key {ask.KEY!r}")
        out.update(ask.context())
    return out


class Hints(GameAsk):
    """Readable help any game may give with a decision; every field is optional.

    The terminal form (``seats/human_forms.py``) and the web form (``web/forms.py``) show
    ``labels``/``names`` next to a structured decision's options and fields, accept
    ``aliases`` as other ways to type an option and name ``forms`` when one is not
    understood; the human seat shows ``summary`` before asking; the LLM seat lets a free
    text answer run over several lines when ``multiline``.
    """

    KEY: ClassVar[str] = "hints"

    #: ``{property: {value: label}}`` shown next to each option
    labels: dict[str, dict[str, str]] = Field(default_factory=dict)
    #: ``{property: readable name}`` used as the field's heading
    names: dict[str, str] = Field(default_factory=dict)
    #: ``{property: {typed form: [value, ...]}}``: other ways to type an option
    aliases: dict[str, dict[str, list[str]]] = Field(default_factory=dict)
    #: a phrase naming the accepted ways to answer, used in the error message
    forms: str = ""
    #: a block of text shown before the questions
    summary: str = ""
    #: a free text answer may hold several lines (diaries)
    multiline: bool = False
    #: ``{property: [[heading, [value, ...]], ...]}``: the order to show a property's
    #: options in, in groups (likely ones first; "" for no heading); options not listed
    #: follow in the schema's order. Only how they are shown: what is legal is the schema.
    groups: dict[str, list[tuple[str, list[str]]]] = Field(default_factory=dict)

    def shown(self, name: str, options: list[Any]) -> list[tuple[str, Any]]:
        """``(heading, option)`` in the order to show them; every option exactly once."""
        out: list[tuple[str, Any]] = []
        seen: set[Any] = set()
        valid = set(options)
        for heading, values in self.groups.get(name, []):
            for value in values:
                if value in valid and value not in seen:
                    out.append((heading, value))
                    seen.add(value)
        rest = "other" if out else ""
        out += [(rest, o) for o in options if o not in seen]
        return out

    @classmethod
    def of(cls, decision: Decision) -> Self:
        """The decision's hints; a decision without any has the empty ones."""
        return cls.find(decision) or cls()

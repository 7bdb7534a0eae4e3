"""``Forkable``: a deep copy that shares immutable attributes and forks everything else."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict

from parlour.core.events import Audience, EventLog
from parlour.core.game import Forkable, immutable


class _Content(BaseModel):
    model_config = ConfigDict(frozen=True)

    names: tuple[str, ...]


class _Loose(BaseModel):
    names: list[str]


@dataclass(frozen=True)
class _Point:
    x: int


@dataclass
class _State(Forkable):
    content: _Content
    scores: dict[str, int] = field(default_factory=dict)
    records: list[_Content] = field(default_factory=list)
    nested: dict[str, list[str]] = field(default_factory=dict)
    log: EventLog = field(default_factory=EventLog)


class _Game(Forkable):
    def __init__(self) -> None:
        self.config = _Content(names=("a", "b"))
        self.loose = _Loose(names=["a"])
        self.state = _State(
            content=self.config, scores={"a": 1}, records=[self.config], nested={"a": ["x"]}
        )
        self.seen: list[str] = ["a"]
        self.same = self.seen  # an alias stays one list in the fork


def test_immutable_values_are_told_from_mutable_ones() -> None:
    frozen = _Content(names=("a",))
    assert all(immutable(v) for v in (None, 1, 2.5, "s", b"b", frozen, _Point(1), (1, frozen)))
    assert not any(immutable(v) for v in ([1], {"a": 1}, {1}, (1, [2]), _Loose(names=[])))


def test_a_fork_shares_frozen_values_and_copies_what_play_changes() -> None:
    game = _Game()
    game.state.log.emit("note", "setup", "hello", Audience.everyone())
    fork = copy.deepcopy(game)
    assert fork is not game and isinstance(fork, _Game)
    assert fork.config is game.config  # shared, not copied
    assert fork.state is not game.state and fork.state.content is game.config
    assert fork.loose is not game.loose  # a mutable model is copied
    assert fork.state.records is not game.state.records
    assert fork.state.records[0] is game.config  # a frozen record in a list is shared
    assert fork.same is fork.seen and fork.seen is not game.seen
    fork.state.scores["a"] = 5
    fork.state.nested["a"].append("y")
    fork.seen.append("b")
    fork.loose.names.append("b")
    fork.state.log.emit("note", "setup", "only in the fork", Audience.everyone())
    assert game.state.scores == {"a": 1} and game.seen == ["a"] and game.loose.names == ["a"]
    assert game.state.nested == {"a": ["x"]}
    assert [e.text for e in game.state.log.events] == ["hello"]
    assert [e.text for e in fork.state.log.events] == ["hello", "only in the fork"]

"""A new player's two first surprises: ``--as Ines`` must seat Ines whatever the seed dealt,
and a ``/command`` typed before the chat must be answered, never posted as their answer."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from parlour.core.actions import Text
from parlour.core.conformance import check
from parlour.core.errors import ParlourError
from parlour.core.events import Event
from parlour.core.rng import Rng, hash_seed
from parlour.games.missing import MODULE, MissingConfig, MissingGame
from parlour.runtime import session as sessions
from parlour.runtime.store import Store, db_url
from tests.missing.helpers import full, scripted

#: Seeds whose default five-player deal of Lantern Quay leaves Ines out (checked below).
INES_LEFT_OUT = (3, 11)


def _deal(game: MissingGame) -> dict[str, str]:
    return {s.id: s.name for s in game.seats()}


def _store(tmp_path: Path) -> Store:
    return Store(db_url(str(tmp_path / "g.sqlite")))


@pytest.mark.parametrize("seed", INES_LEFT_OUT)
def test_as_a_character_the_seed_did_not_deal_seats_that_character(
    tmp_path: Path, seed: int
) -> None:
    dealt = _deal(MissingGame(full(5), seed))
    assert "Ines" not in dealt.values()
    plan = sessions.plan(
        _store(tmp_path), "missing", seed=seed, model="scripted", human="Ines", probe=False
    )
    seated = _deal(plan.game)  # type: ignore[arg-type]
    (human,) = plan.humans
    assert seated[human] == "Ines"
    # One seat's card was replaced; every other seat keeps the card the seed dealt it.
    changed = [s for s in dealt if dealt[s] != seated[s]]
    assert changed == [human]
    # Deterministic: the same seed seats Ines at the same place, with the same drives.
    again = sessions.plan(
        _store(tmp_path), "missing", seed=seed, model="scripted", human="ines", probe=False
    )
    assert again.humans == plan.humans and _deal(again.game) == seated  # type: ignore[arg-type]
    views = [plan.game.view(s).private for s in seated]
    assert [v.drive for v in views] == [again.game.view(s).private.drive for s in seated]


def test_as_a_dealt_character_keeps_the_deal_and_skips_the_pick(tmp_path: Path) -> None:
    seed = next(s for s in range(20) if "Ines" in _deal(MissingGame(full(5), s)).values())
    dealt = _deal(MissingGame(full(5), seed))
    plan = sessions.plan(
        _store(tmp_path), "missing", seed=seed, model="scripted", human="Ines", probe=False
    )
    assert _deal(plan.game) == dealt  # type: ignore[arg-type]
    (human,) = plan.humans
    # Naming the character is the choice: no "pick your character" question follows.
    assert all(d.purpose != "pick" for d in plan.game.pending())
    assert plan.game.view(human).private.name.startswith("Ines")
    # A seat number still leaves the choice to the table.
    by_number = sessions.plan(
        _store(tmp_path), "missing", seed=seed, model="scripted", human="2", probe=False
    )
    assert by_number.humans == ("p2",)
    assert any(d.purpose == "pick" and d.seat == "p2" for d in by_number.game.pending())


def test_a_name_in_no_card_lists_the_characters_one_can_play(tmp_path: Path) -> None:
    with pytest.raises(ParlourError) as err:
        sessions.plan(_store(tmp_path), "missing", seed=3, model="scripted", human="Zed")
    text = str(err.value)
    assert "'Zed'" in text and "\n" not in text
    town = full(5).town
    assert all(c.name.split()[0] in text for c in town.characters)  # the whole cast, not seats
    with pytest.raises(ParlourError, match=r"you can play: Ines, Bram, Caspar$"):
        sessions.plan(
            _store(tmp_path),
            "missing",
            seed=3,
            model="scripted",
            human="Hollis",
            options={"cards": "ines,bram,caspar"},
        )


def test_the_cli_error_is_one_line_and_nothing_is_stored(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    args = ["-m", "parlour", "play", "missing", "--as", "Zed", "--model", "scripted"]
    done = subprocess.run(
        [sys.executable, *args, "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode != 0
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert len(lines) == 1 and "no character 'Zed'" in lines[0] and "Ines" in lines[0]
    assert Store(db_url(str(db))).list_games(10) == []


def _person_at(game: MissingGame, seat: str, purpose: str) -> None:
    """Play every seat by script until ``seat`` is asked ``purpose``."""
    while not any(d.seat == seat and d.purpose == purpose for d in game.pending()):
        decision = game.pending()[0]
        rng = Rng(hash_seed(game.seed, decision.id))
        game.apply(decision.id, MODULE.policy(game.view(decision.seat), decision, rng))


def _ask(game: MissingGame, seat: str, purpose: str, text: str) -> list[Event]:
    decision = next(d for d in game.pending() if d.seat == seat and d.purpose == purpose)
    return game.apply(decision.id, Text(text=text))


PHASES = [
    ("background", "characters"),
    ("secret", "characters"),
    ("introduction", "intro"),
    ("relationship", "relationships"),
    ("suspicion", "suspicions"),
    ("epilogue", "epilogue"),
]


@pytest.mark.parametrize(("purpose", "phase"), PHASES)
def test_commands_before_the_chat_are_answered_privately_not_posted(
    purpose: str, phase: str
) -> None:
    game = MissingGame(full(5, people=["p2"], cards="ines,priya,bram,caspar,maud"), 7)
    _person_at(game, "p2", purpose)
    asked = next(d for d in game.pending() if d.seat == "p2")
    said: list[Event] = []
    for line in ("/who", "/time", "/help", "/search cinema", " /WHO "):
        said += _ask(game, "p2", purpose, line)
    assert [e.kind for e in said] == ["reply"] * 5
    assert all(e.to == ("p2",) and e.phase == phase for e in said)
    assert "Priya" in said[0].text and "messages" in said[0].text  # /who works
    assert "/search PLACE" in said[2].text  # /help names what is coming
    assert "not available until the chat starts" in said[3].text or phase == "epilogue"
    # Still their turn, under a fresh id (every stored action answers a distinct decision).
    again = next(d for d in game.pending() if d.seat == "p2")
    assert again.purpose == purpose and again.id != asked.id
    assert "/who" in asked.prompt and "/who" in again.prompt  # the person is told of them
    answer = "You were the last one to see her at the quay." if phase == "characters" else "Hi."
    events = _ask(game, "p2", purpose, answer)
    assert any(answer in e.text for e in events)
    shown = [e for e in game.events if e.speaker == "p2" or e.kind in (purpose, "message")]
    assert not any(e.text.lstrip().startswith("/") for e in shown)
    assert not any("Your " in e.text and ": /" in e.text for e in game.events)


def test_a_model_seat_is_asked_as_before() -> None:
    game = scripted(full(5, people=["p2"], cards="ines,priya,bram,caspar,maud"), 7, until="intro")
    (first,) = game.pending()
    assert first.id == "intro:p1" and "/who" not in first.prompt


def _claimed(seed: int) -> MissingConfig:
    seat = next(s.id for s in MissingGame(full(5, claims="ines"), seed).seats() if s.name == "Ines")
    return full(5, claims="ines", people=[seat])


def test_conformance_with_a_claimed_character_and_a_person() -> None:
    report = check(
        MODULE,
        seeds=(3,),  # a full-town game of random play is long: one seed, replayed
        configs=_claimed,
        replay_seeds=(3,),
        leak_seeds=(),
        decision_seeds=(),
    )
    assert report.games_terminated == 1

"""One talk-quality measure for every game (issue 30): the rules on hand-made lines, then
the measure on the recorded embedded-model games in ``tests/fixtures/`` (real SmolLM2
output), each figure checked against the stored rows it comes from."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from parlour.core.events import Audience, Event
from parlour.evals.talk_games import score_game
from parlour.evals.talk_quality import (
    Answer,
    TalkReport,
    TalkScore,
    debris,
    link_answers,
    repeated_in_game,
    score_talk,
    shared_openers,
    tokens,
)
from parlour.games import registry
from parlour.runtime.store import Store, db_url

FIXTURES = Path(__file__).parents[1] / "fixtures"


# -- the rules ------------------------------------------------------------------------


def test_debris_names_each_kind_and_passes_plain_talk() -> None:
    assert debris("I saw Arlo at the pier, and he looked scared.") == []
    assert debris("") == ["empty"] and debris("  …  ") == ["empty"]
    assert debris("I vote <b>Kenji</b>.") == ["tag"]
    assert debris("Fine.<|im_end|> Go.") == ["tag"]
    assert debris("<speech>I vote Kenji.</speech>") == ["tag", "cut-off"]
    assert debris("The **key** is here.") == ["markup"]
    assert debris("Roll `d20` now.") == ["markup"]
    assert debris("The note says {name}.") == ["markup"]
    assert debris("Priya Okafor: I never said that.") == ["label"]
    assert debris("Chat: Arlo Penn, a movie plot.") == ["label"]
    # a name opening a sentence with a comma is talk, not a label
    assert debris("Priya, where were you?") == []
    assert debris("Her father owned the old lighth") == ["cut-off"]
    # a template or a framed clause is not a model's prose: no cut word to look for
    assert debris("I open the drawer of the desk", sentence=False) == []
    assert debris('She said "run."') == [] and debris("(Perhaps the door.)") == []
    rules = "Answer in one sentence. Never mention what was said on social media today."
    copy = "You must never mention what was said on social media today."
    assert debris(copy, rules) == ["instructions"]
    assert debris(copy) == []  # without the call's words, no copy is looked for


def test_a_repeat_is_the_second_saying_across_lines_and_seats() -> None:
    texts = [
        "Ok. Let's not panic about this.",
        "Where were you last night?",
        "Ok. Let's not panic, Dot.",  # 4-gram "ok let's not panic" said before
        "Stay stay stay stay stay.",  # repeats itself
        "Nothing more to say.",
    ]
    got = repeated_in_game(texts)
    assert got[0] is None and got[1] is None and got[4] is None
    assert got[2] == ("ok", "let's", "not", "panic")
    assert got[3] == ("stay",) * 4


def test_openers_are_shared_only_across_voices() -> None:
    lines = [
        ("p1", "I think Arlo ran."),
        ("p1", "I think so too."),  # the same voice: not shared
        ("p2", "Where is the van?"),
        ("p3", "Where is the key?"),
        ("p3", "No."),  # shorter than an opener
    ]
    assert shared_openers(lines) == [False, False, True, True, False]


def _answer(seat: str, did: str, *texts: str, choice: bool = False, fb: bool = False) -> Answer:
    return Answer(seat, did, texts, choice, fb, None)


def test_lines_link_to_the_answer_that_wrote_them() -> None:
    answers = [
        _answer("p1", "r1:say:p1", "Where were you?\nI was at the pier."),
        _answer("p2", "r1:say:p2", "Not telling.", fb=True),
        _answer("p1", "d1:speak:p1:1", choice=True),
        _answer("p1", "r2:say:p1", "Where were you?"),
    ]
    lines = [
        ("p1", "Where were you?", ""),  # part 1 of the first answer
        ("p1", "I was at the pier.", ""),  # part 2: the same answer
        ("p2", "Not telling.", ""),
        ("p1", "I accuse Dot.", ":speak:"),  # rendered from the choice
        ("p1", "Where were you?", ""),  # the same words again: the later answer
        ("p3", "Hello there.", ""),  # nobody's answer
    ]
    linked = link_answers(lines, answers)
    assert [a.decision_id if a else None for a in linked] == [
        "r1:say:p1",
        "r1:say:p1",
        "r1:say:p2",
        "d1:speak:p1:1",
        "r2:say:p1",
        None,
    ]
    scores = score_talk([(i, s, s, t, r) for i, (s, t, r) in enumerate(lines)], answers)
    assert [s.fallback for s in scores] == [False, False, True, False, False, None]


def test_cut_words_are_looked_for_in_model_prose_only() -> None:
    model = Answer("p1", "a", ("I saw her at the pier and",), False, False, "", model=True)
    script = Answer("p2", "b", ("I open the drawer",), False, False, None, model=False)
    fell = Answer("p3", "c", ("Nothing happens then",), False, True, None, model=False)
    lines = [
        (0, "p1", "p1", "I saw her at the pier and", ""),
        (1, "p2", "p2", "I open the drawer", ""),
        (2, "p3", "p3", "Nothing happens then", ""),
        (3, "p1", "p1", "I saw her at the pier and", ""),
    ]
    scores = score_talk(lines, [model, script, fell], [False, False, False, True])
    assert [s.debris for s in scores] == [("cut-off",), (), (), ()]


# -- real stored games ------------------------------------------------------------------


@dataclass(frozen=True)
class Scored:
    """A recorded game's talk report and line scores, and its database read as stored."""

    report: TalkReport
    scores: list[TalkScore]
    raw: sqlite3.Connection

    def count(self, where: str) -> int:
        """Stored events matching the SQL condition ``where``."""
        return int(self.raw.execute(f"select count(*) from events where {where}").fetchone()[0])


@pytest.fixture()
def scored(request: pytest.FixtureRequest) -> Iterator[Scored]:
    """The one game of the recorded database ``request.param`` (in tests/fixtures), scored."""
    path = FIXTURES / str(request.param)
    st = Store(db_url(str(path)))
    raw = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    (game_id,) = raw.execute("select id from games").fetchone()
    yield Scored(*score_game(st, game_id), raw)
    raw.close()
    st.close()


def _fallback_texts(raw: sqlite3.Connection) -> list[tuple[str, str]]:
    """(seat, text) of every stored free-text answer the fallback policy gave."""
    rows = raw.execute(
        "select seat, json_extract(action, '$.text') from actions "
        "where by like '%fallback%' and json_extract(action, '$.kind') = 'text'"
    ).fetchall()
    return [(seat, text) for seat, text in rows]


@pytest.mark.parametrize("scored", ["missing_local.sqlite"], indirect=True)
def test_missing_recorded_game(scored: Scored) -> None:
    report, scores = scored.report, scored.scores
    # one line per message, however many texts it was sent as
    messages = scored.count(
        "kind = 'message' and speaker != '' and coalesce(json_extract(data, '$.part'), 1) = 1"
    )
    setup = scored.count(
        "speaker != '' and kind in ('introduction', 'relationship', 'suspicion', 'epilogue')"
    )
    assert report.lines == messages + setup and report.unlinked == 0
    # a line is the fallback's exactly when the fallback's stored answer holds its words
    fell = _fallback_texts(scored.raw)
    for s in scores:
        theirs = any(
            seat == s.seat and " ".join(tokens(s.text)) in " ".join(tokens(text))
            for seat, text in fell
        )
        assert s.fallback is theirs, s.text
    assert report.fallback == sum(s.fallback is True for s in scores)
    # recorded in acts (issue 30): the game words every line the model picks, so a reader
    # sees no debris, and each wording is the one that repeats least of what was said
    # (this recording, mi-40f90a4cba5e0d40: 1 of 61 lines repeats a 4-gram, against ~47% in
    # free text); issue 30's target is under 10%
    assert report.debris == 0
    assert report.repeated < 0.10 * report.lines


@pytest.mark.parametrize("scored", ["campaign_local.sqlite"], indirect=True)
def test_campaign_recorded_game(scored: Scored) -> None:
    report, scores, raw = scored.report, scored.scores, scored.raw
    npc_lines = scored.count("kind = 'line'")
    spoken = scored.count("kind in ('narration', 'message')")
    # a check the engine's rule called (risks.py) says the rule's words: nobody's talk
    checks = raw.execute("select data from events where kind = 'check'").fetchall()
    by_rule = sum('"rule": true' in data for (data,) in checks)
    assert by_rule >= 1
    assert report.lines == npc_lines + spoken + len(checks) - by_rule
    assert report.unlinked == 0
    assert not any(s.seat == "game-director" for s in scores)
    # NPC lines: the scene director's answer, in the NPC's voice, without the name frame
    npc = [s for s in scores if s.voice == "priya"]
    assert len(npc) == npc_lines and all(s.seat == "scene-director" for s in npc)
    assert not any(s.text.startswith("Priya Okafor:") for s in npc)
    # the fallback's lines are exactly the scene director's answers the fallback gave
    fell = raw.execute(
        "select count(*) from actions where by = 'fallback' and seat = 'scene-director'"
    ).fetchone()[0]
    assert fell >= 1 and report.fallback == fell
    assert all(not s.debris for s in scores if s.fallback)
    # what reached the player of this recording: NPC lines cut off at the length limit,
    # and the model's player opening its message with a label ("Reminders: ...")
    assert any("cut-off" in s.debris for s in npc)
    labelled = [s for s in scores if "label" in s.debris]
    assert labelled and all(s.seat == "player" for s in labelled)
    assert report.debris_by_kind["label"] == len(labelled)


@pytest.mark.parametrize("scored", ["werewolf_local.sqlite"], indirect=True)
def test_werewolf_recorded_game(scored: Scored) -> None:
    report, scores, raw = scored.report, scored.scores, scored.raw
    kinds = scored.count(
        "speaker != '' and kind in ('speech', 'wolf_chat', 'diary', 'vote_reason')"
    )
    assert report.lines == kinds and report.unlinked == 0
    # vote reasons are scored as said, without the game's "Your reason for voting X:" frame
    assert not any(s.text.startswith("Your reason for voting") for s in scores)
    # the one fallback line is the fallback's stored speech
    ((seat, text),) = _fallback_texts(raw)
    (fb,) = [s for s in scores if s.fallback]
    assert (fb.seat, fb.text) == (seat, text)
    # rendered speech acts are the game's words: no instruction copy is looked for in them
    acts = raw.execute(
        "select seq from events where json_extract(data, '$.act') is not null"
    ).fetchall()
    assert acts and all("instructions" not in s.debris for s in scores if (s.seq,) in acts)


def test_escape_hands_its_narrator_and_player_lines() -> None:
    from tests.escape.helpers import config, play

    module = registry.load("escape")
    game = module.game.new(config("ghost_room"), 3)
    scripted = module.policy
    play(game, {s.id: scripted for s in game.seats()}, 3)  # type: ignore[arg-type]
    assert module.metrics is not None and module.metrics.talk is not None
    lines = module.metrics.talk(game.events)
    narrated = [e for e in game.events if e.kind == "narration"]
    assert {ln.seat for ln in lines} <= {"narrator", "player"}
    assert len([ln for ln in lines if ln.seat == "narrator"]) == len(narrated) > 0


def test_a_game_without_a_talk_hook_is_read_by_speaker() -> None:
    from parlour.evals.talk_games import default_talk

    events = [
        Event(seq=0, kind="note", phase="p", audience=Audience.everyone(), text="Setup."),
        Event(seq=1, kind="say", phase="p", audience=Audience.everyone(), text="Hi.", speaker="a"),
    ]
    assert [(ln.seq, ln.seat, ln.text) for ln in default_talk(events)] == [(1, "a", "Hi.")]

"""Fresh wording (``wording.py``): the scripted player's acts in several wordings that mean
the same to the game, NPCs reporting what the player said instead of quoting it, a place
told of before not described again, and games stored before it worded as they were."""

from __future__ import annotations

import pytest

from parlour.evals.talk_quality import repeated_ngram, tokens
from parlour.games.campaign import make_config
from parlour.games.campaign.loader import load_campaign
from parlour.games.campaign.policies import topic_of
from parlour.games.campaign.remembering import asks_to_recall
from parlour.games.campaign.risks import risk_of
from parlour.games.campaign.talk_lines import talk_lines
from parlour.games.campaign.wording import (
    PLAYER_ACTS,
    REPORT_WORDS,
    first_name,
    goes_somewhere,
    reported,
)

from .helpers import scripted_game

NIGHT_SCHOOL = load_campaign("night_school")
NPCS = [n.name for n in NIGHT_SCHOOL.npcs]


def _said(act: str, npc: str) -> str:
    return act.format(npc=npc, first=first_name(npc), place="the car park")


@pytest.mark.parametrize("act", PLAYER_ACTS, ids=lambda a: a[0][:30])
def test_every_wording_of_an_act_means_the_same_to_the_game(act: tuple[str, ...]) -> None:
    for npc in NPCS:
        plain = _said(act[0], npc)
        for wording in act[1:]:
            line = _said(wording, npc)
            assert topic_of(line) == topic_of(plain), line
            assert risk_of(line, NIGHT_SCHOOL) == risk_of(plain, NIGHT_SCHOOL), line
            assert asks_to_recall(line) == asks_to_recall(plain), line
            assert goes_somewhere(line) == goes_somewhere(plain), line
            assert first_name(npc) in line or "{first}" not in wording, line
            assert repeated_ngram(line) is None, line


@pytest.mark.parametrize(
    ("message", "topic"),
    [
        ("Dov Sayer, the lights are off.", "default"),  # "Sayer" is not "say"
        ("Show me the journal.", "tell"),  # "show" is not "how"
        ("I fold the whole page.", "default"),  # "whole" is not "who"
        ("I asked you twice.", "ask"),  # a plain ending
        ("Tomas, I'm threatening nobody.", "threat"),
        ("Could you keep this between us", "help"),
        ("Where were you?", "ask"),
    ],
)
def test_a_topic_is_a_whole_word_of_the_message(message: str, topic: str) -> None:
    assert topic_of(message) == topic


def test_every_narrated_act_is_reported_in_the_past() -> None:
    """An NPC reports "I crouch at …" back as "you crouched at …", never "you said you
    crouch …": every verb a narrated wording opens with is in the reporting table."""
    for act in PLAYER_ACTS:
        for wording in act:
            if wording.startswith("I "):
                line = _said(wording, "Priya Okafor")
                assert not reported(line, "Priya Okafor").startswith("you said"), line


def test_first_name_skips_a_title() -> None:
    assert first_name("Dr. Wren Halloway") == "Wren"
    assert first_name("Priya Okafor") == "Priya"


@pytest.mark.parametrize(
    ("said", "npc", "others", "report"),
    [
        (
            "I tell Tomas Kell that I have to leave before sunrise.",
            "Tomas Kell",
            (),
            "you told me that you have to leave before sunrise",
        ),
        (
            "I ask Dr. Wren Halloway whether they saw anything strange last week.",
            "Dr. Wren Halloway",
            (),
            "you asked me whether I saw anything strange last week",
        ),
        (
            "I go to the corridor to look around.",
            "Priya Okafor",
            (),
            "you went to the corridor to look around",
        ),
        (
            "Dov, what are you working on tonight?",
            "Dov Sayer",
            (),
            "you asked me what am I working on tonight",
        ),
        (
            "Dov, what are you working on tonight?",
            "Tomas Kell",
            ("Dov Sayer",),
            "you asked Dov what are they working on tonight",
        ),
        ("Please, Priya, help me.", "Priya Okafor", (), "you said please, Priya, help you"),
        (
            "I let Dov know I can't stay late; I have to leave before the sun is up.",
            "Dov Sayer",
            (),
            "you let me know you can't stay late; you have to leave before the sun is up",
        ),
    ],
)
def test_an_npc_reports_what_the_player_said(
    said: str, npc: str, others: tuple[str, ...], report: str
) -> None:
    assert reported(said, npc, others) == report


def test_a_long_report_is_cut_at_a_word_and_ends_its_sentence_there() -> None:
    said = (
        "I think the third pipe from the left hisses like a kettle, and the fourth one "
        "knocks twice whenever the old boiler starts up at night."
    )
    report = reported(said, "Tomas Kell")
    assert report == (
        "you said you think the third pipe from the left hisses like a kettle, and the "
        "fourth one knocks twice whenever the…"
    )
    assert len(report.split()) == REPORT_WORDS + 2  # "you said", then the words kept


def test_new_games_word_afresh_and_a_stored_config_does_not() -> None:
    assert make_config(None, {}).fresh_wording
    assert not make_config(None, {"fresh_wording": False}).fresh_wording
    # a config stored before the field existed reads as off: it replays as it was worded
    stored = make_config(None, {}).model_dump()
    del stored["fresh_wording"]
    assert not type(make_config(None, {})).model_validate(stored).fresh_wording


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fresh_wording_repeats_less_and_no_npc_quotes_the_players_line(seed: int) -> None:
    def repeated(game_lines: list[str]) -> int:
        said: set[tuple[str, ...]] = set()
        count = 0
        for line in game_lines:
            grams = {tuple(t) for t in _grams(tokens(line))}
            count += bool(grams & said)
            said |= grams
        return count

    fresh = scripted_game(seed, sessions=2, turns_per_session=5)
    plain = scripted_game(seed, sessions=2, turns_per_session=5, fresh_wording=False)
    new = [t.text for t in talk_lines(fresh.events)]
    old = [t.text for t in talk_lines(plain.events)]
    assert repeated(new) < repeated(old)
    messages = [e.text.rstrip(".!?") for e in fresh.events if e.kind == "message"]
    for e in fresh.events:
        if e.kind == "line":
            assert not any(f"'{m}'" in e.data["said"] for m in messages), e.data["said"]


def test_a_place_told_of_before_is_not_described_again() -> None:
    for seed in range(1, 8):
        game = scripted_game(seed)
        description = {loc.name: loc.description for loc in game.campaign.locations}
        told: dict[str, int] = {}
        for e in game.events:
            if e.kind != "narration":
                continue
            for place, text in description.items():
                told[place] = told.get(place, 0) + (text in e.text)
        assert all(n <= 1 for n in told.values()), (seed, told)


def _grams(words: list[str]) -> list[list[str]]:
    return [words[i : i + 4] for i in range(len(words) - 3)]

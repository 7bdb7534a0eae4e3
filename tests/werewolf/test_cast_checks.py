"""A cast is checked before use: bios that contradict the gender, fragments, dialogue,
first-person lines and named game roles are refused with the reason; a small model's
cast is composed from places in the setting, and a hand-edited file gets one line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.core.actions import Structured, Text
from parlour.core.errors import ParlourError
from parlour.games.werewolf.cast import TRAITS, default_cast, load_cast, save_cast
from parlour.games.werewolf.cast_checks import scene_problem, story_problem
from parlour.games.werewolf.casting import PLACE_PATTERN, CastBuilder

# What the embedded model wrote for "a space station" (and the examples).
BAD = [
    ("Dorothy", "male", "Dorothy is a 25-year-old female.", "calls Dorothy female"),
    ("Eryklyn", "female", "Eryklyn: In the midst of a long night, I was.", "dialogue"),
    ("Ava", "female", "Ava is the night nurse and I was there.", "first person"),
    ("Cody", "female", "Cody, a space smuggler with a penchant for deals.", "start with"),
    ("Daisy", "nonbinary", "Daisy: Sarah: Hey, alright.", "dialogue"),
    ("Frozen", "female", "Frozen is a young woman rescued by her friend Anna and.", "mid-sentence"),
    ("Hawk", "male", "The crew is a motley ensemble: Hawk, who's no ordinary crew.", "start"),
    ("Mira", "female", "Mira is the station's doctor.", "game role"),
    ("Jon", "male", "Jon is secretly a werewolf.", "game role"),
    ("Lee", "male", "Lee is the cook who never", "whole sentence"),
    ("Ren", "male", "Ren and the others wait.", "not a sentence about Ren"),
]


@pytest.mark.parametrize(("name", "gender", "story", "reason"), BAD)
def test_a_bad_bio_is_refused_with_its_reason(
    name: str, gender: str, story: str, reason: str
) -> None:
    problem = story_problem(name, gender, story)
    assert problem is not None and reason in problem


@pytest.mark.parametrize(
    ("name", "gender", "story"),
    [
        ("Aoi", "female", "Aoi is in the kendo club and never misses practice."),
        ("Jack", "male", "Jack is the youngest deckhand and climbs the mast to be alone."),
        ("Anne", "female", "Anne, the ship's cook, hums while she sharpens her knives."),
        ("Sam", "nonbinary", "Sam keeps to themselves since arriving."),
        ("Kenji", "male", "Kenji lost a friend to the wolves and wants answers."),
    ],
)
def test_a_good_bio_passes(name: str, gender: str, story: str) -> None:
    assert story_problem(name, gender, story) is None


def test_every_built_in_cast_passes_its_own_checks() -> None:
    for players in range(5, 17):
        for seed in range(4):
            cast = default_cast(players, seed, "a space station")
            assert scene_problem(cast.scene) is None
            assert all(story_problem(c.name, c.gender, c.story) is None for c in cast.players)


def test_a_scene_in_someones_voice_is_refused() -> None:
    assert "dialogue" in (scene_problem("Sarah: Hey, alright. So we've got a crew.") or "")
    assert scene_problem("The station drifts. Each night a crew member vanishes.") is None


def _places_cast(places: list[str]) -> CastBuilder:
    names = ["Aoi", "Haruto", "Yui", "Sora", "Ren"][: len(places)]
    builder = CastBuilder("a space station", len(places), seed=2, places=True)
    while (decision := builder.next()) is not None:
        step = decision.purpose
        if step == "cast_names":
            builder.answer(decision, Structured(value={"names": names}))
        elif step == "cast_genders":
            builder.answer(decision, Structured(value={"genders": ["female"] * len(names)}))
        elif step == "cast_scene":
            builder.answer(decision, Text(text="The station drifts. Each night someone vanishes."))
        else:
            assert step == "cast_places" and decision.json_schema is not None
            builder.answer(decision, Structured(value={"places": places}))
    return builder


def test_a_small_models_cast_is_composed_from_places_in_the_setting() -> None:
    builder = _places_cast(["cargo pilot", "the chief engineer", "doctor", "cargo pilot", "aoi"])
    cast = builder.cast()
    assert cast.players[0].story.startswith("Aoi is the cargo pilot, who ")
    assert cast.players[1].story.startswith("Haruto is the chief engineer, who ")
    assert builder.why["Yui's story"] == "its place names a game role ('doctor')"
    assert builder.why["Sora's story"] == "'cargo pilot' is already Aoi's place"
    assert builder.why["Ren's story"] == "its place names a character"
    assert builder.fallbacks == ["Yui's story", "Sora's story", "Ren's story"]
    assert len({c.story.split(", who ")[-1] for c in cast.players[:2]}) == 2  # dealt traits


@given(st.from_regex(PLACE_PATTERN, fullmatch=True), st.sampled_from(["female", "male"]))
def test_a_composed_bio_passes_the_checks_or_is_replaced(place: str, gender: str) -> None:
    builder = CastBuilder("x", 5, seed=0, places=True)
    builder.names, builder.genders = ["Aoi", "Haruto", "Yui", "Sora", "Ren"], [gender] * 5
    story = builder._placed(0, place)
    assert story_problem("Aoi", gender, story) is None


def test_places_copied_from_the_example_or_babbled_are_refused() -> None:
    builder = _places_cast(["ship's cook", "aye aye aye", "sea", "sea", "radio operator"])
    assert set(builder.why) == {"Aoi's story", "Haruto's story", "Sora's story"}
    assert builder.cast().players[4].story.startswith("Ren is the radio operator, who ")
    assert not builder.mostly_refused()  # 3 of 6 prose pieces: the model's cast stands
    worse = _places_cast(["ship's cook", "aye aye aye", "sea", "sea", "sea"])
    assert worse.mostly_refused()  # 4 of 6: the built-in cast is used instead


def test_traits_fit_any_character() -> None:
    for trait in TRAITS:
        assert not re.search(r"\b(he|she|his|her|him)\b", trait)


def test_a_hand_edited_cast_file_gets_one_line_naming_the_bio(tmp_path: Path) -> None:
    path = tmp_path / "cast.yaml"
    save_cast(default_cast(5, 1), path)
    assert load_cast(path) == default_cast(5, 1)
    text = path.read_text(encoding="utf-8")
    story = default_cast(5, 1).players[2].story
    path.write_text(text.replace(story, "Hiroshi is a woman who hates mornings."))
    with pytest.raises(ParlourError) as err:
        load_cast(path)
    message = str(err.value)
    assert "\n" not in message and "Hiroshi's story" in message and "rewrite it" in message
    line = int(message.split(":")[1])
    assert "Hiroshi is a woman" in path.read_text().splitlines()[line - 1]

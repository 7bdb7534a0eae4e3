"""Casting field by field: each step is a small checked decision; what a seat cannot
write comes from the built-in cast, and the builder says which pieces those were."""

from __future__ import annotations

from collections.abc import Callable

from parlour.core.actions import Action, Structured, Text
from parlour.core.decisions import Decision, DecisionKind
from parlour.core.rng import Rng
from parlour.games.werewolf.ask import CastAsk
from parlour.games.werewolf.cast import default_cast
from parlour.games.werewolf.casting import CastBuilder, CastingPrompter, casting_fallback

THEME = "a Japanese high school"
NAMES = ["Aoi", "Haruto", "Yui", "Sora", "Ren"]
GENDERS = ["female", "male", "female", "nonbinary", "male"]


def _good(decision: Decision) -> Action:
    if decision.purpose == "cast_names":
        return Structured(value={"names": NAMES})
    if decision.purpose == "cast_genders":
        return Structured(value={"genders": GENDERS})
    if decision.purpose == "cast_scene":
        return Text(text="The students stay late in the old school. Each night one vanishes")
    i = CastAsk.of(decision).index
    return Text(text=f"{NAMES[i]} is in the kendo club and never misses practice. Later more")


def _build(answer: Callable[[Decision], Action], players: int = 5) -> CastBuilder:
    builder = CastBuilder(THEME, players, seed=3)
    asked: list[Decision] = []
    while (decision := builder.next()) is not None:
        asked.append(decision)
        action = answer(decision)
        if decision.kind is DecisionKind.STRUCTURED and decision.purpose != "cast_names":
            decision.check(action)  # the answers a grammar-bound model could give
        builder.answer(decision, action)
    assert [d.purpose for d in asked[:3]] == ["cast_names", "cast_genders", "cast_scene"]
    assert len(asked) == 3 + players
    return builder


def test_a_well_answered_cast_keeps_every_piece() -> None:
    builder = _build(_good)
    cast = builder.cast()
    assert builder.fallbacks == []
    assert cast.names == tuple(NAMES) and cast.theme == THEME
    assert [c.gender for c in cast.players] == GENDERS
    # whole sentences only: the cut-off tail is dropped
    assert cast.scene == "The students stay late in the old school."
    assert cast.players[0].story == "Aoi is in the kendo club and never misses practice."
    assert len({c.playstyle for c in cast.players}) == 5  # dealt by the seed: mixed


def test_bad_pieces_are_replaced_by_built_in_ones_and_named() -> None:
    def answer(decision: Decision) -> Action:
        if decision.purpose == "cast_names":  # a duplicate and an invalid name
            return Structured(value={"names": ["Aoi", "Aoi", "Yui", "x1", "Ren"]})
        if decision.purpose == "cast_scene":  # copies its instructions
            return Text(text="Write the scene: two short sentences, like the example.")
        if CastAsk.of(decision).index == 1:
            return Text(text="")
        return _good(decision)

    builder = _build(answer)
    cast = builder.cast()
    assert cast.names[:3] == ("Aoi", "Yui", "Ren")  # the model's usable names are kept
    assert len(set(cast.names)) == 5
    assert builder.fallbacks[0] == "2 names"
    assert "scene" in builder.fallbacks
    assert f"{cast.names[1]}'s story" in builder.fallbacks
    assert cast.scene == default_cast(5, 3, THEME).scene
    assert cast.players[1].story.startswith(cast.names[1])


def test_a_story_that_does_not_start_with_the_name_is_replaced() -> None:
    def answer(decision: Decision) -> Action:
        if decision.purpose == "cast_story" and CastAsk.of(decision).index == 0:
            return Text(text="The quiet one who sits by the window.")
        return _good(decision)

    builder = _build(answer)
    cast = builder.cast()
    # Not a sentence about Aoi: the built-in bio, under Aoi's name, and the reason.
    assert cast.players[0].story == default_cast(5, 3).players[0].story.replace("Kenji", "Aoi")
    assert builder.why["Aoi's story"] == "it does not start with 'Aoi is …'"


def test_the_fallback_policy_leaves_every_piece_to_the_built_in_cast() -> None:
    builder = CastBuilder(THEME, 5, seed=3)
    while (decision := builder.next()) is not None:
        action = casting_fallback(builder.view(), decision, Rng(0))
        builder.answer(decision, action, fallback=True)
    cast = builder.cast()
    assert builder.fallbacks[:3] == ["names", "genders", "scene"]
    assert cast.names == default_cast(5, 3, THEME).names


def test_prompts_carry_the_theme_and_the_cast_so_far_but_no_schema_in_prose_steps() -> None:
    builder = CastBuilder(THEME, 5, seed=3)
    prompter = CastingPrompter()
    first = builder.next()
    assert first is not None
    assert THEME in prompter.parts(builder.view(), first).system
    builder.answer(first, _good(first))
    genders = builder.next()
    assert genders is not None
    builder.answer(genders, _good(genders))
    scene = builder.next()
    assert scene is not None and scene.kind is DecisionKind.FREE_TEXT
    parts = prompter.parts(builder.view(), scene)
    assert "Aoi (female)" in parts.memory and "schema" not in parts.command
    system = prompter.parts(builder.view(), scene).system
    assert system == prompter.parts(CastBuilder(THEME, 5, 3).view(), first).system  # stable

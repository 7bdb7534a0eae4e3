"""Every director's prompt runs from what never changes to what changes every call
(``games/campaign/prompts.py``), so a prompt or KV cache reuses its front: over whole
scripted campaigns, each director's stable layer holds still where it should, and what
changes (HP, clocks, inventory, who is present, the speaker's sheet) is never in it."""

from __future__ import annotations

from collections import defaultdict

import pytest

from parlour.core.decisions import Decision
from parlour.games.campaign import CampaignGame
from parlour.games.campaign.prompts import CampaignPrompter

from .helpers import scripted_game

PROMPTER = CampaignPrompter()


def _calls(seed: int) -> list[tuple[str, str, int, int, str, str]]:
    """(seat, purpose, session, scene, memory, command) of every director call."""
    out: list[tuple[str, str, int, int, str, str]] = []

    def each(game: CampaignGame, _: int) -> None:
        if game.is_terminal():
            return
        decision: Decision = game.pending()[0]
        if decision.seat == "player":
            return
        parts = PROMPTER.parts(game.view(decision.seat), decision)
        scene = game.scenes[-1].number if game.scenes else 0
        session = game.view("game-director").public.session
        out.append((decision.seat, decision.purpose, session, scene, parts.memory, parts.command))

    scripted_game(seed, each_step=each, sessions=3, turns_per_session=6)
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_stable_layers_hold_still(seed: int) -> None:
    calls = _calls(seed)
    memories: dict[tuple[str, ...], set[str]] = defaultdict(set)
    for seat, _, session, scene, memory, _ in calls:
        if seat == "game-director":
            memories[(seat,)].add(memory)  # the whole campaign
        elif seat == "scene-director":
            memories[(seat, str(session), str(scene))].add(memory)  # one scene
    gd = memories.pop(("game-director",))
    assert len(gd) == 1, "the game director's stable layer changed"
    assert memories and all(len(m) == 1 for m in memories.values()), "a scene's layer changed"
    assert sum(1 for s, *_ in calls if s == "game-director") > 10


def test_what_changes_is_in_the_command() -> None:
    calls = _calls(1)
    gd = [(memory, command) for seat, _, _, _, memory, command in calls if seat == "game-director"]
    for memory, command in gd:
        assert "HP " in command and "clocks:" in command and "inventory:" in command
        assert '"hp"' not in memory and "Clocks" not in memory and "Inventory" not in memory
    lines = [c for c in calls if c[0] == "scene-director" and c[1] == "line"]
    assert lines
    for _, _, _, _, memory, command in lines:
        # one NPC's private sheet goes only into its own line's command
        assert "their sheet (theirs alone)" in command and "theirs alone" not in memory
    story = [c for c in calls if c[0] == "story-director"]
    assert story
    for *_, memory, _ in story:
        # the NPC sheets' changing fields come after every fixed field
        fixed_end = memory.index("Threads:")
        assert '"attitude"' not in memory[:fixed_end] and '"attitude"' in memory[fixed_end:]

"""Every director's prompt runs from what never changes to what changes every call
(``games/campaign/prompts.py``), so a prompt or KV cache reuses its front: over whole
scripted campaigns, each director's stable layer holds still where it should, and what
changes (HP, clocks, inventory, who is present, the speaker's sheet) is never in it."""

from __future__ import annotations

from collections import defaultdict
from itertools import pairwise

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


def _gd_transcripts(seed: int, **options: object) -> list[tuple[int, tuple[str, ...]]]:
    """(session, transcript lines) of every game-director call of a scripted campaign."""
    out: list[tuple[int, tuple[str, ...]]] = []

    def each(game: CampaignGame, _: int) -> None:
        if game.is_terminal() or game.pending()[0].seat != "game-director":
            return
        view = game.view("game-director")
        parts = PROMPTER.parts(view, game.pending()[0])
        out.append((view.public.session, tuple(u.text for u in parts.transcript)))

    scripted_game(seed, each_step=each, **options)
    return out


def test_the_game_directors_transcript_keeps_the_last_session_and_only_grows() -> None:
    calls = _gd_transcripts(1, sessions=3, turns_per_session=5)
    first = [lines for session, lines in calls if session == 1]
    second = [lines for session, lines in calls if session == 2]
    assert first and second
    # session 2 opens with session 1 whole, as the game director last saw it and more
    assert second[0][: len(first[-1])] == first[-1]
    # within a session each call's transcript extends the one before (a stable prefix)
    for session in (1, 2, 3):
        mine = [lines for s, lines in calls if s == session]
        assert all(b[: len(a)] == a for a, b in pairwise(mine))


def test_earlier_sessions_go_whole_when_they_do_not_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    from parlour.games.campaign import prompts

    monkeypatch.setattr(prompts, "EARLIER_CHARS", 0)
    calls = _gd_transcripts(1, sessions=2, turns_per_session=5)
    second = [lines for session, lines in calls if session == 2]
    assert second and all(lines[0] == "Session 2 begins." for lines in second)

"""The scripted player goes only where its view has been (or "another spot nearby"), and a
move that names no place opens the next scene somewhere other than where the player was."""

from __future__ import annotations

import pytest

from parlour.core.events import Event
from parlour.games.campaign import CampaignGame
from parlour.games.campaign.policies import ELSEWHERE
from parlour.games.campaign.state import PLAYER
from parlour.games.campaign.wording import goes_somewhere

from .helpers import scripted_game


def _moves(game: CampaignGame) -> list[tuple[str, list[str], str, str]]:
    """Each player move: its words, the places the player's view had seen before it, the
    place it left and the place of the scene it led to."""
    out: list[tuple[str, list[str], str, str]] = []
    seen: list[str] = []
    events: tuple[Event, ...] = game.view(PLAYER).events
    for i, e in enumerate(events):
        if e.kind == "scene":
            seen.append(str(e.data["place"]))
        if e.kind == "message" and goes_somewhere(e.text):
            after = next((n for n in events[i:] if n.kind == "scene"), None)
            if after is not None and after.data["session"] == e.data["session"]:
                out.append((e.text, list(seen), seen[-1], str(after.data["place"])))
    return out


@pytest.mark.parametrize("seed", range(1, 11))
def test_the_scripted_player_names_only_places_it_has_seen(seed: int) -> None:
    for text, seen, here, there in _moves(scripted_game(seed)):
        named = [p for p in seen if p in text]
        assert named or ELSEWHERE in text, text
        assert here not in named, text  # it never "goes" where it is
        if not named:
            assert there != here, text


def test_the_moves_checked_are_some_of_each_kind() -> None:
    moves = [m for seed in range(1, 11) for m in _moves(scripted_game(seed))]
    assert any(ELSEWHERE in text for text, *_ in moves)
    assert any(ELSEWHERE not in text for text, *_ in moves)

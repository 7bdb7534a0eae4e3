"""Conformance: every game keeps its secrets with the most indiscreet model in every seat.

The ``indiscreet`` backend answers every request validly and puts every secret it was
shown into every free-text field (``indiscreet(paraphrase=true)``: restated in other
words). Each built-in game is played with it at every model seat, markers planted, and
audited: 0 leaks, whatever the players disclosed. (The example plug-in game is audited the
same way in ``tests/plugins/test_example_game.py``, installed in its own environment.)
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

import parlour
from parlour.runtime.audit import audit_game
from parlour.runtime.host import GameHost
from parlour.runtime.store import Store, db_url
from tests.conftest import CliRunner
from tests.support.hosting import serving, until

#: small but whole games: every phase of each is played
GAMES: dict[str, tuple[dict[str, object], int | None]] = {
    "werewolf": ({}, None),
    "missing": ({"minutes": 10}, 4),
    "escape": ({"max_turns": 12}, None),
    "campaign": ({"sessions": 1, "turns_per_session": 3}, None),
    "diplomacy": ({"end_year": 1901, "press_rounds": 2}, None),
}
#: games whose players talk: there, telling a secret aloud is a disclosure the audit counts
TALKERS = ("werewolf", "missing", "diplomacy")


@pytest.mark.parametrize("model", ["indiscreet", "indiscreet(paraphrase=true)"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_game_leaks_to_an_indiscreet_model(game: str, model: str, tmp_path: Path) -> None:
    options, players = GAMES[game]
    played = parlour.play(
        game,
        model=model,
        seed=3,
        players=players,
        options={**options, "plant_markers": True},
        db=tmp_path / "g.sqlite",
    )
    report = audit_game(played.store, played.game_id)
    assert report.status == "clean", "\n".join(str(leak) for leak in report.leaks[:5])
    told = [c for c in played.store.calls(played.game_id) if "[[mk:" in c.response_text]
    assert told, f"the {model} model never told a secret in {game}: the test proves nothing"
    if game in TALKERS:
        assert report.disclosures, f"{game}: players said secrets aloud; none was counted"


def test_the_cli_lists_disclosures_and_exits_0(cli_here: CliRunner) -> None:
    watched = cli_here(
        "watch", "werewolf", "--model", "indiscreet", "--seed", "3", "--set", "plant_markers=true"
    )
    assert watched.returncode == 0, watched.stderr
    game_id = re.findall(r"\bwe-[0-9a-f]{16}\b", watched.stdout)[-1]
    audit = cli_here("audit", game_id)
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert re.search(rf"DISCLOSURE {game_id}: p\d+ published \[\[mk:", audit.stdout), audit.stdout
    assert re.search(rf"{game_id} \(werewolf\): 0 leaks, [1-9]\d* disclosures", audit.stdout)


def test_games_the_web_host_runs_are_audited_the_same(tmp_path: Path) -> None:
    """The host (what the web app starts games through) with the indiscreet model in every
    model seat: each game it finishes audits with 0 leaks."""
    store = Store(db_url(str(tmp_path / "host.sqlite")))
    host = GameHost(store, "w1", lease_seconds=5)
    ids = [
        host.create(
            game,
            players=GAMES[game][1],
            seed=4,
            seats={},
            overrides={**GAMES[game][0], "plant_markers": True},
            model="indiscreet",
        )
        for game in sorted(GAMES)
    ]

    def done() -> bool:
        return all(store.get_game(g).status in ("finished", "failed") for g in ids)

    asyncio.run(serving(host, lambda: until(done, 120)))
    for game_id in ids:
        assert store.get_game(game_id).status == "finished"
        report = audit_game(store, game_id)
        assert report.status == "clean", "\n".join(str(leak) for leak in report.leaks[:5])

"""The campaign engine: conformance, views by construction, memories and who-knows-what."""

from __future__ import annotations

import pytest

from parlour.core.actions import Structured, Text
from parlour.core.conformance import Report
from parlour.core.errors import IllegalAction
from parlour.core.rng import Rng
from parlour.games import registry
from parlour.games.campaign import MODULE, CampaignConfig, CampaignGame, make_config
from parlour.games.campaign.policies import campaign_fallback
from parlour.games.campaign.prompts import CampaignPrompter
from tests.support.conformance import conforms

from .helpers import forbidden, scripted_game

PROMPTER = CampaignPrompter()


def test_registered() -> None:
    assert registry.load("campaign") is MODULE


def _conforms(config: CampaignConfig, games: int, decisions: int) -> Report:
    """The conformance suite on ``games`` games of ``config``, each also replayed, and the
    leak scan on as many games of it with planted markers."""
    marked = config.model_copy(update={"plant_markers": True})
    return conforms(
        MODULE,
        lambda seed: config,
        marked=lambda seed: marked,
        games=games,
        replays=games,
        leaks=games,
        decisions=decisions,
    )


@pytest.mark.slow  # conformance sweep: 40 games and their replays
def test_conformance_40_seeds() -> None:
    # 40 games, each also replayed: random play (and its replay) from seeds 0-199 takes no
    # line-to-line step in parlour's sources that seeds 0-23 do not already take, so 200
    # games added time and no coverage (measured with a sys.settrace arc tracer).
    report = _conforms(make_config(None, {}), games=40, decisions=4)
    assert report.games_replayed == 40
    assert report.views_scanned > 5_000
    assert report.answers_tried > 500


def test_conformance_with_review_on_the_short_campaign() -> None:
    config = make_config(None, {"campaign": "short_test", "review": True, "sessions": 3})
    report = _conforms(config, games=20, decisions=2)
    assert report.views_scanned > 0


def test_leak_audit_over_30_scripted_sessions() -> None:
    """Scene-director views AND the prompts built from them hold only entitled markers."""
    prompts = 0
    reveals = 0

    def scan(game: CampaignGame, step: int) -> None:
        nonlocal prompts
        for seat in ("scene-director", "game-director", "player"):
            view = game.view(seat)
            assert forbidden(game, seat, view.model_dump(mode="json")) == [], (seat, step)
        for decision in game.pending():
            parts = PROMPTER.parts(game.view(decision.seat), decision)
            leaked = forbidden(game, decision.seat, parts.model_dump(mode="json"))
            assert leaked == [], (decision.id, leaked)
            prompts += decision.seat == "scene-director"

    for seed in range(30):
        game = scripted_game(seed, plant_markers=True, each_step=scan)
        reveals += len(game.who_knows)
    assert prompts > 30 * 8
    assert reveals > 5  # the scripted story director does reveal secrets


def test_scene_director_view_is_built_from_present_npcs_only() -> None:
    game = scripted_game(3, plant_markers=True, sessions=2, turns_per_session=6)
    # Replay to a scene-director decision of session 2 and look at the view there.
    config = make_config(None, {"plant_markers": True, "sessions": 2, "turns_per_session": 6})
    probe = CampaignGame(config, 3)
    rng = Rng(4)
    from parlour.games.campaign.policies import campaign_policy

    checked = 0
    while not probe.is_terminal():
        decision = probe.pending()[0]
        if decision.seat == "scene-director":
            view = probe.scene_view()
            present = {s.id for s in view.private.npcs}
            speaker = view.public.speaker
            # narrating: what every NPC present knows; a line: what its speaker knows
            minds = {speaker} if speaker else present
            for e in view.events:
                if e.kind == "memory":
                    # a record of a closed scene, of an NPC who attended it, whose
                    # knowledge the context holds
                    assert {e.data["npc"]} >= minds
                    assert e.data["scene"] != view.public.scene
                    assert e.data["npc"] in probe.scenes[e.data["scene"] - 1].npcs
                else:
                    attended = probe.scenes[e.data["scene"] - 1].npcs
                    assert (minds and minds <= set(attended)) or e.data[
                        "scene"
                    ] == view.public.scene
            full_sheet = probe.campaign.pc.full.history
            assert full_sheet not in view.model_dump_json()
            checked += 1
        probe.apply(decision.id, campaign_policy(probe.view(decision.seat), decision, rng))
    assert checked >= 10
    assert probe.snapshot()["events"] == game.snapshot()["events"]


def test_memory_records_quote_the_scene_exactly() -> None:
    game = scripted_game(5, turns_per_session=4)
    memories = [e for e in game.events if e.kind == "memory"]
    assert memories
    for e in memories:
        scene = game.scenes[e.data["scene"] - 1]
        assert e.data["npc"] in scene.npcs
        for who, text in scene.said:
            if who == "player":
                assert f'said: "{text}"' in e.text
    # every NPC present in a closed scene has exactly one record of it
    for scene in game.scenes:
        got = sorted(e.data["npc"] for e in memories if e.data["scene"] == scene.number)
        assert got == sorted(scene.npcs)


def _to_story(game: CampaignGame) -> None:
    rng = Rng(0)
    while game.pending()[0].seat != "player":
        d = game.pending()[0]
        game.apply(d.id, MODULE.policy(game.view(d.seat), d, rng))
    game.apply(game.pending()[0].id, Text(text="I go to the car park."))
    d = game.pending()[0]
    game.apply(d.id, Structured(value={"route": "needs_story_director"}))


def test_unknown_npc_id_is_a_precise_error_and_the_fallback_continues() -> None:
    game = CampaignGame(make_config(None, {}), 1)
    _to_story(game)
    d = game.pending()[0]
    assert d.seat == "story-director"
    bad = Structured(value={"text": "x", "npc_list": ["bob"], "location": "lab", "new_scene": True})
    with pytest.raises(IllegalAction, match=r"npc_list/0: 'bob' is not one of \['priya'"):
        game.apply(d.id, bad)
    with pytest.raises(IllegalAction, match=r"location: 'moon' is not one of"):
        game.apply(
            d.id,
            Structured(value={"text": "x", "npc_list": [], "location": "moon", "new_scene": True}),
        )
    before = len(game.scenes)
    game.apply(d.id, campaign_fallback(game.view(d.seat), d, Rng(0)))
    assert len(game.scenes) == before  # "continue the current scene"
    assert game.pending()[0].seat == "scene-director"


def test_a_revealed_secret_reaches_only_the_witnesses() -> None:
    game = CampaignGame(make_config(None, {"plant_markers": True}), 1)
    _to_story(game)
    d = game.pending()[0]
    game.apply(
        d.id,
        Structured(
            value={
                "text": "Tomas sees your reflection is missing.",
                "npc_list": ["tomas"],
                "location": "corridor",
                "new_scene": True,
                "reveal": ["ilse_vampire"],
            }
        ),
    )
    assert game.who_knows == {"ilse_vampire": frozenset({"tomas"})}
    narrating = game.scene_view()
    assert narrating.private.speaker is None and "vampire" not in narrating.model_dump_json()
    game.apply(game.pending()[0].id, Structured(value={"narration": "ok"}))
    sheet = game.scene_view().private.speaker  # Tomas's line: his sheet, what he witnessed
    assert sheet is not None and sheet.id == "tomas" and any("vampire" in k for k in sheet.knows)
    game.apply(game.pending()[0].id, Text(text=""))  # Tomas says nothing
    assert game.events[-1].kind == "narration" and game.pending()[0].purpose == "act"
    # Next scene with Priya only: the secret is not in the scene director's view at all.
    game.apply(game.pending()[0].id, Text(text="I go to the lab."))
    game.apply(game.pending()[0].id, Structured(value={"route": "needs_story_director"}))
    game.apply(
        game.pending()[0].id,
        Structured(
            value={
                "text": "Priya waits.",
                "npc_list": ["priya"],
                "location": "lab",
                "new_scene": True,
            }
        ),
    )
    seen = game.scene_view().model_dump_json()
    assert "vampire" not in seen and "[[mk:secret:ilse_vampire]]" not in seen
    assert forbidden(game, "scene-director", game.scene_view().model_dump(mode="json")) == []


def test_review_can_ask_for_one_rewrite() -> None:
    game = CampaignGame(make_config(None, {"review": True}), 2)
    first = game.pending()[0]
    assert first.purpose == "scene"
    game.apply(first.id, Structured(value={"narration": "draft one"}))
    line = game.pending()[0]
    assert line.purpose == "line" and line.id == f"{first.id}:priya"
    game.apply(line.id, Text(text="Ready when you are."))
    review = game.pending()[0]
    assert review.seat == "story-director" and review.purpose == "review"
    draft = game.view("story-director").public.draft
    assert "draft one" in draft and "Ready when you are." in draft  # the whole beat
    assert not [e for e in game.events if e.kind in ("narration", "line")]  # nothing went out
    game.apply(review.id, Structured(value={"approve": False, "reason": "too much"}))
    again = game.pending()[0]
    assert again.seat == "scene-director" and "too much" in again.prompt
    assert game.scene_view().public.beat == []  # the rejected draft is gone
    game.apply(again.id, Structured(value={"narration": "draft two"}))
    line = game.pending()[0]
    assert "too much" in line.prompt
    game.apply(line.id, Text(text="Fine."))
    assert [e.text for e in game.events if e.kind in ("narration", "line")] == [
        "draft two",
        "Priya Okafor: “Fine.”",
    ]


def test_commands_cost_no_turn_and_show_the_sheet() -> None:
    game = CampaignGame(make_config(None, {}), 2)
    game.apply(game.pending()[0].id, Structured(value={"narration": "n"}))
    game.apply(game.pending()[0].id, Text(text="Hi."))
    act = game.pending()[0]
    game.apply(act.id, Text(text="/sheet"))
    reply = game.events[-1]
    assert reply.kind == "reply" and "Secrets: Ilse is a vampire" in reply.text
    assert reply.audience.seats == ("player",)
    game.apply(game.pending()[0].id, Text(text="/inventory"))
    assert "the key to Lab 4" in game.events[-1].text
    game.apply(game.pending()[0].id, Text(text="/recap"))
    assert "Scene 1" in game.events[-1].text
    assert game.pending()[0].purpose == "act"


def test_memory_probes_only_reach_npcs_who_were_there() -> None:
    import asyncio
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from benchmarks.campaign_context import play, probes
    from parlour.seats.context_components import BM25Ranker

    # seed 3: a play whose earlier sessions have witnesses enough to probe (with fresh
    # wording, seed 1's scripted player stays put: 3 probes)
    game, report = play(seed=3, sessions=3, turns=4)
    assert report["ratio_scene_vs_omniscient"] < 1.0
    result = asyncio.run(probes(game, BM25Ranker()))
    assert result["probes"] >= 4
    assert result["outsider_probes"] >= 4
    assert result["outsider_records_returned"] == 0  # by construction, not by ranking
    assert result["recall_at_k"] is not None and result["recall_at_k"] >= 0.5


def test_decision_ids_are_unique_over_a_whole_campaign() -> None:
    seen: list[str] = []

    def note(game: CampaignGame, step: int) -> None:
        if game.pending():
            seen.append(game.pending()[0].id)

    scripted_game(6, review=True, sessions=2, turns_per_session=3, each_step=note)
    assert len(seen) == len(set(seen)), sorted(i for i in seen if seen.count(i) > 1)

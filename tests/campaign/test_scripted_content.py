"""The scripted directors play the campaign's own content: NPC lines and reactions from the
file, the narrator's details of each place, checks held by a typed rule whenever an action
can fail, out-of-character answers, and NPCs who recall only scenes they witnessed."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.core.actions import Structured, Text
from parlour.core.rng import Rng
from parlour.games.campaign import CampaignGame, make_config, parse_campaign
from parlour.games.campaign.content import CampaignError
from parlour.games.campaign.dice import roll
from parlour.games.campaign.loader import campaign_path
from parlour.games.campaign.policies import GENERIC, MORE_QUIET, OUTCOMES, QUIET
from parlour.games.campaign.risks import risk_of
from parlour.games.campaign.wording import reports

from .helpers import scripted_game

NIGHT = make_config(None, {}).campaign


def _formats(npc_id: str) -> set[str]:
    """Every line the file gives an NPC, with the slots a line may fill stripped out."""
    npc = NIGHT.npc(npc_id)
    texts = [t for lines in (*npc.lines.values(), *npc.reactions.values()) for t in lines]
    return {t.format(pc="Ilse", place="", then="", memory="") for t in texts}


def test_risky_actions_call_for_a_check_by_rule() -> None:
    lock = risk_of("I try to pick the lock of the cabinet.", NIGHT)
    assert lock is not None and (lock.skill, lock.difficulty) == ("sneak", "hard")
    sneak = risk_of("I sneak past Tomas without being noticed", NIGHT)
    assert sneak is not None and sneak.skill == "sneak"
    talk = risk_of("I convince Priya to wait", NIGHT)
    assert talk is not None and (talk.skill, talk.difficulty) == ("persuade", "normal")
    assert risk_of("I ask Priya what she is working on tonight.", NIGHT) is None
    assert risk_of("/ooc can I pick the lock?", NIGHT) is None


def test_the_engine_rolls_the_rules_check_when_the_director_asks_none() -> None:
    game = CampaignGame(make_config(None, {}), 4)
    game.apply(game.pending()[0].id, Structured(value={"narration": "n"}))
    game.apply(game.pending()[0].id, Text(text="Hi."))
    game.apply(game.pending()[0].id, Text(text="I pick the lock of the cabinet."))
    route = game.pending()[0]
    assert route.purpose == "route"
    game.apply(route.id, Structured(value={"route": "continue_scene"}))
    checks = [e for e in game.events if e.kind == "check"]
    assert len(checks) == 1 and checks[0].data["skill"] == "sneak"
    assert "the lock is old and stiff" in checks[0].text


def test_dice_lines_carry_no_markdown() -> None:
    rng = Rng(7)
    shown = [roll(rng, m, 12).shown for m in (0, 3) for _ in range(200)]
    assert not [s for s in shown if "`" in s or "*" in s]
    assert any("(20)" in s for s in shown) and any("(1)" in s for s in shown)


def test_npcs_speak_the_campaigns_lines_and_the_narrator_its_details() -> None:
    game = scripted_game(3, sessions=2, turns_per_session=6)
    details = {d for p in NIGHT.locations for d in p.details} | set(QUIET) | set(MORE_QUIET)
    lines = [e for e in game.events if e.kind == "line"]
    assert lines
    for e in lines:
        said, npc = e.data["said"], e.data["npc"]
        # a recall quotes an NPC's words ("I told you '...'") or reports the player's
        # ("... you told me you ...")
        recalled = re.search(r"(said|told you) '.+'", said) is not None or reports(said)
        assert said in _formats(npc) or recalled or said in GENERIC["forgot"], said
    narrations = [e.text for e in game.events if e.kind == "narration"]
    later = [n for n in narrations if not any(n.startswith(p.name) for p in NIGHT.locations)]
    assert later
    for text in later:
        rest = text
        for outcome in (o for band in OUTCOMES.values() for o in band):
            rest = rest.removeprefix(outcome).strip()
        assert rest in details or rest.startswith("The moment hangs"), text


def test_ooc_is_answered_by_the_story_director_to_the_player_only() -> None:
    game = CampaignGame(make_config(None, {}), 2)
    game.apply(game.pending()[0].id, Structured(value={"narration": "n"}))
    game.apply(game.pending()[0].id, Text(text="Hi."))
    turn = game.state.turn
    game.apply(game.pending()[0].id, Text(text="/ooc how do checks work?"))
    ooc = game.pending()[0]
    assert (ooc.seat, ooc.purpose) == ("story-director", "ooc")
    # the gate screens the answer like any director's text: a secret is refused ...
    secret = Text(text="Tomas keeps a crossbow in the boiler room and hunts night folk.")
    assert game.screen(ooc.id, secret) is not None
    assert game.screen(ooc.id, Text(text="Roll 1d20 plus your skill.")) is None
    game.apply(ooc.id, Text(text="Roll 1d20 plus your skill."))
    answer = game.events[-1]
    assert answer.kind == "ooc" and answer.audience.seats == ("player",)
    act = game.pending()[0]
    assert act.purpose == "act" and game.state.turn == turn
    game.apply(act.id, Text(text="/ooc"))
    assert "/ooc how do checks work" in game.events[-1].text
    assert game.pending()[0].purpose == "act"


@pytest.mark.parametrize(
    ("key", "value", "code"),
    [
        ("lines", {"gossip": ["x"]}, "C010"),
        ("reactions", {"win": ["x"]}, "C010"),
        ("lines", {"greet": ["Hi {secret}"]}, "C012"),
        ("lines", {"greet": ["At {then}"]}, "C012"),
    ],
)
def test_the_validator_checks_npc_lines(key: str, value: dict[str, list[str]], code: str) -> None:
    import yaml

    text = campaign_path("short_test").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    data["npcs"][0][key] = value
    with pytest.raises(CampaignError, match=rf"\[{code}\]"):
        parse_campaign(yaml.safe_dump(data))


def test_the_validator_checks_check_rules() -> None:
    import yaml

    data = yaml.safe_load(campaign_path("short_test").read_text(encoding="utf-8"))
    data["checks"] = [{"words": ["pick"], "skill": "lockpicking", "reason": "it can fail"}]
    with pytest.raises(CampaignError, match=r"\[C011\] unknown skill 'lockpicking'"):
        parse_campaign(yaml.safe_dump(data))
    data["checks"] = [{"words": ["pick"], "skill": "climb", "difficulty": "x", "reason": "r"}]
    with pytest.raises(CampaignError, match=r"\[C011\] unknown difficulty 'x'"):
        parse_campaign(yaml.safe_dump(data))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    turns=st.integers(2, 5),
    moment=st.sampled_from(
        [
            "Do you remember what I said?",
            "the lock of the cabinet",
            "I have to leave before sunrise",
            "what are you working on tonight",
            "keep this between us",
        ]
    ),
)
def test_an_npc_recalls_only_scenes_it_witnessed(seed: int, turns: int, moment: str) -> None:
    game = scripted_game(seed, sessions=2, turns_per_session=turns)
    game.state.message = moment
    attended = {s.number: set(s.npcs) for s in game.scenes}
    for npc in NIGHT.npc_ids:
        view = game.scene_view((npc,), npc)
        for r in view.private.recalled:
            assert npc in attended[r.scene], (npc, r)
            said = dict.fromkeys(t for _, t in game.scenes[r.scene - 1].said)
            assert r.text in said
        witnessed = [s for s in game.scenes if npc in s.npcs and s.closed and s.said]
        if not witnessed:
            assert view.private.recalled == []


def test_memory_probes_recall_witnessed_facts_and_never_others() -> None:
    """The probe set of ``benchmarks/campaign_recall.py``, played through the engine: some
    witnessed facts come back in the NPCs' answers, and no NPC's answer, recall or view
    ever holds a fact said in a scene it did not attend."""
    from benchmarks.campaign_recall import PROBES, run

    answers, score = run(PROBES, seed=1)
    assert score["probes"] == len(answers) >= 30
    assert score["witnessed"] and score["not_witnessed"]
    assert score["recalled_unwitnessed"] == 0
    assert score["correct_recall"] > 0
    for a in answers:
        if a.witnessed and a.expect.lower() in a.line.lower():
            assert any(a.expect.lower() in r.lower() for r in a.recalled)


@pytest.mark.parametrize(
    ("message", "skill"),
    [
        ("I am mixing the two solvents", "chemistry"),
        ("I hide behind the trolley", "sneak"),
        ("I try bribing Dov", "persuade"),
        ("A mixture of suspicion and curiosity", None),
        ("I mixed the reagents", "chemistry"),
        ("I watch the hideous wallpaper", None),
    ],
)
def test_rule_words_match_whole_or_with_a_plain_ending(message: str, skill: str | None) -> None:
    risk = risk_of(message, NIGHT)
    assert (risk.skill if risk else None) == skill

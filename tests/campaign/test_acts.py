"""Act seats (``act_seats``): a seat a small model plays is asked to choose among answers
the game words from its own view (the campaign's lines, the scripted directors' rules),
never to write them; the chosen answer is what the player reads, the fallback takes the
scripted answer in the same shape, and an NPC's options hold only what it witnessed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from parlour.core.actions import Choice, Structured, Text
from parlour.core.decisions import DecisionKind
from parlour.core.rng import Rng, hash_seed
from parlour.evals.talk_games import score_game
from parlour.games.campaign import MODULE, CampaignGame, make_config
from parlour.games.campaign import acts as campaign_acts
from parlour.games.campaign.ask import CampaignAsk
from parlour.games.campaign.policies import campaign_fallback, campaign_policy
from parlour.games.campaign.prompts import CampaignPrompter
from parlour.games.campaign.talk_lines import talk_lines
from parlour.games.campaign.wording import reports
from parlour.runtime.session import plan
from parlour.runtime.store import Store, db_url
from tests.conftest import CliRunner
from tests.support.conformance import conforms

DIRECTORS = ("scene-director", "game-director", "story-director")
EVERY_SEAT = ("player", *DIRECTORS)
#: the events an act's words reach (``talk_lines``)
SPOKEN = ("message", "narration", "line", "ooc", "check")


def _play(seed: int, seats: tuple[str, ...], pick: int = 0, **options: object) -> CampaignGame:
    """A whole campaign; act seats take option ``pick`` (wrapped), the others their script."""
    game = CampaignGame(make_config(None, {"act_seats": seats, **options}), seed)
    while not game.is_terminal():
        d = game.pending()[0]
        if CampaignAsk.is_act(d):
            action: Choice | Text | Structured = Choice(option=d.options[pick % len(d.options)].id)
        else:
            rng = Rng(hash_seed(seed, d.id))
            action = campaign_policy(game.view(d.seat), d, rng)  # type: ignore[assignment]
        assert game.screen(d.id, action) is None, d.id
        game.apply(d.id, action)
    return game


def test_an_act_seats_questions_are_choices_whose_answers_the_game_applies() -> None:
    game = CampaignGame(make_config(None, {"act_seats": EVERY_SEAT, "review": True}), 3)
    purposes: set[str] = set()
    chosen: dict[str, str] = {}  # act id -> the words its choice stands for
    while not game.is_terminal():
        d = game.pending()[0]
        assert d.kind is DecisionKind.CHOOSE_ONE, d.id
        ask = CampaignAsk.of(d)
        assert len(ask.answers) == len(d.options) >= 1
        assert len({o.label for o in d.options}) == len(d.options)
        assert d.json_schema is None and not d.checks and d.max_tokens
        purposes.add(d.purpose)
        pick = d.options[len(chosen) % len(d.options)]
        answer = ask.answers[d.options.index(pick)]
        if isinstance(answer, Text):
            chosen[d.id] = answer.text
        elif isinstance(answer, Structured) and "narration" in answer.value:
            chosen[d.id] = answer.value["narration"]
        else:
            chosen[d.id] = ""
        game.apply(d.id, Choice(option=pick.id))
    assert purposes >= {"act", "route", "scene", "line", "open", "sheet", "review", "synopsis"}
    assert game.result() is not None
    # What the player reads is the words the act chose (held beats too, once reviewed).
    said = 0
    for e in game.events:
        act = e.data.get("act")
        if act and e.kind in ("message", "narration"):
            assert e.text == chosen[act]
            said += 1
        elif act and e.kind == "line":
            assert e.data["said"] == chosen[act]
            said += 1
    assert said > 20
    # Every line a person reads was chosen in an act and says so.
    lines = talk_lines(game.events)
    assert lines and all(line.rendered_from for line in lines)


def test_act_seats_conform_replay_and_leak_nothing() -> None:
    """The conformance suite with every seat in acts: random options end every game, the
    answers replay to the same events, every offered option is accepted, and no view
    (nor any act's options, which the decisions carry) holds a marker its seat may not
    know."""
    config = make_config(None, {"act_seats": EVERY_SEAT, "review": True})
    marked = config.model_copy(update={"plant_markers": True})
    report = conforms(
        MODULE,
        lambda seed: config,
        marked=lambda seed: marked,
        games=12,
        replays=12,
        leaks=12,
        decisions=2,
    )
    assert report.games_replayed == 12 and report.views_scanned > 0


def test_the_chosen_line_is_what_the_player_reads() -> None:
    game = CampaignGame(make_config(None, {"act_seats": ("scene-director",)}), 5)
    read = 0
    while read < 6:
        d = game.pending()[0]
        if d.purpose == "line":
            assert d.kind is DecisionKind.CHOOSE_ONE
            answers = CampaignAsk.of(d).answers
            spoken = [
                (o, a)
                for o, a in zip(d.options, answers, strict=True)
                if isinstance(a, Text) and a.text
            ]
            option, answer = spoken[-1]  # not the script's own first pick
            events = game.apply(d.id, Choice(option=option.id))
            assert isinstance(answer, Text)
            (seen,) = [e for e in events if e.kind == "line"]
            assert seen in game.view("player").events
            assert seen.data["said"] == answer.text and seen.data["act"] == d.id
            assert seen.text.endswith(f"“{answer.text}”")
            assert option.label == answer.text  # the model reads the line it picks
            read += 1
            continue
        game.apply(d.id, campaign_policy(game.view(d.seat), d, Rng(hash_seed(5, d.id))))


def test_a_seat_not_in_act_seats_is_asked_as_before() -> None:
    game = CampaignGame(make_config(None, {"act_seats": ("game-director",)}), 1)
    first = game.pending()[0]
    assert first.seat == "scene-director" and first.kind is DecisionKind.STRUCTURED
    assert not CampaignAsk.is_act(first)
    with pytest.raises(Exception, match="choice"):
        acts_game = CampaignGame(make_config(None, {"act_seats": ("scene-director",)}), 1)
        acts_game.apply(acts_game.pending()[0].id, Structured(value={"narration": "Hi."}))


def test_the_fallback_is_the_scripts_own_answer_in_the_same_shape() -> None:
    game = CampaignGame(make_config(None, {"act_seats": EVERY_SEAT}), 2)
    checked = 0
    while not game.is_terminal() and checked < 40:
        d = game.pending()[0]
        view = game.view(d.seat)
        fell = campaign_fallback(view, d, Rng(0))
        assert isinstance(fell, Choice) and fell.option == d.options[0].id
        answer, act = campaign_acts.answer(d, fell)
        assert act == d.id
        assert not isinstance(answer, Choice)  # the decision's own form: text or JSON
        checked += 1
        game.apply(d.id, fell)
    assert checked == 40


def test_the_script_with_act_seats_plays_the_scripts_game() -> None:
    """Option 1 is the scripted answer: the scripted game with every seat in acts reads
    like the scripted game (the campaign's lines and details, checks by rule)."""
    game = _play(6, EVERY_SEAT)
    lines = [e for e in game.events if e.kind == "line"]
    narrations = [e for e in game.events if e.kind == "narration"]
    assert lines and narrations
    formats = {
        t.format(pc="Ilse", place="", then="", memory="")
        for npc in game.campaign.npcs
        for group in (*npc.lines.values(), *npc.reactions.values())
        for t in group
    }
    for e in lines:
        said = e.data["said"]
        recalled = re.search(r"(said|told you) '.+'", said) is not None or reports(said)
        assert said in formats or recalled or said.startswith(("I don't", "You must")), said


def test_an_action_that_can_fail_is_checked_whichever_route_is_chosen() -> None:
    for pick in (0, 1):
        game = CampaignGame(make_config(None, {"act_seats": ("game-director",)}), 4)
        while game.pending()[0].purpose != "act":
            d = game.pending()[0]
            game.apply(d.id, campaign_policy(game.view(d.seat), d, Rng(0)))
        game.apply(game.pending()[0].id, Text(text="I try to pick the lock of the cabinet."))
        route = game.pending()[0]
        assert route.kind is DecisionKind.CHOOSE_ONE and len(route.options) == 2
        assert all("sneak check" in o.label for o in route.options)
        events = game.apply(route.id, Choice(option=route.options[pick].id))
        (check,) = [e for e in events if e.kind == "check"]
        assert check.data["skill"] == "sneak" and check.data["act"] == route.id


def _words(texts: list[str]) -> set[str]:
    return set(re.findall(r"kumquat\d+", " ".join(texts)))


def _secret_history(seed: int) -> tuple[CampaignGame, int, int]:
    """A campaign whose player tells a new password in each scene and asks the NPCs to
    remember it; the scene director plays in acts. At each NPC line, every password in
    its options must have been said (by anyone) in a scene that NPC attended. Returns the
    game, the line decisions checked, and how many of them came when a password had been
    said that the speaker did not witness (so the check was not vacuous)."""
    game = CampaignGame(
        make_config(None, {"act_seats": ("scene-director",), "turns_per_session": 6}), seed
    )
    checked = unwitnessed = turn = 0
    while not game.is_terminal():
        d = game.pending()[0]
        if d.seat == "player":
            turn += 1
            if turn % 3 == 0:
                text = "I go to the car park." if turn % 2 else "I go to the lab."
            elif turn % 3 == 1:
                text = f"The password is kumquat{turn}. Keep it safe."
            else:
                text = "Do you remember the password I said?"
            game.apply(d.id, Text(text=text))
            continue
        if d.purpose == "line":
            npc = CampaignAsk.of(d).npc
            witnessed = _words([t for sc in game.scenes if npc in sc.npcs for _, t in sc.said])
            said = _words([t for sc in game.scenes for _, t in sc.said])
            answers = [a.model_dump_json() for a in CampaignAsk.of(d).answers]
            offered = _words([*(o.label for o in d.options), *answers])
            assert offered <= witnessed, (d.id, npc, offered - witnessed)
            checked += 1
            unwitnessed += bool(said - witnessed)
            game.apply(d.id, Choice(option=d.options[0].id))  # the fittest: a recall if any
            continue
        game.apply(d.id, campaign_policy(game.view(d.seat), d, Rng(hash_seed(seed, d.id))))
    return game, checked, unwitnessed


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_an_npcs_options_never_hold_what_it_did_not_witness(seed: int) -> None:
    game, checked, unwitnessed = _secret_history(seed)
    assert checked > 10 and unwitnessed > 0
    # and the NPCs do recall passwords: the options are not empty of memories
    recalled = [e for e in game.events if e.kind == "line" and "kumquat" in e.data["said"]]
    assert recalled


def test_an_acts_prompt_is_short_and_shares_the_seats_prefix() -> None:
    """An act's command is a short choice (no sheet, no schema); the scene director's
    narration and its NPC lines share everything before the command."""
    game = CampaignGame(make_config(None, {"act_seats": EVERY_SEAT}), 3)
    free = CampaignGame(make_config(None, {}), 3)
    prompter = CampaignPrompter()
    compared = 0
    while not game.is_terminal() and compared < 30:
        d = game.pending()[0]
        f = free.pending()[0]
        assert (d.id, d.purpose) == (f.id, f.purpose)
        if d.seat == "scene-director":
            acted = prompter.parts(game.view(d.seat), d)
            wrote = prompter.parts(free.view(f.seat), f)
            # the stable layers are the same as in free text: the caches keep working
            assert (acted.system, acted.memory) == (wrote.system, wrote.memory)
            assert len(acted.command) < len(wrote.command)
            assert "{" not in acted.command  # no sheet JSON in an act's command
            compared += 1
        game.apply(d.id, Choice(option=d.options[0].id))
        answer, _ = campaign_acts.answer(d, Choice(option=d.options[0].id))
        free.apply(f.id, answer)
    assert compared >= 10
    # playing the first options is playing the free-text game with the scripted answers
    assert [e.text for e in game.events] == [e.text for e in free.events]


def test_a_small_model_plays_every_seat_it_has_in_acts(tmp_path: Path) -> None:
    store = Store(db_url(str(tmp_path / "p.sqlite")))
    planned = plan(store, "campaign", seed=1, model="local", probe=False)
    # the story director needs a capable model: the script plays it, not in acts
    assert planned.texts["story-director"] == "scripted"
    assert planned.config.act_seats == ("player", "scene-director", "game-director")  # type: ignore[attr-defined]
    person = plan(store, "campaign", seed=1, model="local", human="player", probe=False)
    assert person.config.act_seats == ("scene-director", "game-director")  # type: ignore[attr-defined]
    scripted = plan(store, "campaign", seed=1, model="scripted", probe=False)
    assert scripted.config.act_seats == ()  # type: ignore[attr-defined]


def test_a_failing_model_in_acts_falls_back_to_the_scripted_line(
    cli: CliRunner, db_path: Path
) -> None:
    """Every call fails (chaos at rate 1): each director answer is the fallback's, the
    scripted answer as an act, and the player still reads no debris."""
    chaos = "chaos(rate=1.0):scripted"
    out = cli(
        "watch",
        "campaign",
        "--model",
        "scripted",
        "--seat",
        f"scene-director={chaos}",
        "--seat",
        f"game-director={chaos}",
        "--set",
        "act_seats=scene-director,game-director",
        "--set",
        "sessions=1",
        "--set",
        "turns_per_session=3",
        "--seed",
        "2",
        "--quiet",
    )
    assert out.returncode == 0, out.stderr
    (game_id,) = re.findall(r"saved as (ca-[0-9a-f]+)", out.stdout)
    store = Store(db_url(str(db_path)))
    report, scores = score_game(store, game_id)
    assert report.unlinked == 0 and report.debris == 0
    rows = store.actions(game_id)
    acted = [r for r in rows if r.seat in ("scene-director", "game-director")]
    assert acted and all(isinstance(r.action, Choice) for r in acted)
    # each fell back (a model seat answers a one-option decision without a call: "engine")
    assert {r.by for r in acted} <= {"fallback", "engine"}
    by = {r.decision_id: r.by for r in rows}
    acting = [s for s in scores if s.seat in ("scene-director", "game-director")]
    assert sum(bool(s.fallback) for s in acting) > 5
    assert all(s.fallback or by[_act(s.seq, store, game_id)] == "engine" for s in acting)


def _act(seq: int, store: Store, game_id: str) -> str:
    (event,) = [e for e in store.events(game_id) if e.seq == seq]
    return str(event.data["act"])


def test_module_hooks_name_act_seats() -> None:
    assert MODULE.small_model_options is not None and MODULE.small_system_options is not None
    assert MODULE.small_model_options(("player",)) == {"act_seats": ["player"]}
    assert MODULE.small_system_options(("scene-director",)) == {"act_seats": ["scene-director"]}

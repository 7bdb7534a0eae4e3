"""The campaign's gates: each engine role's text is screened against what its audience may
not know (night_school's own secrets, no markers needed), a campaign played by indiscreet
directors audits clean only because of them, and the scene director playing one NPC never
holds another's private sheet."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from parlour.core.actions import Action, Structured, Text
from parlour.core.conformance import strings_in
from parlour.core.decisions import Decision
from parlour.core.rng import Rng
from parlour.games.campaign import CampaignGame, make_config
from parlour.games.campaign.gates import hidden_from, known_to
from parlour.games.campaign.knowledge import NARRATOR
from parlour.games.campaign.policies import campaign_policy
from parlour.games.campaign.prompts import CampaignPrompter
from parlour.runtime import session as sessions
from parlour.runtime.audit import audit_game
from parlour.runtime.seating import SeatPlan
from parlour.runtime.store import Store

from .helpers import forbidden

DIRECTORS = ("story-director", "scene-director", "game-director")
INDISCREET = "python:tests.campaign.indiscreet:agent"


def _play_until(game: CampaignGame, wanted: Callable[[Decision], bool], seed: int = 0) -> Decision:
    """Scripted play until a decision ``wanted`` is pending; returns it."""
    rng = Rng(seed)
    for _ in range(500):
        decision = game.pending()[0]
        if wanted(decision):
            return decision
        game.apply(decision.id, campaign_policy(game.view(decision.seat), decision, rng))
    raise AssertionError("never asked")


def _to_story(game: CampaignGame) -> Decision:
    """Play the opening beat, then the player leaves: the story director is asked."""
    act = _play_until(game, lambda d: d.purpose == "act")
    game.apply(act.id, Text(text="I go to the car park."))
    game.apply(game.pending()[0].id, Structured(value={"route": "needs_story_director"}))
    return game.pending()[0]


def _synopsis(text: str, npcs: list[str], **more: Any) -> Structured:
    return Structured(
        value={"text": text, "npc_list": npcs, "location": "car_park", "new_scene": True, **more}
    )


def _game(**options: object) -> CampaignGame:
    return CampaignGame(make_config(None, dict(options)), 2)


# -- (a) one gate per flow, on night_school's secret texts ---------------------------------


def test_a_synopsis_may_carry_only_what_every_npc_of_its_new_cast_knows() -> None:
    game = _game()
    story = _to_story(game)
    vampire = "Ilse is a vampire; sunlight burns her and she drinks blood to live."
    refused = game.screen(story.id, _synopsis(vampire, ["tomas"]))
    assert refused is not None and refused.startswith("text: this would tell the scene director")
    assert "secret:ilse_vampire" in refused
    debt = "Dov hides his side income and must pay off a debt to a loan shark."
    refused = game.screen(story.id, _synopsis(debt, ["priya"]))  # Dov is not there
    assert refused is not None and "npc:dov:agenda" in refused and "secret:dov_debt" in refused
    blog = "Priya runs an anonymous blog about the college's night-time anomalies."
    assert game.screen(story.id, _synopsis(blog, ["priya"])) is None  # hers, and she is alone
    refused = game.screen(story.id, _synopsis(blog, ["priya", "tomas"]))  # Tomas would read it
    assert refused is not None and "secret:priya_ghosts" in refused
    plain = "You arrive at the car park. Someone is waiting under the sodium lamps."
    assert game.screen(story.id, _synopsis(plain, ["dov"])) is None


def test_an_ooc_reply_may_tell_the_player_their_own_secret_and_nothing_else() -> None:
    game = _game()
    story = _to_story(game)
    own = "Remember: your blood comes from Dov, a porter who sells it from the morgue fridge."
    assert game.screen(story.id, _synopsis("You arrive.", ["dov"], ooc_reply=own)) is None
    crossbow = "Tomas keeps a crossbow in the boiler room; he used to hunt night folk for pay."
    refused = game.screen(story.id, _synopsis("You arrive.", ["dov"], ooc_reply=crossbow))
    assert refused is not None and refused.startswith("ooc_reply: this would tell the player")
    assert "secret:tomas_hunter" in refused
    # notes for itself stay with the story director: no gate
    notes = _synopsis("You arrive.", ["dov"], notes_for_self=crossbow)
    assert game.screen(story.id, notes) is None


def test_narration_is_screened_for_the_player_and_for_every_npc_present() -> None:
    game = _game()
    _play_until(game, lambda d: d.purpose == "act")
    scene = _play_until(game, lambda d: d.purpose == "scene")
    agenda = "Priya wants to win the regional science prize, with you as her partner."
    refused = game.screen(scene.id, Structured(value={"narration": agenda}))
    assert refused is not None and "npc:priya:agenda" in refused and "the player" in refused
    ok = Structured(value={"narration": "Rain drums on the blacked-out window."})
    assert game.screen(scene.id, ok) is None


def test_a_line_may_not_tell_the_player_an_npc_secret_nor_the_scene_a_pc_secret() -> None:
    game = _game()
    line = _play_until(game, lambda d: d.purpose == "line")
    own = "Between us: I run an anonymous blog about the night-time anomalies at this college."
    refused = game.screen(line.id, Text(text=own))
    assert refused is not None and "secret:priya_ghosts" in refused and "the player" in refused
    # the player knows their own secret, but the line becomes part of the scene every NPC
    # context sees: the scene director may not hold it
    pc = "I know you are a vampire: the sunlight burns you and you drink blood."
    refused = game.screen(line.id, Text(text=pc))
    assert refused is not None and "secret:ilse_vampire" in refused
    assert "the scene director" in refused and "the player" not in refused
    assert game.screen(line.id, Text(text="Ready when you are.")) is None
    assert game.screen(line.id, Text(text="")) is None  # silence tells nothing


def test_a_check_reason_is_screened_for_the_player_and_the_scene() -> None:
    game = _game()
    _play_until(game, lambda d: d.purpose == "act")
    game.apply(game.pending()[0].id, Text(text="I persuade Priya to keep this between us."))
    route = game.pending()[0]
    assert route.purpose == "route"

    def check(reason: str) -> Structured:
        return Structured(
            value={
                "route": "continue_scene",
                "check": {"skill": "persuade", "difficulty": "hard", "reason": reason},
            }
        )

    refused = game.screen(route.id, check("a vampire whom sunlight burns must drink blood"))
    assert refused is not None and refused.startswith("check.reason:")
    assert "secret:ilse_vampire" in refused
    assert game.screen(route.id, check("Priya is stubborn tonight")) is None


def test_a_rewrite_reason_is_screened_for_the_scene_director_only_when_it_is_sent() -> None:
    game = _game(review=True)
    review = _play_until(game, lambda d: d.purpose == "review")
    reason = "Keep out that Dov owes money to a loan shark asking about his customer."
    refused = game.screen(review.id, Structured(value={"approve": False, "reason": reason}))
    assert refused is not None and refused.startswith("reason:") and "secret:dov_debt" in refused
    approved = Structured(value={"approve": True, "reason": reason})  # the reason goes nowhere
    assert game.screen(review.id, approved) is None


def test_a_session_sheet_may_hold_only_what_its_npc_knows() -> None:
    game = _game(sessions=2, turns_per_session=1)
    sheet = _play_until(game, lambda d: d.purpose == "sheet")
    npc = str(sheet.json_schema["properties"]["npc"]["const"])  # type: ignore[index]

    def answer(note: str) -> Structured:
        return Structured(value={"npc": npc, "attitude": "curious", "note": note})

    history = "She was turned on a night bus and buys blood bags from a nervous hospital porter."
    refused = game.screen(sheet.id, answer(history))
    assert refused is not None and "pc:history" in refused
    assert game.screen(sheet.id, answer("Met the player; liked her questions.")) is None


def test_the_players_own_answers_are_never_screened() -> None:
    game = _game()
    act = _play_until(game, lambda d: d.purpose == "act")
    everything = "I am a vampire and Tomas hunts my kind; Dov owes a loan shark."
    assert game.screen(act.id, Text(text=everything)) is None


def test_hidden_from_and_known_to_follow_who_is_present() -> None:
    game = _game()
    st = game._st
    to_player = {s.key for s in hidden_from(st, "player", ("priya",))}
    assert "npc:priya:agenda" in to_player and "secret:tomas_hunter" in to_player
    assert not {"pc:history", "secret:ilse_vampire"} & to_player
    # the scene director over a whole beat with Priya on stage may know Priya's sheet
    scene = {s.key for s in hidden_from(st, "scene-director", ("priya",))}
    assert "npc:priya:agenda" not in scene and "npc:tomas:agenda" in scene
    assert {"pc:history", "secret:ilse_vampire"} <= scene
    # ... but narrating for Priya and Tomas together, neither's
    both = {s.key for s in hidden_from(st, "scene-director", ("priya", "tomas"), NARRATOR)}
    assert {"npc:priya:agenda", "npc:tomas:agenda"} <= both
    assert any("Ilse is a vampire" in t for t in known_to(st, "player", ()))
    assert not any("vampire" in t for t in known_to(st, "scene-director", ("priya",)))


# -- (b) indiscreet directors: clean with the gate, leaking without it ---------------------


def _indiscreet_campaign(
    store: Store,
    spec: str = INDISCREET,
    player: str = "scripted",
    review: bool = True,
    seed: int = 3,
) -> str:
    plan = SeatPlan(
        default=player,
        system_default="scripted",
        overrides={seat: spec for seat in DIRECTORS},
    )
    session = sessions.start(
        store,
        "campaign",
        players=None,
        seed=seed,
        options={"plant_markers": True, "review": review},
        plan=plan,
    )
    assert asyncio.run(session.run()) is not None
    return session.game_id


def test_indiscreet_directors_leak_nothing_through_the_gates(store: Store) -> None:
    report = audit_game(store, _indiscreet_campaign(store))
    assert report.status == "clean", [str(leak) for leak in report.leaks]
    assert report.forgeries == []
    # the gate did refuse them: the scripted fallback answered in their place
    by = {row.decision_id: row.by for row in store.actions(report.game_id)}
    assert by["s1:scene:priya"] == "fallback"
    assert INDISCREET in by.values()  # ... and not every answer told a secret


def test_without_the_gate_the_synopsis_leaks_through_the_scene_director_to_the_player(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_gate(self: CampaignGame, decision_id: str, action: Action) -> str | None:
        return None

    monkeypatch.setattr(CampaignGame, "screen", no_gate)
    report = audit_game(store, _indiscreet_campaign(store))
    assert report.status == "leak"
    laundered = [
        leak
        for leak in report.leaks
        if leak.seat == "player"
        and len(leak.path) == 2
        and leak.path[0].startswith("story-director's answer")
        and "→ scene-director (view at step" in leak.path[0]
        and "view.public.synopsis" in leak.path[0]
        and leak.path[1].startswith("scene-director's answer")
    ]
    assert laundered, [str(leak) for leak in report.leaks]


@pytest.mark.parametrize("model", ["indiscreet", "indiscreet(paraphrase=true)"])
def test_the_indiscreet_model_at_every_seat_audits_clean_only_through_the_gates(
    store: Store, monkeypatch: pytest.MonkeyPatch, model: str
) -> None:
    """The model backend that repeats (or restates) every marked sentence of its prompt, at
    every seat. The text guards refuse many of its copies first (they copy the prompt);
    what they let through, only the gates stop: a session sheet full of the PC's secrets
    (verbatim), an NPC line telling its own agenda to the player (restated)."""
    report = audit_game(store, _indiscreet_campaign(store, model, model, False, seed=1))
    assert report.status == "clean", [str(leak) for leak in report.leaks]
    refused = [c for c in store.calls(report.game_id) if "may not know" in c.error]
    assert refused  # the gate fed its refusals back to the model's retries

    def no_gate(self: CampaignGame, decision_id: str, action: Action) -> str | None:
        return None

    monkeypatch.setattr(CampaignGame, "screen", no_gate)
    report = audit_game(store, _indiscreet_campaign(store, model, model, False, seed=1))
    assert report.status == "leak"
    hops = [" → ".join(leak.path) for leak in report.leaks]
    assert any(hop.startswith("story-director's answer to s1:sheet:") for hop in hops), hops
    if "paraphrase" in model:
        told = [leak for leak in report.leaks if leak.seat == "player"]
        assert told and all(leak.author == "scene-director" for leak in told), hops


# -- (c) one NPC's line: its own sheet, nobody else's ----------------------------------------


def _marks(game: CampaignGame, *keys: str) -> set[str]:
    return {m for m in game.secret_markers() if any(m.endswith(f":{k}]]") for k in keys)}


def _given(game: CampaignGame, decision: Decision) -> str:
    view = game.view(decision.seat)
    parts = CampaignPrompter().parts(view, decision)
    strings = strings_in({"view": view.model_dump(mode="json"), "prompt": parts.model_dump()}, "")
    return "\n".join(text for _, text in strings)


def test_two_npcs_in_one_scene_never_see_each_others_agenda_or_secrets() -> None:
    game = _game(plant_markers=True)
    story = _to_story(game)
    game.apply(story.id, _synopsis("Priya and Tomas argue by the bus shelter.", ["priya", "tomas"]))
    priya = _marks(game, "npc:priya:agenda", "secret:priya_ghosts")
    tomas = _marks(game, "npc:tomas:agenda", "secret:tomas_hunter")
    assert len(priya) == len(tomas) == 2

    narration = game.pending()[0]
    assert narration.purpose == "scene"
    seen = _given(game, narration)
    assert not {m for m in priya | tomas if m in seen}  # nobody's private sheet
    game.apply(narration.id, Structured(value={"narration": "The lamps buzz."}))

    first = game.pending()[0]
    assert (first.purpose, first.id) == ("line", "s1t1:scene:priya")
    seen = _given(game, first)
    assert priya <= {m for m in priya if m in seen}  # her own sheet is there
    assert not {m for m in tomas if m in seen}
    assert forbidden(game, "scene-director", seen) == []
    game.apply(first.id, Text(text="Tomas, tell her about the basement."))

    second = game.pending()[0]
    assert (second.purpose, second.id) == ("line", "s1t1:scene:tomas")
    seen = _given(game, second)
    assert tomas <= {m for m in tomas if m in seen}
    assert not {m for m in priya if m in seen}
    assert "Tomas, tell her about the basement." in seen  # her line, as anyone heard it
    assert forbidden(game, "scene-director", seen) == []
    # while Tomas speaks, Priya's agenda is no longer the scene director's to hold
    agenda = next(iter(_marks(game, "npc:priya:agenda")))
    assert "scene-director" not in game.secret_markers()[agenda]

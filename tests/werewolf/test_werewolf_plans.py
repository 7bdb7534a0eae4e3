"""Day plans (games/werewolf/plans.py): asked before the talk and after a seer claim,
ranked from the seat's own belief, private, and followed by the scripted players' words
and votes."""

from __future__ import annotations

from parlour.core import Choice, Choices, Text
from parlour.core.game import Result
from parlour.games.werewolf import Role, WerewolfGame
from parlour.games.werewolf.belief import belief
from parlour.games.werewolf.metrics import werewolf_facts
from parlour.games.werewolf.record import stances
from tests.werewolf.helpers import day_one, new_game, pending, scripted, seat, seats


def _day_one(seed: int = 2, **over: object) -> WerewolfGame:
    return day_one(seed, **{"plans": True, **over})


def _answer_plans(game: WerewolfGame) -> None:
    for d in pending(game, "plan"):
        game.apply(d.id, Choice(option=d.option_ids[0]))


def test_every_living_player_plans_before_the_talk_from_its_own_belief() -> None:
    game = _day_one()
    plans = pending(game, "plan")
    assert sorted(d.seat for d in plans) == sorted(p.id for p in game.state.living())
    assert not pending(game, "route")  # the talk waits for the plans
    for d in plans:
        b = belief(game.view(d.seat))
        first = d.option_ids[0]
        assert b.evil[first] == max(b.evil[s] for s in d.option_ids)
        if game.state.player(d.seat).is_wolf:
            assert not set(d.option_ids) & set(seats(game, Role.WEREWOLF))
    _answer_plans(game)
    events = [e for e in game.events if e.kind == "plan"]
    assert len(events) == 7
    for e in events:
        # a plan is private: only its seat sees it
        for p in game.state.players:
            visible = any(v == e for v in game.view(p.id).events if v.kind == "plan")
            assert visible == (p.id == e.speaker)
    assert pending(game, "route")


def test_a_seer_claim_asks_for_plans_again_and_a_change_is_recorded() -> None:
    game = _day_one()
    _answer_plans(game)
    seer = seat(game, Role.SEER)
    wolf = seats(game, Role.WEREWOLF)[0]
    villager = seats(game, Role.VILLAGER)[0]
    before = game.state.discussion.plans[villager]  # type: ignore[union-attr]
    route = pending(game, "route")[0]
    batch = [seer] if seer in route.required_any else [seer, route.required_any[0]]
    game.apply(route.id, Choices(options=tuple(batch)))
    speak = pending(game, "speak")[0]
    assert speak.seat == seer
    game.apply(speak.id, Text(text=f"I am the seer. I checked {game.state.name(wolf)}: evil."))
    again = pending(game, "plan")
    assert seer not in {d.seat for d in again}
    mine = next(d for d in again if d.seat == villager)
    assert mine.option_ids[0] == wolf
    assert "claimed the seer" in mine.prompt
    game.apply(mine.id, Choice(option=wolf))
    changed = [e for e in game.events if e.kind == "plan" and e.speaker == villager]
    assert changed[-1].data["vote"] == wolf
    if before != wolf:
        assert changed[-1].data["changed_from"] == before
        assert "Changed from voting" in changed[-1].text


def test_the_vote_offers_the_plan_first_and_asks_for_a_reason_to_differ() -> None:
    game = _day_one(messages_per_player=0)
    plans = pending(game, "plan")
    chosen = {d.seat: d.option_ids[-1] for d in plans}
    for d in plans:
        game.apply(d.id, Choice(option=chosen[d.seat]))
    vote = pending(game, "vote")[0]
    assert vote.option_ids[0] == chosen[vote.seat]
    assert vote.options[0].label.endswith("(your plan)")
    assert "give the reason" in vote.prompt


def test_without_plans_nobody_is_asked() -> None:
    game = _day_one(plans=False)
    assert not pending(game, "plan")
    assert pending(game, "route")


def test_engine_plans_are_picked_without_asking_as_the_scripted_player_would() -> None:
    """Seats a small model plays (``engine_plans``) get the scripted player's pick from
    their own belief as a private plan event and vote by it: no plan or vote decision is
    opened for them, and every vote agrees with the day's words."""
    asked = _day_one()
    expected = {d.seat: d.option_ids[0] for d in pending(asked, "plan")}
    everyone = tuple(p.id for p in asked.state.players)
    game = _day_one(engine_plans=everyone)
    assert not pending(game, "plan") and pending(game, "route")
    events = {e.speaker: e for e in game.events if e.kind == "plan"}
    assert {s: e.data["vote"] for s, e in events.items()} == expected
    for seat_id, event in events.items():
        seen = [v for v in game.view(seat_id).events if v.kind == "plan"]
        assert seen == [event]  # private, as an answered plan is
    for mode in ("sequential", "simultaneous"):
        finished = scripted(
            new_game(3, players=7, plans=True, engine_plans=everyone, vote_mode=mode), 3
        )
        assert finished.result() is not None
        # nobody was asked to plan or vote: each ballot is its voter's plan of that day
        plans: dict[tuple[int, str], str] = {}
        for e in finished.events:
            if e.kind == "plan":
                plans[(int(e.data["day"]), str(e.speaker))] = str(e.data["vote"])
        facts = werewolf_facts(
            finished, finished.result() or Result(summary="", winners=()), list(everyone)
        )
        total = {
            k: sum(c.get(k, 0.0) for c in facts.counters.values())
            for k in ("votes_after_words", "votes_agree_words", "pack_votes")
        }
        assert plans and total["pack_votes"] == 0
        assert total["votes_agree_words"] == total["votes_after_words"] > 0


def _facts(seeds: range, players: int = 7) -> dict[str, float]:
    total: dict[str, float] = {}
    for seed in seeds:
        game = scripted(new_game(seed, players=players, plans=True), seed)
        facts = werewolf_facts(
            game,
            game.result() or Result(summary="", winners=()),
            [p.id for p in game.state.players],
        )
        for counters in facts.counters.values():
            for key, value in counters.items():
                total[key] = total.get(key, 0.0) + value
    return total


def test_scripted_players_vote_as_they_spoke_and_wolves_spare_the_pack() -> None:
    total = _facts(range(1, 13))
    assert total["wolf_votes"] > 20
    assert total["pack_votes"] == 0
    assert total["votes_after_words"] > 100
    assert total["votes_agree_words"] / total["votes_after_words"] >= 0.9


def test_a_wolf_keeps_to_one_fake_claim() -> None:
    claims_seen = 0
    for seed in range(1, 25):
        game = scripted(new_game(seed, players=8, plans=True), seed)
        names = {p.id: p.name for p in game.state.players}
        for wolf in seats(game, Role.WEREWOLF):
            said = [
                stances(e, names) for e in game.events if e.kind == "speech" and e.speaker == wolf
            ]
            targets = {r[0] for s in said if s.claims_seer for r in s.readings}
            claims_seen += bool(targets)
            assert len(targets) <= 1, (seed, wolf, targets)
    assert claims_seen > 0


def test_speech_acts_offer_the_plan_first_and_never_defend_its_target() -> None:
    game = _day_one(speech="acts")
    _answer_plans(game)
    disc = game.state.discussion
    assert disc is not None
    route = pending(game, "route")[0]
    game.apply(route.id, Choices(options=(route.required_any[0],)))
    speak = pending(game, "speak")[0]
    target = disc.plans[speak.seat]
    first = speak.option_ids[0].split(":")
    assert first[0] == "reveal" or first[:2] == ["accuse", target], speak.option_ids[:3]
    assert not any(o.startswith(f"defend:{target}:") for o in speak.option_ids)

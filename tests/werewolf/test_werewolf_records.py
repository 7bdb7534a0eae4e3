"""Exact records reach prompts as facts, not summaries, several days into a game."""

from __future__ import annotations

from parlour.core.rng import Rng
from parlour.games.werewolf import MODULE, WerewolfGame
from parlour.games.werewolf.prompts import PROMPTER, transcript


def _play_to_day(day: int, seed: int = 4) -> WerewolfGame:
    game = MODULE.game.new(MODULE.make_config(12, {"messages_per_player": 1}), seed)
    assert isinstance(game, WerewolfGame)
    rng = Rng(seed)
    while not game.is_terminal():
        decision = game.pending()[0]
        if decision.purpose == "speak" and game.state.day >= day:
            return game
        game.apply(decision.id, MODULE.policy(game.view(decision.seat), decision, rng))
    raise AssertionError("the game ended too early; pick another seed")


def test_vote_records_results_and_nights_are_exact_after_several_days() -> None:
    game = _play_to_day(3)
    decision = game.pending()[0]
    view = game.view(decision.seat)
    memory = PROMPTER.parts(view, decision).memory
    names = {s.id: s.name for s in game.seats()}
    for day in (1, 2):
        votes = [e.text for e in game.events if e.kind == "vote" and e.phase == f"day {day}"]
        assert votes, f"no vote events on day {day}"
        block = memory.split(f"Day {day} votes, in order:\n")[1]
        lines = [line.strip() for line in block.splitlines()[: len(votes)]]
        assert lines == votes
        (result,) = [
            e.text for e in game.events if e.kind == "elimination" and e.phase == f"day {day}"
        ]
        assert f"Result: {result}" in memory
    for event in game.events:
        if event.kind == "death":
            night = event.data["night"]
            told = event.text.split(": ", 1)[1] if event.data["dead"] else "Nobody died."
            assert f"Night {night}: {told}" in memory
    alive = ", ".join(p.name for p in game.state.players if p.alive)
    assert f"Alive: {alive}." in memory
    dead = [names[p.id] for p in game.state.players if not p.alive]
    assert dead and all(name in memory.split("Dead: ")[1].splitlines()[0] for name in dead)


def test_the_seer_sees_its_exact_table_and_the_doctor_its_restriction() -> None:
    game = _play_to_day(3)
    decision = game.pending()[0]
    for player in game.state.players:
        view = game.view(player.id)
        memory = PROMPTER.parts(view, decision.model_copy(update={"seat": player.id})).memory
        if player.role.value == "seer":
            results = [e for e in game.events if e.kind == "seer_result"]
            assert results and "Your investigations (exact):" in memory
            for name, reading in (view.private.investigations or {}).items():
                assert f"  {name}: {reading}" in memory
        elif player.role.value == "doctor" and view.private.cannot_protect_tonight:
            assert f"You may not protect {view.private.cannot_protect_tonight}" in memory
        else:
            assert "Your investigations" not in memory


def test_the_transcript_window_is_the_current_day() -> None:
    game = _play_to_day(3)
    decision = game.pending()[0]
    lines = transcript(game.view(decision.seat))
    day3 = {e.text for e in game.events if e.phase in ("dawn 3", "day 3")}
    earlier = {e.text for e in game.events if e.phase == "day 1" and e.kind == "speech"}
    texts = {u.text for u in lines}
    assert texts <= day3 | {""}
    assert not (texts & (earlier - day3))

"""The prompter: layered parts built from the view only, exact records, no leaked secrets."""

from __future__ import annotations

from parlour.core.prompting import PromptParts
from parlour.core.rng import Rng, hash_seed
from parlour.games.werewolf import MODULE, Role, WerewolfConfig, WerewolfGame, policy
from parlour.games.werewolf.prompts import ROUTER_SYSTEM


def _text(parts: PromptParts) -> str:
    lines = [parts.system, parts.memory, parts.command, parts.reminders]
    lines += [f"{u.speaker}: {u.text}" for u in parts.transcript]
    return "\n".join(lines)


def _play_with_prompts(seed: int, players: int) -> dict[str, int]:
    config = WerewolfConfig(
        players=players, maniac=seed % 2 == 0, plant_markers=True, messages_per_player=2
    )
    game = WerewolfGame.new(config, seed)
    systems: dict[str, str] = {}
    seen = {"decisions": 0, "own": 0, "votes_in_memory": 0}
    while not game.is_terminal():
        for d in game.pending():
            view = game.view(d.seat)
            parts = MODULE.prompter.parts(view, d)
            text = _text(parts)
            for marker, allowed in game.secret_markers().items():
                assert d.seat in allowed or marker not in text, (d.id, marker)
            # the system layer never changes for a seat
            assert systems.setdefault(d.seat, parts.system) == parts.system
            for option in d.options:
                assert f"- {option.label}" in parts.command
            if d.seat == "router":
                assert parts.system.startswith(ROUTER_SYSTEM) and "NEEDS TURN" in parts.command
            else:
                me = game.state.player(d.seat)
                assert f"You are {me.name}" in parts.system
                assert (me.role is Role.WEREWOLF and game.state.role_counts["werewolf"] > 1) == (
                    "pack mates" in parts.system
                )
                own = [u for u in parts.transcript if u.own]
                assert all(u.speaker == me.name for u in own)
                seen["own"] += bool(own)
            for day in view.public.days:
                for line in day.votes:
                    assert line in parts.memory
                    seen["votes_in_memory"] += 1
            seen["decisions"] += 1
            game.apply(d.id, policy(view, d, Rng(hash_seed(seed, d.id))))
    return seen


def test_prompts_hold_exact_records_and_no_foreign_secrets() -> None:
    totals = {"decisions": 0, "own": 0, "votes_in_memory": 0}
    for seed, players in enumerate((5, 7, 8, 10, 12)):
        for key, value in _play_with_prompts(seed, players).items():
            totals[key] += value
    assert totals["decisions"] > 300 and totals["own"] > 20 and totals["votes_in_memory"] > 50


def test_sequential_vote_command_and_transcript() -> None:
    game = WerewolfGame.new(
        WerewolfConfig(players=5, first_phase="day", messages_per_player=1, diaries=False), 3
    )
    while game.pending()[0].purpose != "vote":
        d = game.pending()[0]
        game.apply(d.id, policy(game.view(d.seat), d, Rng(hash_seed(3, d.id))))
    d = game.pending()[0]
    parts = MODULE.prompter.parts(game.view(d.seat), d)
    assert "You vote 1 of 5." in parts.command
    speeches = [u for u in parts.transcript if u.kind == "speech"]
    assert len(speeches) >= 1
    assert "Living players:" in parts.reminders

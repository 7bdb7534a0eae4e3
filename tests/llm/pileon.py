"""The pile-on position: 8 of 9 players accuse one bot, and it votes 8th.

Shared by the test and by ``tests/fixtures/record.py`` (which records the model's calls
for it), so both build exactly the same view and prompt.
"""

from __future__ import annotations

from parlour.core.actions import Choice, Choices, Text
from parlour.core.decisions import Decision
from parlour.games.werewolf import MODULE, WerewolfGame

OPTIONS: dict[str, object] = {
    "first_phase": "day",
    "messages_per_player": 2,
    "vote_mode": "sequential",
    "diaries": False,
    "plans": False,  # the recorded ballots (tests/fixtures/pileon_*.json) predate day plans
    "tie_rule": "no_elimination",  # and ties drawn by lot: the rules in the prompt stay
}
SEED = 5
#: who the scripted router picked, batch by batch, when the fixtures were recorded: the
#: position (and so the recorded prompt) stays the same when the router's policy changes
ROUTES: tuple[tuple[str, ...], ...] = (
    ("p1", "p2", "p3"),
    ("p8", "p4"),
    ("p8", "p5"),
    ("p6", "p7", "p9"),
    ("p8", "p1"),
    ("p2", "p3", "p4"),
    ("p5", "p6", "p7"),
)


def _drive(target: str | None) -> tuple[WerewolfGame, Decision | None]:
    game = MODULE.game.new(MODULE.make_config(9, dict(OPTIONS)), SEED)
    assert isinstance(game, WerewolfGame)
    names = {s.id: s.name for s in game.seats()}
    routes = iter(ROUTES)
    while True:
        (decision, *_) = game.pending()
        if decision.purpose == "route":
            game.apply(decision.id, Choices(options=next(routes)))
        elif decision.purpose == "speak":
            if decision.seat == target:
                text = "I am innocent. You are all making a terrible mistake."
            else:
                accused = names.get(target or "", "someone")
                text = f"I accuse {accused}. {accused} has been dodging every question."
            game.apply(decision.id, Text(text=text))
        elif decision.purpose == "vote":
            if decision.seat == target:
                return game, decision
            if target is None:
                return game, None
            game.apply(decision.id, Choice(option=target, reason="everyone says so"))
        else:
            raise AssertionError(f"unexpected decision {decision.purpose}")


def pileon() -> tuple[WerewolfGame, Decision, str]:
    """The game at the accused player's ballot (8th of 9), the ballot, and the accused."""
    game, _ = _drive(None)
    target = [p.id for p in game.state.players][7]  # the 8th in the sequential vote
    game, decision = _drive(target)
    assert decision is not None
    return game, decision, target

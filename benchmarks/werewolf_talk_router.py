"""Does the scripted router follow the talk? Turn shares and answered accusations.

Plays ``--games`` scripted werewolf games (seeds ``--seed`` … ``--seed + games - 1``, the
default rules of a new game, day plans on; every seat and the router scripted) twice:
once with the scripted router (``policies._route``: the player the last message accused,
questioned or named speaks next) and once with the baseline, the router as it was before
(a fixed batch of up to three: addressed players, then the silent, then NEEDS TURN),
copied below so both run in the same process on the same seeds.

Reported per router, over every game day:
- turn share per player: the mean of the largest and of the smallest share of a day's
  turns one living player took (an even split of a 6-player day is 16.7%);
- silent days: living players who said nothing (no speech) in a whole day, over all
  (player, day) pairs;
- answered: accusations (a speech that accuses a living player, per ``belief.stances``)
  the accused answered with a speech of their own within the next two turns.

    uv run python benchmarks/werewolf_talk_router.py [--games 100] [--seed 1] [--players 7]
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from parlour.core.actions import Action, Choices
from parlour.core.decisions import Decision
from parlour.core.rng import Rng, hash_seed
from parlour.games.werewolf import WerewolfConfig, WerewolfGame, policy
from parlour.games.werewolf.ask import RouteAsk
from parlour.games.werewolf.record import stances

Router = Callable[[Decision], tuple[str, ...]]


def fixed_router(decision: Decision) -> tuple[str, ...]:
    """The baseline: the scripted router before it followed the talk."""
    options = list(decision.option_ids)
    rows = [r for r in RouteAsk.of(decision).players if r.id in options]
    addressed = [r.id for r in rows if r.addressed]
    silent = [r.id for r in rows if not r.messages_today and not r.passes_today]
    needs = [r.id for r in rows if r.needs_turn]
    order = list(dict.fromkeys([*addressed, *silent, *needs]))
    k = max(1, min(3, decision.max_choices))
    batch = order[:k] or options[:1]
    if needs and not set(batch) & set(needs):
        batch = [*batch[: k - 1], needs[0]]
    return tuple(batch)


@dataclass
class Tally:
    max_share: list[float] = field(default_factory=list)
    min_share: list[float] = field(default_factory=list)
    silent: int = 0
    player_days: int = 0
    accusations: int = 0
    answered: int = 0
    seconds: float = 0.0


def play(seed: int, players: int, router: Router | None) -> WerewolfGame:
    game = WerewolfGame.new(WerewolfConfig(players=players, plans=True), seed)
    for _ in range(50_000):
        if game.is_terminal():
            return game
        for d in game.pending():
            action: Action
            if d.purpose == "route" and router is not None:
                action = Choices(options=router(d))
            else:
                action = policy(game.view(d.seat), d, Rng(hash_seed(seed, d.id)))
            game.apply(d.id, action)
    raise RuntimeError(f"seed {seed}: the game did not end")


def measure(game: WerewolfGame, tally: Tally) -> None:
    names = {p.id: p.name for p in game.state.players}
    turns: dict[int, list[tuple[str, str, tuple[str, ...]]]] = defaultdict(list)
    living: dict[int, set[str]] = {}
    for e in game.events:
        if e.kind == "phase" and e.phase.startswith("day ") and "Alive: " in e.text:
            day = int(e.phase.split()[1])
            alive_names = e.text.split("Alive: ", 1)[1].rstrip(".").split(", ")
            living[day] = {s for s, n in names.items() if n in alive_names}
        if e.kind in ("speech", "pass", "call_vote") and "turn" in e.data:
            day = int(e.data["day"])
            accused = stances(e, names).accused if e.kind == "speech" else ()
            turns[day].append((str(e.data.get("seat", "")), e.kind, accused))
    for day, order in turns.items():
        alive = living.get(day, set())
        if not order or not alive:
            continue
        counts = {s: 0 for s in alive}
        spoke = set()
        for seat, kind, _ in order:
            if seat in counts:
                counts[seat] += 1
            if kind == "speech":
                spoke.add(seat)
        tally.max_share.append(max(counts.values()) / len(order))
        tally.min_share.append(min(counts.values()) / len(order))
        tally.silent += len(alive - spoke)
        tally.player_days += len(alive)
        for i, (seat, _, accused) in enumerate(order):
            for target in accused:
                if target == seat or target not in alive:
                    continue
                tally.accusations += 1
                after = order[i + 1 : i + 3]
                tally.answered += any(s == target and k == "speech" for s, k, _ in after)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=7)
    args = ap.parse_args()
    routers: dict[str, Router | None] = {"fixed (baseline)": fixed_router, "talk": None}
    results: dict[str, Tally] = {}
    for label, router in routers.items():
        tally = Tally()
        start = time.perf_counter()
        for seed in range(args.seed, args.seed + args.games):
            measure(play(seed, args.players, router), tally)
        tally.seconds = time.perf_counter() - start
        results[label] = tally
    print(f"{args.games} scripted games, {args.players} players, seeds {args.seed}..")
    print(
        f"{'router':18} {'max share':>10} {'min share':>10} {'silent days':>12} "
        f"{'answered ≤2 turns':>18} {'seconds':>8}"
    )
    for label, t in results.items():
        mx = sum(t.max_share) / len(t.max_share)
        mn = sum(t.min_share) / len(t.min_share)
        silent = t.silent / t.player_days
        answered = t.answered / t.accusations if t.accusations else 0.0
        print(
            f"{label:18} {mx:>10.1%} {mn:>10.1%} {silent:>12.1%} "
            f"{answered:>10.1%} of {t.accusations:<5} {t.seconds:>7.1f}"
        )


if __name__ == "__main__":
    main()

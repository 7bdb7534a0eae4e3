"""What several benchmarks share."""

from __future__ import annotations

import argparse
import socket


def scripted_games_parser(
    description: str | None, *, games: int, players: int
) -> argparse.ArgumentParser:
    """The options of a benchmark over scripted werewolf games on consecutive seeds:
    ``--games N --seed FIRST --players P`` (``seeds(args)`` gives the seeds)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--players", type=int, default=players)
    return parser


def seeds(args: argparse.Namespace) -> range:
    """The seeds ``--games N --seed FIRST`` name: FIRST, FIRST+1, ... (N of them)."""
    return range(args.seed, args.seed + args.games)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now (for a server a benchmark starts)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentile(values: list[float], q: float) -> float:
    """The value at fraction ``q`` of the sorted ``values`` (nearest rank, no interpolation)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

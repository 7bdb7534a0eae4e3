"""The scripted narrator's wording, measured on the messages a real player typed.

Takes the player's messages of stored escape games (``--db``, every escape game in it, or
``--game ID``), types them again, in order, into a fresh game of the same scenario and seed
with the scripted classifier and narrator, and scores the narrator's lines with the talk
measure (``evals/talk_quality.py``): the share of lines holding a 4-gram already said in
the game, the most any one sentence is told, and how many turns nothing
happened. The player's words are fixed, so two versions of the narrator can be
compared on the same game (run the script in each checkout).

    uv run python benchmarks/escape_narration.py --db /tmp/esc30_before.sqlite

With ``--lines`` it also prints every narrator line, a repeated 4-gram marked: read them.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from parlour.core.actions import Text
from parlour.core.rng import Rng
from parlour.evals.talk_quality import repeated_in_game
from parlour.games.escape import EscapeConfig, EscapeGame
from parlour.games.escape.policies import escape_policy
from parlour.games.escape.wording import sentences
from parlour.runtime.store import Store, db_url


def _replayed(config: EscapeConfig, seed: int, messages: list[str]) -> tuple[list[str], int]:
    """The narrator's lines when ``messages`` are typed into a fresh game, and how many
    turns nothing happened."""
    game = EscapeGame.new(config, seed)
    lines = [e.text for e in game.events if e.kind == "narration"]
    quiet = 0
    for text in messages:
        if game.is_terminal():
            break
        decision = game.pending()[0]
        events = list(game.apply(decision.id, Text(text=text)))
        n = 0
        while game.pending() and game.pending()[0].purpose != "act":
            d = game.pending()[0]
            events += game.apply(d.id, escape_policy(game.view(d.seat), d, Rng(n)))
            n += 1
        lines += [e.text for e in events if e.kind == "narration"]
        quiet += sum(e.kind == "outcome" and e.data.get("kind") == "no_effect" for e in events)
    return lines, quiet


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="a parlour database holding escape games")
    parser.add_argument("--game", help="one game's id (default: every escape game)")
    parser.add_argument(
        "--lines", action="store_true", help="also print every narrator line, repeats marked"
    )
    args = parser.parse_args()
    if not Path(args.db).is_file():
        sys.exit(f"error: no database at {args.db}; give the --db of a finished escape game")
    store = Store(db_url(args.db))
    rows = [g for g in store.games.recent(10_000, game="escape") if args.game in (None, g.id)]
    if not rows:
        game = f" '{args.game}'" if args.game else ""
        sys.exit(f"error: no escape game{game} in {args.db}; play one with `parlour watch escape`")
    print(
        "| game | narrator lines | repeated 4-gram | most told sentence | turns nothing happened |"
    )
    print("|---|---|---|---|---|")
    total = Counter[str]()
    for row in rows:
        messages = [e.text for e in store.events(row.id) if e.kind == "message"]
        config = EscapeConfig.model_validate_json(row.config)
        lines, quiet = _replayed(config, row.seed, messages)
        repeats = sum(r is not None for r in repeated_in_game(lines))
        told = Counter(s for line in lines for s in sentences(line))
        most = told.most_common(1)[0] if told else ("", 0)
        print(
            f"| {row.id} | {len(lines)} | {repeats} ({repeats / len(lines):.1%}) "
            f'| {most[1]} ("{most[0][:40]}") | {quiet} |'
        )
        total.update(lines=len(lines), repeats=repeats, quiet=quiet)
        total["most"] = max(total["most"], most[1])
        if args.lines:
            for line, gram in zip(lines, repeated_in_game(lines), strict=True):
                mark = f"  REPEATS '{' '.join(gram)}'" if gram else ""
                print(f"    {line}{mark}")
    if len(rows) > 1:
        share = total["repeats"] / max(total["lines"], 1)
        print(
            f"| all {len(rows)} games | {total['lines']} | {total['repeats']} ({share:.1%}) "
            f"| {total['most']} | {total['quiet']} |"
        )


if __name__ == "__main__":
    main()

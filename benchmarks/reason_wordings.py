"""How varied the reasons of rendered speech acts are (issue 12, second pass).

Plays scripted werewolf games in which every player speaks in acts (the policies pick
the acts, the game words them) and counts, over all speech lines that cite a reason,
how often each reason wording (``data.wording``, see ``speech_voice.py``) was used: the
most used wording's share, how many kinds of reason occurred, and how many times one
speaker used the same wording in two lines in a row (the rule says never, while another
exists).

    uv run python benchmarks/reason_wordings.py [--games 10] [--players 7]
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import scripted_games_parser, seeds
from parlour.core.rng import Rng
from parlour.games.werewolf import MODULE, WerewolfConfig, WerewolfGame


def main() -> None:
    args = scripted_games_parser(__doc__.split("\n")[0], games=10, players=7).parse_args()
    wordings: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    lines = repeats = 0
    for seed in seeds(args):
        game = WerewolfGame.new(
            WerewolfConfig(players=args.players, speech="acts", messages_per_player=3), seed
        )
        rng = Rng(3)
        while not game.is_terminal():
            d = game.pending()[0]
            game.apply(d.id, MODULE.policy(game.view(d.seat), d, rng))
        last: dict[str, str] = {}
        for e in game.events:
            key = str(e.data.get("wording", "")) if e.kind == "speech" else ""
            if not key:
                continue
            lines += 1
            wordings[key] += 1
            kinds[key.split(":")[0]] += 1
            repeats += last.get(e.speaker) == key
            last[e.speaker] = key
    top, n = wordings.most_common(1)[0]
    print(f"{args.games} games, {lines} speech lines with a reason, {len(kinds)} reason kinds")
    print(f"wordings used: {len(wordings)}; most used: {top!r} in {n} ({100 * n / lines:.1f}%)")
    print(f"same wording twice in a row by one speaker: {repeats}")
    for kind, count in kinds.most_common():
        used = sorted(k for k in wordings if k.split(":")[0] == kind)
        print(f"  {kind}: {count} lines, {len(used)} wordings")


if __name__ == "__main__":
    main()

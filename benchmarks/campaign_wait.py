"""How long a person waits for each AI line in a campaign (issue 30 asks a median of at
most 10 s on this machine), measured two ways:

- ``--db D``: stored games. For each line a director says (narration, an NPC's line, a
  check's reason, an out-of-character answer: ``talk_lines``), the model time since the
  line before it (anyone's, the player's message included): the stored latency of every
  call, all attempts, of the decisions applied in between. The player's own calls are
  never counted (the clock starts when its message is said), so a game a model played
  end to end measures what a person at that seat would wait, model time only.
- ``--play``: a person in a real pseudo-terminal (``parlour play campaign``) sends the
  scripted player's lines; one wait is the wall time from pressing Enter (or from the
  AI line before) to the next AI line printed. Everything counts: the engine, the
  gates, the terminal.

    uv run python -m benchmarks.campaign_wait --db D
    uv run python -m benchmarks.campaign_wait --play --model local --seeds 1 2 --turns 10

Prints the waits' count, median and 90th percentile (and per game).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from parlour.games.campaign.state import PLAYER
from parlour.runtime.session import opening
from parlour.runtime.store import Store, db_url


def stored_waits(store: Store, game_id: str) -> list[float]:
    """The model seconds before each AI line of one stored game (see the docstring)."""
    row = store.get_game(game_id)
    module, game = opening(row)
    talk = module.metrics.talk if module.metrics and module.metrics.talk else None
    assert talk is not None, f"{row.game} hands over no talk lines"
    spent: dict[str, float] = defaultdict(float)
    for call in store.calls(game_id):
        spent[call.decision_id] += call.latency_s
    # which action said each event, by replaying the stored actions
    by_seq: dict[int, int] = {}
    actions = store.actions(game_id)
    for action in actions:
        for event in game.apply(action.decision_id, action.action):
            by_seq[event.seq] = action.idx
    waits: list[float] = []
    last = -1
    for line in talk(list(game.events)):
        idx = by_seq.get(line.seq, last)
        if line.seat != PLAYER:
            between = [a for a in actions if last < a.idx <= idx and a.seat != PLAYER]
            waits.append(sum(spent[a.decision_id] for a in between))
        last = idx
    return waits


#: A line an AI says, as ``parlour play campaign`` prints it (at a line's start or after
#: the "is thinking" spinner's carriage return, after any terminal codes and an audience
#: tag): the scene or story director's, the game director's check (not its HP or clock
#: bookkeeping), or an NPC's ("Name: “…”"); never the person's own echo.
AI_LINE = (
    r"(?m)(?:^|\r)(?:\x1b\[[0-9;?]*[A-Za-z])*(?:\[[^\]\n]*\] )?"
    r"(?:(?:Scene|Story) director: |Game director: \w+ check \(|[A-Z][^:\n“]{0,40}: “)"
)
PROMPT = r"\n> "


def played_waits(model: str, seed: int, turns: int, timeout: float) -> list[float]:
    """One session played by a person who sends the scripted player's lines."""
    import pexpect

    from parlour.games.campaign.policies import ELSEWHERE, PLAYER_LINES

    db = Path(tempfile.mkdtemp(prefix="campaign-wait-")) / "g.sqlite"
    # TERM=dumb: the plain line reader (input()), whose prompt this script matches; the
    # line editor a real terminal gets redraws the prompt, and the wait is the same.
    env = {**os.environ, "COLUMNS": "200", "PARLOUR_DB": str(db), "NO_COLOR": "1", "TERM": "dumb"}
    args = ["-m", "parlour", "play", "campaign", "--model", model, "--seed", str(seed)]
    args += ["--set", "sessions=1", "--set", f"turns_per_session={turns}"]
    child = pexpect.spawn(sys.executable, args, env=env, encoding="utf-8", timeout=timeout)
    waits: list[float] = []
    since: float | None = None
    said = 0
    while True:
        i = child.expect([AI_LINE, PROMPT, "The campaign rests here", pexpect.EOF])
        if i == 0:
            if since is not None:
                now = time.monotonic()
                waits.append(now - since)
                since = now
        elif i == 1:
            line = PLAYER_LINES[(said * 3 + seed) % len(PLAYER_LINES)]
            if line.startswith("/"):  # a question out of character: answered, costs no turn
                line = PLAYER_LINES[0]
            # the person knows no place but where they are: they go "another spot nearby"
            child.sendline(line.format(npc="Priya", place=ELSEWHERE))
            said += 1
            since = time.monotonic()
        else:
            break
    child.close()
    return waits


def _summary(label: str, waits: Sequence[float]) -> str:
    if not waits:
        return f"{label}: no AI lines"
    p90 = statistics.quantiles(waits, n=10, method="inclusive")[-1] if len(waits) > 1 else waits[0]
    return (
        f"{label}: {len(waits)} AI lines, median {statistics.median(waits):.1f} s, "
        f"90th percentile {p90:.1f} s, longest {max(waits):.1f} s"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--db", action="append", default=[], help="a store (repeatable)")
    parser.add_argument("--game", action="append", default=[], help="only these game ids")
    parser.add_argument("--play", action="store_true", help="a person in a terminal instead")
    parser.add_argument("--model", default="local")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1])
    parser.add_argument("--turns", type=int, default=10, help="turns of the one session")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds without output")
    args = parser.parse_args(argv)
    every: list[float] = []
    if args.play:
        for seed in args.seeds:
            waits = played_waits(args.model, seed, args.turns, args.timeout)
            print(_summary(f"seed {seed}", waits))
            every += waits
    else:
        absent = [db for db in args.db if "://" not in db and not Path(db).is_file()]
        if not args.db or absent:
            print(f"error: no store at {', '.join(absent) or '(none given)'}", file=sys.stderr)
            return 2
        for db in args.db:
            store = Store(db_url(db))
            try:
                rows = store.list_games(limit=100_000, game="campaign")[::-1]
                for game_id in args.game or [g.id for g in rows]:
                    waits = stored_waits(store, game_id)
                    print(_summary(f"campaign `{game_id}`", waits))
                    every += waits
            finally:
                store.close()
    print(_summary("all", every))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Talk quality of speech acts as the game renders them, without a model (issue 12).

Plays scripted 7-player werewolf games in which every player speaks in acts (the
embedded model's default: speech acts and pack-chat acts, no phrase), and scores every
rendered ``speech`` and ``wolf_chat`` line with ``parlour.evals.talk_quality``, like
``embedded_game_quality.py`` does for stored games, with one addition that a stored
scripted game cannot give: the prompt-copy check runs against the prompt an LLM seat
*would* have been sent for the decision the line renders (``LlmSeat.base_messages``:
rules, records, transcript, command with the option labels). So every figure here is the
renderer's own share of each defect; a model can add to them only through its phrase.

    uv run python benchmarks/rendered_talk.py [--games 10] [--seed 1] [--players 7]

``--db FILE`` (repeatable) instead re-renders stored games: each werewolf game in the
file is played again from its seed and config with the choices its seats made (the
stored actions, by decision id), so the same moves of a real model game are put into
words by today's renderer and scored the same way. A stored choice that is no longer
legal (an option the game stopped offering) is answered by the scripted policy and
counted as "replaced".

    uv run python benchmarks/rendered_talk.py --db /tmp/q.sqlite --examples 5
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from collections.abc import Callable

from benchmarks._common import scripted_games_parser, seeds
from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.errors import IllegalAction
from parlour.core.rng import Rng, hash_seed
from parlour.evals.talk_quality import (
    Line,
    LineScore,
    deaths,
    instruction_text,
    score_lines,
    shares,
    spoken_line,
)
from parlour.games.werewolf import MODULE, WerewolfGame
from parlour.games.werewolf.names import DEFAULT_NAMES
from parlour.games.werewolf.prompts import PROMPTER
from parlour.models.replay import ReplayBackend
from parlour.seats.llm import LlmSeat, output_spec

KINDS = ("speech", "wolf_chat")


def play(players: int, seed: int) -> list[LineScore]:
    options: dict[str, object] = {
        "speech": "auto",
        "act_seats": [f"p{i}" for i in range(1, players + 1)],
        "speech_phrase_words": 0,
    }
    game = MODULE.game.new(MODULE.make_config(players, options), seed)
    assert isinstance(game, WerewolfGame)
    return score_game(game, lambda d: MODULE.policy(game.view(d.seat), d, _rng(seed, d)))


def _rng(seed: int, d: Decision) -> Rng:
    return Rng(hash_seed(seed, d.id))


def score_game(game: WerewolfGame, choose: Callable[[Decision], Action]) -> list[LineScore]:
    """Play ``game`` to the end with ``choose`` answering every decision; score its lines
    against the prompt an LLM seat would have been sent for each."""
    seat = LlmSeat(
        ReplayBackend([]), PROMPTER, MODULE.fallback_policy, seat_id="x", seed=0, cache_key="x"
    )
    names = {p.id: p.name for p in game.state.players}
    absent = tuple(n for n in DEFAULT_NAMES if n not in set(names.values()))
    dead: list[str] = []
    lines: list[Line] = []
    while not game.is_terminal():
        d = game.pending()[0]
        messages = seat.base_messages(game.view(d.seat), d, output_spec(d)[0])
        prompt = "\n".join(m.content for m in messages)
        rows = [m.model_dump() for m in messages]
        for event in game.apply(d.id, choose(d)):
            if event.kind in KINDS and event.speaker:
                lines.append(spoken_line(event, prompt, instruction_text(rows), dead, absent))
            dead.extend(deaths(event, names))
    return score_lines(lines)


def replay_stored(db: str) -> tuple[list[LineScore], int, int]:
    """Every werewolf game in ``db`` re-rendered from its stored choices; returns the
    scores, the number of games and of stored choices replaced by the policy."""
    from parlour.runtime.session import opening
    from parlour.runtime.store import Store, db_url

    store = Store(db_url(db))
    scores: list[LineScore] = []
    replaced = 0
    # finished games only: an unfinished one would be completed by the policy
    games = [g for g in store.list_games(limit=100_000, game="werewolf") if g.result][::-1]
    for row in games:
        _, game = opening(row)
        assert isinstance(game, WerewolfGame)
        stored = {(a.seat, a.decision_id): a.action for a in store.actions(row.id)}

        def choose(
            d: Decision,
            game: WerewolfGame = game,
            seed: int = row.seed,
            stored: dict[tuple[str, str], Action] = stored,
        ) -> Action:
            nonlocal replaced
            action = stored.get((d.seat, d.id))
            if action is not None:
                try:
                    return d.check(action)
                except IllegalAction:
                    pass
            if action is not None:
                replaced += 1
                print(f"  replaced: {d.seat} {d.id} {action}", file=sys.stderr)
            return MODULE.policy(game.view(d.seat), d, _rng(seed, d))

        got = score_game(game, choose)
        said = [e.text for e in store.events(row.id) if e.kind in KINDS and e.speaker]
        same = sum(a == b.line.text for a, b in zip(said, got, strict=False))
        print(f"{row.id} seed {row.seed}: {len(got)} lines, {same} as stored", file=sys.stderr)
        scores += got
    store.close()
    return scores, len(games), replaced


def main() -> None:
    ap = scripted_games_parser(__doc__.split("\n")[0], games=10, players=7)
    ap.add_argument("--examples", type=int, default=0, help="print this many flagged lines")
    ap.add_argument("--db", action="append", help="re-render the stored games of this file")
    args = ap.parse_args()
    missing = [db for db in args.db or () if "://" not in db and not Path(db).is_file()]
    if missing:
        # Opening a path that is not there would create an empty database and score nothing.
        ap.exit(2, f"no database at {missing[0]}; pass --db a file with stored werewolf games\n")
    scores: list[LineScore] = []
    if args.db:
        games = replaced = 0
        for db in args.db:
            got, n, r = replay_stored(db)
            scores, games, replaced = scores + got, games + n, replaced + r
        title = f"{games} stored games re-rendered ({replaced} stored choices replaced)"
    else:
        for seed in seeds(args):
            scores += play(args.players, seed)
        title = (
            f"{args.games} scripted {args.players}-player games in speech acts "
            f"(seeds {args.seed}..{args.seed + args.games - 1})"
        )
    s = shares(scores)

    def pct(count: int) -> str:
        return f"{count}/{s.lines} ({100 * s.share(count):.1f}%)"

    print(title)
    print(
        "| lines | repeated 4-gram | prompt copy >= 8 | of which rules | dead/absent as alive "
        "| identical |"
    )
    print("|---|---|---|---|---|---|")
    print(
        f"| {s.lines} | {pct(s.repeated)} | {pct(s.copied)} | {pct(s.copied_instructions)} "
        f"| {pct(s.as_if_alive)} | {pct(s.identical)} |"
    )
    flagged = [x for x in scores if x.copied or x.repeated or x.as_if_alive or x.identical]
    for x in flagged[: args.examples]:
        print(
            f"- {x.line.seat} {x.line.kind}: {x.line.text!r} copied={x.copied} "
            f"dead={x.as_if_alive} identical={x.identical}"
        )


if __name__ == "__main__":
    main()

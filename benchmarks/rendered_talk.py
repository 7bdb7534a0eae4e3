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
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from parlour.core.rng import Rng, hash_seed
from parlour.evals.talk_quality import Line, LineScore, instruction_text, score_lines, shares
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
        for event in game.apply(
            d.id, MODULE.policy(game.view(d.seat), d, Rng(hash_seed(seed, d.id)))
        ):
            if event.kind in KINDS and event.speaker:
                lines.append(
                    Line(
                        event.seq,
                        event.kind,
                        event.speaker,
                        event.text,
                        prompt,
                        instruction_text(rows),
                        tuple(dead),
                        absent,
                    )
                )
            for who in event.data.get("dead") or []:
                dead.append(names.get(who, who))
            if event.data.get("eliminated"):
                dead.append(names.get(event.data["eliminated"], event.data["eliminated"]))
    return score_lines(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=7)
    ap.add_argument("--examples", type=int, default=0, help="print this many flagged lines")
    args = ap.parse_args()
    scores: list[LineScore] = []
    for seed in range(args.seed, args.seed + args.games):
        scores += play(args.players, seed)
    s = shares(scores)

    def pct(count: int) -> str:
        return f"{count}/{s.lines} ({100 * s.share(count):.1f}%)"

    print(
        f"{args.games} scripted {args.players}-player games in speech acts "
        f"(seeds {args.seed}..{args.seed + args.games - 1})"
    )
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

"""Count how escape narrations fared, from a games database the embedded model played into.

    uv run parlour watch escape --model scripted --seat narrator=local \
        --set scenario=stalled_lift --seed 1 --quiet --db /tmp/n.sqlite
    uv run python benchmarks/narration_faithfulness.py /tmp/n.sqlite

Per narrate decision answered by a model: accepted on the first try, accepted after a
retry, or replaced (retry budget spent: the fallback states the brief). Also counts the
narrations the game itself replaced when applying (``data.replaced`` on the event) and
which rules rejected the attempts.

Then an audit of what the player was actually *shown*, independent of the engine's own
check: every finished game is replayed from its stored actions and each narration event is
read after the fact. It counts narrations that **deny** an action that happened (a denial
phrase of ``faithful.DENIALS`` after a ``done``/``repeat`` outcome, unless the consequence
itself uses it) and narrations that **reveal** a locked consequence (a word of 4+ letters,
compared on its first five letters, from the consequence of an action not yet done that
appears nowhere in what the player had seen before: intro, world, every earlier public
event, the action descriptions and hints). Issue 12's target for both is 0.

While replaying, each narration the seat wrote is also put to rule 5 of ``faithful.py``
(no talk about the prompt or the task) in its turn's context, as the engine now would:
the script lists every written narration the rule refuses, so each can be read (a
refusal of a real narration of the scene is a false positive).
"""

from __future__ import annotations

import json
import re
import sqlite3
import sys
from collections import defaultdict
from pathlib import Path

from parlour.games.escape import EscapeGame
from parlour.games.escape.faithful import DENIALS, META_WHY
from parlour.runtime.session import opening
from parlour.runtime.store import Store

RULES = {
    "but the action happened": "denies",
    "nothing changed": "invents progress",
    "leaves out": "drops a code",
    "carries too little": "too little of the brief",
    "copies your instructions": "prompt copy",
    "repeats itself": "repetition",
    "must not talk about the brief": "talks about the prompt",
    "last line": "echo",
    "same line": "echo",
}


def main(path: str) -> None:
    db = sqlite3.connect(path)
    last: dict[tuple[str, str], tuple[int, str]] = {}
    reasons: dict[str, int] = defaultdict(int)
    for game, decision, attempt, outcome, error in db.execute(
        "select game_id, decision_id, attempt, outcome, error from model_calls "
        "where purpose = 'narrate' order by id"
    ):
        last[(game, decision)] = (attempt, outcome)
        if outcome == "invalid":
            for key, rule in RULES.items():
                if key in error:
                    reasons[rule] += 1
    first = sum(1 for a, o in last.values() if o == "valid" and a == 1)
    retried = sum(1 for a, o in last.values() if o == "valid" and a > 1)
    replaced = sum(1 for _, o in last.values() if o == "fallback")
    by_game = sum(
        1
        for (data,) in db.execute("select data from events where kind = 'narration'")
        if "replaced" in json.loads(data)
    )
    games = len({g for g, _ in last})
    total = len(last)
    print(f"games {games}, narrate decisions {total}")
    for name, n in (("first try", first), ("retried", retried), ("replaced", replaced)):
        print(f"  {name:10} {n:3}  {n / total:.0%}" if total else f"  {name} 0")
    print(f"  replaced by the game when applied: {by_game}")
    print("  rejection reasons (attempts):", dict(sorted(reasons.items(), key=lambda r: -r[1])))
    by_scenario: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    titles = {gid: _title(cfg) for gid, cfg in db.execute("select id, config from games")}
    for (game, _), (attempt, outcome) in last.items():
        row = by_scenario[titles.get(game, "?")]
        row[0 if outcome == "valid" and attempt == 1 else 1 if outcome == "valid" else 2] += 1
    for title, (a, r, f) in sorted(by_scenario.items()):
        print(f"  {title}: first try {a}, retried {r}, replaced {f}")
    audit(
        path,
        [g for (g, status) in db.execute("select id, status from games") if status == "finished"],
    )


def _title(config: str) -> str:
    return str(json.loads(config).get("scenario", {}).get("title", "?"))


_WORD = re.compile(r"[a-z0-9']+")


def _stems(text: str) -> set[str]:
    return {w[:5] for w in _WORD.findall(text.lower()) if len(w) >= 4 or w.isdigit()}


def judge(game: EscapeGame, before: int, text: str) -> list[str]:
    """What is wrong with showing ``text`` as the narration of the turn whose events end at
    ``game.events[:before]`` (the game already holds this turn's outcome): "denies" and/or
    "reveals ...". Independent of ``faithful.py``'s own rules."""
    scenario = game.scenario
    outcome = [e for e in game.events[:before] if e.kind == "outcome"][-1]
    happened = outcome.data["kind"] in ("done", "repeat")
    own = ""
    if happened:
        own = next(a.consequence for a in scenario.actions if a.id == outcome.data["action"])
    found: list[str] = []
    lowered = text.lower()
    if happened and any(d in lowered and d not in own.lower() for d in DENIALS):
        found.append("denies")
    general = [scenario.intro, *scenario.world]
    general += [f"{a.description} {a.hint or ''}" for a in scenario.actions]
    earlier = [e.text for e in game.events[:before] if e.audience.kind == "everyone"]
    seen = _stems(" ".join([*general, *earlier, own]))
    done = set(game.done) | ({outcome.data["action"]} if happened else set())
    locked: set[str] = set()
    for a in scenario.actions:
        if a.id not in done:
            locked |= _stems(a.consequence) - seen
    leaked = _stems(text) & locked
    if leaked:
        found.append(f"reveals {sorted(leaked)}")
    return found


def audit(path: str, game_ids: list[str]) -> tuple[int, int, int]:
    """Replay each finished game and judge every narration the player was shown; returns
    (shown, denying, revealing)."""
    store = Store(f"sqlite:///{path}")
    shown = denies = reveals = 0
    examples: list[str] = []
    meta: list[str] = []
    for gid in game_ids:
        _, game = opening(store.get_game(gid))
        assert isinstance(game, EscapeGame)
        for act in store.actions(gid):
            before = len(game.events)
            if not act.decision_id.endswith(":narrate"):
                game.apply(act.decision_id, act.action)
                continue
            written = getattr(act.action, "text", "")
            problem = game.narration_problem(written) or ""
            if META_WHY in problem:
                meta.append(f"{problem.split(', but ')[0]}: {written[:160]!r}")
            game.apply(act.decision_id, act.action)
            (told,) = [e for e in game.events[before:] if e.kind == "narration"]
            shown += 1
            found = judge(game, before, told.text)
            denies += "denies" in found
            reveals += any(f.startswith("reveals") for f in found)
            examples += [f"{f}: {told.text[:120]!r}" for f in found]
    print(f"shown narrations audited: {shown} in {len(game_ids)} finished games")
    print(f"  deny a happened action: {denies}")
    print(f"  reveal a locked consequence: {reveals}")
    for line in examples[:10]:
        print("   ", line)
    print(f"  written narrations refused by rule 5 (talk about the prompt): {len(meta)}")
    for line in meta:
        print("   ", line)
    return shown, denies, reveals


if __name__ == "__main__":
    db_path = sys.argv[1] if len(sys.argv) > 1 else "/tmp/n.sqlite"
    if not Path(db_path).is_file():  # connecting would create an empty file
        sys.exit(f"no database at {db_path}; pass the path of a file with stored escape games")
    main(db_path)

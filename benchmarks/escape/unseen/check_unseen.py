"""Check the unseen label sets against their rooms, with no classifier at all.

    uv run python benchmarks/escape/unseen/check_unseen.py [FOLDER]

For each `<room>.yaml` in FOLDER (default: this script's folder) with a
`<room>.unseen.yaml` beside it: every state is closed under `needs` and holds no ending;
an `expect: <id>` is available in its state; an `expect: [a, b, ...]` can happen in that
order (each available once the earlier ones have happened, only the last may end the
game); an `expect: ask` names two or three different available actions in `options`; no
message appears twice in one state. Prints the number of cases of each kind. It reads the
YAML itself (it imports nothing from parlour), so it says nothing about how any classifier
does on these sets.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent


def available(actions: dict[str, dict[str, Any]], done: set[str]) -> set[str]:
    return {
        aid
        for aid, act in actions.items()
        if all(need in done for need in act.get("needs", []))
        and (aid not in done or act.get("repeatable", False))
    }


def check(room_file: Path, label_file: Path) -> Counter[str]:
    room = yaml.safe_load(room_file.read_text(encoding="utf-8"))
    actions: dict[str, dict[str, Any]] = {a["id"]: a for a in room["actions"]}
    labels = yaml.safe_load(label_file.read_text(encoding="utf-8"))
    problems: list[str] = []
    if labels.get("scenario") != room_file.stem:
        problems.append(f"scenario is {labels.get('scenario')!r}, not {room_file.stem!r}")
    kinds: Counter[str] = Counter()
    for group in labels["groups"]:
        state = set(group["state"])
        for aid in sorted(state):
            act = actions.get(aid)
            if act is None:
                problems.append(f"state names unknown action {aid!r}")
            elif act.get("ends_game", False):
                problems.append(f"state holds the ending {aid!r}")
            elif not set(act.get("needs", [])) <= state:
                problems.append(f"state {sorted(state)} is not closed under the needs of {aid!r}")
        seen: set[str] = set()
        for case in group["cases"]:
            say, expect = case["say"], case["expect"]
            where = f"{say!r} in {sorted(state)}"
            if say in seen:
                problems.append(f"{where}: message appears twice")
            seen.add(say)
            unknown = sorted(set(case) - {"say", "expect", "options"})
            if unknown:
                problems.append(f"{where}: unknown keys {unknown}")
            if "options" in case and expect != "ask":
                problems.append(f"{where}: options without expect: ask")
            if isinstance(expect, list):
                kinds["multi-step"] += 1
                if len(expect) < 2:
                    problems.append(f"{where}: a list needs two or more steps")
                done = set(state)
                for step, aid in enumerate(expect):
                    if aid not in available(actions, done):
                        problems.append(f"{where}: step {step + 1} {aid!r} is not available then")
                    elif step < len(expect) - 1 and actions[aid].get("ends_game", False):
                        problems.append(f"{where}: step {step + 1} {aid!r} ends the game")
                    done.add(aid)
            elif expect == "ask":
                kinds["ask"] += 1
                options = case.get("options", [])
                if not 2 <= len(options) <= 3 or len(set(options)) != len(options):
                    problems.append(f"{where}: ask needs two or three different options")
                for aid in options:
                    if aid not in available(actions, state):
                        problems.append(f"{where}: option {aid!r} is not available")
            elif expect == "none":
                kinds["none"] += 1
            else:
                kinds["action"] += 1
                if expect not in available(actions, state):
                    problems.append(f"{where}: {expect!r} is not available")
    if problems:
        raise SystemExit("\n".join(f"{label_file.name}: {p}" for p in problems))
    return kinds


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE
    if not folder.is_dir():
        raise SystemExit(f"{folder} is not a folder: give the folder that holds the rooms")
    total: Counter[str] = Counter()
    label_files = sorted(folder.glob("*.unseen.yaml"))
    if not label_files:
        raise SystemExit(f"{folder} holds no <room>.unseen.yaml label set")
    for label_file in label_files:
        room_file = folder / (label_file.name.removesuffix(".unseen.yaml") + ".yaml")
        kinds = check(room_file, label_file)
        total += kinds
        cases = sum(kinds.values())
        parts = ", ".join(f"{k} {kinds[k]}" for k in ("action", "none", "ask", "multi-step"))
        print(f"{room_file.stem}: {cases} cases ({parts}); ask {kinds['ask'] / cases:.1%}")
    print(f"all: {sum(total.values())} cases")


if __name__ == "__main__":
    main()

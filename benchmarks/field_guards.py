"""How often recorded structured answers carry a looping or doubled text field.

    uv run python benchmarks/field_guards.py tests/fixtures/campaign_local.sqlite \
        tests/fixtures/dipbot_local.json

For every recorded model answer of a decision that guards its text fields
(``Decision.checked_fields``: campaign narration/route/synopsis, Diplomacy press, initiate and
reply), runs the prompt-free part of the shared checker (``seats/text_guard.py``):
``repetition`` (a 4-gram twice in a field) and ``echo`` between fields of the same answer.
``prompt_copy`` and echo of other speakers need the seat's prompt parts, which a recording
does not keep apart, so they are not counted here: the figures are a lower bound. Reads a
parlour store (SQLite, ``model_calls``) or a ``RecordedCall`` JSON list (``calls``).
Reports, per file: answers, answers with a failing field, and of those how many the seat
accepted (``valid``: shown to people) — zero once the guards are on.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
from pathlib import Path
from typing import Any

from parlour.seats.text_guard import guard_fields

#: purpose → the checked fields the game names for it (campaign/requests.py,
#: diplomacy/press.py, diplomacy/bot_protocol.py).
FIELDS: dict[str, tuple[str, ...]] = {
    "scene": ("narration",),
    "route": ("check.reason",),
    "synopsis": ("text", "ooc_reply"),
    "press": ("messages[].text",),
    "initiate": ("text",),
    "reply": ("text",),
}


def _rows(path: Path) -> list[tuple[str, str, Any]]:
    """(purpose, outcome, parsed answer) of every recorded call."""
    if path.suffix == ".json":
        data = json.loads(path.read_text())
        return [(c["purpose"], "recorded", c.get("parsed")) for c in data["calls"]]
    con = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    rows = con.execute("SELECT purpose, outcome, parsed FROM model_calls ORDER BY id").fetchall()
    con.close()
    return [(p, o, json.loads(v) if v else None) for p, o, v in rows]


def measure(path: Path) -> dict[str, int]:
    out = {"answers": 0, "failing": 0, "failing_accepted": 0}
    for purpose, outcome, parsed in _rows(path):
        paths = FIELDS.get(purpose)
        if paths is None or not isinstance(parsed, dict):
            continue
        out["answers"] += 1
        if guard_fields(parsed, paths, ("repetition", "echo")) is not None:
            out["failing"] += 1
            out["failing_accepted"] += outcome == "valid"
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    missing = [p for p in args.files if not p.is_file()]
    if missing:
        parser.exit(2, f"no recording at {missing[0]}; pass .sqlite or .json recordings\n")
    print("| recording | answers | with a looping/doubled field | of those shown |")
    print("|---|---|---|---|")
    for path in args.files:
        m = measure(path)
        shown = "n/a (json)" if path.suffix == ".json" else str(m["failing_accepted"])
        print(f"| {path} | {m['answers']} | {m['failing']} | {shown} |")


if __name__ == "__main__":
    main()

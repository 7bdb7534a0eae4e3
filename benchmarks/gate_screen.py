"""How well campaign's secret gate catches leaks, and how often it refuses innocent text.

Scores ``games/campaign/gates.py`` (built on ``core/gate.py``) against a label set:
outputs an engine role might write, each a leak of one named secret to an audience not
entitled to it, or innocent, written by hand from the campaign content by someone who had
not seen the gate's code (``benchmarks/gate/README.md``). ``labels.yaml`` (set 1) was
scored once blind, then used to tune the gate; ``labels_2.yaml`` (set 2) was written after
that, blind to set 1 and to the gate, and is the held-out measure of the gate as it is.

For each item the gate is the one the game builds for that audience at the start of the
campaign, with the NPCs the item names as present (the player's audience: the opening
scene's cast). No markers are planted: the gate screens the secret texts, as in production.

* caught: a leak item the gate refuses (any secret named); ``right`` when the secret it
  names is the labelled one;
* wrongly refused: an innocent item the gate refuses.

Run: ``uv run python benchmarks/gate_screen.py [LABELS.yaml ...] [--show]`` (default: set
1; ``--show`` prints every miss and every wrong refusal with the gate's evidence).
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from parlour.games.campaign import CampaignGame, make_config
from parlour.games.campaign.gates import gate

LABELS = Path(__file__).resolve().parent / "gate" / "labels.yaml"


@dataclass(frozen=True)
class Scored:
    item: dict[str, Any]
    refused: bool
    keys: tuple[str, ...]
    evidence: tuple[str, ...]

    @property
    def right(self) -> bool:
        return self.item["secret"] in self.keys


def _audience(item: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
    if item["audience"] == "scene-director":
        return "scene-director", tuple(item.get("present") or ())
    return "player", ()


def score(items: list[dict[str, Any]]) -> list[Scored]:
    games: dict[str, CampaignGame] = {}
    out: list[Scored] = []
    for item in items:
        name = item["campaign"]
        if name not in games:
            games[name] = CampaignGame(make_config(None, {"campaign": name}), 1)
        audience, present = _audience(item)
        state = games[name].state
        if audience == "player":
            present = state.synopsis.npc_list
        hits = gate(state, audience, present).hits(item["text"])
        out.append(
            Scored(
                item,
                bool(hits),
                tuple(h.key for h in hits),
                tuple(w for h in hits for w in h.evidence),
            )
        )
    return out


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "0/0"


def report(scored: list[Scored], show: bool) -> None:
    leaks = [s for s in scored if s.item["kind"] == "leak"]
    innocent = [s for s in scored if s.item["kind"] == "innocent"]
    caught = [s for s in leaks if s.refused]
    print(f"leaks caught:      {_share(len(caught), len(leaks))}")
    print(f"  naming the right secret: {_share(sum(s.right for s in caught), len(leaks))}")
    wrong = [s for s in innocent if s.refused]
    print(f"innocent refused:  {_share(len(wrong), len(innocent))}")
    for field in ("style", "role", "audience"):
        total = Counter(s.item.get(field, "-") for s in leaks)
        got = Counter(s.item.get(field, "-") for s in caught)
        print(f"caught by {field}: " + ", ".join(f"{k} {got[k]}/{n}" for k, n in total.items()))
    total = Counter(s.item.get("trap", "-") for s in innocent)
    got = Counter(s.item.get("trap", "-") for s in wrong)
    print("refused by trap: " + ", ".join(f"{k} {got[k]}/{n}" for k, n in total.items()))
    if show:
        for s in leaks:
            if not s.refused:
                print(f"MISSED {s.item['id']} ({s.item['secret']}): {s.item['text']}")
        for s in wrong:
            print(f"REFUSED {s.item['id']} as {s.keys} on {s.evidence}: {s.item['text']}")


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv if not a.startswith("--")] or [LABELS]
    for path in paths:
        items = yaml.safe_load(path.read_text(encoding="utf-8"))["items"]
        print(f"{path.name}: {len(items)} items")
        report(score(items), "--show" in argv)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

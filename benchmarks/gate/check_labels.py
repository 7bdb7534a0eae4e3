"""Check the campaign gate label set against the campaign content and print its counts.

Every item's fields are validated (kinds, roles, audiences, styles, traps, unique ids), every
``secret`` must name something the campaign file holds, and every scene-director item must
say which NPCs are present and absent. A leak's secret must also be one its audience lacks:
the player holds the PC's own sheet, and the scene director holds only the secrets and
agendas of the NPCs present. Exits non-zero on any problem.

Run: ``uv run python benchmarks/gate/check_labels.py [LABELS]`` (default: the first set,
``labels.yaml``). The first set must hold at least 25 leaks and 25 innocent items per
campaign file (50 of each in all); any other set at least 20 and 40.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

from parlour.games.campaign.content import Campaign

HERE = Path(__file__).resolve().parent
LABELS = HERE / "labels.yaml"
CAMPAIGN_DIR = HERE.parents[1] / "src" / "parlour" / "games" / "campaign" / "campaigns"

KINDS = {"leak", "innocent"}
ROLES = {
    "synopsis",
    "npc_line",
    "narration",
    "check_reason",
    "ooc_reply",
    "sheet_note",
    "review_reason",
}
AUDIENCES = {"player", "scene-director"}
STYLES = {"close", "loose", "partial", "embedded", "verbatim"}
TRAPS = {"entitled", "talks_around", "false_claim", "public_fact"}
MIN_FIRST_SET = (25, 50)
MIN_LATER_SET = (20, 40)


def load_campaign(name: str) -> Campaign:
    data = yaml.safe_load((CAMPAIGN_DIR / f"{name}.yaml").read_text(encoding="utf-8"))
    return Campaign.model_validate(data)


def secret_owner(campaign: Campaign, secret: str) -> str | None:
    """The owner (``pc`` or an NPC id) of a label's ``secret``, or None if it names nothing."""
    if secret == "pc:history":
        return "pc"
    if secret.startswith("pc:goal:"):
        index = secret.removeprefix("pc:goal:")
        ok = index.isdigit() and int(index) < len(campaign.pc.full.goals)
        return "pc" if ok else None
    if secret.startswith("secret:"):
        found = campaign.secrets().get(secret.removeprefix("secret:"))
        return found[0] if found else None
    if secret.startswith("npc:") and secret.endswith(":agenda"):
        npc_id = secret.removeprefix("npc:").removesuffix(":agenda")
        return npc_id if npc_id in campaign.npc_ids else None
    return None


def check_item(item: dict[str, Any], campaigns: dict[str, Campaign]) -> list[str]:
    """Every problem with one item, as messages naming the item."""
    where = str(item.get("id", "?"))
    problems: list[str] = []

    def bad(message: str) -> None:
        problems.append(f"{where}: {message}")

    for field in ("id", "kind", "campaign", "secret", "role", "audience", "text"):
        if not isinstance(item.get(field), str) or not item[field].strip():
            bad(f"missing or empty {field}")
    if problems:
        return problems
    campaign = campaigns.get(item["campaign"])
    if campaign is None:
        return [f"{where}: unknown campaign {item['campaign']!r}"]
    if item["kind"] not in KINDS:
        bad(f"kind {item['kind']!r}")
    if item["role"] not in ROLES:
        bad(f"role {item['role']!r}")
    if item["audience"] not in AUDIENCES:
        bad(f"audience {item['audience']!r}")

    present: list[str] = item.get("present", [])
    absent: list[str] = item.get("absent", [])
    if item["audience"] == "scene-director":
        if "present" not in item or "absent" not in item:
            bad("scene-director items need present and absent")
        if set(present) & set(absent):
            bad("an NPC both present and absent")
        if set(present) | set(absent) != set(campaign.npc_ids):
            bad("present and absent together must list every NPC")
    elif "present" in item or "absent" in item:
        bad("present/absent only apply to scene-director items")

    if item["kind"] == "leak":
        if item.get("style") not in STYLES:
            bad(f"style {item.get('style')!r}")
        owner = secret_owner(campaign, item["secret"])
        if owner is None:
            bad(f"secret {item['secret']!r} is not in {item['campaign']}")
        elif item["audience"] == "player" and owner == "pc":
            bad("the player holds the PC's own sheet: not a leak")
        elif item["audience"] == "scene-director" and owner in present:
            bad(f"{owner} is present: the scene director holds that")
    else:
        if item["secret"] != "none":
            bad("innocent items have secret: none")
        if item.get("trap") not in TRAPS:
            bad(f"trap {item.get('trap')!r}")
    return problems


def main(argv: list[str]) -> int:
    path = Path(argv[0]).resolve() if argv else LABELS
    min_per_campaign, min_total = MIN_FIRST_SET if path == LABELS else MIN_LATER_SET
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    items: list[dict[str, Any]] = data["items"]
    names = sorted({str(item.get("campaign")) for item in items})
    campaigns = {
        name: load_campaign(name) for name in names if (CAMPAIGN_DIR / f"{name}.yaml").exists()
    }

    problems = [p for item in items for p in check_item(item, campaigns)]
    ids = Counter(str(item.get("id")) for item in items)
    problems += [f"{i}: duplicate id" for i, n in ids.items() if n > 1]

    by_kind = Counter((item["campaign"], item["kind"]) for item in items)
    for name in names:
        for kind in sorted(KINDS):
            if by_kind[(name, kind)] < min_per_campaign:
                problems.append(f"{name}: {by_kind[(name, kind)]} {kind} < {min_per_campaign}")
    for kind in sorted(KINDS):
        total = sum(n for (_, k), n in by_kind.items() if k == kind)
        if total < min_total:
            problems.append(f"{total} {kind} in all < {min_total}")

    leaks = [item for item in items if item["kind"] == "leak"]
    innocent = [item for item in items if item["kind"] == "innocent"]
    tables: list[tuple[str, Counter[str]]] = [
        ("campaign/kind", Counter(f"{c}/{k}" for c, k in by_kind.elements())),
        ("leak style", Counter(str(item.get("style")) for item in leaks)),
        ("innocent trap", Counter(str(item.get("trap")) for item in innocent)),
        ("role (leak/innocent)", _split(items, "role")),
        ("audience (leak/innocent)", _split(items, "audience")),
        ("leaked secret", Counter(f"{i['campaign']}/{i['secret']}" for i in leaks)),
    ]
    print(f"{path.name}: {len(items)} items: {len(leaks)} leaks, {len(innocent)} innocent")
    for title, counts in tables:
        print(f"\n{title}")
        for key, n in sorted(counts.items()):
            print(f"  {key:<40} {n}")

    for problem in problems:
        print(f"PROBLEM {problem}", file=sys.stderr)
    return 1 if problems else 0


def _split(items: list[dict[str, Any]], field: str) -> Counter[str]:
    """Counts of ``field`` as ``value leak/innocent`` lines (stored as the key)."""
    leak = Counter(str(i[field]) for i in items if i["kind"] == "leak")
    inno = Counter(str(i[field]) for i in items if i["kind"] == "innocent")
    return Counter({f"{v} ({leak[v]}/{inno[v]})": leak[v] + inno[v] for v in leak | inno})


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Cross references of a campaign, each problem with its code and the line it is on."""

from __future__ import annotations

from collections.abc import Iterable

from parlour.core.designer_check import placeholders
from parlour.core.safe_yaml import LinedData
from parlour.games.campaign.content import BANDS, PLACEHOLDERS, TOPICS, Campaign, CampaignError

PC = "pc"


def check_references(campaign: Campaign, lined: LinedData, file: str) -> None:
    """Raise the first problem (in file order) as a ``CampaignError``."""
    problems = sorted(_problems(campaign, lined), key=lambda p: p[0])
    if problems:
        line, code, text = problems[0]
        more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
        raise CampaignError(
            f"{file}:{line}: [{code}] {text}{more}", file=file, line=line, code=code
        )


def _unknown(kind: str, value: str, known: Iterable[str]) -> str:
    return f"unknown {kind} '{value}'; known: {', '.join(known) or '(none)'}"


def _problems(c: Campaign, lined: LinedData) -> list[tuple[int, str, str]]:
    out: list[tuple[int, str, str]] = []
    at = lined.line_of
    for key in ("npcs", "locations", "skills", "difficulties"):
        if not getattr(c, key):
            out.append((at((key,)), "C009", f"'{key}' must not be empty"))
    seen: dict[str, str] = {}
    groups: list[tuple[str, Iterable[str]]] = [
        ("npcs", (n.id for n in c.npcs)),
        ("locations", (p.id for p in c.locations)),
        ("factions", (f.id for f in c.factions)),
        ("threads", (t.id for t in c.threads)),
        ("items", (i.id for i in c.items)),
        ("clocks", (k.id for k in c.clocks)),
    ]
    for key, ids in groups:
        for n, ident in enumerate(ids):
            if ident == PC:
                out.append((at((key, n, "id")), "C003", f"'{PC}' is reserved for the player"))
            if ident in seen:
                out.append(
                    (at((key, n, "id")), "C003", f"id '{ident}' is used twice ({seen[ident]})")
                )
            seen.setdefault(ident, key)
    secret_owner: dict[str, str] = {}
    all_secrets: list[tuple[tuple[str | int, ...], str]] = [
        (("pc", "full", "secrets", n), s.id) for n, s in enumerate(c.pc.full.secrets)
    ]
    for i, npc in enumerate(c.npcs):
        all_secrets += [(("npcs", i, "secrets", n), s.id) for n, s in enumerate(npc.secrets)]
    for path, ident in all_secrets:
        if ident in secret_owner:
            out.append((at((*path, "id")), "C003", f"secret id '{ident}' is used twice"))
        secret_owner.setdefault(ident, "x")
    npcs, places = c.npc_ids, c.location_ids
    factions = tuple(f.id for f in c.factions)
    for i, npc in enumerate(c.npcs):
        for other in npc.relationships:
            if other != PC and other not in npcs:
                where = at(("npcs", i, "relationships", other))
                out.append((where, "C004", _unknown("NPC", other, (PC, *npcs))))
        if npc.faction is not None and npc.faction not in factions:
            out.append(
                (at(("npcs", i, "faction")), "C008", _unknown("faction", npc.faction, factions))
            )
    if c.opening.location not in places:
        out.append(
            (at(("opening", "location")), "C005", _unknown("location", c.opening.location, places))
        )
    for n, ident in enumerate(c.opening.npcs):
        if ident not in npcs:
            out.append((at(("opening", "npcs", n)), "C004", _unknown("NPC", ident, npcs)))
    for skill in c.pc.skills:
        if skill not in c.skills:
            out.append((at(("pc", "skills", skill)), "C006", _unknown("skill", skill, c.skills)))
    items = tuple(i.id for i in c.items)
    for n, item in enumerate(c.pc.inventory):
        if item not in items:
            out.append((at(("pc", "inventory", n)), "C007", _unknown("item", item, items)))
    out += _scripted_content(c, lined)
    return out


def _scripted_content(c: Campaign, lined: LinedData) -> list[tuple[int, str, str]]:
    """NPC lines and reactions, and check rules: keys, placeholders, skills, difficulties."""
    out: list[tuple[int, str, str]] = []
    at = lined.line_of
    for i, npc in enumerate(c.npcs):
        for key, known, kind in (("lines", TOPICS, "topic"), ("reactions", BANDS, "band")):
            table: dict[str, tuple[str, ...]] = getattr(npc, key)
            for name, texts in table.items():
                if name not in known:
                    out.append((at(("npcs", i, key, name)), "C010", _unknown(kind, name, known)))
                for n, text in enumerate(texts):
                    allowed = PLACEHOLDERS if name == "recall" else PLACEHOLDERS[:2]
                    bad = [p for p in placeholders(text) if p not in allowed]
                    if bad:
                        where = at(("npcs", i, key, name, n))
                        words = f"unknown placeholder '{{{bad[0]}}}' in a {name} line; use "
                        out.append((where, "C012", words + ", ".join(f"{{{p}}}" for p in allowed)))
    for n, rule in enumerate(c.checks):
        if rule.skill not in c.skills:
            where = at(("checks", n, "skill"))
            out.append((where, "C011", _unknown("skill", rule.skill, c.skills)))
        if rule.difficulty and rule.difficulty not in c.difficulties:
            where = at(("checks", n, "difficulty"))
            out.append((where, "C011", _unknown("difficulty", rule.difficulty, c.difficulties)))
    return out

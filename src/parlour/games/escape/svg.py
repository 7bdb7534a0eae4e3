"""A dependency-free SVG of a scenario graph: a simple layered (Sugiyama-style) layout.

Layer = longest chain of needs above an action; order within a layer starts from file order
and is improved by a few deterministic barycentre sweeps; edges are cubic curves from a
need's bottom to its dependent's top.
"""

from __future__ import annotations

import textwrap
from collections.abc import Container
from html import escape

from parlour.games.escape.analysis import analyse
from parlour.games.escape.graph_style import STYLES, short, tags
from parlour.games.escape.scenario import Scenario

NODE_W, NODE_H = 210, 66
GAP_X, GAP_Y, MARGIN, TITLE_H, LEGEND_H = 26, 56, 24, 40, 34


DUMMY_W = 18


def layers(scenario: Scenario) -> tuple[list[list[str]], dict[tuple[str, str], list[str]]]:
    """Rows of node ids (top first) and, per long edge, the dummy ids it passes through."""
    facts = analyse(scenario)
    # Unknown needs (an E002 scenario) are drawn as dashed "?" nodes on the top layer.
    level: dict[str, int] = {
        _node(n, facts.by_id): 0
        for a in facts.by_id.values()
        for n in a.needs
        if n not in facts.by_id
    }
    for aid in facts.order:
        needs = [_node(n, facts.by_id) for n in facts.by_id[aid].needs]
        level[aid] = 1 + max((level[n] for n in needs if n in level), default=-1)
    tail = 1 + max(level.values(), default=-1)
    for aid in facts.by_id:  # caught in or behind a cycle: drawn on one extra bottom layer
        level.setdefault(aid, tail)
    rows: list[list[str]] = [[] for _ in range(1 + max(level.values(), default=0))]
    for node in level:
        rows[level[node]].append(node)
    # Standard Sugiyama trick: an edge spanning several layers gets a dummy node on each
    # layer in between, so ordering keeps it clear of real nodes.
    up: dict[str, list[str]] = {node: [] for node in level}
    routes: dict[tuple[str, str], list[str]] = {}
    for act in facts.by_id.values():
        for need in (_node(n, facts.by_id) for n in dict.fromkeys(act.needs)):
            if level[need] >= level[act.id]:
                continue  # a cycle edge: drawn as an arc, no waypoints
            chain = [need]
            for depth in range(level[need] + 1, level[act.id]):
                dummy = f"~{need}>{act.id}@{depth}"
                rows[depth].append(dummy)
                up[dummy] = [chain[-1]]
                chain.append(dummy)
            up[act.id].append(chain[-1])
            routes[(need, act.id)] = chain[1:]
    return _sweeps(rows, up), routes


def _node(need: str, known: Container[str]) -> str:
    return need if need in known else f"?{need}"


def _sweeps(rows: list[list[str]], up: dict[str, list[str]], rounds: int = 4) -> list[list[str]]:
    down: dict[str, list[str]] = {}
    for node, parents in up.items():
        for parent in parents:
            down.setdefault(parent, []).append(node)
    for _ in range(rounds):
        for index in range(1, len(rows)):
            rows[index] = _by_barycentre(rows[index], rows[index - 1], up)
        for index in range(len(rows) - 2, -1, -1):
            rows[index] = _by_barycentre(rows[index], rows[index + 1], down)
    return rows


def _by_barycentre(row: list[str], fixed: list[str], links: dict[str, list[str]]) -> list[str]:
    where = {aid: n for n, aid in enumerate(fixed)}

    def key(item: tuple[int, str]) -> tuple[float, int]:
        position, aid = item
        linked = [where[x] for x in links.get(aid, []) if x in where]
        return (sum(linked) / len(linked) if linked else float(position), position)

    return [aid for _, aid in sorted(enumerate(row), key=key)]


def _slot(node: str) -> float:
    return DUMMY_W if node.startswith("~") else NODE_W


def render_svg(scenario: Scenario, status: dict[str, str], by_progress: bool) -> str:
    rows, routes = layers(scenario)
    row_widths = [sum(_slot(n) for n in r) + GAP_X * max(len(r) - 1, 0) for r in rows]
    width = max(2 * MARGIN + max(row_widths, default=0), 560)
    height = TITLE_H + 2 * MARGIN + len(rows) * NODE_H + (len(rows) - 1) * GAP_Y + LEGEND_H
    pos: dict[str, tuple[float, float]] = {}
    for depth, row in enumerate(rows):
        x = (width - row_widths[depth]) / 2
        for node in row:
            pos[node] = (x, TITLE_H + MARGIN + depth * (NODE_H + GAP_Y))
            x += _slot(node) + GAP_X
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="Helvetica, Arial, sans-serif">',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" '
        'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
        '<path d="M0,0 L10,5 L0,10 z" fill="#666"/></marker></defs>',
        '<rect width="100%" height="100%" fill="#ffffff"/>',
        f'<text x="{width / 2:.0f}" y="{MARGIN + 8}" text-anchor="middle" font-size="17" '
        f'font-weight="bold">{escape(scenario.title)}</text>',
    ]
    out.extend(_edges_svg(scenario, pos, routes))
    for node in (n for n in pos if n.startswith("?")):
        x, y = pos[node]
        out.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{NODE_W}" height="{NODE_H}" rx="9" '
            'fill="#ffffff" stroke="#c0392b" stroke-dasharray="5 4"/>'
            f'<text x="{x + 10:.1f}" y="{y + 17:.1f}" font-size="12" fill="#c0392b">'
            f"{escape(short(node, 30))} (unknown)</text>"
        )
    for act in scenario.actions:
        if act.id in pos:
            out.extend(_node_svg(act.id, act.description, tags(act), act.ends_game, pos, status))
    out.extend(_legend(status, by_progress, width, height))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _edges_svg(
    scenario: Scenario,
    pos: dict[str, tuple[float, float]],
    routes: dict[tuple[str, str], list[str]],
) -> list[str]:
    out = []
    known = {a.id: a for a in scenario.actions}
    for act in scenario.actions:
        for need in (_node(n, known) for n in dict.fromkeys(act.needs)):
            if need not in pos or act.id not in pos:
                continue
            x1, y1 = pos[need][0] + NODE_W / 2, pos[need][1] + NODE_H
            x2, y2 = pos[act.id][0] + NODE_W / 2, pos[act.id][1]
            if y2 <= y1:  # a cycle edge pointing upwards: route it as a dashed arc
                out.append(
                    f'<path d="M{x1:.1f},{y1:.1f} C{x1 + 80:.1f},{y1 + 60:.1f} '
                    f'{x2 + 80:.1f},{y2 - 60:.1f} {x2:.1f},{y2:.1f}" fill="none" '
                    'stroke="#c0392b" stroke-dasharray="5 4" marker-end="url(#arrow)"/>'
                )
                continue
            d = f"M{x1:.1f},{y1:.1f}"
            for dummy in routes.get((need, act.id), []):
                dx, dy = pos[dummy][0] + DUMMY_W / 2, pos[dummy][1]
                mid = (y1 + dy) / 2
                d += f" C{x1:.1f},{mid:.1f} {dx:.1f},{mid:.1f} {dx:.1f},{dy:.1f} V{dy + NODE_H:.1f}"
                x1, y1 = dx, dy + NODE_H
            mid = (y1 + y2) / 2
            d += f" C{x1:.1f},{mid:.1f} {x2:.1f},{mid:.1f} {x2:.1f},{y2 - 2:.1f}"
            out.append(
                f'<path d="{d}" fill="none" stroke="#666" stroke-width="1.3" '
                'marker-end="url(#arrow)"/>'
            )
    return out


def _node_svg(
    aid: str,
    description: str,
    badge: str,
    ending: bool,
    pos: dict[str, tuple[float, float]],
    status: dict[str, str],
) -> list[str]:
    x, y = pos[aid]
    style = STYLES[status[aid]]
    stroke = 3 if ending else 1.5
    lines = textwrap.wrap(short(description, 60), 34)[:2]
    out = [
        f"<g><title>{escape(aid)}: {escape(description)}</title>",
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{NODE_W}" height="{NODE_H}" rx="9" '
        f'fill="{style.fill}" stroke="{style.stroke}" stroke-width="{stroke}"/>',
        f'<text x="{x + 10:.1f}" y="{y + 17:.1f}" font-size="12" font-weight="bold">'
        f"{escape(short(aid, 30))}</text>",
    ]
    for n, line in enumerate(lines):
        out.append(
            f'<text x="{x + 10:.1f}" y="{y + 33 + 13 * n:.1f}" font-size="11">{escape(line)}</text>'
        )
    if badge:
        out.append(
            f'<text x="{x + NODE_W - 8:.1f}" y="{y + 17:.1f}" font-size="9" text-anchor="end" '
            f'fill="{style.stroke}">{escape(badge)}</text>'
        )
    out.append("</g>")
    return out


def _legend(status: dict[str, str], by_progress: bool, width: float, height: float) -> list[str]:
    keys = (
        [k for k in ("done", "available", "locked", "unreached") if k in status.values()]
        if by_progress
        else [k for k in ("plain", "answer", "repeatable", "good", "bad") if k in status.values()]
    )
    out = []
    x = MARGIN
    y = height - MARGIN
    for key in keys:
        style = STYLES[key]
        out.append(
            f'<rect x="{x}" y="{y - 11}" width="14" height="14" rx="3" fill="{style.fill}" '
            f'stroke="{style.stroke}"/>'
        )
        out.append(f'<text x="{x + 20}" y="{y}" font-size="11">{escape(style.label)}</text>')
        x += 30 + 7 * len(style.label)
    return out

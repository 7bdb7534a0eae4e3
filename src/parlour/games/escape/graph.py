"""Drawing a scenario's graph as Mermaid, Graphviz DOT or a self-made SVG.

Nodes show an action's id and description (never its consequence or answer). With a saved
game's done set, nodes are coloured done / available / locked (done / not reached once
the game is over); without one, by kind
(ending good or bad, answer, repeatable, plain).
"""

from __future__ import annotations

from typing import Literal

from parlour.games.escape.graph_style import STYLES, short, status_of, tags
from parlour.games.escape.scenario import Scenario
from parlour.games.escape.svg import render_svg

Format = Literal["mermaid", "dot", "svg"]
FORMATS: tuple[Format, ...] = ("mermaid", "dot", "svg")


def render(
    scenario: Scenario, fmt: str, done: set[str] | None = None, finished: bool = False
) -> str:
    """``finished``: the game that ``done`` comes from is over (nothing is available)."""
    status = status_of(scenario, done, finished)
    if fmt == "mermaid":
        return _mermaid(scenario, status)
    if fmt == "dot":
        return _dot(scenario, status)
    if fmt == "svg":
        return render_svg(scenario, status, done is not None)
    raise ValueError(f"unknown graph format '{fmt}'; choose one of: {', '.join(FORMATS)}")


def _edges(scenario: Scenario) -> list[tuple[str, str]]:
    return [(need, a.id) for a in scenario.actions for need in dict.fromkeys(a.needs)]


def _mermaid(scenario: Scenario, status: dict[str, str]) -> str:
    ids = {a.id: f"a{n}" for n, a in enumerate(scenario.actions)}

    def text(value: str) -> str:
        return value.replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;")

    lines = ["flowchart TD"]
    for act in scenario.actions:
        badge = f"<br/><i>{text(tags(act))}</i>" if tags(act) else ""
        label = f'"<b>{text(act.id)}</b><br/>{text(short(act.description))}{badge}"'
        shape = f"([{label}])" if act.ends_game else f"[{label}]"
        lines.append(f"  {ids.setdefault(act.id, act.id)}{shape}")
    unknown = 0
    for need, target in _edges(scenario):
        if need not in ids:
            unknown += 1
            ids[need] = f"u{unknown}"
            lines.append(f'  {ids[need]}["? {text(need)}"]:::missing')
        lines.append(f"  {ids[need]} --> {ids[target]}")
    for key, style in STYLES.items():
        if key in status.values():
            lines.append(f"  classDef {key} fill:{style.fill},stroke:{style.stroke},color:#1a1a1a")
    lines.append("  classDef missing fill:#ffffff,stroke:#c0392b,stroke-dasharray:4 3")
    for key in STYLES:
        members = [ids[a] for a, s in status.items() if s == key]
        if members:
            lines.append(f"  class {','.join(members)} {key}")
    return "\n".join(lines) + "\n"


def _dot_str(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _dot(scenario: Scenario, status: dict[str, str]) -> str:
    lines = [
        f"digraph {_dot_str(scenario.title)} {{",
        "  rankdir=TB;",
        f"  label={_dot_str(scenario.title)}; labelloc=t; fontname=Helvetica;",
        '  node [shape=box, style="rounded,filled", fontname=Helvetica, fontsize=10];',
        '  edge [color="#555555"];',
    ]
    known = {a.id for a in scenario.actions}
    for act in scenario.actions:
        style = STYLES[status[act.id]]
        label = "\n".join(x for x in (act.id, short(act.description), tags(act)) if x)
        extra = ", peripheries=2" if act.ends_game else ""
        lines.append(
            f"  {_dot_str(act.id)} [label={_dot_str(label)}, fillcolor={_dot_str(style.fill)}, "
            f"color={_dot_str(style.stroke)}{extra}];"
        )
    for need, target in _edges(scenario):
        if need not in known:
            missing = _dot_str("? " + need)
            lines.append(f'  {_dot_str(need)} [label={missing}, style=dashed, color="#c0392b"];')
            known.add(need)
        lines.append(f"  {_dot_str(need)} -> {_dot_str(target)};")
    lines.append("}")
    return "\n".join(lines) + "\n"

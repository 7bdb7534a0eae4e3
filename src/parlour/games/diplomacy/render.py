"""Draw a Diplomacy board as a schematic map (SVG, and PNG via cairosvg).

The picture is a "subway map" of Europe: every province is a node placed by a
layout file (``data/<map>_layout.yaml``), adjacencies are thin lines (army-only,
fleet-only and shared links styled differently), supply centres carry a star
and owned centres a ring in the owner's colour, and units, dislodged units and
optional orders are drawn on top. A legend lists each power's centres and units.

The SVG is built as plain strings with every piece of text escaped, and
everything is emitted in a fixed order with fixed number formatting, so the
same inputs always give byte-identical output (diffable, cacheable files).

Provinces, coast markers, labels and units carry ``data-province`` (and
``data-coast``, ``data-unit`` as orders write them: ``F STP/SC``), so a page that
shows the SVG can tell what was clicked; renderers of the SVG ignore them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, TypedDict, Unpack

from .board import Board, Unit
from .map import GameMap, Location, ProvinceKind, UnitType, load_data_mapping
from .orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)

__all__ = [
    "POWER_COLOURS",
    "Drawing",
    "LayoutError",
    "MapLayout",
    "ProvinceLayout",
    "layout_for",
    "layout_from_dict",
    "load_layout",
    "power_colour",
    "render_phase_files",
    "render_png",
    "render_svg",
]

Point = tuple[float, float]


class LayoutError(ValueError):
    """A layout file is malformed or does not cover the map."""


# --- colours ----------------------------------------------------------------

# The traditional board colours, nudged so each reads on a beige/blue map:
# Russia is purple rather than white, Germany dark grey rather than black.
POWER_COLOURS: Mapping[str, str] = {
    "AUSTRIA": "#c62828",
    "ENGLAND": "#1a237e",
    "FRANCE": "#42a5f5",
    "GERMANY": "#545454",
    "ITALY": "#2e7d32",
    "RUSSIA": "#7b3fa0",
    "TURKEY": "#f9c80e",
}
# For variant maps whose powers are not the standard seven.
_FALLBACK_COLOURS = ("#ef6c00", "#00897b", "#ad1457", "#6d4c41", "#3949ab", "#9e9d24")
_INK = "#222222"
_BACKGROUND = "#f4f1e8"
_SEA_FILL, _SEA_STROKE, _SEA_TEXT = "#cfe2f3", "#7fa6c9", "#2f5f8a"
_LAND_FILL, _LAND_STROKE, _COAST_STROKE = "#efe3c4", "#a8916a", "#6f93b5"
_LINK_ARMY, _LINK_FLEET, _LINK_BOTH = "#b49b72", "#7fa6c9", "#8d8d8d"
_DISLODGED_RING = "#d50000"

# Geometry, in canvas units.
_R_LAND = 15.0
_R_SEA = 19.0
_R_UNIT = 8.5
_DISLODGED_OFFSET = (15.0, -13.0)  # up and right: away from the star and the label
_FLEET_DASH = "5 3"
_SUPPORT_DASH = "5 3"
_CONVOY_DASH = "1.5 3.5"
_FAILED_DASH = "6 4"
#: Order outcomes drawn as "did not happen" (a bounce, a broken convoy, a failed retreat).
FAILED_STATUSES = frozenset({"failed", "no convoy", "disbanded", "void"})
#: Supports that did not count: drawn faded.
WEAK_STATUSES = frozenset({"cut", "void"})


def power_colour(game_map: GameMap, power: str) -> str:
    """The display colour of ``power`` (standard colours, else a fixed palette)."""
    if power in POWER_COLOURS:
        return POWER_COLOURS[power]
    others = [p for p in game_map.powers if p not in POWER_COLOURS]
    idx = others.index(power) if power in others else len(others)
    return _FALLBACK_COLOURS[idx % len(_FALLBACK_COLOURS)]


def _tint(colour: str, keep: float) -> str:
    """Mix ``colour`` with white, keeping ``keep`` of it (pale fills for owned centres)."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(255 - (255 - c) * keep):02x}" for c in rgb)


def _css_token(power: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in power.lower())


# --- layout -----------------------------------------------------------------

_LABEL_SIDES = ("n", "s", "e", "w", "ne", "nw", "se", "sw")


@dataclass(frozen=True, slots=True)
class ProvinceLayout:
    """Where a province's node sits, which side its label goes, and its coast offsets."""

    x: float
    y: float
    label: str = "s"
    coasts: Mapping[str, Point] = field(default_factory=dict)


@dataclass(frozen=True)
class MapLayout:
    width: int
    height: int
    provinces: Mapping[str, ProvinceLayout]
    title_at: Point = (20.0, 36.0)
    legend_at: Point = (8.0, 580.0)

    def node(self, province: str) -> Point:
        p = self.provinces[province]
        return (p.x, p.y)

    def point(self, loc: Location) -> Point:
        """Canvas point of a location: the node, shifted to the coast if one is given."""
        p = self.provinces[loc.province]
        if loc.coast in p.coasts:
            dx, dy = p.coasts[loc.coast]
            return (p.x + dx, p.y + dy)
        return (p.x, p.y)

    def missing(self, game_map: GameMap) -> list[str]:
        """Provinces (and ``PROV/COAST`` split coasts) of the map this layout does not place."""
        out: list[str] = []
        for abbrev in sorted(game_map.provinces):
            p = self.provinces.get(abbrev)
            coasts = game_map.provinces[abbrev].coasts
            if p is None:
                out.append(abbrev)
            else:
                out.extend(f"{abbrev}/{c}" for c in coasts if c not in p.coasts)
        return out


def _xy(value: Any, where: str) -> Point:
    if isinstance(value, Mapping):
        value = [value.get("x"), value.get("y")]
    if not (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int | float) for v in value)
    ):
        raise LayoutError(f"{where}: expected a point [x, y] or {{x: .., y: ..}}")
    return (float(value[0]), float(value[1]))


def layout_from_dict(raw: Mapping[str, Any]) -> MapLayout:
    """Build a :class:`MapLayout` from parsed layout data."""
    try:
        width, height = int(raw["width"]), int(raw["height"])
        raw_provs = raw["provinces"]
    except (KeyError, TypeError, ValueError) as exc:
        raise LayoutError(f"layout missing or bad top-level field: {exc}") from exc
    if not isinstance(raw_provs, Mapping):
        raise LayoutError("layout: provinces must be a mapping")
    provinces: dict[str, ProvinceLayout] = {}
    for abbrev, spec in raw_provs.items():
        key = str(abbrev).upper()
        if not isinstance(spec, Mapping):
            raise LayoutError(f"{key}: expected a mapping with x and y")
        x, y = _xy(spec, key)
        label = str(spec.get("label", "s")).lower()
        if label not in _LABEL_SIDES:
            raise LayoutError(f"{key}: label side {label!r} is not one of {_LABEL_SIDES}")
        raw_coasts = spec.get("coasts") or {}
        coasts = {str(c).upper(): _xy(off, f"{key}/{c}") for c, off in raw_coasts.items()}
        provinces[key] = ProvinceLayout(x, y, label, coasts)
    title_at = _xy(raw["title"], "title") if "title" in raw else (20.0, 36.0)
    legend_at = _xy(raw["legend"], "legend") if "legend" in raw else (8.0, height - 220.0)
    return MapLayout(width, height, provinces, title_at, legend_at)


@cache
def load_layout(name: str = "standard") -> MapLayout:
    """Load (once) the layout ``data/<name>_layout.yaml``; KeyError if there is none."""
    return layout_from_dict(load_data_mapping(f"{name}_layout.yaml", "layout", name, LayoutError))


def _grid_layout(game_map: GameMap) -> MapLayout:
    """A plain grid, so maps without a hand-made layout still render (if not prettily)."""
    names = sorted(game_map.provinces)
    cols = max(1, math.ceil(math.sqrt(len(names) * 1.25)))
    rows = math.ceil(len(names) / cols)
    width, height = 1000, max(800, 160 + rows * 70)
    step = (width - 260) / cols
    provinces: dict[str, ProvinceLayout] = {}
    for i, name in enumerate(names):
        coasts = {
            c: (26.0 * math.cos(1.3 + k * 2.1), 26.0 * math.sin(1.3 + k * 2.1))
            for k, c in enumerate(game_map.provinces[name].coasts)
        }
        x, y = 240 + step * (i % cols + 0.5), 100 + 70 * (i // cols)
        provinces[name] = ProvinceLayout(x, y, "s", coasts)
    return MapLayout(width, height, provinces, (20.0, 36.0), (8.0, 80.0))


def layout_for(game_map: GameMap) -> MapLayout:
    """The hand-made layout for this map if there is one, else a grid."""
    try:
        return load_layout(game_map.name)
    except KeyError:
        return _grid_layout(game_map)


# --- SVG string building ------------------------------------------------------


def _num(v: float) -> str:
    # One decimal is plenty on a 1000px canvas and keeps the text stable.
    s = f"{v:.1f}".removesuffix(".0")
    return "0" if s == "-0" else s


def _esc(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def _el(tag: str, body: str | None = None, /, **attrs: str | float) -> str:
    """One element. Keyword ``stroke_width`` is written ``stroke-width``; ``cls`` is ``class``."""
    parts = [tag]
    for key, v in attrs.items():
        name = "class" if key == "cls" else key.replace("_", "-")
        parts.append(f'{name}="{_num(v) if isinstance(v, int | float) else _esc(v)}"')
    head = " ".join(parts)
    return f"<{head}/>" if body is None else f"<{head}>{body}</{tag}>"


def _pts(points: Sequence[Point]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _title(text: str) -> str:
    """A tooltip for the enclosing element (SVG viewers show it on hover)."""
    return f"<title>{_esc(text)}</title>"


def _text(x: float, y: float, text: str, size: float, **attrs: str | float) -> str:
    return _el("text", _esc(text), x=x, y=y, font_size=size, **attrs)


def _haloed(x: float, y: float, text: str, size: float, **attrs: str | float) -> str:
    """Text drawn twice, first as a thick background-coloured stroke, so links don't hide it."""
    halo = _text(x, y, text, size, **{**attrs, "fill": "none"}, stroke=_BACKGROUND, stroke_width=3)
    return halo + _text(x, y, text, size, **attrs)


def _star(cx: float, cy: float, r: float) -> list[Point]:
    pts: list[Point] = []
    for i in range(10):
        rad = r if i % 2 == 0 else r * 0.45
        ang = -math.pi / 2 + i * math.pi / 5
        pts.append((cx + rad * math.cos(ang), cy + rad * math.sin(ang)))
    return pts


def _unit_shape(unit_type: UnitType, x: float, y: float, fill: str, scale: float = 1.0) -> str:
    """An army is a disc; a fleet is a little boat (hull plus sail)."""
    if unit_type is UnitType.ARMY:
        return _el(
            "circle", cx=x, cy=y, r=_R_UNIT * scale, fill=fill, stroke=_INK, stroke_width=1.5
        )
    s = scale
    hull = [(-11, 1), (11, 1), (7, 8), (-7, 8)]
    sail = [(-1.5, -10), (-1.5, -0.5), (8, -0.5)]
    d = " ".join(
        "M" + " L".join(f"{_num(x + px * s)},{_num(y + py * s)}" for px, py in shape) + " Z"
        for shape in (hull, sail)
    )
    return _el("path", d=d, fill=fill, stroke=_INK, stroke_width=1.3, stroke_linejoin="round")


def _toward(a: Point, b: Point, dist: float) -> Point:
    """The point ``dist`` along the segment from a to b (clamped to its midpoint)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length == 0:
        return a
    t = min(dist / length, 0.5)
    return (a[0] + dx * t, a[1] + dy * t)


def _line(a: Point, b: Point, **attrs: str | float) -> str:
    return _el("line", x1=a[0], y1=a[1], x2=b[0], y2=b[1], **attrs)


def _arrow(
    a: Point,
    b: Point,
    colour: str,
    *,
    start_gap: float,
    end_gap: float,
    dash: str = "",
    failed: bool = False,
) -> str:
    """A thick arrow from a to b, outlined in ink so pale colours (Turkey) stay visible.

    ``failed`` (a bounce): a dashed shaft, a hollow head and a bar across in front of
    it, so a move that did not happen never looks like one that did."""
    start, tip = _toward(a, b, start_gap), _toward(b, a, end_gap)
    dx, dy = tip[0] - start[0], tip[1] - start[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    head_len, head_w = min(11.0, length * 0.6), 6.0
    base = (tip[0] - ux * head_len, tip[1] - uy * head_len)
    head = [
        tip,
        (base[0] - uy * head_w, base[1] + ux * head_w),
        (base[0] + uy * head_w, base[1] - ux * head_w),
    ]
    if failed:
        dash = dash or _FAILED_DASH
    extra: dict[str, str | float] = {"stroke_dasharray": dash} if dash else {}
    cap = "butt" if failed else "round"  # round caps would fill a dashed shaft's gaps
    body = _line(start, base, stroke=_INK, stroke_width=5.5, stroke_linecap=cap, **extra)
    body += _line(start, base, stroke=colour, stroke_width=3, stroke_linecap=cap, **extra)
    if not failed:
        return body + _el("polygon", points=_pts(head), fill=colour, stroke=_INK, stroke_width=1.2)
    body += _el("polygon", points=_pts(head), fill="#ffffff", stroke=colour, stroke_width=2.2)
    # The bounce mark: a bar across the shaft just behind the hollow head.
    k = 8.0
    bar = (base[0] - ux * 2, base[1] - uy * 2)
    ends = ((bar[0] - uy * k, bar[1] + ux * k), (bar[0] + uy * k, bar[1] - ux * k))
    body += _line(*ends, stroke="#ffffff", stroke_width=6.5, stroke_linecap="round")
    body += _line(*ends, stroke=_INK, stroke_width=3.2, stroke_linecap="round")
    return body


def _thin(a: Point, b: Point, colour: str, dash: str, width: float = 2.2) -> str:
    """A dashed order line on a white underlay, so it stands out from the map links."""
    common: dict[str, str | float] = {"stroke_linecap": "round", "stroke_dasharray": dash}
    return _line(a, b, stroke="#ffffff", stroke_width=width + 2.2, **common) + _line(
        a, b, stroke=colour, stroke_width=width, **common
    )


def _ring(p: Point, r: float, colour: str, dash: str = "") -> str:
    extra: dict[str, str | float] = {"stroke_dasharray": dash} if dash else {}
    return _el("circle", cx=p[0], cy=p[1], r=r, fill="none", stroke=_INK, stroke_width=4.5) + _el(
        "circle", cx=p[0], cy=p[1], r=r, fill="none", stroke=colour, stroke_width=2.5, **extra
    )


# --- the renderer -------------------------------------------------------------


@dataclass(frozen=True)
class _Ctx:
    board: Board
    game_map: GameMap
    layout: MapLayout
    #: canonical order text → adjudicator status, when the phase has been adjudicated
    outcomes: Mapping[str, str] = field(default_factory=dict)

    def colour(self, power: str | None) -> str:
        return _INK if power is None else power_colour(self.game_map, power)

    def radius(self, province: str) -> float:
        return _R_SEA if self.game_map.is_sea(province) else _R_LAND

    def dislodged_point(self, loc: Location) -> Point:
        x, y = self.layout.point(loc)
        return (x + _DISLODGED_OFFSET[0], y + _DISLODGED_OFFSET[1])

    def unit_point(self, province: str) -> Point:
        """Where the unit in ``province`` is drawn (its coast, if any), else the node."""
        unit = self.board.unit_at(province)
        return self.layout.point(unit.location if unit is not None else Location(province))

    def adjective(self, power: str) -> str:
        return self.game_map.adjectives.get(power, power.title())


def _defs(ctx: _Ctx) -> str:
    # Hatched fills mark dislodged units, one pattern per power colour.
    out = ["<defs>"]
    for power in ctx.game_map.powers:
        stripes = _el("rect", width=5, height=5, fill=ctx.colour(power))
        stripes += _el("rect", width=2, height=5, fill="#ffffff")
        out.append(
            _el(
                "pattern",
                stripes,
                id=f"hatch-{_css_token(power)}",
                patternUnits="userSpaceOnUse",
                width=5,
                height=5,
                patternTransform="rotate(45)",
            )
        )
    out.append("</defs>")
    return "".join(out)


def _links(ctx: _Ctx) -> list[str]:
    gm, lay = ctx.game_map, ctx.layout
    army_pairs = {(p, q) for p, adj in gm.army_adjacency.items() for q in adj if p < q}
    fleet_pairs = {(a, b) for a, adj in gm.fleet_adjacency.items() for b in adj if a < b}
    # A link both unit types use is drawn once, plainly; split coasts keep their
    # own fleet lines because fleets sit on (and move from) the coast marker.
    shared = {
        (a.province, b.province)
        for a, b in fleet_pairs
        if not a.coast and not b.coast and (a.province, b.province) in army_pairs
    }
    out = ['<g class="links" stroke-width="1.6" stroke-linecap="round">']
    for p, q in sorted(army_pairs):
        kind = "both" if (p, q) in shared else "army"
        colour = _LINK_BOTH if kind == "both" else _LINK_ARMY
        out.append(_line(lay.node(p), lay.node(q), cls=f"link {kind}", stroke=colour))
    for a, b in sorted(fleet_pairs):
        if (a.province, b.province) not in shared:
            out.append(
                _line(
                    lay.point(a),
                    lay.point(b),
                    cls="link fleet",
                    stroke=_LINK_FLEET,
                    stroke_dasharray=_FLEET_DASH,
                )
            )
    out.append("</g>")
    return out


def _provinces(ctx: _Ctx) -> tuple[list[str], list[str]]:
    """The province nodes and centre stars, and apart from them the labels (drawn last,
    over the orders, so an arrowhead never hides a name)."""
    gm, lay, centres = ctx.game_map, ctx.layout, ctx.board.centres
    nodes, stars = ['<g class="provinces">'], ['<g class="centres">']
    labels = ['<g class="labels" font-weight="bold">']
    for abbrev in sorted(gm.provinces):
        prov, pl, r = gm.provinces[abbrev], lay.provinces[abbrev], ctx.radius(abbrev)
        sea = prov.kind is ProvinceKind.SEA
        owner = centres.get(abbrev) if prov.supply_centre else None
        classes = ["province", prov.kind.value]
        fill = _SEA_FILL if sea else _LAND_FILL
        stroke = {
            ProvinceKind.SEA: _SEA_STROKE,
            ProvinceKind.COAST: _COAST_STROKE,
            ProvinceKind.LAND: _LAND_STROKE,
        }[prov.kind]
        width = 1.5
        tip = f"{prov.name} ({abbrev})"
        if prov.supply_centre:
            classes.append("centre")
            tip += f", {ctx.adjective(owner)} centre" if owner else ", neutral centre"
        if owner is not None:
            # Ownership: a pale fill plus a thick ring in the owner's colour, so a
            # full-colour unit standing on it still contrasts.
            classes.append(f"owner-{_css_token(owner)}")
            fill, stroke, width = _tint(ctx.colour(owner), 0.35), ctx.colour(owner), 3.5
        circle = _el("circle", cx=pl.x, cy=pl.y, r=r, fill=fill, stroke=stroke, stroke_width=width)
        # data-province: what a click on the board means (the web room's order picker).
        nodes.append(_el("g", _title(tip) + circle, cls=" ".join(classes), data_province=abbrev))
        for coast in prov.coasts:
            cp = lay.point(Location(abbrev, coast))
            nodes.append(_line(lay.node(abbrev), cp, stroke=_COAST_STROKE, stroke_width=1.2))
            nodes.append(
                _el(
                    "circle",
                    _title(gm.location_name(Location(abbrev, coast))),
                    cls="coast-marker",
                    data_province=abbrev,
                    data_coast=coast,
                    cx=cp[0],
                    cy=cp[1],
                    r=4.5,
                    fill="#ffffff",
                    stroke=_COAST_STROKE,
                    stroke_width=1.2,
                )
            )
            # Coast name just beyond the marker, continuing the node→coast direction.
            lx, ly = cp[0] + (cp[0] - pl.x) * 0.45, cp[1] + (cp[1] - pl.y) * 0.45 + 3
            where: dict[str, str | float] = {"data_province": abbrev, "data_coast": coast}
            labels.append(
                _haloed(lx, ly, coast.lower(), 8, text_anchor="middle", fill=_SEA_TEXT, **where)
            )
        if prov.supply_centre:
            star = _star(pl.x - r * 0.72, pl.y - r * 0.72, 6.0)
            stars.append(
                _el(
                    "polygon",
                    cls="centre-star",
                    points=_pts(star),
                    fill=ctx.colour(owner) if owner else "#ffffff",
                    stroke=_INK,
                    stroke_width=0.9,
                    stroke_linejoin="round",
                )
            )
        labels.append(_province_label(pl, abbrev, r, sea=sea))
    return [*nodes, "</g>", *stars, "</g>"], [*labels, "</g>"]


def _province_label(pl: ProvinceLayout, abbrev: str, r: float, *, sea: bool) -> str:
    side, gap = pl.label, r + 3.0
    if len(side) == 2:
        gap *= 0.8  # diagonal sides: keep the label as close as the straight ones
    dx = (1 if "e" in side else -1 if "w" in side else 0) * gap
    dy = (1 if "s" in side else -1 if "n" in side else 0) * gap
    anchor = "start" if "e" in side else "end" if "w" in side else "middle"
    # The anchor is the text baseline: push it down so the glyphs clear the node.
    y = pl.y + dy + (9.0 if "s" in side else 0.0 if "n" in side else 4.0)
    style: dict[str, str | float] = (
        {"font_style": "italic", "fill": _SEA_TEXT} if sea else {"fill": _INK}
    )
    style["data_province"] = abbrev  # a click on the name means the province
    return _haloed(pl.x + dx, y, abbrev, 11, text_anchor=anchor, **style)


def _unit_svg(ctx: _Ctx, unit: Unit) -> str:
    kind = "army" if unit.type is UnitType.ARMY else "fleet"
    x, y = ctx.layout.point(unit.location)
    tip = f"{ctx.adjective(unit.power)} {kind} in {ctx.game_map.location_name(unit.location)}"
    body = _title(tip) + _unit_shape(unit.type, x, y, ctx.colour(unit.power))
    return _el(
        "g",
        body,
        cls=f"unit {kind} {_css_token(unit.power)}",
        data_unit=unit.text,
        data_province=unit.province,
    )


def _dislodged_svg(ctx: _Ctx, unit: Unit, attacker_from: str) -> str:
    kind = "army" if unit.type is UnitType.ARMY else "fleet"
    token = _css_token(unit.power)
    x, y = ctx.dislodged_point(unit.location)
    where = ctx.game_map.location_name(unit.location)
    tip = f"Dislodged {ctx.adjective(unit.power)} {kind} in {where} (attacked from {attacker_from})"
    # Hatched fill inside a dashed red ring: displaced, not standing there.
    ring = _el(
        "circle",
        cx=x,
        cy=y,
        r=12.5,
        fill="#ffffff",
        fill_opacity=0.85,
        stroke=_DISLODGED_RING,
        stroke_width=1.8,
        stroke_dasharray="3 2",
    )
    shape = _unit_shape(unit.type, x, y, f"url(#hatch-{token})", scale=0.85)
    return _el(
        "g",
        _title(tip) + ring + shape,
        cls=f"dislodged {kind} {token}",
        data_unit=unit.text,
        data_province=unit.province,
    )


# --- orders -------------------------------------------------------------------


def _order_power(ctx: _Ctx, order: Order) -> str | None:
    if isinstance(order, Waive):
        return None
    prov = order.location.province
    dislodged = ctx.board.dislodged_at(prov)
    if isinstance(order, Retreat | Disband) and dislodged is not None:
        return dislodged.unit.power
    unit = ctx.board.unit_at(prov)
    if unit is not None:
        return unit.power
    if isinstance(order, Build):
        return ctx.board.centres.get(prov) or ctx.game_map.provinces[prov].home_power
    return None


def _order_places(order: Order) -> tuple[str, ...]:
    if isinstance(order, Waive):
        return ()
    if isinstance(order, Move | Retreat):
        return (order.location.province, order.dest.province)
    if isinstance(order, SupportMove):
        return (order.location.province, order.target, order.dest.province)
    if isinstance(order, SupportHold):
        return (order.location.province, order.target)
    if isinstance(order, Convoy):
        return (order.location.province, order.army_from, order.army_to)
    return (order.location.province,)


def _dest_gap(ctx: _Ctx, dest: Location) -> float:
    """Stop an arrow at the node's rim, or just short of a coast marker."""
    return 6.0 if dest.coast else ctx.radius(dest.province) - 2


def _order_svg(ctx: _Ctx, order: Order) -> str:
    places = _order_places(order)
    # Unknown provinces (unvalidated text) are skipped rather than crashing a picture.
    if isinstance(order, Waive) or not all(p in ctx.layout.provinces for p in places):
        return ""
    power = _order_power(ctx, order)
    colour = ctx.colour(power)
    token = _css_token(power) if power else "unknown"
    prov = order.location.province
    dislodged = ctx.board.dislodged_at(prov)
    if isinstance(order, Retreat | Disband) and dislodged is not None:
        src = ctx.dislodged_point(dislodged.unit.location)
    elif isinstance(order, Build):
        src = ctx.layout.point(order.location)
    else:
        src = ctx.unit_point(prov)
    kind, body = "", ""
    status = ctx.outcomes.get(str(order), "")
    failed = status in FAILED_STATUSES
    if isinstance(order, Move):
        kind = "move via-convoy" if order.via_convoy else "move"
        dest = ctx.layout.point(order.dest)
        gap = _dest_gap(ctx, order.dest)
        body = _arrow(src, dest, colour, start_gap=_R_UNIT + 2, end_gap=gap, failed=failed)
    elif isinstance(order, Retreat):
        kind, dest = "retreat", ctx.layout.point(order.dest)
        body = _arrow(
            src,
            dest,
            colour,
            start_gap=12,
            end_gap=_dest_gap(ctx, order.dest),
            dash="7 4",
            failed=failed,
        )
    elif isinstance(order, Hold):
        kind, body = "hold", _ring(src, 14.0, colour)
    elif isinstance(order, SupportHold):
        kind, target = "support", ctx.unit_point(order.target)
        body = _thin(_toward(src, target, 10), _toward(target, src, 16), colour, _SUPPORT_DASH)
        body += _ring(target, 15.0, colour, dash="4 3")
    elif isinstance(order, SupportMove):
        # The dashed line meets the supported unit's move arrow near its head.
        kind, target = "support", ctx.unit_point(order.target)
        dest = ctx.layout.point(order.dest)
        meet = (target[0] + (dest[0] - target[0]) * 0.7, target[1] + (dest[1] - target[1]) * 0.7)
        body = _thin(_toward(src, meet, 10), meet, colour, _SUPPORT_DASH)
        body += _el("circle", cx=meet[0], cy=meet[1], r=3.2, fill=colour, stroke=_INK)
    elif isinstance(order, Convoy):
        # A dotted "V" from the army's province through the fleet to the landing.
        kind, a, b = "convoy", ctx.unit_point(order.army_from), ctx.layout.node(order.army_to)
        body = _thin(_toward(a, src, 10), _toward(src, a, 12), colour, _CONVOY_DASH, 2.6)
        body += _thin(_toward(src, b, 12), _toward(b, src, 14), colour, _CONVOY_DASH, 2.6)
    elif isinstance(order, Disband):
        x, y, k = src[0], src[1], 9.0
        cross = (
            f"M{_num(x - k)},{_num(y - k)} L{_num(x + k)},{_num(y + k)} "
            f"M{_num(x - k)},{_num(y + k)} L{_num(x + k)},{_num(y - k)}"
        )
        kind = "disband"
        body = _el("path", d=cross, stroke=_INK, stroke_width=5.5, stroke_linecap="round")
        body += _el("path", d=cross, stroke="#e53935", stroke_width=3, stroke_linecap="round")
    elif isinstance(order, Build):
        kind = "build"
        ghost = _el("g", _unit_shape(order.unit_type, src[0], src[1], colour), opacity=0.75)
        body = _ring(src, 14.0, colour, dash="4 3") + ghost
    tip = f"{order} ({status})" if status else str(order)
    if status and isinstance(order, Move | Retreat | SupportHold | SupportMove | Convoy):
        kind += f" {status.replace(' ', '-')}"
    extra: dict[str, str | float] = {}
    if status in WEAK_STATUSES and isinstance(order, SupportHold | SupportMove | Convoy):
        extra["opacity"] = 0.45
    return _el("g", _title(tip) + body, cls=f"order {kind} {token}", **extra)


# --- title and legend ---------------------------------------------------------


def _heading(ctx: _Ctx, title: str | None, subtitle: str | None = None) -> list[str]:
    board = ctx.board
    phase = board.phase.long_name
    if board.finished:
        won = f": {board.winner.title()} wins" if board.winner else ""
        phase = f"Game over after {phase}{won}"
    main, sub = (
        (title, phase) if title else (phase, f"{board.phase_name} · {ctx.game_map.name} map")
    )
    sub = subtitle or sub
    x, y = ctx.layout.title_at
    return [
        '<g class="title">',
        _text(x, y, main, 22, font_weight="bold", fill=_INK),
        _text(x, y + 20, sub, 13, fill="#555555"),
        "</g>",
    ]


def _legend(ctx: _Ctx) -> list[str]:
    gm, board = ctx.game_map, ctx.board
    x0, y0 = ctx.layout.legend_at
    counts = board.centre_counts()
    row_h, width = 18.0, 200.0
    key_rows = 5  # symbols; links; orders; bounce, hold, retreat; build, dislodged
    box_h = 34 + row_h * len(gm.powers) + 4 + 14 + 18 * key_rows
    y0 = min(y0, ctx.layout.height - box_h - 4)  # the longer key must stay on the canvas
    key_y = y0 + 34 + row_h * len(gm.powers) + 4
    grey: dict[str, str | float] = {"fill": "#555555", "text_anchor": "end"}
    small: dict[str, str | float] = {"fill": "#444444"}
    out = [
        '<g class="legend">',
        _el(
            "rect",
            x=x0,
            y=y0,
            width=width,
            height=box_h,
            rx=6,
            fill="#ffffff",
            fill_opacity=0.93,
            stroke="#999999",
        ),
        _text(x0 + 10, y0 + 18, "Power", 12, font_weight="bold", fill=_INK),
        _text(x0 + 150, y0 + 18, "centres", 11, **grey),
        _text(x0 + 192, y0 + 18, "units", 11, **grey),
    ]
    for i, power in enumerate(gm.powers):
        y = y0 + 34 + row_h * i
        n_centres = counts.get(power, 0)
        swatch = _el(
            "rect",
            x=x0 + 10,
            y=y - 10,
            width=14,
            height=12,
            rx=2,
            fill=ctx.colour(power),
            stroke=_INK,
        )
        row = swatch + _text(x0 + 30, y, power.title(), 12, fill=_INK)
        row += _text(x0 + 150, y, str(n_centres), 12, font_weight="bold", text_anchor="end")
        row += _text(x0 + 192, y, str(len(board.units_of(power))), 12, text_anchor="end")
        out.append(_el("g", row, cls=f"legend-row {_css_token(power)}", data_centres=n_centres))
    # Symbol key: three rows of (icon, word) pairs.
    out.append(_line((x0 + 8, key_y - 10), (x0 + width - 8, key_y - 10), stroke="#cccccc"))
    y = key_y + 4
    out.append(_unit_shape(UnitType.ARMY, x0 + 18, y - 4, "#bbbbbb", 0.8))
    out.append(_text(x0 + 30, y, "army", 10, **small))
    out.append(_unit_shape(UnitType.FLEET, x0 + 78, y - 4, "#bbbbbb", 0.8))
    out.append(_text(x0 + 91, y, "fleet", 10, **small))
    star = _pts(_star(x0 + 138, y - 4, 6.0))
    out.append(_el("polygon", points=star, fill="#ffffff", stroke=_INK))
    out.append(_text(x0 + 148, y, "centre", 10, **small))
    y += 18
    out.append(_text(x0 + 10, y, "links:", 10, **small))
    links = (
        ("army", _LINK_ARMY, ""),
        ("fleet", _LINK_FLEET, _FLEET_DASH),
        ("both", _LINK_BOTH, ""),
    )
    for i, (name, colour, dash) in enumerate(links):
        lx = x0 + 42 + i * 52
        extra: dict[str, str | float] = {"stroke_dasharray": dash} if dash else {}
        out.append(_line((lx, y - 4), (lx + 18, y - 4), stroke=colour, stroke_width=2.2, **extra))
        out.append(_text(lx + 22, y, name, 10, **small))
    y += 18
    out.append(_arrow((x0 + 10, y - 4), (x0 + 34, y - 4), "#888888", start_gap=0, end_gap=0))
    out.append(_text(x0 + 37, y, "move", 10, **small))
    out.append(_thin((x0 + 70, y - 4), (x0 + 88, y - 4), "#888888", _SUPPORT_DASH))
    out.append(_text(x0 + 91, y, "support", 10, **small))
    out.append(_thin((x0 + 138, y - 4), (x0 + 152, y - 4), "#888888", _CONVOY_DASH, 2.6))
    out.append(_text(x0 + 155, y, "convoy", 10, **small))
    y += 18
    pen = "#888888"
    failed = _arrow((x0 + 8, y - 4), (x0 + 38, y - 4), pen, start_gap=0, end_gap=0, failed=True)
    out.append(failed)
    out.append(_text(x0 + 41, y, "bounced", 10, **small))
    out.append(_ring((x0 + 96, y - 4), 6.0, pen))
    out.append(_text(x0 + 105, y, "hold", 10, **small))
    retreat = _arrow((x0 + 132, y - 4), (x0 + 154, y - 4), pen, start_gap=0, end_gap=0, dash="4 3")
    out.append(retreat)
    out.append(_text(x0 + 157, y, "retreat", 10, **small))
    y += 18
    out.append(_ring((x0 + 18, y - 4), 7.0, pen, dash="3 2"))
    out.append(_el("g", _unit_shape(UnitType.ARMY, x0 + 18, y - 4, pen, 0.55), opacity=0.75))
    out.append(_text(x0 + 30, y, "build", 10, **small))
    ring = _el(
        "circle",
        cx=x0 + 74,
        cy=y - 4,
        r=7.0,
        fill="#ffffff",
        stroke=_DISLODGED_RING,
        stroke_width=1.8,
        stroke_dasharray="3 2",
    )
    out.append(ring + _unit_shape(UnitType.ARMY, x0 + 74, y - 4, "#bbbbbb", 0.55))
    out.append(_text(x0 + 86, y, "dislodged unit", 10, **small))
    out.append("</g>")
    return out


# --- public API ---------------------------------------------------------------


def render_svg(
    board: Board,
    game_map: GameMap,
    layout: MapLayout | None = None,
    *,
    orders: Sequence[Order] | None = None,
    title: str | None = None,
    outcomes: Mapping[str, str] | None = None,
    subtitle: str | None = None,
) -> str:
    """The board as a standalone SVG document; equal inputs give byte-identical output.

    ``layout`` defaults to the map's hand-made layout (a grid if it has none).
    ``orders`` are drawn in the given order; ``outcomes`` (order text → adjudicator
    status) marks the ones that failed. ``title`` replaces the phase name as the heading
    (the phase then becomes the subheading, unless ``subtitle`` is given).
    """
    lay = layout if layout is not None else layout_for(game_map)
    missing = lay.missing(game_map)
    if missing:
        raise LayoutError(f"layout does not place: {', '.join(missing)}")
    ctx = _Ctx(board, game_map, lay, dict(outcomes or {}))
    heading = title or board.phase.long_name
    provinces, labels = _provinces(ctx)
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{lay.width}" height="{lay.height}" '
        f'viewBox="0 0 {lay.width} {lay.height}" class="diplomacy-board" '
        f'data-phase="{_esc(board.phase_name)}" '
        'font-family="DejaVu Sans, Helvetica, Arial, sans-serif">',
        _title(heading),
        _defs(ctx),
        _el("rect", width=lay.width, height=lay.height, fill=_BACKGROUND),
        *_links(ctx),
        *provinces,
        '<g class="units">',
        *(_unit_svg(ctx, u) for u in board.units),
        "</g>",
        '<g class="dislodged-units">',
        *(_dislodged_svg(ctx, d.unit, d.attacker_from) for d in board.dislodged),
        "</g>",
    ]
    if orders:
        parts += ['<g class="orders">', *filter(None, (_order_svg(ctx, o) for o in orders)), "</g>"]
    parts += labels
    parts += _heading(ctx, title, subtitle)
    parts += _legend(ctx)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _svg_to_png(svg: str, scale: float = 1.0) -> bytes:
    import cairosvg  # lazily: only PNG output needs cairo

    data = cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
    if not isinstance(data, bytes):  # pragma: no cover - cairosvg's contract
        raise TypeError("cairosvg returned no PNG bytes")
    return data


class Drawing(TypedDict, total=False):
    """What :func:`render_svg` draws besides the board, as ``render_png`` and
    ``render_phase_files`` pass it on."""

    orders: Sequence[Order] | None
    title: str | None
    outcomes: Mapping[str, str] | None
    subtitle: str | None


def render_png(
    board: Board,
    game_map: GameMap,
    layout: MapLayout | None = None,
    *,
    scale: float = 1.0,
    **drawing: Unpack[Drawing],
) -> bytes:
    """:func:`render_svg` rasterised by cairosvg; ``scale`` multiplies the pixel size."""
    return _svg_to_png(render_svg(board, game_map, layout, **drawing), scale)


def render_phase_files(
    board: Board,
    game_map: GameMap,
    out_dir: str | Path,
    stem: str,
    *,
    layout: MapLayout | None = None,
    **drawing: Unpack[Drawing],
) -> tuple[Path, Path]:
    """Write ``<stem>.svg`` and ``<stem>.png`` into ``out_dir``; returns (svg, png) paths."""
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    svg_path, png_path = folder / f"{stem}.svg", folder / f"{stem}.png"
    svg = render_svg(board, game_map, layout, **drawing)
    svg_path.write_text(svg, encoding="utf-8")
    png_path.write_bytes(_svg_to_png(svg))
    return svg_path, png_path

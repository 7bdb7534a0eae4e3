"""Tests for the Diplomacy board renderer (schematic SVG/PNG)."""

from __future__ import annotations

import dataclasses
import struct
import xml.etree.ElementTree as ET
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest
import yaml

from parlour.games.diplomacy.board import Board, DislodgedUnit, Unit, initial_board, make_board
from parlour.games.diplomacy.map import GameMap, Location, UnitType, standard_map
from parlour.games.diplomacy.orders import Order, parse_order
from parlour.games.diplomacy.render import (
    POWER_COLOURS,
    LayoutError,
    MapLayout,
    layout_for,
    load_layout,
    render_phase_files,
    render_png,
    render_svg,
)

SVG_NS = "{http://www.w3.org/2000/svg}"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def gm() -> GameMap:
    return standard_map()


@pytest.fixture(scope="module")
def start(gm: GameMap) -> Board:
    return initial_board(gm)


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def _with_class(root: ET.Element, *tokens: str) -> list[ET.Element]:
    """Elements whose class attribute contains all of ``tokens``."""
    want = set(tokens)
    return [el for el in root.iter() if want <= set(el.get("class", "").split())]


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == PNG_SIGNATURE
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def _mid_game(gm: GameMap) -> Board:
    return make_board(
        gm,
        "F1902M",
        {
            "ENGLAND": ["F NTH", "F NWG", "A YOR"],
            "FRANCE": ["A BUR", "F MAO", "A PAR"],
            "GERMANY": ["A RUH", "A MUN"],
            "RUSSIA": ["F STP/SC", "A SWE", "F BOT"],
            "TURKEY": ["A ARM", "F AEG"],
        },
        {"ENGLAND": ["LON", "NWY"], "FRANCE": ["PAR", "SPA"], "GERMANY": ["MUN"]},
    )


# --- layout ---------------------------------------------------------------


def test_every_province_and_coast_has_a_layout_entry(gm: GameMap) -> None:
    raw = yaml.safe_load(
        (resources.files("parlour.games.diplomacy") / "data" / "standard.yaml").read_text("utf-8")
    )
    layout = load_layout("standard")
    assert set(raw["provinces"]) == set(layout.provinces)
    assert layout.missing(gm) == []
    for abbrev, prov in gm.provinces.items():
        pl = layout.provinces[abbrev]
        assert 0 < pl.x < layout.width and 0 < pl.y < layout.height, abbrev
        assert set(pl.coasts) == set(prov.coasts), abbrev


def test_layout_nodes_do_not_overlap() -> None:
    layout = load_layout("standard")
    nodes = list(layout.provinces.items())
    for i, (a, pa) in enumerate(nodes):
        for b, pb in nodes[i + 1 :]:
            assert (pa.x - pb.x) ** 2 + (pa.y - pb.y) ** 2 >= 45**2, (a, b)


def test_no_link_runs_through_a_third_node(gm: GameMap) -> None:
    lay = load_layout("standard")
    pairs = {(p, q) for p, adj in gm.province_neighbours.items() for q in adj if p < q}
    for p, q in sorted(pairs):
        (ax, ay), (bx, by) = lay.node(p), lay.node(q)
        dx, dy = bx - ax, by - ay
        for r in gm.provinces:
            if r in (p, q):
                continue
            cx, cy = lay.node(r)
            t = max(0.0, min(1.0, ((cx - ax) * dx + (cy - ay) * dy) / (dx * dx + dy * dy)))
            dist = ((ax + t * dx - cx) ** 2 + (ay + t * dy - cy) ** 2) ** 0.5
            radius = 19 if gm.is_sea(r) else 15  # node radii in render.py
            assert dist > radius + 2, f"link {p}-{q} crosses {r}"


def test_layout_roughly_follows_geography() -> None:
    lay = load_layout("standard")

    def x(p: str) -> float:
        return lay.provinces[p].x

    def y(p: str) -> float:
        return lay.provinces[p].y

    assert x("LON") < x("NTH") < x("DEN") < x("BAL") < x("MOS")
    assert x("NAO") < x("IRI") < x("ENG") < x("PIC")
    assert y("NWY") < y("DEN") < y("KIE") < y("MUN") < y("VEN") < y("ROM") < y("NAP")
    assert x("VIE") < x("CON") and y("VIE") < y("CON")  # Constantinople is south-east
    assert x("POR") < x("SPA") < x("MAR") and y("PAR") < y("MAR")
    assert y("NAF") > y("SPA") and y("TUN") > y("ROM")


def test_missing_layout_entries_are_an_error(gm: GameMap, start: Board) -> None:
    full = load_layout("standard")
    partial = MapLayout(
        full.width,
        full.height,
        {k: v for k, v in full.provinces.items() if k != "PAR"},
    )
    with pytest.raises(LayoutError, match="PAR"):
        render_svg(start, gm, partial)


def test_map_without_layout_falls_back_to_a_grid(gm: GameMap) -> None:
    other = dataclasses.replace(gm, name="no-such-layout")
    layout = layout_for(other)
    assert layout.missing(other) == []
    svg = render_svg(initial_board(other), other)
    assert len(_with_class(_parse(svg), "unit")) == len(other.starting_units)


# --- SVG content ----------------------------------------------------------


def test_svg_is_well_formed_with_one_marker_per_unit(gm: GameMap, start: Board) -> None:
    root = _parse(render_svg(start, gm))
    assert root.tag == f"{SVG_NS}svg"
    assert (root.get("width"), root.get("height")) == ("1000", "800")
    markers = _with_class(root, "unit")
    assert len(markers) == len(start.units) == 22
    drawn = Counter(tuple(m.get("class", "").split()[1:]) for m in markers)
    expected = Counter(
        ("army" if u.type is UnitType.ARMY else "fleet", u.power.lower()) for u in start.units
    )
    assert drawn == expected
    assert len(_with_class(root, "unit", "army", "england")) == 1
    assert len(_with_class(root, "unit", "fleet", "england")) == 2
    assert len(_with_class(root, "unit", "fleet", "russia")) == 2
    assert _with_class(root, "dislodged") == []
    assert _with_class(root, "order") == []


def test_every_province_is_drawn_with_stars_on_centres(gm: GameMap, start: Board) -> None:
    root = _parse(render_svg(start, gm))
    assert len(_with_class(root, "province")) == len(gm.provinces)
    assert len(_with_class(root, "province", "sea")) == sum(gm.is_sea(p) for p in gm.provinces)
    assert len(_with_class(root, "centre-star")) == len(gm.supply_centres) == 34
    assert len(_with_class(root, "coast-marker")) == 6  # SPA, STP, BUL: two coasts each
    kinds = Counter(el.get("class") for el in _with_class(root, "link"))
    assert kinds["link army"] and kinds["link fleet"] and kinds["link both"]


def test_title_shows_phase_and_legend_counts_centres(gm: GameMap, start: Board) -> None:
    svg = render_svg(start, gm)
    assert "Spring 1901 Movement" in svg
    root = _parse(svg)
    rows = {el.get("class"): el.get("data-centres") for el in _with_class(root, "legend-row")}
    assert rows["legend-row russia"] == "4"
    assert rows["legend-row england"] == "3"
    assert len(rows) == 7


def test_title_text_is_escaped(gm: GameMap, start: Board) -> None:
    svg = render_svg(start, gm, title='Game <7> & "friends"')
    root = _parse(svg)
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG_NS}text")]
    assert 'Game <7> & "friends"' in texts
    assert "Spring 1901 Movement" in texts  # the phase moves to the subheading


def test_centre_ownership_colouring_follows_the_board(gm: GameMap, start: Board) -> None:
    def owner_of(svg: str, prov: str) -> tuple[str | None, str | None]:
        root = _parse(svg)
        for g in _with_class(root, "province"):
            title = g.find(f"{SVG_NS}title")
            if title is not None and f"({prov})" in (title.text or ""):
                owner = [c for c in g.get("class", "").split() if c.startswith("owner-")]
                circle = g.find(f"{SVG_NS}circle")
                assert circle is not None
                return (owner[0] if owner else None), circle.get("stroke")
        raise AssertionError(prov)

    before = render_svg(start, gm)
    assert owner_of(before, "PAR") == ("owner-france", POWER_COLOURS["FRANCE"])
    assert owner_of(before, "BEL")[0] is None
    centres = {p: list(start.centres_of(p)) for p in gm.powers}
    centres["FRANCE"].remove("PAR")
    centres["GERMANY"] += ["PAR", "BEL"]
    units = {p: [str(u) for u in start.units_of(p)] for p in gm.powers}
    moved = make_board(gm, "W1901A", units, centres)
    after = render_svg(moved, gm)
    assert after != before
    assert owner_of(after, "PAR") == ("owner-germany", POWER_COLOURS["GERMANY"])
    assert owner_of(after, "BEL") == ("owner-germany", POWER_COLOURS["GERMANY"])
    rows = {
        el.get("class"): el.get("data-centres") for el in _with_class(_parse(after), "legend-row")
    }
    assert rows["legend-row germany"] == "5"
    assert rows["legend-row france"] == "2"


def test_dislodged_units_are_drawn_apart(gm: GameMap) -> None:
    base = make_board(gm, "S1902R", {"ITALY": ["A TRI"], "RUSSIA": ["F BUL/EC"]}, {})
    board = Board(
        game_map=gm,
        phase=base.phase,
        units=base.units,
        centres={},
        dislodged=(
            DislodgedUnit(Unit("AUSTRIA", UnitType.ARMY, Location("TRI")), "TYR", False, ()),
            DislodgedUnit(Unit("TURKEY", UnitType.FLEET, Location("BUL", "EC")), "RUM", False, ()),
        ),
    )
    root = _parse(render_svg(board, gm))
    assert len(_with_class(root, "unit")) == 2
    assert len(_with_class(root, "dislodged")) == 2
    assert len(_with_class(root, "dislodged", "army", "austria")) == 1
    (fleet,) = _with_class(root, "dislodged", "fleet", "turkey")
    path = fleet.find(f"{SVG_NS}path")
    assert path is not None and path.get("fill") == "url(#hatch-turkey)"


def test_orders_are_drawn(gm: GameMap) -> None:
    board = _mid_game(gm)
    texts = [
        "F NTH - NWY",
        "F NWG S F NTH - NWY",
        "A YOR H",
        "A BUR - BEL",
        "A PAR S A BUR - BEL",
        "A MUN S A RUH",
        "F MAO - SPA/NC",
        "F BOT C A SWE - LVN",
        "A SWE - LVN",
        "F AEG C A ARM - GRE",
        "A ARM - GRE VIA",
        "WAIVE",
        "A XYZ - PAR",  # unknown province: skipped, not an error
    ]
    orders: list[Order] = [parse_order(t) for t in texts]
    root = _parse(render_svg(board, gm, orders=orders))
    moves = _with_class(root, "order", "move")
    assert len(moves) == 5
    for move in moves:
        assert move.find(f"{SVG_NS}polygon") is not None  # the arrowhead
    assert len(_with_class(root, "order", "move", "via-convoy")) == 1
    assert len(_with_class(root, "order", "move", "england")) == 1
    assert len(_with_class(root, "order", "support")) == 3
    assert len(_with_class(root, "order", "hold", "england")) == 1
    assert len(_with_class(root, "order", "convoy")) == 2
    assert len(_with_class(root, "order")) == 11
    titles = {"".join(t.itertext()) for g in _with_class(root, "order") for t in g}
    assert "F MAO - SPA/NC" in titles


def test_retreat_build_and_disband_orders(gm: GameMap) -> None:
    board = make_board(gm, "W1901A", {"RUSSIA": ["A SWE", "A WAR"]}, {"RUSSIA": ["STP", "MOS"]})
    orders = [parse_order(t) for t in ("A SWE D", "F STP/NC B", "A MOS B")]
    root = _parse(render_svg(board, gm, orders=orders))
    assert len(_with_class(root, "order", "disband", "russia")) == 1
    assert len(_with_class(root, "order", "build", "russia")) == 2
    retreat = Board(
        game_map=gm,
        phase=board.phase,
        units=(),
        centres={},
        dislodged=(
            DislodgedUnit(Unit("FRANCE", UnitType.ARMY, Location("BUR")), "MUN", False, ()),
        ),
    )
    root = _parse(render_svg(retreat, gm, orders=[parse_order("A BUR R PAR")]))
    assert len(_with_class(root, "order", "retreat", "france")) == 1


# --- determinism, PNG, files ------------------------------------------------


def test_output_is_deterministic(gm: GameMap) -> None:
    board = _mid_game(gm)
    orders = [parse_order(t) for t in ("F NTH - NWY", "A BUR - BEL", "A PAR S A BUR - BEL")]
    first = render_svg(board, gm, orders=orders)
    assert render_svg(board, gm, orders=orders) == first
    # Same position built from data in another order: same bytes.
    data = board.to_dict()
    data["units"] = dict(reversed(list(data["units"].items())))
    again = Board.from_dict(data, gm)
    assert render_svg(again, gm, orders=orders) == first


def test_png_has_signature_and_canvas_size(gm: GameMap, start: Board) -> None:
    assert _png_size(render_png(start, gm)) == (1000, 800)
    assert _png_size(render_png(start, gm, scale=0.5)) == (500, 400)


def test_render_phase_files_writes_svg_and_png(gm: GameMap, tmp_path: Path) -> None:
    board = _mid_game(gm)
    orders = [parse_order("A BUR - BEL")]
    svg_path, png_path = render_phase_files(board, gm, tmp_path / "out", "F1902M", orders=orders)
    assert svg_path == tmp_path / "out" / "F1902M.svg"
    assert png_path == tmp_path / "out" / "F1902M.png"
    assert svg_path.read_text("utf-8") == render_svg(board, gm, orders=orders)
    assert _png_size(png_path.read_bytes()) == (1000, 800)


# --- outcomes, labels, legend, final title ------------------------------------


def test_a_bounced_move_is_drawn_unlike_a_successful_one(gm: GameMap, start: Board) -> None:
    orders = [parse_order(t) for t in ("A PAR - BUR", "A MUN - BUR", "F KIE - DEN")]
    outcomes = {"A PAR - BUR": "failed", "A MUN - BUR": "failed", "F KIE - DEN": "succeeded"}
    root = _parse(render_svg(start, gm, orders=orders, outcomes=outcomes))
    bounced = _with_class(root, "order", "move", "failed")
    assert len(bounced) == 2
    done = _with_class(root, "order", "move", "succeeded")
    assert len(done) == 1
    for move in bounced:
        shafts = [el for el in move.iter(f"{SVG_NS}line") if el.get("stroke-dasharray")]
        assert shafts, "a bounced move has a dashed shaft"
        head = move.find(f"{SVG_NS}polygon")
        assert head is not None and head.get("fill") == "#ffffff"  # hollow head
        assert len(list(move.iter(f"{SVG_NS}line"))) == 4  # shaft ×2 + bounce bar ×2
        assert "(failed)" in "".join(move.itertext())
    shaft = [el for el in done[0].iter(f"{SVG_NS}line")]
    assert len(shaft) == 2 and not any(el.get("stroke-dasharray") for el in shaft)
    # Without outcomes (orders not yet adjudicated) nothing is marked failed.
    plain = _parse(render_svg(start, gm, orders=orders))
    assert not _with_class(plain, "order", "failed")


def test_province_labels_are_drawn_over_the_orders(gm: GameMap, start: Board) -> None:
    orders = [parse_order("F LON - NTH"), parse_order("A YOR - LON")]
    svg = render_svg(start, gm, orders=orders)
    root = _parse(svg)
    kids = [el.get("class", "") for el in root]
    assert kids.index("labels") > kids.index("orders")
    labels = next(el for el in root if el.get("class") == "labels")
    assert "LON" in {"".join(t.itertext()) for t in labels}


def test_the_legend_explains_every_mark(gm: GameMap, start: Board) -> None:
    root = _parse(render_svg(start, gm))
    legend = next(el for el in root if el.get("class") == "legend")
    words = " ".join("".join(t.itertext()) for t in legend.iter(f"{SVG_NS}text"))
    for word in ("move", "support", "convoy", "bounced", "hold", "retreat", "build"):
        assert word in words
    assert "dislodged unit" in words
    box = legend.find(f"{SVG_NS}rect")
    assert box is not None
    assert float(box.get("y", 0)) + float(box.get("height", 0)) <= 800  # on the canvas


def test_a_subtitle_replaces_the_phase_line(gm: GameMap, start: Board) -> None:
    svg = render_svg(start, gm, title="Final position", subtitle="After Winter 1910 Adjustments")
    texts = ["".join(t.itertext()) for t in _parse(svg).iter(f"{SVG_NS}text")]
    assert "Final position" in texts and "After Winter 1910 Adjustments" in texts
    assert "Spring 1901 Movement" not in texts


def test_clickable_parts_name_their_province_and_unit(gm: GameMap, start: Board) -> None:
    """The web room's order picker reads these attributes; PNG output ignores them."""
    root = _parse(render_svg(start, gm))
    provinces = _with_class(root, "province")
    assert sorted(el.get("data-province") or "" for el in provinces) == sorted(gm.provinces)
    units = {el.get("data-unit"): el.get("data-province") for el in _with_class(root, "unit")}
    assert units == {u.text: u.province for u in start.units}
    assert units["F STP/SC"] == "STP"
    coasts = {
        (el.get("data-province"), el.get("data-coast")) for el in _with_class(root, "coast-marker")
    }
    assert coasts == {
        ("SPA", "NC"),
        ("SPA", "SC"),
        ("STP", "NC"),
        ("STP", "SC"),
        ("BUL", "EC"),
        ("BUL", "SC"),
    }
    labels = next(el for el in root if el.get("class") == "labels")
    named = {t.get("data-province") for t in labels.iter(f"{SVG_NS}text")}
    assert named == set(gm.provinces)

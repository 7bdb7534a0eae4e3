"""Graph drawings: every format shows every action and need, colours progress, and never
shows a consequence or an answer."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from parlour.games.escape import load_scenario
from parlour.games.escape.graph import FORMATS, render
from parlour.games.escape.graph_style import STYLES, status_of
from parlour.games.escape.svg import layers

from .helpers import SHIPPED, scenario_from


@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_shows_ids_and_no_secrets(name: str, fmt: str) -> None:
    scenario = load_scenario(name)
    text = render(scenario, fmt)
    for act in scenario.actions:
        assert act.id in text
        assert act.consequence[:40] not in text
        if act.answer:
            assert act.answer not in text
    if fmt == "svg":
        root = ET.fromstring(text)
        assert root.tag.endswith("svg")
        assert len(root.findall(".//{http://www.w3.org/2000/svg}rect")) > len(scenario.actions)
        edges = sum(len(a.needs) for a in scenario.actions)
        assert len(root.findall(".//{http://www.w3.org/2000/svg}path")) == edges + 1  # + arrow


def test_progress_colouring() -> None:
    scenario = load_scenario("ghost_room")
    status = status_of(scenario, {"open_drawer"})
    assert status["open_drawer"] == "done"
    assert status["unlock_cabinet"] == "available"
    assert status["light_lantern"] == "locked"
    assert status["press_green"] == "available"
    mermaid = render(scenario, "mermaid", {"open_drawer"})
    assert "class a5 done" in mermaid
    dot = render(scenario, "dot", {"open_drawer"})
    assert (
        f'"open_drawer" [label="open_drawer\\nopen the drawer of the writing desk", '
        f'fillcolor="{STYLES["done"].fill}"' in dot
    )
    svg = render(scenario, "svg", {"open_drawer"})
    assert STYLES["available"].fill in svg and "available now" in svg


@pytest.mark.parametrize("fmt", FORMATS)
def test_after_the_game_is_over_nothing_is_available_now(fmt: str) -> None:
    scenario = load_scenario("ghost_room")
    done = {"open_drawer", "press_red"}
    status = status_of(scenario, done, finished=True)
    assert set(status.values()) == {"done", "unreached"}
    assert status["press_red"] == "done" and status["unlock_cabinet"] == "unreached"
    text = render(scenario, fmt, done, finished=True)
    assert STYLES["available"].fill not in text and "available now" not in text
    assert STYLES["unreached"].fill in text
    if fmt == "svg":
        assert "not reached (game over)" in text
    running = render(scenario, fmt, done, finished=False)
    assert STYLES["available"].fill in running


def test_layers_follow_needs_and_long_edges_get_waypoints() -> None:
    rows, routes = layers(load_scenario("ghost_room"))
    depth = {node: n for n, row in enumerate(rows) for node in row if not node.startswith("~")}
    assert depth["force_grate"] == depth["climb_down"] + 1 == depth["light_lantern"] + 2
    assert len(routes[("open_trapdoor", "climb_down")]) == depth["climb_down"] - 1


def test_broken_graphs_still_draw() -> None:
    broken = scenario_from(
        """
        title: Broken "quotes" & <tags>
        intro: I
        actions:
          - {id: a, description: "say \\"hi\\"", consequence: c, needs: [b]}
          - {id: b, description: d, consequence: c, needs: [a]}
          - {id: c, description: e, consequence: c, needs: [ghost]}
        """
    )
    for fmt in FORMATS:
        text = render(broken, fmt)
        assert "ghost" in text
    ET.fromstring(render(broken, "svg"))
    with pytest.raises(ValueError, match="mermaid, dot, svg"):
        render(broken, "png")

"""The board order picker on a retreat, in a real browser without a server.

A retreat phase is hard to reach through a whole game, so this page is put together
from the real parts: the board SVG the game renders (a dislodged English army in
Yorkshire, a German army in its place), the decision form the room renders from
England's real retreat decision, and the real ``parlour.js``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from parlour.games.diplomacy.board import DislodgedUnit, Unit, make_board
from parlour.games.diplomacy.decisions import phase_decisions
from parlour.games.diplomacy.map import Location, UnitType, standard_map
from parlour.games.diplomacy.render import render_svg
from parlour.render.pictures import inline as _inline
from parlour.web.app import templates
from parlour.web.forms import structured_fields
from tests.web.browser import chromium_or_skip, launch

JS = Path(__file__).resolve().parents[2] / "src" / "parlour" / "web" / "static" / "parlour.js"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launch(chromium_or_skip()) as b:
        yield b


def _retreat_page() -> str:
    gm = standard_map()
    base = make_board(gm, "S1901R", {"GERMANY": ["A YOR"], "ENGLAND": ["F LON"]}, {})
    board = dataclasses.replace(
        base,
        dislodged=(
            DislodgedUnit(
                Unit("ENGLAND", UnitType.ARMY, Location("YOR")),
                "WAL",
                False,
                (Location("EDI"), Location("LVP")),
            ),
        ),
    )
    (decision,) = [d for d in phase_decisions(board) if d.seat == "ENGLAND"]
    form = templates.get_template("_decision.html").render(
        open=SimpleNamespace(decision=decision, refusal="", deadline_at=None),
        fields=structured_fields(decision),
        token="t",
        waiting=0,
        error="",
        game_id="g",
        status="running",
    )
    svg = _inline(render_svg(board, gm))
    return (
        f'<!doctype html><html><body><div class="room">{form}'
        f'<p id="board-note"></p><div id="board"><figure>{svg}</figure></div></div>'
        "</body></html>"
    )


def test_a_retreat_is_picked_on_the_board(browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 1000})
    page.set_content(_retreat_page())
    page.add_script_tag(path=str(JS))
    select = page.locator("select[name='f.A YOR']")
    assert select.input_value() == "A YOR D"  # a dislodged unit disbands by default
    # Ours is the dislodged army, not the German one now standing in Yorkshire.
    mine = page.locator("#board .mine")
    assert mine.count() == 1 and "dislodged" in str(mine.get_attribute("class"))
    mine.click()
    assert page.locator("#board .dislodged.picked").count() == 1
    page.locator("#board g.province[data-province='CLY']").click()  # not a retreat
    assert "no legal order" in page.locator("#board-note").inner_text()
    assert select.input_value() == "A YOR D"
    page.locator("#board g.province[data-province='EDI']").click()
    assert select.input_value() == "A YOR R EDI"
    # The retreat is drawn from the dislodged marker, dashed, with a head.
    line = page.locator("#board g.picks line")
    assert line.count() == 1 and line.get_attribute("stroke-dasharray") == "7 4"
    mine.click()
    mine.click()  # the unit itself again: for a dislodged unit, disband
    assert select.input_value() == "A YOR D"

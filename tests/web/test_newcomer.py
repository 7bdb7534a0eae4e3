"""Issue 35 in a real browser: what a newcomer met in the rooms, the lobby and the
sidebars (Playwright driving Debian's Chromium, headless; see tests/web/browser.py).

- missing's chat: Enter sends, Shift+Enter is a new line, and a person who is typing
  is not timed out of their turn (the page holds the deadline while they type); a
  refused answer shows the engine's reason and keeps what was typed;
- the lobby's table: the first player seat is the person's, the rest scripts, and the
  model spec box shows only for a model seat;
- werewolf's sidebar in words (no raw ids, no "is person"), the dead marked in the
  players list of the room and of the spectator page, the spectator's level said once,
  the admin page after the end, the favicon;
- the Diplomacy board: a line drawn over a province does not take its click.
"""

from __future__ import annotations

import re
import time
from typing import Any

from tests.web.browser import (
    LiveServer,
    Seen,
    create_game,
    first_other,
    play,
    wait_until,
)


def _open_form(page: Any) -> Any:
    page.wait_for_selector("#decision form.decision", timeout=60_000)
    return page.locator("#decision form.decision")


def test_missing_chat_enter_sends_and_typing_holds_the_deadline(
    server: LiveServer, browser: Any
) -> None:
    # person_wait=3: each chat round waits 3 s for the person, then goes on without them.
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    links = create_game(
        page, server.base, "missing", options="person_wait=3\nminutes=5", people=("p1",)
    )
    (room,) = links.seats.values()
    page.goto(server.base + room)
    # The setup questions first (a character, relationship prompts); then the chat.
    refused = ""
    for _ in range(20):
        form = _open_form(page)
        if form.locator(".countdown").count():
            break
        decision = form.locator("input[name=decision_id]").get_attribute("value")
        if form.locator("textarea").count():  # setup answers start with "You"
            if not refused:  # a refused answer shows the engine's reason in the box
                form.locator("textarea").fill("hello there")
                form.locator("textarea").press("Enter")
                page.wait_for_selector("#decision .error", timeout=15_000)
                refused = page.locator("#decision .error").inner_text()
                form = page.locator("#decision form.decision")
                assert form.locator("textarea").input_value() == "hello there"
            form.locator("textarea").fill("You kept her secret for years, as she asked.")
            form.locator("button[type=submit]").click()
        else:
            first_other(form, Seen())
        wait_until(
            page,
            "id => { const f = document.querySelector('#decision input[name=decision_id]');"
            " return !f || f.value !== id; }",
            arg=decision,
        )
    else:
        raise AssertionError("no chat round with a countdown reached the person")
    assert "you" in refused, refused
    form = page.locator("#decision form.decision")
    assert "waits while you type" in form.locator(".countdown").inner_text()
    assert "Enter sends" in form.inner_text()
    decision = str(form.locator("input[name=decision_id]").get_attribute("value"))
    box = form.locator("textarea[name=text]")
    box.click()
    # Shift+Enter is a new line and sends nothing.
    box.type("first line")
    box.press("Shift+Enter")
    assert box.input_value() == "first line\n"
    # Type on for 8 s, well past the 3-second deadline: the question stays open.
    started = time.monotonic()
    words = iter(("then", "I", "walked", "to", "the", "harbour", "and", "waited by the boats"))
    while time.monotonic() - started < 8:
        box.type(next(words, "more") + " ", delay=60)
        time.sleep(0.4)
    still = page.evaluate("() => document.querySelector('#decision input[name=decision_id]').value")
    assert still == decision, "the person was timed out of their turn while typing"
    left = page.locator("#decision .countdown span").inner_text()
    assert left.endswith(" s") and int(left.split()[0]) > 0, left
    # Enter sends (no Send click): the line reaches the log, the question closes.
    box.press("Enter")
    wait_until(
        page,
        "() => [...document.querySelectorAll('#log li .text')]"
        ".some(t => t.textContent.includes('waited by the boats'))",
    )
    wait_until(
        page,
        "id => { const f = document.querySelector('#decision input[name=decision_id]');"
        " return !f || f.value !== id; }",
        arg=decision,
    )
    # A line break splits the answer into texts, each a message of its own, in order (a
    # story card may fire between them).
    lines = page.locator("#log li .text").all_inner_texts()
    first = next(i for i, t in enumerate(lines) if "first line" in t)
    assert any("waited by the boats" in t for t in lines[first + 1 :]), lines[first:]
    admin = browser.new_page()
    admin.goto(server.base + links.admin)
    admin.click("text=End the game")  # the rest of the game is not this test's
    admin.close()


def test_lobby_seats_default_to_one_person_and_scripts(server: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(server.base + "/")
    page.select_option("select[name=game]", "escape")
    page.select_option("select[name=scenario]", "ghost_room")
    page.click("#setup button[type=submit]")
    page.wait_for_selector("tr[data-seat]")
    kinds = {
        str(r.get_attribute("data-seat")): r.locator("select.seat-kind").input_value()
        for r in page.locator("tr[data-seat]").all()
    }
    assert kinds == {"player": "person", "classifier": "scripted", "narrator": "scripted"}
    spec = page.locator("input[name='model.narrator']")
    assert not spec.is_visible()  # a script has no model spec to fill
    page.select_option("select[name='seat.narrator']", "model")
    assert spec.is_visible() and spec.get_attribute("placeholder") == "local"
    # The defaults create a game a person can play at once: one join link, the player's.
    page.select_option("select[name='seat.narrator']", "scripted")
    page.click("text=Create game")
    page.wait_for_selector("#admin-link")
    assert [a.get_attribute("data-name") for a in page.locator("a.join-link").all()] == ["Player"]

    page.goto(server.base + "/")
    page.select_option("select[name=game]", "werewolf")
    page.fill("input[name=players]", "6")
    page.click("#setup button[type=submit]")
    page.wait_for_selector("tr[data-seat]")
    chosen = [s.input_value() for s in page.locator("select.seat-kind").all()]
    assert chosen == ["person"] + ["scripted"] * 6  # six players, then the router


def test_werewolf_sidebars_in_words_the_dead_marked_and_the_end_pages(
    server: LiveServer, browser: Any
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    # Seed 3: p1 (Kenji) is a werewolf, so the sidebar lists the pack.
    links = create_game(page, server.base, "werewolf", players=6, seed=3, people=("p1",))
    page.goto(server.base + links.seats["Kenji"])
    assert page.evaluate("() => document.querySelector('link[rel=icon]').href").endswith(
        "/static/favicon.svg"
    )
    assert page.evaluate("async () => (await fetch('/favicon.ico')).status") == 200
    facts = page.locator("#facts .private")
    terms = [t.inner_text() for t in facts.locator("dt").all()]
    assert "role" in terms and "team" in terms
    assert not {"id", "name", "alive", "is person"} & set(terms), terms
    text = facts.inner_text()
    assert "id:" not in text and "p1" not in text and "Plays as a" in text, text

    seen = play(page, first_other, limit=180)
    assert seen.kinds
    summary = page.locator("#decision .over .summary").inner_text()
    assert re.search(r"\bwins?\b", summary)  # the result: "The village wins" / "… win"
    page.wait_for_timeout(1000)  # the sidebar's last refresh
    dead = page.locator("#facts .players li.dead")
    assert all("dead" in d.inner_text() for d in dead.all())
    out = dead.count()
    assert out >= 1

    page.goto(f"{server.base}/watch/{links.game}")
    showing = page.locator("p.showing").inner_text()
    assert showing.startswith("Showing: everything, secrets too"), showing
    assert showing.count("everything") == 1 and "public · public" not in showing
    assert page.locator(".players li.dead").count() == out

    page.goto(server.base + links.admin)
    assert page.locator("#over").count() == 1
    for command in ("Pause", "Resume", "End the game"):
        assert page.locator(f"button:has-text('{command}')").count() == 0
    assert "spectators see everything" in page.locator("main").inner_text()


def test_a_line_over_a_province_does_not_take_its_click(server: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    links = create_game(page, server.base, "diplomacy", people=("FRANCE",))
    page.goto(server.base + links.seats["France"])
    page.wait_for_selector("#board svg [data-province='SPA']")
    # An order's arrow drawn across Spain, as the renderer draws the orders of a phase.
    hit = page.evaluate(
        """() => {
        const svg = document.querySelector('#board svg');
        const node = svg.querySelector(".province[data-province='SPA'] circle");
        const box = node.getBBox();
        const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
        const ns = 'http://www.w3.org/2000/svg';
        const g = document.createElementNS(ns, 'g');
        g.setAttribute('class', 'orders');
        const line = document.createElementNS(ns, 'line');
        for (const [k, v] of [['x1', cx - 60], ['y1', cy], ['x2', cx + 60], ['y2', cy],
                              ['stroke', '#000'], ['stroke-width', 14]]) line.setAttribute(k, v);
        g.appendChild(line);
        svg.appendChild(g);
        node.scrollIntoView({block: 'center', inline: 'center'});
        const r = node.getBoundingClientRect();
        const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        const place = at && at.closest('[data-province]');
        return place ? place.getAttribute('data-province') : (at ? at.tagName : 'nothing');
    }"""
    )
    assert hit == "SPA", hit
    # Every province's node takes its own click, the board as drawn.
    stolen = page.evaluate(
        """() => [...document.querySelectorAll('#board svg .province[data-province] circle')]
        .filter(c => {
            c.scrollIntoView({block: 'center', inline: 'center'});
            const r = c.getBoundingClientRect();
            const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
            return !at || !at.closest('[data-province], [data-unit]');
        }).map(c => c.closest('[data-province]').getAttribute('data-province'))"""
    )
    assert stolen == []
    admin = browser.new_page()
    admin.goto(server.base + links.admin)
    admin.click("text=End the game")
    admin.close()

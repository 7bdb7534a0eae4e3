"""The web app in a real browser (Playwright driving Debian's Chromium, headless).

A person plays through the pages only: clicks and typing, no reloads, so every new
question and every new line must reach the page by the live stream. Screenshots go to
a temporary folder, or to the folder ``PARLOUR_SCREENSHOTS`` names: run with
``PARLOUR_SCREENSHOTS=docs/images`` to refresh the pictures the README and docs/web.md
show (a plain test run must not rewrite tracked files).
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from pathlib import Path
from typing import Any, Protocol

from tests.conftest import CliRunner
from tests.web.browser import (
    LiveServer,
    Seen,
    create_game,
    first_other,
    play,
    wait_until,
)


def _shot(page: Any, name: str) -> Path:
    folder = Path(os.environ.get("PARLOUR_SCREENSHOTS") or Path(tempfile.gettempdir()) / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    page.screenshot(path=str(path), full_page=True)
    return path


def _refresh_decision(page: Any) -> None:
    """Ask for the decision box again, as a stream's tick does, and wait until htmx has
    handled the answer (swapped it in, or kept the box)."""
    page.evaluate(
        "window.__loaded = false; document.body.addEventListener('htmx:afterOnLoad',"
        " () => { window.__loaded = true; }, {once: true});"
        " document.body.dispatchEvent(new Event('refresh-decision'))"
    )
    wait_until(page, "window.__loaded === true", timeout=15_000)


def test_werewolf_person_against_scripts_with_a_live_spectator(
    server: LiveServer, browser: Any
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    # Seed 3: p1 (Kenji) is the werewolf, so the person has a night action too.
    links = create_game(page, server.base, "werewolf", players=6, seed=3, people=("p1",))
    assert list(links.seats) == ["Kenji"]
    page.goto(server.base + links.seats["Kenji"])
    assert "werewolf" in page.locator("#facts").inner_text()

    watcher = browser.new_page(viewport={"width": 1280, "height": 860})
    watcher.goto(f"{server.base}/watch/{links.game}")
    watcher.evaluate("window.__sameDocument = true")  # gone if the page ever reloads
    before = watcher.locator("#log li").count()

    shots: dict[str, bool] = {}

    def answer(form: Any, seen: Seen) -> str:
        purpose = str(form.get_attribute("data-purpose"))
        if purpose == "vote" and "vote" not in shots:
            shots["vote"] = bool(_shot(page, "web-werewolf-vote.png"))
        if "free_text" in str(form.get_attribute("class")):
            box = form.locator("textarea")
            box.fill("<script>alert(1)</script> Priya, who did you check?")
            assert form.locator(".count").inner_text() != "0"  # the live counter
            form.locator("button[type=submit]").click()
            return "chat"
        return first_other(form, seen)

    seen = play(page, answer, limit=180)
    purposes = {p for p, _ in seen.kinds}
    assert {"wolf_kill", "vote"} <= purposes, seen.kinds  # night action and vote
    assert any(k == "free_text" for _, k in seen.kinds), seen.kinds  # chat
    log = page.locator("#log").inner_text()
    assert "<script>alert(1)</script> Priya" in log  # the person's chat, as text
    assert page.locator("#log script").count() == 0
    assert re.search(r"\bwins?\b", log)  # "The village wins" / "The werewolves win"
    _shot(page, "web-werewolf-room.png")

    # The spectator saw the game happen without reloading: new lines, same document.
    wait_until(
        watcher, f"document.querySelectorAll('#log li').length > {before} + 5", timeout=30_000
    )
    watcher.wait_for_selector("#ended:not([hidden])", timeout=30_000)  # told it ended
    assert watcher.evaluate("window.__sameDocument === true")
    assert watcher.locator(".phase-now b").inner_text() == "end"
    assert watcher.locator("#game-status").inner_text() == "finished"  # not "running"
    spectated = watcher.locator("#log").inner_text()
    assert "Priya, who did you check?" in spectated
    assert "Pack proposals" not in spectated  # the wolves' channel stays private
    _shot(watcher, "web-werewolf-spectator.png")
    # After the end the spectator page reveals everything, the wolves' channel too.
    watcher.goto(f"{server.base}/watch/{links.game}?level=everything")
    assert "Pack proposals" in watcher.locator("#log").inner_text()


def test_escape_ghost_room_to_its_ending(server: LiveServer, browser: Any) -> None:
    from parlour.games.escape.loader import load_scenario
    from parlour.games.escape.policies import phrase, solution

    scenario = load_scenario("ghost_room")
    by_id = {a.id: a for a in scenario.actions}
    typed = iter([phrase(by_id[i]) for i in solution(scenario)])
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    links = create_game(page, server.base, "escape", scenario="ghost_room", people=("player",))
    page.goto(server.base + links.seats["Player"])
    first = True

    def answer(form: Any, seen: Seen) -> str:
        nonlocal first
        if first:
            _shot(page, "web-escape-room.png")
            first = False
        text = next(typed)
        form.locator("textarea").fill(text)
        form.locator("button[type=submit]").click()
        return text

    seen = play(page, answer, limit=120)
    assert [p for p, _ in seen.kinds] == ["act"] * len(seen.kinds)
    assert "good ending" in page.locator("#log").inner_text()
    assert page.locator("#decision .over").count() == 1


def test_diplomacy_phase_with_orders_picked(server: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    links = create_game(page, server.base, "diplomacy", people=("ENGLAND",))
    page.goto(server.base + links.seats["England"])
    page.wait_for_selector("#decision form.decision-structured", timeout=60_000)
    assert page.locator("#board svg").count() == 1  # the board as it stands
    form = page.locator("#decision form")
    picks = {  # each unit's select, by the order's label as a person reads it
        "F EDI": "Fleet Edinburgh moves to North Sea",
        "F LON": "Fleet London moves to English Channel",
        "A LVP": "Army Liverpool moves to Yorkshire",
    }
    for unit, order in picks.items():
        form.locator(f"select[name='f.{unit}']").select_option(label=order)
    _shot(page, "web-diplomacy-orders.png")
    decision_id = form.locator("input[name=decision_id]").get_attribute("value")
    form.locator("button[type=submit]").click()
    # Spring resolves; the next question is Fall's, and the log shows our orders' effect.
    _next_question(page, str(decision_id), "Fall")
    assert "Fall 1901" in page.locator("#decision .prompt").inner_text()
    deadline = time.monotonic() + 30
    while "F1901M" not in page.locator("#facts").inner_text():
        assert time.monotonic() < deadline, "the sidebar did not follow the phase"
        time.sleep(0.1)
    units = page.locator("#decision label.unit").all_inner_texts()
    assert any(u.startswith("Fleet North Sea") for u in units), units
    assert any(u.startswith("Army Yorkshire") for u in units), units


class _Click(Protocol):
    def __call__(self, target: str, /) -> None: ...


class _Order(Protocol):
    def __call__(self, of: str, /) -> str: ...


def _england_board(
    server: LiveServer, browser: Any
) -> tuple[Any, Any, Any, _Click, _Click, _Order]:
    """England's seat page of a new Diplomacy game, with helpers that click a unit, click a
    province, and read a unit's selected order."""
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    links = create_game(page, server.base, "diplomacy", people=("ENGLAND",))
    page.goto(server.base + links.seats["England"])
    page.wait_for_selector("#decision form.decision-structured", timeout=60_000)
    form = page.locator("#decision form")

    def unit(text: str) -> None:
        page.locator(f"#board [data-unit='{text}']").click()

    def province(abbrev: str) -> None:
        page.locator(f"#board g.province[data-province='{abbrev}']").click()

    def order(of: str) -> str:
        return str(form.locator(f"select[name='f.{of}']").input_value())

    return page, form, page.locator("#board-note"), unit, province, order


def test_diplomacy_phase_with_orders_clicked_on_the_board(server: LiveServer, browser: Any) -> None:
    """England's Spring 1901 orders, every one picked by clicking the board: a move, a
    hold undone, a support (by way of the switch between support and move), a click
    that matches no legal order (refused inline), then the phase resolves."""
    page, form, note, unit, province, order = _england_board(server, browser)

    assert page.locator("#board-help .legend li").count() >= 4  # the rule, on the page
    mine = page.locator("#board .unit.mine")
    assert sorted(mine.nth(i).get_attribute("data-unit") for i in range(mine.count())) == [
        "A LVP",
        "F EDI",
        "F LON",
    ]
    province("NTH")  # nothing picked yet: said inline, nothing set
    assert "your own units first" in note.inner_text()
    assert order("F EDI") == "F EDI H"

    unit("F EDI")
    assert page.locator("#board .unit.picked").get_attribute("data-unit") == "F EDI"
    province("NTH")
    assert order("F EDI") == "F EDI - NTH"
    assert page.locator("#board .unit.picked").count() == 0

    unit("A LVP")
    province("UKR")  # an army in Liverpool cannot reach Ukraine: refused, nothing changes
    assert "no legal order" in note.inner_text()
    assert "error" in str(note.get_attribute("class"))
    assert order("A LVP") == "A LVP H"
    unit("F EDI")  # our own fleet: support it holding, then the second click confirms
    assert order("A LVP") == "A LVP S F EDI"
    assert page.locator("#board .helped").count() == 1
    unit("F EDI")
    assert order("A LVP") == "A LVP S F EDI"
    unit("F EDI")  # the same place again: switch to the move into Edinburgh
    assert order("A LVP") == "A LVP - EDI"
    unit("A LVP")
    unit("A LVP")  # the unit itself again: hold
    assert order("A LVP") == "A LVP H"
    unit("A LVP")
    province("YOR")
    assert order("A LVP") == "A LVP - YOR"

    unit("F LON")  # support Edinburgh's fleet into the North Sea
    unit("F EDI")
    assert "click where" in note.inner_text().lower()
    unit("F LON")  # changed its mind: the unit itself again holds
    assert order("F LON") == "F LON H"
    unit("F LON")
    page.keyboard.press("Escape")  # let go: nothing picked, nothing changed
    assert page.locator("#board .unit.picked").count() == 0
    assert order("F LON") == "F LON H"
    unit("F LON")
    unit("F EDI")
    province("NTH")
    assert order("F LON") == "F LON S F EDI - NTH"
    assert "Set:" in note.inner_text()
    # A refresh of the same question (as a tick brings when another power answers)
    # keeps the picks: the box on the page stays, its selects say the same.
    page.evaluate("document.querySelector('#decision form').dataset.old = '1'")
    _refresh_decision(page)
    assert page.evaluate("document.querySelector('#decision form').dataset.old") == "1"
    assert [order("F EDI"), order("F LON"), order("A LVP")] == [
        "F EDI - NTH",
        "F LON S F EDI - NTH",
        "A LVP - YOR",
    ]
    # What the lists now say is drawn on the board: two moves, one support.
    picks = page.locator("#board g.picks")
    assert picks.locator("line[marker-end]").count() == 2
    assert picks.locator("line[stroke-dasharray]").count() == 1
    _shot(page, "web-diplomacy-board.png")

    decision_id = form.locator("input[name=decision_id]").get_attribute("value")
    form.locator("button[type=submit]").click()
    _next_question(page, str(decision_id), "Fall")
    assert "Fall 1901" in page.locator("#decision .prompt").inner_text()
    # The orders took effect: the fleet is in the North Sea, the army in Yorkshire, and
    # the supporting fleet stayed in London; the board shows them where they are now.
    units = {
        u.split(" ", 1)[1]
        for u in page.locator("#decision label.unit select").evaluate_all(
            "els => els.map(e => e.name.slice(2))"
        )
    }
    assert units == {"NTH", "YOR", "LON"}, units
    page.wait_for_selector("#board [data-unit='F NTH'].mine", timeout=30_000)
    assert page.locator("#board [data-unit='A YOR']").count() == 1
    log = page.locator("#log").inner_text()
    assert "England F EDI - NTH; F LON S F EDI - NTH; A LVP - YOR" in log  # as given
    moved = next(line for line in log.splitlines() if "Movement resolved" in line)
    assert "F EDI - NTH" in moved and "A LVP - YOR" in moved and "F LON" not in moved


def _next_question(page: Any, decision_id: str, what: str) -> None:
    """Wait until the decision box asks something else than ``decision_id``."""
    try:
        wait_until(
            page,
            "id => { const f = document.querySelector('#decision input[name=decision_id]');"
            " return f && f.value !== id; }",
            arg=decision_id,
            timeout=60_000,
        )
    except Exception as err:
        box, log = page.locator("#decision").inner_html(), page.locator("#log").inner_text()
        raise AssertionError(f"no {what} question after Send:\n{box}\n{log[-1500:]}") from err


def test_diplomacy_convoy_clicked_on_the_board(server: LiveServer, browser: Any) -> None:
    """A convoy by clicks alone: in Fall 1901 the North Sea fleet convoys the Yorkshire
    army to Norway (fleet, army, Norway) and the army moves there by convoy (army,
    Norway); on the way, the army's direct and via-convoy moves to Edinburgh are
    switched by clicking Edinburgh again. After the phase resolves the army is in
    Norway."""
    page, form, note, unit, province, order = _england_board(server, browser)

    # Spring, from the lists: the fleet to sea, the army to the coast it sails from.
    form.locator("select[name='f.F EDI']").select_option("F EDI - NTH")
    form.locator("select[name='f.A LVP']").select_option("A LVP - YOR")
    spring = str(form.locator("input[name=decision_id]").get_attribute("value"))
    form.locator("button[type=submit]").click()
    _next_question(page, spring, "Fall")
    assert "Fall 1901" in page.locator("#decision .prompt").inner_text()
    # The board follows the decision box by its own request: wait until it shows the
    # units where Spring left them before clicking on it.
    page.wait_for_selector("#board [data-unit='F NTH'].mine", timeout=30_000)
    page.wait_for_selector("#board [data-unit='A YOR'].mine", timeout=30_000)

    unit("F NTH")  # Edinburgh fits a support of the army's move there and a convoy: the
    unit("A YOR")  # support first (the likely order: the army can walk there), the same
    province("EDI")  # place again switches to the convoy
    assert order("F NTH") == "F NTH S A YOR - EDI"
    province("EDI")
    assert order("F NTH") == "F NTH C A YOR - EDI"

    unit("F NTH")  # the fleet, then the army it carries, then where the army lands
    unit("A YOR")
    assert order("F NTH") == "F NTH S A YOR"  # our own army: support it holding, and wait
    assert "click where" in note.inner_text().lower()
    province("NWY")
    assert order("F NTH") == "F NTH C A YOR - NWY"
    assert "convoys Army Yorkshire to Norway" in note.inner_text()

    unit("A YOR")  # a coast it could walk to: the direct move first, then via convoy
    province("EDI")
    assert order("A YOR") == "A YOR - EDI"
    assert "via convoy" in note.inner_text()  # the hint for the next click there
    province("EDI")
    assert order("A YOR") == "A YOR - EDI VIA"
    unit("A YOR")  # changed its mind: Norway, only by sea
    province("NWY")
    assert order("A YOR") == "A YOR - NWY"
    assert "by convoy" in note.inner_text()
    assert order("F NTH") == "F NTH C A YOR - NWY"  # the army's clicks left the fleet's
    # Drawn: the army's arrow to Norway and the fleet's dotted convoy line.
    picks = page.locator("#board g.picks")
    assert picks.locator("line[stroke-dasharray='2 5']").count() == 1
    assert picks.locator("line[marker-end]").count() == 1

    fall = str(form.locator("input[name=decision_id]").get_attribute("value"))
    form.locator("button[type=submit]").click()
    _next_question(page, fall, "Winter")
    # The convoy carried the army: it stands in Norway on the board, and the log says so.
    # (Winter's builds are not unit orders: nothing on the board is outlined now.)
    page.wait_for_selector("#board [data-unit='A NWY']", timeout=30_000)
    assert page.locator("#board [data-unit='A YOR']").count() == 0
    log = page.locator("#log").inner_text()
    assert "F NTH C A YOR - NWY" in log and "A YOR - NWY" in log  # as given
    fall_moved = [line for line in log.splitlines() if "Movement resolved" in line][-1]
    assert "A YOR - NWY" in fall_moved, fall_moved


def test_read_aloud_is_off_by_default_then_speaks_new_lines(
    server: LiveServer, browser: Any
) -> None:
    """The "read aloud" toggle: present in the room and on the spectator page, off until
    turned on (remembered in localStorage), then every new line is handed to the
    browser's speechSynthesis with its character's own voice settings. Headless
    Chromium has no voices: its speech engine still takes each utterance and reports
    back on it (an error event), which the page's hook records."""
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    links = create_game(page, server.base, "werewolf", players=6, seed=5, people=("p2",))
    (name,) = links.seats
    watcher = browser.new_page()
    watcher.goto(f"{server.base}/watch/{links.game}")
    assert watcher.locator("#read-aloud").count() == 1
    assert not watcher.locator("#read-aloud").is_checked()
    page.goto(server.base + links.seats[name])
    box = page.locator("#read-aloud")
    assert box.count() == 1 and not box.is_checked()  # off by default
    assert page.evaluate("localStorage.getItem('parlour.readAloud')") is None

    def answer_one() -> None:
        try:
            page.wait_for_selector("#decision form.decision, #decision .over", timeout=60_000)
        except Exception as err:
            box, log = page.locator("#decision").inner_html(), page.locator("#log").inner_text()
            raise AssertionError(f"no question came:\n{box}\n{log[-1500:]}") from err
        assert page.locator("#decision .over").count() == 0, "the game ended first"
        form = page.locator("#decision form.decision")
        decision_id = form.locator("input[name=decision_id]").get_attribute("value")
        first_other(form, Seen())
        wait_until(
            page,
            "id => { const f = document.querySelector('#decision input[name=decision_id]');"
            " return !f || f.value !== id; }",
            arg=str(decision_id),
            timeout=60_000,
        )

    lines_before = page.locator("#log li").count()
    answer_one()  # off: new lines arrive, nothing is spoken
    wait_until(page, f"document.querySelectorAll('#log li').length > {lines_before}")
    assert page.evaluate("window.parlourVoices.queued.length") == 0

    box.check()
    assert page.evaluate("localStorage.getItem('parlour.readAloud')") == "on"
    for _ in range(15):
        queued = page.evaluate("window.parlourVoices.queued")
        if any(q["speaker"] for q in queued) and any(not q["speaker"] for q in queued):
            break
        answer_one()
    else:
        raise AssertionError(f"no character and engine lines were read: {queued}")
    # Each utterance reads a line that is on the page, its speaker's name first.
    log = page.locator("#log").inner_text()
    for q in queued:
        line = q["text"].removeprefix(q["speaker"] + ". ") if q["speaker"] else q["text"]
        assert line in log, q
    # A character always gets the same voice settings; the engine speaks plainly.
    by_speaker: dict[str, set[tuple[str, float, float]]] = {}
    for q in queued:
        by_speaker.setdefault(q["speaker"], set()).add((q["voice"], q["pitch"], q["rate"]))
    assert all(len(v) == 1 for v in by_speaker.values()), by_speaker
    assert {(p, r) for _, p, r in by_speaker[""]} == {(1, 1)}
    picks = page.evaluate(
        "['Kenji', 'Priya', 'Tomas', 'Kenji'].map(n => {"
        " const v = window.parlourVoices.pick(n); return [v.pitch, v.rate]; })"
    )
    assert picks[0] == picks[3] and len({tuple(p) for p in picks}) >= 2, picks
    # The browser's speech engine took the utterances and answered for them.
    wait_until(page, "window.parlourVoices.reported.length > 0", timeout=10_000)
    reported = page.evaluate("window.parlourVoices.reported")
    assert {r["text"] for r in reported} <= {q["text"] for q in queued}

    # Off again: nothing more is spoken.
    box.uncheck()
    assert page.evaluate("localStorage.getItem('parlour.readAloud')") == "off"
    done = page.evaluate("window.parlourVoices.queued.length")
    lines_before = page.locator("#log li").count()
    answer_one()
    wait_until(page, f"document.querySelectorAll('#log li').length > {lines_before}")
    assert page.evaluate("window.parlourVoices.queued.length") == done
    assert page.evaluate("speechSynthesis.pending") is False
    # Remembered: the page opened again starts with it on, and so does the spectator
    # page in this browser (the same site's storage).
    box.check()
    page.reload()
    assert page.locator("#read-aloud").is_checked()
    page.goto(f"{server.base}/watch/{links.game}")
    assert page.locator("#read-aloud").is_checked()


def test_the_end_reaches_a_decision_box_whose_refresh_was_in_flight(
    server: LiveServer, browser: Any
) -> None:
    """The last word of a game is its stream's ``end``: after it the stream is closed, so
    whatever the decision box shows then stays. Here a refresh of the box is in flight,
    answered while the game still ran, and lands only after the end has arrived: the page
    must ask again and show that the game is over, not keep the stale question."""
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    links = create_game(page, server.base, "werewolf", players=6, seed=3, people=("p1",))
    page.goto(server.base + links.seats["Kenji"])
    page.wait_for_selector("#decision form.decision", timeout=30_000)
    host = server.app.state.web.host
    held: list[str] = []

    def hold(route: Any) -> None:
        response = route.fetch()  # rendered now: the game still runs
        if not held:
            held.append(route.request.url)
            host.end(links.game)
            deadline = time.monotonic() + 20
            while server.store.get_game(links.game).status != "ended":
                assert time.monotonic() < deadline, "the admin's end was not applied"
                time.sleep(0.05)
            time.sleep(1.0)  # the stream's tick and end reach the page meanwhile
        route.fulfill(response=response)

    page.route(re.compile(r"/play/[^/]+/decision$"), hold)
    page.evaluate("document.body.dispatchEvent(new Event('refresh-decision'))")
    page.wait_for_selector("#decision .over", timeout=15_000)
    assert held, "the refresh was never held: the test did not set up the race"
    assert "ended" in page.locator("#decision .over").inner_text()
    assert page.locator("#decision form.decision").count() == 0


def test_typing_goes_on_through_a_refresh_of_the_same_question(
    server: LiveServer, browser: Any
) -> None:
    """Others act while a person types: each change refreshes the decision box. A refresh
    that brings the same question must leave the box as it is, or the field loses the focus
    mid-word and the rest of the answer goes nowhere (it was sent empty once in 40 replays)."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    links = create_game(page, server.base, "escape", scenario="ghost_room", people=("player",))
    page.goto(server.base + links.seats["Player"])
    page.wait_for_selector("#decision form.decision-free_text", timeout=30_000)
    page.click("#decision textarea")
    page.keyboard.type("open the des")
    _refresh_decision(page)
    page.keyboard.type("k drawer")
    box = page.locator("#decision textarea")
    assert box.input_value() == "open the desk drawer"
    assert page.evaluate("document.activeElement === document.querySelector('#decision textarea')")


def test_the_lobby_lists_games_not_tournaments_and_fields_for_the_chosen_game(
    cli: CliRunner, db_path: Path, browser: Any
) -> None:
    played = cli(
        "tournament", "werewolf", "-e", "a=scripted", "--games", "2", "--grid", "none",
        "--seed", "1", "--report", str(db_path.parent / "report"),
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert cli("watch", "escape", "--model", "scripted", "--quiet").returncode == 0
    with LiveServer(f"sqlite:///{db_path}") as live:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(live.base + "/")
        rows = page.locator("table.games tr").all_inner_texts()
        assert sum("escape" in r for r in rows) == 1 and not any("werewolf" in r for r in rows)
        note = page.locator("p.note").inner_text()
        assert "Not listed: 2 games played by tournaments (see" in note
        scenario = page.locator("#setup label[data-for-game=escape]")
        page.select_option("select[name=game]", "werewolf")
        assert not scenario.is_visible()  # a field for escape only
        page.select_option("select[name=game]", "escape")
        assert scenario.is_visible()
        # The players field is wide enough for its whole placeholder ("defa" was shown).
        fits = (
            "(() => { const i = document.querySelector('input[name=players]');"
            " const c = document.createElement('canvas').getContext('2d');"
            " c.font = getComputedStyle(i).font;"
            " return c.measureText(i.placeholder).width <= i.clientWidth; })()"
        )
        assert page.evaluate(fits)
        _shot(page, "web-lobby.png")

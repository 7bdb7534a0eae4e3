"""Screenshots of each game's room in the browser: at the start, the middle and the end.

Starts ``parlour serve --open`` (a subprocess on a free loopback port with its own
SQLite file in ``--out``), then for each game (werewolf, missing, escape, campaign,
diplomacy) creates a game in the lobby with one *person* seat (the other seats keep
the lobby's default) and plays the person through the page only, as a plain person
would: the first fitting option, a short line of chat, the escape scenario's solution
typed in. It saves ``GAME-start.png`` (the first question), ``GAME-middle.png`` (about
halfway through the person's questions, or after ``--middle`` of them) and
``GAME-end.png`` (the room once the game is over), plus the spectator page and the
admin page at the end, 1280x800 pixels each (the page's top, not the whole scroll;
Diplomacy's 1280x1500, to take in the board under the order form).

    uv run python benchmarks/web_screenshots.py                     # docs/images/room-*.png
    uv run python benchmarks/web_screenshots.py --games escape --out /tmp/shots

Look at every picture before trusting it: the point is what a person sees.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.web_embedded_game import free_port, wait_up
from tests.web.browser import LobbyRefused, create_clicked, next_question, wait_until

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-background-networking"]


@dataclass(frozen=True)
class Table:
    """One game's table for the pictures: who the person is, and its lobby settings."""

    game: str
    person: str
    players: str = ""
    #: blank: a secret random seed (werewolf's 3 keeps the person, a wolf, in to the end)
    seed: str = ""
    options: str = ""
    scenario: str = ""
    #: the person's questions before the "middle" picture (or the first with a clock)
    middle: int = 3
    #: the window's height (Diplomacy's board sits below its order form)
    height: int = 800
    #: what the person types, in turn, when asked for text
    lines: tuple[str, ...] = ()


#: What the person types in missing; each starts with "You", as its setup answers must.
MISSING = (
    "You all saw the lights go out at the quay. Who was the last to see her?",
    "You should check the harbour before the tide turns; I will take the bakery.",
    "You two were quiet tonight. What do you know that we do not?",
)
WEREWOLF = (
    "Good morning. Who was up late last night?",
    "I trust the votes more than the words. Who hurried to accuse?",
)
CAMPAIGN = (
    "I ask Priya what exactly the experiment is for.",
    "I look around the lab for anything out of place.",
    "I agree to stay, but I keep my back to the wall.",
)

TABLES = {
    "werewolf": Table("werewolf", "p1", players="6", seed="3", middle=3, lines=WEREWOLF),
    "missing": Table("missing", "p1", options="minutes=5", middle=12, lines=MISSING),
    "escape": Table("escape", "player", scenario="ghost_room", middle=3),
    "campaign": Table(
        "campaign", "player", options="sessions=1\nturns_per_session=4", middle=3, lines=CAMPAIGN
    ),
    "diplomacy": Table("diplomacy", "ENGLAND", options="end_year=1902", middle=2, height=1500),
}


def create(page: Any, base: str, table: Table) -> tuple[str, str, str]:
    """The lobby's two forms: (game id, the person's room path, the admin path)."""
    page.goto(base + "/")
    page.select_option("select[name=game]", table.game)
    if table.players:
        page.fill("input[name=players]", table.players)
    if table.seed:
        page.fill("input[name=seed]", table.seed)
    if table.scenario:
        page.select_option("select[name=scenario]", table.scenario)
    if table.options:
        page.fill("textarea[name=options]", table.options)
    page.click("#setup button[type=submit]")
    page.wait_for_selector("tr[data-seat], p.error")
    if page.query_selector("p.error") is not None:
        raise SystemExit(f"the lobby refused {table.game}: {page.inner_text('p.error')}")
    for row in page.query_selector_all("tr[data-seat]"):
        seat = str(row.get_attribute("data-seat"))
        if "system" in row.inner_text():
            continue
        kind = "person" if seat == table.person else "scripted"
        page.select_option(f"select[name='seat.{seat}']", kind)
    try:
        links = create_clicked(page)
    except LobbyRefused as err:
        raise SystemExit(f"{table.game}: {err}") from None
    (room,) = links.seats.values()
    return links.game, room, links.admin


def typed_lines(table: Table) -> Callable[[], str]:
    """What the person types when asked for text: escape's solution, else chat."""
    if table.game == "escape":
        from parlour.games.escape.loader import load_scenario
        from parlour.games.escape.policies import phrase, solution

        scenario = load_scenario(table.scenario)
        by_id = {a.id: a for a in scenario.actions}
        steps = iter([phrase(by_id[i]) for i in solution(scenario)])
        return lambda: next(steps, "look around")
    said = iter(range(10_000))
    lines = table.lines or MISSING
    return lambda: lines[next(said) % len(lines)]


def answer(form: Any, text: Callable[[], str]) -> None:
    """A plain person: the first option that is not a pass, or a line of text."""
    kind = str(form.get_attribute("class"))
    if "choose_one" in kind:
        buttons = form.locator("button.option")
        labels = [buttons.nth(i).inner_text() for i in range(buttons.count())]
        pick = next(
            (i for i, b in enumerate(labels) if not re.search(r"\b(skip|nobody|pass)\b", b, re.I)),
            0,
        )
        buttons.nth(pick).click()
    elif "choose_many" in kind:
        hint = form.locator(".hint").first.inner_text()
        found = re.search(r"choose (\d+)", hint)
        boxes = form.locator("input[type=checkbox]")
        for i in range(int(found.group(1)) if found else 1):
            boxes.nth(i).check()
        form.locator("button[type=submit]").click()
    elif "free_text" in kind:
        box = form.locator("textarea")
        box.fill(text()[: int(box.get_attribute("maxlength") or 200)])
        box.press("Enter")  # Enter sends (Shift+Enter is a new line)
    else:
        form.locator("button[type=submit]").click()


def shoot(page: Any, path: Path) -> None:
    page.wait_for_timeout(900)  # the sidebar's refresh after a burst of lines (0.7 s)
    if page.locator("#board svg").count():  # Diplomacy: the order form and the board
        page.evaluate("() => document.querySelector('#decision').scrollIntoView()")
    page.screenshot(path=str(path))
    print(f"  {path}", flush=True)


def play(page: Any, table: Table, out: Path, limit: float) -> int:
    """Answers every question in the room until the game is over; the pictures."""
    text = typed_lines(table)
    asked = 0
    middle = False
    last = ""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        question = next_question(page, timeout=120_000)
        if question is None:
            return asked
        form, decision = question
        if decision == last:
            time.sleep(0.2)  # a refusal: answer again, or the box is on its way
        last = decision
        if asked == 0:
            shoot(page, out / f"room-{table.game}-start.png")
        elif not middle and (asked >= table.middle or form.locator(".countdown").count()):
            # halfway, or the first question with a clock (missing's chat rounds)
            shoot(page, out / f"room-{table.game}-middle.png")
            middle = True
        asked += 1
        answer(form, text)
        wait_until(
            page,
            "id => { const f = document.querySelector('#decision input[name=decision_id]');"
            " return !f || f.value !== id || document.querySelector('#decision .error'); }",
            decision,
            timeout=120_000,
        )
    raise SystemExit(f"{table.game}: the game did not end within {limit:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(TABLES), help="comma-separated games")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    parser.add_argument("--limit", type=float, default=600.0, help="seconds per game")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="parlour-shots-"))
    port = args.port or free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "parlour", "serve", "--open", "--port", str(port)]
    command += ["--db", str(work / "shots.sqlite"), "--page-workers", "0"]
    server = subprocess.Popen(command, cwd=ROOT, start_new_session=True)
    try:
        wait_up(base, server)
        chromium = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, headless=True, args=ARGS)
            for name in args.games.split(","):
                table = TABLES[name.strip()]
                print(f"{table.game}:", flush=True)
                for kind in ("room", "watch", "admin"):  # only this tool's own pictures
                    for old in args.out.glob(f"{kind}-{table.game}-*.png"):
                        old.unlink()  # no picture of an earlier game left among this one's
                page = browser.new_page(viewport={"width": 1280, "height": table.height})
                game_id, room, admin = create(page, base, table)
                page.goto(base + room)
                started = time.monotonic()
                asked = play(page, table, args.out, args.limit)
                shoot(page, args.out / f"room-{table.game}-end.png")
                page.goto(f"{base}/watch/{game_id}")
                shoot(page, args.out / f"watch-{table.game}-end.png")
                page.goto(base + admin)
                shoot(page, args.out / f"admin-{table.game}-end.png")
                print(f"  {game_id}: {asked} questions, {time.monotonic() - started:.0f} s")
                page.close()
            browser.close()
    finally:
        os.killpg(server.pid, signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

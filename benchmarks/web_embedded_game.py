"""A person plays werewolf in the browser against six seats on the embedded model.

Issue 16's "done means", end to end and for real: this script starts ``parlour serve``
(a subprocess on a free loopback port with its own SQLite file), drives Debian's
Chromium headless through Playwright to create a 7-player werewolf game in the lobby
with one *person* seat and six *model* seats (spec ``local``: SmolLM2 through
llama.cpp), then plays the person through the page only: the night action, votes by
the buttons, a chat line now and then (every other time the person may speak). Nothing
is reloaded; every new line and question reaches the page by the live stream.

It reports the wall time (create → finished), model calls, fallbacks (decisions the
seat's fallback policy answered), the result, and saves two screenshots:
``docs/images/web-embedded-room.png`` (the person's room in the first day's vote) and
``docs/images/web-embedded-end.png`` (the room at the end).

    nice -n 5 uv run python benchmarks/web_embedded_game.py --out /tmp/webplay
    uv run python benchmarks/web_embedded_game.py --spec 'local(timeout=600)'

The database stays at ``OUT/web_embedded.sqlite`` (``parlour show ID --db ...``). The
suite's deterministic copy of this path (``tests/web/test_embedded_replay.py``) replays
a game recorded by this script; after a werewolf prompt change, re-record it with
``--spec 'local(timeout=600)' --fixture tests/fixtures/web_embedded.sqlite``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.web.browser import LobbyRefused, create_clicked, free_port

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-background-networking"]
#: What the person says when they speak (in turn); empty turns say nothing.
LINES = (
    "Good morning. I have been watching who hurries to accuse others.",
    "{name}, you were quick to point fingers. Why?",
    "I trust the votes more than the words. Let us see who follows whom.",
    "{name}, tell us who you suspect and why.",
    "I am not the wolf. I want to hear from the quiet ones.",
)


@dataclass
class Report:
    game_id: str = ""
    seed: int = 0
    person: str = ""
    spec: str = ""
    wall_s: float = 0.0
    model_calls: int = 0
    fallbacks: int = 0
    status: str = ""
    result: str = ""
    person_decisions: list[str] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    load_before: tuple[float, float, float] = (0.0, 0.0, 0.0)
    load_after: tuple[float, float, float] = (0.0, 0.0, 0.0)


def wait_up(base: str, server: subprocess.Popen[bytes], limit: float = 120.0) -> None:
    import httpx

    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"parlour serve exited with {server.returncode}")
        try:
            if httpx.get(base + "/", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise SystemExit("parlour serve did not answer in time")


def create(page: Any, base: str, seed: int, person: str, spec: str) -> tuple[str, str]:
    """The lobby's two forms as a person fills them: (game id, the person's room path)."""
    page.goto(base + "/")
    page.select_option("select[name=game]", "werewolf")
    page.fill("input[name=players]", "7")
    page.fill("input[name=seed]", str(seed))
    page.click("#setup button[type=submit]")
    page.wait_for_selector("tr[data-seat]")
    for row in page.query_selector_all("tr[data-seat]"):
        seat = str(row.get_attribute("data-seat"))
        if "system" in row.inner_text():
            continue  # the router: the game's script, as the lobby suggests
        if seat == person:
            page.select_option(f"select[name='seat.{seat}']", "person")
        else:
            page.select_option(f"select[name='seat.{seat}']", "model")
            if spec != "local":
                page.fill(f"input[name='model.{seat}']", spec)
    try:
        links = create_clicked(page)
    except LobbyRefused as err:  # e.g. a bad spec option: one line
        raise SystemExit(f"error: {err}") from None
    (room,) = links.seats.values()
    return links.game, room


def known_wolves(page: Any) -> list[str]:
    """Names the seer's private facts call a werewolf (the person reads their table)."""
    facts = page.locator("#facts .private").inner_text()
    return re.findall(r"([A-Z][a-z]+): (?:werewolf|evil|wolf)", facts)


class Person:
    """Answers the open decision like a plain person would."""

    def __init__(self, page: Any, report: Report, shots: Path, out: Path) -> None:
        self.page = page
        self.out = out
        self.report = report
        self.shots = shots
        self.spoken = 0
        self.turns = 0
        self.room_shot = False

    def answer(self, form: Any) -> None:
        purpose = str(form.get_attribute("data-purpose"))
        kind = str(form.get_attribute("class")).split("decision-")[-1]
        self.report.person_decisions.append(f"{purpose}:{kind}")
        if purpose == "vote" and not self.room_shot:
            self.page.screenshot(path=str(self.shots / "web-embedded-room.png"))
            self.room_shot = True
        if kind == "choose_one":
            self._choose(form, purpose)
        elif kind == "free_text":
            self._speak(form)
        elif kind == "choose_many":
            boxes = form.locator("input[type=checkbox]")
            low = int(re.search(r"choose (\d+)", form.locator(".hint").inner_text()).group(1))  # type: ignore[union-attr]
            for i in range(low):
                boxes.nth(i).check()
            form.locator("button[type=submit]").click()
        else:
            form.locator("button[type=submit]").click()

    def _choose(self, form: Any, purpose: str) -> None:
        buttons = form.locator("button.option")
        labels = [buttons.nth(i).inner_text() for i in range(buttons.count())]
        wolves = known_wolves(self.page)
        real = [
            i
            for i, label in enumerate(labels)
            if not re.search(r"\b(skip|nobody|no one|pass|abstain)\b", label, re.I)
        ]
        pick = next((i for i in real for w in wolves if w in labels[i]), None)
        if pick is None:
            pick = real[self.turns % len(real)] if real else 0
        self.turns += 1
        buttons.nth(pick).click()

    def _speak(self, form: Any) -> None:
        box = form.locator("textarea")
        optional = "say nothing" in str(box.get_attribute("placeholder") or "")
        self.turns += 1
        if optional and self.turns % 2:
            form.locator("button[type=submit]").click()  # not this time
            return
        names = [n for n in self.page.locator("#facts .players li").all_inner_texts()]
        others = [n.split()[0] for n in names if "person" not in n]
        line = LINES[self.spoken % len(LINES)].format(
            name=others[self.spoken % len(others)] if others else "friends"
        )
        self.spoken += 1
        limit = int(box.get_attribute("maxlength") or 200)
        box.fill(line[:limit])
        form.locator("button[type=submit]").click()


def wait_for_turn(page: Any, deadline: float, out: Path) -> None:
    """Wait for a question or the end; every minute of waiting, note what the page shows
    (the embedded model may think for minutes, and a stuck page must be visible)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise SystemExit("the game did not end within --minutes")
        try:
            page.wait_for_selector(
                "#decision form.decision, #decision .over", timeout=int(min(left, 60) * 1000)
            )
            return
        except PlaywrightTimeout:
            page.screenshot(path=str(out / "waiting.png"))
            box = page.locator("#decision").inner_text().strip().replace("\n", " ")
            last = page.locator("#log li").last.inner_text().replace("\n", " ")
            stamp = time.strftime("%X")
            print(f"{stamp} waiting: {box[:80]!r}; last line {last[:100]!r}", flush=True)


def play(page: Any, person: Person, limit: float) -> None:
    """Answer every decision until the room says the game is over."""
    deadline = time.monotonic() + limit
    last = ""
    repeats = 0
    while time.monotonic() < deadline:
        wait_for_turn(page, deadline, person.out)
        if page.locator("#decision .over").count():
            return
        form = page.locator("#decision form.decision")
        decision_id = str(form.locator("input[name=decision_id]").get_attribute("value"))
        if decision_id == last:
            repeats += 1
            err = page.locator("#decision .error")
            if err.count():
                person.report.refusals.append(err.first.inner_text())
            if repeats > 20:
                raise SystemExit(f"the engine keeps refusing: {person.report.refusals[-3:]}")
        else:
            repeats = 0
        last = decision_id
        person.answer(form)
        # Polled with page.evaluate: wait_for_function evals its predicate in the page,
        # which the app's Content-Security-Policy forbids.
        changed = (
            "id => { const f = document.querySelector('#decision input[name=decision_id]');"
            " return !f || f.value !== id || document.querySelector('#decision .error'); }"
        )
        while not page.evaluate(changed, decision_id):
            if time.monotonic() > deadline:
                raise SystemExit("the game did not end within --minutes")
            time.sleep(0.05)
    raise SystemExit("the game did not end within --minutes")


def summarize(db: Path, report: Report) -> None:
    from parlour.runtime.store import Store, db_url

    store = Store(db_url(str(db)))
    try:
        row = store.get_game(report.game_id)
        calls = store.calls(report.game_id)
        fallback = {(c.seat, c.decision_id) for c in calls if c.outcome == "fallback"}
        for act in store.actions(report.game_id):
            if "fallback" in act.by:
                fallback.add((act.seat, act.decision_id))
        report.model_calls = len(calls)
        report.fallbacks = len(fallback)
        report.status = row.status
        report.result = str((row.result or {}).get("summary", ""))
    finally:
        store.close()


def keep(db: Path, fixture: Path) -> None:
    """A compact single-file copy (no WAL) of the recorded database."""
    import sqlite3

    fixture.unlink(missing_ok=True)
    with sqlite3.connect(db) as src, sqlite3.connect(fixture) as dst:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")
    with sqlite3.connect(fixture) as dst:
        dst.execute("VACUUM")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=Path("/tmp/webplay"))
    ap.add_argument("--seed", type=int, default=2, help="seed 2: the person (p1) is the seer")
    ap.add_argument("--person", default="p1")
    ap.add_argument("--spec", default="local", help="the six AI seats' model spec")
    ap.add_argument("--minutes", type=float, default=90.0)
    ap.add_argument("--images", type=Path, default=ROOT / "docs" / "images")
    ap.add_argument(
        "--fixture",
        type=Path,
        help="also write the finished game's database here, vacuumed (re-recording "
        "tests/fixtures/web_embedded.sqlite after a prompt change)",
    )
    args = ap.parse_args()
    from parlour.core.errors import ParlourError
    from parlour.runtime.seating import parse_seat_spec

    try:  # a bad spec is one line here, not a browser timeout after the lobby refused it
        parse_seat_spec(args.spec)
    except ParlourError as err:
        ap.exit(2, f"error: --spec: {err}\n")
    args.out.mkdir(parents=True, exist_ok=True)
    args.images.mkdir(parents=True, exist_ok=True)
    db = args.out / "web_embedded.sqlite"
    for stale in (db, db.with_suffix(".sqlite-wal"), db.with_suffix(".sqlite-shm")):
        stale.unlink(missing_ok=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    parlour = shutil.which("parlour", path=str(Path(sys.executable).parent)) or "parlour"
    # An open table: the benchmark sets the seed, as only the owner may on a guarded host.
    cmd = [parlour, "serve", "--port", str(port), "--db", str(db), "--open"]
    log = (args.out / "serve.log").open("wb")
    server = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    report = Report(seed=args.seed, person=args.person, spec=args.spec)
    report.load_before = os.getloadavg()
    from playwright.sync_api import sync_playwright

    try:
        wait_up(base, server)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            started = time.monotonic()
            report.game_id, room = create(page, base, args.seed, args.person, args.spec)
            print(f"game {report.game_id}: {base}{room}", flush=True)
            page.goto(base + room)
            person = Person(page, report, args.images, args.out)
            play(page, person, args.minutes * 60)
            report.wall_s = round(time.monotonic() - started, 1)
            page.wait_for_timeout(1500)  # the last lines arrive by the stream
            page.screenshot(path=str(args.images / "web-embedded-end.png"))
            page.screenshot(path=str(args.out / "end-full.png"), full_page=True)
            browser.close()
    finally:
        report.load_after = os.getloadavg()
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
    summarize(db, report)
    if args.fixture is not None and report.status == "finished":
        keep(db, args.fixture)
    text = json.dumps(asdict(report), indent=2)
    (args.out / "report.json").write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()

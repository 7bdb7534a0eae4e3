"""Driving the web app in a real browser: a live server, Chromium, and a person's hands.

``LiveServer`` runs the real app (uvicorn, its GameHost, a SQLite or PostgreSQL store)
on a free loopback port in a thread. ``launch`` starts Debian's Chromium headless through
Playwright. ``create_game`` goes through the lobby's two forms as a person would and
returns the links the app printed; ``Player`` answers the open decision in a seat's room
with clicks and typing only, and never reloads the page: every change it waits for
must arrive by the live stream.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-background-networking"]


def chromium_or_skip() -> str:
    """The browser's path; skip with the reason when absent (fail under CI=true)."""
    if "browser" in os.environ.get("PARLOUR_TESTS_HIDE", ""):
        pytest.fail("Chromium is hidden (PARLOUR_TESTS_HIDE); is this test marked browser?")
    path = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    reason = ""
    if path is None:
        reason = "Chromium is not installed (apt-get install chromium)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            reason = "playwright is not installed (uv sync --group test)"
    if reason:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason}; CI=true: the browser tests must run")
        pytest.skip(reason)
    assert path is not None
    return path


def wait_until(page: Any, expression: str, arg: Any = None, timeout: float = 30_000) -> Any:
    """Poll a JavaScript expression (or function of ``arg``) in the page until it is
    truthy; its value. ``page.wait_for_function`` evaluates its predicate with the page's
    ``eval``, which the app's Content-Security-Policy forbids; ``page.evaluate`` is
    Playwright's own and is not subject to it."""
    deadline = time.monotonic() + timeout / 1000
    while True:
        value = page.evaluate(expression, arg)
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout / 1000:.0f} s waiting for {expression}")
        time.sleep(0.05)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """The app on uvicorn in a thread (its lifespan runs the GameHost)."""

    def __init__(self, url: str, *, poll: float = 0.05, pace: float = 0.0) -> None:
        import uvicorn

        from parlour.runtime.host import GameHost
        from parlour.runtime.store import Store
        from parlour.web.app import create_app

        self.store = Store(url)
        # ``pace``: seconds the host waits after each batch, so questions open after the
        # page has loaded (as when models think), not before.
        # One page worker, as ``parlour serve`` renders pages: the browser tests then
        # drive the pages a worker process rendered (an in-memory store cannot have one).
        app = create_app(
            self.store, GameHost(self.store, worker="browser-test", pace=pace), page_workers=1
        )
        self.app = app
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the web app did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *_: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
        self.store.close()


@contextmanager
def launch(chromium: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class Links:
    game: str
    admin: str
    seats: dict[str, str]  # seat name -> /play/... path


def create_game(
    page: Any,
    base: str,
    game: str,
    *,
    players: int | None = None,
    seed: int = 1,
    scenario: str = "",
    options: str = "",
    people: tuple[str, ...] = (),
    models: dict[str, str] | None = None,
) -> Links:
    """The lobby's two steps, by clicks: seats in ``people`` are persons, seats in
    ``models`` get that model spec, the rest (system seats too) are scripted."""
    page.goto(base + "/")
    page.select_option("select[name=game]", game)
    if players is not None:
        page.fill("input[name=players]", str(players))
    page.fill("input[name=seed]", str(seed))
    if scenario:
        page.select_option("select[name=scenario]", scenario)
    if options:
        page.fill("textarea[name=options]", options)
    page.click("#setup button[type=submit]")
    page.wait_for_selector("tr[data-seat]")
    for row in page.query_selector_all("tr[data-seat]"):  # the lobby's own defaults aside
        seat = str(row.get_attribute("data-seat"))
        kind = "person" if seat in people else "scripted"
        page.select_option(f"select[name='seat.{seat}']", kind)
    for seat, spec in (models or {}).items():
        page.select_option(f"select[name='seat.{seat}']", "model")
        page.fill(f"input[name='model.{seat}']", spec)
    return create_clicked(page)


class LobbyRefused(Exception):
    """The lobby answered the seats form with an error (e.g. a bad model spec option)."""


def create_clicked(page: Any) -> Links:
    """Click the lobby's "Create game" (the seats chosen) and read the game's links."""
    page.click("text=Create game")
    page.wait_for_selector("#admin-link, p.error")
    if page.query_selector("p.error") is not None:
        raise LobbyRefused(f"the lobby refused the game: {page.inner_text('p.error')}")
    seats = {
        str(a.get_attribute("data-name")): str(a.get_attribute("href"))
        for a in page.query_selector_all("a.join-link")
    }
    admin = str(page.get_attribute("#admin-link", "href"))
    watch = str(page.get_attribute("#watch-link", "href"))
    return Links(game=watch.rsplit("/", 1)[1], admin=admin, seats=seats)


#: A person's answer: given the open decision form, click/type; returns a note.
Answer = Callable[[Any, "Seen"], str]


@dataclass
class Seen:
    """What a person saw while playing: each decision (purpose, kind) and the answers."""

    kinds: list[tuple[str, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lines_at_start: int = 0


def decision_state(page: Any) -> str:
    """'open', 'over' or 'idle' from the decision box as it is now."""
    box = page.locator("#decision")
    if box.locator("form.decision").count():
        return "open"
    if box.locator(".over").count():
        return "over"
    return "idle"


def next_question(page: Any, timeout: float = 60_000) -> tuple[Any, str] | None:
    """Wait for a question or the end of the game: the open decision form and its id, or
    None once the room says the game is over."""
    page.wait_for_selector("#decision form.decision, #decision .over", timeout=timeout)
    if page.locator("#decision .over").count():
        return None
    form = page.locator("#decision form.decision")
    return form, str(form.locator("input[name=decision_id]").get_attribute("value"))


def play(page: Any, answer: Answer, *, limit: float = 240.0, max_turns: int = 200) -> Seen:
    """Answer every decision in this room until the game is over (no reloads)."""
    seen = Seen(lines_at_start=page.locator("#log li").count())
    deadline = time.monotonic() + limit
    last_id = ""
    while time.monotonic() < deadline and len(seen.kinds) < max_turns:
        question = next_question(page)
        if question is None:
            return seen
        form, decision_id = question
        if decision_id == last_id:  # the same question again: only after a refusal
            err = page.locator("#decision .error")
            if err.count():
                seen.errors.append(err.first.inner_text())
            time.sleep(0.1)
            if len(seen.errors) > 20:
                raise AssertionError(f"the engine keeps refusing: {seen.errors[-3:]}")
        last_id = decision_id
        purpose = str(form.get_attribute("data-purpose"))
        kind = str(form.get_attribute("class")).split("decision-")[-1]
        seen.kinds.append((purpose, kind))
        answer(form, seen)
        # The next state arrives by htmx swap or by the stream's tick.
        wait_until(
            page,
            "id => { const f = document.querySelector('#decision input[name=decision_id]');"
            " return !f || f.value !== id || document.querySelector('#decision .error'); }",
            arg=decision_id,
            timeout=60_000,
        )
    raise AssertionError(f"the game did not end in time; decisions so far: {seen.kinds[-5:]}")


def first_other(form: Any, seen: Seen) -> str:
    """A plain person: picks the first option that is not themselves, says a line."""
    kind = str(form.get_attribute("class"))
    if "choose_one" in kind:
        buttons = form.locator("button.option")
        labels = [buttons.nth(i).inner_text() for i in range(buttons.count())]
        pick = 0
        for i, label in enumerate(labels):
            if not re.search(r"\b(skip|nobody|no one|pass)\b", label, re.I):
                pick = i
                break
        buttons.nth(pick).click()
        return labels[pick]
    if "choose_many" in kind:
        boxes = form.locator("input[type=checkbox]")
        hint = form.locator(".hint").inner_text()
        low = int(re.search(r"choose (\d+)", hint).group(1))  # type: ignore[union-attr]
        for i in range(low):
            boxes.nth(i).check()
        form.locator("button[type=submit]").click()
        return f"{low} boxes"
    if "free_text" in kind:
        text = "I watched the votes closely; let us compare notes."
        form.locator("textarea").fill(
            text[: int(form.locator("textarea").get_attribute("maxlength") or 200)]
        )
        form.locator("button[type=submit]").click()
        return "text"
    form.locator("button[type=submit]").click()  # structured: the first legal value of each
    return "structured"

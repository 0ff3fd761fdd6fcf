"""What the browser tests share: Debian's Chromium driven by Playwright, a live server that can
be stopped and started again on the same port and database, and the clicks a person makes.

Needs ``/usr/bin/chromium`` (``.ci/run`` installs it and sets ``TRESFUTE_BROWSER_TESTS=required``,
so CI never skips these tests). Imported by the browser test modules only.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tresfute.web.limits import Limits

CHROMIUM = Path(os.environ.get("TRESFUTE_CHROMIUM", "/usr/bin/chromium"))
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def require_chromium() -> None:
    """Skip a browser test module where Chromium is missing; where the browser tests are
    required (CI), fail instead, and fail as well where Playwright or uvicorn is missing (the
    modules' own ``importorskip`` would skip them silently)."""
    required = os.environ.get("TRESFUTE_BROWSER_TESTS") == "required"
    if not CHROMIUM.exists():
        if required:
            raise RuntimeError(f"browser tests are required but {CHROMIUM} is missing (apt-get install chromium)")
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)
    if required:
        import playwright.sync_api  # noqa: F401
        import uvicorn  # noqa: F401


def _listening_socket(port: int) -> socket.socket:
    """A socket bound to ``port`` on the loopback (0: one the system picks, read back from it)."""
    bound = socket.socket()
    bound.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    bound.bind(("127.0.0.1", port))
    return bound


# the per-address limits lifted (0), the others (how long games are kept) as shipped
UNLIMITED = Limits(
    games_per_minute=0,
    tables_per_minute=0,
    entries_per_minute=0,
    players_per_minute=0,
    joins_per_minute=0,
    practice_per_minute=0,
    sockets_per_address=0,
)


class LiveServer:
    """A uvicorn server in a thread over one SQLite file; ``stop`` and ``start`` again keep the
    port and the games, as a restarted site does. The port is the system's pick, bound at once
    and handed to uvicorn bound (no free port looked up, then taken by another program before
    the server binds it); a restart binds the same port again, as a restarted site does."""

    def __init__(self, database: Path) -> None:
        self.database = database
        self._socket: socket.socket | None = _listening_socket(0)
        self.port = int(self._socket.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"
        self._server: Any = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        import uvicorn

        from tresfute.web.app import create_app

        # the greedy computer player measures the daily challenge's dice here: the strong one takes seconds;
        # every page of the tests comes from one address, whose limits (tested on their own in
        # test_web_limits.py and test_web_open.py) would refuse a module's pages once its tests run
        # fast enough: a seat taken at an open table timed out once in CI
        app = create_app(database=self.database, challenge_bot="greedy", limits=UNLIMITED)
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        self._server = uvicorn.Server(config)
        bound, self._socket = self._socket or _listening_socket(self.port), None  # uvicorn closes it on stop
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [bound]}, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        self._server.should_exit = True
        assert self._thread is not None
        self._thread.join(timeout=10)


def open_page(
    browser: Any,
    url: str,
    width: int = 1366,
    height: int = 900,
    enforce_csp: bool = False,
    locale: str = "fr-FR",
    pace: str = "instant",
    guided: bool = False,
) -> tuple[Any, list[str]]:
    """The page at ``url`` and the errors it logs, in a browser whose language is ``locale`` (the
    page follows it). Playwright's waits evaluate strings in the page, which the site's
    Content-Security-Policy forbids: the policy is set aside unless ``enforce_csp``
    (test_the_page_and_the_api_docs_run_under_the_sites_security_policy). The other players'
    moves are shown at ``pace`` ("instant": a test looks at where a move leads, not at it going
    by), unless the page's setting is changed (a test of the pace sets its own); ``guided``: with
    a first game's guide, for the game each address opens. The errors are also ``page.errors``."""
    context = browser.new_context(  # no dice animation: a click waits for its die to stand still
        viewport={"width": width, "height": height}, bypass_csp=not enforce_csp, locale=locale, reduced_motion="reduce"
    )
    context.add_init_script(  # not on about:blank, whose storage is out of reach
        f"if (location.protocol.startsWith('http')) {{ localStorage.getItem('tresfute.pace')"
        f" ?? localStorage.setItem('tresfute.pace', '{pace}'); {GUIDED if guided else ''} }}"
    )
    page = context.new_page()
    errors: list[str] = []
    page.errors = errors
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(url)
    return page, errors


# A first game's guide, on for the game the page opens (memory.js keeps it per game).
GUIDED = """localStorage.setItem('tresfute.guide',
  JSON.stringify({ [location.pathname.split('/g/')[1]]: { on: true, seen: [] } }));"""


class Viewer:
    """One page at one size, in one language, that shows address after address: a test that
    looks at several games at one size opens them in one page, as a new page costs a renderer
    and the modules' first load (about a second on a CI machine's core), another game in it a
    third of that. ``options`` are :func:`open_page`'s."""

    def __init__(self, browser: Any, size: tuple[int, int], **options: Any) -> None:
        self.browser, self.size, self.options = browser, size, options
        self.page: Any = None

    def show(self, url: str, ready: str = ".game") -> Any:
        """The page gone to ``url``, once ``ready`` is drawn; its errors so far are ``page.errors``."""
        if self.page is None:
            self.page, _errors = open_page(self.browser, url, *self.size, **self.options)
        else:
            self.page.goto(url)
        self.page.wait_for_selector(ready)
        return self.page

    def close(self) -> None:
        if self.page is not None:
            self.page.context.close()


def call(server: str, path: str, body: Any = None, token: str | None = None) -> Any:
    """The server's JSON answer to a GET (or a POST of ``body``), as the seat ``token`` if given."""
    request = urllib.request.Request(
        server + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **({"X-Seat-Token": token} if token else {})},
        method="GET" if body is None else "POST",
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def seat_view(server: str, game_id: str, token: str) -> Any:
    """The seat's view once it has a move to make or the game is over: the computer players play
    after the answer to a move, so their turn may still be under way (9 s at the most)."""
    for _ in range(300):
        view = call(server, f"/api/games/{game_id}", token=token)
        if view["over"] or view["legal"]:
            return view
        time.sleep(0.03)
    return view


def serious_accessibility_problems(page: Any) -> list[tuple[str, str, list[Any]]]:
    """What axe-core (carried by axe-playwright-python, the test extra's) finds serious or
    critical on the page as it stands: each rule's id, its help and its first three places.
    Without the package the accessibility tests fail, never skip."""
    import axe_playwright_python as axe

    page.evaluate((Path(axe.__file__).parent / "axe.min.js").read_text(encoding="utf-8"))
    found = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    return [
        (v["id"], v["help"], [n["target"] for n in v["nodes"][:3]])
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def revision(page: Any) -> str:
    return page.locator(".game").get_attribute("data-revision") or ""


def wait_for_change(page: Any, before: str, timeout: float = 10_000) -> bool:
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        page.wait_for_function(
            "before => { const g = document.querySelector('.game');"
            " return (g && g.dataset.revision !== before) || document.querySelector('.chooser'); }",
            arg=before,
            timeout=timeout,
        )
    except PlaywrightTimeoutError:
        return False
    return True


def wait_for_revision(page: Any, before: str, timeout: float = 10_000) -> bool:
    """Wait until the game's revision is no longer ``before`` (a move landed); False if it never is."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        page.wait_for_function(
            "before => { const g = document.querySelector('.game'); return g && g.dataset.revision !== before; }",
            arg=before,
            timeout=timeout,
        )
    except PlaywrightTimeoutError:
        return False
    return True


def start_game(
    page: Any, game: str, seats: list[tuple[str, str]], real_dice: bool = False, listed: bool = False
) -> None:
    page.wait_for_selector("#new-game")
    page.select_option("#game-choice", game)
    page.select_option("#players", str(len(seats)))
    for i, (kind, name) in enumerate(seats):
        page.select_option(f".seat-kind[data-seat='{i}']", kind)
        page.locator(".seat-name").nth(i).fill(name)
    if real_dice or listed:
        page.click("#new-game .options summary")
        if real_dice:
            page.check("#real-dice")
        if listed:
            page.check("#listed")
    page.click("#start")
    page.wait_for_selector(".game")


ACTIONS = "#moves .primary .move-roll, #moves .primary .move-pass, #moves .primary .move-done, #moves .primary button"


def play_by_clicks(page: Any) -> bool:
    """One decision as a person makes it: a die of the roll, then a lit cell of the own sheet
    (choosing in the picker if several moves land there); with no die to take, a lit cell, else
    the turn's button (roll, pass, done). False if the page did not move on."""
    from playwright.sync_api import Error as PlaywrightError

    before = revision(page)
    try:
        dice = page.locator("#dice .die.playable")
        if dice.count() and page.locator("#dice .die.selected").count() == 0:
            dice.first.click(timeout=3000)
        targets = page.locator(".own-sheet button.target")
        if targets.count():
            targets.first.click(timeout=3000)
            wait_for_change(page, before)  # the move landed, or a picker opened (drawn at the next render)
            chooser = page.locator(".chooser button[data-move]")
            if revision(page) == before and chooser.count():
                chooser.first.click(timeout=3000)
                return wait_for_revision(page, before)
        elif page.locator(ACTIONS).count():
            page.locator(ACTIONS).first.click(timeout=3000)
        else:
            return False
        return wait_for_change(page, before) and revision(page) != before
    except PlaywrightError:  # another player's move redrew the page under the click: look again
        return False


def play_to_the_end(page: Any, limit: int = 900) -> None:
    for _ in range(limit):
        if page.locator(".game[data-over]").count():
            return
        play_by_clicks(page)
    raise AssertionError("the game did not end")

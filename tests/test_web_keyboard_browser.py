"""The game page in Chromium, as a player who wants the game to answer at once and who plays with
the keyboard (issue 73 items 3 and 4): the mark of a move drawn before the server answers (and
taken back when it refuses), the focus kept in the play area after every roll and move, number
keys for the dice, arrow keys among the lit cells, Enter to play, a picker seen whole.

The page's WebSocket goes through Playwright (``route_web_socket``): a move can be held on its
way to the server, so that what the page draws before the answer is seen, not raced.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from browser import open_page, require_chromium, revision, start_game, wait_for_revision

require_chromium()
pytestmark = pytest.mark.slow  # a browser plays and looks at pages: left out by pytest -m "not slow"
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

ACTIVE = (
    "(e => e === document.body ? 'body' : e.id || e.dataset.target || e.dataset.move || e.dataset.die || e.className)"
    "(document.activeElement)"
)
IN_PLAY = "document.activeElement.closest('.play-panel, .own-sheet') !== null"


class Held:
    """The page's WebSocket, through Playwright: its "act" messages are held while ``holding``,
    and sent on (changed by ``change`` if given) by :meth:`release`."""

    def __init__(self) -> None:
        self.holding = False
        self.held: list[str] = []
        self.server: Any = None

    def route(self, socket: Any) -> None:
        self.server = socket.connect_to_server()

        def from_page(message: str | bytes) -> None:
            if self.holding and isinstance(message, str) and json.loads(message).get("type") == "act":
                self.held.append(message)
            else:
                self.server.send(message)

        socket.on_message(from_page)

    def release(self, change: Any = None) -> None:
        self.holding = False
        for message in self.held:
            sent = json.loads(message)
            self.server.send(json.dumps(change(sent) if change else sent))
        self.held = []


def _roll(page: Any) -> None:
    before = revision(page)
    page.locator("#moves .move-roll").click()
    wait_for_revision(page, before)
    page.wait_for_selector(".game:not([aria-busy])")


def _grid_target(page: Any) -> str:
    """A lit cell of a grid (yellow, blue…) for the first die, chosen with the number key 1."""
    page.keyboard.press("1")
    page.wait_for_selector(".own-sheet button.target")
    keys = page.locator(".own-sheet button.target").evaluate_all("cells => cells.map(c => c.dataset.target)")
    grid = [k for k in keys if ":r" in k]
    return grid[0] if grid else keys[0]


def _marks(page: Any, key: str) -> int:
    """The pen strokes drawn on a cell or box (a circle, a cross, a number written)."""
    cell = page.locator(f".own-sheet [data-key='{key}']")
    return cell.locator("svg.pen ellipse, svg.pen path, .written").count()


def test_the_mark_shows_as_the_move_is_chosen_and_a_refusal_takes_it_back(server: str, browser: Any) -> None:
    """Item 3: the move's mark is on the sheet while the move is still on its way (the answer held
    back), the lit cells gone meanwhile; the answer then shows the same mark as the server's.
    A move the server refuses: its mark taken back, the cell lit again, the refusal said."""
    held = Held()
    page, errors = open_page(browser, server + "/")
    page.route_web_socket("**/api/games/*/ws", held.route)
    start_game(page, "tres-fute", [("", "Ana")])
    _roll(page)

    key = _grid_target(page)
    before = revision(page)
    assert _marks(page, key) == 0
    held.holding = True
    page.locator(f".own-sheet button.target[data-target='{key}']").click()
    page.wait_for_selector(f".own-sheet .pending[data-key='{key}']", timeout=2000)
    assert _marks(page, key) == 1, "the mark is drawn before the answer"
    assert page.locator(".own-sheet button.target").count() == 0, "nothing else to play while the move is on its way"
    assert revision(page) == before and held.held, "the move has not reached the server"
    held.release()
    wait_for_revision(page, before)
    assert page.locator(".own-sheet .pending").count() == 0
    assert _marks(page, key) == 1 and "marked" in (
        page.locator(f".own-sheet [data-key='{key}']").get_attribute("class") or ""
    )

    _roll(page)
    key = _grid_target(page)
    before = revision(page)
    held.holding = True
    page.locator(f".own-sheet button.target[data-target='{key}']").click()
    page.wait_for_selector(f".own-sheet .pending[data-key='{key}']", timeout=2000)
    held.release(lambda sent: {**sent, "move": "y@r9c9"})  # refused by the server: no such cell
    page.wait_for_selector(".own-sheet .pending", state="detached")
    assert page.locator("#message").inner_text().strip(), "the refusal is said as the mark is taken back"
    assert _marks(page, key) == 0, "the mark drawn ahead is taken back"
    assert revision(page) == before
    page.keyboard.press("1")
    page.wait_for_selector(f".own-sheet button.target[data-target='{key}']")  # lit again: the move may be made
    assert errors == []


def test_the_keyboard_stays_in_the_play_area_from_move_to_move(server: str, browser: Any) -> None:
    """Item 4: after the roll the focus is on a die, never back at the top of the page; a number
    key chooses a die and puts the focus on its first lit cell; the arrow keys go from lit cell to
    lit cell; Enter plays; after the move the focus is on the next control (the turn's button),
    and so on to the end of the turn, with no Tab pressed at all."""
    page, errors = open_page(browser, server + "/")
    start_game(page, "tres-fute", [("", "Ana")])
    game_id, token = page.url.split("/g/")[1].split("#seat=")

    page.locator("#moves .move-roll").focus()
    page.keyboard.press("Enter")
    wait_for_revision(page, "0")
    page.wait_for_function("document.activeElement.matches('#dice .die.playable')", timeout=5000)

    page.keyboard.press("1")
    page.wait_for_function("document.activeElement.matches('.own-sheet button.target')", timeout=5000)
    first = page.evaluate(ACTIVE)
    lit = page.locator(".own-sheet button.target").count()
    if lit > 1:  # the arrows go on to another lit cell, and back
        page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement.matches('.own-sheet button.target')")
        assert page.evaluate(ACTIVE) != first
        page.keyboard.press("ArrowLeft")
        assert page.evaluate("document.activeElement.matches('.own-sheet button.target')")

    def turn() -> tuple[int, int]:
        state = page.request.get(f"{server}/api/games/{game_id}", headers={"X-Seat-Token": token}).json()["state"]
        return state["round"], state["turn"]

    start = turn()
    played = []
    for _ in range(12):  # a turn: up to three dice chosen (Enter, Enter in a picker), rolls between them
        before = revision(page)
        played.append(page.evaluate(ACTIVE))
        page.keyboard.press("Enter")
        page.wait_for_function(
            "before => document.querySelector('.game').dataset.revision !== before"
            " || document.querySelector('.chooser')",
            arg=before,
            timeout=5000,
        )
        if revision(page) == before and page.locator(".chooser").count():
            page.wait_for_function("document.activeElement.matches('.chooser button[data-move]')")
            page.keyboard.press("Enter")
            wait_for_revision(page, before)
        if turn() != start:
            break
        # the focus is on the next sensible control, in the play area: a die, a lit cell, the turn's button
        page.wait_for_function(
            "document.activeElement.matches('#dice .die.playable, .own-sheet button.target, #moves .primary button')",
            timeout=5000,
        )
        if page.evaluate("document.activeElement.matches('#dice .die.playable')"):
            page.keyboard.press("1")  # a die to choose: the number key, then Enter on its cell
            page.wait_for_function("document.activeElement.matches('.own-sheet button.target')", timeout=5000)
    else:
        raise AssertionError(f"the turn did not end; played: {played}")
    assert page.evaluate(IN_PLAY), f"the focus left the play area: {page.evaluate(ACTIVE)}"
    assert errors == []


def test_the_focus_ring_is_not_a_lit_cells_outline_and_the_picker_is_seen_whole(server: str, browser: Any) -> None:
    """Item 4: a focused lit cell looks unlike the other lit cells (outline and fill); Escape
    closes a picker with the focus back on its cell; at 360×740 and 1366×768 the picker's first
    choice and the move list's first move lie whole within the screen with their focus ring."""
    for width, height in ((360, 740), (1366, 768)):
        for _attempt in range(8):  # a roll whose cells take several moves (a picker) without a die chosen
            page, errors = open_page(browser, server + "/", width=width, height=height)
            start_game(page, "tres-fute", [("", "Ana")])
            _roll(page)
            several = page.evaluate(
                """async () => {
                  const [id, token] = location.pathname.slice(3).split('/')[0].split('#');
                  const seat = location.hash.split('seat=')[1];
                  const view = await (await fetch('/api/games/' + id, { headers: { 'X-Seat-Token': seat } })).json();
                  const count = {};
                  for (const m of view.legal) if (m.area && m.cell) {
                    const key = m.area + ':r' + m.cell[0] + 'c' + m.cell[1];
                    count[key] = (count[key] || 0) + 1;
                  }
                  return Object.keys(count).filter((key) => count[key] > 1);
                }"""
            )
            if several:
                break
            page.context.close()
        else:
            raise AssertionError("no roll with a cell taking two moves in 8 games")
        cell = page.locator(f".own-sheet button.target[data-target='{several[-1]}']")
        other = page.locator(f".own-sheet button.target:not([data-target='{several[-1]}'])").first
        cell.focus()
        page.keyboard.press("Tab")  # a keyboard focus (focus-visible), then back
        page.keyboard.press("Shift+Tab")
        style = (
            "e => { const s = getComputedStyle(e);"
            " return [s.outlineStyle, s.outlineColor, s.backgroundColor, s.borderTopColor]; }"
        )
        assert page.evaluate("document.activeElement.dataset.target") == several[-1]
        focused = page.evaluate(f"({style})(document.activeElement)")
        plain = other.evaluate(style)
        assert focused[0] == "solid" and focused[1] != plain[3], (
            f"the focus ring is not the lit outline: {focused} {plain}"
        )
        assert focused[2] != plain[2], "a focused lit cell is filled unlike the others"
        cell.focus()
        page.keyboard.press("Enter")
        page.wait_for_function("document.activeElement.matches('.chooser button[data-move]')", timeout=5000)
        inside = """() => {
          const e = document.activeElement, r = e.getBoundingClientRect(), ring = 5;
          return r.left - ring >= 0 && r.top - ring >= 0 && r.right + ring <= document.documentElement.clientWidth
            && r.bottom + ring <= innerHeight;
        }"""
        assert page.evaluate(inside), f"the picker's first choice is cut off at {width}×{height}"
        page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement.matches('.chooser button')")
        page.keyboard.press("Escape")
        page.wait_for_selector(".chooser", state="detached")
        assert page.evaluate("document.activeElement.dataset.target") == several[-1], "Escape: back on the cell"

        page.keyboard.press("1")  # a die chosen: the list of where it can go, its first move focused
        page.wait_for_selector("#moves .move-list summary")
        if not page.locator("#moves .move-list[open]").count():
            page.click("#moves .move-list summary")
        page.locator("#moves .move-list button").first.focus()
        page.keyboard.press("Tab")
        page.keyboard.press("Shift+Tab")
        clipped = """() => {
          const e = document.activeElement, r = e.getBoundingClientRect(), ring = 5;
          const list = e.closest('ul').getBoundingClientRect();
          return r.top - ring >= list.top && r.left - ring >= list.left && r.right + ring <= list.right;
        }"""
        assert page.evaluate(clipped), f"the first move's focus ring is cut off by the list at {width}×{height}"
        assert errors == []
        page.context.close()

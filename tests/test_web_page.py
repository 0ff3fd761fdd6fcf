"""How the page looks and reads, checked in Chromium at a phone's, a laptop's and a wide
screen's size: nothing wider than the screen, no stray `null`, the first screen holds what a
player needs, every image loads, axe-core finds no serious accessibility problem, and the
French page follows French typography.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from browser import Viewer, require_chromium, serious_accessibility_problems

require_chromium()
pytestmark = pytest.mark.slow  # a browser plays and looks at pages: left out by pytest -m "not slow"
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

PHONE, LAPTOP, DESKTOP = (390, 844), (1366, 768), (1920, 1080)


def _post(request: Any, url: str, body: dict[str, Any], token: str | None = None) -> Any:
    return request.post(url, data=body, headers={"X-Seat-Token": token} if token else {}).json()


def _stale(view: dict[str, Any]) -> bool:
    """A new turn waits for its first roll: the page shows the last turn's dice, dimmed."""
    state = view["state"]
    return state["phase"] == "roll" and state["picks"] == 0 and any(d["value"] for d in state["dice"])


def _game(request: Any, server: str, game: str, seats: int, moves: int | None, stale: bool = False) -> str:
    """A game's seat link after ``moves`` decisions of the first legal move (``None``: to the end;
    ``stale``: then on to the first new turn that shows the last turn's dice)."""
    created = _post(request, server + "/api/games", {"game": game, "seats": [{"name": f"P{i}"} for i in range(seats)]})
    tokens = [s["token"] for s in created["seats"]]
    url = f"{server}/api/games/{created['id']}"
    played = 0
    while True:
        views = [request.get(url, headers={"X-Seat-Token": t}).json() for t in tokens]
        if views[0]["over"] or (moves is not None and played >= moves and not (stale and not _stale(views[0]))):
            break
        seat = next(i for i, v in enumerate(views) if v["legal"])
        view = views[seat]
        legal = [m for m in view["legal"] if m["kind"] != "reroll"] or view["legal"]
        _post(request, url + "/act", {"move": legal[-1]["move"], "seq": view["seq"]}, tokens[seat])
        played += 1
    return server + created["seats"][0]["link"]


@pytest.fixture(scope="module")
def pages(server: str, browser: Any) -> dict[str, str]:
    """The pages to look at: home, a game of each kind in its middle, the end of a game, a replay
    and the day's challenge."""
    context = browser.new_context(locale="fr-FR")
    request = context.request
    finished = _game(request, server, "tres-fute", 1, None)
    game_id = finished.split("/g/")[1].split("#")[0]
    challenge = _post(request, server + "/api/challenge/vraiment-tres-fute", {"name": "Zoé"})
    found = {
        "home": server + "/",
        "tres-fute": _game(request, server, "tres-fute", 2, 25),
        "stale": _game(request, server, "tres-fute", 1, 20, stale=True),
        "vraiment-tres-fute": _game(request, server, "vraiment-tres-fute", 3, 30),
        "end": finished,
        "replay": f"{server}/g/{game_id}?replay",
        "challenge": server + challenge["link"],
    }
    context.close()
    return found


def _look(viewer: Viewer, url: str) -> Any:
    """``url`` in ``viewer``'s page once its lists and boards are filled in."""
    page = viewer.show(url, ready=".home, .game")
    page.wait_for_load_state("networkidle")  # the lists and boards fill in: every request answered
    return page


@pytest.fixture
def look(browser: Any) -> Iterator[Callable[[str, tuple[int, int]], Any]]:
    """``_look`` for one test, in a page of its own, closed after it (an open page keeps its
    renderer and its socket to the server for the rest of the module)."""
    opened: list[Viewer] = []

    def looked(url: str, size: tuple[int, int]) -> Any:
        opened.append(Viewer(browser, size))
        return _look(opened[-1], url)

    yield looked
    for viewer in opened:
        viewer.close()


@pytest.mark.parametrize("size", [PHONE, LAPTOP, DESKTOP], ids=["phone", "laptop", "desktop"])
def test_every_page_fits_the_screen_says_no_null_and_loads_its_images(
    browser: Any, pages: dict[str, str], size: tuple[int, int]
) -> None:
    viewer = Viewer(browser, size)
    for name in ("home", "tres-fute", "vraiment-tres-fute", "end", "replay", "challenge"):
        page = _look(viewer, pages[name])
        errors = page.errors
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size[0], f"{name} is {width} px wide in a {size[0]} px screen"
        text = page.inner_text("body")
        assert not re.search(r"\b(null|undefined|NaN)\b", text), f"{name}: {text}"
        assert page.evaluate("[...document.images].every(i => i.complete && i.naturalWidth > 0)"), name
        assert errors == [], name
    viewer.close()


def test_a_phone_shows_new_game_and_the_days_challenge_without_scrolling(look: Any, pages: dict[str, str]) -> None:
    page = look(pages["home"], PHONE)
    for selector in ("#new-game h2", "#start", "#challenge h2", ".challenge-start"):
        box = page.locator(selector).first.bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE[1], f"{selector} is below the fold"
    text = page.inner_text("body")
    assert not re.search(r"\b[0-9a-f]{32,}\b", text), "hashes and seeds belong in a game's fairness panel"


@pytest.mark.parametrize("name", ["tres-fute", "vraiment-tres-fute"])
def test_a_laptop_shows_the_own_sheet_the_dice_and_the_action_at_once(
    look: Any, pages: dict[str, str], name: str
) -> None:
    page = look(pages[name], LAPTOP)
    for selector in (".own-sheet .sheet", "#dice", "#status"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= LAPTOP[1], f"{selector}: {box}"


def test_a_wide_screen_shows_the_other_sheets_beside_the_own(look: Any, pages: dict[str, str]) -> None:
    page = look(pages["vraiment-tres-fute"], DESKTOP)
    own = page.locator(".own-sheet").bounding_box()
    others = page.locator(".others .sheet").first.bounding_box()
    assert own and others and others["x"] >= own["x"] + own["width"] - 1 and others["y"] < own["y"] + own["height"]


def test_a_phone_keeps_the_turn_and_the_dice_on_screen_while_the_sheet_scrolls(
    look: Any, pages: dict[str, str]
) -> None:
    page = look(pages["tres-fute"], PHONE)
    page.mouse.wheel(0, 600)
    page.wait_for_function("() => window.scrollY > 0")  # the page has scrolled
    for selector in ("#status", "#dice"):
        box = page.locator(selector).bounding_box()
        assert box is not None and 0 <= box["y"] < PHONE[1], f"{selector} left the screen: {box}"


@pytest.mark.parametrize("name", ["home", "tres-fute", "stale", "replay", "challenge", "end"])
def test_axe_core_finds_no_serious_accessibility_problem(look: Any, pages: dict[str, str], name: str) -> None:
    page = look(pages[name], LAPTOP)
    if name == "stale":  # the last turn's dice, dimmed: their titles still readable
        assert page.locator(".dice.stale").count() == 1
    assert serious_accessibility_problems(page) == []


NO_BREAK = "\u00a0\u202f"


@pytest.mark.parametrize("name", ["home", "tres-fute", "vraiment-tres-fute", "end"])
def test_the_french_page_follows_french_typography(look: Any, pages: dict[str, str], name: str) -> None:
    """A no-break space before : ; ! ? (never a plain space, never none), a decimal comma."""
    page = look(pages[name], DESKTOP)
    text = page.inner_text("body")
    text = re.sub(r"\w+://\S+|'[^']*'|\d:\d", "", text)  # links, quoted moves, times
    wrong = [m.group(0) for m in re.finditer(r".[:;!?](?=\s|$)", text) if m.group(0)[0] not in NO_BREAK]
    assert wrong == [], wrong
    assert not re.search(r"\d\.\d", text), "a decimal point in French"

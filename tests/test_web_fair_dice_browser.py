"""The page's own dice check ("Check the dice", ``checkDice`` in ``web/static/js/end.js``) gives
the dice ``docs/web.md`` documents, and names a roll that a record changed: the same known
secrets and crafted rolls as ``tests/test_fair_dice.py`` (the rejection threshold, the platter's
tie-break), then a finished game whose record is altered on its way to the page. A check that
always answered "all match" fails here.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from test_fair_dice import (
    PLATTER_SECRET,
    REJECTED_DIE,
    REJECTED_SECRET,
    REJECTED_VALUE,
    REJECTED_WORD,
    TRESFUTE_COMMITMENT,
)
from tresfute import fair_dice

from browser import open_page, require_chromium

require_chromium()
pytestmark = pytest.mark.slow  # a browser looks at pages: left out by pytest -m "not slow"
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")  # the browser is conftest.py's, shared by every browser test

ALL_MATCH = "Les {n} lancers correspondent tous à la graine secrète."
ONE_MATCH = "Le seul lancer correspond à la graine secrète."  # one roll: no "Les 1 lancers … tous"
MISMATCH = "Lancers qui ne correspondent pas\u00a0: {rolls}"

# The fairness panel of the page (its component, as the end of a game shows it) for a view given
# here, in a box of its own on the home page: its check asks the server for the record, which the
# test answers. The modules are the page's (under its version), whose catalogue is loaded: the
# same files without the version would be other modules, speaking English.
SHOW_PANEL = """async (view) => {
  const base = `/static/v-${document.documentElement.dataset.version}/js`; // the page's own modules, its words loaded
  const { Fairness } = await import(`${base}/end.js`);
  const { html, render } = await import(`${base}/lib.js`);
  let box = document.querySelector("#vectors");
  if (!box) {
    box = document.createElement("div");
    box.id = "vectors";
    document.body.append(box);
  }
  render(null, box);
  render(html`<${Fairness} view=${view} token=${null} />`, box);
}"""

_views = itertools.count()


def _checked(page: Any, secret: str, moves: list[str], commitment: str | None = None) -> str:
    """What the page's check says of ``moves``, the record of a game whose secret is ``secret``
    (published as ``commitment``, by default its SHA-256)."""
    view = {"id": f"vectors-{next(_views)}", "secret": secret, "challenge": False}
    view["commitment"] = commitment if commitment is not None else fair_dice.commitment(secret)
    page.route(f"**/api/games/{view['id']}/record*", lambda route: route.fulfill(json={"moves": moves}))
    page.evaluate(SHOW_PANEL, view)
    page.click("#vectors summary")
    page.click("#vectors #verify")
    page.wait_for_function("() => document.querySelector('#vectors #verify-result').textContent.length > 0")
    return str(page.locator("#vectors #verify-result").inner_text())


@pytest.fixture(scope="module")
def home(server: str, browser: Any) -> Any:
    page, errors = open_page(browser, server + "/")
    page.wait_for_selector(".home")
    yield page
    assert errors == []
    page.context.close()


def test_the_pages_check_gives_the_documented_dice_of_a_known_secret(home: Any) -> None:
    moves = ["dice w2 y6 b6 g1 o6 p1", "1:w>y@r2c1", "dice y2 b2 o2"]
    assert fair_dice.commitment("tresfute") == TRESFUTE_COMMITMENT
    assert _checked(home, "tresfute", moves) == ALL_MATCH.format(n=2)
    assert _checked(home, "tresfute", ["dice w2 s4 y6 b6 g1 k1"]) == ONE_MATCH, "Vraiment très futé"


def test_the_pages_check_names_each_changed_die_and_a_wrong_secret(home: Any) -> None:
    moves = ["dice w2 y6 b6 g1 o6 p1", "1:w>y@r2c1", "dice y2 b2 o5"]
    assert _checked(home, "tresfute", moves) == MISMATCH.format(rolls="2: o5")
    assert _checked(home, "tresfute", ["dice w3 y6 b6 g1 o6 p2"]) == MISMATCH.format(rolls="1: w3, 1: p2")
    said = _checked(home, "tresfute", moves[:2], commitment="0" * 64)
    assert said == "Le secret révélé ne correspond pas à l’empreinte publiée\u00a0!"


def test_the_pages_check_throws_away_a_word_past_the_limit(home: Any) -> None:
    kept = REJECTED_WORD % 6 + 1  # the face the rejected word would have shown
    assert _checked(home, REJECTED_SECRET, [f"dice {REJECTED_DIE}{REJECTED_VALUE}"]) == ONE_MATCH
    said = _checked(home, REJECTED_SECRET, [f"dice {REJECTED_DIE}{kept}"])
    assert said == MISMATCH.format(rolls=f"1: {REJECTED_DIE}{kept}")


def test_the_pages_check_breaks_a_platter_tie_by_the_lower_platter_hash(home: Any) -> None:
    honest = "dice w1 y3 b5 g1 o4 p3 platter=wgp"
    assert _checked(home, PLATTER_SECRET, [honest]) == ONE_MATCH
    said = _checked(home, PLATTER_SECRET, ["dice w1 y3 b5 g1 o4 p3 platter=wgy"])
    assert said == MISMATCH.format(rolls="1: platter=wgy")


def _finished_game(request: Any, server: str) -> str:
    """A solo game played to its end through the API: its seat link."""
    created = request.post(server + "/api/games", data={"game": "tres-fute", "seats": [{"name": "Ana"}]}).json()
    token = created["seats"][0]["token"]
    url = f"{server}/api/games/{created['id']}"
    for _ in range(2000):
        view = request.get(url, headers={"X-Seat-Token": token}).json()
        if view["over"]:
            return server + created["seats"][0]["link"]
        legal = [m for m in view["legal"] if m["kind"] != "reroll"] or view["legal"]
        move = {"move": legal[-1]["move"], "seq": view["seq"]}
        assert request.post(url + "/act", data=move, headers={"X-Seat-Token": token}).ok
    raise AssertionError("the game did not end")


def test_the_end_of_a_game_catches_a_roll_changed_in_its_record(server: str, browser: Any) -> None:
    """The real page at the end of a real game: its record as the server keeps it matches; the
    same record with one die changed on its way is named, roll and die."""
    page, errors = open_page(browser, server + "/")
    page.goto(_finished_game(page.request, server))
    page.wait_for_selector(".game[data-over]")
    page.click("#fairness summary")
    page.click("#verify")
    page.wait_for_function("() => document.querySelector('#verify-result').textContent.length > 0")
    honest = page.locator("#verify-result").inner_text()
    assert honest.startswith("Les ") and honest.endswith(" lancers correspondent tous à la graine secrète.")
    changed: list[str] = []

    def tamper(route: Any) -> None:
        response = route.fetch()
        record = response.json()
        number, first = next((i, m) for i, m in enumerate(record["moves"]) if m.startswith("dice "))
        die, value = first[5], int(first[6])
        record["moves"][number] = f"dice {die}{value % 6 + 1}{first[7:]}"
        changed.append(f"1: {die}{value % 6 + 1}")
        route.fulfill(response=response, json=record)

    page.route("**/api/games/*/record*", tamper)
    page.click("#verify")
    page.wait_for_function("before => document.querySelector('#verify-result').textContent !== before", arg=honest)
    assert page.locator("#verify-result").inner_text() == MISMATCH.format(rolls=changed[0])
    assert errors == []

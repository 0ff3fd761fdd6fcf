"""Others' turns as they happen, the next game, and every screen, in Chromium: a computer
player's moves shown one at a time (the turn line names it, its dice on the tray, its marks on
its sheet, every move in the game log); two people at a table see each other's moves; "Play
again" starts the same game anew; on a phone no track wraps and the fixed panel stays small;
every die and area carries its colour's shape."""

from __future__ import annotations

import time
from typing import Any

import pytest

from browser import call, open_page, play_by_clicks, require_chromium, start_game

require_chromium()
pytestmark = pytest.mark.slow  # a browser plays and looks at pages: left out by pytest -m "not slow"
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")


def _log(page: Any) -> list[str]:
    return page.locator("#game-log li").all_inner_texts()


def test_the_strong_computers_turn_is_shown_move_by_move_in_the_turn_line_the_log_and_its_sheet(
    server: str, browser: Any
) -> None:
    page, errors = open_page(browser, server + "/", pace="normal")  # each step of the computer's on screen
    start_game(page, "tres-fute", [("", "Ana"), ("strong", "Robot")])
    assert page.locator("#game-log[role=log][aria-live=polite]").count() == 1
    seen_step = robots_tray = False
    for _ in range(80):  # Ana plays; the computer's passive picks, then its turn, are shown as they come
        while page.locator("#step-text").count():  # a move of the computer's on screen: looked at as it goes
            seen_step = True
            # one look at the whole screen, so that the step's end cannot fall between two checks
            shown = page.evaluate(
                "document.querySelector('#step-text') ? {status: document.querySelector('#status-text').innerText,"
                " moves: !!document.querySelector('#moves')} : null"
            )
            if shown is None:
                break
            assert "Robot" in shown["status"] and "À vous" not in shown["status"], shown
            assert not shown["moves"], "nothing to play while another player's move is shown"
            titles = page.locator("#dice h3").all_text_contents()
            if "Lancer de Robot" in titles:  # its active turn: its dice are named as its own, never as Ana's
                robots_tray = True
                assert "Dés choisis par Robot" in titles and "Dés choisis" not in titles, titles
            page.wait_for_timeout(150)
        if (
            page.locator(".game").get_attribute("data-revision")
            and page.evaluate(
                "document.querySelector('.others .sheet').querySelectorAll('.cell.marked, .box.marked').length > 1"
            )
            and robots_tray
        ):
            break
        play_by_clicks(page)
    assert seen_step and robots_tray, "the computer's moves were shown one at a time, on its own tray"
    robot = [line for line in _log(page) if line.startswith("Robot")]
    assert any(line.startswith("Robot lance\u00a0: ") for line in robot), robot
    assert any(" → " in line for line in robot), robot
    assert page.locator(".others .sheet .cell.marked, .others .sheet .box.marked").count() > 1
    assert errors == []


def test_the_computers_moves_can_be_skipped_and_their_pace_is_a_setting(server: str, browser: Any) -> None:
    page, errors = open_page(browser, server + "/")
    page.evaluate("localStorage.setItem('tresfute.pace', 'slow')")
    start_game(page, "tres-fute", [("greedy", "Robot"), ("", "Ana")])  # the computer starts: its turn is shown first
    page.wait_for_selector("#step-text")
    assert page.locator("#pace").input_value() == "slow"
    page.click("#skip")
    page.wait_for_selector("#step-text", state="detached", timeout=2000)
    assert page.locator("#moves button").count() > 0, "Ana's pick from the computer's platter, at once"
    assert "Tour de Robot." in page.locator("#status-text").inner_text()
    assert "plateau d’argent de Robot" in page.locator("#prompt").inner_text()
    assert any(line.startswith("Robot") for line in _log(page))
    assert errors == []


def test_two_people_at_a_table_see_each_others_moves_in_the_log(server: str, browser: Any) -> None:
    created = call(server, "/api/games", {"game": "vraiment-tres-fute", "seats": [{"name": "Ana"}, {"name": "Bea"}]})
    links = [server + s["link"] for s in created["seats"]]
    pages = []
    for link in links:
        page, errors = open_page(browser, link)
        page.evaluate("localStorage.setItem('tresfute.pace', 'fast')")
        page.reload()
        page.wait_for_selector(".game")
        pages.append((page, errors))
    ana, bea = pages[0][0], pages[1][0]
    for _ in range(3):  # Ana rolls and picks a die
        play_by_clicks(ana)
    bea.wait_for_function(
        "[...document.querySelectorAll('#game-log li')].some(li => li.textContent.startsWith('Ana\u00a0: '))"
    )
    said = _log(bea)
    assert any(line.startswith("Ana lance\u00a0: ") for line in said), said
    assert "Ana" in bea.locator("#status-text").inner_text()
    # Bea picks from Ana's platter once Ana's active part is over: Ana sees it
    for _ in range(40):
        if bea.locator("#moves .move-list button, .own-sheet button.target").count():
            break
        play_by_clicks(ana)
        bea.wait_for_timeout(200)
    assert "plateau d’argent de Ana" in bea.locator("#prompt").inner_text()
    play_by_clicks(bea)
    ana.wait_for_function(
        "[...document.querySelectorAll('#game-log li')].some(li => li.textContent.startsWith('Bea\u00a0: '))"
    )
    assert pages[0][1] == [] and pages[1][1] == []


def _finish(server: str, created: dict[str, Any]) -> None:
    token = created["seats"][0]["token"]
    path = f"/api/games/{created['id']}"
    while not (view := call(server, path, token=token))["over"]:
        if not view["legal"]:  # the computer player's turn, played once the last answer has gone
            time.sleep(0.05)
            continue
        legal = [m for m in view["legal"] if m["kind"] != "reroll"] or view["legal"]
        call(server, path + "/act", {"move": legal[-1]["move"], "seq": view["seq"]}, token)


def test_play_again_starts_a_game_with_the_same_players_and_settings(server: str, browser: Any) -> None:
    """The same game, players, dice and rules options (issue 72: the strict reading was dropped)."""
    seats = [{"name": "Ana"}, {"name": "Robot", "bot": "greedy"}]
    strict = {"reprise_with_no_die_left": False}
    created = call(server, "/api/games", {"game": "vraiment-tres-fute", "seats": seats, "rules": strict})
    _finish(server, created)
    page, errors = open_page(browser, server + created["seats"][0]["link"])
    page.wait_for_selector("#end")
    assert page.locator("#end #new-game-end").get_attribute("href") == "/#new-game"
    assert page.locator("header #new-game-link").get_attribute("href") == "/#new-game"
    page.click("#play-again")
    page.wait_for_function(f"!location.pathname.includes({created['id']!r})")
    page.wait_for_selector(".game")
    new_id = page.evaluate("location.pathname").split("/g/")[1]
    token = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('seat')")
    view = call(server, f"/api/games/{new_id}", token=token)
    assert view["game"] == "vraiment-tres-fute" and not view["over"] and not view["real_dice"]
    assert view["rules"] == strict
    assert [(s["name"], s["bot"]) for s in view["seats"]] == [("Ana", None), ("Robot", "greedy")]
    assert view["you"] == 0
    page.click("#new-game-link")  # the header's "New game": the home page's form
    page.wait_for_selector("#new-game")
    assert page.evaluate("document.activeElement.id") == "game-choice"
    assert errors == []


MEASURE = """() => ({
  tracks: [...document.querySelectorAll('.sheet .track')].map((t) =>
    new Set([...t.querySelectorAll('.box')].map((b) => Math.round(b.getBoundingClientRect().top))).size),
  panel: document.querySelector('.play-panel').getBoundingClientRect().height,
  width: document.documentElement.scrollWidth,
})"""


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.parametrize("game", ["tres-fute", "vraiment-tres-fute"])
def test_on_a_phone_no_track_wraps_and_the_fixed_panel_keeps_to_30_percent(
    server: str, browser: Any, game: str, width: int
) -> None:
    created = call(
        server,
        "/api/games",
        {"game": game, "seats": [{"name": "Ana"}, {"name": "Bea"}, {"name": "Robot", "bot": "greedy"}]},
    )
    height = 780
    page, errors = open_page(browser, server + created["seats"][0]["link"], width, height)
    page.wait_for_selector(".game")
    page.wait_for_timeout(200)
    measured = page.evaluate(MEASURE)
    assert measured["tracks"] and all(rows == 1 for rows in measured["tracks"]), measured
    assert measured["panel"] <= 0.3 * height + 1, measured
    assert measured["width"] <= width, measured
    assert errors == []


def test_every_die_and_area_carries_its_colours_shape(server: str, browser: Any) -> None:
    created = call(server, "/api/games", {"game": "tres-fute", "seats": [{"name": "Ana"}]})
    page, _ = open_page(browser, server + created["seats"][0]["link"])
    page.wait_for_selector(".game")
    for die in page.locator("#dice .die").all():
        letter = die.get_attribute("data-die")
        assert die.locator(f".mark-{letter}").count() == 1, letter
    areas = page.locator(".own-sheet .area")
    assert areas.count() == 5
    for area in areas.all():
        letter = (area.get_attribute("class") or "").split("area-")[1][0]
        assert area.locator(f"h3 .mark-{letter}").count() == 1, letter

"""The browser game end to end: Debian's Chromium driven by Playwright against a live server.

Whole games are played by clicks only, as a person would: the roll button, the dice, the
highlighted cells of the sheet and the move buttons. Needs ``/usr/bin/chromium`` (``.ci/run``
installs it and sets ``TRESFUTE_BROWSER_TESTS=required``, so CI never skips these tests).
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tresfute import fair_dice

pytestmark = pytest.mark.slow  # a browser plays whole games: left out by pytest -m "not slow"

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

if not CHROMIUM.exists():
    if os.environ.get("TRESFUTE_BROWSER_TESTS") == "required":
        raise RuntimeError(f"browser tests are required but {CHROMIUM} is missing (apt-get install chromium)")
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

uvicorn = pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from tresfute.web.app import create_app

    # the greedy computer player measures the daily challenge's dice here: the strong one takes seconds
    app = create_app(database=tmp_path_factory.mktemp("web") / "games.sqlite3", challenge_bot="greedy")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not running.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


def open_page(browser: Any, url: str) -> tuple[Any, list[str]]:
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(url)
    return page, errors


def revision(page: Any) -> str:
    return page.locator(".game").get_attribute("data-revision") or ""


def wait_for_change(page: Any, before: str, timeout: float = 10_000) -> bool:
    try:
        page.wait_for_function(
            "before => { const g = document.querySelector('.game');"
            " return (g && g.dataset.revision !== before) || document.querySelector('.chooser'); }",
            arg=before,
            timeout=timeout,
        )
    except sync_api.TimeoutError:
        return False
    return True


def click_once(page: Any, step: int) -> bool:
    """One decision by clicks: a highlighted cell of the sheet every other time (choosing among
    the moves it offers if several), else the first move button. False if nothing to click."""
    before = revision(page)
    targets = page.locator(".sheet button.target")
    try:
        if step % 2 and targets.count():
            targets.first.click(timeout=3000)
        elif page.locator("#moves button").count():
            page.locator("#moves button").first.click(timeout=3000)
        else:
            return False
        if not wait_for_change(page, before):
            return False
        if revision(page) == before and page.locator(".chooser button").count():
            page.locator(".chooser button").first.click(timeout=3000)
            wait_for_change(page, before)
    except sync_api.TimeoutError:  # the other person's move redrew the page under the click: look again
        return False
    return True


def start_game(page: Any, game: str, seats: list[tuple[str, str]]) -> None:
    page.wait_for_selector("#new-game")
    page.select_option("#game-choice", game)
    page.select_option("#players", str(len(seats)))
    for i, (kind, name) in enumerate(seats):
        page.select_option(f".seat-kind[data-seat='{i}']", kind)
        page.locator(".seat-name").nth(i).fill(name)
    page.click("#start")
    page.wait_for_selector(".game")


@pytest.mark.parametrize("game", ["tres-fute", "vraiment-tres-fute"])
def test_a_person_plays_a_whole_solo_game_by_clicks(server: str, browser: Any, game: str) -> None:
    page, errors = open_page(browser, server + "/")
    start_game(page, game, [("", "Ana")])
    assert page.locator("#moves button").first.inner_text() == "Lancer les dés"
    # a double click sends one request: the second click waits for the first, not a stale refusal
    before = revision(page)
    page.locator("#moves button").first.dblclick()
    assert wait_for_change(page, before)
    page.wait_for_selector(".game:not([aria-busy])")
    assert int(revision(page)) == int(before) + 1
    for step in range(600):
        if page.locator(".game[data-over]").count():
            break
        click_once(page, step)
    else:
        raise AssertionError("the game did not end")
    end = page.locator("#end")
    assert "Fin de la partie" in end.inner_text() and page.locator(".rating").count() == 1
    page.click("#verify")
    page.wait_for_function("document.querySelector('#verify-result').textContent.length > 0")
    assert "correspondent tous" in page.locator("#verify-result").inner_text()
    commitment = page.locator("#end small").inner_text().split(": ")[-1].strip()
    record = page.request.get(server + page.locator("#record-link").get_attribute("href")).json()
    assert record["game"] == game and record["dice"] == "external" and record["result"]
    secret = page.evaluate("fetch(location.pathname.replace('/g/', '/api/games/')).then(r => r.json())")["secret"]
    assert fair_dice.check_record(secret, commitment, record["moves"]) == []
    # the game stays in "finished games" on the home page
    page.goto(server + "/")
    page.wait_for_selector("#finished-games li")
    assert "Ana" in page.locator("#finished-games").inner_text()
    assert errors == []


def test_two_people_on_two_browsers_and_a_computer_finish_a_game(server: str, browser: Any) -> None:
    ana, ana_errors = open_page(browser, server + "/")
    start_game(ana, "tres-fute", [("", "Ana"), ("", "Bob"), ("strong", "Robot")])
    invitation = ana.locator(".invitations input").first.input_value()
    assert "#seat=" in invitation
    bob, bob_errors = open_page(browser, invitation)
    bob.wait_for_selector(".game")
    assert "Feuille de Bob" in (bob.locator(".sheet").first.get_attribute("aria-label") or "")
    watcher, _ = open_page(browser, invitation.split("#")[0])
    watcher.wait_for_selector(".game")
    assert "Vous regardez cette partie." in watcher.inner_text("body")

    step = 0
    deadline = time.monotonic() + 240
    while not (ana.locator(".game[data-over]").count() and bob.locator(".game[data-over]").count()):
        assert time.monotonic() < deadline, "the game did not end"
        acted = False
        for page in (ana, bob):
            if page.locator(".game[data-over]").count() == 0 and click_once(page, step):
                acted = True
                step += 1
        if not acted:
            time.sleep(0.1)
    for page in (ana, bob):
        assert "Fin de la partie" in page.locator("#end").inner_text()
    watcher.wait_for_selector(".game[data-over]")  # the spectator saw it live
    assert ana.locator("#end .breakdown").inner_text() == bob.locator("#end .breakdown").inner_text()
    assert ana_errors == [] and bob_errors == []


def test_the_page_comes_in_english_when_chosen_and_comes_back_after_closing(server: str, browser: Any) -> None:
    page, errors = open_page(browser, server + "/")
    page.wait_for_selector("#new-game")
    page.select_option("#language", "en")
    page.wait_for_selector("text=New game")
    start_game(page, "vraiment-tres-fute", [("", "Ana")])
    page.click("#moves button")  # Roll the dice
    page.wait_for_selector("#moves button >> nth=1")
    url = page.url
    shown = page.locator("#dice .die b").all_inner_texts()
    page.context.close()  # the tab is closed …
    again, _ = open_page(browser, url)  # … and opened again with the same link
    again.wait_for_selector("#moves")
    assert again.locator("#dice .die b").all_inner_texts() == shown
    assert errors == []


def test_at_a_real_dice_table_the_player_who_rolls_types_the_dice(server: str, browser: Any) -> None:
    page, errors = open_page(browser, server + "/")
    page.wait_for_selector("#new-game")
    page.check("#real-dice")
    start_game(page, "tres-fute", [("", "Ana")])
    assert page.locator("#moves button").count() == 0, "no server roll at a real-dice table"
    for die, value in zip("wybgop", "345612", strict=True):
        page.fill(f"#dice-form input[data-die='{die}']", value)
    before = revision(page)
    page.click("#dice-form button[type=submit]")
    assert wait_for_change(page, before)
    assert page.locator("#dice .die b").all_inner_texts() == ["3", "4", "5", "6", "1", "2"]
    assert page.locator("#moves button").count() > 0 and page.locator("#dice-form").count() == 0
    assert errors == []


def test_the_status_is_a_sentence_next_to_the_dice_and_one_point_is_singular(server: str, browser: Any) -> None:
    """The instruction under the title starts with a capital, no blank band separates the status
    from the dice (desktop and phone), and an area heading says "1 point", "0 point" in French."""
    page, errors = open_page(browser, server + "/")
    start_game(page, "vraiment-tres-fute", [("", "Ana")])
    before = revision(page)
    page.locator("#moves button").first.click()  # Lancer les dés
    assert wait_for_change(page, before)
    prompt = page.locator("#prompt").inner_text()
    assert prompt == "Choisissez un dé du lancer", prompt
    for width in (1100, 390):
        page.set_viewport_size({"width": width, "height": 900})
        gap = page.evaluate(
            "document.querySelector('.dice').getBoundingClientRect().top"
            " - document.querySelector('#status').getBoundingClientRect().bottom"
        )
        assert gap < 20, f"a blank band of {gap:.0f} px at {width} px wide"

    # a real-dice table: a green 6 crosses the first green box, worth 1 point
    created = page.request.post(
        server + "/api/games", data={"game": "tres-fute", "seats": [{"name": "Ana"}], "real_dice": True}
    ).json()
    token = created["seats"][0]["token"]
    game_url = f"{server}/api/games/{created['id']}"
    headers = {"X-Seat-Token": token}
    view = page.request.post(
        game_url + "/act", data={"move": "dice w3 y4 b5 g6 o1 p2", "seq": 0}, headers=headers
    ).json()
    green = next(m["move"] for m in view["legal"] if m["move"] == "g")
    page.request.post(game_url + "/act", data={"move": green, "seq": view["seq"]}, headers=headers)
    page.goto(server + created["seats"][0]["link"])
    page.wait_for_selector(".area-g .points")
    assert page.locator(".area-g .points").inner_text() == "1 point"
    assert page.locator(".area-y .points").inner_text() == "0 point"
    page.select_option("#language", "en")
    page.wait_for_selector(".area-y .points >> text=0 points")
    assert page.locator(".area-g .points").inner_text() == "1 point"
    assert errors == []


def test_a_daily_challenge_is_played_to_the_end_and_found_in_the_ranking_and_replayed(
    server: str, browser: Any
) -> None:
    page, errors = open_page(browser, server + "/")
    page.wait_for_selector("#challenge")
    page.fill("#challenge-name", "Zoé")
    page.click(".challenge-start[data-game='tres-fute']")
    page.wait_for_selector(".game")
    for step in range(600):
        if page.locator(".game[data-over]").count():
            break
        click_once(page, step)
    else:
        raise AssertionError("the game did not end")
    assert "Fin de la partie" in page.locator("#end").inner_text()
    assert page.locator("#verify").count() == 0, "the day's seed is revealed when the day is over"
    with page.expect_download() as download:  # one's own record, at once
        page.click("#record-link")
    assert '"moves"' in Path(download.value.path()).read_text()
    page.goto(server + "/")
    board = page.locator(".challenge-board[data-game='tres-fute']")
    board.locator(".ranking li", has_text="Zoé").wait_for()
    page.locator("#challenge-history li", has_text="Zoé").wait_for()
    # a second entry the same day is refused, with the reason
    page.click(".challenge-start[data-game='tres-fute']")
    page.wait_for_function("document.querySelector('#challenge .error').textContent.includes('déjà joué')")
    board.locator(".ranking li", has_text="Zoé").locator("a").click()
    page.wait_for_selector("#replay")
    assert page.locator("#replay-step").inner_text().startswith("Coup 0 sur")
    page.click("#replay-next")
    page.wait_for_function("document.querySelector('#replay-step').textContent.startsWith('Coup 1 sur')")
    assert page.locator("#dice .die b").first.inner_text() != "?"
    page.click("#replay-last")
    page.wait_for_selector(".game[data-over]")
    assert [e for e in errors if "409" not in e] == []  # the browser logs the refused second entry


def test_an_open_table_is_listed_on_the_home_page_and_a_stranger_takes_its_free_seat(server: str, browser: Any) -> None:
    ana, ana_errors = open_page(browser, server + "/")
    ana.wait_for_selector("#new-game")
    ana.check("#listed")
    start_game(ana, "tres-fute", [("", "Ana"), ("", "Siège libre")])
    game_id = ana.url.split("/g/")[1].split("#")[0]
    zed, zed_errors = open_page(browser, server + "/")
    zed.fill("#open-name", "Zed")
    zed.locator(f"#open-tables li[data-game='{game_id}'] .take-seat").click()
    zed.wait_for_selector(".game")
    assert "Feuille de Zed" in (zed.locator(".sheet").first.get_attribute("aria-label") or "")
    ana.wait_for_function("document.body.innerText.includes('Zed')")  # Ana's page hears of it live
    assert ana_errors == [] and zed_errors == []

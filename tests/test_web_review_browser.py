"""The review in Chromium: a finished solo game's review opens from its end, shows its progress,
then the chart and the decisions; the costliest decision's position is shown with both moves
marked; on a phone nothing overflows. During a game, what each computer player would play."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from browser import call, open_page, require_chromium, serious_accessibility_problems

require_chromium()
pytestmark = pytest.mark.slow  # a browser plays and looks at pages: left out by pytest -m "not slow"
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")  # the browser is conftest.py's, shared by every browser test

PHONE = 390


def finished_solo_game(server: str) -> tuple[str, str]:
    """A solo game of Très futé played to its end through the API (each time the first legal
    move but "pass", to have decisions worth reviewing): its id and seat token."""
    created = call(server, "/api/games", {"game": "tres-fute", "seats": [{"name": "Ana"}]})
    game_id, token = created["id"], created["seats"][0]["token"]
    for _ in range(1000):
        view = call(server, f"/api/games/{game_id}", token=token)
        if view["over"]:
            return game_id, token
        moves = [m["move"] for m in view["legal"]]
        placed = [m for m in moves if m != "pass"] or moves
        call(server, f"/api/games/{game_id}/act", {"move": placed[0], "seq": view["seq"]}, token)
    raise AssertionError("the game did not end")


def no_horizontal_overflow(page: Any) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"))


@pytest.fixture(scope="module")
def finished(server: str) -> tuple[str, str]:
    return finished_solo_game(server)


def test_a_finished_games_review_draws_its_chart_and_shows_the_costliest_position(
    server: str, browser: Any, finished: tuple[str, str]
) -> None:
    game_id, token = finished
    page, errors = open_page(browser, f"{server}/g/{game_id}#seat={token}", width=PHONE, height=844)
    page.wait_for_selector("#end")
    page.click("#review-link")
    page.wait_for_selector("#review-progress, #review")  # its progress while it is computed, then the review
    page.wait_for_selector("#review-chart svg polyline", timeout=120_000)
    review = call(server, f"/api/games/{game_id}/review?lang=fr", token=token)
    decisions = review["decisions"]
    points = page.locator("#review-chart polyline").get_attribute("points") or ""
    # the chart: the expected final score before the first decision, then after each one
    assert len(points.split()) == len(decisions) + 1 == len(review["chart"])
    assert "Précision" in page.locator("#accuracy").inner_text()
    assert page.locator("#review-chart table tbody tr").count() == len(decisions) + 1  # the numbers behind it
    assert page.locator("#all-decisions li.decision").count() == len(decisions)
    costliest = page.locator("#costliest li.decision")
    assert costliest.count() == len(review["costliest"]) >= 1
    assert no_horizontal_overflow(page), "the review is wider than a phone"

    first = next(d for d in decisions if d["move_number"] == review["costliest"][0])
    costliest.first.locator(".show-position").click()
    page.wait_for_selector("#review-position")
    sheet = page.locator(".own-sheet")
    if first["played_move"]["area"]:
        assert sheet.locator(".played").count() == 1
    if first["best_move"]["area"]:
        assert sheet.locator(".best").count() == 1
    if not (first["played_move"]["area"] or first["best_move"]["area"]):
        # no cell to mark (the game's dice are random: a reroll, a +1 used or declined…): the
        # position's legend names both moves
        legend = page.locator("#review-position").inner_text()
        assert first["played_text"] in legend and first["best_text"] in legend
    else:
        assert sheet.locator(".played").count() + sheet.locator(".best").count() >= 1
    # the dice as they were when the decision was taken
    shown = call(server, f"/api/games/{game_id}?at={first['move_number'] - 1}")
    rolled = sorted(str(d["value"]) for d in shown["state"]["dice"] if d["where"] == "hand" and d["value"])
    assert sorted(t for t in page.locator("#dice .dice-hand .value").all_inner_texts() if t != "?") == rolled
    assert no_horizontal_overflow(page), "the position is wider than a phone"
    page.click("#back-to-review")
    page.wait_for_selector("#review-chart")
    # the home page's finished games open their review too
    page.goto(server + "/")
    page.wait_for_selector("#finished-games .review-link")
    assert (
        page.locator("#finished-games .review-link").first.get_attribute("href") == f"/g/{game_id}?review#seat={token}"
    )
    assert errors == []


def test_the_review_is_accessible_and_follows_french_typography(
    server: str, browser: Any, finished: tuple[str, str]
) -> None:
    """axe-core finds no serious problem on the review (its chart an image with its words, the
    numbers a table); the French text has its no-break spaces and decimal commas."""
    game_id, token = finished
    page, errors = open_page(browser, f"{server}/g/{game_id}?review#seat={token}")
    page.wait_for_selector("#review-chart svg polyline", timeout=120_000)
    page.click("#review-chart summary")
    page.click("#all-decisions summary")
    assert serious_accessibility_problems(page) == []
    text = re.sub(r"\w+://\S+|'[^']*'", "", page.inner_text("body"))
    wrong = [m.group(0) for m in re.finditer(r".[:;!?](?=\s|$)", text) if m.group(0)[0] not in "\u00a0\u202f"]
    assert wrong == [] and not re.search(r"\d\.\d", text)
    assert errors == []


def test_during_a_game_the_page_says_what_each_computer_player_would_play(server: str, browser: Any) -> None:
    created = call(server, "/api/games", {"game": "tres-fute", "seats": [{"name": "Ana"}], "language": "en"})
    game_id, token = created["id"], created["seats"][0]["token"]
    view = call(server, f"/api/games/{game_id}", token=token)
    call(server, f"/api/games/{game_id}/act", {"move": "roll", "seq": view["seq"]}, token)
    page, errors = open_page(browser, f"{server}/g/{game_id}#seat={token}")
    page.click("#choices-button")
    page.wait_for_selector("#choices li")
    assert page.locator("#choices li").count() == 2
    assert page.locator("#choices li[data-bot='strong']").count() == 1
    assert errors == []


def test_the_review_stays_a_path_of_its_own(tmp_path: Path) -> None:
    """/g/<id>?review is the page itself (the route is the page's), as every game's path."""
    from fastapi.testclient import TestClient

    from tresfute.web.app import create_app

    with TestClient(create_app(database=tmp_path / "games.sqlite3")) as client:
        page = client.get("/g/abc?review")
        assert page.status_code == 200 and '/js/main.js"' in page.text
        assert client.get("/static/js/review.js").status_code == 200
        assert client.get("/static/js/chart.js").status_code == 200

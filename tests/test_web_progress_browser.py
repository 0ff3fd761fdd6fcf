"""A player's progress page in Chromium: after three games started from the home page (and played
to their end through the API), it shows three points and the histogram against the strong
player; the player's link, opened in a second browser context, shows the same history there; a
link nobody gave is refused and keeps nothing; on a phone nothing overflows."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from browser import call, open_page, require_chromium, serious_accessibility_problems, start_game

require_chromium()
pytestmark = pytest.mark.slow  # a browser plays and looks at pages: left out by pytest -m "not slow"
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")  # the browser is conftest.py's, shared by every browser test

PHONE = 390


def play_out(server: str, game_id: str, token: str, seed: int) -> None:
    """The seat plays random legal moves through the API until the game is over."""
    rng = random.Random(seed)
    for _ in range(1000):
        view = call(server, f"/api/games/{game_id}", token=token)
        if view["over"]:
            return
        move = rng.choice(view["legal"])["move"]
        call(server, f"/api/games/{game_id}/act", {"move": move, "seq": view["seq"]}, token=token)
    raise AssertionError("the game did not end")


def stored_player(page: Any) -> dict[str, Any]:
    return dict(page.evaluate("() => JSON.parse(localStorage.getItem('tresfute.player') || '{}')"))


def shown_games(page: Any) -> list[str]:
    page.wait_for_selector("#progress-games tbody tr")
    return [str(row.get_attribute("data-game")) for row in page.locator("#progress-games tbody tr").all()]


def test_three_games_then_three_points_a_histogram_and_the_same_history_elsewhere(browser: Any, server: str) -> None:
    page, errors = open_page(browser, server + "/")
    played = []
    for n in range(3):
        page.goto(server + "/")
        start_game(page, "tres-fute", [("", "Ana")])
        found = re.search(r"/g/([A-Za-z0-9_-]+)#seat=([A-Za-z0-9_-]+)", page.url)
        assert found, page.url
        play_out(server, found[1], found[2], seed=n)
        played.append(found[1])
    secret = stored_player(page)["token"]

    page.goto(server + "/me")
    assert sorted(shown_games(page)) == sorted(played)
    assert page.locator("#score-chart-tres-fute circle.point").count() == 3
    assert page.locator("#histogram-tres-fute .bin rect.bar.you").count() >= 1
    assert page.locator("#histogram-tres-fute .bin rect.bar.strong").count() >= 3
    # the numbers behind the charts: three games' scores, the histogram's bins
    assert page.locator("#score-chart-tres-fute tbody tr").count() == 3
    assert page.locator("#histogram-tres-fute tbody tr").count() >= 3
    # three games of one day: each its own tick on the time axis, the day named once
    assert page.locator("#score-chart-tres-fute line.point-tick").count() == 3
    assert page.locator("#score-chart-tres-fute .group text").count() == 1
    # the histogram's axis title sits under its bins, above the legend's line, not in it
    axis = page.locator("#histogram-tres-fute text.axis-name").bounding_box()
    legend = page.locator("#histogram-tres-fute .legend text").first.bounding_box()
    assert axis and legend and axis["y"] + axis["height"] <= legend["y"] + 1
    assert page.locator(".not-reviewed").count() == 3  # no review yet: offered
    link = page.input_value("#player-link")
    assert link == f"{server}/me#player={secret}"

    other, other_errors = open_page(browser, link)
    assert sorted(shown_games(other)) == sorted(played)
    assert other.locator("#score-chart-tres-fute circle.point").count() == 3
    assert stored_player(other)["token"] == secret and stored_player(other)["name"] == "Ana"
    assert "player=" not in other.url  # the secret left the address bar
    # another player's link in a browser that has one: it asks which to keep
    newcomer = call(server, "/api/players", {"name": "Bea"})["token"]
    other.goto(f"{server}/me#player={newcomer}")
    other.click("#keep-player")
    assert sorted(shown_games(other)) == sorted(played) and stored_player(other)["token"] == secret
    other.goto(f"{server}/me#player={newcomer}")
    other.click("#use-link-player")
    other.wait_for_selector("#no-games")
    assert stored_player(other) == {"token": newcomer, "name": "Bea"}
    other.context.close()

    # a secret nobody gave: said, and nothing kept
    forged, _refused = open_page(browser, f"{server}/me#player={'x' * 32}")
    forged.wait_for_selector("#progress-error")
    assert forged.inner_text("#progress-error").strip() and forged.locator("#progress-games").count() == 0
    assert stored_player(forged) == {}
    forged.context.close()

    # axe-core finds no serious accessibility problem (the table and the charts' numbers open)
    page.goto(server + "/me")
    shown_games(page)
    for summary in page.locator(".chart-numbers summary").all():
        summary.click()
    assert serious_accessibility_problems(page) == []

    # on a phone, nothing wider than the screen
    page.set_viewport_size({"width": PHONE, "height": 844})
    page.goto(server + "/me")
    shown_games(page)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE
    assert [e for e in errors + other_errors if "403" not in e] == []
    page.context.close()

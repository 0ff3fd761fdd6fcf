"""The chance to win in Chromium: beside each player's total at a table, and as the review chart's
second, dashed line (issue 71 item 3)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from browser import call, open_page, require_chromium

require_chromium()
pytestmark = pytest.mark.slow  # a browser looks at pages: left out by pytest -m "not slow"
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")


def test_the_table_shows_each_chance_and_the_review_draws_it(server: str, browser: Any) -> None:
    created = call(
        server, "/api/games", {"game": "tres-fute", "seats": [{"name": "Ana"}, {"name": "Bob", "bot": "greedy"}]}
    )
    game_id, token = created["id"], created["seats"][0]["token"]
    page, errors = open_page(browser, f"{server}/g/{game_id}#seat={token}", locale="en-US")
    page.wait_for_selector(".sheet-head .win-chance")
    view = call(server, f"/api/games/{game_id}?lang=en", token=token)
    shown = page.locator(".sheet-head .win-chance").all_inner_texts()
    assert len(shown) == 2 and all(text.startswith("chance to win: ") and text.endswith("%") for text in shown)
    assert f"{round(100 * view['win_chance'][0])}%" in page.locator(".own-sheet .win-chance").inner_text()
    for _ in range(3000):
        view = call(server, f"/api/games/{game_id}", token=token)
        if view["over"]:
            break
        if not view["legal"]:  # the computer player thinks after the answer
            time.sleep(0.02)
            continue
        call(server, f"/api/games/{game_id}/act", {"move": view["legal"][0]["move"], "seq": view["seq"]}, token)
    assert view["over"]
    page.goto(f"{server}/g/{game_id}?review#seat={token}")
    page.wait_for_selector("#review-chart svg polyline.second-series", timeout=300_000)  # a loaded machine
    review = call(server, f"/api/games/{game_id}/review?lang=en", token=token)
    points = page.locator("#review-chart polyline.second-series").get_attribute("points") or ""
    assert len(points.split()) == len(review["win_chart"]) == len(review["chart"])
    assert page.locator("#review-chart thead th").count() == 4  # when, round, expected score, chance to win
    assert errors == []

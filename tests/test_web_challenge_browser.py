"""The daily challenge on the home page, in Chromium (issue 73 item 7): an empty name is asked
for, never made up; an entry in progress is listed in "My challenges" with a link that reopens
it, in this browser and in another browser of the same player (the player's link, /me#player=…).
The server's part is tested in test_web_challenge.py."""

from __future__ import annotations

from typing import Any

import pytest

from browser import open_page, require_chromium, revision, wait_for_revision

require_chromium()
pytestmark = pytest.mark.slow  # a browser plays and looks at pages: left out by pytest -m "not slow"
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

PLAYER = "JSON.parse(localStorage.getItem('tresfute.player') || '{}').token || null"


def test_an_empty_name_is_asked_for_and_an_entry_in_progress_reopens_in_another_browser(
    server: str, browser: Any
) -> None:
    page, errors = open_page(browser, server + "/", locale="en-GB")
    entries: list[str] = []
    page.on("request", lambda r: entries.append(r.url) if r.method == "POST" and "/api/challenge/" in r.url else None)
    page.wait_for_selector("#challenge")
    page.fill("#challenge-name", "   ")
    page.click(".challenge-start[data-game='tres-fute']")
    page.wait_for_function("document.querySelector('#challenge-error').textContent.length > 0")
    assert "name" in page.locator("#challenge-error").inner_text().lower()
    assert page.evaluate("document.activeElement.id") == "challenge-name", "the name is asked for where it is typed"
    assert page.locator("#challenge-name").get_attribute("aria-invalid") == "true"
    assert entries == [] and page.evaluate(PLAYER) is None, "no entry, under no name"

    page.fill("#challenge-name", "Zoé")
    page.click(".challenge-start[data-game='tres-fute']")
    page.wait_for_selector(".game")
    game_id, seat = page.url.split("/g/")[1].split("#seat=")
    page.locator("#moves .move-roll").click()
    wait_for_revision(page, "0")
    played = revision(page)
    token = page.evaluate(PLAYER)
    assert token

    page.goto(server + "/")  # this browser: the entry in progress has its link
    here = page.locator(f"#challenge-history li[data-entry='{game_id}']")
    here.wait_for()
    assert "in progress" in here.inner_text()
    assert here.locator("a.resume-link").count() == 1

    other, other_errors = open_page(browser, f"{server}/me#player={token}", locale="en-GB")  # another browser
    other.wait_for_function(f"({PLAYER}) === {token!r}")
    other.goto(server + "/")
    listed = other.locator(f"#challenge-history li[data-entry='{game_id}']")
    listed.wait_for()
    assert "in progress" in listed.inner_text() and "Zoé" in listed.inner_text()
    listed.locator("a.resume-link").click()
    other.wait_for_selector(f".game[data-revision='{played}']")
    assert other.url.split("#seat=")[1] == seat, "the same seat as the first browser's"
    assert "Zoé" in (other.locator(".own-sheet .sheet").get_attribute("aria-label") or "")
    assert other.locator(".own-sheet button.target, #dice .die.playable").count() > 0, "the game goes on from here"
    assert errors == [] and other_errors == []
    other.context.close()
    page.context.close()

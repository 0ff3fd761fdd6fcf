"""The page in the browser's language, in Chromium: a browser in en-US or de-DE gets English or
German on the home, game and rules pages, one in fr-FR French; the header's choice is
remembered, by the page and by the API; and the page is light: a game page loads only its own
modules, compressed, and a repeat visit takes the page's files from the cache."""

from __future__ import annotations

from typing import Any

import pytest

from browser import call, open_page, require_chromium, serious_accessibility_problems

require_chromium()
pytestmark = pytest.mark.slow  # a browser plays: left out by pytest -m "not slow"
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

# What each language shows: the home page's first title, the game page's platter, the rules' title.
SHOWN = {
    "fr-FR": ("fr", "Nouvelle partie", "Plateau d’argent", "Règles de Très futé"),
    "en-US": ("en", "New game", "Silver platter", "Rules of That's Pretty Clever!"),
    "de-DE": ("de", "Neue Partie", "Silbertablett", "Regeln von Ganz schön clever"),
}


@pytest.mark.parametrize("locale", list(SHOWN))
def test_the_page_speaks_the_browsers_language(browser: Any, server: str, locale: str) -> None:
    """The browser's language (Accept-Language, navigator.language) chooses the page's, with no
    choice made in the header: on the home page, a game page and the rules page."""
    lang, home, platter, rules = SHOWN[locale]
    created = call(server, "/api/games", {"game": "tres-fute", "seats": [{"name": "Ana"}]})
    page, errors = open_page(browser, server + "/", locale=locale)
    page.wait_for_selector("#new-game")
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.inner_text("#new-game h2") == home
    assert page.input_value("#language") == lang
    page.goto(server + created["seats"][0]["link"])
    page.wait_for_selector(".game")
    assert page.evaluate("document.documentElement.lang") == lang
    assert platter in (page.text_content("#dice") or "")
    assert serious_accessibility_problems(page) == []
    page.goto(server + "/rules?game=tres-fute")
    page.wait_for_selector(".rules-area")
    assert page.inner_text("h1") == rules
    assert serious_accessibility_problems(page) == []
    assert errors == []
    page.context.close()


def test_the_headers_choice_is_remembered_by_the_page_and_the_api(browser: Any, server: str) -> None:
    """A French browser that chooses German in the header gets German from then on, on every page
    and in the API's refusals, though its browser still asks for French."""
    page, errors = open_page(browser, server + "/", locale="fr-FR")
    page.wait_for_selector("#new-game")
    with page.expect_navigation():
        page.select_option("#language", "de")
    page.wait_for_selector("#new-game")
    assert page.inner_text("#new-game h2") == "Neue Partie"
    page.goto(server + "/rules")
    page.wait_for_selector(".rules-area")
    assert page.inner_text("h1") == "Regeln von Ganz schön clever"
    refused = page.context.request.get(server + "/api/games/nosuchgame")  # no ?lang=: the cookie speaks
    assert refused.status == 404 and refused.json() == {"error": "diese Partie gibt es nicht"}
    assert errors == []
    page.context.close()


def test_a_game_page_loads_its_own_modules_compressed_and_a_repeat_visit_hits_the_cache(
    browser: Any, server: str
) -> None:
    """First load: every script compressed (Content-Encoding), none of the other pages' modules
    (the progress page's, the rules page's, the home page's). Repeat visit: the scripts come from
    the browser's cache (or a 304), not sent again."""
    created = call(server, "/api/games", {"game": "vraiment-tres-fute", "seats": [{"name": "Ana"}]})
    link = server + created["seats"][0]["link"]
    page, errors = open_page(browser, "about:blank")
    visits: list[list[tuple[str, int, bool, str | None]]] = []
    for _ in range(2):
        page = page.context.new_page()
        cdp = page.context.new_cdp_session(page)
        cdp.send("Network.enable")
        seen: list[tuple[str, int, bool, str | None]] = []

        def received(event: dict[str, Any], seen: list[tuple[str, int, bool, str | None]] = seen) -> None:
            response = event["response"]
            headers = {name.lower(): value for name, value in response["headers"].items()}
            cached = bool(response.get("fromDiskCache") or response.get("fromMemoryCache"))
            seen.append((response["url"], response["status"], cached, headers.get("content-encoding")))

        cdp.on("Network.responseReceived", received)
        page.goto(link)
        page.wait_for_selector(".game")
        page.wait_for_load_state("networkidle")
        visits.append(seen)
        page.close()
    first, repeat = ([s for s in seen if s[0].endswith(".js")] for seen in visits)
    loaded = {url.rsplit("/", 1)[1] for url, *_ in first}
    assert {"main.js", "game.js", "sheet.js", "dice.js"} <= loaded
    assert not loaded & {"progress.js", "chart.js", "rules.js", "home.js", "review.js"}
    assert all(status == 200 and encoding == "gzip" for _url, status, _cached, encoding in first), first
    assert repeat and all(cached or status == 304 for _url, status, cached, _encoding in repeat), repeat
    assert errors == []
    page.context.close()

"""The page's menus in Chromium, built from the server's one list (``/api/choices``): a language, a
computer player and a rules option added to the registry alone show in the page (issue 75); the
page says when the strong player was not trained under the rules chosen."""

from __future__ import annotations

from typing import Any

import pytest

from test_registry import FAKE_OPTION, fake_registry  # noqa: F401  (the fixture)

from browser import open_page, require_chromium

require_chromium()
pytestmark = pytest.mark.slow  # a browser looks at the page: left out by pytest -m "not slow"
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")


@pytest.mark.usefixtures("fake_registry")
def test_the_home_page_offers_what_the_registry_declares(browser: Any, server: str) -> None:
    page, errors = open_page(browser, server + "/", locale="en-US")
    page.wait_for_selector("#new-game")
    languages = page.eval_on_selector_all("#language option", "os => os.map((o) => [o.value, o.textContent])")
    assert languages == [["fr", "Français"], ["en", "English"], ["de", "Deutsch"], ["it", "Italiano"]]
    games = page.eval_on_selector_all("#game-choice option", "os => os.map((o) => [o.value, o.textContent])")
    assert games == [["tres-fute", "That's Pretty Clever!"], ["vraiment-tres-fute", "Twice as Clever!"]]
    page.select_option("#players", "2")
    kinds = page.eval_on_selector_all(".seat-kind[data-seat='1'] option", "os => os.map((o) => o.value)")
    assert kinds == ["", "careful", "strong-win", "strong", "greedy", "random"]
    assert page.locator(".seat-kind[data-seat='1']").input_value() == "strong-win"
    page.click("#new-game .options summary")
    assert page.locator(".rule-option").count() == 0  # Très futé has no rules options
    page.select_option("#game-choice", "vraiment-tres-fute")
    assert page.locator("#rule-fake_rule").is_checked()  # its default
    assert FAKE_OPTION.label in page.inner_text("#new-game .options")
    assert page.locator("#untrained-rules").count() == 0
    page.uncheck("#rule-reprise_with_no_die_left")  # a reading the strong player was trained under
    assert page.locator("#untrained-rules").count() == 0
    page.uncheck("#rule-fake_rule")  # one it was not
    page.wait_for_selector("#untrained-rules")
    assert "not trained for these rules" in page.inner_text("#untrained-rules")
    page.select_option(".seat-kind[data-seat='1']", "greedy")  # no strong player at the table: nothing to say
    assert page.locator("#untrained-rules").count() == 0
    assert errors == []
    page.context.close()

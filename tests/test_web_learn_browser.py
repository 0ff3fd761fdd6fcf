"""Learning to play, in Chromium: the rules page draws each area with the sheet's own
components in French and in English, and a guided solo game explains the roll, choosing a die
and the platter as they first happen, each once, until the player leaves the guide."""

from __future__ import annotations

import re
from typing import Any

import pytest

from browser import (
    open_page,
    play_by_clicks,
    require_chromium,
    revision,
    serious_accessibility_problems,
    start_game,
    wait_for_change,
)

require_chromium()
pytestmark = pytest.mark.slow  # a browser plays: left out by pytest -m "not slow"
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

PHONE = (390, 844)
AREAS = {"tres-fute": "ygbop", "vraiment-tres-fute": "sybgk"}
TITLES = {
    ("fr", "tres-fute"): "Règles de Très futé",
    ("en", "tres-fute"): "Rules of That's Pretty Clever!",
    ("fr", "vraiment-tres-fute"): "Règles de Vraiment très futé",
    ("en", "vraiment-tres-fute"): "Rules of Twice as Clever!",
}


def _in_language(browser: Any, url: str, lang: str, size: tuple[int, int] = (1366, 900)) -> tuple[Any, list[str]]:
    page, errors = open_page(browser, url, *size)
    page.evaluate(f"localStorage.setItem('tresfute.lang', '{lang}')")
    page.reload()
    return page, errors


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("game", ["tres-fute", "vraiment-tres-fute"])
def test_the_rules_page_draws_each_area_with_the_sheets_components(
    browser: Any, server: str, game: str, lang: str
) -> None:
    page, errors = _in_language(browser, f"{server}/rules?game={game}", lang, PHONE)
    page.wait_for_selector(".rules-area")
    assert page.inner_text("h1") == TITLES[(lang, game)]
    for letter in AREAS[game]:
        area = page.locator(f".rules-area[data-area='{letter}']")
        assert area.locator(f"section.area-{letter}").count() == 1  # the sheet's own Area, in its colour
        assert area.locator(".cell, .box").count() >= 10 and area.locator("svg").count() >= 1
        assert area.locator("button").count() == 0  # read-only: no target
    assert page.locator("#rules-turn .dice .die").count() == 6  # the dice tray's example
    assert page.locator("#rules-turn .dice-platter .die").count() == 2
    assert page.locator("#rules-bonuses svg.bonus").count() >= 4 and page.locator(".rounds li").count() == 6
    text = page.inner_text("body")
    assert ("Comment la remplir" in text) == (lang == "fr") and ("How to fill it" in text) == (lang == "en")
    assert not re.search(r"\b(null|undefined|NaN)\b", text)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE[0], f"{width} px wide on a phone"
    if lang == "fr":
        wrong = [m.group(0) for m in re.finditer(r".[:;!?](?=\s|$)", text) if m.group(0)[0] not in "\u00a0\u202f"]
        assert wrong == [], wrong
    assert errors == []
    page.context.close()


def test_the_rules_are_linked_from_home_and_from_a_game(browser: Any, server: str) -> None:
    page, errors = open_page(browser, server + "/")
    page.wait_for_selector("#new-game")
    page.click("#rules-link")
    page.wait_for_selector(".rules-area")
    assert page.url.endswith("/rules")
    page.click(".rules-games a:not([aria-current])")
    page.wait_for_selector(".rules[data-game='vraiment-tres-fute']")
    assert errors == []
    page.context.close()


def test_the_rules_page_has_no_serious_accessibility_problem(browser: Any, server: str) -> None:
    page, _ = open_page(browser, f"{server}/rules?game=vraiment-tres-fute")
    page.wait_for_selector(".rules-area")
    assert serious_accessibility_problems(page) == []
    page.context.close()


def _tip(page: Any) -> str | None:
    """The tip shown, read in one go (counted, then read, it could go between the two reads)."""
    return page.evaluate("() => document.querySelector('#guide .guide-tip')?.dataset.step ?? null")


def _read_unless_platter(page: Any) -> str | None:
    """The tip shown, "Got it" pressed on it unless it is the platter's, in one go: read, then
    pressed, the platter's tip could come between the two and be pressed away unseen (it failed
    so in CI, at the normal pace)."""
    return page.evaluate(
        """() => {
        const step = document.querySelector('#guide .guide-tip')?.dataset.step ?? null;
        if (step !== null && step !== 'platter') document.querySelector('#guide-ok').click();
        return step;
      }"""
    )


def _dismiss(page: Any) -> None:
    """Every tip of the queue read ("Next tip", then "Got it"): the panel waits idle."""
    for _ in range(12):
        if not page.locator("#guide-ok").count():
            return
        page.click("#guide-ok")
    raise AssertionError("the tips do not end")


def _choose_the_highest_die(page: Any) -> None:
    """The roll's highest die on its first cell: the lower dice go to the platter."""
    before = revision(page)
    dice = page.locator("#dice .dice-hand .die.playable")
    values = [int(dice.nth(i).locator(".value").inner_text()) for i in range(dice.count())]
    dice.nth(values.index(max(values))).click()
    page.locator(".own-sheet button.target").first.click()
    if page.locator(".chooser button[data-move]").count():
        page.locator(".chooser button[data-move]").first.click()
    assert wait_for_change(page, before)


def test_a_guided_solo_game_explains_each_step_once_until_left(browser: Any, server: str) -> None:
    page, errors = open_page(browser, server + "/", *PHONE)
    page.wait_for_selector("#new-game")
    assert page.is_checked("#guided"), "a browser that never played: the guide by default"
    page.click("#start")
    page.wait_for_selector("#guide .guide-tip[data-step='roll']")
    guide, dice, sheet = (page.locator(s).bounding_box() for s in ("#guide", "#dice", ".own-sheet"))
    assert guide and dice and sheet
    assert guide["y"] + guide["height"] <= dice["y"] <= PHONE[1]  # in the flow, above the dice: it covers nothing
    assert page.get_attribute("#guide", "role") == "status"

    before = revision(page)
    page.click("#moves .move-roll")
    assert wait_for_change(page, before)
    assert _tip(page) == "choose"
    _dismiss(page)
    for _ in range(30):  # a roll of six equal dice sends none to the platter: on to the next pick
        if page.locator("#dice .dice-hand .die.playable").count():
            _choose_the_highest_die(page)
        else:
            play_by_clicks(page)
        if _tip(page) == "platter":
            break
    assert _tip(page) == "platter"
    _dismiss(page)

    shown = []
    for _ in range(8):  # the rest of the first turn and more: no tip comes twice
        play_by_clicks(page)
        if _tip(page):
            shown.append(_tip(page))
            _dismiss(page)
    assert not {"roll", "choose", "platter"} & set(shown), shown
    assert len(shown) == len(set(shown)), shown

    page.click("#guide-leave")
    assert page.locator("#guide").count() == 0
    page.reload()
    page.wait_for_selector(".game")
    play_by_clicks(page)
    assert page.locator("#guide").count() == 0, "left for good, after a reload too"
    page.goto(server + "/")
    page.wait_for_selector("#new-game")
    assert not page.is_checked("#guided"), "a browser with a game: the guide is offered, not ticked"
    assert errors == []
    page.context.close()


def _choose_a_middle_die(page: Any) -> None:
    """A die of middle value on its first cell: the lower dice go to the platter, the higher stay
    for the next roll (the turn goes on)."""
    before = revision(page)
    dice = page.locator("#dice .dice-hand .die.playable")
    values = [int(dice.nth(i).locator(".value").inner_text()) for i in range(dice.count())]
    dice.nth(values.index(sorted(values)[len(values) // 2])).click()
    page.locator(".own-sheet button.target").first.click()
    if page.locator(".chooser button[data-move]").count():
        page.locator(".chooser button[data-move]").first.click()
    assert wait_for_change(page, before)


def _platter_tip_over_own_dice(page: Any) -> bool:
    """No platter tip, or one over the seat's own platter with dice on it: read in one go, from one
    rendering (read piece by piece, a render between two reads mixed two views; it failed once in CI)."""
    return bool(
        page.evaluate(
            """() => {
            const tip = document.querySelector("#guide .guide-tip");
            if (!tip || tip.dataset.step !== "platter") return true;
            const platter = document.querySelector("#dice .dice-platter");
            if (!platter) return false;
            const title = platter.querySelector("h3").textContent.trim().toLowerCase();
            return platter.querySelectorAll(".die").length > 0 && title === "plateau d’argent";
          }"""
        )
    )


def test_the_platter_tip_never_stays_over_an_empty_platter(browser: Any, server: str) -> None:
    """The silver platter's tip, left unread, goes once its step is over: never shown over an
    empty platter, nor over the computer's platter in its turn after ours."""
    page, errors = open_page(browser, server + "/", *PHONE)
    page.wait_for_selector("#new-game")
    page.evaluate("localStorage.setItem('tresfute.pace', 'normal')")  # the computer's steps shown one by one
    start_game(page, "tres-fute", [("", "Ana"), ("greedy", "Robot")])
    page.wait_for_selector("#guide .guide-tip[data-step='roll']")
    page.click("#moves .move-roll")
    tips: list[str | None] = []  # the tips met on the way, for the failure's message
    for _ in range(80):  # to the platter's tip, the others read; the platter's left up
        tips.append(_read_unless_platter(page))
        if tips[-1] == "platter":
            break
        if tips[-1] is not None:
            continue  # read
        if page.locator("#dice .dice-hand .die.playable").count():
            _choose_a_middle_die(page)
        elif not play_by_clicks(page):  # the computer's turn, shown step by step: wait, not count it out
            page.wait_for_timeout(400)
    assert _tip(page) == "platter", f"no platter tip; the tips met: {tips}"
    seen_gone = False
    for _ in range(24):  # our turn goes on, the computer's comes: the tip only ever over our platter's dice
        assert _platter_tip_over_own_dice(page), "the platter's tip over an empty platter, or another's"
        seen_gone = seen_gone or _tip(page) != "platter"
        if not play_by_clicks(page):
            page.wait_for_timeout(400)
    assert seen_gone, "the platter's tip stayed up for good"
    assert errors == []
    page.context.close()

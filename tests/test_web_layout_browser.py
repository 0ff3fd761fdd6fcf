"""Issue 73 items 1 and 2, a table on any screen, in Chromium: on a phone and a tablet, in every
phase of both games, the dice to choose, the platter and the buttons of the moment are on screen
with no scrolling (not cut off by the fixed panel nor covered), the chosen die's cells come just
under the panel, a rules option's reminder sits behind an "i" shown only while it applies; the
other players' names, totals and area scores are in view on a phone and on a laptop while the
seat plays and while they play, their last mark's area ringed, a click opening their sheet."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from browser import Viewer, call, require_chromium, seat_view

require_chromium()
pytestmark = pytest.mark.slow  # a browser plays and looks at pages: left out by pytest -m "not slow"
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

PHONES = [(360, 740), (390, 844), (414, 896)]
TABLET = (768, 1024)
LAPTOP = (1366, 768)
GAMES = ["tres-fute", "vraiment-tres-fute"]
ROBOTS = [{"bot": "greedy", "name": "Robot"}, {"bot": "greedy", "name": "Bea"}]


def _kinds(view: dict[str, Any]) -> set[str]:
    return {m["kind"] for m in view.get("legal") or []}


def _reprise_left(view: dict[str, Any]) -> bool:
    state = view["state"]
    left = state["sheets"][0]["actions"].get("reprise", {}).get("available", 0)
    return state["active"] == 0 and not state["solo_passive_turn"] and left > 0 and "roll" in _kinds(view)


# Each phase of a seat's turn, as the view says it (the seat is seat 0).
PHASES: dict[str, Callable[[dict[str, Any]], bool]] = {
    "roll": lambda v: v["state"]["active"] == 0 and "roll" in _kinds(v) and not v["state"]["solo_passive_turn"],
    "pick": lambda v: v["state"]["active"] == 0 and v["state"]["phase"] == "choose" and "pick" in _kinds(v),
    "passive": lambda v: (v["state"]["active"] != 0 or v["state"]["solo_passive_turn"]) and "pick" in _kinds(v),
    "bonus": lambda v: bool(v["pending"][0]),
    "extra": lambda v: "extra" in _kinds(v),
    "reprise": lambda v: "reprise" in _kinds(v),
}


def _drive(
    server: str, seats: list[dict[str, Any]], game: str, wanted: Callable[[dict[str, Any]], bool], **more: Any
) -> str:
    """A seat link to a game of ``game`` (the seat first) played by random legal moves, the
    computers' too, until the seat's view is ``wanted``: the phase it stands in."""
    for seed in range(8):
        rng = random.Random(seed)
        created = call(server, "/api/games", {"game": game, "seats": seats, **more})
        token, link = created["seats"][0]["token"], created["seats"][0]["link"]
        for _ in range(400):
            view = seat_view(server, created["id"], token)
            if view["over"]:
                break
            if wanted(view):
                return link
            move = rng.choice(view["legal"])["move"]
            call(server, f"/api/games/{created['id']}/act", {"move": move, "seq": view["seq"]}, token=token)
    raise AssertionError("the phase never came")


@pytest.fixture(scope="module")
def links(server: str) -> Callable[[str, str, str], str]:
    """A seat link to a game in a phase, made once a module: (game, "table" or "solo", phase)."""
    made: dict[tuple[str, str, str], str] = {}

    def link(game: str, table: str, phase: str) -> str:
        if (game, table, phase) not in made:
            seats = [{"name": "Anne"}, *(ROBOTS if table == "table" else [])]
            made[game, table, phase] = server + _drive(server, seats, game, PHASES[phase])
        return made[game, table, phase]

    return link


def _open(
    browser: Any, url: str, size: tuple[int, int], pace: str = "instant", guided: bool = False, locale: str = "en-GB"
) -> Any:
    """The page at ``url`` at ``size`` in ``locale``, the others' moves shown at ``pace``
    (``guided``: with a first game's guide), its errors kept on it (``page.errors``)."""
    return Viewer(browser, size, pace=pace, guided=guided, locale=locale).show(url)


# Each element of ``selector`` as it stands: on screen, drawn there (not cut off by the fixed
# panel's own scroll nor covered: the element at its centre is it), and the page unscrolled.
IN_VIEW = """(selector) => [...document.querySelectorAll(selector)].map((e) => {
  const r = e.getBoundingClientRect();
  const at = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return { what: e.id || e.className || e.tagName, top: r.top, bottom: r.bottom, left: r.left, right: r.right,
    inside: r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth && r.height > 0,
    drawn: !!at && (e === at || e.contains(at)) };
})"""


# The first element of ``selector`` is on screen and drawn there.
SEEN = """(selector) => { const e = document.querySelector(selector); if (!e) return false;
  const r = e.getBoundingClientRect();
  const at = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return r.top >= 0 && r.bottom <= innerHeight && !!at && e.contains(at); }"""


def _in_view(page: Any, selector: str) -> list[dict[str, Any]]:
    found = page.evaluate(IN_VIEW, selector)
    assert found, f"nothing matches {selector}"
    return [f for f in found if not (f["inside"] and f["drawn"])]


def _settled(page: Any) -> None:
    page.wait_for_selector(".game:not([aria-busy])")
    page.wait_for_function("() => !document.querySelector('#step-text')")
    page.evaluate(DRAWN)  # whatever the last state moved is laid out and painted


# The fonts in, then two frames drawn.
DRAWN = """() => document.fonts.ready.then(
  () => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn))))"""


@pytest.mark.parametrize("size", [*PHONES, TABLET], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", GAMES)
def test_every_phase_shows_the_dice_the_platter_and_the_buttons_with_no_scrolling(
    browser: Any, links: Callable[[str, str, str], str], game: str, size: tuple[int, int]
) -> None:
    """Your roll, your picks, your passive pick (at a table, and alone in Vraiment très futé),
    a bonus, a +1, a reprise: what you may choose and the buttons of the moment are on screen at
    once, none of them inside the panel's own scroll; a chosen die's cells come into view under
    the panel, which stays."""
    phases = [phase for phase in PHASES if phase != "reprise" or game == "vraiment-tres-fute"]  # Très futé has none
    cases = [("table", phase) for phase in phases] + ([("solo", "passive")] if game == "vraiment-tres-fute" else [])
    viewer = Viewer(browser, size, locale="en-GB")
    for table, phase in cases:
        page = viewer.show(links(game, table, phase))
        _settled(page)
        where = f"{game} {table} {phase} {size}"
        assert page.evaluate("scrollY") == 0 and page.evaluate("document.querySelector('.play-panel').scrollTop") == 0
        assert page.locator("#moves button").count(), where
        assert _in_view(page, "#moves .primary button, .controls .tools button, #moves .move-list summary") == [], where
        assert _in_view(page, "#dice, .dice-platter") == [], where
        if page.locator("#dice .die.playable").count():
            assert _in_view(page, "#dice .die.playable") == [], where
            page.locator("#dice .die.playable").first.click()
            page.wait_for_function(SEEN, arg=".own-sheet button.target", timeout=5000)  # in view, not under the panel
            assert _in_view(page, "#dice .die.selected") == [], f"{where}: the panel left the screen"
        assert page.errors == [], where
    viewer.close()


@pytest.mark.parametrize("size", PHONES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_first_games_guide_leaves_the_dice_and_the_buttons_in_view_on_a_phone(
    browser: Any, links: Callable[[str, str, str], str], size: tuple[int, int]
) -> None:
    """A new player's guide explains the step above the dice, at a table of three: its tip, the
    dice, the platter and the buttons are all on the first screen."""
    viewer = Viewer(browser, size, locale="en-GB", guided=True)
    for phase in ("roll", "pick", "passive"):
        page = viewer.show(links("vraiment-tres-fute", "table", phase))
        _settled(page)
        page.wait_for_selector("#guide .guide-tip")
        where = f"guided {phase} {size}"
        assert _in_view(page, "#guide .guide-tip, #dice, .dice-platter, .others-strip button.other") == [], where
        assert _in_view(page, "#moves .primary button, .controls .tools button, #guide-ok") == [], where
        assert page.errors == [], where
    viewer.close()


def test_a_rules_options_reminder_is_behind_an_i_only_while_it_applies(browser: Any, server: str) -> None:
    """Not at a game's first roll, nor while another player plays; with a reprise to use, a
    small "i" opens the option's words (the strict reading's, in that game)."""
    phone = PHONES[0]
    strict = {"reprise_with_no_die_left": False}
    first = _drive(server, [{"name": "Anne"}], "vraiment-tres-fute", PHASES["roll"], rules=strict)
    page = _open(browser, server + first, phone)
    _settled(page)
    assert page.locator("#rules-info").count() == 0 and page.locator("#rules-tag").count() == 0, "nothing applies yet"
    page.context.close()
    with_reprise = _drive(server, [{"name": "Anne"}], "vraiment-tres-fute", _reprise_left, rules=strict)
    page = _open(browser, server + with_reprise, phone)
    _settled(page)
    assert _in_view(page, "#rules-info summary") == []
    assert not page.locator("#rules-tag").is_visible(), "folded until asked"
    page.click("#rules-info summary")
    assert page.locator("#rules-tag").is_visible()
    assert "No die left to roll: the turn ends, reprise or not" in page.inner_text("#rules-tag")
    assert page.errors == []
    page.context.close()


OTHERS = """() => [...document.querySelectorAll('.others-strip button.other')].map((b) => ({
  player: Number(b.dataset.player), name: b.querySelector('.other-name').textContent,
  total: b.querySelector('.other-total').textContent,
  areas: Object.fromEntries([...b.querySelectorAll('.other-area')].map((a) => [a.dataset.area, a.textContent.trim()])),
  last: [...b.querySelectorAll('.other-area.last')].map((a) => a.dataset.area) }))"""


def _check_strip(page: Any, view: dict[str, Any], where: str) -> list[dict[str, Any]]:
    """The strip's lines, each visible, with the player's name, total and area scores."""
    assert _in_view(page, ".others-strip button.other") == [], where
    lines = page.evaluate(OTHERS)
    assert sorted(line["player"] for line in lines) == [i for i in range(len(view["seats"])) if i != view["you"]]
    for line in lines:
        seat = line["player"]
        score = view["state"]["sheets"][seat]["score"]
        assert line["name"] == view["seats"][seat]["name"], where
        assert line["total"] == str(score["total"]), where
        assert line["areas"] == {k: str(v or 0) for k, v in score["areas"].items()}, where
    return lines


@pytest.mark.parametrize("size", [*PHONES, TABLET, LAPTOP], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_others_are_in_view_while_you_play_and_while_they_play(
    browser: Any, server: str, links: Callable[[str, str, str], str], size: tuple[int, int]
) -> None:
    """While you play: each other player's name, total and area scores in view. While they play
    (shown move by move): the same, their last mark's area ringed; a click opens their sheet,
    Escape closes it."""
    url = links("vraiment-tres-fute", "table", "pick")
    page = _open(browser, url, size)
    _settled(page)
    token = url.split("#seat=")[1]
    game_id = url.split("/g/")[1].split("#")[0]
    _check_strip(page, call(server, f"/api/games/{game_id}", token=token), f"your pick {size}")
    page.context.close()
    # they play first: the page opens on their moves, shown one at a time
    created = call(server, "/api/games", {"game": "vraiment-tres-fute", "seats": [*ROBOTS, {"name": "Anne"}]})
    anne = created["seats"][2]
    page = _open(browser, server + anne["link"], size, pace="slow")
    page.wait_for_selector(".others-strip .other-area.last", timeout=20_000)
    assert page.locator("#step-text").count() == 1, "while another player's move is shown"
    assert _in_view(page, ".others-strip .other-area.last, #dice") == []
    acting = page.evaluate("document.querySelector('.others-strip .other-area.last').closest('button').dataset.player")
    assert page.locator(f".others-strip button.other[data-player='{acting}']").count() == 1
    page.click("#skip")
    _settled(page)
    view = call(server, f"/api/games/{created['id']}", token=anne["token"])
    _check_strip(page, view, f"their turn {size}")
    page.click(".others-strip button.other[data-player='0']")
    dialog = page.locator("dialog#other-sheet .sheet[data-player='0']")
    dialog.wait_for()
    assert dialog.is_visible() and "Robot" in dialog.locator(".sheet-head").inner_text()
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog#other-sheet", state="detached")
    assert page.errors == []
    page.context.close()


def test_the_others_last_marks_stay_ringed_while_you_play(browser: Any, server: str) -> None:
    """Zed (a person, played here through the API) ends his turn; while Anne makes her passive
    pick, and after it, Zed's last marks stay ringed on the strip (the page's own last changes
    are Anne's alone by then)."""
    created = call(server, "/api/games", {"game": "vraiment-tres-fute", "seats": [{"name": "Anne"}, {"name": "Zed"}]})
    anne, zed = (seat["token"] for seat in created["seats"])
    page = _open(browser, server + created["seats"][0]["link"], PHONES[1])
    url = f"/api/games/{created['id']}"
    for _ in range(200):  # both play their first legal move (a mark where there is one) until Zed's turn is over
        views = {token: call(server, url, token=token) for token in (anne, zed)}
        if views[anne]["state"]["active"] == 1 and views[anne]["legal"] and not views[zed]["legal"]:
            break
        token = anne if views[anne]["legal"] else zed
        legal = views[token]["legal"]
        move = next((m for m in legal if m["area"]), legal[0])
        call(server, f"{url}/act", {"move": move["move"], "seq": views[token]["seq"]}, token=token)
    else:
        raise AssertionError("Anne's passive pick never came")
    page.wait_for_function(
        "(r) => document.querySelector('.game').dataset.revision === r", arg=str(views[anne]["revision"])
    )
    _settled(page)
    ringed = page.evaluate(OTHERS)[0]["last"]
    assert ringed, "Zed's last marks"
    before = page.locator(".game").get_attribute("data-revision")
    page.locator("#dice .die.playable").first.click()
    page.locator(".own-sheet button.target").first.click()
    if page.locator(".chooser button[data-move]").count():
        page.locator(".chooser button[data-move]").first.click()
    page.wait_for_function("(r) => document.querySelector('.game').dataset.revision !== r", arg=before)
    assert page.evaluate(OTHERS)[0]["last"] == ringed, "still Zed's, after Anne's own move"
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize("game", GAMES)
def test_on_a_laptop_the_game_log_stays_in_the_panel_in_every_phase(
    browser: Any, links: Callable[[str, str, str], str], game: str
) -> None:
    """At 1366×768, at a table, in every phase (four reprises to choose from included): the
    buttons of the moment, the others' strip and the game log (its title and its newest line)
    are all in the left column's first screen, none of them cut off by the panel's own scroll."""
    phases = [phase for phase in PHASES if phase != "reprise" or game == "vraiment-tres-fute"]
    viewer = Viewer(browser, LAPTOP, locale="en-GB")
    for phase in phases:
        page = viewer.show(links(game, "table", phase))
        _settled(page)
        where = f"{game} {phase}"
        panel = page.evaluate(
            "(() => { const p = document.querySelector('.play-panel');"
            " return [p.scrollTop, p.scrollHeight - p.clientHeight]; })()"
        )
        assert panel[0] == 0 and panel[1] <= 1, f"{where}: the panel scrolls by {panel[1]} px"
        assert _in_view(page, "#moves .primary button, .controls .tools button, .others-strip button.other") == [], (
            where
        )
        assert _in_view(page, ".game-log h3, #pace") == [], where
        if page.locator("#game-log li").count():
            assert _in_view(page, "#game-log li:last-child") == [], where
        if phase == "reprise":  # each die to take back a small button: its face and name, the move's words its name
            said = page.eval_on_selector_all(
                "#moves .move-reprise", "bs => bs.map((b) => [b.textContent.trim(), b.getAttribute('aria-label')])"
            )
            assert said and all(label.startswith("Reprise") and shown in label for shown, label in said), said
        assert page.errors == [], where
    viewer.close()


# Each dice group's title that does not show whole (cut short, or a word wider than its group).
CUT_TITLES = """() => [...document.querySelectorAll('#dice .dice-group h3')].filter((h) =>
  h.scrollWidth > h.clientWidth + 1 || h.scrollHeight > h.clientHeight + 1).map((h) => h.textContent)"""


@pytest.mark.parametrize("size", PHONES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_on_a_phone_the_dice_groups_titles_show_whole(
    browser: Any, links: Callable[[str, str, str], str], size: tuple[int, int]
) -> None:
    """ "Dice chosen by Robot", "Silver platter of Robot", in French and German too: each title
    whole over its dice (on two lines where it must), never cut short to "DÉS C…"."""
    for locale in ("fr-FR", "de-DE", "en-GB"):
        viewer = Viewer(browser, size, locale=locale)
        for table, phase in (("table", "roll"), ("table", "pick"), ("table", "passive"), ("solo", "passive")):
            page = viewer.show(links("vraiment-tres-fute", table, phase))
            _settled(page)
            assert page.evaluate(CUT_TITLES) == [], f"{locale} {table} {phase}"
            assert _in_view(page, "#dice, #moves .primary button, .controls .tools button") == [], f"{locale} {phase}"
            assert page.errors == []
        viewer.close()


# Each area's points badge whose words take more than one line.
WRAPPED_POINTS = """() => [...document.querySelectorAll('.own-sheet .area .points')].filter((e) => {
  const range = document.createRange();
  range.selectNodeContents(e);
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
}).map((e) => e.textContent)"""


@pytest.mark.parametrize("game", GAMES)
def test_on_a_small_phone_each_areas_points_keep_to_one_line(browser: Any, server: str, game: str) -> None:
    """At 360 px, in English, French and German, "0 points" beside "YELLOW" stays on one line."""
    created = call(server, "/api/games", {"game": game, "seats": [{"name": "Anne"}, *ROBOTS]})
    for locale in ("en-GB", "fr-FR", "de-DE"):
        page = _open(browser, server + created["seats"][0]["link"], PHONES[0], locale=locale)
        _settled(page)
        assert page.evaluate(WRAPPED_POINTS) == [], locale
        assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth"), locale
        assert page.errors == []
        page.context.close()

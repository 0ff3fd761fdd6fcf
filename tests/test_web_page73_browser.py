"""Issue 73's page, in Chromium: every bonus told apart without colour (its area's shape, never
under the cross), the blue points ladder on one line on a phone, an ``<h1>`` on every page and
each sheet's regions named with their player, and the words: a first game with no name speaks to
"you", the log says one event one way (live and after a reload, the die's value kept), the
options' boxes beside their words, the challenge's buttons, the rules' roll, the review's title
and practice, no fox tip once the game is over."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from browser import (
    call,
    open_page,
    play_by_clicks,
    require_chromium,
    seat_view,
    serious_accessibility_problems,
)

require_chromium()
pytestmark = pytest.mark.slow  # a browser plays and looks at pages: left out by pytest -m "not slow"
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

# Each entry bonus of the page: its area (the shape's class), the shape's drawing, and where the
# shape and the cross (or number) lie in the picture.
ENTRY_BONUSES = """() => [...document.querySelectorAll('.own-sheet svg.bonus')].map((svg) => {
  const shape = svg.querySelector('.bonus-shape');
  const sign = svg.querySelector('.bonus-sign');
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return { name: svg.getAttribute('aria-label'),
    area: shape ? [...shape.classList].find((c) => c.startsWith('mark-')) : null,
    drawing: shape ? shape.innerHTML : null, shape: shape ? box(shape) : null, sign: sign ? box(sign) : null,
    whole: box(svg) };
})"""


def new_game(server: str, game: str, names: list[str], bots: int = 0) -> str:
    seats = [{"name": n} for n in names] + [{"bot": "greedy", "name": f"Bot {i + 1}"} for i in range(bots)]
    created = call(server, "/api/games", {"game": game, "seats": seats})
    return server + created["seats"][0]["link"]


@pytest.mark.parametrize("game", ["tres-fute", "vraiment-tres-fute"])
def test_every_bonus_is_told_apart_without_colour(browser: Any, server: str, game: str) -> None:
    """Each entry bonus carries its area's shape, large and clear of its cross or number, each
    area a shape of its own; in greyscale every bonus still looks unlike every other."""
    page, errors = open_page(browser, new_game(server, game, ["Anne"]))
    page.wait_for_selector(".own-sheet svg.bonus")
    layout = call(server, f"/api/layout/{game}?lang=fr")
    named = [a.get("row_bonuses", []) + a.get("column_feet", []) + [a.get("diagonal")] for a in layout["areas"]]
    named += [[box.get("bonus") for box in a.get("boxes") or []] for a in layout["areas"]]
    entry_names = {b["name"] for group in named for b in group if b and b.get("picture", {}).get("kind") == "entry"}
    bonuses = page.evaluate(ENTRY_BONUSES)
    entries = [b for b in bonuses if b["name"] in entry_names]
    assert {b["name"] for b in entries} == entry_names
    assert entries and all(b["area"] for b in entries), [b["name"] for b in entries if not b["area"]]
    drawings: dict[str, set[str]] = {}
    for b in entries:
        drawings.setdefault(b["area"], set()).add(b["drawing"])
        left, top, right, bottom = b["shape"]
        whole = b["whole"]
        assert right - left >= 0.3 * (whole[2] - whole[0]), b  # large enough to be seen (was under a quarter)
        s_left, s_top, s_right, s_bottom = b["sign"]
        overlap = max(0.0, min(right, s_right) - max(left, s_left)) * max(0.0, min(bottom, s_bottom) - max(top, s_top))
        assert overlap <= 0.05 * (right - left) * (bottom - top), b  # the cross never covers the shape
    assert all(len(d) == 1 for d in drawings.values())  # one shape an area
    assert len({next(iter(d)) for d in drawings.values()}) == len(drawings)  # a shape of its own
    # greyscale: each kind of bonus (its name) looks different from every other
    page.evaluate("() => { document.documentElement.style.filter = 'grayscale(1)'; }")
    looks: dict[bytes, str] = {}
    for name in sorted({b["name"] for b in entries}):
        shot = page.locator(f'.own-sheet svg.bonus[aria-label="{name}"]').first.screenshot()
        assert shot not in looks, (name, looks.get(shot))
        looks[shot] = name
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("width,height", [(360, 740), (390, 844)])
def test_the_blue_points_ladder_keeps_to_one_line_on_a_phone(
    browser: Any, server: str, width: int, height: int
) -> None:
    page, errors = open_page(browser, new_game(server, "tres-fute", ["Anne"]), width=width, height=height)
    page.wait_for_selector(".own-sheet .area-b .ladder span")
    tops = page.eval_on_selector_all(
        ".own-sheet .area-b .ladder span", "spans => spans.map((s) => Math.round(s.offsetTop))"
    )
    assert len(tops) == 11 and len(set(tops)) == 1, tops
    fits = page.eval_on_selector(".own-sheet .area-b .ladder", "l => l.scrollWidth <= l.clientWidth + 1")
    assert fits and page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert errors == []
    page.context.close()


def test_every_page_has_an_h1_and_each_region_names_its_player(browser: Any, server: str) -> None:
    """Home, a game, the rules and the progress page each have one ``<h1>``; at a table each
    sheet's areas are regions named with their player ("Anne — yellow"), no two alike."""
    link = new_game(server, "tres-fute", ["Anne"], bots=1)
    page, errors = open_page(browser, server + "/", locale="en-US")
    for url, ready in [
        (server + "/", "#new-game"),
        (link, ".game"),
        (server + "/rules?game=vraiment-tres-fute", ".rules-area"),
        (server + "/me", "#progress h1"),
    ]:
        page.goto(url)
        page.wait_for_selector(ready)
        assert page.locator("h1").count() == 1, url
        assert (page.locator("h1").text_content() or "").strip(), url  # shown, or read only (the game's name)
    page.goto(link)
    page.wait_for_selector(".others .sheet section.area")
    assert page.locator("h1").text_content() == "That's Pretty Clever!"
    names = page.eval_on_selector_all("section.area", "areas => areas.map((a) => a.getAttribute('aria-label'))")
    assert len(names) == len(set(names)) == 10
    assert "Anne — yellow" in names and "Bot 1 — yellow" in names
    # the seat's own sheet said to "you", as the rest of its page speaks ("You roll: …"), its name kept
    assert page.locator(".own-sheet h2").inner_text() == "Anne (you)"
    assert page.locator(".others h2").first.inner_text().startswith("Bot 1 (")
    assert serious_accessibility_problems(page) == []
    assert errors == []
    page.context.close()


YOU = {  # a first game's own roll, in each language
    "en-US": ("You roll: ", "You: ", "Player 1", "Play today's game:", "Player 1 (you)"),
    "fr-FR": ("Vous lancez\u00a0: ", "Vous\u00a0: ", "Joueur 1", "Jouer la partie du jour\u00a0:", "Joueur 1 (vous)"),
    "de-DE": ("Du würfelst: ", "Du: ", "Spieler 1", "Die Partie von heute spielen:", "Spieler 1 (du)"),
}


def log_lines(page: Any) -> list[str]:
    return [line.strip() for line in page.locator("#game-log li").all_inner_texts()]


@pytest.mark.parametrize("locale", list(YOU))
def test_a_first_game_with_no_name_speaks_to_you_and_its_log_reads_the_same_after_a_reload(
    browser: Any, server: str, locale: str
) -> None:
    """No name typed: the seat is "Player 1" for others, and its own page says "you" (its sheet's
    heading too: "Player 1 (you)"); each event has one wording, live as after a reload, a pick
    with its die's value."""
    roll, own, default, challenge, heading = YOU[locale]
    page, errors = open_page(browser, server + "/", locale=locale)
    page.wait_for_selector("#new-game")
    assert page.input_value(".seat-name") == ""
    assert page.inner_text(".challenge-play") == challenge
    page.click("#start")
    page.wait_for_selector(".game")
    assert page.locator(".own-sheet h2").inner_text() == heading
    for _ in range(6):  # a roll, a pick, a roll, a pick…
        play_by_clicks(page)
    page.wait_for_function("() => document.querySelectorAll('#game-log li').length >= 4")
    page.wait_for_timeout(500)  # the last move's words
    live = log_lines(page)
    assert live[0].startswith(roll), live
    picks = [line for line in live if line.startswith(own)]
    assert picks and all(re.search(r"\d", line.split("→")[0]) for line in picks), picks  # the die's value
    assert not any(default in line or "Me" in line.split() for line in live), live
    page.reload()
    page.wait_for_selector("#game-log li")
    page.wait_for_function("n => document.querySelectorAll('#game-log li').length >= n", arg=len(live))
    assert log_lines(page)[: len(live)] == live
    assert errors == []
    page.context.close()


def test_the_options_boxes_stand_beside_their_words(browser: Any, server: str) -> None:
    """At 1366 px, in English and German, each option's box is on the first line of its words."""
    for locale in ("en-US", "de-DE"):
        page, errors = open_page(browser, server + "/", width=1366, height=768, locale=locale)
        page.wait_for_selector("#new-game")
        page.select_option("#game-choice", "vraiment-tres-fute")
        page.click("#new-game .options summary")
        beside = page.eval_on_selector_all(
            "#new-game label.check",
            """labels => labels.map((label) => {
              const box = label.querySelector('input').getBoundingClientRect();
              const range = document.createRange();
              range.selectNodeContents(label);
              const words = [...range.getClientRects()].filter((r) => r.width > 20);
              return words.length > 0 && words[0].top < box.bottom && words[0].left >= box.right;
            })""",
        )
        assert len(beside) == 4 and all(beside), (locale, beside)
        assert "reprise" not in page.inner_text("#new-game .options").lower()
        assert errors == []
        page.context.close()


def test_the_rules_call_the_dice_rolled_a_roll_in_german(browser: Any, server: str) -> None:
    page, errors = open_page(browser, server + "/rules?game=tres-fute", locale="de-DE")
    page.wait_for_selector(".rules-area")
    text = page.inner_text("#app")
    assert "WÜRFELN" not in text.upper().split() and "Würfeln" not in text.split()
    assert errors == []
    page.context.close()


def test_the_page_words_a_step_and_the_guide_as_the_seat_sees_them(browser: Any, server: str) -> None:
    """The page's own modules: a step of the seat's own said to "you", another's as the server
    words it; "plays during your turn"; no guide tip, the fox's neither, once the game is over."""
    page, errors = open_page(browser, server + "/rules", locale="en-US")
    page.wait_for_selector(".rules-area")
    said = page.evaluate(
        """async () => {
          const game = await import('/static/js/game.js');
          const guide = await import('/static/js/guide.js');
          const roll = { entry: 0, player: null, actor: 0, active: 0, text: 'Anne rolls: yellow 3',
            said: 'yellow 3' };
          const pick = { entry: 1, player: 0, actor: 0, active: 0, text: 'Anne: Yellow 3 → yellow',
            said: 'Yellow 3 → yellow' };
          const over = { you: 0, over: true, legal: [], pending: [[]], state: { active: 0, phase: 'roll',
            picks: 0, dice: [], solo_passive_turn: false, sheets: [{ score: { foxes: 2 } }] } };
          return [game.stepLine(roll, 0).text, game.stepLine(pick, 0).text, game.stepLine(pick, 1).text,
            game.stepLine(pick, null).text, [...guide.stepsNow(over)]];
        }"""
    )
    assert said == [
        "You roll: yellow 3",
        "You: Yellow 3 → yellow",
        "Anne: Yellow 3 → yellow",
        "Anne: Yellow 3 → yellow",
        [],
    ]
    assert errors == []
    page.context.close()


def finished_solo_game(server: str) -> tuple[str, str]:
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


def test_a_finished_game_shows_no_fox_tip_its_log_in_one_wording_and_the_review_speaks_to_you(
    browser: Any, server: str
) -> None:
    game_id, token = finished_solo_game(server)
    page, errors = open_page(browser, f"{server}/g/{game_id}#seat={token}", locale="en-US")
    guided = json.dumps({game_id: {"on": True, "seen": []}})
    page.evaluate("guided => localStorage.setItem('tresfute.guide', guided)", guided)
    page.reload()
    page.wait_for_selector("#end")
    page.wait_for_selector("#game-log li")
    assert page.locator("#guide .guide-tip").count() == 0
    lines = log_lines(page)
    assert lines and not any(line.startswith("Dice:") for line in lines), lines
    page.click("#review-link")
    page.wait_for_selector("#review-title", timeout=180_000)
    assert page.inner_text("#review-title") == "Review of your game"
    review = call(server, f"/api/games/{game_id}/review?lang=en", token=token)
    mistakes = review["labels"]["mistake"] + review["labels"]["blunder"]  # as the labels shown count them
    if mistakes:
        assert page.inner_text("#practise-mistakes") == f"Practise your mistakes and blunders ({mistakes})"
    page.locator(".show-position").first.click()
    page.wait_for_selector("#review-position")
    assert page.locator(".own-sheet h2").inner_text() == "Ana (you)"
    page.goto(f"{server}/g/{game_id}?review=1")
    page.wait_for_selector("#review-title", timeout=60_000)
    assert page.inner_text("#review-title") == "Review of Ana's game"
    assert page.locator("h1").count() == 1
    page.locator(".show-position").first.click()  # another's game: her sheet first, with her name alone
    page.wait_for_selector("#review-position")
    assert page.locator(".own-sheet h2").inner_text() == "Ana"
    assert errors == []
    page.context.close()


def test_the_replays_last_moves_say_each_move_as_the_game_log_does(browser: Any, server: str) -> None:
    """A finished game replayed: its "Last moves" list words each entry as the game's log does
    (one wording an event: "Ana rolls: …", a pick with its die's value), never "Dice: …"."""
    game_id, token = finished_solo_game(server)
    entries = call(server, f"/api/games/{game_id}?at=0")["steps"]
    steps = call(server, f"/api/games/{game_id}/steps?since={entries - 12}&lang=en", token=token)["steps"]
    page, errors = open_page(browser, f"{server}/g/{game_id}?replay", locale="en-US")
    page.wait_for_selector("#replay")
    page.click("#replay-last")
    page.wait_for_function(
        "n => document.querySelector('#replay-step').textContent.startsWith(`Move ${n}`)", arg=entries
    )
    page.click("details.log summary")
    shown = [line.strip() for line in page.locator("details.log li").all_inner_texts()]
    assert shown == [step["text"] for step in steps][-len(shown) :] and len(shown) == 12, shown
    assert any(line.startswith("Ana rolls: ") for line in shown), shown
    picks = [line for line in shown if line.startswith("Ana: ") and "→" in line]  # not a reroll
    assert picks and all(re.search(r"\d", line.split("→")[0]) for line in picks), picks  # the die's value
    assert errors == []
    page.context.close()


def test_a_number_is_never_written_minus_zero(browser: Any, server: str) -> None:
    """No fox and a negative green (Vraiment très futé): the foxes' line reads "0 × −2 = 0", not
    "= -0"; a rounded −0.4 neither. A negative number keeps its sign."""
    for locale in ("en-US", "fr-FR", "de-DE"):
        page, errors = open_page(browser, server + "/rules", locale=locale)
        page.wait_for_selector(".rules-area")
        said = page.evaluate(
            """async () => { const { num } = await import('/static/js/i18n.js');
              return [num(0 * -2), num(-0.4), num(-0.04, 1), num(-2), num(0)]; }"""
        )
        assert said[:2] == ["0", "0"] and said[2] in ("0", "0,0", "0.0") and said[4] == "0", (locale, said)
        assert said[3] in ("-2", "\u22122"), (locale, said)
        assert errors == []
        page.context.close()


@pytest.mark.parametrize(
    "locale,said",
    [
        ("fr-FR", "points selon les croix\u00a0: 1, 2, 4, 7, 11, 16, 22, 29, 37, 46, 56"),
        ("de-DE", None),
        ("en-US", "points by crosses: 1, 2, 4, 7, 11, 16, 22, 29, 37, 46, 56"),
    ],
)
def test_a_points_ladder_is_read_out_in_the_languages_typography(
    browser: Any, server: str, locale: str, said: str | None
) -> None:
    """A ladder's spoken words are one message of the catalogue (French: a no-break space before
    the colon), not words and a colon put together by the page."""
    page, errors = open_page(browser, new_game(server, "tres-fute", ["Anne"]), locale=locale)
    page.wait_for_selector(".own-sheet .area-b .ladder")
    label = page.get_attribute(".own-sheet .area-b .ladder", "aria-label") or ""
    if said is None:
        assert label.endswith(": 1, 2, 4, 7, 11, 16, 22, 29, 37, 46, 56") and "crosses" not in label, label
    else:
        assert label == said
    assert errors == []
    page.context.close()


def seat_with_a_free_bonus(server: str, game: str, sign: str) -> tuple[str, str, str]:
    """A solo game played by random legal moves until its first waiting bonus is a free entry
    printed ``sign`` ("yellow X", "silver ?"): the seat's link, its id and its token."""
    for seed in range(20):
        rng = random.Random(seed)
        created = call(server, "/api/games", {"game": game, "seats": [{"name": "Anne"}]})
        token = created["seats"][0]["token"]
        for _ in range(400):
            view = call(server, f"/api/games/{created['id']}?lang=en", token=token)
            if view["over"]:
                break
            waiting = view["pending"][0]
            if waiting and waiting[0]["bonus"].endswith(f" {sign}") and not waiting[0]["bonus"].startswith("black"):
                return server + created["seats"][0]["link"], created["id"], token
            move = rng.choice(view["legal"])["move"]
            call(server, f"/api/games/{created['id']}/act", {"move": move, "seq": view["seq"]}, token=token)
    raise AssertionError(f"no {sign} bonus came")


# How each language asks to place a free entry bonus of an area ({area}: the area in that language).
PLACE_THE_BONUS = {
    "?": {
        "en": "place the {area} bonus, from ",
        "fr": "placez le bonus {area}, obtenu par ",
        "de": "trage den bonus in {area} ein, erhalten durch ",
    },
    "X": {
        "en": "place the {area} x bonus, from ",
        "fr": "placez le bonus x {area}, obtenu par ",
        "de": "trage den x-bonus in {area} ein, erhalten durch ",
    },
}


@pytest.mark.parametrize("game,sign", [("vraiment-tres-fute", "?"), ("tres-fute", "X")])
def test_a_waiting_bonus_is_asked_for_in_words(browser: Any, server: str, game: str, sign: str) -> None:
    """The prompt asks for a free entry bonus as a player says it, "Place the silver bonus",
    "Placez le bonus argent", "Trage den Bonus in Silber ein" (the yellow X bonus likewise), not
    with its printed sign inside the sentence ("Place the bonus silver ?")."""
    link, game_id, token = seat_with_a_free_bonus(server, game, sign)
    for lang, locale in (("en", "en-GB"), ("fr", "fr-FR"), ("de", "de-DE")):
        printed = call(server, f"/api/games/{game_id}?lang={lang}", token=token)["pending"][0][0]["bonus"]
        area = printed.removesuffix(f" {sign}")
        page, errors = open_page(browser, link, locale=locale)
        page.wait_for_selector("#prompt")
        prompt = page.inner_text("#prompt").lower()
        assert prompt.startswith(PLACE_THE_BONUS[sign][lang].format(area=area.lower())), (lang, prompt)
        assert "?" not in prompt and f"bonus {printed.lower()}" not in prompt, (lang, prompt)
        assert errors == []
        page.context.close()


def seat_with_a_reprise_and_nothing_to_roll(server: str) -> str:
    """A Vraiment très futé table (Anne and two greedy computers) played by random legal moves
    until Anne may take dice back (reprise) with every die chosen or on the platter: her link."""
    robots = [{"bot": "greedy", "name": "Robot"}, {"bot": "greedy", "name": "Bea"}]
    for seed in range(8):
        rng = random.Random(seed)
        created = call(server, "/api/games", {"game": "vraiment-tres-fute", "seats": [{"name": "Anne"}, *robots]})
        token = created["seats"][0]["token"]
        for _ in range(400):
            view = seat_view(server, created["id"], token)
            if view["over"]:
                break
            kinds = {m["kind"] for m in view["legal"]}
            if {"reprise", "done"} <= kinds:
                return server + created["seats"][0]["link"]
            move = rng.choice(view["legal"])["move"]
            call(server, f"/api/games/{created['id']}/act", {"move": move, "seq": view["seq"]}, token=token)
    raise AssertionError("no reprise with nothing to roll came")


def test_a_reprise_with_nothing_left_to_roll_is_asked_with_the_button_it_has(browser: Any, server: str) -> None:
    """Every die chosen or on the platter and a reprise left: the buttons are the dice to take
    back and Done (no roll is left), and the prompt says so, "…or done", not "…or roll"."""
    link = seat_with_a_reprise_and_nothing_to_roll(server)
    said = {
        "en-GB": ("take dice back from the platter (reprise), or done", "Done"),
        "fr-FR": ("reprenez des dés du plateau (reprise), ou terminez", "Terminé"),
        "de-DE": ("hole würfel vom tablett zurück oder beende den zug", "Fertig"),
    }
    for locale, (prompt, done) in said.items():
        page, errors = open_page(browser, link, locale=locale)
        page.wait_for_selector("#prompt")
        assert page.inner_text("#prompt").lower() == prompt, locale
        assert page.get_by_role("button", name=done, exact=True).is_visible(), locale
        assert errors == []
        page.context.close()


def test_the_pace_of_the_others_moves_is_offered_only_where_others_move(browser: Any, server: str) -> None:
    """A game alone has no other players: its log offers no pace for their moves (it did, "The
    other players' moves: at once", beside a solo sheet); at a table it does."""
    for names, bots, offered in ((["Anne"], 0, False), (["Anne"], 1, True), (["Anne", "Ben"], 0, True)):
        page, errors = open_page(browser, new_game(server, "tres-fute", names, bots), locale="en-GB")
        page.wait_for_selector("#game-log")
        assert page.locator("#pace").count() == (1 if offered else 0), (names, bots)
        assert ("other players' moves" in page.inner_text(".game-log")) == offered, (names, bots)
        assert errors == []
        page.context.close()

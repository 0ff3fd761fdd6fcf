"""Practice in Chromium: from a finished game's review, "Try again" shows a costly decision's
position (its sheet and dice as they were); a move chosen from the list of moves in words is
judged wrong, with the best move in words and the reason; tried again, the best move played by
clicking its die and its cell as in a game is judged right, and the player's progress page counts
the position solved. The review shows each move in words, its cost with its uncertainty, why,
and the error rate's level.

The review is made quickly (``test_web_practice.quick_decision``: every third decision costly,
here 30 points: a blunder); the practice's judging is the engine's own (``bots.review.judge``).
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from typing import Any

import pytest

from browser import call, open_page, require_chromium, serious_accessibility_problems

require_chromium()
pytestmark = pytest.mark.slow  # a browser plays and looks at pages: left out by pytest -m "not slow"
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

from test_practice import blunder_decision  # noqa: E402  (after the skips: it needs FastAPI)
from tresfute import records  # noqa: E402
from tresfute.bots import review as review_module  # noqa: E402
from tresfute.bots.appraisal import appraise  # noqa: E402
from tresfute.bots.review import judge  # noqa: E402

ON_SHEET = {"pick", "extra", "bonus", "sweep"}


def as_player(server: str, path: str, body: Any, player: str) -> Any:
    request = urllib.request.Request(
        server + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-Player-Token": player},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


@pytest.fixture(scope="module")
def reviewed(server: str) -> tuple[str, str, str]:
    """A player's finished solo game (the first legal move but "pass" each time), reviewed: its
    id, its seat token and the player's secret."""
    player = call(server, "/api/players", {"name": "Ana"})["token"]
    created = as_player(server, "/api/games", {"game": "tres-fute", "seats": [{"name": "Ana"}]}, player)
    game_id, token = created["id"], created["seats"][0]["token"]
    for _ in range(1000):
        view = call(server, f"/api/games/{game_id}", token=token)
        if view["over"]:
            break
        moves = [m["move"] for m in view["legal"]]
        placed = [m for m in moves if m != "pass"] or moves
        call(server, f"/api/games/{game_id}/act", {"move": placed[0], "seq": view["seq"]}, token)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(review_module, "decision_of", blunder_decision)
        call(server, f"/api/games/{game_id}/review", {}, token)
        for _ in range(600):
            if call(server, f"/api/games/{game_id}/review", token=token)["status"] == "done":
                break
            time.sleep(0.1)
    return game_id, token, player


def position(server: str, game_id: str, move_number: int) -> Any:
    with urllib.request.urlopen(f"{server}/api/games/{game_id}/record", timeout=60) as response:
        record = records.loads(response.read())
    return records.replay(record, stop=move_number)


def from_the_list(page: Any, move: str) -> None:
    """Choose a move in the list of moves in words (the sheet's moves are folded when many)."""
    button = page.locator(f"#moves button[data-move='{move}']")
    if not button.is_visible():
        page.click("#moves details.move-list summary")
    button.click()


def on_the_sheet(page: Any, move: dict[str, Any]) -> None:
    """Play a move as in a game: its die of the roll, then its cell (then the picker's choice)."""
    if move["die"] and page.locator(f"#dice button.die[data-die='{move['die']}']").count():
        page.click(f"#dice button.die[data-die='{move['die']}']")
    cell = move["cell"]
    key = f"{move['area']}:{f'r{cell[0]}c{cell[1]}' if cell else 'next'}"
    page.click(f".own-sheet button.target[data-target='{key}']")
    chooser = page.locator(f".chooser button[data-move='{move['move']}']")
    if chooser.count():
        chooser.click()


def test_a_costly_position_is_answered_wrong_then_right_through_the_page(
    server: str, browser: Any, reviewed: tuple[str, str, str]
) -> None:
    game_id, token, player = reviewed
    page, errors = open_page(browser, f"{server}/g/{game_id}?review#seat={token}")
    page.wait_for_selector("#review")
    review = call(server, f"/api/games/{game_id}/review?lang=fr", token=token)
    # the headline: accuracy, error rate and the level's word; each decision in words
    headline = page.locator("#accuracy").inner_text()
    assert review["level_text"] in page.locator("#level").inner_text() and " — niveau\u00a0: " in headline
    assert "taux d’erreur" in page.locator("#error-rate").inner_text()
    first = page.locator("#costliest li.decision").first
    number = int(first.get_attribute("data-move-number") or 0)
    decision = next(d for d in review["decisions"] if d["move_number"] == number)
    text = first.inner_text()
    assert decision["played_text"] in text and decision["played"] not in text.split()
    assert re.search(r"−30\s±\s\d+,\d", first.locator(".cost").inner_text())  # the cost with its uncertainty
    assert first.locator(".why").inner_text().startswith(decision["why"][:1].upper())

    first.locator(".try-again").click()
    page.wait_for_selector("#practice-ask")
    game = position(server, game_id, number)
    rolled = sorted(str(v) for v, w in zip(game.values, game.where, strict=True) if str(w) == "hand" and v)
    assert sorted(page.locator("#dice .dice-hand .value").all_inner_texts()) == rolled  # the dice as they were
    assert decision["played_text"] in page.locator("#practice-ask").inner_text()

    worst = appraise(game, 0).ranked[-1].move
    judged = judge(game, 0, worst)
    assert not judged.right and judged.best != worst
    from_the_list(page, str(worst))
    page.wait_for_selector("#practice-answer.wrong", timeout=60_000)
    shown = call(server, f"/api/games/{game_id}/practice?move_number={number}&lang=fr", token=token)
    labels = {m["move"]: m for m in shown["legal"]}
    answer = page.locator("#practice-answer").inner_text()
    assert "Pas tout à fait" in answer and labels[str(judged.best)]["label"] not in answer  # asked again
    page.click("#practice-show")  # the solution, when asked for: the best move in words and why
    # a best move, as this process judges it: two moves can be worth the same (blue 4 or white 4
    # on blue's 8), and the server's practice may draw other futures than judge(seed=0) here
    solution = page.locator("#practice-solution").inner_text()
    moves = {str(ranked.move): ranked.move for ranked in appraise(game, 0).ranked}
    named = [move for key, move in moves.items() if labels[key]["label"] in solution]
    assert any(judge(game, 0, move).right for move in named), (solution, labels[str(judged.best)]["label"])
    assert page.locator("#practice-solution .why").inner_text()
    assert serious_accessibility_problems(page) == []

    best = labels[str(judged.best)]
    if best["area"] and best["kind"] in ON_SHEET:
        on_the_sheet(page, best)
    else:
        from_the_list(page, best["move"])
    page.wait_for_selector("#practice-answer.right", timeout=60_000)
    assert "Juste" in page.locator("#practice-answer").inner_text()
    page.click("#back-to-review")
    page.wait_for_selector("#review")

    # the position counts on the player's progress page
    page.goto(f"{server}/me#player={player}")
    page.wait_for_selector("#practice-solved")
    assert page.locator("#practice-solved").inner_text().startswith("1 position")
    assert "1 sur" in page.locator(f"tr[data-game='{game_id}'] .solved").inner_text()
    assert errors == []


def test_practise_my_mistakes_walks_through_them_costliest_first(
    server: str, browser: Any, reviewed: tuple[str, str, str]
) -> None:
    game_id, token, _player = reviewed
    review = call(server, f"/api/games/{game_id}/review?lang=en", token=token)
    costly = sorted((d for d in review["decisions"] if d["cost"] >= 2), key=lambda d: (-d["cost"], d["move_number"]))
    page, errors = open_page(browser, f"{server}/g/{game_id}?review#seat={token}")
    page.wait_for_selector("#practise-mistakes")
    page.click("#practise-mistakes")
    page.wait_for_selector("#practice-ask")
    heading = page.locator("#practice").inner_text()
    assert f"{len(costly)}" in heading and str(costly[0]["move_number"]) in heading
    game = position(server, game_id, costly[0]["move_number"])
    from_the_list(page, str(appraise(game, 0).ranked[-1].move))
    page.wait_for_selector("#practice-answer")
    page.click("#practice-next")
    page.wait_for_function(
        "n => document.querySelector('#practice') && document.querySelector('#practice').innerText.includes(n)",
        arg=f"Coup {costly[1]['move_number']},",
    )
    assert page.locator("#practice-ask").count() == 1
    # a costly decision's position, shown from the review, is played again from there too
    page.click("#back-to-review")
    page.locator("#costliest li.decision .show-position").first.click()
    page.click("#review-position .try-again")
    page.wait_for_selector("#practice-ask")
    assert f"Coup {costly[0]['move_number']}," in page.locator("#practice").inner_text()
    assert errors == []


def test_on_a_phone_the_practice_shows_its_roll_beside_its_question(
    server: str, browser: Any, reviewed: tuple[str, str, str]
) -> None:
    """On a phone the practice's question sits in the play panel: the panel grows with it and
    scrolls with the page, so the roll's dice are never hidden inside a panel cut to 30 % of the
    screen (where they needed a scroll inside the panel to be seen)."""
    game_id, token, _player = reviewed
    page, errors = open_page(browser, f"{server}/g/{game_id}?review#seat={token}", width=390, height=844)
    page.wait_for_selector("#practise-mistakes")
    page.click("#practise-mistakes")
    page.wait_for_selector("#practice-ask")
    panel = page.locator(".play-panel").bounding_box()
    dice = page.locator("#dice .dice-hand .die")
    assert panel and dice.count() >= 1
    for i in range(dice.count()):
        box = dice.nth(i).bounding_box()
        assert box and box["y"] + box["height"] <= panel["y"] + panel["height"] + 1, "a die of the roll cut off"
    assert errors == []

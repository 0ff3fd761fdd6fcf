"""The browser game end to end, as a person plays it: Chromium driven by Playwright against a
live server. Whole games are played by clicks on the dice and the lit cells of the sheet (and
the turn's buttons: roll, pass); the picker, a refresh, the server going away and coming back.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tresfute import fair_dice

from browser import (
    LiveServer,
    call,
    open_page,
    play_by_clicks,
    play_to_the_end,
    require_chromium,
    revision,
    start_game,
    wait_for_change,
    wait_for_revision,
)

require_chromium()
pytestmark = pytest.mark.slow  # a browser plays and looks at pages: left out by pytest -m "not slow"
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")


@pytest.mark.parametrize("game", ["tres-fute", "vraiment-tres-fute"])
def test_a_person_plays_a_whole_solo_game_by_clicking_dice_and_cells(server: str, browser: Any, game: str) -> None:
    page, errors = open_page(browser, server + "/")
    start_game(page, game, [("", "Ana")])
    assert page.locator("#moves .move-roll").inner_text() == "Lancer les dés"
    assert set(page.locator("#dice .die .value").all_inner_texts()) == {"?"}, "no die shows a value before the roll"
    # a double click sends one request: the second click waits for the first, not a stale refusal
    before = revision(page)
    page.locator("#moves .move-roll").dblclick()
    assert wait_for_change(page, before)
    page.wait_for_selector(".game:not([aria-busy])")
    assert int(revision(page)) == int(before) + 1
    # nor does its second click play the button the answer put under the pointer (Reroll, Pass)
    box = page.locator("#moves .move-reroll").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down(click_count=2)
    page.mouse.up(click_count=2)
    page.wait_for_timeout(500)
    assert int(revision(page)) == int(before) + 1 and page.locator("#moves .move-reroll").count() == 1
    # choosing a die lights only the cells it can fill, and the move list follows it
    die = page.locator("#dice .die.playable").first
    letter = die.get_attribute("data-die")
    die.click()
    listed = page.locator("#moves .move-list button")
    assert listed.count() > 0
    for move in listed.all():
        text = move.get_attribute("data-move") or ""
        assert text.startswith((f"{letter}", f"w>{letter}")) or (letter == "w" and text.startswith("w")), text
    play_to_the_end(page)
    end = page.locator("#end")
    assert "Fin de la partie" in end.inner_text()
    assert "gagn" not in end.inner_text(), "a solo game has no winner"
    assert page.locator("#end .rating").count() == 1
    if game == "tres-fute":  # Très futé's rating has stars (Vraiment très futé's only words)
        assert page.locator("#end .stars .star").count() == 5, "a rating shows five stars, filled or empty"
    page.click("#fairness summary")
    page.click("#verify")
    page.wait_for_function("document.querySelector('#verify-result').textContent.length > 0")
    assert "correspondent tous" in page.locator("#verify-result").inner_text()
    commitment = page.locator("#commitment").inner_text().strip()
    record = page.request.get(server + (page.locator("#record-link").get_attribute("href") or "")).json()
    assert record["game"] == game and record["dice"] == "external" and record["result"]
    secret = page.evaluate("fetch(location.pathname.replace('/g/', '/api/games/')).then(r => r.json())")["secret"]
    assert fair_dice.check_record(secret, commitment, record["moves"]) == []
    page.goto(server + "/")  # the game stays in "finished games" on the home page
    page.wait_for_selector("#finished-games li")
    assert "Ana" in page.locator("#finished-games").inner_text()
    assert errors == []


def _api(page: Any, server: str, path: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
    headers = {"X-Seat-Token": token} if token else {}
    if body is None:
        return page.request.get(server + path, headers=headers).json()
    return page.request.post(server + path, data=body, headers=headers).json()


def test_a_picker_on_the_sheet_offers_the_dice_that_can_fill_a_cell(server: str, browser: Any) -> None:
    """A yellow 3 and a white 3: the yellow 3 of the sheet takes either die, so a click on it
    opens a picker of the two dice, and the chosen one is played."""
    page, errors = open_page(browser, server + "/")
    created = _api(page, server, "/api/games", {"game": "tres-fute", "seats": [{"name": "Ana"}], "real_dice": True})
    token = created["seats"][0]["token"]
    _api(page, server, f"/api/games/{created['id']}/act", {"move": "dice w3 y3 b5 g6 o1 p2", "seq": 0}, token)
    page.goto(server + created["seats"][0]["link"])
    page.wait_for_selector(".own-sheet button.target[data-target='y:r1c1']")
    page.click(".own-sheet button.target[data-target='y:r1c1']")
    chooser = page.locator(".chooser button[data-move]")
    assert sorted(chooser.evaluate_all("bs => bs.map(b => b.dataset.move)")) == ["w>y@r1c1", "y@r1c1"]
    before = revision(page)
    page.click(".chooser button[data-move='y@r1c1']")
    assert wait_for_change(page, before)
    page.wait_for_selector(".own-sheet .area-y .cell.marked.last")  # the move is marked on the sheet
    view = _api(page, server, f"/api/games/{created['id']}", token=token)
    assert any(c["marks"] for c in view["state"]["sheets"][0]["areas"]["y"])
    assert errors == []


def test_the_round_four_black_question_is_a_picker_of_values_on_the_sheet(server: str, browser: Any) -> None:
    """Vraiment très futé's round 4 gives a black "?": the sheet lights every place it can go, and
    on a number track the picker offers the values (not a wall of buttons)."""
    page, errors = open_page(browser, server + "/")
    created = _api(
        page, server, "/api/games", {"game": "vraiment-tres-fute", "seats": [{"name": "Ana"}], "real_dice": True}
    )
    game_id, token = created["id"], created["seats"][0]["token"]
    view = _api(page, server, f"/api/games/{game_id}", token=token)
    for _ in range(400):  # pass every roll until round 4's gift waits
        legal = view["legal"]
        if any(m["kind"] == "bonus" and m["area"] == "k" for m in legal):
            break
        if view["dice_to_roll"]:
            values = " ".join(f"{d}{i + 1}" for i, d in enumerate(view["dice_to_roll"]))
            move = f"dice {values}"
        else:
            kinds = {m["kind"]: m["move"] for m in legal}
            move = kinds.get("pass") or kinds.get("done") or kinds.get("roll") or legal[0]["move"]
        view = _api(page, server, f"/api/games/{game_id}/act", {"move": move, "seq": view["seq"]}, token)
    else:
        raise AssertionError("round 4 never came")
    page.goto(server + created["seats"][0]["link"])
    page.wait_for_selector(".own-sheet button.target[data-target='k:next']")
    assert page.locator(".own-sheet .area-s button.target").count() > 0, "the ? may go in silver too"
    page.click(".own-sheet button.target[data-target='k:next']")
    values = page.locator(".chooser button[data-move]").all_inner_texts()
    assert values == ["1", "2", "3", "4", "5", "6"]
    before = revision(page)
    page.click(".chooser button[data-move='!k=5']")
    assert wait_for_change(page, before)
    page.wait_for_selector(".own-sheet .area-k .box.marked.last")
    assert errors == []


def test_a_refresh_and_a_closed_tab_resume_the_game(server: str, browser: Any) -> None:
    page, errors = open_page(browser, server + "/")
    page.select_option("#language", "en")
    page.wait_for_selector("text=New game")
    start_game(page, "vraiment-tres-fute", [("", "Ana")])
    page.click("#moves .move-roll")
    page.wait_for_selector("#dice .die.playable")
    assert play_by_clicks(page)
    shown, at = page.locator("#dice .die .value").all_inner_texts(), revision(page)
    page.reload()
    page.wait_for_selector(f".game[data-revision='{at}']")
    assert page.locator("#dice .die .value").all_inner_texts() == shown
    url = page.url
    context = page.context
    page.close()  # the tab is closed …
    again = context.new_page()
    again.goto(server + "/")  # … and the home page offers the game again
    again.wait_for_selector("#my-games a")
    again.goto(url)
    again.wait_for_selector(f".game[data-revision='{at}']")
    assert errors == []


def test_the_server_stops_mid_game_the_page_reconnects_and_the_move_lands_once(tmp_path: Path, browser: Any) -> None:
    live = LiveServer(tmp_path / "games.sqlite3")
    live.start()
    page, _ = open_page(browser, live.url + "/")
    failed: list[str] = []
    page.on("requestfailed", lambda request: failed.append(request.url))
    start_game(page, "tres-fute", [("", "Ana")])
    page.click("#moves .move-roll")
    page.wait_for_selector(".own-sheet button.target")
    before = int(revision(page))
    live.stop()
    # a die first, then one of its cells: a cell where two dice land would open a picker instead
    # of sending the move (the page's own choice, with no server)
    page.locator("#dice .die.playable").first.click()
    page.locator(".own-sheet button.target").first.click()
    # the move is sent (and fails: the banner), or a picker opens first
    page.wait_for_selector(".chooser button[data-move], .connection", timeout=10_000)
    chooser = page.locator(".chooser button[data-move]")
    if chooser.count():
        chooser.first.click()
    page.wait_for_selector(".connection", timeout=10_000)  # "reconnecting…", not a raw failure
    assert "reconnexion" in page.locator(".connection").inner_text()
    tried = len(failed)
    deadline = time.monotonic() + 20
    while len(failed) <= tried:  # the page tries again while the server is away
        assert time.monotonic() < deadline, "the page did not try again"
        page.wait_for_timeout(50)
    live.start()
    page.wait_for_selector(f".game[data-revision='{before + 1}']", timeout=20_000)
    page.wait_for_selector(".connection", state="detached", timeout=10_000)
    game_id = page.url.split("/g/")[1].split("#")[0]
    token = page.url.split("#seat=")[1]
    view = page.request.get(f"{live.url}/api/games/{game_id}", headers={"X-Seat-Token": token}).json()
    assert view["revision"] == before + 1, "the move was played once"
    assert play_by_clicks(page), "the next move lands too"
    live.stop()


def test_the_page_sends_its_moves_on_its_websocket_while_it_is_open(server: str, browser: Any) -> None:
    """A page that listens plays on its socket (answered there): no request per move."""
    page, errors = open_page(browser, server + "/")
    frames: list[str] = []
    received: list[str] = []
    posts: list[str] = []

    def listen(socket: Any) -> None:
        socket.on("framesent", lambda payload: frames.append(str(payload)))
        socket.on("framereceived", lambda payload: received.append(str(payload)))

    page.on("websocket", listen)
    page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
    start_game(page, "tres-fute", [("", "Ana")])
    deadline = time.monotonic() + 20
    while not any('"type":"state"' in frame.replace(" ", "") for frame in received):  # the socket listens
        assert time.monotonic() < deadline, "the socket was not answered its hello"
        page.wait_for_timeout(20)
    before = revision(page)
    page.click("#moves .move-roll")
    assert wait_for_change(page, before)
    assert play_by_clicks(page), "a die and a cell"
    moves = [frame for frame in frames if '"type":"act"' in frame]
    assert len(moves) >= 2, frames
    assert not [url for url in posts if url.split("?")[0].endswith(("/act", "/undo"))], posts
    assert errors == []


def test_two_people_on_two_browsers_and_a_computer_finish_a_game(server: str, browser: Any) -> None:
    """Ana starts a table of three (Bob, invited, and a strong computer player); Bob opens his
    invitation, someone else the game's address. The first rounds' moves come through the API
    while the pages follow them; the last round is played by clicks on both pages to the end:
    both show the same breakdown, and the watcher saw the end live."""
    ana, ana_errors = open_page(browser, server + "/")
    start_game(ana, "tres-fute", [("", "Ana"), ("", "Bob"), ("strong", "Robot")])
    invitation = ana.locator(".invitations li input").first.input_value()
    assert "#seat=" in invitation
    bob, bob_errors = open_page(browser, invitation)
    bob.wait_for_selector(".game")
    assert "Feuille de Bob" in (bob.locator(".own-sheet .sheet").get_attribute("aria-label") or "")
    watcher, _ = open_page(browser, invitation.split("#")[0])
    watcher.wait_for_selector(".game")
    assert "Vous regardez cette partie." in watcher.inner_text("body")
    game_id, ana_token = ana.url.split("/g/")[1].split("#seat=")
    _play_through_the_api_to_the_last_round(server, game_id, [ana_token, invitation.split("#seat=")[1]])
    deadline = time.monotonic() + 300
    while not (ana.locator(".game[data-over]").count() and bob.locator(".game[data-over]").count()):
        assert time.monotonic() < deadline, "the game did not end"
        acted = False
        for page in (ana, bob):
            if page.locator(".game[data-over]").count() == 0 and play_by_clicks(page):
                acted = True
        if not acted:
            time.sleep(0.1)
    for page in (ana, bob):
        assert "Fin de la partie" in page.locator("#end").inner_text()
    watcher.wait_for_selector(".game[data-over]")  # the spectator saw it live
    assert ana.locator("#end .breakdown").inner_text() == bob.locator("#end .breakdown").inner_text()
    assert ana_errors == [] and bob_errors == []


def _play_through_the_api_to_the_last_round(server: str, game_id: str, tokens: list[str]) -> None:
    """The people's moves (each the first legal one) sent through the API, as from another
    device, while their pages follow, until the game's last round begins."""
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, "the last round never came"
        acted = False
        for token in tokens:
            view = call(server, f"/api/games/{game_id}", token=token)
            if view["state"]["round"] == view["state"]["rounds"] or view["over"]:
                return
            if view["legal"]:
                move = view["legal"][0]["move"]
                call(server, f"/api/games/{game_id}/act", {"move": move, "seq": view["seq"]}, token=token)
                acted = True
        if not acted:
            time.sleep(0.05)


def test_the_hint_marks_its_best_move_on_the_sheet_with_its_expected_score(server: str, browser: Any) -> None:
    page, errors = open_page(browser, server + "/")
    start_game(page, "tres-fute", [("", "Ana")])
    page.click("#moves .move-roll")
    page.wait_for_selector("#hint-button")
    page.click("#hint-button")
    page.wait_for_selector(".hint-box", timeout=30_000)
    assert "score final attendu" in page.locator(".hint-box").inner_text()
    marked = page.locator(".own-sheet .hint, #moves .move.hint")
    assert marked.count() >= 1, "the best move is marked where it is played"
    if page.locator(".own-sheet .hint").count():
        assert page.locator(".hint-badge").inner_text().startswith("meilleur")
    assert errors == []


def test_at_a_real_dice_table_the_player_who_rolls_types_the_dice(server: str, browser: Any) -> None:
    page, errors = open_page(browser, server + "/")
    start_game(page, "tres-fute", [("", "Ana")], real_dice=True)
    assert page.locator("#moves .move-roll").count() == 0, "no server roll at a real-dice table"
    for die, value in zip("wybgop", "345612", strict=True):
        page.fill(f"#dice-form input[data-die='{die}']", value)
    before = revision(page)
    page.click("#dice-form button[type=submit]")
    assert wait_for_change(page, before)
    assert page.locator("#dice .dice-hand .die .value").all_inner_texts() == ["3", "4", "5", "6", "1", "2"]
    assert page.locator("#dice-form").count() == 0
    assert errors == []


def test_the_turn_is_one_sentence_and_one_point_is_singular(server: str, browser: Any) -> None:
    page, errors = open_page(browser, server + "/")
    start_game(page, "vraiment-tres-fute", [("", "Ana")])
    page.click("#moves .move-roll")
    page.wait_for_selector("#prompt")
    assert page.locator("#prompt").inner_text() == "Choisissez un dé du lancer"
    created = page.request.post(
        server + "/api/games", data={"game": "tres-fute", "seats": [{"name": "Ana"}], "real_dice": True}
    ).json()
    token = created["seats"][0]["token"]
    game_url = f"{server}/api/games/{created['id']}"
    headers = {"X-Seat-Token": token}
    view = page.request.post(
        game_url + "/act", data={"move": "dice w3 y4 b5 g6 o1 p2", "seq": 0}, headers=headers
    ).json()
    page.request.post(game_url + "/act", data={"move": "g", "seq": view["seq"]}, headers=headers)
    page.goto(server + created["seats"][0]["link"])
    page.wait_for_selector(".area-g .points")
    assert page.locator(".area-g .points").inner_text() == "1 point"
    assert page.locator(".area-y .points").inner_text() == "0 point"
    page.select_option("#language", "en")
    page.wait_for_selector(".area-y .points >> text=0 points")
    assert page.locator(".area-g .points").inner_text() == "1 point"
    assert errors == []


def test_a_daily_challenge_says_so_offers_no_hint_and_is_ranked_and_replayed(server: str, browser: Any) -> None:
    page, errors = open_page(browser, server + "/")
    page.wait_for_selector("#challenge")
    page.fill("#challenge-name", "Zoé")
    page.click(".challenge-start[data-game='tres-fute']")
    page.wait_for_selector(".game")
    assert "Défi du jour" in page.locator(".challenge-tag").inner_text()
    page.click("#moves .move-roll")
    page.wait_for_selector("#dice .die.playable")
    assert page.locator("#hint-button").count() == 0, "no hint in the daily challenge"
    play_to_the_end(page)
    assert "Fin de la partie" in page.locator("#end").inner_text()
    with page.expect_download() as download:  # one's own record, at once
        page.click("#record-link")
    assert '"moves"' in Path(download.value.path()).read_text()
    page.goto(server + "/")
    board = page.locator(".challenge-board[data-game='tres-fute']")
    board.locator(".ranking li", has_text="Zoé").wait_for()
    assert board.locator(".ranking li").count() == 1, "each person is ranked once; the computer is apart"
    page.locator("#challenge-history li", has_text="Zoé").wait_for()
    played = page.locator(".challenge-start[data-game='tres-fute']")  # one entry a day: its button is off
    assert played.is_disabled() and played.get_attribute("title") == "Vous avez déjà joué le défi du jour de ce jeu"
    taken = page.request.post(server + "/api/challenge/vraiment-tres-fute", data={"name": "Ugo"})
    assert taken.status == 201
    page.fill("#challenge-name", "ugo")  # another player's name today: refused in a sentence
    page.click(".challenge-start[data-game='vraiment-tres-fute']")
    page.wait_for_function("document.querySelector('#challenge .error').textContent.startsWith('Ce nom est pris')")
    board.locator(".ranking li", has_text="Zoé").locator("a").click()
    page.wait_for_selector("#replay")
    assert page.locator("#replay-step").inner_text().startswith("Coup 0 sur")
    page.click("#replay-next")
    page.wait_for_function("document.querySelector('#replay-step').textContent.startsWith('Coup 1 sur')")
    page.click("#replay-next")  # move 2, the first die chosen: it always writes on the sheet
    page.wait_for_function("document.querySelector('#replay-step').textContent.startsWith('Coup 2 sur')")
    assert page.locator(".own-sheet .last").count() > 0, "the step's move is marked in the replay"
    page.click("#replay-last")  # (the day's last move may write nothing: a +1 not taken)
    page.wait_for_selector(".game[data-over]")
    assert [e for e in errors if "409" not in e] == []  # the browser logs the refused second entry


def test_an_open_table_waits_for_players_and_a_stranger_takes_the_free_seat(server: str, browser: Any) -> None:
    ana, ana_errors = open_page(browser, server + "/")
    start_game(ana, "tres-fute", [("", "Ana"), ("", "Siège libre")], listed=True)
    game_id = ana.url.split("/g/")[1].split("#")[0]
    assert "En attente de joueurs" in ana.locator(".invitations").inner_text()
    assert ana.locator(".invitations input").first.input_value().endswith(f"/g/{game_id}")
    zed, zed_errors = open_page(browser, server + "/")
    zed.fill("#open-name", "Zed")
    zed.locator(f"#open-tables li[data-game='{game_id}'] .take-seat").click()
    zed.wait_for_selector(".game")
    assert "Feuille de Zed" in (zed.locator(".own-sheet .sheet").get_attribute("aria-label") or "")
    ana.wait_for_function("document.body.innerText.includes('Zed')")  # Ana's page hears of it live
    assert ana_errors == [] and zed_errors == []


def test_a_stranger_takes_a_free_seat_from_the_game_page_as_a_player(server: str, browser: Any) -> None:
    """The game page's own form takes the seat as this browser's player (made then if it has
    none: a seat at an open table is a player's, issue 72)."""
    ana, ana_errors = open_page(browser, server + "/")
    start_game(ana, "tres-fute", [("", "Ana"), ("", "Siège libre")], listed=True)
    game_id = ana.url.split("/g/")[1].split("#")[0]
    zed, zed_errors = open_page(browser, server + f"/g/{game_id}")
    zed.fill(".take-seat input", "Zed")
    zed.click(".take-seat button[type='submit']")
    zed.wait_for_selector(".own-sheet .sheet[aria-label*='Zed']")
    assert zed.evaluate("JSON.parse(localStorage.getItem('tresfute.player') || '{}').token"), "a player now"
    ana.wait_for_function("document.body.innerText.includes('Zed')")
    assert ana_errors == [] and zed_errors == []


def test_a_whole_turn_is_played_with_the_keyboard(server: str, browser: Any) -> None:
    """Tab reaches every die, lit cell and button; Enter plays it; the picker takes the focus."""
    page, errors = open_page(browser, server + "/")
    start_game(page, "tres-fute", [("", "Ana")])
    game_id, token = page.url.split("/g/")[1].split("#seat=")

    def turn() -> tuple[int, int, bool]:
        state = _api(page, server, f"/api/games/{game_id}", token=token)["state"]
        return state["round"], state["turn"], state["solo_passive_turn"]

    first = turn()
    page.locator("#moves .move-roll").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(".game[data-revision='1']")
    focused = "document.activeElement.matches('.own-sheet button.target, #moves .primary button')"
    played: list[str] = []  # what each Enter met, for the failure's message
    for _ in range(60):
        if turn() != first:
            break
        before = revision(page)
        for _ in range(300):
            page.keyboard.press("Tab")
            if page.evaluate(focused):
                break
        else:
            raise AssertionError(f"Tab reaches no lit cell nor move button; played so far: {played}")
        played.append(page.evaluate("(e => e.dataset.target || e.dataset.move)(document.activeElement)"))
        page.keyboard.press("Enter")
        wait_for_change(page, before)  # the move landed, or a picker opened
        if revision(page) == before and page.locator(".chooser button[data-move]").count():
            # the picker takes the focus as it is drawn: its first choice is played with Enter
            page.wait_for_function("document.activeElement.matches('.chooser button[data-move]')", timeout=5000)
            played.append("picker: " + page.evaluate("document.activeElement.dataset.move"))
            page.keyboard.press("Enter")
            wait_for_revision(page, before)
        if revision(page) == before:
            played.append("(nothing landed)")
    else:
        raise AssertionError(f"the turn did not end; played: {played}")
    assert errors == []


def test_the_page_and_the_api_docs_run_under_the_sites_security_policy(server: str, browser: Any) -> None:
    """Under the Content-Security-Policy every answer carries (only the site's own scripts and
    styles), the page starts a game and shows its first roll, and /docs shows the API from the
    package's Swagger UI; a script or style the policy refuses would log an error."""
    page, errors = open_page(browser, server + "/", enforce_csp=True)
    start_game(page, "tres-fute", [("", "Ana")])
    page.locator("#moves .move-roll").click()
    page.wait_for_selector(".game[data-revision='1']")
    page.wait_for_selector(".own-sheet button.target")
    docs, docs_errors = open_page(browser, server + "/docs", enforce_csp=True)
    docs.wait_for_selector(".swagger-ui .info .title")
    assert "tresfute" in docs.locator(".swagger-ui .info .title").inner_text()
    docs.wait_for_selector(".opblock-summary-path[data-path='/api/games/{game_id}/act']")
    assert errors == [] and docs_errors == []


def test_the_new_game_options_choose_the_reprise_reading_and_the_game_page_says_it(server: str, browser: Any) -> None:
    """Vraiment très futé's option (docs/rules-decisions.md) is offered for that game only; a
    computer seat is the one that plays to win unless another is chosen."""
    page, errors = open_page(browser, server + "/")
    page.wait_for_selector("#new-game")
    page.select_option("#players", "2")
    assert page.locator(".seat-kind[data-seat='1']").input_value() == "strong-win"
    page.click("#new-game .options summary")
    assert page.locator("#rule-reprise_with_no_die_left").count() == 0, "Très futé has no such option"
    page.select_option("#game-choice", "vraiment-tres-fute")
    assert page.locator("#rule-reprise_with_no_die_left").is_checked(), "the default reading"
    page.uncheck("#rule-reprise_with_no_die_left")
    page.click("#start")
    page.wait_for_selector("#moves .move-roll")
    game_id = page.url.split("/g/")[1].split("#")[0]
    rules = page.evaluate("async (id) => (await (await fetch(`/api/games/${id}`)).json()).rules", game_id)
    assert rules == {"reprise_with_no_die_left": False}
    # the page says it behind an "i" while it applies, with a reprise to use (test_web_layout_browser)
    assert page.locator("#rules-info").count() == 0, "not at the first roll"
    assert errors == []

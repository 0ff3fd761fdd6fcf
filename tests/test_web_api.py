"""The web server's API and WebSocket, message by message, from a player's side.

Each test states what a player (or an attacker) does and what must happen; the engine is the
judge of legality, the server of who may ask; a refused request changes nothing.
"""

from __future__ import annotations

import contextlib
import json
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tresfute import fair_dice, records
from tresfute.bots import StrongBot
from tresfute.web.app import create_app
from tresfute.web.middleware import MAX_BODY
from tresfute.web.store import SQLiteStore


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(database=tmp_path / "games.sqlite3"))


def new_game(
    client: TestClient, game: str = "tres-fute", seats: list[dict[str, Any]] | None = None, real_dice: bool = False
) -> dict[str, Any]:
    response = client.post(
        "/api/games", json={"game": game, "seats": seats or [{"name": "Ana"}], "real_dice": real_dice}
    )
    assert response.status_code == 201, response.text
    return response.json()


def state(client: TestClient, game_id: str, token: str | None = None, lang: str = "fr") -> dict[str, Any]:
    headers = {"X-Seat-Token": token} if token else {}
    response = client.get(f"/api/games/{game_id}?lang={lang}", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def act(client: TestClient, game_id: str, token: str, move: str, seq: int) -> Any:
    return client.post(f"/api/games/{game_id}/act", json={"move": move, "seq": seq}, headers={"X-Seat-Token": token})


def play_first(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    """The seat plays its first legal move (rolling when it must roll)."""
    view = state(client, game_id, token)
    response = act(client, game_id, token, view["legal"][0]["move"], view["seq"])
    assert response.status_code == 200, response.text
    return response.json()


def play_to_end(client: TestClient, game_id: str, tokens: list[str]) -> dict[str, Any]:
    for _ in range(2000):
        views = [state(client, game_id, t) for t in tokens]
        if views[0]["over"]:
            return views[0]
        for token, view in zip(tokens, views, strict=True):
            if view["legal"]:
                play_first(client, game_id, token)
                break
        else:
            raise AssertionError(f"nobody can act: {views[0]['status']}")
    raise AssertionError("the game does not end")


# --- a game from start to end -----------------------------------------------------------------


@pytest.mark.parametrize("game", ["tres-fute", "vraiment-tres-fute"])
def test_a_solo_game_is_played_to_its_end_and_its_record_replays(client: TestClient, game: str) -> None:
    created = new_game(client, game)
    token = created["seats"][0]["token"]
    first = state(client, created["id"], token)
    assert [m["move"] for m in first["legal"]] == ["roll"], "a person rolls their own dice"
    assert first["legal"][0]["label"] == "Lancer les dés"
    assert first["secret"] is None and len(first["commitment"]) == 64

    final = play_to_end(client, created["id"], [token])
    assert final["result"]["rating"] is not None and final["secret"]
    response = client.get(f"/api/games/{created['id']}/record")
    assert response.status_code == 200 and "attachment" in response.headers["content-disposition"]
    record = records.loads(response.text)
    replayed = records.replay(record)
    assert replayed.is_over and replayed.scores()[0].total == final["result"]["scores"][0]["total"]
    assert fair_dice.commitment(final["secret"]) == final["commitment"]
    assert fair_dice.check_record(final["secret"], final["commitment"], record.moves) == []


def test_the_seed_is_secret_until_the_end_and_a_forged_roll_is_caught() -> None:
    secret = fair_dice.new_secret()
    moves = ["dice " + " ".join(f"{d}{fair_dice.die_value(secret, 1, d)}" for d in "wybgop")]
    assert fair_dice.check_record(secret, fair_dice.commitment(secret), moves) == []
    forged = moves[0][:-1] + str(fair_dice.die_value(secret, 1, "p") % 6 + 1)
    assert fair_dice.check_record(secret, fair_dice.commitment(secret), [forged])
    assert fair_dice.check_record("0" * 64, fair_dice.commitment(secret), moves) == [
        "the secret does not match the published hash"
    ]


def test_computer_players_take_their_seats_and_the_person_only_waits_for_them(client: TestClient) -> None:
    created = new_game(
        client, seats=[{"name": "Ana"}, {"name": "Bob", "bot": "strong"}, {"name": "Cy", "bot": "greedy"}]
    )
    assert [s["token"] is None for s in created["seats"]] == [False, True, True]
    final = play_to_end(client, created["id"], [created["seats"][0]["token"]])
    assert len(final["result"]["scores"]) == 3
    assert records.replay(records.loads(client.get(f"/api/games/{created['id']}/record").text)).is_over


def test_two_people_and_a_computer_finish_a_game_each_on_their_own_link(client: TestClient) -> None:
    created = new_game(
        client, "vraiment-tres-fute", seats=[{"name": "Ana"}, {"name": "Bob"}, {"name": "Cy", "bot": "random"}]
    )
    tokens = [s["token"] for s in created["seats"][:2]]
    final = play_to_end(client, created["id"], tokens)
    assert final["over"] and len(final["result"]["winners"]) >= 1


def test_passive_players_choose_at_the_same_time_in_any_order(client: TestClient) -> None:
    created = new_game(client, seats=[{"name": "Ana"}, {"name": "Bob"}, {"name": "Cy"}])
    tokens = [s["token"] for s in created["seats"]]
    for _ in range(200):
        views = [state(client, created["id"], t) for t in tokens]
        if views[0]["state"]["phase"] == "passive" and views[1]["legal"] and views[2]["legal"]:
            break
        for token, view in zip(tokens, views, strict=True):
            if view["legal"]:
                play_first(client, created["id"], token)
                break
    else:
        raise AssertionError("no passive phase reached")
    play_first(client, created["id"], tokens[2])  # the second passive player first
    assert state(client, created["id"], tokens[1])["legal"], "the other passive player still chooses"
    play_first(client, created["id"], tokens[1])


# --- who may ask ----------------------------------------------------------------------------


def test_a_request_without_a_valid_seat_token_changes_nothing(client: TestClient) -> None:
    a = new_game(client)
    b = new_game(client)
    before = state(client, a["id"])
    assert act(client, a["id"], "x" * 32, "roll", 0).status_code == 403
    assert act(client, a["id"], b["seats"][0]["token"], "roll", 0).status_code == 403  # another game's seat
    no_token = client.post(f"/api/games/{a['id']}/act", json={"move": "roll", "seq": 0})
    assert no_token.status_code == 401 and "jeton" in no_token.json()["error"]
    assert client.get(f"/api/games/{a['id']}", headers={"X-Seat-Token": "bad token!"}).status_code == 422
    for change, body in (("act", {"move": "roll", "seq": 0}), ("undo", {"seq": 0})):
        malformed = client.post(f"/api/games/{a['id']}/{change}", json=body, headers={"X-Seat-Token": "bad token!"})
        assert malformed.status_code == 422 and malformed.json()["error"].startswith(
            "requête mal formée\u00a0: x-seat-token"
        )
    assert client.get("/api/games/nope").status_code == 404
    assert state(client, a["id"]) == before


def test_a_spectator_sees_the_game_but_no_moves(client: TestClient) -> None:
    created = new_game(client)
    view = state(client, created["id"])
    assert view["you"] is None and "legal" not in view and "seq" not in view
    assert view["seats"][0]["name"] == "Ana"


def test_a_move_for_another_seat_or_out_of_turn_is_refused(client: TestClient) -> None:
    created = new_game(client, seats=[{"name": "Ana"}, {"name": "Bob"}])
    bob = created["seats"][1]["token"]
    before = state(client, created["id"])
    response = act(client, created["id"], bob, "roll", 0)
    assert response.status_code == 409 and "pas à vous" in response.json()["error"]
    response = act(client, created["id"], bob, "y@r1c1", 0)
    assert response.status_code == 409 and response.json()["error"] == "ce n’est pas votre tour"
    assert state(client, created["id"]) == before


def test_an_illegal_or_malformed_move_gets_a_clear_error_and_changes_nothing(client: TestClient) -> None:
    created = new_game(client)
    token = created["seats"][0]["token"]
    view = play_first(client, created["id"], token)  # rolled
    before = state(client, created["id"], token)
    illegal = next(m for m in ["y@r1c1", "y@r1c2", "y@r1c3"] if m not in [x["move"] for x in view["legal"]])
    response = act(client, created["id"], token, illegal, view["seq"])
    assert response.status_code == 409 and response.json()["error"].startswith("coup illégal\u00a0: ")
    response = act(client, created["id"], token, "k", view["seq"])  # no pink die in Très futé
    assert response.json()["error"] == "coup illégal\u00a0: il n’y a pas de dé rose dans Très futé"
    response = client.post(
        f"/api/games/{created['id']}/act?lang=en",
        json={"move": "k", "seq": view["seq"]},
        headers={"X-Seat-Token": token},
    )
    assert response.json()["error"] == "illegal move: there is no pink die in That's Pretty Clever!"
    response = act(client, created["id"], token, "fly away", view["seq"])
    assert response.status_code == 422
    assert response.json()["error"].startswith(
        "ce n’est pas un coup\u00a0: impossible de lire 'fly away' comme un coup"
    )
    response = act(client, created["id"], token, "roll", view["seq"])
    assert response.status_code == 409
    for body in (
        {"move": "roll"},
        {"move": "roll", "seq": -1},
        {"move": "", "seq": 0},
        {"move": "roll", "seq": 0, "extra": 1},
        {"move": "x" * 200, "seq": 0},
    ):
        response = client.post(f"/api/games/{created['id']}/act", json=body, headers={"X-Seat-Token": token})
        assert response.status_code == 422 and response.json()["error"].startswith("requête mal formée"), body
    response = client.post(
        f"/api/games/{created['id']}/act",
        content=b"{not json",
        headers={"X-Seat-Token": token, "Content-Type": "application/json"},
    )
    assert response.status_code == 422
    assert state(client, created["id"], token) == before


def test_an_oversized_request_is_refused_before_it_is_read(client: TestClient) -> None:
    created = new_game(client)
    response = client.post(
        f"/api/games/{created['id']}/act",
        content=b"x" * (MAX_BODY + 1),
        headers={"X-Seat-Token": created["seats"][0]["token"], "Content-Type": "application/json"},
    )
    assert response.status_code == 413 and response.json()["error"] == "la requête est trop grande"

    def chunks() -> Any:
        for _ in range(20):
            yield b"y" * 1024

    response = client.post("/api/games", content=chunks(), headers={"Content-Type": "application/json"})
    assert response.status_code == 413


def test_a_replayed_request_is_refused(client: TestClient) -> None:
    created = new_game(client)
    token = created["seats"][0]["token"]
    view = play_first(client, created["id"], token)
    move = view["legal"][0]["move"]
    assert act(client, created["id"], token, move, view["seq"]).status_code == 200
    again = act(client, created["id"], token, move, view["seq"])
    assert again.status_code == 409 and "périmée" in again.json()["error"]


def test_a_new_game_is_validated(client: TestClient) -> None:
    bad = [
        {"game": "chess", "seats": [{"name": "Ana"}]},
        {"game": "tres-fute", "seats": []},
        {"game": "tres-fute", "seats": [{"name": "A"}] * 5},
        {"game": "tres-fute", "seats": [{"name": ""}]},
        {"game": "tres-fute", "seats": [{"name": "A", "bot": "alphazero"}]},
        {"game": "tres-fute", "seats": [{"name": "A"}], "language": "it"},
    ]
    for body in bad:
        assert client.post("/api/games", json=body).status_code == 422, body
    only_bots = client.post("/api/games", json={"game": "tres-fute", "seats": [{"name": "B", "bot": "greedy"}]})
    assert only_bots.status_code == 422 and "au moins une personne" in only_bots.json()["error"]


# --- undo -----------------------------------------------------------------------------------


def undo(client: TestClient, game_id: str, token: str, seq: int) -> Any:
    return client.post(f"/api/games/{game_id}/undo", json={"seq": seq}, headers={"X-Seat-Token": token})


def test_a_player_undoes_their_last_decision_until_new_dice_are_rolled(client: TestClient) -> None:
    created = new_game(client)
    token = created["seats"][0]["token"]
    rolled = play_first(client, created["id"], token)
    assert not rolled["can_undo"], "a roll cannot be undone"
    picked = act(client, created["id"], token, rolled["legal"][0]["move"], rolled["seq"]).json()
    assert picked["can_undo"]
    for body in ({}, {"seq": -1}, {"seq": picked["seq"], "move": "roll"}):
        response = client.post(f"/api/games/{created['id']}/undo", json=body, headers={"X-Seat-Token": token})
        assert response.status_code == 422 and response.json()["error"].startswith("requête mal formée"), body
    assert state(client, created["id"], token) == picked, "a malformed undo changes nothing"
    response = undo(client, created["id"], token, picked["seq"])
    assert response.status_code == 200
    after = response.json()
    assert after["state"] == rolled["state"] and after["legal"] == rolled["legal"]
    assert after["revision"] > picked["revision"] and after["seq"] == picked["seq"] + 1
    picked = act(client, created["id"], token, rolled["legal"][0]["move"], after["seq"]).json()
    if picked["legal"][0]["move"] == "roll":
        rolled_again = act(client, created["id"], token, "roll", picked["seq"]).json()
        response = undo(client, created["id"], token, rolled_again["seq"])
        assert response.status_code == 409 and "Rien à annuler" in response.json()["error"]


def test_with_other_people_undo_is_only_before_anyone_else_acts(client: TestClient) -> None:
    created = new_game(client, seats=[{"name": "Ana"}, {"name": "Bob"}])
    ana, bob = (s["token"] for s in created["seats"])
    view = play_first(client, created["id"], ana)  # roll
    view = act(client, created["id"], ana, view["legal"][0]["move"], view["seq"]).json()
    assert view["can_undo"]
    # Ana plays on until the passive turn, where Bob acts
    for _ in range(30):
        bob_view = state(client, created["id"], bob)
        if bob_view["legal"]:
            break
        play_first(client, created["id"], ana)
    play_first(client, created["id"], bob)
    ana_view = state(client, created["id"], ana)
    assert not ana_view["can_undo"]
    assert undo(client, created["id"], ana, ana_view["seq"]).status_code == 409


def test_alone_with_a_computer_player_undo_takes_back_its_answer_too_and_it_plays_again(
    client: TestClient,
) -> None:
    """docs/web.md: with one person, the computer players' moves made after their decision are
    taken back with it (no new dice rolled since), and they play again. A real-dice table: the
    computer's own turn waits for its dice, so its passive answer is the last entry."""
    created = new_game(client, seats=[{"name": "Ana"}, {"name": "Robot", "bot": "greedy"}], real_dice=True)
    game_id, token = created["id"], created["seats"][0]["token"]
    typed = act(client, game_id, token, "dice w1 y2 b3 g4 o5 p6", 0).json()
    purple = next(m["move"] for m in typed["legal"] if m["die"] == "p")  # the highest: every other die to the platter
    picked = act(client, game_id, token, purple, typed["seq"]).json()
    record = client.get(f"/api/games/{game_id}/record").json()["moves"]
    assert record[-1].startswith("2:") and len(record) == 3, "the computer player answered from the platter"
    assert picked["can_undo"], "no dice rolled since Ana's decision: she may take it back"
    response = undo(client, game_id, token, picked["seq"])
    assert response.status_code == 200, response.text
    assert response.json()["state"] == typed["state"] and response.json()["legal"] == typed["legal"]
    assert client.get(f"/api/games/{game_id}/record").json()["moves"] == record[:1], "its answer taken back too"
    again = act(client, game_id, token, purple, response.json()["seq"]).json()
    assert client.get(f"/api/games/{game_id}/record").json()["moves"] == record, "and it plays again"
    assert again["can_undo"]


# --- real dice ------------------------------------------------------------------------------


def test_a_real_dice_table_takes_the_dice_typed_by_the_player_who_rolls(client: TestClient) -> None:
    created = new_game(client, seats=[{"name": "Ana"}, {"name": "Bob"}], real_dice=True)
    ana, bob = (s["token"] for s in created["seats"])
    view = state(client, created["id"], ana)
    assert view["legal"] == [] and view["dice_to_roll"] == ["w", "y", "b", "g", "o", "p"]
    assert view["commitment"] is None
    assert act(client, created["id"], ana, "roll", view["seq"]).status_code == 409
    assert act(client, created["id"], bob, "dice w1 y2 b3 g4 o5 p6", 0).status_code == 409
    response = act(client, created["id"], ana, "dice w1 y2 b3", view["seq"])
    assert response.status_code == 409 and "illégal" in response.json()["error"]
    response = act(client, created["id"], ana, "dice w1 y2 b3 g4 o5 p7", view["seq"])
    assert response.status_code == 422
    response = act(client, created["id"], ana, "dice w1 y2 b3 g4 o5 p6", view["seq"])
    assert response.status_code == 200
    after = response.json()
    assert [d["value"] for d in after["state"]["dice"]] == [1, 2, 3, 4, 5, 6]
    assert after["legal"] and after["dice_to_roll"] == []
    assert client.get(f"/api/games/{created['id']}/record").json()["dice"] == "external"


def test_a_real_dice_solo_passive_roll_with_a_tie_asks_which_dice_go_to_the_platter(client: TestClient) -> None:
    created = new_game(client, real_dice=True)
    token = created["seats"][0]["token"]
    view = state(client, created["id"], token)
    for _ in range(20):
        if view["solo_roll"] and view["dice_to_roll"]:
            break
        if view["dice_to_roll"]:
            move = "dice " + " ".join(f"{d}6" for d in view["dice_to_roll"])
        else:
            move = view["legal"][0]["move"]
        view = act(client, created["id"], token, move, view["seq"]).json()
    else:
        raise AssertionError("the solo passive roll never came")
    tie = "dice w2 y2 b2 g2 o5 p6"
    response = act(client, created["id"], token, tie, view["seq"])
    assert response.status_code == 409 and "platter=" in response.json()["error"]
    response = act(client, created["id"], token, tie + " platter=wyg", view["seq"])
    assert response.status_code == 200
    where = {d["die"]: d["where"] for d in response.json()["state"]["dice"]}
    assert [d for d, w in where.items() if w == "platter"] == ["w", "y", "g"]


# --- hints, pages, language -----------------------------------------------------------------


def test_the_hint_ranks_the_legal_moves_with_the_strong_players_choice_first(client: TestClient) -> None:
    created = new_game(client)
    token = created["seats"][0]["token"]
    view = play_first(client, created["id"], token)
    response = client.post(f"/api/games/{created['id']}/hint", headers={"X-Seat-Token": token})
    assert response.status_code == 200
    moves = response.json()["moves"]
    assert {m["move"] for m in moves} == {m["move"] for m in view["legal"]}
    assert moves[0]["cost"] == 0 and all(m["cost"] >= 0 for m in moves)
    host = client.app.state.host  # type: ignore[attr-defined]
    game = host.table(created["id"]).game
    assert moves[0]["move"] == str(StrongBot(0).choose(game, 0))
    assert state(client, created["id"], token)["revision"] == view["revision"], "a hint plays nothing"


def test_a_hint_asked_before_the_seat_s_own_roll_says_to_roll_first(client: TestClient) -> None:
    """The seat's turn, but its dice first: not "it is not your turn"; another seat is told that."""
    created = new_game(client, seats=[{"name": "Ana"}, {"name": "Bob"}])
    ana, bob = (seat["token"] for seat in created["seats"])
    asked = client.post(f"/api/games/{created['id']}/hint", headers={"X-Seat-Token": ana})
    assert asked.status_code == 409
    assert asked.json() == {"error": "lancez d’abord les dés\u00a0: les conseils viennent avec les dés"}
    other = client.post(f"/api/games/{created['id']}/hint?lang=en", headers={"X-Seat-Token": bob})
    assert other.status_code == 409 and other.json() == {"error": "it is not your turn"}


def test_pages_layout_and_messages_come_in_french_or_english(client: TestClient) -> None:
    assert "<main" in client.get("/").text and "<main" in client.get("/g/whatever").text
    assert client.get("/static/js/main.js").status_code == 200
    fr = client.get("/api/strings?lang=fr").json()
    en = client.get("/api/strings?lang=en").json()
    assert fr["New game"] == "Nouvelle partie" and en["New game"] == "New game"
    layout = client.get("/api/layout/vraiment-tres-fute?lang=en").json()
    assert [a["letter"] for a in layout["areas"]] == ["s", "y", "b", "g", "k"]
    assert layout["areas"][0]["name"] == "silver"
    assert client.get("/api/layout/chess").status_code == 404
    created = new_game(client)
    assert state(client, created["id"], created["seats"][0]["token"], lang="en")["legal"][0]["label"] == "Roll the dice"


@pytest.mark.parametrize("game", ["tres-fute", "vraiment-tres-fute"])
def test_the_last_moves_are_told_in_each_pages_language_with_who_played_them(client: TestClient, game: str) -> None:
    created = new_game(client, game, seats=[{"name": "Ana"}, {"name": "Bob"}])
    ana, bob = (s["token"] for s in created["seats"])
    play_first(client, created["id"], ana)  # Ana rolls
    picked = state(client, created["id"], ana, lang="en")["legal"][0]
    assert act(client, created["id"], ana, picked["move"], 1).status_code == 200
    for _ in range(2):  # twice each: the second answer must not mix the languages up
        fr = state(client, created["id"], bob, lang="fr")["log"]
        en = state(client, created["id"], ana, lang="en")["log"]
        assert fr[0].startswith("Dés\u00a0: ") and en[0].startswith("Dice: ")
        assert fr[0] != en[0] and fr[1] != en[1]
        # the move as the page offered it ("Yellow 5 → yellow: …"), less what the dice showed
        offered_die, target = picked["label"].split(" → ")
        assert en[1] == f"Ana: {offered_die.split()[0]} → {target}"
        assert fr[1].startswith("Ana\u00a0: ")


def test_head_is_answered_wherever_get_is(client: TestClient) -> None:
    """Uptime checkers and link previews ask HEAD: the GET's status and headers, without a body."""
    created = new_game(client)
    token = created["seats"][0]["token"]
    for path in [
        "/",
        f"/g/{created['id']}",
        "/static/js/main.js",
        "/api/strings?lang=en",
        "/api/layout/tres-fute",
        f"/api/games/{created['id']}",
        f"/api/games/{created['id']}/record",
    ]:
        get, head = client.get(path), client.head(path)
        assert head.status_code == get.status_code == 200, path
        assert head.headers["content-type"] == get.headers["content-type"], path
        assert head.content == b"", path
    assert client.head("/api/games/nope").status_code == client.get("/api/games/nope").status_code == 404
    act = client.head(f"/api/games/{created['id']}/act", headers={"X-Seat-Token": token})
    assert act.status_code == 405 and act.content == b"", "no GET there, so no HEAD either"
    assert state(client, created["id"], token)["seq"] == 0, "HEAD changes nothing"


def test_the_api_description_documents_every_request_with_its_body(client: TestClient) -> None:
    """Bot builders generate their clients from /api/openapi.json: a move and an undo are there
    with their fields, though they are served outside FastAPI's parameters."""
    description = client.get("/api/openapi.json").json()
    paths = description["paths"]
    for path in ["/api/games", "/api/games/{game_id}", "/api/games/{game_id}/hint", "/api/open"]:
        assert path in paths, path
    for change, fields in (("act", ["move", "seq"]), ("undo", ["seq"])):
        post = paths[f"/api/games/{{game_id}}/{change}"]["post"]
        body = post["requestBody"]["content"]["application/json"]["schema"]
        assert body["required"] == fields and body["additionalProperties"] is False
        assert {p["name"] for p in post["parameters"]} == {"game_id", "lang", "x-seat-token"}
    assert client.get("/api/docs").status_code == 200


# --- stopping the server --------------------------------------------------------------------


def test_a_server_restarted_in_the_middle_of_a_game_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    first = TestClient(create_app(database=path))
    created = new_game(first, seats=[{"name": "Ana"}, {"name": "Bot", "bot": "greedy"}])
    token = created["seats"][0]["token"]
    for _ in range(7):
        play_first(first, created["id"], token)
    before = state(first, created["id"], token)
    first.app.state.host.store.close()  # type: ignore[attr-defined]

    second = TestClient(create_app(database=path))
    after = state(second, created["id"], token)
    assert after == before
    assert act(second, created["id"], token, before["legal"][0]["move"], before["seq"]).status_code == 200
    play_to_end(second, created["id"], [token])


def test_a_server_whose_copy_of_the_game_is_stale_judges_a_move_on_the_game_as_it_stands(tmp_path: Path) -> None:
    """Two servers on one database, each holding the game in memory: a move made through one
    leaves the other's copy behind; that one catches up before it judges the next move, and a
    move that is really illegal or out of date is still refused there, with nothing changed."""
    path = tmp_path / "games.sqlite3"
    a, b = TestClient(create_app(database=path)), TestClient(create_app(database=path))
    created = new_game(a)
    game_id, token = created["id"], created["seats"][0]["token"]
    view = state(b, game_id, token)  # b holds the game too
    for _ in range(6):  # each move through a, then one through b on a copy one move behind
        view = act(a, game_id, token, view["legal"][0]["move"], view["seq"]).json()
        answer = act(b, game_id, token, view["legal"][0]["move"], view["seq"])
        assert answer.status_code == 200, answer.text
        view = answer.json()
    assert state(a, game_id, token) == view
    stale = act(a, game_id, token, view["legal"][0]["move"], view["seq"] - 1)
    assert stale.status_code == 409 and stale.json()["error"].startswith("cette requête est périmée")
    assert act(a, game_id, token, "k", view["seq"]).status_code == 409  # no pink die in Très futé
    assert state(a, game_id, token) == state(b, game_id, token) == view


def test_a_move_resent_to_a_stale_server_after_the_first_server_stopped_lets_the_computer_play(
    tmp_path: Path,
) -> None:
    """Server A writes Ana's move and stops before its computer player moves; Ana's page, with
    no answer, sends the same move again through server B, whose copy is behind: B refuses the
    repeat (out of date) and plays the computer player's move, so the game goes on there."""
    from tresfute.web.tables import Host, SeatRequest, TableError

    path = tmp_path / "games.sqlite3"
    store_a = SQLiteStore(path)
    a, b = Host(store_a), Host(SQLiteStore(path))
    table, (token, _) = a.create("tres-fute", [SeatRequest("Ana"), SeatRequest("Robot", "greedy")])
    for _ in range(100):  # Ana plays until her next move hands the turn to the computer player
        table = a.table(table.id)
        move = table.legal(0)[0]
        if table.roller() is None:
            after = table.game.copy()
            after.play(str(move), 0)
            if 1 in after.players_to_move:
                break
        a.act(table.id, token, str(move), table.stored.seats[0].acted)
    else:
        raise AssertionError("the computer player never got the turn")
    b.table(table.id)  # B holds the game as it stands
    seq = table.stored.seats[0].acted
    store_a.append_moves(table.id, len(table.stored.moves), [f"1:{move}"], 0, revision=table.stored.revision)
    with pytest.raises(TableError) as refused:
        b.act(table.id, token, str(move), seq)
    assert refused.value.status == 409
    on_b, _seat = b.seat_of(table.id, token)
    assert on_b.stored.moves[len(table.stored.moves)] == f"1:{move}", "Ana's move is there once"
    assert on_b.stored.moves.count(f"1:{move}") == table.stored.moves.count(f"1:{move}") + 1
    assert 1 not in on_b.game.players_to_move and on_b.stored.seats[0].acted == seq + 1
    assert on_b.game.players_to_move == (0,) or on_b.roller() == 0, "Ana's turn again, on B"


def test_the_store_refuses_a_write_on_a_record_that_moved_on(tmp_path: Path) -> None:
    from tresfute.web.store import MoveConflictError, StoredGame, StoredSeat

    store = SQLiteStore(tmp_path / "s.sqlite3")
    store.create(StoredGame("g1", "tres-fute", True, None, [StoredSeat("Ana", None, "h")]))
    store.append_moves("g1", 0, ["dice w1 y2 b3 g4 o5 p6"], None)
    with pytest.raises(MoveConflictError):
        store.append_moves("g1", 0, ["dice w1 y2 b3 g4 o5 p6"], None)
    loaded = store.load("g1")
    assert loaded is not None and loaded.moves == ["dice w1 y2 b3 g4 o5 p6"] and loaded.revision == 1


# --- WebSocket ------------------------------------------------------------------------------


def test_every_listener_gets_each_change_live(client: TestClient) -> None:
    created = new_game(client)
    token = created["seats"][0]["token"]
    ws_path = f"/api/games/{created['id']}/ws"
    with client.websocket_connect(ws_path) as watcher, client.websocket_connect(ws_path) as seat:
        watcher.send_json({"type": "hello"})
        seat.send_json({"type": "hello", "token": token, "lang": "en"})
        first = watcher.receive_json()
        assert first["type"] == "state" and first["state"]["you"] is None
        mine = seat.receive_json()["state"]
        assert mine["you"] == 0 and mine["legal"][0]["label"] == "Roll the dice"
        act(client, created["id"], token, "roll", mine["seq"])
        update = watcher.receive_json()["state"]
        assert update["revision"] == mine["revision"] + 1 and update["state"]["dice"][0]["value"]
        assert seat.receive_json()["state"]["legal"][0]["move"] != "roll"


@pytest.mark.parametrize(
    "hello",
    [
        "not json",
        '{"type": "hello", "token": "bad token!"}',
        '{"type": "subscribe"}',
        '{"type": "hello", "token": "' + "a" * 32 + '"}',
        "{" + " " * 2000 + "}",
    ],
)
def test_a_bad_hello_on_the_websocket_gets_an_error_and_is_closed(client: TestClient, hello: str) -> None:
    created = new_game(client)
    with client.websocket_connect(f"/api/games/{created['id']}/ws") as socket:
        socket.send_text(hello)
        message = socket.receive_json()
        assert message["type"] == "error" and message["error"]
        with pytest.raises(WebSocketDisconnect) as closed:  # closed by the server, as a policy violation
            socket.receive_json()
        assert closed.value.code == 1008


def test_bytes_on_the_websocket_get_an_error_a_bad_hello_gets_and_change_nothing(client: TestClient) -> None:
    """The messages are text (JSON): bytes instead of the hello close the socket with the reason;
    bytes later are answered with it, and the page keeps listening."""
    created = new_game(client)
    token = created["seats"][0]["token"]
    path = f"/api/games/{created['id']}/ws"
    with client.websocket_connect(path) as socket:
        socket.send_bytes(b'{"type": "hello"}')
        message = socket.receive_json()
        assert message["type"] == "error" and "JSON" in message["error"]
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 1008
    with client.websocket_connect(path) as socket:
        socket.send_json({"type": "hello", "token": token})
        assert socket.receive_json()["type"] == "state"
        socket.send_bytes(b"\x00")
        assert "JSON" in socket.receive_json()["error"]
        moved = client.post(
            f"/api/games/{created['id']}/act", json={"move": "roll", "seq": 0}, headers={"X-Seat-Token": token}
        )
        assert moved.status_code == 200
        assert socket.receive_json()["state"]["revision"] == moved.json()["revision"], "still listening"


def test_after_the_hello_a_page_is_answered_in_the_language_it_chose(client: TestClient) -> None:
    created = new_game(client)
    token = created["seats"][0]["token"]
    path = f"/api/games/{created['id']}/ws"
    for lang, not_bytes, too_large in [
        ("en", "a message is text (JSON), not bytes", "the message is too large"),
        ("fr", "un message est du texte (JSON), pas des octets", "le message est trop grand"),
    ]:
        with client.websocket_connect(path) as socket:
            socket.send_json({"type": "hello", "token": token, "lang": lang})
            assert socket.receive_json()["type"] == "state"
            socket.send_bytes(b"\x00")
            assert socket.receive_json() == {"type": "error", "error": not_bytes}
            socket.send_text("x" * 2000)
            assert socket.receive_json() == {"type": "error", "error": too_large}


def test_a_change_is_viewed_once_for_each_seat_and_language_among_the_pages(client: TestClient) -> None:
    """A move's own view (its answer) is what the mover's pages get; the spectators' pages in one
    language share one view: a table's pages cost one view each of who they are, not each page."""
    created = new_game(client)
    token = created["seats"][0]["token"]
    path = f"/api/games/{created['id']}/ws"
    host = client.app.state.host  # type: ignore[attr-defined]
    hellos = [
        {"type": "hello", "token": token, "lang": "fr"},  # the mover's page, and a second tab
        {"type": "hello", "token": token, "lang": "fr"},
        {"type": "hello", "lang": "fr"},  # two spectators in French, one in English
        {"type": "hello", "lang": "fr"},
        {"type": "hello", "lang": "en"},
    ]
    with contextlib.ExitStack() as pages:
        sockets = [pages.enter_context(client.websocket_connect(path)) for _ in hellos]
        for socket, hello in zip(sockets, hellos, strict=True):
            socket.send_json(hello)
            assert socket.receive_json()["type"] == "state"
        views: list[tuple[int | None, str]] = []
        view = host.view
        host.view = lambda table, seat, language: views.append((seat, language)) or view(table, seat, language)
        answer = client.post(
            f"/api/games/{created['id']}/act", json={"move": "roll", "seq": 0}, headers={"X-Seat-Token": token}
        )
        assert answer.status_code == 200
        pushed = [socket.receive_json()["state"] for socket in sockets]
        assert pushed[0] == pushed[1] == answer.json()
        assert [state["you"] for state in pushed] == [0, 0, None, None, None]
        assert {state["revision"] for state in pushed} == {answer.json()["revision"]}
        assert "legal" not in pushed[2] and pushed[2] == pushed[3] != pushed[4], "in French, in English"
        assert sorted(views, key=str) == sorted([(0, "fr"), (None, "fr"), (None, "en")], key=str)


def test_a_websocket_for_an_unknown_game_is_refused(client: TestClient) -> None:
    with client.websocket_connect("/api/games/nope/ws") as socket:
        socket.send_json({"type": "hello"})
        assert socket.receive_json() == {"type": "error", "error": "cette partie n’existe pas"}


def test_a_server_stopped_while_a_computer_player_was_to_act_goes_on_at_restart(tmp_path: Path) -> None:
    from tresfute.web.store import StoredGame, StoredSeat, token_hash

    path = tmp_path / "games.sqlite3"
    store = SQLiteStore(path)
    token = "t" * 32
    # the record stops where the computer player (seat 1, the first to roll) must act
    store.create(
        StoredGame(
            "stopped",
            "tres-fute",
            False,
            fair_dice.new_secret(),
            [StoredSeat("Robot", "greedy", None), StoredSeat("Ana", None, token_hash(token))],
        )
    )
    store.close()
    client = TestClient(create_app(database=path))
    first = state(client, "stopped", token)  # answered at once: the computer player plays after it
    assert first["revision"] == 0
    view = state(client, "stopped", token)
    assert view["revision"] > 0 and view["state"]["dice"][0]["value"], "the computer player rolled and played on"
    assert records.replay(records.loads(client.get("/api/games/stopped/record").text)).round == 1


def test_a_served_application_keeps_what_it_was_built_with_out_of_full_collections(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`tresfute serve` runs the application through `served`: what exists once it is built
    lives as long as the process, and the garbage collector's full passes no longer walk it;
    the collector runs less often there (a request makes many objects, and no cycles)."""
    import gc

    import uvicorn
    from click.testing import CliRunner

    from tresfute.cli import main
    from tresfute.web.app import SERVER_GC_THRESHOLDS, served

    thresholds = gc.get_threshold()
    ran: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: ran.append((app, gc.get_freeze_count())))
    try:
        result = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "games.sqlite3")])
        assert result.exit_code == 0, result.output
        ((app, frozen),) = ran
        assert app.state.host is not None and frozen > 10_000, "the modules and the app are left out"
        gc.unfreeze()
        built = create_app(database=tmp_path / "other.sqlite3")
        assert served(built) is built and gc.get_freeze_count() > 10_000
        assert gc.get_threshold() == SERVER_GC_THRESHOLDS
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


async def until(condition: Callable[[], bool], what: str, timeout: float = 20) -> None:
    """Wait, on the event loop, until ``condition()`` holds; fail after ``timeout`` seconds."""
    import asyncio

    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.005)


def test_game_work_runs_in_a_game_thread_and_its_result_or_error_comes_back_to_the_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Game work leaves the event loop for a game thread, with the request's context (its
    language); what it returns or raises reaches the awaiting request; a request that gave up
    (its client went away) leaves the threads serving the next ones."""
    import asyncio
    import contextvars
    import threading

    from tresfute.web import threads as threads_module
    from tresfute.web.threads import GameThreads

    language: contextvars.ContextVar[str] = contextvars.ContextVar("language", default="fr")
    threads = GameThreads(2)
    release = threading.Event()
    began: list[str] = []  # each slow work, once a thread runs it
    dropped: list[object] = []  # the answers that came back to a request that had gone

    def settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
        if future.cancelled():
            dropped.append(result)
        settled(future, result, error)

    settled = threads_module._settle
    monkeypatch.setattr(threads_module, "_settle", settle)

    def slow() -> str:
        began.append("slow")
        release.wait(5)
        return "too late"

    def fail() -> None:
        raise ValueError("illegal move")

    async def main() -> None:
        language.set("en")
        name, spoken = await threads.run(lambda: (threading.current_thread().name, language.get()))
        assert name.startswith("tresfute-game-") and spoken == "en"
        with pytest.raises(ValueError, match="illegal move"):
            await threads.run(fail)
        abandoned = asyncio.ensure_future(threads.run(slow))
        await until(lambda: len(began) == 1, "the slow work did not begin")
        abandoned.cancel()
        release.set()
        assert await threads.run(lambda x, y: x + y, 2, 3) == 5
        await until(lambda: dropped == ["too late"], "the abandoned work's answer did not come back")
        with pytest.raises(RuntimeError, match="StopIteration"):  # which a future cannot hold
            await threads.run(next, iter(()))
        release.clear()
        done: list[str] = []
        busy = [asyncio.ensure_future(threads.run(slow)) for _ in range(2)]  # both threads
        await until(lambda: len(began) == 3, "both threads did not take the slow work")
        never = asyncio.ensure_future(threads.run(done.append, "played"))
        await until(lambda: threads._work.qsize() == 1, "the work did not wait for a thread")
        never.cancel()  # its request went away before a thread was free: its work is not done
        release.set()
        assert await asyncio.gather(*busy) == ["too late", "too late"]
        assert await threads.run(len, done) == 0 and done == []

    asyncio.run(main())


def test_a_record_is_written_out_in_a_game_thread_never_on_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A computer player thinks holding its table's lock: the record waits for it in a game
    thread, never on the event loop, which answers every request (it waited there, blocking
    them all, while a computer player thought)."""
    import threading

    created = new_game(client, seats=[{"name": "Ana"}, {"name": "Robot", "bot": "greedy"}])
    host = client.app.state.host  # type: ignore[attr-defined]
    record = host.record
    threads: list[str] = []
    monkeypatch.setattr(host, "record", lambda table: threads.append(threading.current_thread().name) or record(table))
    response = client.get(f"/api/games/{created['id']}/record")
    assert response.status_code == 200 and records.loads(response.text).players == ["Ana", "Robot"]
    assert len(threads) == 1 and threads[0].startswith("tresfute-game-")


class Page:
    """A page's WebSocket, as the server sees it: the revisions it was sent."""

    def __init__(self) -> None:
        self.got: list[int] = []

    async def send_text(self, text: str) -> None:
        self.got.append(json.loads(text)["state"]["revision"])


def told(notices: Any) -> Any:
    """A database's notices, as ``forward_changes`` listens to them: those put on the queue."""

    async def changes() -> Any:
        while True:
            yield await notices.get()

    return changes


def test_a_table_slow_to_bring_up_to_date_holds_back_no_other_tables_notices() -> None:
    """The database's notices are read as they come: while one table is being brought up to
    date (its game thread busy), another table's pages get its change; the first table's
    changes told meanwhile are then taken in one go, in their order."""
    import asyncio
    import threading
    from types import SimpleNamespace

    from tresfute.web.listeners import Listeners, forward_changes
    from tresfute.web.store import Change

    release = threading.Event()
    calls: list[tuple[str, list[int]]] = []

    class SlowHost:
        def holding(self, change: Change) -> None:
            return None

        def told(self, table_id: str, changes: list[Change]) -> Any:
            calls.append((table_id, [c.revision for c in changes]))
            if table_id == "slow":
                release.wait(10)
            stored = SimpleNamespace(revision=changes[-1].revision)
            return SimpleNamespace(id=table_id, stored=stored, lock=threading.RLock())

        def view(self, table: Any, seat: int | None, language: str) -> dict[str, Any]:
            return {"revision": table.stored.revision}

    async def scenario() -> None:
        listeners = Listeners()
        pages = {"slow": Page(), "fast": Page()}
        for table_id, page in pages.items():
            listeners.add(table_id, page, None, "fr")  # type: ignore[arg-type]
        notices: asyncio.Queue[Change | None] = asyncio.Queue()

        forwarding = asyncio.create_task(forward_changes(SlowHost(), listeners, told(notices)))  # type: ignore[arg-type]
        for notice in [Change("slow", 1), Change("fast", 1), Change("slow", 2), Change("slow", 3)]:
            notices.put_nowait(notice)
        for _ in range(500):
            if pages["fast"].got:
                break
            await asyncio.sleep(0.01)
        assert pages["fast"].got == [1] and pages["slow"].got == [], "the fast table's page is told first"
        release.set()
        for _ in range(500):
            if pages["slow"].got[-1:] == [3]:
                break
            await asyncio.sleep(0.01)
        assert pages["slow"].got == [1, 3]
        assert sorted(calls[:2]) == [("fast", [1]), ("slow", [1])] and calls[2:] == [("slow", [2, 3])]
        forwarding.cancel()

    asyncio.run(scenario())


def test_a_move_refused_as_out_of_date_sends_the_pages_the_game_as_it_stands(tmp_path: Path) -> None:
    """Another server played the seat's move (the page got no answer, and sends it again here):
    this server's copy was behind; the repeat is refused (409), and the seat's page is sent the
    game as it now stands, which the refusal brought this server up to."""
    path = tmp_path / "games.sqlite3"
    client = TestClient(create_app(database=path))
    created = new_game(client)
    token, game_id = created["seats"][0]["token"], created["id"]
    with client.websocket_connect(f"/api/games/{game_id}/ws") as page:
        page.send_json({"type": "hello", "token": token})
        shown = page.receive_json()["state"]
        other = SQLiteStore(path)  # the other server writes Ana's roll
        other.append_moves(game_id, 0, ["dice w1 y2 b3 g4 o5 p6"], 0, revision=shown["revision"])
        repeated = act(client, game_id, token, "roll", shown["seq"])
        assert repeated.status_code == 409
        received: queue.Queue[Any] = queue.Queue()  # a page told nothing fails the test, not hangs it
        threading.Thread(target=lambda: received.put(page.receive_json()), daemon=True).start()
        update = received.get(timeout=20)["state"]
        assert update["revision"] == shown["revision"] + 1 and update["seq"] == shown["seq"] + 1
        assert [d["value"] for d in update["state"]["dice"]][:2] == [1, 2]


def test_a_notice_of_a_game_no_page_here_watches_is_passed_over() -> None:
    """Every server is told every move of every game; one whose pages are elsewhere costs this
    server nothing: its copy is neither looked at nor read (a page that comes reads it whole)."""
    import asyncio
    from types import SimpleNamespace

    from tresfute.web.listeners import Listeners, forward_changes
    from tresfute.web.store import Change

    asked: list[str] = []

    class Host:
        def holding(self, change: Change) -> None:
            asked.append(change.game_id)
            return None

        def told(self, table_id: str, changes: list[Change]) -> Any:
            asked.append(table_id)
            stored = SimpleNamespace(revision=changes[-1].revision)
            return SimpleNamespace(id=table_id, stored=stored, lock=threading.RLock())

        def view(self, table: Any, seat: int | None, language: str) -> dict[str, Any]:
            return {"revision": table.stored.revision}

    async def scenario() -> None:
        listeners, page = Listeners(), Page()
        listeners.add("watched", page, None, "fr")  # type: ignore[arg-type]
        notices: asyncio.Queue[Change | None] = asyncio.Queue()
        forwarding = asyncio.create_task(forward_changes(Host(), listeners, told(notices)))  # type: ignore[arg-type]
        for notice in [Change("elsewhere", 4), Change("elsewhere", 5, own=True), Change("watched", 2)]:
            notices.put_nowait(notice)
        await until(lambda: page.got == [2], "the watched game's page was not told")
        assert set(asked) == {"watched"}
        forwarding.cancel()

    asyncio.run(scenario())


def test_a_change_told_late_does_not_hide_a_newer_one_told_before_it() -> None:
    """A server's own change comes back from the database a moment late, and may follow a newer
    change of another server's: the table is brought up to the newest, not left at the late one."""
    import asyncio
    from types import SimpleNamespace

    from tresfute.web.listeners import Listeners, forward_changes
    from tresfute.web.store import Change

    release = threading.Event()
    copy = SimpleNamespace(id="g", stored=SimpleNamespace(revision=6), lock=threading.RLock())

    telling = threading.Event()

    class Host:
        def holding(self, change: Change) -> Any:
            return copy if copy.stored.revision >= change.revision else None

        def told(self, table_id: str, changes: list[Change]) -> Any:
            telling.set()
            release.wait(10)
            copy.stored.revision = max(copy.stored.revision, *(c.revision for c in changes))
            return copy

        def view(self, table: Any, seat: int | None, language: str) -> dict[str, Any]:
            return {"revision": table.stored.revision}

    async def scenario() -> None:
        listeners, page = Listeners(), Page()
        listeners.add("g", page, None, "fr")  # type: ignore[arg-type]
        notices: asyncio.Queue[Change | None] = asyncio.Queue()

        forwarding = asyncio.create_task(forward_changes(Host(), listeners, told(notices)))  # type: ignore[arg-type]
        # an update to 7 under way (its game thread busy); then another server's 9, then 7 again
        # (as this server's own change is, told late): once at 7, the copy holds 7 but not 9
        for notice in [Change("g", 7), Change("g", 9), Change("g", 7)]:
            notices.put_nowait(notice)
        await until(lambda: telling.is_set() and notices.empty(), "the notices were not read")
        release.set()
        for _ in range(500):
            if page.got[-1:] == [9]:
                break
            await asyncio.sleep(0.01)
        assert page.got[-1:] == [9] and copy.stored.revision == 9
        forwarding.cancel()

    asyncio.run(scenario())

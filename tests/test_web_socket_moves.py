"""A seat's moves sent on its page's WebSocket, as the page sends them while its socket is open.

Each test states what a page does on its socket and what must happen: the same game as over
HTTP, the same refusals (status and sentence), nothing changed by a refused or malformed
message, and the other pages told of every change.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from tresfute.web.app import create_app
from tresfute.web.store import SQLiteStore


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(database=tmp_path / "games.sqlite3"))


def new_game(client: TestClient, seats: list[dict[str, Any]] | None = None) -> tuple[str, str]:
    created = client.post("/api/games", json={"game": "tres-fute", "seats": seats or [{"name": "Ana"}]})
    assert created.status_code == 201, created.text
    return created.json()["id"], created.json()["seats"][0]["token"]


def listening(socket: WebSocketTestSession, token: str | None, lang: str = "fr") -> dict[str, Any]:
    """Say hello; the state the page is sent first."""
    socket.send_json({"type": "hello", "token": token, "lang": lang})
    first = socket.receive_json()
    assert first["type"] == "state", first
    return first["state"]


def reply(socket: WebSocketTestSession) -> dict[str, Any]:
    """The answer to the page's change, or its refusal (a refusal may come after the game's state
    is sent again to every page: it was brought up to date before the change was refused)."""
    while (told := socket.receive_json())["type"] == "state":
        pass
    return told


def refusal_over_http(
    client: TestClient, game_id: str, token: str, body: dict[str, Any], number: int, lang: str = "fr"
) -> dict[str, Any]:
    """The socket's refusal of move ``number`` that HTTP's answer to the same move says: its
    status and its sentence."""
    answer = client.post(f"/api/games/{game_id}/act?lang={lang}", json=body, headers={"X-Seat-Token": token})
    return {"type": "error", "id": number, "status": answer.status_code, "error": answer.json()["error"]}


def test_a_move_on_the_socket_is_answered_there_and_the_other_pages_are_told(client: TestClient) -> None:
    game_id, token = new_game(client)
    path = f"/api/games/{game_id}/ws"
    with client.websocket_connect(path) as page, client.websocket_connect(path) as spectator:
        shown = listening(page, token)
        listening(spectator, None)
        page.send_json({"type": "act", "id": 7, "move": "roll", "seq": shown["seq"]})
        answer = page.receive_json()
        assert answer["type"] == "answer" and answer["id"] == 7
        assert answer["state"]["revision"] == shown["revision"] + 1 and answer["state"]["you"] == 0
        told = spectator.receive_json()["state"]
        assert told["revision"] == answer["state"]["revision"] and told["you"] is None
        over_http = client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": token}).json()
        assert over_http == answer["state"], "the answer is the seat's view, as HTTP gives it"
        # the mover's page got its answer and no second copy: the next message is the next change
        move = answer["state"]["legal"][0]["move"]
        page.send_json({"type": "act", "id": 8, "move": move, "seq": answer["state"]["seq"]})
        assert page.receive_json()["id"] == 8


def test_an_undo_on_the_socket_takes_the_move_back(client: TestClient) -> None:
    game_id, token = new_game(client)
    with client.websocket_connect(f"/api/games/{game_id}/ws") as page:
        shown = listening(page, token)
        page.send_json({"type": "act", "id": 0, "move": "roll", "seq": shown["seq"]})
        rolled = page.receive_json()["state"]
        page.send_json({"type": "act", "id": 1, "move": rolled["legal"][0]["move"], "seq": rolled["seq"]})
        chosen = page.receive_json()["state"]
        assert chosen["can_undo"], chosen["status"]
        page.send_json({"type": "undo", "id": 2, "seq": chosen["seq"]})
        undone = page.receive_json()
        assert undone["id"] == 2 and undone["state"]["state"] == rolled["state"]


def test_a_stale_move_on_the_socket_is_refused_as_over_http_and_changes_nothing(client: TestClient) -> None:
    game_id, token = new_game(client)
    with client.websocket_connect(f"/api/games/{game_id}/ws?lang=en") as page:
        shown = listening(page, token, "en")
        page.send_json({"type": "act", "id": 1, "move": "roll", "seq": shown["seq"]})
        played = page.receive_json()["state"]
        page.send_json({"type": "act", "id": 2, "move": "roll", "seq": shown["seq"]})  # sent again: played once
        refused = reply(page)
        assert refused == refusal_over_http(client, game_id, token, {"move": "roll", "seq": shown["seq"]}, 2, "en")
        assert refused["status"] == 409
        assert (
            client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": token}).json()["revision"]
            == played["revision"]
        )


def test_an_illegal_move_on_the_socket_is_refused_with_its_reason(client: TestClient) -> None:
    game_id, token = new_game(client)
    with client.websocket_connect(f"/api/games/{game_id}/ws") as page:
        shown = listening(page, token)
        page.send_json({"type": "act", "id": 3, "move": "yellow 1 6", "seq": shown["seq"]})
        refused = reply(page)
        assert client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": token}).json() == shown, "nothing changed"
        assert refused == refusal_over_http(client, game_id, token, {"move": "yellow 1 6", "seq": shown["seq"]}, 3)
        assert refused["status"] == 422 and "yellow 1 6" in refused["error"]


def test_a_spectator_s_page_cannot_move_on_its_socket(client: TestClient) -> None:
    game_id, token = new_game(client)
    with client.websocket_connect(f"/api/games/{game_id}/ws") as spectator:
        listening(spectator, None)
        spectator.send_json({"type": "act", "id": 0, "move": "roll", "seq": 0})
        refused = reply(spectator)
        assert refused["type"] == "error" and refused["status"] == 401 and refused["id"] == 0
    assert client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": token}).json()["seq"] == 0


@pytest.mark.parametrize(
    ("message", "problem"),
    [
        ('{"type": "act", "id": 0, "seq": 0}', "move"),
        ('{"type": "act", "id": 0, "move": "roll", "seq": "0"}', "seq"),
        ('{"type": "act", "id": -1, "move": "roll", "seq": 0}', "id"),
        ('{"type": "jump", "id": 0}', "type"),
        ("not json", "JSON"),
        ('{"type": "undo", "id": 0, "seq": 0, "extra": 1}', "extra"),
    ],
)
def test_a_malformed_message_on_the_socket_is_answered_with_its_problem_and_changes_nothing(
    client: TestClient, message: str, problem: str
) -> None:
    game_id, token = new_game(client)
    with client.websocket_connect(f"/api/games/{game_id}/ws") as page:
        shown = listening(page, token, "en")
        page.send_text(message)
        told = page.receive_json()
        assert told["type"] == "error" and told["error"].startswith("malformed message") and problem in told["error"]
        page.send_json({"type": "act", "id": 1, "move": "roll", "seq": shown["seq"]})
        assert page.receive_json()["type"] == "answer", "still listening, and the game as it was"


def test_a_move_on_the_socket_while_the_database_refuses_writes_is_refused_for_now(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "games.sqlite3")
    client = TestClient(create_app(store=store))
    game_id, token = new_game(client)
    with client.websocket_connect(f"/api/games/{game_id}/ws") as page:
        shown = listening(page, token, "en")
        store._db.execute("PRAGMA query_only = ON")  # as a file made read-only under the server
        page.send_json({"type": "act", "id": 0, "move": "roll", "seq": shown["seq"]})
        refused = reply(page)
        assert refused["type"] == "error" and refused["status"] == 503 and "try again" in refused["error"]
        store._db.execute("PRAGMA query_only = OFF")
        page.send_json({"type": "act", "id": 1, "move": "roll", "seq": shown["seq"]})
        assert reply(page)["state"]["revision"] == shown["revision"] + 1, "sent again, played once"
    assert len(store.load(game_id).moves) == 1  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("first", "said"),
    [
        ("x" * 2000, "message mal formé : le message est trop grand"),
        (b"\x00", "message mal formé : un message est du texte (JSON), pas des octets"),
        (
            '{"type": "hello", "lang": "en", "token": "' + "a" * 2000 + '"}',
            "malformed message: the message is too large",
        ),
        ('{"type": "hello", "lang": "en", "tok": 1}', "malformed message: tok is not a field of this request"),
        ("[" * 1000, "message mal formé : le message est imbriqué trop profondément"),  # was a RecursionError
        ("[" * 300 + "]" * 300, "message mal formé : le message est imbriqué trop profondément"),
    ],
)
def test_a_first_message_refused_is_told_wholly_in_the_language_it_asks_for(
    client: TestClient, first: str | bytes, said: str
) -> None:
    """The hello is where a page says its language: a refused one is told in that language (French
    when it cannot be read), every word of it; the socket is then closed."""
    game_id, _token = new_game(client)
    with client.websocket_connect(f"/api/games/{game_id}/ws") as page:
        if isinstance(first, bytes):
            page.send_bytes(first)
        else:
            page.send_text(first)
        told = page.receive_json()
        assert told["type"] == "error" and told["error"].replace("\u00a0", " ") == said
        with pytest.raises(WebSocketDisconnect) as closed:
            page.receive_json()
        assert closed.value.code == 1008


@pytest.mark.parametrize(
    ("message", "said"),
    [
        ("{}", "message mal formé : le message doit avoir un champ 'type'"),
        (
            '{"type": "bogus", "id": 3}',
            "message mal formé : le message : 'type' doit être l'un de 'act', 'undo', pas 'bogus'",
        ),
    ],
)
def test_a_change_of_no_known_type_is_told_in_the_page_s_language(client: TestClient, message: str, said: str) -> None:
    game_id, token = new_game(client)
    with client.websocket_connect(f"/api/games/{game_id}/ws") as page:
        listening(page, token, "fr")
        page.send_text(message)
        told = page.receive_json()
        assert told["type"] == "error" and told["error"].replace("\u00a0", " ") == said

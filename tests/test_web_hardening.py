"""Issue 72's hardening of the web server (items 7, 8, 10, 12): private answers kept out of
caches, a request's body checked before anything runs (its length, its encoding, a key given
twice), HEAD answered with GET's headers under compression, query numbers written in digits, and
malformed requests said in the asker's language. Each refusal changes nothing."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tresfute.web.app import create_app

SOLO = {"game": "tres-fute", "seats": [{"name": "Ana"}]}
LISTED = {"game": "tres-fute", "seats": [{"name": "Ana"}, {"name": "Bob"}], "listed": True}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(database=tmp_path / "games.sqlite3", challenge_bot="greedy")) as made:
        yield made


def open_tables(client: TestClient) -> list[Any]:
    games: list[Any] = client.get("/api/open").json()["games"]
    return games


def vary(answer: Any) -> set[str]:
    return {part.strip().lower() for part in answer.headers.get("vary", "").split(",")}


def test_every_answer_that_depends_on_a_secret_is_private_and_not_stored(client: TestClient) -> None:
    """Item 7: a player's progress, its exports, the challenge history, a seat's view and steps
    (and every other answer to a request carrying a secret) say ``Cache-Control: private,
    no-store``; ``/api/players/me`` is one address for every player: ``Vary`` names the secrets."""
    player = client.post("/api/players", json={"name": "Ana"}).json()["token"]
    created = client.post("/api/games", json=SOLO, headers={"X-Player-Token": player}).json()
    seat = created["seats"][0]["token"]
    game = f"/api/games/{created['id']}"
    as_player = {"X-Player-Token": player}
    as_seat = {"X-Seat-Token": seat}
    asked = [
        ("/api/players/me", as_player),
        ("/api/players/me/games.csv", as_player),
        ("/api/players/me/records.json", as_player),
        ("/api/challenge/history", as_player),
        ("/api/challenge/tres-fute", as_player),
        (game, as_seat),
        (f"{game}/steps?since=0", as_seat),
        (f"{game}/record", as_seat),
        ("/api/players/me", {}),  # refused without the secret: still the player's own address
    ]
    for path, headers in asked:
        answer = client.get(path, headers=headers)
        assert answer.status_code == (401 if not headers else 200), (path, answer.text)
        cache = {part.strip() for part in answer.headers.get("cache-control", "").split(",")}
        assert {"private", "no-store"} <= cache, (path, answer.headers)
        assert {"x-player-token", "x-seat-token", "cookie", "accept-language"} <= vary(answer), path
    watched = client.get(game)  # a spectator's view depends on no secret: it says what it varies on
    assert "no-store" not in watched.headers.get("cache-control", "") and "x-seat-token" in vary(watched)


def test_a_body_shorter_or_longer_than_its_content_length_is_refused_and_runs_nothing(client: TestClient) -> None:
    """Item 8: a body that is not as long as its ``Content-Length`` says is refused (400)."""
    body = json.dumps(LISTED).encode()
    for said in (len(body) + 40, len(body) - 5):
        answer = client.post(
            "/api/games?lang=en",
            content=body,
            headers={"Content-Type": "application/json", "Content-Length": str(said)},
        )
        assert answer.status_code == 400, answer.text
        assert answer.json() == {"error": "the request's body does not have the length its Content-Length header says"}
    assert open_tables(client) == []
    assert client.post("/api/games", content=body, headers={"Content-Type": "application/json"}).status_code == 201


def test_a_body_with_a_content_encoding_is_refused_415(client: TestClient) -> None:
    """Item 12: the server decodes no ``Content-Encoding``; a body sent compressed was read as it
    came (and refused as a malformed one): 415, saying so, with ``Accept-Encoding: identity``."""
    body = gzip.compress(json.dumps(LISTED).encode())
    for encoding in ("gzip", "br", "x-unknown"):
        answer = client.post(
            "/api/games?lang=en",
            content=body,
            headers={"Content-Type": "application/json", "Content-Encoding": encoding},
        )
        assert answer.status_code == 415, answer.text
        assert "decodes no Content-Encoding" in answer.json()["error"]
        assert answer.headers["accept-encoding"] == "identity"
    in_french = client.post("/api/games?lang=fr", content=body, headers={"Content-Encoding": "gzip"})
    assert in_french.json()["error"].startswith("le corps de la requête s’envoie tel quel")
    assert open_tables(client) == []
    plain = client.post("/api/games", json=LISTED, headers={"Content-Encoding": "identity"})
    assert plain.status_code == 201


def test_a_key_given_twice_is_refused_in_a_body_and_on_the_socket(client: TestClient) -> None:
    """Item 10: as in a record file, a JSON object that gives a key twice is refused (422, a
    clear sentence), in every body and in the WebSocket's messages; nothing is done."""
    twice = b'{"game": "tres-fute", "seats": [{"name": "Ana"}, {"name": "Bob"}], "listed": false, "listed": true}'
    answer = client.post("/api/games?lang=en", content=twice, headers={"Content-Type": "application/json"})
    assert answer.status_code == 422
    assert answer.json() == {"error": "malformed request: the key 'listed' is given twice in the same object"}
    assert open_tables(client) == []
    named = client.post("/api/players?lang=fr", content='{"name": "Ana", "name": "Zoé"}'.encode())
    assert named.status_code == 422
    assert named.json()["error"] == "requête mal formée\u00a0: la clé 'name' est donnée deux fois dans le même objet"
    created = client.post("/api/games", json=SOLO).json()
    game, seat = f"/api/games/{created['id']}", created["seats"][0]["token"]
    before = client.get(game, headers={"X-Seat-Token": seat}).json()
    move = before["legal"][0]["move"]
    moved = client.post(
        f"{game}/act?lang=en",
        content=json.dumps({"move": move, "seq": before["seq"]})[:-1].encode() + b', "seq": 99}',
        headers={"X-Seat-Token": seat},
    )
    assert moved.status_code == 422 and "the key 'seq' is given twice" in moved.json()["error"]
    assert client.get(game, headers={"X-Seat-Token": seat}).json()["revision"] == before["revision"]
    with client.websocket_connect(f"{game}/ws?lang=en") as socket:
        socket.send_text(f'{{"type": "hello", "token": "{seat}", "token": null}}')
        said = socket.receive_json()
        assert said == {
            "type": "error",
            "error": "malformed message: the key 'token' is given twice in the same object",
        }
        with pytest.raises(WebSocketDisconnect):
            socket.receive_json()
    with client.websocket_connect(f"{game}/ws?lang=en") as socket:
        socket.send_text(json.dumps({"type": "hello", "token": seat}))
        assert socket.receive_json()["type"] == "state"
        socket.send_text(f'{{"type": "act", "id": 1, "move": "{move}", "seq": {before["seq"]}, "seq": 7}}')
        said = socket.receive_json()
        assert said["type"] == "error" and "the key 'seq' is given twice" in said["error"]
        socket.send_text(json.dumps({"type": "act", "id": 2, "move": move, "seq": before["seq"]}))
        assert socket.receive_json()["type"] == "answer"  # the socket stayed open


@pytest.mark.parametrize("path", ["/", "/api/strings", "/api/layout/vraiment-tres-fute", "/static/js/end.js"])
def test_head_answers_with_the_headers_get_does_under_compression(client: TestClient, path: str) -> None:
    """Item 12: HEAD's headers are GET's, compressed (``Content-Encoding``, its length, ``Vary``)."""
    headers = {"Accept-Encoding": "gzip"}
    got, head = client.get(path, headers=headers), client.head(path, headers=headers)
    assert got.headers["content-encoding"] == "gzip"
    assert head.status_code == got.status_code == 200 and head.content == b""
    assert {k: v for k, v in head.headers.items() if k != "date"} == {
        k: v for k, v in got.headers.items() if k != "date"
    }


def test_a_query_number_is_written_in_digits(client: TestClient) -> None:
    """Item 12: ``move_number=1.0`` was read as 1; a number in the address is digits only."""
    created = client.post("/api/games", json=SOLO).json()
    practice = f"/api/games/{created['id']}/practice"
    for query in ("move_number=1.0", "move_number=1e0", "move_number=%201", "move_number=1&player=1.0"):
        answer = client.get(f"{practice}?{query}&lang=en")
        assert answer.status_code == 422, (query, answer.text)
        assert answer.json()["error"].endswith("must be a whole number"), answer.text
    assert client.get(f"{practice}?move_number=1&player=1&lang=en").status_code == 409  # read: the game is not over


def test_a_game_s_position_and_steps_are_asked_in_digits(client: TestClient) -> None:
    """Item 12: ``at=1.0`` and ``since=1.0`` were read as 1, as ``move_number`` was."""
    created = client.post("/api/games", json=SOLO).json()
    state, steps = f"/api/games/{created['id']}", f"/api/games/{created['id']}/steps"
    for path in (f"{state}?at=1.0", f"{state}?at=1e0", f"{steps}?since=1.0", f"{steps}?since=%201"):
        answer = client.get(f"{path}&lang=en")
        assert answer.status_code == 422, (path, answer.text)
        assert answer.json()["error"].endswith("must be a whole number"), answer.text
    assert client.get(f"{steps}?since=0").status_code == 200


def test_malformed_requests_are_said_in_french_without_pydantic_s_english(client: TestClient) -> None:
    """Item 12: a name that is a lone surrogate was answered with pydantic's English sentence."""
    answer = client.post(
        "/api/players?lang=fr", content=b'{"name": "\\ud800"}', headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 422
    assert answer.json() == {"error": "requête mal formée\u00a0: name doit être du texte"}
    steps = client.get("/api/games/nope/steps?since=1.5&lang=de")
    assert steps.json() == {"error": "fehlerhafte Anfrage: since muss eine ganze Zahl sein"}


def test_each_middleware_passes_what_it_does_not_concern_through_untouched() -> None:
    """A WebSocket's or the lifespan's messages, a page outside ``/api/`` for the caches' rule, a
    GET for HEAD's: the application gets the very scope, receive and send (``HttpMiddleware``)."""
    import asyncio

    from tresfute.web.middleware import BodyLimit, HeadAsGet, PrivateAnswers, SecurityHeaders

    async def receive() -> dict[str, object]:
        return {"type": "websocket.connect"}

    async def send(_message: object) -> None:
        return None

    seen: list[tuple[object, object, object]] = []

    async def app(scope: object, got_receive: object, got_send: object) -> None:
        seen.append((scope, got_receive, got_send))

    socket = {"type": "websocket", "path": "/api/games/x/socket", "headers": []}
    page = {"type": "http", "method": "GET", "path": "/", "headers": []}
    for middleware, scope in [
        (SecurityHeaders, socket),
        (BodyLimit, socket),
        (PrivateAnswers, socket),
        (PrivateAnswers, page),
        (HeadAsGet, socket),
        (HeadAsGet, page),
        (BodyLimit, {"type": "lifespan"}),
    ]:
        seen.clear()
        asyncio.run(middleware(app)(scope, receive, send))
        assert seen == [(scope, receive, send)], middleware.__name__

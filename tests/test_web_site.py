"""The web server as a public site: the security headers on every answer, the API's documentation
served offline, every error in one JSON shape, and numbers read strictly."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tresfute.bots import BOTS
from tresfute.web.app import create_app


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(database=tmp_path / "games.sqlite3"))


def games_stored(tmp_path: Path) -> int:
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:
        return int(db.execute("SELECT count(*) FROM games").fetchone()[0])


def new_game(client: TestClient) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": "tres-fute", "seats": [{"name": "Ana"}]})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def policy(response: Any) -> dict[str, str]:
    """The Content-Security-Policy's directives, by name."""
    directives = (d.strip().split(" ", 1) for d in response.headers["content-security-policy"].split(";"))
    return {d[0]: d[1] if len(d) > 1 else "" for d in directives}


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    """The page, the API, static files, errors, HEAD and refusals before any route (a body too
    large) all carry them: the page runs only the site's own scripts and styles, is framed by
    no other site, is not sniffed into another type, and sends no address elsewhere."""
    game = new_game(client)
    answers = [
        client.get("/"),
        client.get(f"/g/{game['id']}"),
        client.get("/static/js/main.js"),
        client.get("/api/strings"),
        client.get(f"/api/games/{game['id']}"),
        client.post(f"/api/games/{game['id']}/act", json={"move": "roll", "seq": 0}),  # 401
        client.get("/api/games/nothing-here"),  # 404
        client.get("/static/nothing.js"),  # 404
        client.head("/"),
        client.post("/api/games", content=b"x" * 20_000, headers={"Content-Type": "application/json"}),  # 413
    ]
    for response in answers:
        csp = policy(response)
        assert csp["default-src"] == "'self'" and csp["script-src"] == "'self'" and csp["style-src"] == "'self'"
        assert csp["frame-ancestors"] == "'none'" and csp["base-uri"] == "'none'" and csp["connect-src"] == "'self'"
        assert "unsafe-inline" not in response.headers["content-security-policy"]
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "same-origin"  # as docs/web.md says
    assert [r.status_code for r in answers] == [200, 200, 200, 200, 200, 401, 404, 404, 200, 413]


def test_the_api_is_documented_at_docs_from_files_the_package_ships(client: TestClient) -> None:
    """``/docs`` shows Swagger UI from the package's own copy (the site may be offline): its
    page loads no script from elsewhere and no inline script; only its styles may be inline."""
    page = client.get("/docs")
    assert page.status_code == 200 and client.get("/api/docs").text == page.text
    assert "<script>" not in page.text and "http" not in page.text.replace('<html lang="en">', "")
    csp = policy(page)
    assert csp["script-src"] == "'self'" and csp["style-src"] == "'self' 'unsafe-inline'"
    assert csp["frame-ancestors"] == "'none'"
    for asset in (
        "/static/vendor/swagger-ui-5.35.0-bundle.js",
        "/static/vendor/swagger-ui-5.35.0.css",
        "/docs/start.js",
    ):
        assert asset in page.text
        answer = client.get(asset)
        assert answer.status_code == 200 and len(answer.content) > 100, asset
    assert "/api/openapi.json" in client.get("/docs/start.js").text
    described = client.get("/openapi.json").json()
    assert described == client.get("/api/openapi.json").json()
    assert {"/api/games", "/api/games/{game_id}/act", "/api/games/{game_id}/undo"} <= described["paths"].keys()
    licence = client.get("/static/vendor/swagger-ui-LICENSE.txt")
    assert licence.status_code == 200 and "Apache License" in licence.text


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/static/nothing.js", 404),
        ("GET", "/no/such/page", 404),
        ("GET", "/api/nothing", 404),
        ("DELETE", "/api/games", 405),
        ("GET", "/api/games/no-such-game", 404),
    ],
)
def test_every_error_is_one_sentence_in_the_documented_json_shape(
    client: TestClient, method: str, path: str, status: int
) -> None:
    for lang, word in (("fr", "adresse"), ("en", "address")):
        response = client.request(method, f"{path}?lang={lang}")
        assert response.status_code == status
        assert response.headers["content-type"] == "application/json"
        body = response.json()
        assert list(body) == ["error"] and isinstance(body["error"], str) and body["error"]
        if path != "/api/games/no-such-game":
            assert word in body["error"], body


def test_a_failure_of_the_server_is_said_in_the_same_shape(tmp_path: Path) -> None:
    app = create_app(database=tmp_path / "games.sqlite3")

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    app.state.host.open_tables = broken
    response = TestClient(app, raise_server_exceptions=False).get("/api/open?lang=en")
    assert response.status_code == 500 and response.json() == {
        "error": "the server failed to answer: try again in a moment"
    }
    for header in ("content-security-policy", "x-content-type-options", "referrer-policy", "x-frame-options"):
        assert response.headers[header], f"a failure's answer lacks {header}"
    assert response.headers["referrer-policy"] == "same-origin"


def test_a_malformed_request_is_told_in_sentences_of_the_players_language(client: TestClient) -> None:
    """Not pydantic's technical English: each problem a sentence naming its field."""
    game = new_game(client)
    token = game["seats"][0]["token"]
    url = f"/api/games/{game['id']}/act"
    fr = client.post(url, json={"move": "roll"}, headers={"X-Seat-Token": token}).json()["error"]
    assert fr == "requête mal formée\u00a0: seq manque"
    en = client.post(url + "?lang=en", json={"move": "roll", "seq": -1, "x": 1}, headers={"X-Seat-Token": token})
    head, _, problems = en.json()["error"].partition(": ")  # each problem once, in pydantic's order
    assert head == "malformed request"
    assert sorted(problems.split("; ")) == ["seq must be at least 0", "x is not a field of this request"]
    short = client.post(url + "?lang=en", json={"move": "roll", "seq": 0}, headers={"X-Seat-Token": "short"})
    assert short.json()["error"] == "malformed request: x-seat-token needs at least 16 characters"


def test_the_values_a_field_takes_are_listed_in_the_player_s_language(client: TestClient) -> None:
    """pydantic joins the values a field takes with an English "or": said in the page's language."""
    body = {"game": "tres-fute", "seats": [{"name": "Ana"}, {"name": "Ordi", "bot": "nope"}]}
    *names, last = (f"'{name}'" for name in BOTS)
    fr = client.post("/api/games", json=body)
    assert fr.status_code == 422
    assert fr.json()["error"] == f"requête mal formée\u00a0: seats.1.bot doit être l’un de {', '.join(names)} ou {last}"
    en = client.post("/api/games?lang=en", json=body).json()["error"]
    assert en == f"malformed request: seats.1.bot must be one of {', '.join(names)} or {last}"


@pytest.mark.parametrize("seq", ["0", 0.0, True, None, [0]])
def test_a_seq_that_is_not_a_json_number_is_refused_by_name(client: TestClient, seq: Any) -> None:
    """A forged request's ``"seq": "0"`` is not read as 0: the move is refused (422), its
    sentence names the field, and the game is unchanged."""
    game = new_game(client)
    token = game["seats"][0]["token"]
    for route, body in (("act", {"move": "roll", "seq": seq}), ("undo", {"seq": seq})):
        response = client.post(f"/api/games/{game['id']}/{route}?lang=en", json=body, headers={"X-Seat-Token": token})
        assert response.status_code == 422, response.text
        assert response.json()["error"].startswith("malformed request: seq must be a whole number"), response.text
    view = client.get(f"/api/games/{game['id']}", headers={"X-Seat-Token": token}).json()
    assert view["seq"] == 0 and view["revision"] == 0
    assert (
        client.post(
            f"/api/games/{game['id']}/act", json={"move": "roll", "seq": 0}, headers={"X-Seat-Token": token}
        ).status_code
        == 200
    )


@pytest.mark.parametrize("field", [{"real_dice": "false"}, {"real_dice": 0}, {"listed": "true"}])
def test_a_flag_that_is_not_true_or_false_is_refused(client: TestClient, field: dict[str, Any]) -> None:
    body = {"game": "tres-fute", "seats": [{"name": "Ana"}, {"name": "Bob"}], **field}
    response = client.post("/api/games?lang=en", json=body)
    assert response.status_code == 422 and next(iter(field)) in response.json()["error"]


def test_a_hello_whose_token_is_not_a_string_is_refused(client: TestClient) -> None:
    game = new_game(client)
    with client.websocket_connect(f"/api/games/{game['id']}/ws") as socket:
        socket.send_json({"type": "hello", "token": 12345678901234567890, "lang": "en"})
        message = socket.receive_json()
    assert message["type"] == "error" and message["error"].startswith("malformed message")


@pytest.mark.parametrize(
    ("lang", "too_large", "unreadable"),
    [
        ("fr", "la requête est trop grande", "le corps de la requête est illisible\u00a0: envoyez du JSON, en UTF-8"),
        ("en", "the request is too large", "the request's body cannot be read: send JSON, in UTF-8"),
    ],
)
def test_a_body_too_large_or_unreadable_is_refused_in_the_page_s_language(
    client: TestClient, tmp_path: Path, lang: str, too_large: str, unreadable: str
) -> None:
    """Refused before the request reaches a route (its size) or while its body is read (bytes
    that are not UTF-8): said in the language asked, not the server's, and nothing is made."""
    body = {"game": "tres-fute", "seats": [{"name": "x" * 20_000}]}
    response = client.post(f"/api/games?lang={lang}", json=body)
    assert response.status_code == 413 and response.json() == {"error": too_large}
    raw = b'{"game": "tres-fute", "seats": [{"name": "\xff"}]}'
    response = client.post(f"/api/games?lang={lang}", content=raw, headers={"Content-Type": "application/json"})
    assert response.status_code == 400 and response.json() == {"error": unreadable}
    assert games_stored(tmp_path) == 0


@pytest.mark.parametrize("name", ["", "   ", "\u200b", "\x00", "\t\n", "\u200b \u200d"])
def test_a_seat_named_by_nothing_visible_is_refused_where_any_name_is_given(
    client: TestClient, tmp_path: Path, name: str
) -> None:
    """No name, white space alone, control or zero-width characters: the same refusal (a
    sentence, not "malformed request: name needs at least 1 character") at a new game, a new
    player, a seat taken at an open table and the daily challenge; nothing is made."""
    refused = [
        client.post("/api/games", json={"game": "tres-fute", "seats": [{"name": name}]}),
        client.post("/api/games", json={"game": "tres-fute", "seats": [{"name": "Ana"}, {"name": name}]}),
        client.post("/api/players", json={"name": name}),
        client.post("/api/challenge/tres-fute", json={"name": name}),
    ]
    listed = client.post(
        "/api/games", json={"game": "tres-fute", "seats": [{"name": "Ana"}, {"name": "?"}], "listed": True}
    )
    refused.append(client.post(f"/api/games/{listed.json()['id']}/join", json={"name": name}))
    assert [(r.status_code, r.json()) for r in refused] == [(422, {"error": "choisissez un nom"})] * 5
    assert games_stored(tmp_path) == 1, "the open table alone"


def test_a_name_is_kept_as_shown_its_runs_of_space_one_space(client: TestClient) -> None:
    created = client.post("/api/games", json={"game": "tres-fute", "seats": [{"name": "  Ana \t Maria\x07 "}]})
    assert created.status_code == 201 and created.json()["seats"][0]["name"] == "Ana Maria"


def test_a_bound_on_a_length_is_said_with_its_noun_agreeing(client: TestClient) -> None:
    """ "at least 1 element", not "1 elements": the bound's number decides the noun's form."""
    for body, lang, said in (
        ({"game": "tres-fute", "seats": []}, "fr", "requête mal formée\u00a0: seats demande au moins 1 élément"),
        ({"game": "tres-fute", "seats": [{"name": "a"}] * 5}, "en", "malformed request: seats takes at most 4 entries"),
        (
            {"game": "tres-fute", "seats": [{"name": "a" * 41}]},
            "fr",
            "requête mal formée\u00a0: seats.0.name prend au plus 40 caractères",
        ),
    ):
        response = client.post(f"/api/games?lang={lang}", json=body)
        assert response.status_code == 422 and response.json() == {"error": said}
    game = client.post("/api/games", json={"game": "tres-fute", "seats": [{"name": "Ana"}]}).json()
    for lang, said in (
        ("fr", "requête mal formée\u00a0: move demande au moins 1 caractère"),
        ("en", "malformed request: move needs at least 1 character"),
    ):
        response = client.post(
            f"/api/games/{game['id']}/act?lang={lang}",
            json={"move": "", "seq": 0},
            headers={"X-Seat-Token": game["seats"][0]["token"]},
        )
        assert response.status_code == 422 and response.json() == {"error": said}


@pytest.mark.parametrize("headers", [{"Content-Type": "text/plain"}, {}])
def test_a_body_not_sent_as_json_is_told_so(client: TestClient, tmp_path: Path, headers: dict[str, str]) -> None:
    """A JSON object sent as text/plain (or with no type) is not read: say so, not "must be an object"."""
    body = b'{"game": "tres-fute", "seats": [{"name": "Ana"}]}'
    response = client.post("/api/games", content=body, headers=headers)
    assert response.status_code == 422
    assert response.json() == {"error": "envoyez le corps de la requête en JSON (type de contenu application/json)"}
    assert games_stored(tmp_path) == 0

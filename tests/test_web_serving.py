"""The server as ``tresfute serve`` runs it (uvicorn with tresfute's options, in a thread): the
bounds on a request's head and on a WebSocket message, and the language of its answers.

Each test states the promise of docs/web.md it checks.
"""

from __future__ import annotations

import json
import logging
import select
import socket
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tresfute.web.app import create_app
from tresfute.web.serving import REQUEST_LINE_LIMIT, uvicorn_options


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, int]]:
    """A server as ``serve`` runs it, on a socket bound here (no port picked then bound later)."""
    import uvicorn

    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    config = uvicorn.Config(create_app(database=tmp_path / "games.sqlite3"), **uvicorn_options("127.0.0.1", port))
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    yield "127.0.0.1", port
    server.should_exit = True
    thread.join(timeout=10)
    listening.close()


def answer_to(address: tuple[str, int], head: bytes, then: Iterable[bytes] = ()) -> tuple[bytes, int]:
    """Send ``head``, then the chunks of ``then`` while the server has not answered; the answer
    (up to the connection's end) and how many bytes were sent."""
    with socket.create_connection(address, timeout=10) as client:
        client.sendall(head)
        sent = len(head)
        for chunk in then:
            if select.select([client], [], [], 0)[0]:
                break
            try:
                client.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += len(chunk)
        answer = b""
        while part := client.recv(65536):
            answer += part
    return answer, sent


def status_and_body(answer: bytes) -> tuple[int, dict[str, Any]]:
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), json.loads(body)


def test_a_header_of_32_mb_is_refused_431_without_being_read_whole(
    served: tuple[str, int], caplog: pytest.LogCaptureFixture
) -> None:
    """docs/web.md: a head (request line and headers) over 32 KB is refused 431, said in the
    request's language; the server stops reading it at the bound (it answered 200, having read
    all 32 MB), and its log says it in one line."""
    head = b"GET /api/open?lang=en HTTP/1.1\r\nHost: here\r\nX-Big: "
    chunks = (b"a" * 65536 for _ in range(512))  # 32 MB, sent while no answer has come
    answer, sent = answer_to(served, head, chunks)
    status, body = status_and_body(answer)
    assert status == 431
    assert body == {"error": "the request's headers are too large: at most 32 KB together"}
    assert sent < 8 * 1024 * 1024, "answered long before the 32 MB were sent"
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert said == ["a request's head over its bound refused (431) from 127.0.0.1"]


def test_headers_over_the_bound_together_are_refused_and_a_request_within_it_served(served: tuple[str, int]) -> None:
    """docs/web.md: the bound is on the head as a whole (40 headers of 1 KB); 20 of them pass."""
    many = b"".join(b"X-Part-%d: %s\r\n" % (i, b"b" * 1000) for i in range(40))  # 40 headers of 1 KB
    answer, _sent = answer_to(served, b"GET /api/open HTTP/1.1\r\nHost: here\r\n" + many + b"\r\n")
    assert status_and_body(answer) == (
        431,
        {"error": "les en-têtes de la requête sont trop grands\u00a0: 32\u00a0Ko au plus en tout"},
    )
    fine = b"".join(b"X-Part-%d: %s\r\n" % (i, b"b" * 1000) for i in range(20))
    answer, _sent = answer_to(served, b"GET /api/open HTTP/1.1\r\nHost: here\r\nConnection: close\r\n" + fine + b"\r\n")
    assert status_and_body(answer) == (200, {"games": []})


def test_a_request_line_over_8_kb_is_refused_414(served: tuple[str, int]) -> None:
    """docs/web.md: a request line over 8 KB is refused 414."""
    target = b"/api/open?pad=" + b"p" * REQUEST_LINE_LIMIT
    answer, _sent = answer_to(served, b"GET " + target + b" HTTP/1.1\r\nHost: here\r\nAccept-Language: en\r\n\r\n")
    status, body = status_and_body(answer)  # refused before its headers are read: in the server's language
    assert status == 414 and body == {"error": "l’adresse demandée est trop longue\u00a0: 8\u00a0Ko au plus"}


def post(address: tuple[str, int], path: str, body: dict[str, Any]) -> dict[str, Any]:
    import http.client

    connection = http.client.HTTPConnection(*address, timeout=10)
    connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    response = connection.getresponse()
    assert response.status == 201
    created: dict[str, Any] = json.loads(response.read())
    connection.close()
    return created


def test_a_socket_message_too_large_is_answered_and_one_over_64_kb_closes_the_socket(served: tuple[str, int]) -> None:
    """docs/web.md: a message over 1 KB gets the error and the socket stays open; one over 64 KB
    (uvicorn's ``ws_max_size``) is not read: the server closes the socket with code 1009."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    created = post(served, "/api/games", {"game": "tres-fute", "seats": [{"name": "Ana"}]})
    game, token = created["id"], created["seats"][0]["token"]
    with connect(f"ws://{served[0]}:{served[1]}/api/games/{game}/ws") as page:
        page.send(json.dumps({"type": "hello", "token": token, "lang": "en"}))
        assert json.loads(page.recv(timeout=10))["type"] == "state"
        page.send("x" * 60_000)
        assert json.loads(page.recv(timeout=10)) == {"type": "error", "error": "the message is too large"}
        page.send(json.dumps({"type": "act", "id": 1, "move": "roll", "seq": 0}))
        while (told := json.loads(page.recv(timeout=10)))["type"] == "state":
            pass
        assert told["type"] == "answer" and told["id"] == 1, "still open, and playing"
        page.send("x" * (64 * 1024 + 1))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                page.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_serve_lang_en_answers_the_api_s_errors_in_english_unless_a_request_asks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/web.md: an error is in the request's language: ``?lang=``, else the first language of
    ``Accept-Language`` the server speaks, else ``serve --lang``'s, else French."""
    import uvicorn
    from click.testing import CliRunner
    from fastapi.testclient import TestClient

    from tresfute.cli import main

    monkeypatch.setenv("TRESFUTE_SERVE_LANG", "")  # serve --lang sets it: put back as it was after the test
    monkeypatch.delenv("TRESFUTE_SERVE_LANG")
    ran: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: ran.append(app))
    for lang in (["--lang", "en"], []):
        result = CliRunner().invoke(main, ["serve", *lang, "--db", str(tmp_path / "games.sqlite3")])
        assert result.exit_code == 0, result.output
        monkeypatch.delenv("TRESFUTE_SERVE_LANG", raising=False)
    english, french = (TestClient(app) for app in ran)
    for client, said in ((english, "no such game"), (french, "cette partie n’existe pas")):
        assert client.get("/api/games/nope").json() == {"error": said}
    asked = [
        english.get("/api/games/nope?lang=fr"),
        english.get("/api/games/nope", headers={"Accept-Language": "fr-CA, en;q=0.5"}),
        french.get("/api/games/nope", headers={"Accept-Language": "it-IT, en;q=0.8, fr;q=0.3"}),
        french.get("/api/games/nope?lang=fr", headers={"Accept-Language": "en"}),
        french.post("/api/games", json={"game": "chess"}, headers={"Accept-Language": "en-GB"}),
    ]
    assert [r.json()["error"].split(":")[0] for r in asked] == [
        "cette partie n’existe pas",
        "cette partie n’existe pas",
        "no such game",
        "cette partie n’existe pas",
        "malformed request",
    ]


def test_a_hello_nested_a_thousand_deep_is_told_so_and_logs_nothing(
    served: tuple[str, int], capfd: pytest.CaptureFixture[str]
) -> None:
    """A hello of 1,000 ``[`` raised RecursionError in the handler: the page got no message
    (close 1006) and the log forty lines of traceback. Now a sentence, close 1008, no log."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    created = post(served, "/api/games", {"game": "tres-fute", "seats": [{"name": "Ana"}]})
    with connect(f"ws://{served[0]}:{served[1]}/api/games/{created['id']}/ws?lang=en") as page:
        page.send("[" * 1000)
        told = json.loads(page.recv(timeout=10))
        assert told == {"type": "error", "error": "malformed message: the message is nested too deeply"}
        with pytest.raises(ConnectionClosed) as closed:
            page.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    output = capfd.readouterr()
    assert "Traceback" not in output.err + output.out and "RecursionError" not in output.err + output.out


@pytest.mark.parametrize(
    ("header", "chosen"),
    [
        ("en-GB,fr;q=0.8", "en"),
        ("it-IT, fr;q=0.2, en;q=0.9", "en"),
        ("de-DE, fr;q=0.2, en;q=0.9", "de"),
        ("fr;q=0, en;q=0.1", "en"),  # q=0: not acceptable
        ("EN-us", "en"),
        ("en;q=bad, fr", "fr"),  # a weight that is not a number: not acceptable
        ("en;q=nan, fr;q=0.5", "fr"),
        ("fr-CH;q=0.5, en;q=0.5", "fr"),  # a tie: the first named
        ("it, *", None),
        ("", None),
        (None, None),
    ],
)
def test_accept_language_gives_the_language_it_prefers_among_those_the_server_speaks(
    header: str | None, chosen: str | None
) -> None:
    from tresfute.web.deps import accepted_language

    assert accepted_language(header) == chosen


def test_a_head_not_whole_in_time_is_refused_408_and_a_silent_connection_closed(
    served: tuple[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 72: uvicorn sets no time limit on reading a request's head (a head sent a byte at a
    time held the connection for ever): ``serving.HEAD_TIMEOUT`` after its first byte it is
    refused 408, and a connection that sent nothing is closed."""
    from tresfute.web import serving

    monkeypatch.setattr(serving, "HEAD_TIMEOUT", 1.0)
    with socket.create_connection(served, timeout=10) as client:
        client.sendall(b"GET /api/open?lang=en HTTP/1.1\r\nHost: here\r\n")  # and never the blank line
        started = time.monotonic()
        answer = b""
        while part := client.recv(65536):
            answer += part
    assert time.monotonic() - started < 5
    assert status_and_body(answer) == (408, {"error": "the request's head did not arrive within 1 seconds"})
    with socket.create_connection(served, timeout=10) as silent:
        assert silent.recv(10) == b""  # closed by the server, not by this timeout
    fine, _sent = answer_to(served, b"GET /api/open HTTP/1.1\r\nHost: here\r\nConnection: close\r\n\r\n")
    assert status_and_body(fine) == (200, {"games": []})


def test_a_body_cut_short_by_a_client_that_goes_away_runs_nothing(served: tuple[str, int]) -> None:
    """Issue 72: a body shorter than its Content-Length, the client then gone, was executed."""
    body = json.dumps({"game": "tres-fute", "seats": [{"name": "Ana"}, {"name": "Bob"}], "listed": True}).encode()
    with socket.create_connection(served, timeout=10) as client:
        client.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: here\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n%s" % (len(body) + 20, body)
        )
        client.shutdown(socket.SHUT_WR)
        while client.recv(65536):
            pass
    time.sleep(0.3)
    listed, _sent = answer_to(served, b"GET /api/open HTTP/1.1\r\nHost: here\r\nConnection: close\r\n\r\n")
    assert status_and_body(listed) == (200, {"games": []})

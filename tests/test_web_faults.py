"""Database faults during play: PostgreSQL restarted under two servers, an SQLite file turned
read-only or its disk full. The servers keep running, say the fault once in their log, refuse
changes with a "try again" (503) while it lasts, never acknowledge a move not written, and come
back by themselves: no move is lost or doubled, and the pages are brought up to date."""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tresfute import records
from tresfute.web.app import create_app
from tresfute.web.store import PostgresStore, SQLiteStore, StoreUnavailableError


def view(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": token})
    assert response.status_code == 200, response.text
    state: dict[str, Any] = response.json()
    return state


def act(client: TestClient, game_id: str, token: str, move: str, seq: int, lang: str = "fr") -> Any:
    return client.post(
        f"/api/games/{game_id}/act?lang={lang}", json={"move": move, "seq": seq}, headers={"X-Seat-Token": token}
    )


def refused_for_now(response: Any) -> None:
    """A 503 that says to try again, in the player's language."""
    assert response.status_code == 503, response.text
    assert "réessayez" in response.json()["error"] or "try again" in response.json()["error"]
    assert response.headers["retry-after"]


@pytest.fixture(scope="module")
def own_cluster() -> Iterator[str]:
    """A cluster of this module's own, stopped and started by its tests."""
    from postgres import cluster

    with cluster() as url:
        yield url


def test_postgresql_restarted_during_play_loses_no_move_and_doubles_none(
    own_cluster: str, caplog: pytest.LogCaptureFixture
) -> None:
    from postgres import fresh_database, start, stop

    url = fresh_database(own_cluster, "faults")
    first = create_app(store=PostgresStore(url, wait=1.0))
    second = create_app(store=PostgresStore(url, wait=1.0))
    with TestClient(first) as a, TestClient(second) as b:
        created = a.post("/api/games", json={"game": "tres-fute", "seats": [{"name": "Ana"}]}).json()
        game_id, token = created["id"], created["seats"][0]["token"]
        acknowledged: list[str] = []

        def play(client: TestClient) -> None:
            shown = view(client, game_id, token)
            move = shown["legal"][0]["move"]
            assert act(client, game_id, token, move, shown["seq"]).status_code == 200
            acknowledged.append(move)

        for client in (a, b, a):
            play(client)
        shown = view(a, game_id, token)
        pages: queue.Queue[Any] = queue.Queue()
        with b.websocket_connect(f"/api/games/{game_id}/ws") as page:  # a page on the other server
            page.send_json({"type": "hello", "token": token})
            assert page.receive_json()["state"]["revision"] == shown["revision"]

            def listen() -> None:
                with contextlib.suppress(Exception):  # until the page closes
                    while True:
                        pages.put(page.receive_json())

            threading.Thread(target=listen, daemon=True).start()

            caplog.set_level(logging.ERROR, logger="tresfute.web.store")
            stop(own_cluster)
            try:
                move = shown["legal"][0]["move"]
                for client in (a, b, a, b):
                    refused_for_now(act(client, game_id, token, move, shown["seq"], lang="en"))
                refused_for_now(a.post("/api/games", json={"game": "tres-fute", "seats": [{"name": "Bob"}]}))
            finally:
                start(own_cluster)
            fault_lines = [r for r in caplog.records if "fails" in r.getMessage()]
            assert len(fault_lines) == 2, "once for each server"

            deadline = time.monotonic() + 60
            while True:  # the same move, sent again by the player until it lands
                answer = act(a, game_id, token, move, shown["seq"])
                if answer.status_code == 200:
                    break
                refused_for_now(answer)
                assert time.monotonic() < deadline, "the server did not come back"
                time.sleep(0.3)
            acknowledged.append(move)
            landed = answer.json()["revision"]
            while True:  # the other server's page is told, once that server hears the database again
                state = pages.get(timeout=30)["state"]
                if state["revision"] >= landed:
                    break
        # The other server's pool may still be waiting to connect again (it backs off 1, 2, 4 s
        # between tries) after its notices came back: its first request is answered all the same.
        view(b, game_id, token)
        play(b)  # and play goes on through either server

        stored = first.state.host.store.load(game_id)
        assert stored is not None
        mine = [entry.split(":", 1)[1] for entry in stored.moves if entry.startswith("1:")]
        assert mine == [m for m in acknowledged if m != "roll"]  # a roll is written as its dice
        assert stored.seats[0].acted == len(acknowledged)
        records.replay(records.Record(game="tres-fute", players=["Ana"], dice="external", moves=stored.moves))


def test_the_first_request_after_a_restart_the_server_did_not_see_is_answered(own_cluster: str) -> None:
    """Connections idle in the pool while PostgreSQL restarted are dead: none is handed out."""
    from postgres import fresh_database, start, stop

    store = PostgresStore(fresh_database(own_cluster, "unseen"), min_size=3, wait=1.0)
    with TestClient(create_app(store=store)) as client:
        created = client.post("/api/games", json={"game": "tres-fute", "seats": [{"name": "Ana"}]}).json()
        game_id, token = created["id"], created["seats"][0]["token"]
        shown = view(client, game_id, token)
        stop(own_cluster)
        start(own_cluster)  # between two requests: the server tried nothing meanwhile
        assert act(client, game_id, token, shown["legal"][0]["move"], shown["seq"]).status_code == 200
        assert view(client, game_id, token)["revision"] == shown["revision"] + 1


def test_the_first_request_once_the_database_is_back_is_answered_while_the_pool_waits_to_try_again(
    own_cluster: str,
) -> None:
    """After an outage the pool connects again only after a growing delay (1, 2, 4… s between
    tries): with the database back before its next try, the first request connects by itself."""
    from postgres import fresh_database, start, stop

    store = PostgresStore(fresh_database(own_cluster, "backoff"), wait=1.0)
    with TestClient(create_app(store=store)) as client:
        created = client.post("/api/games", json={"game": "tres-fute", "seats": [{"name": "Ana"}]}).json()
        game_id, token = created["id"], created["seats"][0]["token"]
        shown = view(client, game_id, token)
        move = shown["legal"][0]["move"]
        stop(own_cluster)
        try:
            refused_for_now(act(client, game_id, token, move, shown["seq"]))  # the pool starts trying again
            time.sleep(3.5)  # its tries after about 1 and 3 s failed; the next comes some 4 s later
        finally:
            start(own_cluster)
        asked = time.monotonic()
        assert act(client, game_id, token, move, shown["seq"]).status_code == 200
        assert time.monotonic() - asked < 2.5, "answered within the pool's wait, not after its next try"
        assert view(client, game_id, token)["revision"] == shown["revision"] + 1


def test_a_closed_connection_is_seen_past_selects_limit_of_1024_descriptors() -> None:
    """A busy server holds many sockets (its pages'): the look at a pooled connection's socket
    works on any descriptor, and says whether something came (a goodbye) without waiting."""
    import os
    import socket

    from tresfute.web.store.postgres import _readable

    ours, theirs = socket.socketpair()
    high = os.dup2(ours.fileno(), 1500)
    try:
        assert not _readable(high), "nothing came yet"
        theirs.close()  # the other end said goodbye
        assert _readable(high)
    finally:
        os.close(high)
        ours.close()


def sqlite_game(tmp_path: Path) -> tuple[TestClient, SQLiteStore, str, str]:
    store = SQLiteStore(tmp_path / "games.sqlite3")
    client = TestClient(create_app(store=store))
    created = client.post("/api/games", json={"game": "vraiment-tres-fute", "seats": [{"name": "Ana"}]}).json()
    return client, store, created["id"], created["seats"][0]["token"]


def test_an_sqlite_file_turned_read_only_refuses_moves_cleanly_and_plays_on_after(tmp_path: Path) -> None:
    client, store, game_id, token = sqlite_game(tmp_path)
    shown = view(client, game_id, token)
    store._db.execute("PRAGMA query_only = ON")  # as a file made read-only under the server
    refused_for_now(act(client, game_id, token, shown["legal"][0]["move"], shown["seq"]))
    refused_for_now(client.post("/api/games", json={"game": "tres-fute", "seats": [{"name": "Bob"}]}))
    assert view(client, game_id, token) == shown, "the game is as it was, and can still be seen"
    store._db.execute("PRAGMA query_only = OFF")
    assert act(client, game_id, token, shown["legal"][0]["move"], shown["seq"]).status_code == 200
    assert len(store.load(game_id).moves) == 1  # type: ignore[union-attr]


def test_a_full_disk_refuses_changes_cleanly_and_plays_on_once_there_is_room(tmp_path: Path) -> None:
    """Games are played (and new ones started) until the disk is full: the first change refused
    is a 503, and the game (or the list of games) is as it was; with room again, it lands."""
    client, store, game_id, token = sqlite_game(tmp_path)
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count = {pages + 2}")  # the disk holds two pages more
    new_game = {"game": "tres-fute", "seats": [{"name": "Ana"}]}
    count = "SELECT COUNT(*) FROM games"
    for _ in range(5000):
        shown = view(client, game_id, token)
        if shown["over"]:
            games = store._db.execute(count).fetchone()[0]
            answer = client.post("/api/games", json=new_game)
            if answer.status_code != 201:
                refused_for_now(answer)
                assert store._db.execute(count).fetchone()[0] == games
                break
            game_id, token = answer.json()["id"], answer.json()["seats"][0]["token"]
            continue
        moves = len(store.load(game_id).moves)  # type: ignore[union-attr]
        answer = act(client, game_id, token, shown["legal"][0]["move"], shown["seq"])
        if answer.status_code != 200:
            refused_for_now(answer)
            assert view(client, game_id, token) == shown and len(store.load(game_id).moves) == moves  # type: ignore[union-attr]
            break
    else:
        raise AssertionError("the disk never filled")
    store._db.execute("PRAGMA max_page_count = 1073741823")
    if shown["over"]:
        assert client.post("/api/games", json=new_game).status_code == 201
    else:
        assert act(client, game_id, token, shown["legal"][0]["move"], shown["seq"]).status_code == 200


class FailingBotWrites(SQLiteStore):
    """A store whose writes of the server's own moves (computer players', rolls) fail while
    ``failing``: the database goes away between a person's move and the computer's answer."""

    failing = False

    def append_moves(self, game_id: str, start: int, entries: list[str], seat: int | None, **given: Any) -> None:
        if self.failing and seat is None:
            raise StoreUnavailableError("the database went away")
        super().append_moves(game_id, start, entries, seat, **given)


def test_a_person_s_move_written_before_the_database_went_away_stands_and_the_computer_answers_later(
    tmp_path: Path,
) -> None:
    store = FailingBotWrites(tmp_path / "games.sqlite3")
    client = TestClient(create_app(store=store))
    seats = [{"name": "Ana"}, {"name": "Robot", "bot": "greedy"}]
    created = client.post("/api/games", json={"game": "tres-fute", "seats": seats}).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    for _ in range(60):  # Ana plays until her move hands the turn to Robot
        shown = view(client, game_id, token)
        store.failing = True
        answer = act(client, game_id, token, shown["legal"][0]["move"], shown["seq"])
        assert answer.status_code == 200, "her move is written: it is acknowledged"
        if not answer.json()["legal"]:
            break
        store.failing = False
    else:
        raise AssertionError("Robot never had to move")
    waiting = answer.json()
    assert "Robot" in waiting["status"]
    store.failing = False
    view(client, game_id, token)  # the next look at the game: answered at once, then Robot plays
    after = view(client, game_id, token)
    assert after["revision"] > waiting["revision"] and after["legal"]

"""Several ``tresfute serve`` processes on one PostgreSQL database, as a deployment runs them.

Any request may reach any process: a game created on one is played on another, two moves
sent at the same instant to two processes land once, a process killed mid-game loses nothing,
and a page connected to one process sees the moves made through another (``LISTEN/NOTIFY``).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets

from tresfute import fair_dice, records

pytestmark = pytest.mark.slow  # several server processes on one PostgreSQL database: left out by pytest -m "not slow"


class Server:
    """One ``tresfute serve`` process."""

    def __init__(self, database: str) -> None:
        # ``serve --port`` takes a port from 1 up, not 0: a free one is looked up, and looked up
        # again if another program took it before the server bound it
        for _ in range(5):
            if self._started(database):
                return
            stderr = self.process.stderr.read().decode()  # type: ignore[union-attr]
            assert "address already in use" in stderr.lower(), stderr
        raise AssertionError("every port tried was taken")

    def _started(self, database: str) -> bool:
        """Start the process on a free port: True once it answers, False if the port was taken."""
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "from tresfute.cli import main; main()",
                "serve",
                "--port",
                str(self.port),
                "--db",
                database,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.http = httpx.Client(base_url=self.url, timeout=30)
        deadline = time.monotonic() + 60
        while True:
            if self.process.poll() is not None:
                self.http.close()
                return False
            try:
                if self.http.get("/api/strings").status_code == 200:
                    return True
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)

    def state(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        response = self.http.get(f"/api/games/{game_id}", headers={"X-Seat-Token": token} if token else {})
        assert response.status_code == 200, response.text
        return response.json()

    def act(self, game_id: str, token: str, move: str, seq: int) -> httpx.Response:
        return self.http.post(
            f"/api/games/{game_id}/act", json={"move": move, "seq": seq}, headers={"X-Seat-Token": token}
        )

    def turn(self, game_id: str, token: str, view: dict[str, Any]) -> dict[str, Any]:
        """``view``, or once the computer players have played after it (they play after the
        answer to the move that handed them the turn), the seat's view when it is its turn again."""
        deadline = time.monotonic() + 60
        while not view["legal"] and not view["over"]:
            assert time.monotonic() < deadline, "the computer players never handed the turn back"
            time.sleep(0.05)
            view = self.state(game_id, token)
        return view

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(timeout=20)
        self.http.close()


@pytest.fixture
def servers(postgres_url: str) -> Iterator[tuple[Server, Server]]:
    first, second = Server(postgres_url), Server(postgres_url)
    yield first, second
    first.stop()
    second.stop()


def new_game(server: Server, seats: list[dict[str, Any]] | None = None) -> tuple[str, str]:
    response = server.http.post("/api/games", json={"game": "tres-fute", "seats": seats or [{"name": "Ana"}]})
    assert response.status_code == 201, response.text
    created = response.json()
    return created["id"], created["seats"][0]["token"]


def test_a_game_created_on_one_server_is_played_to_its_end_through_both(servers: tuple[Server, Server]) -> None:
    a, b = servers
    game_id, token = new_game(a)
    moves = 0
    view = b.state(game_id, token)
    while not view["over"]:
        server = (a, b)[moves % 2]  # each move through the other server
        response = server.act(game_id, token, view["legal"][0]["move"], view["seq"])
        assert response.status_code == 200, response.text
        view = response.json()
        moves += 1
    assert view["secret"] and moves > 30
    record = records.loads(a.http.get(f"/api/games/{game_id}/record").text)
    assert record.moves == records.loads(b.http.get(f"/api/games/{game_id}/record").text).moves
    assert fair_dice.check_record(view["secret"], view["commitment"], record.moves) == []
    assert records.replay(record).is_over


def test_two_conflicting_moves_sent_at_once_to_two_servers_exactly_one_lands(servers: tuple[Server, Server]) -> None:
    a, b = servers
    game_id, token = new_game(a)
    view = a.state(game_id, token)
    view = a.act(game_id, token, "roll", view["seq"]).json()
    b.state(game_id, token)  # both servers hold the game in memory
    before = len(records.loads(a.http.get(f"/api/games/{game_id}/record").text).moves)
    first, second = view["legal"][0]["move"], view["legal"][-1]["move"]
    assert first != second
    answers: dict[str, httpx.Response] = {}
    barrier = threading.Barrier(2)

    def send(server: Server, move: str) -> None:
        barrier.wait()
        answers[move] = server.act(game_id, token, move, view["seq"])

    threads = [threading.Thread(target=send, args=pair) for pair in ((a, first), (b, second))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    statuses = sorted(r.status_code for r in answers.values())
    assert statuses == [200, 409], [r.text for r in answers.values()]
    landed = next(m for m, r in answers.items() if r.status_code == 200)
    refused = next(r for r in answers.values() if r.status_code == 409)
    assert refused.json()["error"]
    for server in (a, b):  # both agree: one more action, the move that landed
        now = server.state(game_id, token)
        assert now["seq"] == view["seq"] + 1 and now["revision"] > view["revision"]
        entries = records.loads(server.http.get(f"/api/games/{game_id}/record").text).moves
        assert entries[before] == f"1:{landed}" and f"1:{first if landed == second else second}" not in entries


def test_two_passive_players_choosing_at_once_on_two_servers_both_land(servers: tuple[Server, Server]) -> None:
    """Passive players choose at the same time: one server's write makes the other's copy stale,
    and that one must catch up and take the choice, not refuse it."""
    a, b = servers
    response = a.http.post(
        "/api/games", json={"game": "tres-fute", "seats": [{"name": "Ana"}, {"name": "Bob"}, {"name": "Cy"}]}
    )
    created = response.json()
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    for _ in range(200):
        views = [a.state(game_id, t) for t in tokens]
        if views[0]["state"]["phase"] == "passive" and views[1]["legal"] and views[2]["legal"]:
            break
        seat = next(i for i, v in enumerate(views) if v["legal"])
        assert a.act(game_id, tokens[seat], views[seat]["legal"][0]["move"], views[seat]["seq"]).status_code == 200
    else:
        raise AssertionError("no passive phase reached")
    b.state(game_id, tokens[0])  # both servers hold the game in memory
    before = len(records.loads(a.http.get(f"/api/games/{game_id}/record").text).moves)
    answers: dict[int, httpx.Response] = {}
    barrier = threading.Barrier(2)

    def send(server: Server, seat: int) -> None:
        barrier.wait()
        answers[seat] = server.act(game_id, tokens[seat], views[seat]["legal"][0]["move"], views[seat]["seq"])

    threads = [threading.Thread(target=send, args=pair) for pair in ((a, 1), (b, 2))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [answers[1].status_code, answers[2].status_code] == [200, 200], [r.text for r in answers.values()]
    for server in (a, b):
        entries = records.loads(server.http.get(f"/api/games/{game_id}/record").text).moves
        assert sorted(entries[before : before + 2]) == sorted(
            f"{seat + 1}:{views[seat]['legal'][0]['move']}" for seat in (1, 2)
        )
        assert [server.state(game_id, tokens[seat])["seq"] for seat in (1, 2)] == [
            views[1]["seq"] + 1,
            views[2]["seq"] + 1,
        ]


def test_a_server_killed_mid_game_loses_no_move_and_the_other_carries_on(servers: tuple[Server, Server]) -> None:
    a, b = servers
    game_id, token = new_game(a, [{"name": "Ana"}, {"name": "Robot", "bot": "greedy"}])
    view = a.state(game_id, token)
    for _ in range(15):
        response = a.act(game_id, token, view["legal"][0]["move"], view["seq"])
        assert response.status_code == 200, response.text
        view = a.turn(game_id, token, response.json())
    seen_on_a = records.loads(a.http.get(f"/api/games/{game_id}/record").text).moves
    a.stop(signal.SIGKILL)
    after = b.state(game_id, token)
    assert after["seq"] == view["seq"] == 15, "every acknowledged action is kept"
    entries = records.loads(b.http.get(f"/api/games/{game_id}/record").text).moves
    assert entries[: len(seen_on_a)] == seen_on_a
    while not after["over"]:
        after = b.turn(game_id, token, after)
        if after["over"]:
            break
        response = b.act(game_id, token, after["legal"][0]["move"], after["seq"])
        assert response.status_code == 200, response.text
        after = response.json()
    record = records.loads(b.http.get(f"/api/games/{game_id}/record").text)
    assert records.replay(record).is_over and record.moves[: len(entries)] == entries


def test_a_page_connected_to_one_server_sees_a_move_made_through_the_other(servers: tuple[Server, Server]) -> None:
    a, b = servers
    game_id, token = new_game(a)
    view = b.state(game_id, token)

    async def watch() -> dict[str, Any]:
        async with websockets.connect(f"ws://127.0.0.1:{a.port}/api/games/{game_id}/ws") as socket:
            await socket.send(json.dumps({"type": "hello"}))
            first = json.loads(await socket.recv())["state"]
            assert first["revision"] == view["revision"]
            moved = await asyncio.to_thread(b.act, game_id, token, "roll", view["seq"])
            assert moved.status_code == 200, moved.text
            return json.loads(await asyncio.wait_for(socket.recv(), timeout=20))["state"]

    update = asyncio.run(watch())
    assert update["revision"] == view["revision"] + 1 and update["state"]["dice"][0]["value"]


def test_a_computer_players_moves_land_once_when_two_servers_find_it_to_play(postgres_url: str) -> None:
    from tresfute.web.store import PostgresStore, StoredGame, StoredSeat, token_hash

    token = "t" * 32
    store = PostgresStore(postgres_url)
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
    a, b = Server(postgres_url), Server(postgres_url)
    try:
        views: list[dict[str, Any]] = []
        barrier = threading.Barrier(2)

        def ask(server: Server) -> None:
            barrier.wait()
            views.append(server.state("stopped", token))

        threads = [threading.Thread(target=ask, args=(s,)) for s in (a, b)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        # both answered at once and set the computer player going: it plays until Ana's turn
        a.turn("stopped", token, a.state("stopped", token))
        entries = records.loads(a.http.get("/api/games/stopped/record").text).moves
        assert entries == records.loads(b.http.get("/api/games/stopped/record").text).moves
        assert records.replay(records.loads(a.http.get("/api/games/stopped/record").text)).round == 1
        assert any(e.startswith("1:") for e in entries), "the computer player has played"
        now = [s.state("stopped", token) for s in (a, b)]
        # one write per entry, none refused and retried into a second copy: played once
        assert now[0]["revision"] == now[1]["revision"] == len(entries) and now[0]["legal"]
    finally:
        a.stop()
        b.stop()


def test_a_page_is_brought_up_to_date_when_its_server_listens_again_after_losing_the_database(
    servers: tuple[Server, Server], postgres_url: str
) -> None:
    """A move made while a server had lost its connection for notices (a database restart, a
    network cut) reaches that server's pages once it listens again: nobody told it of the move."""
    import psycopg

    a, b = servers
    game_id, token = new_game(a)
    view = b.state(game_id, token)

    def cut_the_listeners() -> None:
        with psycopg.connect(postgres_url, autocommit=True) as connection:
            listening = "SELECT pid FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()"
            pids = [pid for (pid,) in connection.execute(listening)]
            assert pids, "each server listens"
            for pid in pids:
                connection.execute("SELECT pg_terminate_backend(%s)", (pid,))

    async def watch() -> dict[str, Any]:
        async with websockets.connect(f"ws://127.0.0.1:{a.port}/api/games/{game_id}/ws") as socket:
            await socket.send(json.dumps({"type": "hello"}))
            assert json.loads(await socket.recv())["state"]["revision"] == view["revision"]
            await asyncio.to_thread(cut_the_listeners)  # a server waits a second before listening again
            moved = await asyncio.to_thread(b.act, game_id, token, "roll", view["seq"])
            assert moved.status_code == 200, moved.text
            return json.loads(await asyncio.wait_for(socket.recv(), timeout=20))["state"]

    update = asyncio.run(watch())
    assert update["revision"] == view["revision"] + 1 and update["state"]["dice"][0]["value"]


def test_a_notice_carries_the_moves_appended_so_a_server_holding_the_game_plays_them_unread(
    postgres_url: str,
) -> None:
    """PostgreSQL's notice of a move carries its record entries: a server whose copy is one
    revision behind plays them on its copy without reading the game, and ends where a server
    that read it would; a copy further behind, or a change that is not moves, is read again."""
    from tresfute.web.store import Change, PostgresStore
    from tresfute.web.tables import Host, SeatRequest

    store_a, store_b = PostgresStore(postgres_url), PostgresStore(postgres_url)
    a, b = Host(store_a), Host(store_b)
    notices: list[Change] = []

    async def listen(count: int, act: Any) -> None:
        changes = store_b.changes()
        assert await anext(changes) is None  # listening
        await asyncio.to_thread(act)
        while len(notices) < count:
            change = await asyncio.wait_for(anext(changes), timeout=20)
            assert change is not None
            notices.append(change)
        await changes.aclose()

    try:
        table, (token, _robot) = a.create("tres-fute", [SeatRequest("Ana"), SeatRequest("Robot", "greedy")])
        on_b = b.table(table.id)
        reads: list[str] = []
        load, revision = store_b.load, store_b.revision
        store_b.load = lambda game_id: reads.append("load") or load(game_id)  # type: ignore[method-assign]
        store_b.revision = lambda game_id: reads.append("revision") or revision(game_id)  # type: ignore[method-assign]

        asyncio.run(listen(1, lambda: a.act(table.id, token, "roll", 0)))
        (rolled,) = notices
        assert rolled.revision == on_b.stored.revision + 1 and rolled.appended is not None
        assert rolled.appended.start == 0 and rolled.appended.seat == 0  # her roll is her act
        assert rolled.appended.entries == table.stored.moves and rolled.appended.entries[0].startswith("dice ")
        assert b.told(table.id, [rolled]) is on_b and reads == [], "played from the notice, nothing read"
        assert b.view(on_b, 0, "fr") == a.view(table, 0, "fr")
        assert b.told(table.id, [rolled]) is on_b and reads == [], "a change it has already: nothing to do"

        notices.clear()
        # two moves of Ana's; B is told only the second: its copy is two revisions behind
        move = table.legal(0)[0]
        a.act(table.id, token, str(move), table.stored.seats[0].acted)
        move = table.legal(0)[0]
        asyncio.run(listen(1, lambda: a.act(table.id, token, str(move), table.stored.seats[0].acted)))
        assert notices[0].appended is not None and notices[0].appended.seat == 0
        assert b.told(table.id, notices[-1:]) is on_b and reads == ["load"], "too far behind: read again"
        assert b.view(on_b, 0, "fr") == a.view(table, 0, "fr")

        notices.clear()
        # an undo: a change that is not moves appended, told by its revision alone
        for _ in range(50):  # Ana plays until she has a choice to take back
            a.act(table.id, token, str(table.legal(0)[0]), table.stored.seats[0].acted)
            if table.can_undo(0):
                break
        else:
            raise AssertionError("Ana never had a choice to take back")
        b.told(table.id, [Change(table.id, table.stored.revision)])
        reads.clear()
        asyncio.run(listen(1, lambda: a.undo(table.id, token, table.stored.seats[0].acted)))
        assert notices[0].appended is None
        assert b.told(table.id, notices) is on_b and reads == ["load"], "not moves: read again"
        assert b.view(on_b, 0, "fr") == a.view(table, 0, "fr")
    finally:
        store_a.close()
        store_b.close()


def test_a_notice_without_the_moves_is_read_from_the_database() -> None:
    """A notice too long to carry its moves, or of a change that is not moves (a seat taken, an
    undo), says only the game and its revision."""
    from tresfute.web.store import Appended, Change

    assert Change.parse("g7 12") == Change("g7", 12)
    assert Change.parse("g7 12 30 -\ndice w1 y2 b3 g4 o5 p6\n1:y@r1c1") == Change(
        "g7", 12, Appended(30, ["dice w1 y2 b3 g4 o5 p6", "1:y@r1c1"], None)
    )
    assert Change.parse("g7 13 32 1\n2:pass") == Change("g7", 13, Appended(32, ["2:pass"], 1))
    # a later release's notice, with more to it: the game and its revision, to be read
    assert Change.parse("g7 14 33 1 more\n2:pass") == Change("g7", 14)
    assert Change.parse("g7 14 x -\n2:pass") == Change("g7", 14)


def test_a_server_knows_its_own_changes_among_the_notices(postgres_url: str) -> None:
    """A notice sent by one of a server's own connections is its own change: the request that
    made it tells its pages, and the notice is only a safety net for it. A notice it does not
    understand (another release's, anybody's NOTIFY) says that any game may have changed."""
    import psycopg

    from tresfute.web.store import CHANNEL, OLD_CHANNEL, Change, PostgresStore, StoredGame, StoredSeat

    mine, theirs = PostgresStore(postgres_url), PostgresStore(postgres_url)
    try:
        mine.create(StoredGame("own", "tres-fute", True, None, [StoredSeat("Ana", None, "h" * 64)]))

        def nonsense() -> None:
            with psycopg.connect(postgres_url, autocommit=True) as connection:
                connection.execute("SELECT pg_notify(%s, 'not a notice')", (CHANNEL,))
                # an older release's server, on the channel it knows
                connection.execute("SELECT pg_notify(%s, 'own 9')", (OLD_CHANNEL,))

        async def listen() -> list[Change | None]:
            changes = mine.changes()
            assert await anext(changes) is None
            await asyncio.to_thread(theirs.append_moves, "own", 0, ["dice w1 y2 b3 g4 o5 p6"], None)
            await asyncio.to_thread(mine.append_moves, "own", 1, ["1:y@r1c1"], 0)
            await asyncio.to_thread(nonsense)
            # moves too long for a notice: told by the revision alone
            await asyncio.to_thread(theirs.append_moves, "own", 2, ["1:y@r1c1"] * 800, None)
            told = [await asyncio.wait_for(anext(changes), timeout=20) for _ in range(5)]
            await changes.aclose()
            return told

        first, second, third, fourth, fifth = asyncio.run(listen())
        assert first is not None and (first.revision, first.own) == (1, False) and first.appended is not None
        assert second is not None and (second.revision, second.own) == (2, True)
        assert third is None
        assert fourth == Change("own", 9)
        assert fifth == Change("own", 3), "no moves: too long"
    finally:
        mine.close()
        theirs.close()


def test_a_change_a_server_made_outside_any_request_still_reaches_its_pages(postgres_url: str) -> None:
    """A server leaves its own changes to the requests that made them; one that no request made
    (written by the server's own connections, as a computer player's move after a page loaded
    the game is) reaches its pages all the same, from the database's notice, a moment later."""
    import queue

    from fastapi.testclient import TestClient

    from tresfute.web.app import create_app
    from tresfute.web.store import PostgresStore

    store = PostgresStore(postgres_url)
    with TestClient(create_app(store=store)) as client:
        created = client.post("/api/games", json={"game": "tres-fute", "seats": [{"name": "Ana"}]}).json()
        game_id, token = created["id"], created["seats"][0]["token"]
        with client.websocket_connect(f"/api/games/{game_id}/ws") as page:
            page.send_json({"type": "hello", "token": token})
            shown = page.receive_json()["state"]
            store.append_moves(game_id, 0, ["dice w1 y2 b3 g4 o5 p6"], None, revision=shown["revision"])
            received: queue.Queue[Any] = queue.Queue()
            threading.Thread(target=lambda: received.put(page.receive_json()), daemon=True).start()
            update = received.get(timeout=20)["state"]
            assert update["revision"] == shown["revision"] + 1
            assert [d["value"] for d in update["state"]["dice"]][:3] == [1, 2, 3]

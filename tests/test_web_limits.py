"""Limits for a public site: games, open tables and challenge entries created per client address
per minute, pages open per address, and finished games forgotten after a while. A refusal is a
429 with a sentence in the player's language, and nothing is stored; play at a person's pace
never meets a limit."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tresfute.web.app import create_app
from tresfute.web.limits import Guard, Limits, PerMinute
from tresfute.web.store import SQLiteStore, StoredGame, StoredSeat
from tresfute.web.tables import Host, SeatRequest


class Clock:
    def __init__(self, now: float = 1_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def games_stored(path: Path) -> int:
    with sqlite3.connect(path) as db:
        count: int = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    return count


def app_with(path: Path, clock: Clock | None = None, **limits: int) -> TestClient:
    app = create_app(database=path, challenge_bot="greedy", limits=Limits(**limits))
    if clock is not None:
        app.state.server.guard = Guard(app.state.server.guard.limits, clock=clock)
    return TestClient(app)


SOLO = {"game": "tres-fute", "seats": [{"name": "Ana"}]}
OPEN = {"game": "tres-fute", "seats": [{"name": "Ana"}, {"name": "Bob"}], "listed": True}


@pytest.mark.parametrize(("body", "limit"), [(SOLO, "games_per_minute"), (OPEN, "tables_per_minute")])
def test_a_burst_past_the_limit_is_refused_and_stores_nothing(tmp_path: Path, body: dict[str, Any], limit: str) -> None:
    path = tmp_path / "games.sqlite3"
    client = app_with(path, None, **{limit: 3})
    assert [client.post("/api/games", json=body).status_code for _ in range(3)] == [201, 201, 201]
    for lang, words in (("fr", "réessayez dans"), ("en", "try again in")):
        refused = client.post(f"/api/games?lang={lang}", json=body)
        assert refused.status_code == 429 and words in refused.json()["error"], refused.text
        assert int(refused.headers["retry-after"]) >= 1
        assert refused.headers["content-security-policy"]
    assert games_stored(path) == 3
    other = TestClient(client.app, client=("198.51.100.7", 40000))  # another address is not held back
    assert other.post("/api/games", json=body).status_code == 201


def test_the_limit_fills_back_and_a_person_creating_games_at_their_pace_never_meets_it(tmp_path: Path) -> None:
    """A burst spends the minute's allowance, which comes back with time; a game every 10 s for
    an hour (faster than anyone plays one) is never refused at the default limit."""
    clock = Clock()
    client = app_with(tmp_path / "games.sqlite3", clock, games_per_minute=3)
    assert [client.post("/api/games", json=SOLO).status_code for _ in range(4)] == [201, 201, 201, 429]
    clock.now += 20  # a third of a minute: one more
    assert [client.post("/api/games", json=SOLO).status_code for _ in range(2)] == [201, 429]
    pace = PerMinute(Limits().games_per_minute, clock)
    for _ in range(360):
        clock.now += 10
        assert pace.take("203.0.113.1") == 0


def test_moves_are_never_limited(tmp_path: Path) -> None:
    """Only creations are counted: a game's moves, undos and reloads go on at any pace."""
    client = app_with(tmp_path / "games.sqlite3", games_per_minute=1)
    created = client.post("/api/games", json=SOLO).json()
    token, game_id = created["seats"][0]["token"], created["id"]
    headers = {"X-Seat-Token": token}
    for _ in range(30):
        view = client.get(f"/api/games/{game_id}", headers=headers).json()
        if not view["legal"]:
            break
        moved = client.post(
            f"/api/games/{game_id}/act", json={"move": view["legal"][0]["move"], "seq": view["seq"]}, headers=headers
        )
        assert moved.status_code == 200, moved.text


def test_challenge_entries_past_the_limit_are_refused_and_store_nothing(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    client = app_with(path, entries_per_minute=2)
    first = client.post("/api/challenge/tres-fute", json={"name": "Zoé"})
    headers = {"X-Player-Token": first.json()["player"]}
    second = client.post("/api/challenge/vraiment-tres-fute", json={"name": "Zoé"}, headers=headers)
    started = [first, second]
    assert [s.status_code for s in started] == [201, 201]
    refused = client.post("/api/challenge/tres-fute?lang=en", json={"name": "Zed"})
    assert refused.status_code == 429 and refused.json()["error"].startswith("too many challenge entries")
    assert games_stored(path) == 2
    client.app.state.daily.wait_idle()  # type: ignore[attr-defined]


def test_an_address_keeps_only_so_many_pages_open(tmp_path: Path) -> None:
    """Past the limit a page is told why (in its language) and its socket is closed; once a page
    closes, another may open."""
    client = app_with(tmp_path / "games.sqlite3", sockets_per_address=2)
    game_id = client.post("/api/games", json=SOLO).json()["id"]
    url = f"/api/games/{game_id}/ws"
    with client.websocket_connect(url) as first, client.websocket_connect(url) as second:
        for page in (first, second):
            page.send_json({"type": "hello", "token": None})
            assert page.receive_json()["type"] == "state"
        with client.websocket_connect(url + "?lang=en") as third:
            refused = third.receive_json()
            assert refused == {
                "type": "error",
                "error": "too many pages of this site are open from your connection: close some, then reload",
            }
            with pytest.raises(WebSocketDisconnect):
                third.receive_json()
    with client.websocket_connect(url) as again:
        again.send_json({"type": "hello", "token": None})
        assert again.receive_json()["type"] == "state"


def test_the_limits_are_read_from_the_environment() -> None:
    limits = Limits.from_environment({"TRESFUTE_GAMES_PER_MINUTE": "7", "TRESFUTE_KEEP_FINISHED_DAYS": "0.5"})
    assert limits == Limits(games_per_minute=7, keep_finished_days=0.5)
    assert Limits.from_environment({}) == Limits()
    for wrong in ("many", "-1"):
        with pytest.raises(ValueError, match="TRESFUTE_SOCKETS_PER_ADDRESS"):
            Limits.from_environment({"TRESFUTE_SOCKETS_PER_ADDRESS": wrong})


def finished_game(store: SQLiteStore, game_id: str, when: float, challenge: str | None = None) -> None:
    store.create(StoredGame(game_id, "tres-fute", True, None, [StoredSeat("Ana", None, None)], challenge=challenge))
    store.append_moves(game_id, 0, ["dice w1 y1 b1 g1 o1 p1"], None, finished=when)


def test_finished_games_are_forgotten_after_the_retention_others_are_kept(tmp_path: Path) -> None:
    """Games finished longer ago than ``keep_finished_days`` are forgotten when a server starts
    (and every hour); games under way, recent ones, and daily challenge entries are kept."""
    day = 86_400.0
    now = 100 * day
    path = tmp_path / "games.sqlite3"
    store = SQLiteStore(path)
    finished_game(store, "old", now - 40 * day)
    finished_game(store, "recent", now - 10 * day)
    finished_game(store, "entry", now - 40 * day, challenge="1970-02-10")
    store.create(StoredGame("playing", "tres-fute", True, None, [StoredSeat("Ana", None, None)]))
    app = create_app(store=store, clock=lambda: now, limits=Limits(keep_finished_days=30))
    with TestClient(app) as client:
        deadline = time.monotonic() + 30  # the purge runs in the background: a busy machine is slow
        while store.load("old") is not None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert client.get("/api/games/old").status_code == 404
        assert [store.load(g) is not None for g in ("recent", "entry", "playing")] == [True, True, True]
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM moves WHERE game_id = 'old'").fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM seats WHERE game_id = 'old'").fetchone()[0] == 0
    assert SQLiteStore(path).purge_finished(now) == 1  # "recent"; the entry stays
    kept = create_app(store=SQLiteStore(path), clock=lambda: now, limits=Limits(keep_finished_days=0))
    assert kept.state.server.guard.limits.keep_finished_days == 0  # 0: kept for ever


def test_a_game_played_to_its_end_is_written_with_when_it_ended(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    host = Host(SQLiteStore(path), wall_clock=lambda: 12_345.0)
    table, (token, _bot) = host.create("tres-fute", [SeatRequest("Ana"), SeatRequest("Robot", "greedy")])
    assert token is not None
    while not table.game.is_over:
        table = host.table(table.id)
        table, _seat = host.act(table.id, token, str(table.legal(0)[0]), table.stored.seats[0].acted)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT finished FROM games WHERE id = ?", (table.id,)).fetchone()[0] == 12_345.0


def test_the_open_tables_limits_and_the_abandoned_games_retention_are_read_from_the_environment() -> None:
    given = {"TRESFUTE_JOINS_PER_MINUTE": "3", "TRESFUTE_IDLE_SEAT_MINUTES": "2.5", "TRESFUTE_KEEP_ABANDONED_DAYS": "0"}
    assert Limits.from_environment(given) == Limits(joins_per_minute=3, idle_seat_minutes=2.5, keep_abandoned_days=0)
    assert (Limits().joins_per_minute, Limits().idle_seat_minutes, Limits().keep_abandoned_days) == (10, 10.0, 30.0)
    with pytest.raises(ValueError, match="TRESFUTE_IDLE_SEAT_MINUTES"):
        Limits.from_environment({"TRESFUTE_IDLE_SEAT_MINUTES": "-1"})


def test_games_abandoned_for_the_retention_are_forgotten_games_under_way_kept(tmp_path: Path) -> None:
    """An unfinished game with no change for ``keep_abandoned_days`` is forgotten by the same
    purge as finished games (here with finished games kept for ever); one played lately is kept,
    however old, and so is a daily challenge entry."""
    day = 86_400.0
    now = 100 * day
    store = SQLiteStore(tmp_path / "games.sqlite3")
    for game_id, challenge in (("abandoned", None), ("played", None), ("entry", "1970-02-10")):
        game = StoredGame(game_id, "tres-fute", True, None, [StoredSeat("Ana", None, None)], challenge=challenge)
        game.created = now - 40 * day
        store.create(game)
    store.append_moves("played", 0, ["dice w1 y1 b1 g1 o1 p1"], None, at=now - day)
    finished_game(store, "finished", now - 40 * day)
    app = create_app(store=store, clock=lambda: now, limits=Limits(keep_finished_days=0, keep_abandoned_days=30))
    with TestClient(app) as client:
        deadline = time.monotonic() + 30  # the purge runs in the background: a busy machine is slow
        while store.load("abandoned") is not None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert client.get("/api/games/abandoned").status_code == 404
        assert [store.load(g) is not None for g in ("played", "entry", "finished")] == [True, True, True]

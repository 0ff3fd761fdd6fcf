"""Open tables: a game listed on the home page with free seats that anyone may take."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tresfute import records
from tresfute.web.app import create_app
from tresfute.web.limits import Limits
from tresfute.web.store import MoveConflictError, SQLiteStore
from tresfute.web.tables import REPLACEMENT_BOT, Host, SeatRequest, Table, TableError


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(database=tmp_path / "games.sqlite3"))


def player(client: TestClient, name: str = "Zed") -> dict[str, str]:
    """A new player's headers: a seat at an open table is a player's."""
    made = client.post("/api/players", json={"name": name})
    assert made.status_code == 201, made.text
    return {"X-Player-Token": made.json()["token"]}


def join(client: TestClient, game_id: str, name: str, lang: str = "fr", headers: dict[str, str] | None = None) -> Any:
    """A new player (unless ``headers`` names one) takes a seat."""
    headers = player(client, name) if headers is None else headers
    return client.post(f"/api/games/{game_id}/join?lang={lang}", json={"name": name}, headers=headers)


def open_table(client: TestClient) -> dict[str, Any]:
    seats = [{"name": "Ana"}, {"name": "Player 2"}, {"name": "Robot", "bot": "greedy"}]
    response = client.post("/api/games", json={"game": "tres-fute", "seats": seats, "listed": True})
    assert response.status_code == 201, response.text
    return response.json()


def test_a_free_seat_of_an_open_table_is_taken_by_whoever_comes_first(client: TestClient) -> None:
    created = open_table(client)
    assert [s["token"] is not None for s in created["seats"]] == [True, False, False]
    listed = client.get("/api/open").json()["games"]
    assert [g["id"] for g in listed] == [created["id"]]
    assert [s["free"] for s in listed[0]["seats"]] == [False, True, False]
    joined = join(client, created["id"], "  Zed ")
    assert joined.status_code == 201, joined.text
    zed = joined.json()
    assert zed["seat"] == 1 and zed["link"].endswith(zed["token"])
    view = client.get(f"/api/games/{created['id']}", headers={"X-Seat-Token": zed["token"]}).json()
    assert view["you"] == 1 and [s["name"] for s in view["seats"]] == ["Ana", "Zed", "Robot"]
    assert not any(s["free"] for s in view["seats"])
    assert client.get("/api/open").json()["games"] == [], "no free seat left: no longer listed"
    again = join(client, created["id"], "Eve", "en")
    assert again.status_code == 409 and again.json()["error"] == "this table has no free seat left"
    assert client.get(f"/api/games/{created['id']}").json()["seats"][1]["name"] == "Zed"


def test_only_open_tables_take_newcomers_and_an_open_table_needs_a_free_seat(client: TestClient) -> None:
    private = client.post("/api/games", json={"game": "tres-fute", "seats": [{"name": "Ana"}, {"name": "Bob"}]})
    assert join(client, private.json()["id"], "Eve").status_code == 409
    alone = client.post(
        "/api/games",
        json={"game": "tres-fute", "seats": [{"name": "Ana"}, {"name": "R", "bot": "greedy"}], "listed": True},
    )
    assert alone.status_code == 422 and alone.json()["error"]
    assert join(client, "nope", "Eve").status_code == 404
    assert join(client, private.json()["id"], " ", headers=player(client)).status_code == 422
    assert client.get("/api/open").json()["games"] == []


def test_a_free_seat_waits_for_its_person_and_then_plays(client: TestClient) -> None:
    created = open_table(client)
    ana = created["seats"][0]["token"]
    view = client.get(f"/api/games/{created['id']}", headers={"X-Seat-Token": ana}).json()
    assert view["legal"] and view["legal"][0]["move"] == "roll"
    zed = join(client, created["id"], "Zed").json()
    moved = client.post(
        f"/api/games/{created['id']}/act", json={"move": "roll", "seq": 0}, headers={"X-Seat-Token": ana}
    )
    assert moved.status_code == 200
    passive = client.get(f"/api/games/{created['id']}", headers={"X-Seat-Token": zed["token"]}).json()
    assert passive["seq"] == 0 and passive["you"] == 1


def test_a_seat_taken_on_one_server_while_another_holds_the_table_goes_to_whoever_came_first(
    tmp_path: Path,
) -> None:
    """Two servers on one database: a newcomer on the server whose copy is behind gets the next
    free seat (its copy is brought up to date and the seat taken once more), never one already
    taken; the seat is kept in memory from the write itself, with nothing read in between."""
    database = tmp_path / "games.sqlite3"
    first, second = TestClient(create_app(database=database)), TestClient(create_app(database=database))
    seats = [{"name": "Ana"}, {"name": "Player 2"}, {"name": "Player 3"}]
    created = first.post("/api/games", json={"game": "tres-fute", "seats": seats, "listed": True}).json()
    game_id = created["id"]
    assert second.get(f"/api/games/{game_id}").status_code == 200, "both servers hold the table"
    zed = join(first, game_id, "Zed").json()
    store = second.app.state.host.store  # type: ignore[attr-defined]
    stale = store.revision(game_id) - 1
    store.revision = lambda table_id: stale  # Zed's seat was taken just after the second server looked
    calls: list[str] = []
    load, take_seat = store.load, store.take_seat

    def loading(table_id: str) -> Any:
        calls.append("load")
        return load(table_id)

    def taking(*args: Any, revision: int | None = None, **more: Any) -> Any:
        calls.append(f"take at revision {revision}")
        try:
            return take_seat(*args, revision=revision, **more)
        except MoveConflictError:
            calls.append("refused")
            raise

    store.load, store.take_seat = loading, taking
    eve = join(second, game_id, "Eve")
    assert eve.status_code == 201, eve.text
    assert (zed["seat"], eve.json()["seat"]) == (1, 2)
    assert calls == [f"take at revision {stale}", "refused", "load", f"take at revision {stale + 1}"], (
        "refused on the stale copy, reloaded, taken once more; nothing read after the write"
    )
    for client, taker in ((first, eve.json()), (second, zed)):
        view = client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": taker["token"]}).json()
        assert view["you"] == taker["seat"] and [s["name"] for s in view["seats"]] == ["Ana", "Zed", "Eve"]


def test_a_player_takes_one_seat_of_a_table_and_a_seat_is_taken_as_a_player(client: TestClient) -> None:
    """One seat a player at a table (issue 72: one visitor held several seats of a table, which
    then waited for ever): a second join by the same player, or by the table's creator, is
    refused and leaves the seat free; a join without the player's secret is refused (401)."""
    ana = player(client, "Ana")
    seats = [{"name": "Ana"}, {"name": "Player 2"}, {"name": "Player 3"}]
    created = client.post("/api/games", json={"game": "tres-fute", "seats": seats, "listed": True}, headers=ana).json()
    game_id = created["id"]
    zed = player(client, "Zed")
    assert join(client, game_id, "Zed", headers=zed).status_code == 201
    for who, name in ((zed, "Zed again"), (ana, "Ana")):
        refused = join(client, game_id, name, "en", headers=who)
        assert refused.status_code == 409 and refused.json()["error"] == "you have a seat at this table already"
    anonymous = client.post(f"/api/games/{game_id}/join?lang=en", json={"name": "Eve"})
    assert anonymous.status_code == 401 and "X-Player-Token" in anonymous.json()["error"]
    assert [s["free"] for s in client.get(f"/api/games/{game_id}").json()["seats"]] == [False, False, True]
    assert [g["id"] for g in client.get("/api/open").json()["games"]] == [game_id], "still listed"
    assert join(client, game_id, "Eve").status_code == 201, "another player takes it"


def test_seats_taken_too_fast_from_one_address_are_refused_with_retry_after(tmp_path: Path) -> None:
    """One address took 23 free seats of 11 tables in 0.23 s (issue 72): at most
    ``TRESFUTE_JOINS_PER_MINUTE`` seats a minute per address; past it 429, nothing taken."""
    client = TestClient(create_app(database=tmp_path / "games.sqlite3", limits=Limits(joins_per_minute=2)))
    tables = [open_table(client)["id"] for _ in range(3)]
    assert [join(client, game_id, "Zed").status_code for game_id in tables[:2]] == [201, 201]
    refused = join(client, tables[2], "Zed", "en")
    assert refused.status_code == 429 and "try again in" in refused.json()["error"]
    assert int(refused.headers["retry-after"]) >= 1
    assert client.get(f"/api/games/{tables[2]}").json()["seats"][1]["free"]
    other = TestClient(client.app, client=("198.51.100.7", 40000))
    assert join(other, tables[2], "Eve").status_code == 201, "another address is not held back"


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def play_until(host: Host, table: Table, token: str, done: Callable[[Table], bool]) -> Table:
    """The person at seat 0 plays their first legal move until ``done`` (the others play by themselves)."""
    for _ in range(2000):
        table = host.table(table.id)
        if done(table):
            return table
        assert 0 in table.awaited(), "the table waits for seat 0"
        table, _seat = host.act(table.id, token, str(table.legal(0)[0]), table.stored.seats[0].acted)
    raise AssertionError("never done")


def test_an_idle_seat_of_an_open_table_goes_to_a_computer_player_and_the_game_ends(tmp_path: Path) -> None:
    """A seat the game waits for, unchanged for ``idle_seat_minutes``, while another person at
    the table waits on it, is handed to a computer player (written to the store: the seat's
    bot); its link plays no more, the game goes on to its end, its record replays and names the
    seat's bot. Where nobody waits on anyone (the only person away), nothing is handed."""
    path = tmp_path / "games.sqlite3"
    clock = Clock(1_000_000.0)
    host = Host(SQLiteStore(path), wall_clock=clock)
    seats = [SeatRequest("Ana"), SeatRequest("Player 2"), SeatRequest("Robot", "greedy")]
    table, tokens = host.create("tres-fute", seats, listed=True, player_hash="a" * 64)
    ana = tokens[0]
    assert ana is not None
    table = play_until(host, table, ana, lambda t: bool(t.stored.moves))  # Ana rolls, then lets time pass
    clock.now += 3600
    assert host.replace_idle_seats(600) == [], "Ana is away, but nobody waits on her: the free seat is free"
    table, zed_seat, zed = host.join(table.id, "Zed", "z" * 64)
    table = play_until(host, table, ana, lambda t: t.awaited() == {zed_seat})
    clock.now += 599
    assert host.replace_idle_seats(600) == [] and table.stored.seats[zed_seat].bot is None, "not idle long enough"
    clock.now += 2
    assert host.replace_idle_seats(600) == [table]
    assert table.stored.seats[zed_seat].bot == REPLACEMENT_BOT and zed_seat in table.bots
    with pytest.raises(TableError) as refused:
        host.act(table.id, zed, "roll", 0)
    assert refused.value.status == 403, "the seat's link plays no more"
    reopened = Host(SQLiteStore(path), wall_clock=clock).table(table.id)
    assert reopened.stored.seats[zed_seat].bot == REPLACEMENT_BOT and set(reopened.bots) == {1, 2}, "stored"
    table = play_until(host, table, ana, lambda t: t.game.is_over)
    record = host.record(table)
    assert record.players == ["Ana", "Zed", "Robot"] and record.bots == [None, REPLACEMENT_BOT, "greedy"]
    replayed = records.replay(records.loads(records.dumps(record)))
    assert [s.total for s in replayed.scores()] == [s.total for s in table.game.scores()]


def test_the_server_hands_an_idle_seat_by_itself_and_the_table_plays_on(tmp_path: Path) -> None:
    """The server looks for idle seats once it runs and every minute after: the seat waited on
    goes to a computer player, which plays at once."""
    clock = Clock(1_000_000.0)
    app = create_app(database=tmp_path / "games.sqlite3", clock=clock, limits=Limits(idle_seat_minutes=10))
    host: Host = app.state.host
    seats = [SeatRequest("Ana"), SeatRequest("Player 2")]
    table, (ana, _free) = host.create("tres-fute", seats, listed=True, player_hash="a" * 64)
    assert ana is not None
    table, zed_seat, _zed = host.join(table.id, "Zed", "z" * 64)
    table = play_until(host, table, ana, lambda t: t.awaited() == {zed_seat})
    moves = len(table.stored.moves)
    clock.now += 11 * 60
    with TestClient(app) as client:
        deadline = time.monotonic() + 30  # the look runs in the background: a busy machine is slow
        while client.get(f"/api/games/{table.id}").json()["seats"][zed_seat]["bot"] is None:
            assert time.monotonic() < deadline, "the idle seat was never handed"
            time.sleep(0.05)
        while len(host.table(table.id).stored.moves) == moves:
            assert time.monotonic() < deadline, "the computer player never played"
            time.sleep(0.05)
    assert client.app.state.server.guard.limits.idle_seat_minutes == 10  # type: ignore[attr-defined]

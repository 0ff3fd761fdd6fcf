"""Open tables: a game listed on the home page with free seats that anyone may take."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tresfute.web.app import create_app
from tresfute.web.store import MoveConflictError


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(database=tmp_path / "games.sqlite3"))


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
    joined = client.post(f"/api/games/{created['id']}/join", json={"name": "  Zed "})
    assert joined.status_code == 201, joined.text
    zed = joined.json()
    assert zed["seat"] == 1 and zed["link"].endswith(zed["token"])
    view = client.get(f"/api/games/{created['id']}", headers={"X-Seat-Token": zed["token"]}).json()
    assert view["you"] == 1 and [s["name"] for s in view["seats"]] == ["Ana", "Zed", "Robot"]
    assert not any(s["free"] for s in view["seats"])
    assert client.get("/api/open").json()["games"] == [], "no free seat left: no longer listed"
    again = client.post(f"/api/games/{created['id']}/join?lang=en", json={"name": "Eve"})
    assert again.status_code == 409 and again.json()["error"] == "this table has no free seat left"
    assert client.get(f"/api/games/{created['id']}").json()["seats"][1]["name"] == "Zed"


def test_only_open_tables_take_newcomers_and_an_open_table_needs_a_free_seat(client: TestClient) -> None:
    private = client.post("/api/games", json={"game": "tres-fute", "seats": [{"name": "Ana"}, {"name": "Bob"}]})
    assert client.post(f"/api/games/{private.json()['id']}/join", json={"name": "Eve"}).status_code == 409
    alone = client.post(
        "/api/games",
        json={"game": "tres-fute", "seats": [{"name": "Ana"}, {"name": "R", "bot": "greedy"}], "listed": True},
    )
    assert alone.status_code == 422 and alone.json()["error"]
    assert client.post("/api/games/nope/join", json={"name": "Eve"}).status_code == 404
    assert client.post(f"/api/games/{private.json()['id']}/join", json={"name": " "}).status_code == 422
    assert client.get("/api/open").json()["games"] == []


def test_a_free_seat_waits_for_its_person_and_then_plays(client: TestClient) -> None:
    created = open_table(client)
    ana = created["seats"][0]["token"]
    view = client.get(f"/api/games/{created['id']}", headers={"X-Seat-Token": ana}).json()
    assert view["legal"] and view["legal"][0]["move"] == "roll"
    zed = client.post(f"/api/games/{created['id']}/join", json={"name": "Zed"}).json()
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
    zed = first.post(f"/api/games/{game_id}/join", json={"name": "Zed"}).json()
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
    eve = second.post(f"/api/games/{game_id}/join", json={"name": "Eve"})
    assert eve.status_code == 201, eve.text
    assert (zed["seat"], eve.json()["seat"]) == (1, 2)
    assert calls == [f"take at revision {stale}", "refused", "load", f"take at revision {stale + 1}"], (
        "refused on the stale copy, reloaded, taken once more; nothing read after the write"
    )
    for client, taker in ((first, eve.json()), (second, zed)):
        view = client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": taker["token"]}).json()
        assert view["you"] == taker["seat"] and [s["name"] for s in view["seats"]] == ["Ana", "Zed", "Eve"]

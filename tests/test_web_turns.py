"""Others' turns as they happen, from the server's side: the record's entries since a point,
each in words with the state after it (``GET /api/games/{id}/steps``), and the turn's words
naming who acts and whose platter a passive pick takes from."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tresfute.web.app import create_app


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(database=tmp_path / "games.sqlite3"))


def _view(client: TestClient, game_id: str, token: str | None) -> dict[str, Any]:
    return client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": token} if token else {}).json()


def _play_until_the_computer_has_played(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    for _ in range(60):
        view = _view(client, game_id, token)
        if view["state"]["active"] == 0 and view["state"]["round"] == 2:
            return view
        legal = [m for m in view["legal"] if m["kind"] not in ("reroll",)]
        client.post(
            f"/api/games/{game_id}/act",
            json={"move": legal[-1]["move"], "seq": view["seq"]},
            headers={"X-Seat-Token": token},
        )
    raise AssertionError("the computer player never played")


def test_the_steps_tell_each_entry_of_the_computers_turn_in_words_with_the_state_after_it(client: TestClient) -> None:
    created = client.post(
        "/api/games", json={"game": "tres-fute", "seats": [{"name": "Ana"}, {"name": "Robot", "bot": "greedy"}]}
    ).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    view = _play_until_the_computer_has_played(client, game_id, token)
    answer = client.get(f"/api/games/{game_id}/steps?since=0", headers={"X-Seat-Token": token}).json()
    steps = answer["steps"]
    assert answer["entries"] == view["entries"] == len(steps)
    assert [s["entry"] for s in steps] == list(range(len(steps)))
    robot = [s for s in steps if s["actor"] == 1]
    assert robot, "the computer's turn is in the steps"
    assert any(s["text"].startswith("Robot lance\u00a0: ") and s["player"] is None for s in robot), "its roll, named"
    picks = [s for s in robot if s["player"] == 1 and " → " in s["text"]]
    assert picks and all(s["text"].startswith("Robot\u00a0: ") for s in picks)
    # the turn line of a step names who acts: its own turn, or during another's
    assert {s["status"] for s in robot} <= {"Tour de Robot.", "Robot joue pendant le tour de Ana."}
    assert any("sur le plateau d’argent" in s["text"] for s in picks), (
        "an active pick says how many dice went to the platter"
    )
    # each step carries the state after it: the last one is the game as it stands
    assert steps[-1]["state"]["sheets"] == view["state"]["sheets"]
    assert len(steps[-1]["deciding"]) == 2
    # from a later point, only the entries after it; a spectator may read them too
    later = client.get(f"/api/games/{game_id}/steps?since={len(steps) - 3}").json()
    assert [s["entry"] for s in later["steps"]] == [len(steps) - 3, len(steps) - 2, len(steps) - 1]
    assert client.get(f"/api/games/{game_id}/steps?since=-1").status_code == 422


def test_a_passive_pick_names_whose_platter_it_is_and_whose_turn(client: TestClient) -> None:
    created = client.post(
        "/api/games", json={"game": "tres-fute", "seats": [{"name": "Robot", "bot": "greedy"}, {"name": "Ana"}]}
    ).json()
    game_id, token = created["id"], created["seats"][1]["token"]
    view = _view(client, game_id, token)  # the computer played its active turn at once: Ana picks from its platter
    assert view["state"]["active"] == 0 and view["state"]["phase"] == "passive"
    assert view["status"] == "Tour de Robot."
    assert view["prompt"] == "choisissez un dé du plateau d’argent de Robot"
    assert "À vous" not in view["status"]

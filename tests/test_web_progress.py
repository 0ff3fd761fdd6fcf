"""A player's progress (``routes/players.py``): a player's secret, the seats it links (new games,
open tables, the daily challenge), their finished games with scores and review figures, the
exports (CSV, records), and bad secrets refused without a change; on SQLite and PostgreSQL alike
(a throwaway cluster, ``tests/postgres.py``; skipped without it)."""

from __future__ import annotations

import csv
import io
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from test_review_store import external_moves
from tresfute import records
from tresfute.bots.review import FORMAT
from tresfute.simulate import play_game
from tresfute.web.app import create_app
from tresfute.web.limits import Limits
from tresfute.web.players import strong_scores
from tresfute.web.store import MIGRATIONS, SQLiteStore, Store, StoredGame, StoredSeat, token_hash


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    app = create_app(store=store, challenge_bot="greedy")
    with TestClient(app) as c:
        yield c
    app.state.daily.wait_idle()


def new_player(client: TestClient, name: str = "Ana") -> str:
    response = client.post("/api/players", json={"name": name})
    assert response.status_code == 201, response.text
    assert response.json()["name"] == name
    token: str = response.json()["token"]
    return token


def me(client: TestClient, token: str) -> dict[str, Any]:
    response = client.get("/api/players/me?lang=en", headers={"X-Player-Token": token})
    assert response.status_code == 200, response.text
    return dict(response.json())


def play_out(client: TestClient, game_id: str, *seat_tokens: str, seed: int = 0) -> dict[str, Any]:
    """The seats play random legal moves in turn until the game is over (computer players answer)."""
    rng = random.Random(seed)
    for _ in range(2000):
        for token in seat_tokens:
            headers = {"X-Seat-Token": token}
            view = client.get(f"/api/games/{game_id}", headers=headers).json()
            if view["over"]:
                return dict(view)
            if view["legal"]:
                move = rng.choice(view["legal"])["move"]
                body = {"move": move, "seq": view["seq"]}
                response = client.post(f"/api/games/{game_id}/act", json=body, headers=headers)
                assert response.status_code == 200, response.text
    raise AssertionError("the game did not end")


def finished_game(store: Store, game_id: str, player_hash: str | None, moves: list[str], when: float) -> None:
    """A finished solo game written as the server writes it (its last move ends it)."""
    seat = StoredSeat("Ana", None, token_hash(f"seat-{game_id}-0123456789"), player_hash=player_hash)
    store.create(StoredGame(game_id, "tres-fute", False, None, [seat], moves=moves[:-1], created=when))
    store.append_moves(game_id, len(moves) - 1, moves[-1:], 0, finished=when + 60)


def test_a_new_player_has_an_empty_history_and_a_name_to_change(client: TestClient) -> None:
    token = new_player(client, "Ana")
    found = me(client, token)
    assert found["name"] == "Ana" and found["games"] == [] and found["challenges"] == []
    assert set(found["strong"]["scores"]) == {"tres-fute", "vraiment-tres-fute"}
    response = client.put("/api/players/me", json={"name": "  Ana  B "}, headers={"X-Player-Token": token})
    assert response.status_code == 200 and response.json() == {"name": "Ana B"}
    assert me(client, token)["name"] == "Ana B"


def test_bad_secrets_are_refused_and_change_nothing(client: TestClient, store: Store) -> None:
    token = new_player(client)
    forged = "x" * 32  # well formed, never given by this server
    for method, url, body in [
        ("GET", "/api/players/me", None),
        ("PUT", "/api/players/me", {"name": "Zed"}),
        ("GET", "/api/players/me/games.csv", None),
        ("GET", "/api/players/me/records.json", None),
    ]:
        refused = client.request(method, f"{url}?lang=en", json=body, headers={"X-Player-Token": forged})
        assert refused.status_code == 403 and "no player has this secret" in refused.json()["error"]
        malformed = client.request(method, f"{url}?lang=en", json=body, headers={"X-Player-Token": "bad token!"})
        assert malformed.status_code == 422 and "malformed request" in malformed.json()["error"]
        missing = client.request(method, f"{url}?lang=en", json=body)
        assert missing.status_code == 401
    # a game made with a forged secret is refused: no game is made
    seats = [{"name": "Zed"}]
    refused = client.post(
        "/api/games?lang=en", json={"game": "tres-fute", "seats": seats}, headers={"X-Player-Token": forged}
    )
    assert refused.status_code == 403
    assert store.player_name(token_hash(forged)) is None
    assert me(client, token)["name"] == "Ana"
    bad_name = client.put("/api/players/me", json={"name": "   "}, headers={"X-Player-Token": token})
    assert bad_name.status_code == 422 and me(client, token)["name"] == "Ana"


def test_games_made_joined_and_entered_are_the_players(client: TestClient) -> None:
    token = new_player(client, "Ana")
    other = new_player(client, "Bob")
    headers = {"X-Player-Token": token}
    # a solo game
    solo = client.post("/api/games", json={"game": "tres-fute", "seats": [{"name": "Ana"}]}, headers=headers).json()
    play_out(client, solo["id"], solo["seats"][0]["token"])
    # a game with a computer player
    seats = [{"name": "Ana"}, {"name": "Robot", "bot": "random"}]
    duel = client.post("/api/games", json={"game": "tres-fute", "seats": seats}, headers=headers).json()
    play_out(client, duel["id"], duel["seats"][0]["token"], seed=1)
    # Bob's open table, where Ana takes the second seat
    seats = [{"name": "Bob"}, {"name": "Guest"}]
    table = client.post(
        "/api/games", json={"game": "tres-fute", "seats": seats, "listed": True}, headers={"X-Player-Token": other}
    ).json()
    joined = client.post(f"/api/games/{table['id']}/join", json={"name": "Ana"}, headers=headers).json()
    # a game without the header is nobody's
    nobody = client.post("/api/games", json={"game": "tres-fute", "seats": [{"name": "Ana"}]}).json()
    play_out(client, nobody["id"], nobody["seats"][0]["token"])
    # the daily challenge's entry
    entry = client.post("/api/challenge/tres-fute", json={"name": "Ana"}, headers=headers).json()
    assert entry["player"] == token
    play_out(client, entry["id"], entry["token"], seed=2)

    found = me(client, token)
    assert [g["id"] for g in found["games"]] == [solo["id"], duel["id"], entry["id"]]  # the open table is not over
    first, second, third = found["games"]
    assert first["solo"] and first["seat"] == 1 and first["players"][0]["name"] == "Ana"
    assert not second["solo"] and [p["name"] for p in second["players"]] == ["Ana", "Robot"]
    assert third["challenge"] == entry["day"]
    assert all(g["reviewed"] is False and g["accuracy"] is None for g in found["games"])
    assert [(e["id"], e["score"]) for e in found["challenges"]] == [(entry["id"], third["score"])]
    # the scores are the games' own
    seat_tokens = {
        solo["id"]: solo["seats"][0]["token"],
        duel["id"]: duel["seats"][0]["token"],
        entry["id"]: entry["token"],
    }
    for g in found["games"]:
        view = client.get(f"/api/games/{g['id']}", headers={"X-Seat-Token": seat_tokens[g["id"]]}).json()
        assert g["score"] == view["result"]["scores"][g["seat"] - 1]["total"]
        assert [p["score"] for p in g["players"]] == [s["total"] for s in view["result"]["scores"]]
    # the open table, once over, is in both histories, each with their own seat
    assert me(client, other)["games"] == [] and joined["seat"] == 1
    play_out(client, table["id"], table["seats"][0]["token"], joined["token"], seed=3)
    (hers,) = [g for g in me(client, token)["games"] if g["id"] == table["id"]]
    (his,) = me(client, other)["games"]
    assert (hers["seat"], his["seat"]) == (2, 1) and his["players"] == hers["players"]


def test_review_figures_and_both_exports(client: TestClient, store: Store) -> None:
    token = new_player(client, "Ana")
    hashed = token_hash(token)
    moves = [external_moves(seed) for seed in (0, 1)]
    finished_game(store, "g1", hashed, moves[0], 1_700_000_000.0)
    finished_game(store, "g2", hashed, moves[1], 1_700_100_000.0)
    finished_game(store, "g3", None, moves[1], 1_700_200_000.0)  # not Ana's
    review = {"accuracy": 61.5, "mean_cost": 3.25, "decisions": [{"cost": 1.0}] * 4}
    store.save_review("g2", 0, FORMAT, json.dumps(review))
    store.save_review("g2", 0, "tresfute-review/0", json.dumps({"accuracy": 1, "mean_cost": 1, "decisions": []}))
    found = me(client, token)["games"]
    assert [g["id"] for g in found] == ["g1", "g2"]
    assert found[0]["reviewed"] is False and found[0]["accuracy"] is None
    assert (found[1]["reviewed"], found[1]["accuracy"], found[1]["mean_cost"], found[1]["decisions"]) == (
        True,
        61.5,
        3.25,
        4,
    )
    assert found[0]["finished"] == "2023-11-14 22:14"
    for g, m in zip(found, moves, strict=True):
        assert (
            g["score"]
            == records.replay(records.Record(game="tres-fute", players=["Ana"], dice="external", moves=m))
            .scores()[0]
            .total
        )

    response = client.get("/api/players/me/games.csv", headers={"X-Player-Token": token})
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.text)))
    assert [r["id"] for r in rows] == ["g1", "g2"]
    assert rows[1]["accuracy"] == "61.5" and rows[1]["mean_cost"] == "3.25" and rows[0]["accuracy"] == ""
    assert rows[0]["score"] == str(found[0]["score"]) and rows[0]["players"] == f"Ana {found[0]['score']}"

    response = client.get("/api/players/me/records.json", headers={"X-Player-Token": token})
    assert response.status_code == 200
    exported = response.json()
    assert len(exported) == 2
    for data, m, g in zip(exported, moves, found, strict=True):
        record = records.from_data(data)  # the documented format, read back strictly
        assert record.moves == m and record.players == ["Ana"]
        assert records.replay(record).scores()[0].total == g["score"]


def test_the_csv_keeps_a_name_from_running_as_a_formula(client: TestClient, store: Store) -> None:
    token = new_player(client, "Ana")
    seat = StoredSeat("=HYPERLINK(1)", None, token_hash("seat-g1-0123456789"), player_hash=token_hash(token))
    moves = external_moves(0)
    store.create(StoredGame("g1", "tres-fute", False, None, [seat], moves=moves[:-1]))
    store.append_moves("g1", len(moves) - 1, moves[-1:], 0, finished=1_700_000_000.0)
    text = client.get("/api/players/me/games.csv", headers={"X-Player-Token": token}).text
    (row,) = csv.DictReader(io.StringIO(text))
    assert row["players"].startswith("'=HYPERLINK(1) ")


def test_the_scores_are_kept_once_computed(store: Store) -> None:
    finished_game(store, "g1", "h" * 64, external_moves(0), 1_700_000_000.0)
    store.add_player("h" * 64, "Ana", 0.0)
    (seat,) = store.played("h" * 64, FORMAT)
    assert seat.scores is None and seat.names == ["Ana"] and seat.review is None
    store.save_scores("g1", [123])
    (seat,) = store.played("h" * 64, FORMAT)
    assert seat.scores == [123]
    assert store.add_player("h" * 64, "Other", 1.0) is False and store.player_name("h" * 64) == "Ana"
    assert store.rename_player("h" * 64, "Ana B") and store.player_name("h" * 64) == "Ana B"
    assert store.rename_player("u" * 64, "Nobody") is False and store.player_name("u" * 64) is None


def test_the_challenges_players_become_players(tmp_path: Path) -> None:
    """A database of schema 6 with challenge entries: their players are players after the migration."""
    import sqlite3

    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    db.execute("INSERT INTO schema_version VALUES (6)")
    for script in MIGRATIONS[:6]:
        for statement in script.format(real="REAL").split(";"):
            if statement.strip():
                db.execute(statement)
    db.execute("INSERT INTO challenge_names VALUES ('2026-11-20', 'ana', 'Ana', 'hash-a')")
    db.execute("INSERT INTO challenge_names VALUES ('2026-11-22', 'anna', 'Anna', 'hash-a')")
    db.execute("INSERT INTO challenge_names VALUES ('2026-11-21', 'bob', 'Bob', 'hash-b')")
    db.commit()
    db.close()
    store = SQLiteStore(path)
    try:
        assert store.player_name("hash-a") == "Anna" and store.player_name("hash-b") == "Bob"
        assert store.player_name("hash-c") is None
    finally:
        store.close()


def test_the_strong_players_scores_are_shipped_with_their_command_and_seed() -> None:
    data = strong_scores()
    assert data["seed"] == 1000 and data["bot"] == "strong"
    assert data["command"] == f"python scripts/strong_scores.py --games {data['games']} --seed 1000"
    for game, mean in (("tres-fute", 281.5), ("vraiment-tres-fute", 332.6)):  # docs/bench.md's 1,000 games
        scores = data["by_game"][game]["scores"]
        assert len(scores) == data["games"] >= 200
        assert abs(sum(scores) / len(scores) - mean) < 10
    # the command's first game, played again: the same score
    first = play_game("tres-fute", 1, "strong", data["seed"], 0)
    assert first.scores()[0].total == data["by_game"]["tres-fute"]["scores"][0]


def test_new_players_are_limited_per_address(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "games.sqlite3")
    try:
        client = TestClient(create_app(store=store, limits=Limits(players_per_minute=2)))
        assert [client.post("/api/players", json={"name": "Ana"}).status_code for _ in range(2)] == [201, 201]
        refused = client.post("/api/players?lang=en", json={"name": "Ana"})
        assert refused.status_code == 429 and "too many new players" in refused.json()["error"]
        assert "Retry-After" in refused.headers
    finally:
        store.close()

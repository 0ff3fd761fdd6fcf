"""The review routes: a finished game's review computed once in the background with its progress,
who may ask for it, and during a game what each computer player would play."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from test_review_store import external_moves
from tresfute.bots import review as review_module
from tresfute.bots.review import FORMAT
from tresfute.web.app import create_app
from tresfute.web.challenge import closes
from tresfute.web.store import SQLiteStore, StoredGame, StoredSeat, token_hash

TOKEN = "ana-seat-token-0123456789abcdef"  # the seat's token in game g1 (another game's: with its id)
DAY = "2026-11-25"


@pytest.fixture(scope="module")
def finished() -> list[str]:
    return external_moves(0)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    s = SQLiteStore(tmp_path / "games.sqlite3")
    yield s
    s.close()


def served(store: SQLiteStore, clock: Callable[[], float] | None = None) -> TestClient:
    """The server over ``store``, its event loop kept between requests (reviews run in it)."""
    return TestClient(create_app(store=store, clock=clock, challenge_bot="greedy"))


def stored_game(moves: list[str], game_id: str = "g1", challenge: str | None = None) -> StoredGame:
    seat = StoredSeat("Ana", None, token_hash(seat_token(game_id)))
    return StoredGame(game_id, "tres-fute", False, None, [seat], moves=moves, challenge=challenge)


def seat_token(game_id: str) -> str:
    return TOKEN if game_id == "g1" else f"{TOKEN}-{game_id}"


def counting(monkeypatch: pytest.MonkeyPatch, gate: threading.Event | None = None) -> list[int]:
    """Count the reviews computed; with ``gate``, the first decision's progress waits for it."""
    calls: list[int] = []
    real = review_module.review_game

    def counted(record: Any, player: int = 0, seed: int = 0, progress: Any = None) -> review_module.Review:
        calls.append(1)

        def told(done: int, total: int) -> None:
            progress(done, total)
            if gate is not None and done == 1:
                assert gate.wait(30)

        return real(record, player, seed, told)

    monkeypatch.setattr(review_module, "review_game", counted)
    return calls


def until_done(client: TestClient, url: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    for _ in range(600):
        response = client.get(url, headers=headers or {})
        assert response.status_code == 200, response.text
        if response.json()["status"] == "done":
            return dict(response.json())
        time.sleep(0.1)
    raise AssertionError("the review never ended")


def test_a_review_is_computed_once_in_the_background_then_read_from_the_store(
    store: SQLiteStore, finished: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = counting(monkeypatch)
    store.create(stored_game(finished))
    with served(store) as client:
        assert client.get("/api/games/g1/review").json() == {"status": "none"}  # nobody asked: nothing computed
        started = client.post("/api/games/g1/review?lang=en", headers={"X-Seat-Token": TOKEN})
        assert started.status_code == 202 and started.json()["status"] == "running"
        review = until_done(client, "/api/games/g1/review?lang=en", {"X-Seat-Token": TOKEN})
        again = client.post("/api/games/g1/review?lang=en")  # anyone, once over: the stored one
        assert again.status_code == 200 and again.json() == review
        french = client.get("/api/games/g1/review?lang=fr&player=1").json()
    assert calls == [1]
    assert review["format"] == FORMAT and review["name"] == "Ana" and review["player"] == 1
    decisions = review["decisions"]
    assert len(review["chart"]) == len(decisions) + 1 and decisions
    assert all((d["cost"] >= 0 or d["label"] == "best") and d["played_text"] and d["best_text"] for d in decisions)
    assert sum(review["labels"].values()) == len(decisions)
    # each move as the page marks it on the sheet: its words, area and cell
    placed = [d for d in decisions if d["played_move"]["area"]]
    assert placed and all(d["played_move"]["label"] == d["played_text"] for d in decisions)
    assert {d["label_text"] for d in decisions} <= {"best", "good", "inaccuracy", "mistake", "blunder"}
    assert {d["label_text"] for d in french["decisions"]} <= {"meilleur", "bon", "imprécision", "erreur", "gaffe"}
    assert [d["played"] for d in french["decisions"]] == [d["played"] for d in decisions]


def test_the_progress_is_told_while_the_review_runs(
    store: SQLiteStore, finished: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = threading.Event()
    calls = counting(monkeypatch, gate)
    store.create(stored_game(finished))
    try:
        with served(store) as client:
            client.post("/api/games/g1/review", headers={"X-Seat-Token": TOKEN})
            deadline = time.monotonic() + 60  # the first decision reviewed, on however busy a machine
            while not (progress := client.get("/api/games/g1/review").json()).get("done"):
                assert time.monotonic() < deadline, progress
                time.sleep(0.05)
            assert progress["status"] == "running" and progress["done"] == 1 and progress["total"] > 10
            # asked again while it runs: the same computation, not a second one
            assert client.post("/api/games/g1/review").json()["status"] == "running"
            gate.set()
            review = until_done(client, "/api/games/g1/review")
    finally:
        gate.set()
    assert calls == [1] and len(review["decisions"]) == progress["total"]


def test_refused_reviews_change_nothing(store: SQLiteStore, finished: list[str]) -> None:
    """An unfinished game, a seat not in the game, another game's seat token, no such game, a
    challenge entry of a day not over: a sentence in the asker's language, nothing computed."""
    store.create(stored_game(finished[:40], "g1"))
    store.create(stored_game(finished, "g2"))
    store.create(stored_game(finished, "g3", challenge=DAY))
    now = [closes(DAY) - 3600]
    with served(store, clock=lambda: now[0]) as client:
        unfinished = client.post("/api/games/g1/review?lang=fr", headers={"X-Seat-Token": TOKEN})
        assert unfinished.status_code == 409
        assert unfinished.json()["error"].startswith("la partie n’est pas finie\u00a0:")
        english = client.post("/api/games/g1/review?lang=en")
        assert english.status_code == 409 and "not finished" in english.json()["error"]
        no_player = client.post("/api/games/g2/review?player=3&lang=en")
        assert no_player.status_code == 409 and "no player 3" in no_player.json()["error"]
        assert client.post("/api/games/g2/review?player=9").status_code == 422
        assert client.post("/api/games/g2/review", headers={"X-Seat-Token": TOKEN}).status_code == 403  # g1's seat
        assert client.post("/api/games/nope/review").status_code == 404
        today = client.post("/api/games/g3/review?lang=en", headers={"X-Seat-Token": seat_token("g3")})
        assert today.status_code == 409 and "once its day is over" in today.json()["error"]
        assert client.app.state.reviews.running == {}  # type: ignore[attr-defined]
        now[0] = closes(DAY) + 1  # the day is over: anyone may ask
        assert client.get("/api/games/g3/review").json() == {"status": "none"}
    assert all(store.load_review(g, 0, FORMAT) is None for g in ("g1", "g2", "g3"))


def test_what_each_computer_player_would_play(tmp_path: Path) -> None:
    with TestClient(create_app(database=tmp_path / "games.sqlite3")) as client:
        created = client.post("/api/games", json={"game": "tres-fute", "seats": [{"name": "Ana"}]}).json()
        game_id, token = created["id"], created["seats"][0]["token"]
        headers = {"X-Seat-Token": token}
        must_roll = client.post(f"/api/games/{game_id}/choices?lang=en", headers=headers)
        assert must_roll.status_code == 409  # the roll is no decision
        view = client.get(f"/api/games/{game_id}", headers=headers).json()
        client.post(f"/api/games/{game_id}/act", json={"move": "roll", "seq": view["seq"]}, headers=headers)
        view = client.get(f"/api/games/{game_id}", headers=headers).json()
        answer = client.post(f"/api/games/{game_id}/choices?lang=en", headers=headers)
        assert answer.status_code == 200, answer.text
        choices = answer.json()["choices"]
        legal = {m["move"] for m in view["legal"]}
        assert [c["bot"] for c in choices] == ["greedy", "strong"]
        assert all(c["move"] in legal and c["label"] and c["expected"] > 0 for c in choices)
        assert client.post(f"/api/games/{game_id}/choices").status_code == 401
        after = client.get(f"/api/games/{game_id}", headers=headers).json()
        assert after["revision"] == view["revision"]  # asking plays nothing

        entry = client.post("/api/challenge/tres-fute?lang=en", json={"name": "Zoé"}).json()
        refused = client.post(f"/api/games/{entry['id']}/choices?lang=en", headers={"X-Seat-Token": entry["token"]})
        assert refused.status_code == 409 and "no hints" in refused.json()["error"]


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    return str(request.getfixturevalue("postgres_url"))


def test_a_stored_review_outlives_the_server_on_sqlite_and_postgresql(
    where: str, finished: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Computed by one server, read by the next one on the same database (nothing computed
    again), the same review on both databases."""
    calls = counting(monkeypatch)
    with TestClient(create_app(database=where)) as client:
        client.app.state.host.store.create(stored_game(finished))  # type: ignore[attr-defined]
        client.post("/api/games/g1/review?lang=en", headers={"X-Seat-Token": TOKEN})
        first = until_done(client, "/api/games/g1/review?lang=en")
        client.app.state.host.store.close()  # type: ignore[attr-defined]
    with TestClient(create_app(database=where)) as client:  # a restart
        again = client.post("/api/games/g1/review?lang=en")
        client.app.state.host.store.close()  # type: ignore[attr-defined]
    assert again.status_code == 200 and again.json() == first
    assert calls == [1]


def test_the_review_routes_declare_who_asks_once(store: SQLiteStore) -> None:
    """The five review and practice routes take the game, the seat asked for and the asker's
    tokens from one dependency (``routes.reviews.asking``), and each still offers them all."""
    from fastapi.routing import APIRoute

    from tresfute.web.routes import reviews as review_routes

    client = served(store)
    described = client.get("/api/openapi.json").json()["paths"]
    routes = [r for r in review_routes.router.routes if isinstance(r, APIRoute) and not r.path.endswith("/choices")]
    assert len(routes) == 5
    for route in routes:
        assert [d.call for d in route.dependant.dependencies].count(review_routes.asking) == 1, route.path
        for method in route.methods:
            offered = {(p["name"], p["in"]) for p in described[route.path][method.lower()]["parameters"]}
            assert {("game_id", "path"), ("player", "query"), ("x-seat-token", "header")} <= offered
            assert ("x-player-token", "header") in offered


def test_a_review_or_verification_that_fails_in_the_background_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    """A review's own refusal in its words, any other failure as 'the review failed: …' (once,
    then asking again tries again); a verification's failure as 'the verification failed: …'."""
    import asyncio
    from types import SimpleNamespace

    from tresfute.bots.review import ReviewError
    from tresfute.web import reviews as web_reviews
    from tresfute.web.table import TableError

    class Away:
        def __getattr__(self, name: str) -> Any:
            raise RuntimeError("the database is away")

    async def run(work: Callable[[], None]) -> None:
        work()

    async def started(start: Callable[[], Any]) -> None:
        start()
        await asyncio.gather(*reviews._tasks)

    reviews = web_reviews.Reviews(SimpleNamespace(store=Away()))  # type: ignore[arg-type]
    asyncio.run(started(lambda: reviews.start("g", 0, run)))
    with pytest.raises(TableError, match=r"^the review failed: the database is away$"):
        reviews.answer("g", 0, "en")
    assert reviews.running == {}  # told once: asking again tries again

    def refusing(*_args: Any) -> None:
        raise ReviewError("the game is not finished: only a finished game is reviewed")

    monkeypatch.setattr(web_reviews, "reviewed", refusing)
    asyncio.run(started(lambda: reviews.start("g", 1, run)))
    with pytest.raises(TableError, match=r"^the game is not finished: only a finished game is reviewed$"):
        reviews.answer("g", 1, "en")

    asyncio.run(started(lambda: reviews.verify_start("g", 0, 3, 8, run)))
    failed = reviews.verifying[("g", 0)]
    assert (failed.error, failed.params) == ("the verification failed: {problem}", {"problem": "the database is away"})

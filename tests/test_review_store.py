"""Stored reviews: computed once per seat of a finished game, kept across a restart, the same on
SQLite and PostgreSQL (a throwaway cluster, ``tests/postgres.py``; skipped without it)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from tresfute import records
from tresfute.bots import GreedyBot
from tresfute.bots import review as review_module
from tresfute.bots.review import FORMAT, ReviewError
from tresfute.bots.strong import roll_own_dice
from tresfute.rules import CHANCE, Game
from tresfute.web.store import PostgresStore, SQLiteStore, Store, StoredGame, StoredSeat, reviewed


def external_moves(seed: int) -> list[str]:
    """A finished solo game of the greedy player, its dice written in the record as the server
    keeps them."""
    game = Game("tres-fute", 1, dice="external")
    rng = random.Random(seed)
    while not game.is_over:
        p = game.to_move
        if p == CHANCE:
            roll_own_dice(game, rng)
        else:
            assert p is not None
            game.play(GreedyBot(0).choose(game, p), p)
    return records.record_of(game).moves


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    return str(request.getfixturevalue("postgres_url"))


def opened(where: str) -> Store:
    return PostgresStore(where) if where.startswith("postgresql") else SQLiteStore(where)


@pytest.fixture
def store(where: str) -> Iterator[Store]:
    s = opened(where)
    yield s
    s.close()


@pytest.fixture(scope="module")
def finished() -> list[str]:
    return external_moves(0)


def a_game(moves: list[str], game_id: str = "g1") -> StoredGame:
    return StoredGame(game_id, "tres-fute", True, None, [StoredSeat("Ana", None, f"{game_id:h<64}")], moves=moves)


def counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = review_module.review_game

    def counted(*args: object, **kwargs: object) -> review_module.Review:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(review_module, "review_game", counted)
    return calls


def test_a_review_is_computed_once_and_then_read(
    store: Store, finished: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = counting(monkeypatch)
    store.create(a_game(finished))
    first = reviewed(store, "g1", 0)
    assert first is not None and first["format"] == FORMAT and len(calls) == 1
    assert first["decisions"] and all(d["cost"] >= 0 or d["label"] == "best" for d in first["decisions"])
    assert reviewed(store, "g1", 0) == first and len(calls) == 1
    assert store.load_review("g1", 0, FORMAT) is not None
    assert store.load_review("g1", 0, "tresfute-review/0") is None


def test_a_stored_review_survives_a_restart(where: str, finished: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    store = opened(where)
    store.create(a_game(finished))
    first = reviewed(store, "g1", 0)
    store.close()
    calls = counting(monkeypatch)
    store = opened(where)
    try:
        assert reviewed(store, "g1", 0) == first and calls == []
    finally:
        store.close()


def test_the_first_review_written_stays(store: Store, finished: list[str]) -> None:
    store.create(a_game(finished))
    store.save_review("g1", 0, FORMAT, '{"first": true}')
    store.save_review("g1", 0, FORMAT, '{"first": false}')
    assert reviewed(store, "g1", 0) == {"first": True}


def test_no_review_of_a_missing_or_unfinished_game_or_seat(store: Store, finished: list[str]) -> None:
    assert reviewed(store, "nothing", 0) is None
    store.create(a_game(finished[:10], "short"))
    with pytest.raises(ReviewError, match="not finished"):
        reviewed(store, "short", 0)
    store.create(a_game(finished, "g1"))
    with pytest.raises(ReviewError, match="no player 2"):
        reviewed(store, "g1", 1)
    assert store.load_review("short", 0, FORMAT) is None and store.load_review("g1", 1, FORMAT) is None


def test_sqlite_and_postgresql_keep_the_same_review(tmp_path: Path, finished: list[str], postgres_url: str) -> None:
    reviews = []
    for where in (str(tmp_path / "games.sqlite3"), postgres_url):
        store = opened(where)
        store.create(a_game(finished))
        reviews.append(reviewed(store, "g1", 0))
        store.close()
    assert reviews[0] is not None and reviews[0] == reviews[1]


def test_a_review_is_forgotten_with_its_game(store: Store, finished: list[str]) -> None:
    """A finished game forgotten after the retention takes its reviews with it (and PostgreSQL,
    which holds the reviews to their game, lets it go)."""
    store.create(a_game(finished[:-1], "old"))
    store.append_moves("old", len(finished) - 1, finished[-1:], 0, finished=100.0)
    store.save_review("old", 0, FORMAT, '{"kept": true}')
    assert store.purge_finished(200.0) == 1
    assert store.load("old") is None and store.load_review("old", 0, FORMAT) is None


def test_practice_positions_solved_are_kept_once_per_player(store: Store) -> None:
    """A player's solved practice positions (game, seat, move number), oldest first, each once
    (the first time stays); another player's are theirs; no game need exist (what a player
    solved stays theirs once the game is forgotten)."""
    store.save_solved("p1", "g1", 0, 12, 1.0)
    store.save_solved("p1", "g1", 0, 12, 5.0)  # solved again: kept once, at its first time
    store.save_solved("p1", "g2", 1, 6, 3.0)
    store.save_solved("p2", "g1", 0, 12, 2.0)
    assert store.solved("p1") == [("g1", 0, 12), ("g2", 1, 6)]
    assert store.solved("p2") == [("g1", 0, 12)] and store.solved("nobody") == []

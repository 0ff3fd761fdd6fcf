"""Where the web server keeps its games: each game's description and its record's moves.

:class:`Store` is the small interface the server needs; :class:`SQLiteStore` implements it on an
embedded SQLite file. Every call commits before it returns, so a move the server has
acknowledged survives a stop at any moment. Seat tokens are kept only as their SHA-256.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class StoredSeat:
    name: str
    bot: str | None  # a computer player's name, or None for a person
    token_hash: str | None  # people only
    acted: int = 0  # how many times the seat has acted (moves, rolls, undos): its requests' "seq"


@dataclass
class StoredGame:
    id: str
    game: str  # "tres-fute" or "vraiment-tres-fute"
    real_dice: bool  # dice typed by the players (a table with real dice)
    secret: str | None  # the fair-dice secret (None for real dice)
    seats: list[StoredSeat]
    language: str = "fr"
    created: float = field(default_factory=time.time)
    moves: list[str] = field(default_factory=list)  # record entries: "1:y@r1c1", "dice w3 …"
    revision: int = 0  # grows at every change (a move, an undo): the newest state wins


class MoveConflictError(RuntimeError):
    """The game's record no longer has the length the write expected (a concurrent write)."""


class Store(Protocol):
    def create(self, game: StoredGame) -> None: ...

    def load(self, game_id: str) -> StoredGame | None: ...

    def append_moves(self, game_id: str, start: int, entries: list[str], seat: int | None) -> None:
        """Write ``entries`` as moves ``start``, ``start + 1``, … (``seat`` acted, if any); raises
        :class:`MoveConflictError` if the record does not have exactly ``start`` moves."""
        ...

    def truncate(self, game_id: str, length: int, seat: int) -> None:
        """Keep the first ``length`` moves (``seat``'s undo)."""
        ...

    def seat_of(self, token: str) -> tuple[str, int] | None:
        """The game and seat (0-based) a seat token plays, if any."""
        ...

    def close(self) -> None: ...


_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    real_dice INTEGER NOT NULL,
    secret TEXT,
    language TEXT NOT NULL,
    created REAL NOT NULL,
    revision INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    bot TEXT,
    token_hash TEXT UNIQUE,
    acted INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    number INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (game_id, number)
);
"""


class SQLiteStore:
    """Games in one SQLite file (``":memory:"`` for tests); safe across threads."""

    def __init__(self, path: str | Path) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)
        self._lock = threading.Lock()

    def create(self, game: StoredGame) -> None:
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute(
                "INSERT INTO games (id, game, real_dice, secret, language, created) VALUES (?, ?, ?, ?, ?, ?)",
                (game.id, game.game, int(game.real_dice), game.secret, game.language, game.created),
            )
            self._db.executemany(
                "INSERT INTO seats (game_id, seat, name, bot, token_hash) VALUES (?, ?, ?, ?, ?)",
                [(game.id, i, s.name, s.bot, s.token_hash) for i, s in enumerate(game.seats)],
            )
            self._db.executemany(
                "INSERT INTO moves (game_id, number, entry) VALUES (?, ?, ?)",
                [(game.id, n, e) for n, e in enumerate(game.moves)],
            )

    def load(self, game_id: str) -> StoredGame | None:
        with self._lock:
            row = self._db.execute(
                "SELECT game, real_dice, secret, language, created, revision FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            seats = self._db.execute(
                "SELECT name, bot, token_hash, acted FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
            ).fetchall()
            moves = self._db.execute("SELECT entry FROM moves WHERE game_id = ? ORDER BY number", (game_id,)).fetchall()
        game, real_dice, secret, language, created, revision = row
        return StoredGame(
            id=game_id,
            game=game,
            real_dice=bool(real_dice),
            secret=secret,
            language=language,
            created=created,
            revision=revision,
            seats=[StoredSeat(name, bot, th, acted) for name, bot, th, acted in seats],
            moves=[m for (m,) in moves],
        )

    def append_moves(self, game_id: str, start: int, entries: list[str], seat: int | None) -> None:
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            (count,) = self._db.execute("SELECT COUNT(*) FROM moves WHERE game_id = ?", (game_id,)).fetchone()
            if count != start:
                raise MoveConflictError(f"the game has {count} moves, not {start}")
            self._db.executemany(
                "INSERT INTO moves (game_id, number, entry) VALUES (?, ?, ?)",
                [(game_id, start + i, e) for i, e in enumerate(entries)],
            )
            self._db.execute("UPDATE games SET revision = revision + 1 WHERE id = ?", (game_id,))
            if seat is not None:
                self._acted(game_id, seat)

    def truncate(self, game_id: str, length: int, seat: int) -> None:
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM moves WHERE game_id = ? AND number >= ?", (game_id, length))
            self._db.execute("UPDATE games SET revision = revision + 1 WHERE id = ?", (game_id,))
            self._acted(game_id, seat)

    def _acted(self, game_id: str, seat: int) -> None:
        self._db.execute("UPDATE seats SET acted = acted + 1 WHERE game_id = ? AND seat = ?", (game_id, seat))

    def seat_of(self, token: str) -> tuple[str, int] | None:
        with self._lock:
            row = self._db.execute(
                "SELECT game_id, seat FROM seats WHERE token_hash = ?", (token_hash(token),)
            ).fetchone()
        return (row[0], row[1]) if row else None

    def close(self) -> None:
        with self._lock:
            self._db.close()

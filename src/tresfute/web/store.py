"""Where the web server keeps its games: each game's description and its record's moves.

:class:`Store` is the small interface the server needs. :class:`SQLiteStore` implements it on an
embedded SQLite file (the default); :class:`PostgresStore` on a PostgreSQL database, which several
server processes can share. Every call commits before it returns, so a move the server has
acknowledged survives a stop at any moment. Seat tokens are kept only as their SHA-256.

Both stores keep a ``schema_version`` table and bring an older database up to date when they
open it (:data:`MIGRATIONS`, applied in order, each in one transaction).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

# The channel PostgreSQL notifies at every change of a game: "<game id> <revision>", and for
# moves appended "<game id> <revision> <start> <seat or ->", then a line for each entry.
CHANNEL = "tresfute_changes"
# The channel of releases before the moves travelled with their notice ("<game id> <revision>"
# only, which is all they can read): heard too, so that during an upgrade the pages of a new
# server still see the moves made through an old one (not the other way round).
OLD_CHANNEL = "tresfute_games"
POOL_WAIT = 5.0  # seconds a request waits for a connection to PostgreSQL before it is refused
FAILING_WAIT = 0.05  # seconds, while the database is known to fail
NOTICE_ROOM = 7000  # bytes: PostgreSQL's notices carry less than 8000; longer moves go untold


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class StoredSeat:
    name: str
    bot: str | None  # a computer player's name, or None for a person
    token_hash: str | None  # people only
    acted: int = 0  # how many times the seat has acted (moves, rolls, undos): its requests' "seq"
    free: bool = False  # a person's seat of an open table that nobody has taken yet
    player_hash: str | None = None  # the SHA-256 of the player's secret who plays it, if known


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
    challenge: str | None = None  # the day ("2026-11-23") of a daily challenge's entry
    listed: bool = False  # an open table: listed on the home page while it has free seats


@dataclass(frozen=True)
class Appended:
    """Record entries written as moves ``start``, ``start + 1``, … (``seat`` acted, if any)."""

    start: int
    entries: list[str]
    seat: int | None

    def told(self) -> str:
        """How a notice tells these moves, after the game and its revision (:meth:`Change.parse`
        reads it)."""
        lines = "\n".join(self.entries)
        return f" {self.start} {'-' if self.seat is None else self.seat}\n{lines}"


@dataclass(frozen=True)
class Change:
    """A change of a game that the database tells every server: its new ``revision`` and, for
    moves appended (when they fit in the notice), the moves: a server that holds the revision
    before plays them on its copy instead of reading the game again."""

    game_id: str
    revision: int
    appended: Appended | None = None
    own: bool = False  # made by the server that is told

    @classmethod
    def parse(cls, notice: str, own: bool = False) -> Change:
        """A notice's change; one whose moves are not told as this release tells them is
        taken for a change of the game, which is then read (a later release may add to it)."""
        head, _, entries = notice.partition("\n")
        game_id, revision, *appended = head.split(" ")
        change = cls(game_id, int(revision), own=own)
        if len(appended) != 2 or not entries:
            return change
        start, seat = appended
        try:
            told = Appended(int(start), entries.split("\n"), None if seat == "-" else int(seat))
        except ValueError:
            return change
        return cls(game_id, int(revision), told, own)


class StoreUnavailableError(RuntimeError):
    """The database cannot be reached or written just now (PostgreSQL restarted or away, a full
    disk, a read-only file): nothing was written; the same request may be tried again later."""


class _Health:
    """Says in the log when the database starts failing, once, and when it answers again."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.failing = False
        self._log = logging.getLogger("tresfute.web.store")

    def failed(self, error: BaseException) -> StoreUnavailableError:
        if not self.failing:
            self.failing = True
            self._log.error("the database (%s) fails: %s; changes are refused until it answers", self.name, error)
        return StoreUnavailableError(str(error).strip() or type(error).__name__)

    def answered(self) -> None:
        if self.failing:
            self.failing = False
            self._log.warning("the database (%s) answers again", self.name)


class MoveConflictError(RuntimeError):
    """The game's record no longer is what the write expected (another server wrote first)."""


class EntryRefusedError(RuntimeError):
    """A daily challenge entry that cannot be made (``reason``: "name" taken by someone else,
    or "played" already by this name); nothing was written."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class PlayedSeat:
    """A finished game as one of its seats played it: what a player's progress page lists."""

    game_id: str
    seat: int  # from 0
    game: str
    created: float
    finished: float
    challenge: str | None
    names: list[str]  # every seat's name, in order
    bots: list[str | None]
    scores: list[int] | None  # every seat's final score, once written (:meth:`Store.save_scores`)
    review: str | None  # the seat's stored review (JSON text) in the version asked, if any


@dataclass
class Entry:
    """One daily challenge entry: who played which day's game, and their score once finished."""

    day: str
    game: str
    name: str
    game_id: str
    score: int | None


class Store(Protocol):
    def create(self, game: StoredGame) -> None: ...

    def load(self, game_id: str) -> StoredGame | None: ...

    def revision(self, game_id: str) -> int | None:
        """The game's stored revision (None if there is no such game): a server whose copy is
        older reloads it."""
        ...

    def append_moves(
        self,
        game_id: str,
        start: int,
        entries: list[str],
        seat: int | None,
        revision: int | None = None,
        score: int | None = None,
        finished: float | None = None,
    ) -> None:
        """Write ``entries`` as moves ``start``, ``start + 1``, … (``seat`` acted, if any); raises
        :class:`MoveConflictError` if the record does not have exactly ``start`` moves (or, when
        ``revision`` is given, if the game is no longer at that revision). ``score``: these moves
        end a daily challenge's entry, whose score is written with them, in the same transaction.
        ``finished``: these moves end the game, at that moment (seconds since 1970)."""
        ...

    def purge_finished(self, before: float) -> int:
        """Forget the games finished before ``before`` (seconds since 1970), daily challenge
        entries excepted (their day's ranking shows them); how many were forgotten."""
        ...

    def truncate(self, game_id: str, length: int, seat: int, revision: int | None = None) -> None:
        """Keep the first ``length`` moves (``seat``'s undo); the same guard on ``revision``."""
        ...

    def seat_of(self, token: str) -> tuple[str, int] | None:
        """The game and seat (0-based) a seat token plays, if any."""
        ...

    def seat_and_revision(self, token: str) -> tuple[str, int, int] | None:
        """The game, seat and the game's revision, in one read (every request of a seat)."""
        ...

    def take_seat(
        self, game_id: str, name: str, token_hash: str, revision: int | None = None, player_hash: str | None = None
    ) -> int | None:
        """Give the open table's first free seat to ``name`` (None if none is left): one write,
        so two people taking the last seat at once cannot both get it; the same guard on
        ``revision`` as a move's."""
        ...

    def open_games(self, limit: int) -> list[StoredGame]:
        """The open tables that still have a free seat, newest first (without their moves)."""
        ...

    # --- the daily challenge ---

    def challenge_secret(self, day: str, game: str, secret: str) -> tuple[str, int | None]:
        """The day's secret for ``game`` (``secret`` if it had none yet) and the strong
        computer player's score on it, once computed."""
        ...

    def challenge(self, day: str, game: str) -> tuple[str, int | None] | None:
        """The same, without making one: None if that day had no challenge of ``game``."""
        ...

    def set_strong_score(self, day: str, game: str, score: int) -> None: ...

    def enter(self, game: StoredGame, name: str, player_hash: str) -> None:
        """Create ``game`` as ``name``'s entry of the day's challenge, in one transaction:
        the name is taken for the day by ``player_hash`` (or already was), who becomes a player
        (:meth:`add_player`) if they were not; raises
        :class:`EntryRefusedError` if another player holds it or it has an entry already."""
        ...

    def ranking(self, day: str, game: str) -> list[Entry]:
        """The day's finished entries, best score first."""
        ...

    def load_review(self, game_id: str, seat: int, version: str) -> str | None:
        """A seat's stored review (JSON text) in this version of the review, if there is one."""
        ...

    def save_review(self, game_id: str, seat: int, version: str, review: str) -> None:
        """Keep a seat's review; the first one written stays (two servers may compute it at once)."""
        ...

    def history(self, player_hash: str) -> list[Entry]:
        """Every entry made under the names this player took, newest day first."""
        ...

    # --- players (a secret kept by a browser, known by its SHA-256) ---

    def add_player(self, player_hash: str, name: str, created: float) -> bool:
        """Make a player (nothing if the hash is one already); whether it was new."""
        ...

    def player_name(self, player_hash: str) -> str | None:
        """The player's name; None for a secret this server never gave."""
        ...

    def rename_player(self, player_hash: str, name: str) -> bool:
        """Change a player's name; False (nothing changed) for an unknown player."""
        ...

    def played(self, player_hash: str, review_version: str) -> list[PlayedSeat]:
        """The finished games of the seats this player played, oldest first."""
        ...

    def save_scores(self, game_id: str, scores: list[int]) -> None:
        """Keep a finished game's final scores with its seats (read by :meth:`played`)."""
        ...

    # --- practice positions solved (web/reviews.py's Practice) ---

    def save_solved(self, player_hash: str, game_id: str, seat: int, move_number: int, solved: float) -> None:
        """Keep that the player solved a practice position; the first time stays."""
        ...

    def solved(self, player_hash: str) -> list[tuple[str, int, int]]:
        """The practice positions the player solved, (game id, seat, move number), oldest first."""
        ...

    def close(self) -> None: ...


def name_key(name: str) -> str:
    """Names that differ only in case or spaces are the same name."""
    return " ".join(name.split()).casefold()


# --- schema ---------------------------------------------------------------------------------

# Each migration takes the schema from version i to i + 1; ``{real}`` is the dialect's float.
MIGRATIONS: list[str] = [
    # 1: games, seats, moves (the layout of the first release, which had no schema_version)
    """
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        real_dice INTEGER NOT NULL,
        secret TEXT,
        language TEXT NOT NULL,
        created {real} NOT NULL,
        revision INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE seats (
        game_id TEXT NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        bot TEXT,
        token_hash TEXT UNIQUE,
        acted INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE moves (
        game_id TEXT NOT NULL REFERENCES games(id),
        number INTEGER NOT NULL,
        entry TEXT NOT NULL,
        PRIMARY KEY (game_id, number)
    );
    """,
    # 2: the daily challenge
    """
    ALTER TABLE games ADD COLUMN challenge TEXT;
    CREATE TABLE challenges (
        day TEXT NOT NULL,
        game TEXT NOT NULL,
        secret TEXT NOT NULL,
        strong_score INTEGER,
        PRIMARY KEY (day, game)
    );
    CREATE TABLE challenge_names (
        day TEXT NOT NULL,
        name_key TEXT NOT NULL,
        name TEXT NOT NULL,
        player_hash TEXT NOT NULL,
        PRIMARY KEY (day, name_key)
    );
    CREATE TABLE challenge_entries (
        day TEXT NOT NULL,
        game TEXT NOT NULL,
        name_key TEXT NOT NULL,
        game_id TEXT NOT NULL UNIQUE REFERENCES games(id),
        score INTEGER,
        PRIMARY KEY (day, game, name_key)
    );
    CREATE INDEX challenge_names_player ON challenge_names (player_hash);
    """,
    # 3: open tables
    """
    ALTER TABLE games ADD COLUMN listed INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN free INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX seats_free ON seats (free, game_id);
    """,
    # 4: the record's length kept with the game, so that a write's guard need not count the moves
    """
    ALTER TABLE games ADD COLUMN move_count INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET move_count = (SELECT COUNT(*) FROM moves WHERE moves.game_id = games.id);
    """,
    # 5: when a game ended, so that finished games can be forgotten after a while (those that
    # ended before this version have none: they are kept)
    """
    ALTER TABLE games ADD COLUMN finished {real};
    CREATE INDEX games_finished ON games (finished);
    """,
    # 6: game reviews, computed once per seat of a finished game (``reviewed``); ``version`` is
    # the review's format, so that a later release's review is computed anew, not misread
    """
    CREATE TABLE reviews (
        game_id TEXT NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        version TEXT NOT NULL,
        review TEXT NOT NULL,
        PRIMARY KEY (game_id, seat, version)
    );
    """,
    # 7: players (a secret kept by the browser, known by its SHA-256, with a name) and the seats
    # they play; a finished game's scores, kept once computed for the player's progress page. The
    # players of the daily challenge so far become players, with the name they took last.
    """
    CREATE TABLE players (
        player_hash TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created {real} NOT NULL
    );
    INSERT INTO players (player_hash, name, created)
        SELECT n.player_hash, (SELECT m.name FROM challenge_names m WHERE m.player_hash = n.player_hash
            ORDER BY m.day DESC LIMIT 1), 0
        FROM challenge_names n GROUP BY n.player_hash;
    ALTER TABLE seats ADD COLUMN player_hash TEXT;
    ALTER TABLE seats ADD COLUMN score INTEGER;
    CREATE INDEX seats_player ON seats (player_hash);
    """,
    # 8: the practice positions a player solved (a reviewed seat's costly decision, by its move
    # number). No reference to the game: what a player solved stays theirs once the game is forgotten.
    """
    CREATE TABLE practice_solved (
        player_hash TEXT NOT NULL,
        game_id TEXT NOT NULL,
        seat INTEGER NOT NULL,
        move_number INTEGER NOT NULL,
        solved {real} NOT NULL,
        PRIMARY KEY (player_hash, game_id, seat, move_number)
    );
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)


class SchemaError(RuntimeError):
    """The database was written by a newer tresfute (a schema this one does not know)."""


class ForeignDatabaseError(RuntimeError):
    """An SQLite file that holds another program's tables (and none of tresfute's): left alone."""


def _statements(script: str, real: str) -> list[str]:
    return [s.strip() for s in script.format(real=real).split(";") if s.strip()]


# --- the SQL shared by both stores ----------------------------------------------------------


class _SQLStore:
    """The store's calls in SQL written once with ``?`` placeholders; each dialect gives its
    transactions (:meth:`_transaction`) and how a game's row is locked for a write."""

    _real = "REAL"
    _for_update = ""
    _health: _Health

    @contextmanager
    def _faults(self) -> Iterator[None]:
        """Turn the database's failures (:meth:`_is_fault`) into :class:`StoreUnavailableError`."""
        try:
            yield
        except Exception as error:
            if not self._is_fault(error):
                raise
            raise self._health.failed(error) from error
        self._health.answered()

    def _is_fault(self, error: Exception) -> bool:
        """Whether ``error`` says the database is away or cannot be written now."""
        return False

    @contextmanager
    def _transaction(self, write: bool = True, snapshot: bool = False) -> Iterator[Any]:
        """A write transaction; or, with ``write=False``, reads (all from one snapshot of the
        database if ``snapshot``: a game read while another server writes it)."""
        raise NotImplementedError
        yield

    def _migrate(self, cursor: Any, found: int) -> None:
        if found > SCHEMA_VERSION:
            raise SchemaError(
                f"the database has schema version {found}; this tresfute knows up to {SCHEMA_VERSION}: upgrade it"
            )
        for version in range(found, SCHEMA_VERSION):
            for statement in _statements(MIGRATIONS[version], self._real):
                cursor.execute(statement)
        if found == 0:
            cursor.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
        elif found < SCHEMA_VERSION:
            cursor.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION,))

    def schema_version(self) -> int:
        with self._transaction(write=False) as cursor:
            return cursor.execute("SELECT version FROM schema_version").fetchone()[0]

    def create(self, game: StoredGame) -> None:
        with self._transaction() as cursor:
            self._insert(cursor, game)

    def _insert(self, cursor: Any, game: StoredGame) -> None:
        cursor.execute(
            "INSERT INTO games (id, game, real_dice, secret, language, created, challenge, listed, move_count)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game.id,
                game.game,
                int(game.real_dice),
                game.secret,
                game.language,
                game.created,
                game.challenge,
                int(game.listed),
                len(game.moves),
            ),
        )
        cursor.executemany(
            "INSERT INTO seats (game_id, seat, name, bot, token_hash, free, player_hash) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(game.id, i, s.name, s.bot, s.token_hash, int(s.free), s.player_hash) for i, s in enumerate(game.seats)],
        )
        if game.moves:
            cursor.executemany(
                "INSERT INTO moves (game_id, number, entry) VALUES (?, ?, ?)",
                [(game.id, n, e) for n, e in enumerate(game.moves)],
            )

    def load(self, game_id: str) -> StoredGame | None:
        with self._transaction(write=False, snapshot=True) as cursor:
            row = cursor.execute(
                "SELECT game, real_dice, secret, language, created, revision, challenge, listed"
                " FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            seats = cursor.execute(
                "SELECT name, bot, token_hash, acted, free, player_hash FROM seats WHERE game_id = ? ORDER BY seat",
                (game_id,),
            ).fetchall()
            moves = cursor.execute("SELECT entry FROM moves WHERE game_id = ? ORDER BY number", (game_id,)).fetchall()
        game, real_dice, secret, language, created, revision, challenge, listed = row
        return StoredGame(
            id=game_id,
            game=game,
            real_dice=bool(real_dice),
            secret=secret,
            language=language,
            created=created,
            revision=revision,
            seats=[StoredSeat(name, bot, th, acted, bool(free), ph) for name, bot, th, acted, free, ph in seats],
            moves=[m for (m,) in moves],
            challenge=challenge,
            listed=bool(listed),
        )

    def revision(self, game_id: str) -> int | None:
        with self._transaction(write=False) as cursor:
            row = cursor.execute("SELECT revision FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else row[0]

    def _guard(self, cursor: Any, game_id: str, revision: int | None) -> tuple[int, int]:
        """Lock the game's row for this transaction; refuse a write made on an older revision.
        The game's revision and number of moves."""
        row = cursor.execute(
            f"SELECT revision, move_count FROM games WHERE id = ?{self._for_update}", (game_id,)
        ).fetchone()
        if row is None:
            raise MoveConflictError(f"no game {game_id}")
        if revision is not None and row[0] != revision:
            raise MoveConflictError(f"the game is at revision {row[0]}, not {revision}")
        return row[0], row[1]

    def append_moves(
        self,
        game_id: str,
        start: int,
        entries: list[str],
        seat: int | None,
        revision: int | None = None,
        score: int | None = None,
        finished: float | None = None,
    ) -> None:
        with self._transaction() as cursor:
            now, count = self._guard(cursor, game_id, revision)
            if count != start:
                raise MoveConflictError(f"the game has {count} moves, not {start}")
            cursor.executemany(
                "INSERT INTO moves (game_id, number, entry) VALUES (?, ?, ?)",
                [(game_id, start + i, e) for i, e in enumerate(entries)],
            )
            if score is not None:
                cursor.execute("UPDATE challenge_entries SET score = ? WHERE game_id = ?", (score, game_id))
            if finished is not None:
                cursor.execute("UPDATE games SET finished = ? WHERE id = ?", (finished, game_id))
            self._changed(cursor, game_id, now + 1, start + len(entries), seat)

    def purge_finished(self, before: float) -> int:
        with self._transaction() as cursor:
            old = "SELECT id FROM games WHERE finished < ? AND challenge IS NULL"
            cursor.execute(f"DELETE FROM moves WHERE game_id IN ({old})", (before,))
            cursor.execute(f"DELETE FROM reviews WHERE game_id IN ({old})", (before,))
            cursor.execute(f"DELETE FROM seats WHERE game_id IN ({old})", (before,))
            forgotten: int = cursor.execute(
                "DELETE FROM games WHERE finished < ? AND challenge IS NULL", (before,)
            ).rowcount
        return forgotten

    def truncate(self, game_id: str, length: int, seat: int, revision: int | None = None) -> None:
        with self._transaction() as cursor:
            now, count = self._guard(cursor, game_id, revision)
            cursor.execute("DELETE FROM moves WHERE game_id = ? AND number >= ?", (game_id, length))
            self._changed(cursor, game_id, now + 1, min(count, length), seat)

    def _changed(self, cursor: Any, game_id: str, revision: int, move_count: int, seat: int | None) -> None:
        cursor.execute("UPDATE games SET revision = ?, move_count = ? WHERE id = ?", (revision, move_count, game_id))
        if seat is not None:
            cursor.execute("UPDATE seats SET acted = acted + 1 WHERE game_id = ? AND seat = ?", (game_id, seat))

    def seat_of(self, token: str) -> tuple[str, int] | None:
        found = self.seat_and_revision(token)
        return (found[0], found[1]) if found else None

    def seat_and_revision(self, token: str) -> tuple[str, int, int] | None:
        with self._transaction(write=False) as cursor:
            row = cursor.execute(
                "SELECT s.game_id, s.seat, g.revision FROM seats s JOIN games g ON g.id = s.game_id"
                " WHERE s.token_hash = ?",
                (token_hash(token),),
            ).fetchone()
        return (row[0], row[1], row[2]) if row else None

    def take_seat(
        self, game_id: str, name: str, token_hash: str, revision: int | None = None, player_hash: str | None = None
    ) -> int | None:
        with self._transaction() as cursor:
            now, count = self._guard(cursor, game_id, revision)
            row = cursor.execute("SELECT MIN(seat) FROM seats WHERE game_id = ? AND free = 1", (game_id,)).fetchone()
            if row is None or row[0] is None:
                return None
            seat = row[0]
            cursor.execute(
                "UPDATE seats SET name = ?, token_hash = ?, free = 0, player_hash = ? WHERE game_id = ? AND seat = ?",
                (name, token_hash, player_hash, game_id, seat),
            )
            self._changed(cursor, game_id, now + 1, count, None)
        return seat

    def open_games(self, limit: int) -> list[StoredGame]:
        with self._transaction(write=False) as cursor:
            games = cursor.execute(
                "SELECT id, game, real_dice, language, created, revision FROM games WHERE listed = 1"
                " AND id IN (SELECT game_id FROM seats WHERE free = 1) ORDER BY created DESC LIMIT ?",
                (limit,),
            ).fetchall()
            found = []
            for game_id, game, real_dice, language, created, revision in games:
                seats = cursor.execute(
                    "SELECT name, bot, free FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
                ).fetchall()
                found.append(
                    StoredGame(
                        game_id,
                        game,
                        bool(real_dice),
                        None,
                        [StoredSeat(name, bot, None, 0, bool(free)) for name, bot, free in seats],
                        language,
                        created,
                        revision=revision,
                        listed=True,
                    )
                )
        return found

    # --- the daily challenge ---

    def challenge_secret(self, day: str, game: str, secret: str) -> tuple[str, int | None]:
        with self._transaction() as cursor:
            cursor.execute(
                "INSERT INTO challenges (day, game, secret) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (day, game, secret),
            )
            found = self._challenge(cursor, day, game)
        assert found is not None
        return found

    def challenge(self, day: str, game: str) -> tuple[str, int | None] | None:
        with self._transaction(write=False) as cursor:
            return self._challenge(cursor, day, game)

    def _challenge(self, cursor: Any, day: str, game: str) -> tuple[str, int | None] | None:
        row = cursor.execute(
            "SELECT secret, strong_score FROM challenges WHERE day = ? AND game = ?", (day, game)
        ).fetchone()
        return None if row is None else (row[0], row[1])

    def set_strong_score(self, day: str, game: str, score: int) -> None:
        with self._transaction() as cursor:
            cursor.execute("UPDATE challenges SET strong_score = ? WHERE day = ? AND game = ?", (score, day, game))

    def enter(self, game: StoredGame, name: str, player_hash: str) -> None:
        day, key = game.challenge, name_key(name)
        assert day is not None
        with self._transaction() as cursor:
            cursor.execute(
                "INSERT INTO challenge_names (day, name_key, name, player_hash) VALUES (?, ?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (day, key, name, player_hash),
            )
            (holder,) = cursor.execute(
                "SELECT player_hash FROM challenge_names WHERE day = ? AND name_key = ?", (day, key)
            ).fetchone()
            if holder != player_hash:
                raise EntryRefusedError("name")
            self._insert(cursor, game)
            inserted = cursor.execute(
                "INSERT INTO challenge_entries (day, game, name_key, game_id) VALUES (?, ?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (day, game.game, key, game.id),
            )
            if inserted.rowcount != 1:
                raise EntryRefusedError("played")  # the transaction is rolled back: no game either
            cursor.execute(  # the secret is a player's from now on, if it was not yet
                "INSERT INTO players (player_hash, name, created) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (player_hash, name, game.created),
            )

    _ENTRIES = (
        "SELECT e.day, e.game, n.name, e.game_id, e.score FROM challenge_entries e"
        " JOIN challenge_names n ON n.day = e.day AND n.name_key = e.name_key"
    )

    def ranking(self, day: str, game: str) -> list[Entry]:
        with self._transaction(write=False) as cursor:
            rows = cursor.execute(
                f"{self._ENTRIES} WHERE e.day = ? AND e.game = ? AND e.score IS NOT NULL"
                " ORDER BY e.score DESC, n.name_key",
                (day, game),
            ).fetchall()
        return [Entry(*row) for row in rows]

    def history(self, player_hash: str) -> list[Entry]:
        with self._transaction(write=False) as cursor:
            rows = cursor.execute(
                f"{self._ENTRIES} WHERE n.player_hash = ? ORDER BY e.day DESC, e.game", (player_hash,)
            ).fetchall()
        return [Entry(*row) for row in rows]

    def add_player(self, player_hash: str, name: str, created: float) -> bool:
        with self._transaction() as cursor:
            added = cursor.execute(
                "INSERT INTO players (player_hash, name, created) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (player_hash, name, created),
            )
            return bool(added.rowcount == 1)

    def player_name(self, player_hash: str) -> str | None:
        with self._transaction(write=False) as cursor:
            row = cursor.execute("SELECT name FROM players WHERE player_hash = ?", (player_hash,)).fetchone()
        return None if row is None else str(row[0])

    def rename_player(self, player_hash: str, name: str) -> bool:
        with self._transaction() as cursor:
            changed = cursor.execute("UPDATE players SET name = ? WHERE player_hash = ?", (name, player_hash))
            return bool(changed.rowcount == 1)

    def played(self, player_hash: str, review_version: str) -> list[PlayedSeat]:
        with self._transaction(write=False, snapshot=True) as cursor:
            rows = cursor.execute(
                "SELECT s.game_id, s.seat, g.game, g.created, g.finished, g.challenge, r.review"
                " FROM seats s JOIN games g ON g.id = s.game_id"
                " LEFT JOIN reviews r ON r.game_id = s.game_id AND r.seat = s.seat AND r.version = ?"
                " WHERE s.player_hash = ? AND g.finished IS NOT NULL ORDER BY g.finished, s.game_id, s.seat",
                (review_version, player_hash),
            ).fetchall()
            seats = cursor.execute(
                "SELECT game_id, name, bot, score FROM seats WHERE game_id IN"
                " (SELECT game_id FROM seats WHERE player_hash = ?) ORDER BY game_id, seat",
                (player_hash,),
            ).fetchall()
        by_game: dict[str, list[tuple[str, str | None, int | None]]] = {}
        for game_id, name, bot, score in seats:
            by_game.setdefault(game_id, []).append((name, bot, score))
        found = []
        for game_id, seat, game, created, finished, challenge, review in rows:
            table = by_game[game_id]
            scores = [s for _n, _b, s in table]
            found.append(
                PlayedSeat(
                    game_id,
                    seat,
                    game,
                    created,
                    finished,
                    challenge,
                    [n for n, _b, _s in table],
                    [b for _n, b, _s in table],
                    None if None in scores else [int(s) for s in scores if s is not None],
                    None if review is None else str(review),
                )
            )
        return found

    def save_scores(self, game_id: str, scores: list[int]) -> None:
        with self._transaction() as cursor:
            cursor.executemany(
                "UPDATE seats SET score = ? WHERE game_id = ? AND seat = ?",
                [(score, game_id, seat) for seat, score in enumerate(scores)],
            )

    # --- practice positions solved ---

    def save_solved(self, player_hash: str, game_id: str, seat: int, move_number: int, solved: float) -> None:
        with self._transaction() as cursor:
            cursor.execute(
                "INSERT INTO practice_solved (player_hash, game_id, seat, move_number, solved) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (player_hash, game_id, seat, move_number) DO NOTHING",
                (player_hash, game_id, seat, move_number, solved),
            )

    def solved(self, player_hash: str) -> list[tuple[str, int, int]]:
        with self._transaction(write=False) as cursor:
            rows = cursor.execute(
                "SELECT game_id, seat, move_number FROM practice_solved WHERE player_hash = ?"
                " ORDER BY solved, game_id, seat, move_number",
                (player_hash,),
            ).fetchall()
        return [(str(g), int(s), int(m)) for g, s, m in rows]

    def load_review(self, game_id: str, seat: int, version: str) -> str | None:
        with self._transaction(write=False) as cursor:
            row = cursor.execute(
                "SELECT review FROM reviews WHERE game_id = ? AND seat = ? AND version = ?", (game_id, seat, version)
            ).fetchone()
        return None if row is None else str(row[0])

    def save_review(self, game_id: str, seat: int, version: str, review: str) -> None:
        with self._transaction() as cursor:
            cursor.execute(
                "INSERT INTO reviews (game_id, seat, version, review) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id, seat, version) DO NOTHING",
                (game_id, seat, version, review),
            )


class SQLiteStore(_SQLStore):
    """Games in one SQLite file (``":memory:"`` for tests); safe across threads."""

    def __init__(self, path: str | Path) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA busy_timeout=10000")
        self._lock = threading.Lock()
        self._health = _Health(str(path))
        with self._transaction() as cursor:
            tables = {name for (name,) in cursor.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if tables and not tables & {"schema_version", "games"}:
                raise ForeignDatabaseError(f"{path} holds other tables: {', '.join(sorted(tables))}")
            cursor.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = cursor.execute("SELECT version FROM schema_version").fetchone()
            found = row[0] if row else 0
            if found == 0 and cursor.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone():
                found = 1  # a database of the first release: version 1, without the table
                cursor.execute("INSERT INTO schema_version (version) VALUES (1)")
            self._migrate(cursor, found)
        # once the file is known to be tresfute's (a file refused above is left as it was)
        self._db.execute("PRAGMA journal_mode=WAL")

    @contextmanager
    def _transaction(self, write: bool = True, snapshot: bool = False) -> Iterator[Any]:
        with self._lock, self._faults():
            if not write and not snapshot:
                yield self._db
                return
            self._db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:  # SQLite may have rolled it back itself (a full disk)
                    with suppress(sqlite3.Error):
                        self._db.execute("ROLLBACK")
                raise

    # A full disk, a read-only file or folder, an I/O error, a database locked too long
    _FAULTS = ("SQLITE_FULL", "SQLITE_READONLY", "SQLITE_IOERR", "SQLITE_BUSY", "SQLITE_CANTOPEN", "SQLITE_PERM")

    def _is_fault(self, error: Exception) -> bool:
        return isinstance(error, sqlite3.Error) and getattr(error, "sqlite_errorname", "").startswith(self._FAULTS)

    def close(self) -> None:
        with self._lock:
            self._db.close()


# --- PostgreSQL -----------------------------------------------------------------------------


class _PgCursor:
    """A psycopg cursor that takes the ``?`` placeholders of the shared SQL."""

    def __init__(self, cursor: Any) -> None:
        self._cursor = cursor

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        self._cursor.execute(sql.replace("?", "%s"), params)
        return self

    def executemany(self, sql: str, params: list[tuple[Any, ...]]) -> None:
        self._cursor.executemany(sql.replace("?", "%s"), params)

    def fetchone(self) -> Any:
        return self._cursor.fetchone()

    def fetchall(self) -> Any:
        return self._cursor.fetchall()

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount


class PostgresStore(_SQLStore):
    """Games in a PostgreSQL database (``postgresql://user@host/db``), shared by any number of
    server processes: a write locks the game's row and checks the record's length (and the
    revision the server saw), so two servers never both append move N; every change is
    announced on the :data:`CHANNEL` (``LISTEN/NOTIFY``) so that each server can tell its pages."""

    _real = "DOUBLE PRECISION"
    _for_update = " FOR UPDATE"

    def __init__(self, url: str, min_size: int = 1, max_size: int = 8, wait: float = POOL_WAIT) -> None:
        """``wait``: the seconds a request waits for a connection (the database away: then it is refused)."""
        try:
            from psycopg_pool import ConnectionPool
        except ImportError:
            raise RuntimeError('a postgresql:// database needs psycopg: pip install "tresfute[postgres]"') from None

        self.url = url
        # the database processes of this store's connections: a notice sent by one of them is a
        # change this server made
        self._backends: set[int] = set()
        self._health = _Health(_without_password(url))
        self._checking = threading.Lock()
        # A request waits for a connection at most ``wait`` seconds, then is refused (503): while
        # the database is away, requests must not pile up in the game threads.
        self._pool = ConnectionPool(
            url,
            min_size=min_size,
            max_size=max_size,
            open=False,
            timeout=wait,
            # a connection lost is sought again with a growing delay (1, 2, 4… s); given up after
            # 10 s, the next request starts afresh: a database back after a long outage is used
            # at once, not after the pool's next try (up to minutes later by default)
            reconnect_timeout=10.0,
            kwargs={"autocommit": True, "connect_timeout": max(1, round(wait))},
            configure=lambda connection: self._backends.add(connection.info.backend_pid),
        )
        # the pool warns at each failed try to reconnect: the store says it once (_Health)
        logging.getLogger("psycopg.pool").setLevel(logging.ERROR)
        self._pool.open(wait=True, timeout=30)
        with self._transaction() as cursor:
            # several servers may start together: one migrates, the others wait for it
            cursor.execute("SELECT pg_advisory_xact_lock(7307)")
            cursor.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = cursor.execute("SELECT version FROM schema_version").fetchone()
            self._migrate(cursor, row[0] if row else 0)

    @contextmanager
    def _transaction(self, write: bool = True, snapshot: bool = False) -> Iterator[Any]:
        with self._faults(), self._pool.connection(timeout=self._wait()) as connection:
            if not write and not snapshot:
                with connection.cursor() as cursor:
                    yield _PgCursor(cursor)
                return
            with connection.transaction(), connection.cursor() as cursor:
                if not write:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                yield _PgCursor(cursor)

    def _changed(self, cursor: Any, game_id: str, revision: int, move_count: int, seat: int | None) -> None:
        super()._changed(cursor, game_id, revision, move_count, seat)
        cursor.execute("SELECT pg_notify(?, ?)", (CHANNEL, f"{game_id} {revision}"))

    # A move is one statement, so one round trip: the game's row is updated only if it is at
    # the revision the server saw and has ``start`` moves (the row lock makes a concurrent
    # writer wait, then find the revision changed); the moves' key refuses a second move N.
    # The entries travel as one text, a line each (psycopg takes longer to send a list).
    _APPEND = """
        WITH g AS (
            UPDATE games SET revision = revision + 1, move_count = %(start)s + %(count)s,
                finished = COALESCE(%(finished)s::double precision, finished)
            WHERE id = %(game)s AND (%(revision)s::integer IS NULL OR revision = %(revision)s)
              AND move_count = %(start)s
            RETURNING revision
        ), m AS (
            INSERT INTO moves (game_id, number, entry)
            SELECT %(game)s, %(start)s + t.n - 1, t.entry
            FROM g, unnest(string_to_array(%(entries)s, chr(10))) WITH ORDINALITY AS t(entry, n)
            RETURNING 1
        ), s AS (
            UPDATE seats SET acted = acted + 1
            WHERE game_id = %(game)s AND seat = %(seat)s AND EXISTS (SELECT 1 FROM g)
        ), e AS (
            UPDATE challenge_entries SET score = %(score)s
            WHERE %(score)s::integer IS NOT NULL AND game_id = %(game)s AND EXISTS (SELECT 1 FROM g)
        )
        SELECT revision, pg_notify(%(channel)s, %(game)s || ' ' || revision || %(told)s), (SELECT COUNT(*) FROM m)
        FROM g
    """

    def append_moves(
        self,
        game_id: str,
        start: int,
        entries: list[str],
        seat: int | None,
        revision: int | None = None,
        score: int | None = None,
        finished: float | None = None,
    ) -> None:
        import psycopg

        if any("\n" in entry for entry in entries):
            raise ValueError(f"a record entry is one line: {entries!r}")
        told = Appended(start, entries, seat).told()
        values = {
            "game": game_id,
            "revision": revision,
            "start": start,
            "entries": "\n".join(entries),
            "count": len(entries),
            "seat": seat,
            "score": score,
            "finished": finished,
            "channel": CHANNEL,
            "told": told if len(game_id) + len(told.encode()) < NOTICE_ROOM else "",
        }
        try:
            with self._faults(), self._pool.connection(timeout=self._wait()) as connection:
                row = connection.execute(self._APPEND, values).fetchone()
        except psycopg.errors.UniqueViolation:
            raise MoveConflictError(f"move {start} of {game_id} is already written") from None
        if row is None:
            raise MoveConflictError(f"{game_id} is no longer at revision {revision} with {start} moves")

    def _wait(self) -> float | None:
        """How long a call waits for a connection: the pool's time, or hardly at all while the
        database is failing (a connection ready is used; the game threads are not held)."""
        return FAILING_WAIT if self._health.failing else None

    def _is_fault(self, error: Exception) -> bool:
        """A lost connection, a database restarting or away (and then the connections kept in
        the pool are checked, in the background, so that the broken ones go at once)."""
        import psycopg

        if not isinstance(error, psycopg.OperationalError):
            return False
        if self._checking.acquire(blocking=False):

            def check() -> None:
                try:
                    self._pool.check()
                except Exception:  # the pool closed meanwhile
                    pass
                finally:
                    self._checking.release()

            threading.Thread(target=check, name="tresfute-pool-check", daemon=True).start()
        return True

    async def changes(self) -> AsyncIterator[Change | None]:
        """Every change of any game, by any server, as it is committed; ``None`` first, once
        listening (the changes made before it are not told), and for a notice not understood:
        then any game may have changed."""
        import psycopg

        connection = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        loop = asyncio.get_running_loop()
        notices: asyncio.Queue[list[Change | None] | psycopg.Error] = asyncio.Queue()
        libpq = connection.pgconn

        # The notices are read from libpq whenever its socket is readable: psycopg's notifies()
        # costs twice the CPU a notice (it adds and removes its reader, and arms a timer, at each
        # one), and every server gets a notice for every move of every game.
        def readable() -> None:
            try:
                libpq.consume_input()
                if libpq.status == psycopg.pq.ConnStatus.BAD:
                    raise psycopg.OperationalError("the connection for notices is lost")
            except psycopg.Error as lost:
                loop.remove_reader(socket)
                notices.put_nowait(lost)
                return
            told: list[Change | None] = []
            while (notice := libpq.notifies()) is not None:
                try:
                    told.append(Change.parse(notice.extra.decode(), own=notice.be_pid in self._backends))
                except ValueError:  # not a notice of this release's: what changed is not known
                    told.append(None)
            if told:
                notices.put_nowait(told)

        try:
            await connection.execute(f"LISTEN {CHANNEL}")
            await connection.execute(f"LISTEN {OLD_CHANNEL}")
            socket = libpq.socket
            loop.add_reader(socket, readable)
            try:
                yield None
                while True:
                    told = await notices.get()
                    if isinstance(told, psycopg.Error):
                        raise told
                    for change in told:
                        yield change
            finally:
                loop.remove_reader(socket)
        finally:
            await connection.close()

    def close(self) -> None:
        self._pool.close()


class UnknownDatabaseError(ValueError):
    """A ``--db`` value that is a URL, but not a ``postgresql://`` one."""

    def __init__(self, url: str) -> None:
        super().__init__(f"{url}: not a postgresql:// URL nor the path of an SQLite file")
        self.url = url


def reviewed(
    store: Store, game_id: str, seat: int, progress: Callable[[int, int], None] | None = None
) -> dict[str, Any] | None:
    """The review of a seat's decisions (from 0) in a finished stored game (``bots.review``, as
    JSON data): read from the store, or computed and stored the first time. None for no such
    game; ``bots.review.ReviewError`` for a game not finished or no such seat."""
    from ..bots.review import FORMAT, review_game
    from ..records import Record

    found = store.load_review(game_id, seat, FORMAT)
    if found is None:
        stored = store.load(game_id)
        if stored is None:
            return None
        record = Record(game=stored.game, players=[s.name for s in stored.seats], dice="external", moves=stored.moves)
        store.save_review(game_id, seat, FORMAT, json.dumps(review_game(record, seat, progress=progress).to_json()))
        found = store.load_review(game_id, seat, FORMAT)  # the first one written, if two were made
        assert found is not None
    data: dict[str, Any] = json.loads(found)
    return data


class DatabaseOpenError(RuntimeError):
    """A database that cannot serve as tresfute's, and why (``kind``): ``"cannot open"`` (no file
    can be made or opened there), ``"not sqlite"`` (a file that is not an SQLite database),
    ``"foreign"`` (an SQLite database with other tables), ``"newer"`` (written by a newer
    tresfute), ``"unreachable"`` (a PostgreSQL server that does not answer); ``detail``: the
    driver's own words."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


def open_store(database: str | Path) -> Store:
    """The store a ``--db`` value names: a ``postgresql://`` URL, or an SQLite file's path. A value
    that looks like a URL of another kind is refused rather than taken for a folder; a database
    that cannot be opened as tresfute's raises :class:`DatabaseOpenError`."""
    text = str(database)
    scheme = urlsplit(text).scheme if "://" in text else ""
    if scheme and scheme not in ("postgresql", "postgres"):
        raise UnknownDatabaseError(text)
    try:
        return PostgresStore(text) if scheme else SQLiteStore(database)
    except SchemaError as error:
        raise DatabaseOpenError("newer", str(error)) from error
    except ForeignDatabaseError as error:
        raise DatabaseOpenError("foreign", str(error)) from error
    except sqlite3.OperationalError as error:  # before DatabaseError, its parent
        kind = "foreign" if str(error).startswith(("no such table", "no such column")) else "cannot open"
        raise DatabaseOpenError(kind, str(error)) from error
    except sqlite3.DatabaseError as error:
        raise DatabaseOpenError("not sqlite", str(error)) from error
    except OSError as error:  # the file's folder cannot be made
        raise DatabaseOpenError("cannot open", str(error)) from error
    except StoreUnavailableError as error:
        raise DatabaseOpenError("unreachable", str(error)) from error
    except Exception as error:
        if scheme and _postgres_refused(error):  # away, or refusing the user or the database name
            raise DatabaseOpenError("unreachable", str(error)) from error
        raise


def _postgres_refused(error: Exception) -> bool:
    import psycopg

    return isinstance(error, psycopg.OperationalError)  # the pool's timeout too


def _without_password(url: str) -> str:
    """A database URL as a log may show it."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@")).geturl()

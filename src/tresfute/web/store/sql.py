"""The SQL both stores share, written once with ``?`` placeholders: each dialect gives its
transactions and how a game's row is locked for a write."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .interface import (
    AlreadySeatedError,
    Appended,
    Entry,
    EntryRefusedError,
    MoveConflictError,
    PlayedSeat,
    StoredGame,
    StoredSeat,
    _Health,
    name_key,
    token_hash,
)
from .migrations import MIGRATIONS, SCHEMA_VERSION, SchemaError, _statements


class _SQLStore:
    """The store's calls in SQL written once with ``?`` placeholders; each dialect gives its
    transactions (:meth:`_transaction`) and how a game's row is locked for a write."""

    _real = "REAL"
    _now = "NULL"  # the dialect's present moment in seconds since 1970 (migration 11)
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
            for statement in _statements(MIGRATIONS[version], self._real, self._now):
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
            "INSERT INTO games (id, game, real_dice, secret, language, created, challenge, listed, move_count, rules,"
            " moved) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                None if game.rules is None else json.dumps(game.rules),
                game.created,
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
                "SELECT game, real_dice, secret, language, created, revision, challenge, listed, rules"
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
        game, real_dice, secret, language, created, revision, challenge, listed, rules = row
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
            rules=None if rules is None else json.loads(rules),
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
        at: float | None = None,
    ) -> None:
        self._append(
            game_id, Appended(start, entries, seat), revision, score, finished, time.time() if at is None else at
        )

    def _append(
        self, game_id: str, moves: Appended, revision: int | None, score: int | None, finished: float | None, at: float
    ) -> None:
        """:meth:`append_moves`, its moves in one :class:`Appended` and its moment known: the
        part each dialect may write its own way."""
        with self._transaction() as cursor:
            now, count = self._guard(cursor, game_id, revision)
            if count != moves.start:
                raise MoveConflictError(f"the game has {count} moves, not {moves.start}")
            cursor.executemany(
                "INSERT INTO moves (game_id, number, entry) VALUES (?, ?, ?)",
                [(game_id, moves.start + i, e) for i, e in enumerate(moves.entries)],
            )
            if score is not None:
                cursor.execute("UPDATE challenge_entries SET score = ? WHERE game_id = ?", (score, game_id))
            if finished is not None:
                cursor.execute("UPDATE games SET finished = ? WHERE id = ?", (finished, game_id))
            self._changed(cursor, game_id, now + 1, moves.start + len(moves.entries), moves.seat, at)

    def purge_finished(self, before: float | None, abandoned_before: float | None = None) -> int:
        # a moment of None matches nothing: NULL < anything is not true
        old = "SELECT id FROM games WHERE challenge IS NULL AND (finished < ? OR (finished IS NULL AND moved < ?))"
        moments = (before, abandoned_before)
        with self._transaction() as cursor:
            cursor.execute(f"DELETE FROM moves WHERE game_id IN ({old})", moments)
            cursor.execute(f"DELETE FROM reviews WHERE game_id IN ({old})", moments)
            cursor.execute(f"DELETE FROM seats WHERE game_id IN ({old})", moments)
            forgotten: int = cursor.execute(f"DELETE FROM games WHERE id IN ({old})", moments).rowcount
        return forgotten

    def truncate(
        self, game_id: str, length: int, seat: int, revision: int | None = None, at: float | None = None
    ) -> None:
        with self._transaction() as cursor:
            now, count = self._guard(cursor, game_id, revision)
            cursor.execute("DELETE FROM moves WHERE game_id = ? AND number >= ?", (game_id, length))
            self._changed(cursor, game_id, now + 1, min(count, length), seat, at)

    def _changed(
        self, cursor: Any, game_id: str, revision: int, move_count: int, seat: int | None, at: float | None
    ) -> None:
        cursor.execute(
            "UPDATE games SET revision = ?, move_count = ?, moved = ? WHERE id = ?",
            (revision, move_count, time.time() if at is None else at, game_id),
        )
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
        self,
        game_id: str,
        name: str,
        token_hash: str,
        revision: int | None = None,
        player_hash: str | None = None,
        at: float | None = None,
    ) -> int | None:
        with self._transaction() as cursor:
            now, count = self._guard(cursor, game_id, revision)  # the row's lock: one seat taken at a time
            if (
                player_hash is not None
                and cursor.execute(
                    "SELECT 1 FROM seats WHERE game_id = ? AND player_hash = ?", (game_id, player_hash)
                ).fetchone()
            ):
                raise AlreadySeatedError(game_id)
            row = cursor.execute("SELECT MIN(seat) FROM seats WHERE game_id = ? AND free = 1", (game_id,)).fetchone()
            if row is None or row[0] is None:
                return None
            seat = row[0]
            cursor.execute(
                "UPDATE seats SET name = ?, token_hash = ?, free = 0, player_hash = ? WHERE game_id = ? AND seat = ?",
                (name, token_hash, player_hash, game_id, seat),
            )
            self._changed(cursor, game_id, now + 1, count, None, at)
        return seat

    def idle_tables(self, after: float, before: float, limit: int) -> list[tuple[str, int]]:
        with self._transaction(write=False) as cursor:
            rows = cursor.execute(
                "SELECT id, revision FROM games WHERE listed = 1 AND finished IS NULL AND challenge IS NULL"
                " AND moved >= ? AND moved < ? ORDER BY moved DESC LIMIT ?",
                (after, before, limit),
            ).fetchall()
        return [(str(game_id), int(revision)) for game_id, revision in rows]

    def replace_seats(
        self, game_id: str, seats: list[int], bot: str, revision: int | None = None, at: float | None = None
    ) -> None:
        with self._transaction() as cursor:
            now, count = self._guard(cursor, game_id, revision)
            cursor.executemany(
                "UPDATE seats SET bot = ?, token_hash = NULL, player_hash = NULL, free = 0"
                " WHERE game_id = ? AND seat = ? AND bot IS NULL",
                [(bot, game_id, seat) for seat in seats],
            )
            self._changed(cursor, game_id, now + 1, count, None, at)

    def open_games(self, limit: int) -> list[StoredGame]:
        with self._transaction(write=False) as cursor:
            games = cursor.execute(
                "SELECT id, game, real_dice, language, created, revision, rules FROM games WHERE listed = 1"
                " AND id IN (SELECT game_id FROM seats WHERE free = 1) ORDER BY created DESC LIMIT ?",
                (limit,),
            ).fetchall()
            found = []
            for game_id, game, real_dice, language, created, revision, rules in games:
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
                        rules=None if rules is None else json.loads(rules),
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
            played = cursor.execute(
                "INSERT INTO challenge_players (day, game, player_hash) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (day, game.game, player_hash),
            )
            if played.rowcount != 1:  # under another name: one entry per player, whatever the name
                raise EntryRefusedError("played")
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

"""The store on a PostgreSQL database, which several server processes can share: a write
locks the game's row and checks the record's length, and every change is announced to every
server (``LISTEN/NOTIFY``)."""

from __future__ import annotations

import asyncio
import logging
import select
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

from .interface import Appended, Change, MoveConflictError, _Health
from .sql import _SQLStore

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
    _now = "EXTRACT(EPOCH FROM now())"
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
        self._probing = threading.Lock()  # held by the one request that waits while the database fails
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
        try:
            with self._transaction() as cursor:
                # several servers may start together: one migrates, the others wait for it
                cursor.execute("SELECT pg_advisory_xact_lock(7307)")
                cursor.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                row = cursor.execute("SELECT version FROM schema_version").fetchone()
                self._migrate(cursor, row[0] if row else 0)
        except BaseException:  # a newer schema (left untouched), the database away: no connection kept
            self._pool.close()
            raise

    @contextmanager
    def _transaction(self, write: bool = True, snapshot: bool = False) -> Iterator[Any]:
        with self._faults(), self._connection() as connection:
            if not write and not snapshot:
                with connection.cursor() as cursor:
                    yield _PgCursor(cursor)
                return
            with connection.transaction(), connection.cursor() as cursor:
                if not write:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                yield _PgCursor(cursor)

    def _changed(
        self, cursor: Any, game_id: str, revision: int, move_count: int, seat: int | None, at: float | None
    ) -> None:
        super()._changed(cursor, game_id, revision, move_count, seat, at)
        cursor.execute("SELECT pg_notify(?, ?)", (CHANNEL, f"{game_id} {revision}"))

    # A move is one statement, so one round trip: the game's row is updated only if it is at
    # the revision the server saw and has ``start`` moves (the row lock makes a concurrent
    # writer wait, then find the revision changed); the moves' key refuses a second move N.
    # The entries travel as one text, a line each (psycopg takes longer to send a list).
    _APPEND = """
        WITH g AS (
            UPDATE games SET revision = revision + 1, move_count = %(start)s + %(count)s,
                finished = COALESCE(%(finished)s::double precision, finished), moved = %(at)s
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

    def _append(
        self, game_id: str, moves: Appended, revision: int | None, score: int | None, finished: float | None, at: float
    ) -> None:
        import psycopg

        if any("\n" in entry for entry in moves.entries):
            raise ValueError(f"a record entry is one line: {moves.entries!r}")
        told = moves.told()
        values = {
            "game": game_id,
            "revision": revision,
            "start": moves.start,
            "entries": "\n".join(moves.entries),
            "count": len(moves.entries),
            "seat": moves.seat,
            "score": score,
            "finished": finished,
            "at": at,
            "channel": CHANNEL,
            "told": told if len(game_id) + len(told.encode()) < NOTICE_ROOM else "",
        }
        try:
            with self._faults(), self._connection() as connection:
                row = connection.execute(self._APPEND, values).fetchone()
        except psycopg.errors.UniqueViolation:
            raise MoveConflictError(f"move {moves.start} of {game_id} is already written") from None
        if row is None:
            raise MoveConflictError(f"{game_id} is no longer at revision {revision} with {moves.start} moves")

    @contextmanager
    def _connection(self) -> Iterator[Any]:
        """A connection of the pool that is alive: if the database closed it while it waited
        there (a restart this server did not see), the others are checked and another is taken,
        so the first request after a restart is answered, not refused."""
        connection, pooled = self._take()
        try:
            if pooled and _closed(connection):
                self._pool.putconn(connection)  # broken: the pool replaces it
                connection = None
                self._pool.check()  # the others waited through the restart too
                connection, pooled = self._take()
            yield connection
        finally:
            if connection is None:
                pass
            elif pooled:
                self._pool.putconn(connection)
            else:  # its database process may serve another server next
                self._backends.discard(connection.info.backend_pid)
                connection.close()

    def _take(self) -> tuple[Any, bool]:
        """A connection, and whether it is the pool's: from the pool, waiting the pool's time
        for it; while the database is failing, only one request at a time waits so, the others
        hardly at all (:data:`FAILING_WAIT`), so that the game threads are not held. When the
        pool's time runs out, that one request connects by itself: after an outage the pool
        tries again only after its growing delay (1, 2, 4… s), and the database may be back
        before, so the first request after it is back is answered."""
        from psycopg_pool import PoolTimeout

        probing = False
        if self._health.failing:
            if not self._probing.acquire(blocking=False):
                return self._pool.getconn(FAILING_WAIT), True
            probing = True
        try:
            return self._pool.getconn(), True
        except PoolTimeout:
            if not (probing or self._probing.acquire(blocking=False)):
                raise
            probing = True
            return self._connect(), False
        finally:
            if probing:
                self._probing.release()

    def _connect(self) -> Any:
        """A connection of its own, outside the pool, closed after its one request (a notice
        it sent that comes after is taken for another server's: told to the pages at once,
        not left a moment to the request)."""
        import psycopg

        connection = psycopg.connect(self.url, autocommit=True, connect_timeout=max(1, round(self._pool.timeout)))
        self._backends.add(connection.info.backend_pid)
        return connection

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


def _postgres_refused(error: Exception) -> bool:
    import psycopg

    return isinstance(error, psycopg.OperationalError)  # the pool's timeout too


def _closed(connection: Any) -> bool:
    """Whether the database closed this idle connection (then the pool drops it). An idle
    connection hears nothing unless told goodbye: a look at its socket, no round trip; what it
    heard, if anything, is read with an empty query, which fails on a closed one."""
    import psycopg

    if not _readable(connection.fileno()):
        return False
    try:
        connection.execute("")
    except psycopg.OperationalError:
        return True
    return False


def _readable(fd: int) -> bool:
    """Whether ``fd`` has something to read (or was closed), without waiting: ``poll`` where
    there is one, as a busy server's descriptors pass ``select``'s limit of 1024 (its pages'
    sockets)."""
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        return bool(poller.poll(0))
    return bool(select.select([fd], [], [], 0)[0])


def _without_password(url: str) -> str:
    """A database URL as a log may show it."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@")).geturl()

"""The store on an embedded SQLite file (the default)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from .interface import _Health
from .migrations import ForeignDatabaseError
from .sql import _SQLStore


class SQLiteStore(_SQLStore):
    """Games in one SQLite file (``":memory:"`` for tests); safe across threads."""

    _now = "((julianday('now') - 2440587.5) * 86400.0)"

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

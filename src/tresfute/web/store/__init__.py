"""Where the web server keeps its games: each game's description and its record's moves.

:class:`Store` is the small interface the server needs (``interface.py``). :class:`SQLiteStore`
implements it on an embedded SQLite file, the default (``sqlite.py``); :class:`PostgresStore` on a
PostgreSQL database, which several server processes can share (``postgres.py``); the SQL they
share is ``sql.py``'s. Every call commits before it returns, so a move the server has
acknowledged survives a stop at any moment. Seat tokens are kept only as their SHA-256.

Both stores keep a ``schema_version`` table and bring an older database up to date when they
open it (``migrations.py``'s :data:`MIGRATIONS`, applied in order, each in one transaction).
``opening.py`` opens the store a ``--db`` value names. Every name is importable from here.
"""

from __future__ import annotations

from .interface import (
    AlreadySeatedError,
    Appended,
    Change,
    Entry,
    EntryRefusedError,
    MoveConflictError,
    PlayedSeat,
    Store,
    StoredGame,
    StoredSeat,
    StoreUnavailableError,
    name_key,
    token_hash,
)
from .migrations import MIGRATIONS, SCHEMA_VERSION, ForeignDatabaseError, SchemaError, _statements
from .opening import DatabaseOpenError, UnknownDatabaseError, open_store, reviewed
from .postgres import CHANNEL, FAILING_WAIT, NOTICE_ROOM, OLD_CHANNEL, POOL_WAIT, PostgresStore
from .sqlite import SQLiteStore

__all__ = [
    "CHANNEL",
    "FAILING_WAIT",
    "MIGRATIONS",
    "NOTICE_ROOM",
    "OLD_CHANNEL",
    "POOL_WAIT",
    "SCHEMA_VERSION",
    "AlreadySeatedError",
    "Appended",
    "Change",
    "DatabaseOpenError",
    "Entry",
    "EntryRefusedError",
    "ForeignDatabaseError",
    "MoveConflictError",
    "PlayedSeat",
    "PostgresStore",
    "SQLiteStore",
    "SchemaError",
    "Store",
    "StoreUnavailableError",
    "StoredGame",
    "StoredSeat",
    "UnknownDatabaseError",
    "_statements",
    "name_key",
    "open_store",
    "reviewed",
    "token_hash",
]

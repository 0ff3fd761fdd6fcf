"""Opening the store a ``--db`` value names, and a stored game's review."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .interface import Store, StoreUnavailableError
from .migrations import ForeignDatabaseError, SchemaError
from .postgres import PostgresStore, _postgres_refused
from .sqlite import SQLiteStore


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
    from ...bots.review import FORMAT, review_game
    from ...records import Record

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

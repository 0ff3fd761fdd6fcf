"""The web server: a FastAPI application over a :class:`~.tables.Host`.

Pages are static files (no build step) that ask the JSON API and listen on a WebSocket. A seat
token travels in the ``X-Seat-Token`` header (or the body, or the WebSocket's first message),
never in a URL the server logs: the page reads it from the link's ``#`` part.

How it works, at length: docs/design-web.md (web/app.py).
"""

from __future__ import annotations

import contextlib
import gc
import os
import time
from collections.abc import AsyncIterator, Callable
from functools import partial
from pathlib import Path
from typing import Any

import anyio
from fastapi import FastAPI
from starlette.middleware.gzip import GZipMiddleware

from .challenge import DailyChallenge
from .computers import Computers
from .deps import Server
from .errors import answer_errors_as_json
from .limits import Guard, Limits, forget_finished, replace_idle_seats
from .listeners import Listeners, forward_changes
from .middleware import BodyLimit, HeadAsGet, PrivateAnswers, SecurityHeaders
from .reviews import Reviews
from .routes import challenge, docs, games, open_tables, pages, players, records, reviews
from .store import Store, open_store
from .tables import Host


def create_app(
    store: Store | None = None,
    database: str | Path = "tresfute.sqlite3",
    clock: Callable[[], float] | None = None,
    challenge_bot: str = "strong",
    limits: Limits | None = None,
    language: str | None = None,
) -> FastAPI:
    """The application; ``store`` defaults to the one ``database`` names (an SQLite file's path
    or a ``postgresql://`` URL). ``clock`` (seconds since 1970) decides the challenge's days;
    ``challenge_bot`` is the computer player measured on each day's dice; ``limits`` default to
    those the environment sets (:meth:`Limits.from_environment`); ``language`` is the one its
    answers speak when a request asks for none (``tresfute serve --lang``; French if None: see
    :func:`~.deps.request_language`)."""
    host = Host(
        store if store is not None else open_store(database), wall_clock=clock or time.time, computers_later=True
    )
    limits = limits if limits is not None else Limits.from_environment()
    listeners = Listeners()
    server = Server(host, DailyChallenge(host, bot=challenge_bot), listeners, Guard(limits), Computers(host, listeners))
    app = FastAPI(
        title="tresfute",
        docs_url=None,  # routes/docs.py serves it from the package
        redoc_url=None,
        openapi_url="/api/openapi.json",
        lifespan=lambda app: running(server),
    )
    app.state.server, app.state.host, app.state.daily = server, host, server.daily
    app.state.language = language
    app.state.reviews = Reviews(host)  # the reviews this process computes (routes/reviews.py)
    app.add_middleware(BodyLimit)  # the last added is the first a request meets
    app.add_middleware(PrivateAnswers)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(GZipMiddleware, minimum_size=256, compresslevel=6)
    app.add_middleware(HeadAsGet)  # outside the compression: a HEAD's headers are its GET's
    answer_errors_as_json(app)
    app.mount("/static", pages.static_files(), name="static")
    for module in (pages, games, open_tables, records, reviews, challenge, players, docs):
        app.include_router(module.router)
    app.router.routes[:0] = games.fast_routes  # tried first: the requests a game sends most

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = games.describe_seat_changes(FastAPI.openapi(app))
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


@contextlib.asynccontextmanager
async def running(server: Server) -> AsyncIterator[None]:
    """What runs beside the requests while the application does: the forwarding of the changes
    other servers make to this one's pages (a store with the database's notices: PostgreSQL),
    the forgetting of old finished and abandoned games, and the handing of open tables' idle
    seats to computer players."""
    host = server.host
    async with anyio.create_task_group() as tasks:
        changes = getattr(host.store, "changes", None)
        if changes is not None:
            tasks.start_soon(forward_changes, host, server.listeners, changes)
        limits = server.guard.limits
        if limits.keep_finished_days > 0 or limits.keep_abandoned_days > 0:
            days = limits.keep_finished_days
            tasks.start_soon(
                partial(forget_finished, abandoned_days=limits.keep_abandoned_days), host.store, days, host.wall_clock
            )
        if limits.idle_seat_minutes > 0:
            tasks.start_soon(replace_idle_seats, host, server.computers, limits.idle_seat_minutes)
        yield
        tasks.cancel_scope.cancel()


def app_from_environment() -> FastAPI:
    """The application for ``uvicorn --factory`` and ``tresfute serve --workers N``: the database
    is named by ``TRESFUTE_DB`` (each worker process opens its own store), the language of its
    answers by ``TRESFUTE_SERVE_LANG`` (``serve --lang``)."""
    database = os.environ.get("TRESFUTE_DB", "tresfute.sqlite3")
    return served(create_app(database=database, language=os.environ.get("TRESFUTE_SERVE_LANG") or None))


# The garbage collector's thresholds in a server process (Python's default: 700, 10, 10). A
# game in play holds about a hundred tracked objects and makes no reference cycles, nor does a
# move; a request makes a thousand short-lived objects. With the defaults the collector ran a
# young pass every few requests and, as the games in memory grew, a full pass over all of them
# every few seconds: the slowest answers waited for it (500 games at human pace, one process:
# move answer p99 78-190 ms with the defaults, 20 ms with these; the CPU a move costs is the same).
SERVER_GC_THRESHOLDS = (50_000, 20, 100)


def served(app: FastAPI) -> FastAPI:
    """The application as a server process runs it. What exists once it is built (the modules,
    the sheets' descriptions) lives as long as the process: it is left out of the garbage
    collector's full passes, which otherwise walked all of it each time, a pause felt as the
    slowest answers (p99 at 400 moves/s: 50-80 ms before, 19-35 ms after, measured in turn); and
    the collector runs less often (:data:`SERVER_GC_THRESHOLDS`)."""
    gc.freeze()
    gc.set_threshold(*SERVER_GC_THRESHOLDS)
    return app

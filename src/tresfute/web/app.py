"""The web server: a FastAPI application over a :class:`~.tables.Host`.

Pages are static files (no build step) that ask the JSON API and listen on a WebSocket. A seat
token travels in the ``X-Seat-Token`` header (or the body, or the WebSocket's first message),
never in a URL the server logs: the page reads it from the link's ``#`` part.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import gc
import logging
import os
import queue
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import records
from ..bots import BOTS
from ..i18n import LANGUAGES, _, use_language
from ..rules import SPECS
from .challenge import DailyChallenge, entry_view
from .layout import sheet_layout
from .store import Change, Store, open_store
from .strings import ui_strings
from .tables import Host, SeatRequest, Table, TableError

MAX_BODY = 16 * 1024  # bytes: every legitimate request is far smaller
OWN_CHANGE_WAIT = 0.2  # seconds a server leaves its own change to the request that made it
# Game work (moves, computer players' thinking, views) runs in a few threads: it is pure Python,
# so more threads would only take turns on the interpreter lock.
GAME_THREADS = 4


class GameThreads:
    """A few daemon threads that run game work and hand each result back to the event loop in
    one call. Lighter than an executor: ``run_in_executor`` builds a concurrent future (with its
    condition) and chains it to an asyncio one, a tenth of a move's instructions; anyio's
    threads (``to_thread``) cost four times an executor's."""

    def __init__(self, count: int) -> None:
        self._count = count
        self._reset()
        os.register_at_fork(after_in_child=self._reset)  # a forked child has none of its parent's threads

    def _reset(self) -> None:
        """No threads yet: they start with the first work."""
        self._work: queue.SimpleQueue[tuple[Callable[[], None], ...]] = queue.SimpleQueue()
        self._started = False
        self._starting = threading.Lock()

    def _start(self) -> None:
        with self._starting:
            if not self._started:
                for number in range(self._count):
                    threading.Thread(target=self._serve, name=f"tresfute-game-{number}", daemon=True).start()
                self._started = True

    def _serve(self) -> None:
        while True:
            (work,) = self._work.get()
            work()

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` in a game thread, with the caller's context (its language)."""
        if not self._started:
            self._start()
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        context = contextvars.copy_context()

        def work() -> None:
            if future.cancelled():  # the request went away before its work began: none is done
                return
            result, error = None, None
            try:
                result = context.run(function, *args)
            except BaseException as raised:  # handed to the awaiting request, as an executor does
                error = raised
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody is waiting
                loop.call_soon_threadsafe(_settle, future, result, error)

        self._work.put((work,))
        return await future


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.cancelled():  # the request went away (its client disconnected)
        return
    if error is None:
        future.set_result(result)
    elif isinstance(error, StopIteration):  # a future refuses it (as a coroutine turns it)
        future.set_exception(RuntimeError(f"game work raised {error!r}"))
    else:
        future.set_exception(error)


_game_threads = GameThreads(GAME_THREADS)
run_in_threadpool = _game_threads.run


STATIC = Path(str(resources.files("tresfute.web") / "static"))

Language = Literal["fr", "en"]
Token = Annotated[str, Field(min_length=16, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
TOKEN: TypeAdapter[str] = TypeAdapter(Token)
JSON_OBJECT: TypeAdapter[dict[str, Any]] = TypeAdapter(dict[str, Any])


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


Body = TypeVar("Body", bound=BaseModel)


class SeatIn(Strict):
    name: Annotated[str, Field(min_length=1, max_length=40)]
    bot: Literal[tuple(BOTS)] | None = None  # type: ignore[valid-type]


class NewGame(Strict):
    game: Literal[tuple(SPECS)]  # type: ignore[valid-type]
    seats: Annotated[list[SeatIn], Field(min_length=1, max_length=4)]
    real_dice: bool = False
    language: Language = "fr"
    listed: bool = False  # an open table: the other people's seats are free for anyone to take


class JoinIn(Strict):
    name: Annotated[str, Field(min_length=1, max_length=40)]


class Act(Strict):
    move: Annotated[str, Field(min_length=1, max_length=80)]
    seq: Annotated[int, Field(ge=0)]


class Undo(Strict):
    seq: Annotated[int, Field(ge=0)]


class ChallengeIn(Strict):
    name: Annotated[str, Field(min_length=1, max_length=40)]


class Hello(Strict):
    type: Literal["hello"]
    token: Token | None = None
    lang: Language = "fr"


class BodyLimit:
    """Refuse a request body over ``MAX_BODY`` bytes (413) before anything reads it whole."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            await _too_large(scope, receive, send)
            return
        body = b""
        more = True
        while more:  # bodies are small: read it here, whole, up to the limit
            message = await receive()
            if message["type"] != "http.request":
                break
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > MAX_BODY:
                await _too_large(scope, receive, send)
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


class HeadAsGet:
    """Answer HEAD wherever GET is served (uptime checkers, link previews ask HEAD): the GET's
    status and headers, without its body. FastAPI's routes, unlike Starlette's, serve GET only."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, without_body)


async def receive_text(socket: WebSocket) -> str:
    """The next message, which must be text (Starlette's ``receive_text`` fails on bytes)."""
    message = await socket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    if text is None:
        raise ValueError(_("a message is text (JSON), not bytes"))
    return text


async def _too_large(scope: Scope, receive: Receive, send: Send) -> None:
    response = JSONResponse({"error": _("the request is too large")}, status_code=413)
    await response(scope, receive, send)


class Listeners:
    """The WebSockets watching each table, each with its seat and language."""

    def __init__(self) -> None:
        self._by_table: dict[str, dict[WebSocket, tuple[int | None, str]]] = {}
        self._sent: dict[str, int] = {}  # the revision each table's listeners last got

    def add(self, table_id: str, socket: WebSocket, seat: int | None, language: str) -> None:
        self._by_table.setdefault(table_id, {})[socket] = (seat, language)

    def remove(self, table_id: str, socket: WebSocket) -> None:
        listening = self._by_table.get(table_id)
        if listening is not None:
            listening.pop(socket, None)
            if not listening:
                del self._by_table[table_id]
                self._sent.pop(table_id, None)

    def watched(self, table_id: str) -> bool:
        return bool(self._by_table.get(table_id))

    def tables(self) -> list[str]:
        """The tables that some page watches."""
        return list(self._by_table)

    def has(self, table_id: str, revision: int) -> bool:
        """Whether the table's pages have been sent ``revision`` (or a later one)."""
        return self._sent.get(table_id, -1) >= revision

    async def publish(self, host: Host, table: Table, known: KnownView | None = None) -> None:
        """Send the table's state to its pages: one view (serialized once) for each seat and
        language among them; ``known`` is one already made, the mover's (its page gets the same
        state in the move's answer, and again here, as its other pages do)."""
        listening = list(self._by_table.get(table.id, {}).items())
        revision = table.stored.revision
        if not listening or self.has(table.id, revision):
            return  # nobody, or already sent (a change made here comes back from the database's notice)
        texts: dict[tuple[int | None, str], bytes] = {}
        if known is not None and known.revision == revision:
            texts[known.seat, known.language] = known.body
        await self._send(host, table, revision, texts)

    async def update(self, host: Host, table_id: str, changes: list[Change | None]) -> None:
        """Bring the table up to ``changes`` (another server's) and send its new state to its
        pages, both in one game thread: under load, each trip waits behind the moves queued."""
        wanted = set(self._by_table.get(table_id, {}).values())
        if not wanted:
            return

        def work() -> tuple[Table, int, dict[tuple[int | None, str], bytes]]:
            table = host.told(table_id, changes)
            with table.lock:  # the views of the revision said
                return table, table.stored.revision, _views(host, table, wanted)

        table, revision, texts = await run_in_threadpool(work)
        await self._send(host, table, revision, texts)

    async def _send(self, host: Host, table: Table, revision: int, texts: dict[tuple[int | None, str], bytes]) -> None:
        """Send ``revision``'s state to the table's pages: ``texts`` are the views made already,
        by seat and language; the others' are made here."""
        listening = list(self._by_table.get(table.id, {}).items())
        missing = {who for _socket, who in listening} - texts.keys()
        if missing:  # not made yet, or a page of another seat or language came meanwhile
            texts = {**texts, **await run_in_threadpool(_views, host, table, missing)}
        if self.has(table.id, revision):
            return  # this one, or a newer one, has gone out meanwhile
        self._sent[table.id] = revision
        messages = {who: state_message(body) for who, body in texts.items()}
        for socket, who in listening:
            try:
                await socket.send_text(messages[who])
            except Exception:  # a socket that closed meanwhile
                self.remove(table.id, socket)


def _views(host: Host, table: Table, who: set[tuple[int | None, str]]) -> dict[tuple[int | None, str], bytes]:
    """The table's view for each seat and language, serialized; in a game thread (a thinking
    computer player may hold the table)."""
    return {(seat, language): JSON_OBJECT.dump_json(host.view(table, seat, language)) for seat, language in who}


@dataclass(frozen=True)
class KnownView:
    """A view already made and serialized: ``seat``'s, in ``language``, at ``revision``."""

    revision: int
    seat: int | None
    language: str
    body: bytes


def state_message(view: bytes) -> str:
    """The WebSocket's message that carries a (serialized) view."""
    return (b'{"type":"state","state":' + view + b"}").decode()


Changes = Callable[[], AsyncIterator[Change | None]]


async def forward_changes(host: Host, listeners: Listeners, changes: Changes) -> None:
    """Tell this server's pages of the changes made through any server (PostgreSQL's
    ``LISTEN/NOTIFY``); listen again after a lost connection, and then bring every watched
    table up to date: what changed while nobody listened was told to no one.

    The notices are read as they come: each table is brought up to date by a task of its own,
    which takes the changes told meanwhile in one go. Waiting for a table's update before the
    next notice held every notice behind the game threads' queue: under load, a page on this
    server saw another server's moves seconds late. This server's own changes are left a moment
    to the requests that made them, which send them to the pages with the view they made."""
    told: dict[str, list[Change | None]] = {}  # the tables being updated: the changes told since
    updates: set[asyncio.Task[None]] = set()
    stopped = asyncio.Event()  # deferred notices come to nothing once the server stops

    def tell(game_id: str, change: Change | None, late: bool = False) -> None:
        if stopped.is_set() or (change is not None and listeners.has(game_id, change.revision)):
            return  # stopped; or its pages have it already
        if change is not None and change.own and not late:
            # made here: the request that made it sends it, most often long before; what is
            # made otherwise (a computer player's move after a page loaded a game) is sent then
            asyncio.get_running_loop().call_later(OWN_CHANGE_WAIT, tell, game_id, change, True)
            return
        if game_id in told:
            told[game_id].append(change)
            return
        told[game_id] = []
        update = asyncio.create_task(bring_up(game_id, [change]))
        updates.add(update)
        update.add_done_callback(updates.discard)

    async def bring_up(game_id: str, changes: list[Change | None]) -> None:
        while changes:
            # the newest: an own change, told late, may come after newer ones
            known = [change for change in changes if change is not None]
            newest = max(known, key=lambda change: change.revision) if len(known) == len(changes) else None
            try:
                held = host.holding(newest) if newest is not None else None
                if held is not None:
                    await listeners.publish(host, held)
                else:
                    await listeners.update(host, game_id, changes)
            except Exception:  # that table's pages miss this change; the others' do not
                logging.getLogger(__name__).exception("could not tell the pages of %s", game_id)
            changes, told[game_id] = told[game_id], []
        del told[game_id]

    try:
        while True:
            try:
                async for change in changes():
                    # None: listening (again), or a notice not understood: every watched table
                    # may have changed unheard
                    changed = listeners.tables() if change is None else [change.game_id]
                    for game_id in filter(listeners.watched, changed):
                        tell(game_id, change)
            except asyncio.CancelledError:
                raise
            except Exception:
                logging.getLogger(__name__).exception("lost the database's notices; listening again")
                await asyncio.sleep(1)
    finally:
        stopped.set()
        for update in list(updates):
            update.cancel()


def create_app(
    store: Store | None = None,
    database: str | Path = "tresfute.sqlite3",
    clock: Callable[[], float] | None = None,
    challenge_bot: str = "strong",
) -> FastAPI:
    """The application; ``store`` defaults to the one ``database`` names (an SQLite file's path
    or a ``postgresql://`` URL). ``clock`` (seconds since 1970) decides the challenge's days;
    ``challenge_bot`` is the computer player measured on each day's dice."""
    host = Host(store if store is not None else open_store(database), wall_clock=clock or time.time)
    daily = DailyChallenge(host, bot=challenge_bot)
    listeners = Listeners()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        changes = getattr(host.store, "changes", None)
        task = asyncio.create_task(forward_changes(host, listeners, changes)) if changes is not None else None
        yield
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    app = FastAPI(
        title="tresfute", docs_url="/api/docs", redoc_url=None, openapi_url="/api/openapi.json", lifespan=lifespan
    )
    app.state.host = host
    app.state.daily = daily
    app.add_middleware(BodyLimit)
    app.add_middleware(HeadAsGet)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(TableError)
    async def table_error(request: Request, exc: TableError) -> JSONResponse:
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'][1:]) or 'body'}: {e['msg']}" for e in exc.errors())
        with use_language(_request_language(request)):
            message = _("malformed request: {problems}").format(problems=problems)
        return JSONResponse({"error": message}, status_code=422)

    def language_of(lang: str | None) -> str:
        return lang if lang in LANGUAGES else "fr"

    def needed(token: str | None) -> str:
        if token is None:
            raise TableError(401, _("this request needs the seat's token"))
        return token

    async def guarded(lang: str | None, work: Callable[[], Any]) -> Any:
        """Run ``work`` in a thread (bots think there) with messages in the page's language."""
        language = language_of(lang)

        def run() -> Any:
            with use_language(language):
                return work()

        return await run_in_threadpool(run)

    # --- pages -------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    @app.get("/g/{game_id}", include_in_schema=False)
    async def page(game_id: str | None = None) -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    @app.get("/api/strings")
    async def strings(lang: str | None = None) -> dict[str, str | list[str]]:
        return ui_strings(language_of(lang))

    @app.get("/api/layout/{game_id}")
    async def layout(game_id: str, lang: str | None = None) -> dict[str, Any]:
        if game_id not in SPECS:
            raise TableError(404, _("no such game"))
        return sheet_layout(game_id, language_of(lang))

    # --- games -------------------------------------------------------------------------

    @app.post("/api/games", status_code=201)
    async def new_game(body: NewGame, lang: str | None = None) -> dict[str, Any]:
        seats = [SeatRequest(s.name, s.bot) for s in body.seats]
        table, tokens = await guarded(
            lang, lambda: host.create(body.game, seats, body.real_dice, body.language, listed=body.listed)
        )
        return {
            "id": table.id,
            "watch": f"/g/{table.id}",
            "seats": [
                {"name": s.name, "bot": s.bot, "token": t, "link": f"/g/{table.id}#seat={t}" if t else None}
                for s, t in zip(body.seats, tokens, strict=True)
            ],
        }

    def watched(game_id: str, player: str | None) -> Table:
        """A table a spectator may see (a challenge entry of a day not over: only by a player who
        has finished their own)."""
        table = host.table(game_id)
        if not daily.may_watch(table, player):
            raise TableError(
                403, _("this challenge entry can be watched when the day is over, or once you have finished yours")
            )
        return table

    @app.get("/api/open")
    async def open_tables() -> dict[str, Any]:
        """The open tables that still have a free seat, newest first."""
        return {"games": await guarded(None, host.open_tables)}

    @app.post("/api/games/{game_id}/join", status_code=201)
    async def join(game_id: str, body: JoinIn, lang: str | None = None) -> dict[str, Any]:
        """Take a free seat of an open table: its token, kept by the page as any seat's."""
        name = " ".join(body.name.split())
        if not name:
            with use_language(language_of(lang)):
                raise TableError(422, _("choose a name"))
        table, seat, token = await guarded(lang, lambda: host.join(game_id, name))
        await listeners.publish(host, table)
        return {"id": table.id, "seat": seat, "token": token, "link": f"/g/{table.id}#seat={token}"}

    @app.get("/api/games/{game_id}")
    async def game_state(
        game_id: str,
        lang: str | None = None,
        at: Annotated[int | None, Query(ge=0)] = None,
        x_seat_token: Annotated[Token | None, Header()] = None,
        x_player_token: Annotated[Token | None, Header()] = None,
    ) -> dict[str, Any]:
        """The seat's view (or a spectator's); ``at``: a finished game after that many entries."""

        def work() -> dict[str, Any]:
            if x_seat_token is None:
                table = watched(game_id, x_player_token)
                if at is not None:
                    return host.view_at(table, at, language_of(lang))
                return host.view(table, None, language_of(lang))
            table, seat = host.seat_of(game_id, x_seat_token)
            return host.view(table, seat, language_of(lang))

        return await guarded(lang, work)

    async def changed(
        table_id: str, token: str | None, lang: str | None, change: Callable[[str], tuple[Table, int]]
    ) -> bytes:
        """Apply a seat's change, then tell every listener; the answer is the seat's new view,
        serialized (the same bytes go to the seat's pages). A refused change may have brought
        the table up to date (another server's moves): its pages are sent that."""
        language = language_of(lang)

        def work() -> tuple[Table, KnownView]:
            table, seat = change(needed(token))
            view = host.view(table, seat, language)
            return table, KnownView(view["revision"], seat, language, JSON_OBJECT.dump_json(view))

        try:
            table, known = await guarded(lang, work)
        except Exception:
            if (kept := host.kept(table_id)) is not None:
                await listeners.publish(host, kept)
            raise
        await listeners.publish(host, table, known)
        return known.body

    # A move and an undo are plain Starlette routes, the requests a game sends most: FastAPI's
    # parameters (the path, the header, the query and the body each solved and validated apart)
    # cost a quarter of the server's instructions per move (callgrind, 20 games: 2.28 -> 1.70
    # million). They read the same models and give the same errors; `openapi` below describes them.

    async def act(request: Request) -> Response:
        body, token, lang = await seat_request(request, Act)
        game_id = request.path_params["game_id"]
        view = await changed(game_id, token, lang, lambda token: host.act(game_id, token, body.move, body.seq))
        return Response(view, media_type="application/json")

    async def undo(request: Request) -> Response:
        body, token, lang = await seat_request(request, Undo)
        game_id = request.path_params["game_id"]
        view = await changed(game_id, token, lang, lambda token: host.undo(game_id, token, body.seq))
        return Response(view, media_type="application/json")

    # First of the routes: a request tries them in turn, and these are the most frequent (at
    # the end of the list, matching the others cost 0.1 million instructions per move).
    app.router.routes[:0] = [
        Route("/api/games/{game_id}/act", act, methods=["POST"]),
        Route("/api/games/{game_id}/undo", undo, methods=["POST"]),
    ]

    @app.post("/api/games/{game_id}/hint")
    async def hint(
        game_id: str, lang: str | None = None, x_seat_token: Annotated[Token | None, Header()] = None
    ) -> dict[str, Any]:
        return {"moves": await guarded(lang, lambda: host.hint(game_id, needed(x_seat_token)))}

    @app.get("/api/games/{game_id}/record")
    async def record(
        game_id: str,
        lang: str | None = None,
        x_seat_token: Annotated[Token | None, Header()] = None,
        x_player_token: Annotated[Token | None, Header()] = None,
    ) -> Response:
        """The game record; a seat's own game's even while it is a challenge entry of today."""

        def work() -> str:  # in a thread: the table may be locked by a thinking computer player
            if x_seat_token is not None:
                table = host.seat_of(game_id, x_seat_token)[0]
            else:
                table = watched(game_id, x_player_token)
            return records.dumps(host.record(table))

        text = await guarded(lang, work)
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="tresfute-{game_id}.json"'},
        )

    # --- the daily challenge ------------------------------------------------------------

    @app.get("/api/challenge/history")
    async def challenge_history(x_player_token: Annotated[Token | None, Header()] = None) -> dict[str, Any]:
        """The asking player's entries, every day, newest first."""
        entries = await guarded(None, lambda: daily.history(x_player_token))
        return {"entries": [entry_view(e) for e in entries]}

    @app.post("/api/challenge/{game}", status_code=201)
    async def challenge_start(
        game: str, body: ChallengeIn, lang: str | None = None, x_player_token: Annotated[Token | None, Header()] = None
    ) -> dict[str, Any]:
        """Today's entry in ``game``'s challenge under ``name``; ``player`` is the player's token
        (a new one if none was sent): the page keeps it, it holds the name for the day."""
        table, token, player = await guarded(
            lang, lambda: daily.start(game, body.name, x_player_token, language_of(lang))
        )
        return {
            "id": table.id,
            "day": table.stored.challenge,
            "token": token,
            "player": player,
            "link": f"/g/{table.id}#seat={token}",
        }

    @app.get("/api/challenge/{game}")
    async def challenge_board(
        game: str,
        day: str | None = None,
        lang: str | None = None,
        x_player_token: Annotated[Token | None, Header()] = None,
    ) -> dict[str, Any]:
        return await guarded(lang, lambda: daily.board(game, day, x_player_token))

    @app.websocket("/api/games/{game_id}/ws")
    async def live(socket: WebSocket, game_id: str) -> None:
        """The first message says who listens: ``{"type": "hello", "token": …, "lang": …}``;
        then the server sends ``{"type": "state", …}`` at every change of the game."""
        await socket.accept()
        try:
            text = await asyncio.wait_for(receive_text(socket), timeout=30)
            if len(text) > 1024:
                raise ValueError(_("the message is too large"))
            hello = Hello.model_validate_json(text)
            language = hello.lang
            with use_language(language):
                if hello.token is None:
                    table, seat = await run_in_threadpool(watched, game_id, None), None
                else:
                    table, seat = await run_in_threadpool(host.seat_of, game_id, hello.token)
        except (TableError, ValidationError, ValueError, TimeoutError) as exc:
            message = (
                exc.message
                if isinstance(exc, TableError)
                else _("malformed message: {problem}").format(
                    problem=str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                )
            )
            await socket.send_json({"type": "error", "error": message})
            await socket.close(code=1008)
            return
        except WebSocketDisconnect:
            return
        listeners.add(table.id, socket, seat, language)
        try:
            view = await run_in_threadpool(host.view, table, seat, language)
            await socket.send_text(state_message(JSON_OBJECT.dump_json(view)))
            with use_language(language):  # what it says from now on
                while True:
                    try:
                        text = await receive_text(socket)  # nothing is expected: keep-alive only
                    except ValueError as exc:
                        await socket.send_json({"type": "error", "error": str(exc)})
                        continue
                    if len(text) > 1024:
                        await socket.send_json({"type": "error", "error": _("the message is too large")})
        except WebSocketDisconnect:
            pass
        finally:
            listeners.remove(table.id, socket)

    def openapi() -> dict[str, Any]:
        """FastAPI's description, with the two Starlette routes added."""
        if app.openapi_schema is None:
            schema = FastAPI.openapi(app)
            for name, model in (("act", Act), ("undo", Undo)):
                schema["paths"][f"/api/games/{{game_id}}/{name}"] = seat_change_description(name, model)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


def seat_change_description(name: str, model: type[BaseModel]) -> dict[str, Any]:
    """The OpenAPI description of a seat's change (`act`, `undo`), as FastAPI would write it."""
    text = {"type": "string"}
    return {
        "post": {
            "summary": name.capitalize(),
            "operationId": f"{name}_api_games__game_id__{name}_post",
            "parameters": [
                {"name": "game_id", "in": "path", "required": True, "schema": text},
                {"name": "lang", "in": "query", "required": False, "schema": text},
                {"name": "x-seat-token", "in": "header", "required": True, "schema": TOKEN.json_schema()},
            ],
            "requestBody": {"required": True, "content": {"application/json": {"schema": model.model_json_schema()}}},
            "responses": {"200": {"description": "The seat's new view", "content": {"application/json": {}}}},
        }
    }


async def seat_request(request: Request, model: type[Body]) -> tuple[Body, str | None, str | None]:
    """A seat's request read without FastAPI's parameters: its body (a ``model``), its seat
    token and its language; a malformed one raises the error FastAPI would (422)."""
    try:
        body = model.model_validate_json(await request.body())
    except ValidationError as error:
        raise RequestValidationError([{**e, "loc": ("body", *e["loc"])} for e in error.errors()]) from None
    token = request.headers.get("x-seat-token")
    if token is not None:
        try:
            TOKEN.validate_python(token)
        except ValidationError as error:
            problems = [{**e, "loc": ("header", "x-seat-token")} for e in error.errors()]
            raise RequestValidationError(problems) from None
    return body, token, request.query_params.get("lang")


def app_from_environment() -> FastAPI:
    """The application for ``uvicorn --factory`` and ``tresfute serve --workers N``: the database
    is named by ``TRESFUTE_DB`` (each worker process opens its own store)."""
    return served(create_app(database=os.environ.get("TRESFUTE_DB", "tresfute.sqlite3")))


def served(app: FastAPI) -> FastAPI:
    """The application as a server process runs it. What exists once it is built (the modules,
    the sheets' descriptions) lives as long as the process: it is left out of the garbage
    collector's full passes, which otherwise walked all of it each time, a pause felt as the
    slowest answers (p99 at 400 moves/s: 50-80 ms before, 19-35 ms after, measured in turn)."""
    gc.freeze()
    return app


def _request_language(request: Request) -> str:
    lang = request.query_params.get("lang")
    return lang if lang in LANGUAGES else "fr"

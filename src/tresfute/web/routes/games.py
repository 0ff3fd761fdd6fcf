"""A game's routes: create it, see it, move, undo, ask a hint, and listen to it on a WebSocket.

A move and an undo are plain Starlette routes (:data:`fast_routes`), the requests a game sends
most: FastAPI's parameters (the path, the header, the query and the body each solved and
validated apart) cost a quarter of the server's instructions per move (callgrind, 20 games:
2.28 -> 1.70 million). They read the same models and give the same errors;
:func:`describe_seat_changes` writes them into the OpenAPI description.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, BackgroundTasks, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from pydantic import BaseModel, ValidationError
from starlette.background import BackgroundTask
from starlette.routing import Route

from ...i18n import LANGUAGES, N_, _, use_language
from ..deps import (
    AskerDep,
    LanguageDep,
    PlayerToken,
    RequiredSeatToken,
    SeatToken,
    Server,
    ServerDep,
    client_address,
    in_game_thread,
    request_language,
    seat_token_needed,
)
from ..errors import unavailable_message
from ..listeners import SEND_TIMEOUT, KnownView, Outbox, state_message
from ..models import (
    JSON_OBJECT,
    SOCKET_CHANGE,
    TOKEN,
    Act,
    Body,
    Hello,
    NewGame,
    SocketAct,
    SocketUndo,
    Undo,
    WholeNumber,
)
from ..players import Players
from ..problems import sentences
from ..store import StoreUnavailableError
from ..tables import SeatRequest, Table, TableError
from ..threads import run_in_game_thread

router = APIRouter()


@router.post("/api/games", status_code=201)
async def new_game(body: NewGame, asker: AskerDep, background: BackgroundTasks) -> dict[str, Any]:
    """A new game; with ``X-Player-Token``, its first seat is that player's (a secret this
    server never gave is refused, 403, and nothing is made)."""
    names = asker.admit("tables" if body.listed else "games", [s.name for s in body.seats])
    seats = [SeatRequest(name, s.bot) for name, s in zip(names, body.seats, strict=True)]
    server = asker.server

    def work() -> tuple[Table, list[str | None]]:
        player = Players(server.host).known(asker.player_token, needed=False)
        return server.host.create(
            body.game, seats, body.real_dice, body.language, listed=body.listed, player_hash=player, rules=body.rules
        )

    table, tokens = await in_game_thread(asker.language, work)
    background.add_task(server.computers.play, table)  # a computer player may start
    return {
        "id": table.id,
        "watch": f"/g/{table.id}",
        "seats": [
            {"name": s.name, "bot": s.bot, "token": t, "link": f"/g/{table.id}#seat={t}" if t else None}
            for s, t in zip(seats, tokens, strict=True)
        ],
    }


@router.get("/api/games/{game_id}")
async def game_state(
    game_id: str,
    server: ServerDep,
    language: LanguageDep,
    background: BackgroundTasks,
    at: Annotated[WholeNumber | None, Query(ge=0)] = None,
    x_seat_token: SeatToken = None,
    x_player_token: PlayerToken = None,
) -> dict[str, Any]:
    """The seat's view (or a spectator's); ``at``: a finished game after that many entries. Its
    computer players, if they were left to play (a server stopped, the database was away), play
    once it is answered."""
    host = server.host

    def work() -> tuple[dict[str, Any], Table, bool]:
        if x_seat_token is None:
            table = server.watched(game_id, x_player_token)
            if at is not None:
                return host.view_at(table, at, language), table, False
            return host.view(table, None, language), table, host.computers_due(table)
        table, seat = host.seat_of(game_id, x_seat_token)
        return host.view(table, seat, language), table, host.computers_due(table)

    view, table, due = await in_game_thread(language, work)
    if due:
        background.add_task(server.computers.play, table)
    return view


@router.get("/api/games/{game_id}/steps")
async def game_steps(
    game_id: str,
    server: ServerDep,
    language: LanguageDep,
    since: Annotated[WholeNumber, Query(ge=0)] = 0,
    x_seat_token: SeatToken = None,
    x_player_token: PlayerToken = None,
) -> dict[str, Any]:
    """The record's entries from ``since`` on, each in words with the state after it (the last
    80 at most): the page shows the moves others made one at a time."""
    host = server.host

    def work() -> dict[str, Any]:
        if x_seat_token is None:
            return host.steps(server.watched(game_id, x_player_token), since, language)
        return host.steps(host.seat_of(game_id, x_seat_token)[0], since, language)

    return await in_game_thread(language, work)


@router.post("/api/games/{game_id}/hint")
async def hint(game_id: str, server: ServerDep, language: LanguageDep, token: RequiredSeatToken) -> dict[str, Any]:
    return {"moves": await in_game_thread(language, lambda: server.host.hint(game_id, token))}


async def act(request: Request) -> Response:
    body, token, language = await seat_request(request, Act)
    game_id = request.path_params["game_id"]
    server = request.app.state.server
    table, known = await changed(
        server, game_id, token, language, lambda token: server.host.act(game_id, token, body.move, body.seq)
    )
    return seat_changed(server, table, known)


async def undo(request: Request) -> Response:
    body, token, language = await seat_request(request, Undo)
    game_id = request.path_params["game_id"]
    server = request.app.state.server
    table, known = await changed(
        server, game_id, token, language, lambda token: server.host.undo(game_id, token, body.seq)
    )
    return seat_changed(server, table, known)


def seat_changed(server: Server, table: Table, known: KnownView) -> Response:
    """The answer to a seat's change: its new view, sent before anything else is done; the
    other pages are told after it, and the computer players play then."""
    background = BackgroundTask(server.computers.play, table, known)
    return Response(known.body, media_type="application/json", background=background)


# The first of the application's routes: a request tries them in turn, and these are the most
# frequent (at the end of the list, matching the others cost 0.1 million instructions per move).
fast_routes = [
    Route("/api/games/{game_id}/act", act, methods=["POST"]),
    Route("/api/games/{game_id}/undo", undo, methods=["POST"]),
]


async def changed(
    server: Server,
    table_id: str,
    token: str | None,
    language: str,
    change: Callable[[str], tuple[Table, int]],
) -> tuple[Table, KnownView]:
    """Apply a seat's change; returns the table and the seat's new view, serialized (the same
    bytes go to the seat's pages). Its listeners are told by the caller, once it has answered
    (:meth:`~..computers.Computers.play`). A refused change may have brought the table up to
    date (another server's moves): its pages are sent that."""
    host, listeners = server.host, server.listeners

    def work() -> tuple[Table, KnownView]:
        table, seat = change(seat_token_needed(token, language))
        view = host.view(table, seat, language)
        return table, KnownView(view["revision"], seat, language, JSON_OBJECT.dump_json(view))

    try:
        return await in_game_thread(language, work)
    except Exception:
        if (kept := host.kept(table_id)) is not None:
            await listeners.publish(host, kept)
        raise


async def seat_request(request: Request, model: type[Body]) -> tuple[Body, str | None, str]:
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
    return body, token, request_language(request)


def describe_seat_changes(schema: dict[str, Any]) -> dict[str, Any]:
    """FastAPI's description of the API with the two Starlette routes added."""
    for name, model in (("act", Act), ("undo", Undo)):
        schema["paths"][f"/api/games/{{game_id}}/{name}"] = _seat_change_description(name, model)
    return schema


def _seat_change_description(name: str, model: type[BaseModel]) -> dict[str, Any]:
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


@router.websocket("/api/games/{game_id}/ws")
async def live(socket: WebSocket, game_id: str, server: ServerDep) -> None:
    """The first message says who listens: ``{"type": "hello", "token": …, "lang": …}``; then
    the server sends ``{"type": "state", …}`` at every change of the game. An address holds at
    most so many sockets open (``Limits.sockets_per_address``), those waiting for a hello too."""
    await socket.accept()
    with server.guard.sockets.held(client_address(socket)) as allowed:
        if not allowed:
            with use_language(request_language(socket)):
                message = _("too many pages of this site are open from your connection: close some, then reload")
            await socket.send_json({"type": "error", "error": message})
            await socket.close(code=1008)
            return
        await hello_then_listen(socket, game_id, server)


async def hello_then_listen(socket: WebSocket, game_id: str, server: Server) -> None:
    host, listeners = server.host, server.listeners
    text = ""
    try:
        text = await asyncio.wait_for(receive_text(socket), timeout=30)
        if len(text) > 1024:
            raise ValueError(N_("the message is too large"))  # said below, in the language asked
        hello = Hello.model_validate_json(text)
        language = hello.lang or request_language(socket)
        with use_language(language):
            if hello.token is None:
                table, seat = await run_in_game_thread(server.watched, game_id, None), None
            else:
                table, seat = await run_in_game_thread(host.seat_of, game_id, hello.token)
    except (TableError, StoreUnavailableError, ValidationError, ValueError, TimeoutError) as exc:
        with use_language(language_asked(text, socket)):
            if isinstance(exc, TableError):
                message = exc.message
            elif isinstance(exc, StoreUnavailableError):
                message = unavailable_message()
            else:
                message = _("malformed message: {problem}").format(problem=problems(exc))
        await refuse(socket, message)
        return
    except WebSocketDisconnect:
        return
    outbox = listeners.add(table.id, socket, seat, language)
    listening = asyncio.ensure_future(listen(socket, server, table, seat, language, hello.token, outbox))
    given_up = asyncio.ensure_future(outbox.closed.wait())  # a page that does not read what it is sent
    try:
        await asyncio.wait({listening, given_up}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        given_up.cancel()
        listening.cancel()
        listeners.remove(table.id, socket)
    if listening.done() and not listening.cancelled():
        with contextlib.suppress(WebSocketDisconnect):
            listening.result()


async def refuse(socket: WebSocket, message: str) -> None:
    """Say why the socket is refused, then close it; a page that does not read is not waited for."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(socket.send_json({"type": "error", "error": message}), SEND_TIMEOUT)
        await asyncio.wait_for(socket.close(code=1008), SEND_TIMEOUT)


async def listen(
    socket: WebSocket,
    server: Server,
    table: Table,
    seat: int | None,
    language: str,
    token: str | None,
    outbox: Outbox,
) -> None:
    """Send the game's state now (and play its computer players, if they were left to play);
    then play the seat's moves and undos sent on the socket (the listeners send the changes).
    Everything the page is sent goes through its ``outbox``."""
    view = await run_in_game_thread(server.host.view, table, seat, language)
    outbox.put(state_message(JSON_OBJECT.dump_json(view)))
    if await run_in_game_thread(server.host.computers_due, table):  # left to play (a server stopped meanwhile)
        server.computers.start(table)
    with use_language(language):  # what it says from now on
        while True:
            try:
                text = await receive_text(socket)
            except ValueError as exc:
                outbox.put_json({"type": "error", "error": _(str(exc))})
                continue
            if len(text) > 1024:
                outbox.put_json({"type": "error", "error": _("the message is too large")})
                continue
            try:
                asked = SOCKET_CHANGE.validate_json(text)
            except ValidationError as exc:
                problem = _("malformed message: {problem}").format(problem=problems(exc))
                outbox.put_json({"type": "error", "error": problem})
                continue
            await change_from_socket(socket, server, table.id, token, language, asked, outbox)


async def change_from_socket(
    socket: WebSocket,
    server: Server,
    game_id: str,
    token: str | None,
    language: str,
    asked: SocketAct | SocketUndo,
    outbox: Outbox,
) -> None:
    """A seat's move or undo sent on its page's WebSocket, as ``act`` and ``undo`` do over HTTP:
    answered on the socket by ``{"type": "answer", "id": …, "state": …}`` (the seat's new view; its
    other pages get it as a change), or by ``{"type": "error", "id": …, "status": …, "error": …}``
    with the status and the sentence HTTP would answer (nothing was changed). A page that plays on
    its socket costs the server no request and no second copy of the state. The answer is queued
    first; the other pages are told, and the computer players play, after it."""
    host = server.host

    def change(token: str) -> tuple[Table, int]:
        if isinstance(asked, SocketAct):
            return host.act(game_id, token, asked.move, asked.seq)
        return host.undo(game_id, token, asked.seq)

    try:
        table, known = await changed(server, game_id, token, language, change)
    except TableError as refused:
        outbox.put_json({"type": "error", "id": asked.id, "status": refused.status, "error": refused.message})
    except StoreUnavailableError:
        outbox.put_json({"type": "error", "id": asked.id, "status": 503, "error": unavailable_message()})
    else:
        outbox.put(f'{{"type":"answer","id":{asked.id},"state":{known.body.decode()}}}')
        server.computers.start(table, known, answered=socket)


async def receive_text(socket: WebSocket) -> str:
    """The next message, which must be text (Starlette's ``receive_text`` fails on bytes)."""
    message = await socket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    if text is None:
        raise ValueError(N_("a message is text (JSON), not bytes"))  # translated where it is said
    return text


def language_asked(hello: str, socket: WebSocket) -> str:
    """The language a hello asks for, even when the rest of it is refused (else the socket
    request's: :func:`~.deps.request_language`). Read by pydantic's parser, which refuses what
    nests too deeply (``json.loads`` raised RecursionError on a thousand ``[``)."""
    with contextlib.suppress(ValidationError):
        asked = JSON_OBJECT.validate_json(hello).get("lang")
        if asked in LANGUAGES:
            return str(asked)
    return request_language(socket)


def problems(error: Exception) -> str:
    """What is wrong with a message, each problem a sentence naming its field."""
    if isinstance(error, ValidationError):
        return sentences(error.errors())
    if isinstance(error, TimeoutError):
        return _("no hello within 30 seconds")
    return _(str(error).splitlines()[0]) if str(error) else type(error).__name__

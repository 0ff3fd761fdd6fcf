"""What the routes share: the :class:`Server` (the host, the daily challenge, the listening pages),
and the FastAPI dependencies that hand it, the request's language and its tokens to a route."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, TypeVar

from fastapi import Depends, Header
from starlette.requests import HTTPConnection

from ..i18n import DEFAULT_LANGUAGE, LANGUAGES, _, use_language
from .challenge import DailyChallenge
from .limits import Guard
from .listeners import Listeners
from .models import Token
from .tables import Host, Table, TableError
from .threads import run_in_game_thread

Result = TypeVar("Result")


@dataclass
class Server:
    """One server process's games: its host (the tables and their store), the daily challenge
    built on it, the pages listening to each table, and the limits each client address meets."""

    host: Host
    daily: DailyChallenge
    listeners: Listeners
    guard: Guard

    def watched(self, game_id: str, player: str | None) -> Table:
        """A table a spectator may see (a challenge entry of a day not over: only by a player
        who has finished their own)."""
        table = self.host.table(game_id)
        if not self.daily.may_watch(table, player):
            raise TableError(
                403, _("this challenge entry can be watched when the day is over, or once you have finished yours")
            )
        return table


def server_of(connection: HTTPConnection) -> Server:
    """The application's :class:`Server` (a request's or a WebSocket's)."""
    server: Server = connection.app.state.server
    return server


def client_address(connection: HTTPConnection) -> str:
    """The client's address: the connection's, or the one a trusted reverse proxy names."""
    return connection.client.host if connection.client is not None else "unknown"


def language_of(lang: str | None = None) -> str:
    """The language asked (``?lang=fr|en|de``); French by default."""
    return lang if lang in LANGUAGES else DEFAULT_LANGUAGE


LANGUAGE_COOKIE = "tresfute_lang"  # the header's choice, which the page sets


def request_language(connection: HTTPConnection) -> str:
    """The language a request (or a WebSocket) is answered in: the one it asks (``?lang=``), else
    the one chosen in the page's header (its cookie), else the first of the browser's
    (``Accept-Language``) that tresfute speaks, else the server's (``serve --lang``), else French."""
    for asked in (connection.query_params.get("lang"), connection.cookies.get(LANGUAGE_COOKIE)):
        if asked in LANGUAGES:
            return asked
    for tag in accepted_languages(connection.headers.get("accept-language", "")):
        if tag in LANGUAGES:
            return tag
    app = connection.scope.get("app")
    default = getattr(app.state, "language", None) if app is not None else None
    return default if default in LANGUAGES else DEFAULT_LANGUAGE


def accepted_languages(header: str) -> list[str]:
    """An ``Accept-Language`` header's languages (``de-DE`` as ``de``), most wanted first."""
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")[:20]):
        tag, _sep, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag and quality > 0:
            weighted.append((-quality, index, tag.split("-")[0].lower()))
    return [tag for _q, _i, tag in sorted(weighted)]


def language_dep(connection: HTTPConnection, lang: str | None = None) -> str:
    """The request's language (:func:`request_language`); ``lang`` is named for the API's description."""
    return request_language(connection)


async def in_game_thread(language: str, work: Callable[[], Result]) -> Result:
    """``work()`` in a game thread (computer players think there, a table's lock may be held),
    its messages in ``language``."""

    def run() -> Result:
        with use_language(language):
            return work()

    result: Result = await run_in_game_thread(run)
    return result


def seat_token_needed(token: str | None, language: str) -> str:
    """The seat's token, which the request must carry (401 without it)."""
    if token is None:
        with use_language(language):
            raise TableError(401, _("this request needs the seat's token"))
    return token


ServerDep = Annotated[Server, Depends(server_of)]
LanguageDep = Annotated[str, Depends(language_dep)]
AddressDep = Annotated[str, Depends(client_address)]
SeatToken = Annotated[Token | None, Header(alias="x-seat-token")]
PlayerToken = Annotated[Token | None, Header(alias="x-player-token")]


def required_seat_token(language: LanguageDep, x_seat_token: SeatToken = None) -> str:
    return seat_token_needed(x_seat_token, language)


RequiredSeatToken = Annotated[str, Depends(required_seat_token)]

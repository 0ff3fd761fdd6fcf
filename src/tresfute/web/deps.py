"""What the routes share: the :class:`Server` (the host, the daily challenge, the listening pages),
and the FastAPI dependencies that hand it, the request's language and its tokens to a route."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, TypeVar

from fastapi import Depends, Header
from starlette.requests import HTTPConnection

from ..i18n import LANGUAGES, _, use_language
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
    """The language asked (``?lang=fr|en``); French by default."""
    return lang if lang in LANGUAGES else "fr"


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
LanguageDep = Annotated[str, Depends(language_of)]
AddressDep = Annotated[str, Depends(client_address)]
SeatToken = Annotated[Token | None, Header(alias="x-seat-token")]
PlayerToken = Annotated[Token | None, Header(alias="x-player-token")]


def required_seat_token(language: LanguageDep, x_seat_token: SeatToken = None) -> str:
    return seat_token_needed(x_seat_token, language)


RequiredSeatToken = Annotated[str, Depends(required_seat_token)]

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
from .computers import Computers
from .limits import Guard
from .listeners import Listeners
from .models import Token, shown_name
from .tables import Host, Table, TableError
from .threads import run_in_game_thread

Result = TypeVar("Result")


@dataclass
class Server:
    """One server process's games: its host (the tables and their store), the daily challenge
    built on it, the pages listening to each table, the limits each client address meets, and
    who plays the computer players once a request is answered."""

    host: Host
    daily: DailyChallenge
    listeners: Listeners
    guard: Guard
    computers: Computers

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
    """The language asked (``?lang=fr|en|de``, a hello's ``lang``); French by default."""
    return lang if lang in LANGUAGES else DEFAULT_LANGUAGE


LANGUAGE_COOKIE = "tresfute_lang"  # the header's choice, which the page sets


def accepted_languages(header: str) -> list[str]:
    """An ``Accept-Language`` header's languages (``de-DE`` as ``de``), most wanted first (by
    their weights, then their order; those weighted 0 or unreadable left out)."""
    weighted: list[tuple[float, int, str]] = []
    for order, part in enumerate(header.split(",")[:20]):
        tag, *parameters = part.split(";")
        weight = 1.0
        for parameter in parameters:
            name, _equals, value = parameter.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        language = tag.strip().lower().split("-")[0]
        if language and weight > 0:  # NaN is not > 0
            weighted.append((-weight, order, language))
    return [language for _weight, _order, language in sorted(weighted)]


def accepted_language(header: str | None) -> str | None:
    """The language the server speaks that an ``Accept-Language`` header prefers, or None:
    ``en-GB,fr;q=0.8`` -> ``en``."""
    return next((tag for tag in accepted_languages(header or "") if tag in LANGUAGES), None)


def chosen_language(
    asked: str | None, accept_language: str | None, server: str | None, cookie: str | None = None
) -> str:
    """The language of a request's answers and errors, chosen here only: ``asked`` (``?lang=``)
    when it names a language the server speaks; else the page header's choice (its cookie);
    else the one ``Accept-Language`` prefers; else the server's (``tresfute serve --lang``,
    ``create_app(language=…)``); else French."""
    for named in (asked, cookie):
        if named in LANGUAGES:
            return str(named)
    return accepted_language(accept_language) or language_of(server)


def request_language(connection: HTTPConnection) -> str:
    """:func:`chosen_language` for a request or a WebSocket."""
    server = getattr(connection.app.state, "language", None)
    return chosen_language(
        connection.query_params.get("lang"),
        connection.headers.get("accept-language"),
        server,
        connection.cookies.get(LANGUAGE_COOKIE),
    )


def language_dependency(connection: HTTPConnection, lang: str | None = None) -> str:
    """:func:`request_language` for a route (``lang``: so that the API's description lists it)."""
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
LanguageDep = Annotated[str, Depends(language_dependency)]
AddressDep = Annotated[str, Depends(client_address)]
SeatToken = Annotated[Token | None, Header(alias="x-seat-token")]
PlayerToken = Annotated[Token | None, Header(alias="x-player-token")]


def required_seat_token(language: LanguageDep, x_seat_token: SeatToken = None) -> str:
    return seat_token_needed(x_seat_token, language)


RequiredSeatToken = Annotated[str, Depends(required_seat_token)]


@dataclass(frozen=True)
class Asker:
    """Who asks for something made under a person's name (a game, a challenge entry, a seat
    taken): the server, the request's language, the client's address, and the player's secret
    (``X-Player-Token``) if the request carries one."""

    server: Server
    language: str
    address: str
    player_token: str | None

    def admit(self, kind: str, names: list[str]) -> list[str]:
        """The ``names`` as they are shown (:func:`~.models.shown_name`), once each is a name (422
        otherwise); then the request is counted against the address's allowance of ``kind`` (429
        beyond it). Both before anything is read or stored, in the request's language."""
        shown = [shown_name(name) for name in names]
        with use_language(self.language):
            if None in shown:
                raise TableError(422, _("choose a name"))
            self.server.guard.spend(kind, self.address)
        return [name for name in shown if name is not None]


def asker(server: ServerDep, language: LanguageDep, address: AddressDep, x_player_token: PlayerToken = None) -> Asker:
    return Asker(server, language, address, x_player_token)


AskerDep = Annotated[Asker, Depends(asker)]

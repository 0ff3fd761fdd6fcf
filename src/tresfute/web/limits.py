"""Limits for a public site: what one client address may create or take per minute, how many
pages it may keep open, how long an open table waits for a person, and how long finished and
abandoned games are kept.

Each server process counts for itself: with ``--workers N`` an address may create up to N times
the limit a minute (the reverse proxy can hold a site-wide limit: docs/deploy.md). The address
is the connection's, or the one a trusted reverse proxy names (uvicorn's ``--forwarded-allow-ips``).
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

import anyio

from ..i18n import _
from ..settings import SettingError
from .store import Store
from .tables import Host, TableError

if TYPE_CHECKING:
    from .computers import Computers

SECONDS_PER_DAY = 86_400.0


def variable(limit: str) -> str:
    """The environment variable that sets a limit: ``TRESFUTE_GAMES_PER_MINUTE``…"""
    return f"TRESFUTE_{limit.upper()}"


@dataclass(frozen=True)
class Limits:
    """Each limit is per client address; 0 lifts it."""

    games_per_minute: int = 20  # games created (not listed)
    tables_per_minute: int = 5  # open tables (listed on the home page)
    entries_per_minute: int = 6  # daily challenge entries
    players_per_minute: int = 10  # new players (their progress page's secret)
    joins_per_minute: int = 10  # seats taken at open tables
    practice_per_minute: int = 20  # practice moves judged (each a third of a second's work)
    sockets_per_address: int = 40  # pages open at once (each game's page holds a WebSocket)
    keep_finished_days: float = 365.0  # finished games are forgotten after this (challenge entries never)
    keep_abandoned_days: float = 30.0  # unfinished games without a change for this long are forgotten
    idle_seat_minutes: float = 10.0  # an open table's seat waited for this long goes to a computer player

    @classmethod
    def from_environment(cls, environment: Mapping[str, str] = os.environ) -> Limits:
        """The limits the environment sets (``TRESFUTE_GAMES_PER_MINUTE=…``), the defaults elsewhere."""
        given: dict[str, float] = {}
        for field in fields(cls):
            text = environment.get(variable(field.name))
            if text is None or not text.strip():
                continue
            try:
                value = float(text) if field.type == "float" else int(text)
            except ValueError:
                message = _("{variable}={value}: not a number")
                raise SettingError(message.format(variable=variable(field.name), value=repr(text))) from None
            if value < 0:
                message = _("{variable}={value}: a limit is 0 (none) or more")
                raise SettingError(message.format(variable=variable(field.name), value=repr(text)))
            given[field.name] = value
        return cls(**given)  # type: ignore[arg-type]


class TooManyError(TableError):
    """Refused by a limit (429, or 503 for a page: WebSocket refusals have no 429); nothing was done."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(429, message)
        self.headers = {"Retry-After": str(retry_after)}


class PerMinute:
    """At most ``count`` a minute for each address, in bursts of up to ``count`` (a token bucket
    that fills back at ``count`` a minute); an address whose bucket is full is not remembered."""

    def __init__(self, count: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.count = count
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # address: (tokens, when counted)
        self._lock = threading.Lock()

    def take(self, address: str) -> float:
        """Count one for ``address``: 0 if allowed, else the seconds before the next is."""
        if self.count <= 0:
            return 0.0
        rate = self.count / 60.0
        now = self.clock()
        with self._lock:
            tokens, then = self._buckets.get(address, (float(self.count), now))
            tokens = min(float(self.count), tokens + (now - then) * rate)
            if tokens < 1.0:
                self._buckets[address] = (tokens, now)
                return (1.0 - tokens) / rate
            self._buckets[address] = (tokens - 1.0, now)
            if len(self._buckets) > 10_000:
                self._forget_full(now, rate)
        return 0.0

    def _forget_full(self, now: float, rate: float) -> None:
        """Drop the addresses whose bucket has filled back: they are as new ones."""
        for address, (tokens, then) in list(self._buckets.items()):
            if tokens + (now - then) * rate >= self.count:
                del self._buckets[address]


class OpenSockets:
    """How many WebSockets each address holds open."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: dict[str, int] = {}

    @contextlib.contextmanager
    def held(self, address: str) -> Iterator[bool]:
        """While the socket is open; yields whether the address may open it."""
        count = self._open.get(address, 0)
        if 0 < self.limit <= count:
            yield False
            return
        self._open[address] = count + 1
        try:
            yield True
        finally:
            left = self._open[address] - 1
            if left:
                self._open[address] = left
            else:
                del self._open[address]


class Guard:
    """The limits of one server process, as the routes check them."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.rates = {
            "games": PerMinute(limits.games_per_minute, clock),
            "tables": PerMinute(limits.tables_per_minute, clock),
            "entries": PerMinute(limits.entries_per_minute, clock),
            "players": PerMinute(limits.players_per_minute, clock),
            "joins": PerMinute(limits.joins_per_minute, clock),
            "practice": PerMinute(limits.practice_per_minute, clock),
        }
        self.sockets = OpenSockets(limits.sockets_per_address)

    def spend(self, kind: str, address: str) -> None:
        """Count a creation of ``kind`` by ``address``, or refuse it (429), before anything is stored."""
        wait = self.rates[kind].take(address)
        if wait <= 0:
            return
        seconds = max(1, math.ceil(wait))
        messages = {
            "games": _("too many new games from your connection: try again in {seconds} s"),
            "tables": _("too many open tables from your connection: try again in {seconds} s"),
            "entries": _("too many challenge entries from your connection: try again in {seconds} s"),
            "players": _("too many new players from your connection: try again in {seconds} s"),
            "joins": _("too many seats taken from your connection: try again in {seconds} s"),
            "practice": _("too many practice moves from your connection: try again in {seconds} s"),
        }
        raise TooManyError(messages[kind].format(seconds=seconds), seconds)


async def forget_finished(
    store: Store, days: float, wall_clock: Callable[[], float], every: float = 3600.0, abandoned_days: float = 0.0
) -> None:
    """Forget the games finished more than ``days`` ago, and the unfinished ones that have not
    changed for ``abandoned_days`` (0: kept for ever, either), now and then every ``every``
    seconds (each server process does it: forgetting twice is forgetting once)."""

    def moment(age: float) -> float | None:
        return wall_clock() - age * SECONDS_PER_DAY if age > 0 else None

    while True:
        try:
            forgotten = await anyio.to_thread.run_sync(store.purge_finished, moment(days), moment(abandoned_days))
        except Exception:  # the database is away: next time
            logging.getLogger(__name__).warning("could not forget the old games", exc_info=True)
        else:
            if forgotten:
                message = "forgot %d games finished over %g days ago or abandoned for %g days"
                logging.getLogger(__name__).info(message, forgotten, days, abandoned_days)
        await anyio.sleep(every)


async def replace_idle_seats(host: Host, computers: Computers, minutes: float, every: float = 60.0) -> None:
    """Every ``every`` seconds, hand to a computer player the seats of open tables waited for
    ``minutes`` or more (:meth:`~.tables.Host.replace_idle_seats`), whose tables then play on
    (each server process does it: the store's revision lets one hand each seat)."""
    while True:
        try:
            tables = await anyio.to_thread.run_sync(host.replace_idle_seats, minutes * 60.0)
        except Exception:  # the database is away: next time
            logging.getLogger(__name__).warning("could not look for idle seats", exc_info=True)
        else:
            for table in tables:
                computers.start(table)
        await anyio.sleep(every)

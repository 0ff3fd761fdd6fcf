"""The pages listening on WebSockets, and how each learns of a change: the change made by one of
this server's requests is sent with the view that request made; another server's comes through
the database's notices (:func:`forward_changes`). Nothing here waits on a page: each has an
:class:`Outbox`, emptied by a task of its own."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from fastapi import WebSocket

from .models import JSON_OBJECT
from .store import Change, StoreUnavailableError
from .tables import Host, Table
from .threads import run_in_game_thread

OWN_CHANGE_WAIT = 0.2  # seconds a server leaves its own change to the request that made it
OUTBOX_SIZE = 64  # messages waiting for one page, at most: a page further behind is closed
SEND_TIMEOUT = 10.0  # seconds a page may take to accept one message before it is closed


class Outbox:
    """The messages for one page, sent in their order by a task of its own: whoever sends only
    queues them, and never waits on a slow, stalled or hostile page (one page that stopped
    reading held every other page's change, and the move that made it, for tens of seconds).
    A page that falls :data:`OUTBOX_SIZE` messages behind, or takes more than
    :data:`SEND_TIMEOUT` seconds over one, is given up: ``closed`` is set, the socket's handler
    ends, and a live page connects again and reads the game as it stands."""

    def __init__(self, socket: WebSocket) -> None:
        self.socket = socket
        self.closed = asyncio.Event()
        self._queue: asyncio.Queue[str] = asyncio.Queue(OUTBOX_SIZE)
        self._loop = asyncio.get_running_loop()
        self._writer = self._loop.create_task(self._write())

    def put(self, text: str) -> None:
        """Queue ``text`` for the page (nothing once the page is given up). From another event
        loop than the page's (a test client runs each socket on a loop of its own), it is handed
        to the page's loop: an asyncio queue is not for two threads."""
        if self._handed_over(self.put, text):
            return
        if self.closed.is_set():
            return
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close()

    def put_json(self, message: dict[str, Any]) -> None:
        """Queue ``message``, written as Starlette's ``send_json`` writes it."""
        self.put(json.dumps(message, separators=(",", ":"), ensure_ascii=False))

    def close(self) -> None:
        if self._handed_over(self.close):
            return
        self.closed.set()
        self._writer.cancel()

    def _handed_over(self, method: Callable[..., None], *args: str) -> bool:
        """Whether the caller runs off the page's event loop: then ``method(*args)`` is handed to it."""
        try:
            running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self._loop:
            return False
        self._loop.call_soon_threadsafe(method, *args)
        return True

    async def _write(self) -> None:
        try:
            while True:
                text = await self._queue.get()
                await asyncio.wait_for(self.socket.send_text(text), SEND_TIMEOUT)
        except asyncio.CancelledError:
            raise
        except Exception:  # too slow, or the socket closed
            self.closed.set()


@dataclass(frozen=True)
class Listener:
    seat: int | None
    language: str
    outbox: Outbox


class Listeners:
    """The WebSockets watching each table, each with its seat, language and outbox."""

    def __init__(self) -> None:
        self._by_table: dict[str, dict[WebSocket, Listener]] = {}
        self._sent: dict[str, int] = {}  # the revision each table's listeners last got

    def add(self, table_id: str, socket: WebSocket, seat: int | None, language: str) -> Outbox:
        """Listen to the table; returns the page's outbox, by which everything it is sent goes."""
        outbox = Outbox(socket)
        self._by_table.setdefault(table_id, {})[socket] = Listener(seat, language, outbox)
        return outbox

    def remove(self, table_id: str, socket: WebSocket) -> None:
        listening = self._by_table.get(table_id)
        if listening is not None:
            listener = listening.pop(socket, None)
            if listener is not None:
                listener.outbox.close()
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

    async def publish(
        self, host: Host, table: Table, known: KnownView | None = None, answered: WebSocket | None = None
    ) -> None:
        """Send the table's state to its pages: one view (serialized once) for each seat and
        language among them; ``known`` is one already made, the mover's (its page gets the same
        state in the move's answer, and again here, as its other pages do). ``answered``: the
        page whose move it was, sent on its socket, which gets the state in its answer instead."""
        listening = list(self._by_table.get(table.id, {}).items())
        revision = table.stored.revision
        if not listening or self.has(table.id, revision):
            return  # nobody, or already sent (a change made here comes back from the database's notice)
        texts: dict[tuple[int | None, str], bytes] = {}
        if known is not None and known.revision == revision:
            texts[known.seat, known.language] = known.body
        await self._send(host, table, revision, texts, answered)

    async def update(self, host: Host, table_id: str, changes: list[Change | None]) -> None:
        """Bring the table up to ``changes`` (another server's) and send its new state to its
        pages, both in one game thread: under load, each trip waits behind the moves queued."""
        wanted = {(who.seat, who.language) for who in self._by_table.get(table_id, {}).values()}
        if not wanted:
            return

        def work() -> tuple[Table, int, dict[tuple[int | None, str], bytes]]:
            table = host.told(table_id, changes)
            with table.lock:  # the views of the revision said
                return table, table.stored.revision, _views(host, table, wanted)

        table, revision, texts = await run_in_game_thread(work)
        await self._send(host, table, revision, texts)

    async def _send(
        self,
        host: Host,
        table: Table,
        revision: int,
        texts: dict[tuple[int | None, str], bytes],
        answered: WebSocket | None = None,
    ) -> None:
        """Send ``revision``'s state to the table's pages but ``answered``: ``texts`` are the
        views made already, by seat and language; the others' are made here. The messages are
        only queued: no page waits on another."""
        listening = [
            ((who.seat, who.language), who.outbox)
            for socket, who in self._by_table.get(table.id, {}).items()
            if socket is not answered
        ]
        missing = {who for who, _outbox in listening} - texts.keys()
        if missing:  # not made yet, or a page of another seat or language came meanwhile
            texts = {**texts, **await run_in_game_thread(_views, host, table, missing)}
        if self.has(table.id, revision):
            return  # this one, or a newer one, has gone out meanwhile
        self._sent[table.id] = revision
        messages = {who: state_message(texts[who]) for who, _outbox in listening}
        for who, outbox in listening:
            outbox.put(messages[who])


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
            except StoreUnavailableError:  # the database is away: read the game whole in a second
                asyncio.get_running_loop().call_later(1.0, tell, game_id, None, True)
            except Exception:  # that table's pages miss this change; the others' do not
                logging.getLogger(__name__).exception("could not tell the pages of %s", game_id)
            changes, told[game_id] = told[game_id], []
        del told[game_id]

    log = logging.getLogger(__name__)
    lost = False  # said once in the log, until the notices come again
    try:
        while True:
            try:
                async for change in changes():
                    # None: listening (again), or a notice not understood: every watched table
                    # may have changed unheard
                    if change is None and lost:
                        lost = False
                        log.warning("hearing the database's notices again")
                    changed = listeners.tables() if change is None else [change.game_id]
                    for game_id in filter(listeners.watched, changed):
                        tell(game_id, change)
            except asyncio.CancelledError:
                raise
            except Exception:
                if not lost:
                    log.exception("lost the database's notices; listening again every second")
                lost = True
                await asyncio.sleep(1)
    finally:
        stopped.set()
        for update in list(updates):
            update.cancel()

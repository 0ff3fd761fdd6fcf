"""The computer players' turns at this server's tables: played once the request that handed
them the turn has been answered, one decision at a time in a game thread, each sent to the
table's pages as it is played (a person's move waited 0.6-3 s for them before)."""

from __future__ import annotations

import asyncio
import logging

from fastapi import WebSocket

from .listeners import KnownView, Listeners
from .tables import Host, Table
from .threads import run_in_game_thread


class Computers:
    """Who plays each table's computer players now: one call at a time a table."""

    def __init__(self, host: Host, listeners: Listeners) -> None:
        self.host = host
        self.listeners = listeners
        self._playing: dict[str, bool] = {}  # the tables being played: whether they were asked again meanwhile
        self._tasks: set[asyncio.Task[None]] = set()

    async def play(self, table: Table, known: KnownView | None = None, answered: WebSocket | None = None) -> None:
        """Tell the table's pages of its change (``known``, ``answered``: as
        :meth:`~.listeners.Listeners.publish` takes them), then play the computer players'
        decisions that follow, each told as it is played. A call made while another plays the
        table leaves it to that one, which looks again before it stops."""
        host, listeners = self.host, self.listeners
        await listeners.publish(host, table, known, answered)
        if table.id in self._playing:
            self._playing[table.id] = True
            return
        self._playing[table.id] = False
        try:
            while True:
                while await run_in_game_thread(host.play_next, table):
                    await listeners.publish(host, table)
                if not self._playing[table.id]:
                    return
                self._playing[table.id] = False
        except Exception:  # this table's computers wait for the next request; the server goes on
            logging.getLogger(__name__).exception("the computer players of %s could not play", table.id)
        finally:
            del self._playing[table.id]

    def start(self, table: Table, known: KnownView | None = None, answered: WebSocket | None = None) -> None:
        """:meth:`play` in a task of its own (a WebSocket's change: its page reads on)."""
        task = asyncio.get_running_loop().create_task(self.play(table, known, answered))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

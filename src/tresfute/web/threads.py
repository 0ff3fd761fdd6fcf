"""The game threads: where game work (moves, computer players' thinking, views) leaves the
event loop. The engine is pure Python, so a few threads are enough: more would only take turns on
the interpreter lock."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import os
import queue
import threading
from collections.abc import Callable
from typing import Any

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


game_threads = GameThreads(GAME_THREADS)
run_in_game_thread = game_threads.run

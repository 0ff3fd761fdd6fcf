"""Game reviews for the page, without HTTP: who may ask for one, the computation in the
background with its progress, and the moves written in the reader's language.

A review (``bots.review``) takes seconds: it is computed in a game thread, at most
:data:`REVIEWS_AT_ONCE` at a time (so that the other game threads stay free for moves), and
stored with the game (``store.reviewed``): every later request reads it. While it runs, this
process knows how far it has gone; a request to another server process sharing the database
sees it only once it is stored.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from .. import records
from ..bots.review import FORMAT, ReviewError, computer_choices
from ..i18n import N_, _, use_language
from ..review_text import label_word
from ..rules import Game, parse_move
from ..text import bot_name, describe_move
from .days import closes
from .store import reviewed
from .tables import Host, Table, TableError, move_view

REVIEWS_AT_ONCE = 1  # of the game threads (threads.GAME_THREADS), those a review may take


@dataclass
class Progress:
    """A review under way: ``done`` decisions of ``total`` (0 until the first is counted)."""

    done: int = 0
    total: int = 0
    error: str | None = None  # the English sentence of a review that failed, with its params
    params: dict[str, object] | None = None


def refused(error: ReviewError) -> TableError:
    """A review refused (a game not finished, no such player), in the reader's language."""
    return TableError(409, _(error.template).format(**error.params))


class Reviews:
    """The reviews one server process is computing, by game and seat."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.running: dict[tuple[str, int], Progress] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._turns: asyncio.Semaphore | None = None  # made in the event loop that uses it

    def seat_asked(self, table: Table, seat: int | None, player: int | None) -> int:
        """The seat to review: the token's own (``seat``), else ``player`` (from 1; the first by
        default). A challenge entry is reviewed only once its day is over (the review shows the
        strong player's choices on the day's dice), an unfinished game never."""
        stored = table.stored
        with table.lock:
            over = table.game.is_over
        if not over:
            raise refused(ReviewError("the game is not finished: only a finished game is reviewed"))
        if stored.challenge is not None and self.host.wall_clock() < closes(stored.challenge):
            raise TableError(409, _("a challenge entry is reviewed once its day is over"))
        if seat is not None and player is None:
            return seat
        chosen = (player or 1) - 1
        if not 0 <= chosen < len(stored.seats):
            raise refused(
                ReviewError("there is no player {n} in this game of {players}", n=chosen + 1, players=len(stored.seats))
            )
        return chosen

    def stored(self, game_id: str, seat: int) -> dict[str, Any] | None:
        """The stored review, if there is one (a read: nothing is computed)."""
        found = self.host.store.load_review(game_id, seat, FORMAT)
        if found is None:
            return None
        data: dict[str, Any] = json.loads(found)
        return data

    def start(self, game_id: str, seat: int, run: Callable[[Callable[[], None]], Awaitable[None]]) -> Progress:
        """Start computing the review in the background (``run`` hands the work to a game
        thread), unless it is already under way here; its progress."""
        key = (game_id, seat)
        progress = self.running.get(key)
        if progress is not None:
            return progress
        progress = self.running[key] = Progress()
        if self._turns is None:
            self._turns = asyncio.Semaphore(REVIEWS_AT_ONCE)
        turns = self._turns

        def told(done: int, total: int) -> None:
            progress.done, progress.total = done, total

        def work() -> None:
            try:
                reviewed(self.host.store, game_id, seat, told)
            except ReviewError as error:
                progress.error, progress.params = error.template, dict(error.params)
            except Exception as error:  # a record that does not replay, the database away
                progress.error, progress.params = N_("the review failed: {problem}"), {"problem": str(error)}

        async def background() -> None:
            try:
                async with turns:
                    await run(work)
            finally:
                if progress.error is None:
                    self.running.pop(key, None)

        task = asyncio.get_running_loop().create_task(background())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return progress

    def answer(self, game_id: str, seat: int, language: str) -> dict[str, Any]:
        """What a request is told: the review (its moves in words), or how far it has gone,
        or ``{"status": "none"}`` when nobody asked for it yet."""
        progress = self.running.get((game_id, seat))
        if progress is not None and progress.error is not None:
            self.running.pop((game_id, seat), None)  # told once; asking again tries again
            with use_language(language):
                raise TableError(409, _(progress.error).format(**(progress.params or {})))
        data = self.stored(game_id, seat)
        if data is not None:
            return in_words(self.host, game_id, data, language)
        if progress is not None:
            return {"status": "running", "done": progress.done, "total": progress.total}
        return {"status": "none"}


def in_words(host: Host, game_id: str, data: dict[str, Any], language: str) -> dict[str, Any]:
    """The stored review with each decision's moves as the page shows them (``played_move``,
    ``best_move``: the move's words, die, area and cell, as in a view's ``legal``) and its words
    (``played_text``, ``best_text``, ``label_text``) in ``language``, and the seat's name."""
    stored = host.store.load(game_id)
    if stored is None:
        raise TableError(404, _("no such game"))
    wanted = {d["move_number"]: d for d in data["decisions"]}
    game = Game(stored.game, players=len(stored.seats), dice="external", rules=stored.rules)
    with use_language(language):
        for number, entry in enumerate(stored.moves, start=1):
            seat, text = records.split_entry(entry)
            decision = wanted.get(number)
            if decision is not None:
                for key in ("played", "best"):
                    shown = move_view(game, parse_move(decision[key]))
                    decision[f"{key}_move"] = shown
                    decision[f"{key}_text"] = describe_move(game, parse_move(decision[key]))
                decision["label_text"] = label_word(decision["label"])
            game.play(parse_move(text), seat)
        data["label_words"] = {name: label_word(name) for name in data["labels"]}
    data["status"] = "done"
    return data


def choices(host: Host, game_id: str, token: str, language: str) -> list[dict[str, Any]]:
    """What the greedy and the strong computer players would play in the seat's position, each
    with its expected final score (refused in the daily challenge, as hints are)."""
    seat, game = host.position_to_advise(game_id, token)
    try:
        found = computer_choices(game, seat)
    except ReviewError as error:
        raise refused(error) from None
    with use_language(language):
        return [
            {
                "bot": c.bot,
                "bot_label": bot_name(c.bot),
                "move": str(c.move),
                "label": describe_move(game, c.move),
                "expected": round(c.expected, 1),
            }
            for c in found
        ]

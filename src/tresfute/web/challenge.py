"""The daily challenge: every day, one solo game per game type on the same dice for everyone.

A day (UTC) has one secret per game type, drawn when it is first asked for; its SHA-256 is
published from then on (every entry's view carries it as its commitment) and the secret itself
only once the day is over, so that anyone can then check every entry's dice with the usual
fair-dice check (``fair_dice.check_record``), and nobody can know them before. Each entry is
an ordinary hosted game whose secret is the day's: its rolls come from ``fair_dice`` as every
game's do.

How it works, at length: docs/design-web.md (web/challenge.py).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import threading
import time
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from .. import fair_dice, records
from ..bots import make_bot
from ..i18n import _
from ..rules import CHANCE, SPECS, Game
from .days import closes, day_of
from .models import shown_name
from .store import Entry, StoredGame, token_hash
from .tables import Host, SeatRequest, Table, TableError

DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _is_day(text: str) -> bool:
    """``YYYY-MM-DD`` and a date of the calendar (not 2025-02-30)."""
    try:
        return DAY.match(text) is not None and bool(date.fromisoformat(text))
    except ValueError:
        return False


def seat_token(player: str, day: str, game: str) -> str:
    """The seat token of ``player``'s entry of ``day``'s challenge of ``game``: an HMAC keyed by the
    player's secret (one entry per game a day), from which the secret cannot be worked back."""
    digest = hmac.new(player.encode(), f"tresfute challenge seat {day} {game}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def play_alone(game_id: str, bot_name: str, secret: str) -> Game:
    """A computer player's solo game on the dice ``secret`` gives, derived as every game's are."""
    game = records.replay(records.Record(game=game_id, players=["bot"], dice="external", moves=[]))
    bot = make_bot(bot_name, 0)
    while not game.is_over:
        if game.to_move == CHANCE:
            game.play(fair_dice.next_roll(game, secret))
        else:
            player = game.players_to_move[0]
            game.play(bot.choose(game, player), player)
    return game


class DailyChallenge:
    """The challenges of every day, over a :class:`Host` (and its store)."""

    def __init__(self, host: Host, bot: str = "strong", clock: Callable[[], float] | None = None) -> None:
        self.host = host
        self.bot = bot
        self.clock = clock or host.wall_clock
        self._computing: set[tuple[str, str]] = set()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    def today(self) -> str:
        return day_of(self.clock())

    def _day(self, day: str | None, today: str) -> str:
        if day is None:
            return today
        if not _is_day(day):
            raise TableError(422, _("not a day: {day}").format(day=day))
        if day > today:
            raise TableError(404, _("this day's challenge has not begun"))
        return day

    def _game(self, game: str) -> str:
        if game not in SPECS:
            raise TableError(404, _("no such game"))
        return game

    def start(self, game: str, name: str, player: str | None, language: str) -> tuple[Table, str, str]:
        """``name``'s entry in today's challenge of ``game``; returns the table, its seat token and
        the player's token (a new one when ``player`` is None)."""
        game = self._game(game)
        shown = shown_name(name)
        if shown is None:
            raise TableError(422, _("choose a name"))
        name = shown
        player = player or secrets.token_urlsafe(24)
        day = self.today()
        secret, _strong = self.host.store.challenge_secret(day, game, fair_dice.new_secret())
        table, tokens = self.host.create(
            game,
            [SeatRequest(name)],
            language=language,
            challenge=(day, secret, token_hash(player)),
            token=seat_token(player, day, game),
        )
        assert tokens[0] is not None
        return table, tokens[0], player

    def reopen(self, game_id: str, player: str | None) -> tuple[StoredGame, str]:
        """The player's own entry ``game_id`` and its seat token, for any browser that holds the
        player's secret: 401 without one, 404 for no such entry, 403 for another player's entry,
        409 for an entry begun before seat tokens were derived (only its first browser has it)."""
        if player is None:
            raise TableError(401, _("this request needs the player's secret (X-Player-Token)"))
        stored = self.host.store.load(game_id)
        if stored is None or stored.challenge is None:
            raise TableError(404, _("no such challenge entry"))
        seat = stored.seats[0]
        if seat.player_hash != token_hash(player):
            raise TableError(403, _("this challenge entry is another player's"))
        token = seat_token(player, stored.challenge, stored.game)
        if seat.token_hash != token_hash(token):
            raise TableError(409, _("this entry can only be reopened in the browser where it was begun"))
        return stored, token

    def board(self, game: str, day: str | None, player: str | None) -> dict[str, Any]:
        """The day's challenge of ``game``: its published hash (the secret once the day is over),
        the ranking, the strong computer player's place, and the asking player's entry."""
        today = self.today()  # read once: a request at midnight sees one day
        game, day = self._game(game), self._day(day, today)
        if day == today:
            secret, strong = self.host.store.challenge_secret(day, game, fair_dice.new_secret())
        else:  # a day gone by is not drawn now (nobody asked for it that day): its secret would be shown at once
            found = self.host.store.challenge(day, game)
            if found is None:
                raise TableError(404, _("there was no challenge of this game that day"))
            secret, strong = found
        closed = self.clock() >= closes(day)
        ranking = self.host.store.ranking(day, game)
        if strong is None:
            self._compute_strong(day, game, secret)
        mine = [e for e in self.history(player) if e.day == day and e.game == game] if player else []
        before = (date.fromisoformat(day) - timedelta(days=1)).isoformat()
        previous = self.host.store.challenge(before, game)
        return {
            "day": day,
            "today": today,
            "game": game,
            "commitment": fair_dice.commitment(secret),
            "secret": secret if closed else None,
            "closed": closed,
            "closes": closes(day),
            "entries": [
                {"rank": _rank(ranking, e.score), "name": e.name, "score": e.score, "id": e.game_id} for e in ranking
            ],
            "strong": None if strong is None else {"score": strong, "rank": _rank(ranking, strong)},
            "you": entry_view(mine[0]) if mine else None,
            # the day before, over: its secret, for checking its dice (None if none was drawn)
            "yesterday": None if previous is None else {"day": before, "secret": previous[0]},
        }

    def history(self, player: str | None) -> list[Entry]:
        return self.host.store.history(token_hash(player)) if player else []

    def may_watch(self, table: Table, player: str | None) -> bool:
        """Before its day is over, a challenge entry may be watched (its dice seen) only by a
        player who has finished their own entry of that day's game."""
        stored = table.stored
        if stored.challenge is None or self.clock() >= closes(stored.challenge):
            return True
        return any(
            e.day == stored.challenge and e.game == stored.game and e.score is not None for e in self.history(player)
        )

    def _compute_strong(self, day: str, game: str, secret: str) -> None:
        """The computer player's game takes seconds: played once, in the background."""
        with self._lock:
            if (day, game) in self._computing:
                return
            self._computing.add((day, game))

        def work() -> None:
            try:
                self.host.store.set_strong_score(day, game, play_alone(game, self.bot, secret).scores()[0].total)
            finally:
                with self._lock:
                    self._computing.discard((day, game))

        thread = threading.Thread(target=work, daemon=True, name=f"challenge-{day}-{game}")
        self._threads.append(thread)
        thread.start()

    def wait_idle(self, timeout: float = 60.0) -> None:
        """Until the computer players' games under way are done (before closing the store)."""
        for thread in list(self._threads):
            thread.join(timeout)
        self._threads = [t for t in self._threads if t.is_alive()]

    def wait_for_strong(self, day: str, game: str, timeout: float = 60.0) -> None:
        """Until the computer player's score of that day is known (for tests and scripts)."""
        deadline = time.monotonic() + timeout
        secret, strong = self.host.store.challenge_secret(day, game, fair_dice.new_secret())
        if strong is None:
            self._compute_strong(day, game, secret)
        while self.host.store.challenge_secret(day, game, secret)[1] is None:
            if time.monotonic() > deadline:
                raise TimeoutError(f"no computer player's score for {day} {game}")
            time.sleep(0.05)


def _rank(ranking: list[Entry], score: int | None) -> int:
    """1 + how many entries scored more (ties share a rank)."""
    return 1 + sum(1 for e in ranking if e.score is not None and score is not None and e.score > score)


def entry_view(entry: Entry) -> dict[str, Any]:
    return {"day": entry.day, "game": entry.game, "name": entry.name, "score": entry.score, "id": entry.game_id}

"""Hosted games, without HTTP: who may do what at each table, and every change written first.

A :class:`Host` keeps the tables in memory and their records in a :class:`~.store.Store`.
Every request names a seat by its secret token and carries the seat's ``seq`` (how many times
the seat has acted, undos included): a replayed or stale request does not match and changes
nothing. The engine decides what is legal; this module decides only who may ask.

How it works, at length: docs/design-web.md (web/tables.py).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from .. import records
from ..bots.appraisal import appraise
from ..i18n import _, use_language
from ..rules import (
    CHANCE,
    Game,
    IllegalMoveError,
    Move,
    MoveKind,
    MoveSyntaxError,
    parse_move,
)
from ..text import explain
from .days import closes
from .store import (
    AlreadySeatedError,
    Change,
    EntryRefusedError,
    MoveConflictError,
    Store,
    StoredGame,
    StoreUnavailableError,
    token_hash,
)
from .table import (
    ROLL,
    ConflictError,
    SeatRequest,
    Table,
    TableError,
    _played,
    _table_of,
    _written,
    new_stored,
    replay_stored,
)
from .views import _view, hint_view, move_view, open_table_view, past_view, steps_view

__all__ = [
    "REPLACEMENT_BOT",
    "ROLL",
    "ConflictError",
    "Host",
    "SeatRequest",
    "Table",
    "TableError",
    "move_view",
    "replay_stored",
]

REPLACEMENT_BOT = "greedy"  # who plays an idle seat of an open table (quick to think: no search)
# How far back the look for idle seats goes: a table unchanged for longer has nobody waiting at
# it (else its seat would have been handed then); a seat taken there makes it looked at again.
IDLE_LOOK_BACK = 86_400.0


class Host:
    """Every table of one server: those it has in memory, the others in the store."""

    def __init__(
        self,
        store: Store,
        idle_seconds: float = 1800.0,
        max_tables: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
        computers_later: bool = False,
    ) -> None:
        self.store = store
        # True (the web server): a request plays a person's change and the rolls it asks for,
        # and the computer players think later, one decision at a time (:meth:`play_next`), so
        # that the person's answer never waits for them; False: they play within the request
        self.computers_later = computers_later
        self.wall_clock = wall_clock  # when the daily challenges' days close
        self.idle_seconds = idle_seconds
        self.max_tables = max_tables
        self.clock = clock
        self._tables: OrderedDict[str, tuple[Table, float]] = OrderedDict()  # least recently used first
        self._lock = threading.Lock()

    def in_memory(self) -> int:
        """How many tables this server holds in memory now."""
        with self._lock:
            return len(self._tables)

    # --- tables ------------------------------------------------------------------------

    def create(
        self,
        game_id: str,
        seats: list[SeatRequest],
        real_dice: bool = False,
        language: str = "fr",
        challenge: tuple[str, str, str] | None = None,
        listed: bool = False,
        player_hash: str | None = None,
        rules: dict[str, bool] | None = None,
        token: str | None = None,
    ) -> tuple[Table, list[str | None]]:
        """A new table; returns it and each seat's secret token (None for computer players).
        ``challenge`` (day, its secret, the player's hash) makes it a daily challenge entry.
        ``listed`` makes it an open table: the people's seats after the first are free, listed
        on the home page for anyone to take (they get no token now). ``player_hash``: the player
        (the SHA-256 of their secret) who creates the game, and plays its first person's seat.
        ``rules``: the game's rules options (``Game(rules=...)``), the defaults for those left out.
        ``token``: the first person's seat token, if the caller chose it (a challenge entry's)."""
        stored, tokens = new_stored(game_id, seats, real_dice, language, challenge, listed, player_hash, rules, token)
        try:
            table = _table_of(stored)  # an unknown game, bot or number of players stops here
        except ValueError as exc:
            raise TableError(422, str(exc)) from None
        if challenge is None:
            self.store.create(stored)
        else:
            try:
                self.store.enter(stored, seats[0].name, challenge[2])
            except EntryRefusedError as exc:
                if exc.reason == "name":
                    raise TableError(409, _("this name is taken today by another player: choose another")) from None
                raise TableError(409, _("you have already played today's challenge of this game")) from None
        return self._register(table), tokens

    def join(self, table_id: str, name: str, player_hash: str | None = None) -> tuple[Table, int, str]:
        """Take the first free seat of an open table (for the player ``player_hash``, the SHA-256
        of their secret, if given: one seat a player at a table); returns it and the seat's new
        token. The seat is written, then taken in memory (nothing can fail in between, which
        would leave a seat taken by a token nobody got); a copy older than the store's is
        reloaded first."""
        table = self.table(table_id)
        token = secrets.token_urlsafe(24)
        hashed = token_hash(token)
        seated = TableError(409, _("you have a seat at this table already"))
        with table.lock:
            if player_hash is not None and any(s.player_hash == player_hash for s in table.stored.seats):
                raise seated
            for last_try in (False, True):
                if not table.stored.listed:
                    break
                try:
                    seat = self.store.take_seat(
                        table_id,
                        name,
                        hashed,
                        revision=table.stored.revision,
                        player_hash=player_hash,
                        at=self.wall_clock(),
                    )
                except AlreadySeatedError:  # seated through another server
                    self._reload(table)
                    raise seated from None
                except MoveConflictError:
                    if last_try:
                        raise ConflictError() from None
                    self._reload(table)
                    continue
                if seat is None:
                    break
                taken = table.stored.seats[seat]
                taken.name, taken.token_hash, taken.free, taken.player_hash = name, hashed, False, player_hash
                table.stored.revision += 1
                return table, seat, token
            raise TableError(409, _("this table has no free seat left"))

    def replace_idle_seats(self, idle_seconds: float, bot: str = REPLACEMENT_BOT, limit: int = 100) -> list[Table]:
        """Hand to the computer player ``bot`` the seats of open tables that the game has waited
        for, unchanged, for ``idle_seconds`` or more while someone at the table waits on them
        (:meth:`Table.idle_seats`); returns the tables changed, whose computer players are left
        to the caller when :attr:`computers_later`. The write is guarded by the revision the
        table was found idle at: a move made meanwhile (here or on another server) keeps the seat."""
        changed = []
        before = self.wall_clock() - idle_seconds
        for table_id, revision in self.store.idle_tables(before - IDLE_LOOK_BACK, before, limit):
            try:
                table = self.table(table_id, revision)
            except TableError:  # forgotten meanwhile
                continue
            with table.lock:
                seats = table.idle_seats()
                if not seats or table.stored.revision != revision:
                    continue
                try:
                    self.store.replace_seats(table.id, seats, bot, revision=revision, at=self.wall_clock())
                except MoveConflictError:  # it changed meanwhile: the seat stays, for now
                    self._reload(table)
                    continue
                table.hand_to_computer(seats, bot)
                self._automatic(table)
            self._release_if_over(table)
            changed.append(table)
        return changed

    def open_tables(self, limit: int = 30) -> list[dict[str, Any]]:
        """The open tables with a free seat, newest first, as the home page lists them."""
        return [open_table_view(g) for g in self.store.open_games(limit)]

    def secret_shown(self, stored: StoredGame) -> bool:
        """A finished game shows its secret, but a daily challenge's only once its day is over:
        everyone plays the same dice that day."""
        if stored.challenge is None:
            return True
        return self.wall_clock() >= closes(stored.challenge)

    def table(self, table_id: str, revision: int | None = None) -> Table:
        """The table, as the store has it now (reloaded if another server changed it);
        ``revision``: the stored one, if the caller has just read it."""
        table = self._kept(table_id)
        if table is not None:
            with table.lock:
                if revision is None:
                    revision = self.store.revision(table_id)
                if revision is None:
                    raise TableError(404, _("no such game"))
                if revision != table.stored.revision:
                    self._reload(table)
                elif table.stalled:
                    self._automatic(table)
            return table
        stored = self.store.load(table_id)
        if stored is None:
            raise TableError(404, _("no such game"))
        return self._register(_table_of(stored))

    def _kept(self, table_id: str) -> Table | None:
        """The table if this server holds it in memory (now its most recently used)."""
        with self._lock:
            kept = self._tables.get(table_id)
            if kept is None:
                return None
            self._tables[table_id] = (kept[0], self.clock())
            self._tables.move_to_end(table_id)
            return kept[0]

    def _reload(self, table: Table, automatic: bool = True) -> None:
        """Bring the table to what the store holds (another server wrote), and play on what comes
        by itself: the server that wrote may have stopped before its computer players moved."""
        with table.lock:
            stored = self.store.load(table.id)
            if stored is None:
                return
            table.stored = stored
            table.game = replay_stored(stored, stored.moves)
            table.seat_computers()  # a seat handed to a computer player by another server
            if automatic:
                self._automatic(table)

    def kept(self, table_id: str) -> Table | None:
        """The table if this server holds it (a glance: no lock, no reading)."""
        kept = self._tables.get(table_id)
        return None if kept is None else kept[0]

    def holding(self, change: Change) -> Table | None:
        """The table, if this server's copy has ``change`` already (it made it, most often).
        A glance without locks, for the event loop: a copy's revision only grows."""
        table = self.kept(change.game_id)
        return table if table is not None and table.stored.revision >= change.revision else None

    def told(self, table_id: str, changes: list[Change | None]) -> Table:
        """The table brought up to changes that servers made (the database's notices, in their
        order; None: changes unknown). A change this copy has (its own, or an older one) is
        passed over; one whose moves the notice carries, made on the revision this copy holds,
        is played on it; any other makes it read the game again."""
        table = self._kept(table_id)
        if table is None or None in changes:
            return self.table(table_id)
        with table.lock:
            changed = False
            for change in changes:
                assert change is not None
                stored, appended = table.stored, change.appended
                if stored.revision >= change.revision:
                    continue
                changed = True
                if appended is None or stored.revision != change.revision - 1 or len(stored.moves) != appended.start:
                    self._reload(table, automatic=False)
                    continue
                try:
                    game = _played(table.game, appended.entries)
                    if appended.seat is not None and not 0 <= appended.seat < len(stored.seats):
                        raise IllegalMoveError(f"no seat {appended.seat}")
                except (IllegalMoveError, MoveSyntaxError):  # the record is the judge
                    self._reload(table, automatic=False)
                    continue
                _written(table, appended.entries, game, appended.seat)
            if changed:  # as after a reload: the server that wrote may have stopped before its computer players moved
                self._automatic(table)
        return table

    def seat_of(self, table_id: str, token: str) -> tuple[Table, int]:
        """The table and seat a token plays, as the store has it now; refused unless it is a seat
        of that very game."""
        found = self.store.seat_and_revision(token)
        if found is None or found[0] != table_id:
            raise TableError(403, _("this seat link is not valid"))
        return self.table(table_id, found[2]), found[1]

    def _register(self, table: Table) -> Table:
        """Keep the table, and play what comes by itself (computer players, their dice): a new
        game may start with them, and a server stopped while they were thinking goes on."""
        now = self.clock()
        with self._lock:
            kept = self._tables.get(table.id)
            table = kept[0] if kept is not None else table
            self._tables[table.id] = (table, now)
            self._tables.move_to_end(table.id)
            self._sweep(now)
        with table.lock:
            self._automatic(table)
        self._release_if_over(table)
        return table

    def _sweep(self, now: float) -> None:
        """Let go of the tables idle for too long, and of the least recently used beyond
        ``max_tables`` (called with ``_lock`` held)."""
        while self._tables:
            table_id, (_table, used) = next(iter(self._tables.items()))
            if now - used < self.idle_seconds and len(self._tables) <= self.max_tables:
                return
            del self._tables[table_id]

    def _release_if_over(self, table: Table) -> None:
        """A finished game leaves memory (it is replayed from its record if asked for again)."""
        if table.game.is_over:
            with self._lock:
                kept = self._tables.get(table.id)
                if kept is not None and kept[0] is table:
                    del self._tables[table.id]

    # --- acting ------------------------------------------------------------------------

    def act(self, table_id: str, token: str, move_text: str, seq: int) -> tuple[Table, int]:
        """A person's move (or ``roll`` when the dice are theirs to roll), then whatever follows
        by itself: computer players' moves and the rolls the server makes.

        A table in memory is played as it is, without asking the store first: if another server
        changed the game meanwhile, the write's guard refuses the move, or the stale copy refuses
        it; either way the table is brought up to date and the move tried once more, so it is
        judged on the game as it stands (two passive players' choices sent at once to two
        servers both land)."""
        table, seat = self._kept_seat(table_id, token) or self.seat_of(table_id, token)
        with table.lock:  # the try, the catch-up and the second try: nobody reloads in between
            try:
                self._act(table, seat, move_text, seq)
            except TableError as refused:
                # a conflict: the write's guard refused, and the table has been reloaded
                if not isinstance(refused, ConflictError) and not self._caught_up(table):
                    raise
                # the server that wrote may have stopped before its computer players moved
                self._automatic(table)
                try:
                    self._act(table, seat, move_text, seq)
                except ConflictError:
                    self._automatic(table)
                    raise
        self._release_if_over(table)
        return table, seat

    def _kept_seat(self, table_id: str, token: str) -> tuple[Table, int] | None:
        """The table in memory and the seat the token plays there (a seat's token never changes
        once given), or None: then the store is asked."""
        table = self._kept(table_id)
        if table is None:
            return None
        hashed = token_hash(token)
        with table.lock:
            for seat, stored in enumerate(table.stored.seats):
                if stored.token_hash == hashed and not stored.free:
                    return table, seat
        return None

    def _caught_up(self, table: Table) -> bool:
        """Reload the table if another server changed it; whether it did. What comes by itself
        after is left to the caller (:meth:`act` plays it once, whatever made it reload)."""
        with table.lock:
            if self.store.revision(table.id) == table.stored.revision:
                return False
            self._reload(table, automatic=False)
            return True

    def _act(self, table: Table, seat: int, move_text: str, seq: int) -> None:
        with table.lock:
            table.check_seq(seat, seq)
            try:
                move = parse_move(move_text)
            except MoveSyntaxError as exc:
                raise TableError(422, _("not a move: {reason}").format(reason=explain(exc))) from None
            if move.kind is MoveKind.DICE:
                entry = table.dice_entry(seat, move)
            elif move == ROLL and table.roller() is not None:
                if not table.may_roll(seat):
                    raise TableError(409, _("it is not yours to roll the dice"))
                if table.stored.real_dice:
                    raise TableError(409, _("at a real-dice table, type the dice rolled"))
                entry = table.roll_entry()
            else:
                if seat not in table.game.players_to_move:
                    raise TableError(409, _("it is not your turn"))
                entry = f"{seat + 1}:{move}"
            self._commit(table, [entry], seat)
            self._automatic(table, after=move)

    def undo(self, table_id: str, token: str, seq: int) -> tuple[Table, int]:
        table, seat = self.seat_of(table_id, token)
        with table.lock:
            table.check_seq(seat, seq)
            if not table.can_undo(seat):
                raise TableError(
                    409, _("Nothing to undo: new dice have been rolled, or someone else has played since.")
                )
            index = table.last_decision(seat)
            assert index is not None
            kept = table.stored.moves[:index]
            game = replay_stored(table.stored, kept)
            try:
                self.store.truncate(table.id, index, seat, revision=table.stored.revision, at=self.wall_clock())
            except MoveConflictError:
                self._reload(table)
                raise ConflictError() from None
            table.stored.moves = kept
            table.stored.revision += 1
            table.stored.seats[seat].acted += 1
            table.game = game
            self._automatic(table)
        return table, seat

    def position_to_advise(self, table_id: str, token: str) -> tuple[int, Game]:
        """The seat and a copy of its position, for advice on its move (a hint, the computer
        players' choices): refused in the daily challenge and when the seat has nothing to decide."""
        table, seat = self.seat_of(table_id, token)
        with table.lock:
            if table.stored.challenge is not None:
                raise TableError(409, _("no hints in the daily challenge"))
            if seat not in table.game.players_to_move:
                if table.roller() == seat:  # the seat's turn, but its dice first
                    raise TableError(409, _("roll the dice first: advice comes with the dice"))
                raise TableError(409, _("it is not your turn"))
            return seat, table.game.copy()

    def hint(self, table_id: str, token: str) -> list[dict[str, Any]]:
        """The strong player's estimates for the seat's legal moves, best first."""
        seat, game = self.position_to_advise(table_id, token)
        return hint_view(game, appraise(game, seat, searched=True).expected())  # as the review values them

    def _commit(self, table: Table, entries: list[str], seat: int | None) -> None:
        """Play on a copy (the engine's check is the only one), write to the store, then apply:
        the store never lags the table, and an illegal move changes nothing."""
        try:
            trial = _played(table.game, entries)
        except IllegalMoveError as exc:
            raise TableError(409, _("illegal move: {reason}").format(reason=explain(exc))) from None
        # the move that ends a daily challenge's entry writes its score with it: never one without the other
        score = trial.scores()[0].total if trial.is_over and table.stored.challenge is not None else None
        now = self.wall_clock()
        finished = now if trial.is_over else None
        try:
            self.store.append_moves(
                table.id,
                len(table.stored.moves),
                entries,
                seat,
                revision=table.stored.revision,
                score=score,
                finished=finished,
                at=now,
            )
        except MoveConflictError:
            self._reload(table, automatic=False)  # whoever won plays on (or the next request does)
            raise ConflictError() from None
        _written(table, entries, trial, seat)

    def _automatic(self, table: Table, after: Move | None = None) -> None:
        """Computer players' moves, and the rolls nobody needs to ask for: a computer player's
        dice and the roll right after a reroll (or a ``roll`` after reprises). If another server
        plays them first, this one has reloaded the table and leaves them to it."""
        try:
            self._play_automatic(table, after)
        except ConflictError:
            return
        except StoreUnavailableError:  # what came before is written: they play once the database is back
            table.stalled = True
            return
        table.stalled = False

    def _play_automatic(self, table: Table, after: Move | None) -> None:
        asked = after is not None and after.kind in (MoveKind.REROLL, MoveKind.ROLL)
        while not table.game.is_over:
            roll = _roll_due(table, asked)
            if roll is None or (self.computers_later and not (roll and asked)):
                return  # with computers_later, they play in :meth:`play_next`, after the request's answer
            if roll:
                self._commit(table, [table.roll_entry()], None)
            else:
                bots = _computers_to_move(table)
                if not bots:
                    return
                for p in bots:
                    move = table.bots[p].choose(table.game, p)
                    self._commit(table, [f"{p + 1}:{move}"], None)
            asked = False

    def computers_due(self, table: Table) -> bool:
        """Whether a computer player (or its dice) is what the table waits for."""
        with table.lock:
            return _roll_due(table, False) is True or bool(_computers_to_move(table))

    def play_next(self, table: Table) -> bool:
        """One step of the computer players: a computer's roll, or one decision, thought about
        on a copy of the game *outside* the table's lock, so that a person's move (a passive
        player's choice, made meanwhile) is never held up by a computer thinking; the decision
        is played only if the game has not changed since, else thought about again. Returns
        whether something may be left to play (False once nothing is, or another server plays
        them: then it has written first and this copy has reloaded)."""
        with table.lock:
            if not self.computers_due(table):
                return False
            if _roll_due(table, False):
                return self._step(table, [table.roll_entry()])
            seat = _computers_to_move(table)[0]
            revision, position = table.stored.revision, table.game.copy()
        move = table.bots[seat].choose(position, seat)
        with table.lock:
            if table.stored.revision != revision:
                return True  # a person acted meanwhile: think again on the game as it is now
            return self._step(table, [f"{seat + 1}:{move}"])

    def _step(self, table: Table, entries: list[str]) -> bool:
        try:
            self._commit(table, entries, None)
        except ConflictError:  # another server plays them
            return False
        except StoreUnavailableError:  # they play once the database is back and somebody asks
            table.stalled = True
            return False
        table.stalled = False
        self._release_if_over(table)
        return True

    # --- reading -----------------------------------------------------------------------

    def record(self, table: Table) -> records.Record:
        with table.lock:
            seats = table.stored.seats
            return records.record_of(table.game, [s.name for s in seats], [s.bot for s in seats])

    def view(self, table: Table, seat: int | None, language: str) -> dict[str, Any]:
        """Everything the page shows, for one seat (or a spectator), in its language."""
        with table.lock, use_language(language):
            return _view(table, seat, self.secret_shown(table.stored))

    def steps(self, table: Table, since: int, language: str) -> dict[str, Any]:
        """The record's entries from ``since`` on, in words (:func:`~.views.steps_view`)."""
        return steps_view(table, since, language)

    def view_at(self, table: Table, step: int, language: str) -> dict[str, Any]:
        """A finished game as it stood after its first ``step`` record entries (a spectator's
        view, to replay it move by move); ``steps`` is how many entries it has."""
        with table.lock:
            if not table.game.is_over:
                raise TableError(409, _("a game is replayed move by move once it is over"))
            steps = len(table.stored.moves)
            with use_language(language):
                view = past_view(table, max(0, min(step, steps)), self.secret_shown(table.stored))
        view["step"], view["steps"] = max(0, min(step, steps)), steps
        return view


def _roll_due(table: Table, asked: bool) -> bool | None:
    """What comes by itself next: True, a roll the server makes (a computer player's dice, or
    the roll a person's reroll or ``roll`` has ``asked`` for); False, a decision, perhaps
    computers'; None, nothing (a person's dice, a real-dice table's, or the game is over)."""
    if table.game.is_over:
        return None
    if table.game.players_to_move != (CHANCE,):
        return False
    if table.stored.real_dice or not (table.roller() in table.bots or asked):
        return None
    return True


def _computers_to_move(table: Table) -> list[int]:
    """The computer players among those the game waits for."""
    return [p for p in table.game.players_to_move if p in table.bots]

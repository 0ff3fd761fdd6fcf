"""One hosted table: its stored description and the engine's game, who may roll and who may
undo; the errors a refused request raises (nothing was changed)."""

from __future__ import annotations

import hashlib
import secrets
import threading
from dataclasses import dataclass, field

from .. import fair_dice, records
from ..bots import Bot, make_bot
from ..i18n import _
from ..rules import CHANCE, SPECS, Game, Move, MoveKind, Phase, RulesError, game_rules
from ..text import explain
from .store import StoredGame, StoredSeat, token_hash

ROLL = Move(MoveKind.ROLL)


class TableError(Exception):
    """A request that cannot be granted; nothing was changed. ``status`` follows HTTP."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class ConflictError(TableError):
    """Another server wrote to the game first: this one has reloaded it; nothing was changed."""

    def __init__(self) -> None:
        super().__init__(409, _("the game has moved on meanwhile: here it is as it stands now"))


@dataclass(frozen=True)
class SeatRequest:
    name: str
    bot: str | None = None


@dataclass
class Table:
    """One game being hosted: its stored description and the engine's game."""

    stored: StoredGame
    game: Game
    bots: dict[int, Bot]
    lock: threading.RLock = field(default_factory=threading.RLock)
    stalled: bool = False  # computer players could not move (the database was away): they move when next asked

    @property
    def id(self) -> str:
        return self.stored.id

    def people(self) -> list[int]:
        return [i for i, s in enumerate(self.stored.seats) if s.bot is None]

    def roller(self) -> int | None:
        """The seat who rolls the dice the game waits for (None if no roll is due)."""
        game = self.game
        if game.to_move != CHANCE:
            return None
        return 0 if game.phase is Phase.SOLO_ROLL else game.active

    def may_roll(self, seat: int) -> bool:
        """A person rolls their own dice; a computer player's dice are rolled by the server, or
        at a real-dice table typed by any person there."""
        roller = self.roller()
        if roller is None:
            return False
        if roller == seat:
            return True
        return self.stored.real_dice and roller in self.bots

    def awaited(self) -> set[int]:
        """The seats the game waits for now: those to decide, or the one to roll (at a real-dice
        table, a computer player's dice are typed by any person there)."""
        if self.game.is_over:
            return set()
        roller = self.roller()
        if roller is None:
            return set(self.game.players_to_move)
        if roller not in self.bots:
            return {roller}
        return set(self.people()) if self.stored.real_dice else set()

    def idle_seats(self) -> list[int]:
        """The people's seats (taken or free) of an open table under way that the game waits for,
        provided a person who took a seat is not waited for: someone is kept waiting by them
        (where everyone the game waits for is away, nobody is kept waiting)."""
        if not self.stored.listed:
            return []
        awaited = self.awaited() - set(self.bots)
        waiting = [i for i in self.people() if i not in awaited and not self.stored.seats[i].free]
        return sorted(awaited) if awaited and waiting else []

    def hand_to_computer(self, seats: list[int], bot: str) -> None:
        """The seats played by ``bot`` from now on (once the store has it): no token plays them."""
        for seat in seats:
            stored = self.stored.seats[seat]
            stored.bot, stored.token_hash, stored.player_hash, stored.free = bot, None, None, False
        self.stored.revision += 1
        self.seat_computers()

    def seat_computers(self) -> None:
        """Seat the computer players the stored seats name that the table lacks (seats handed
        to one, here or by another server); those seated already keep their state."""
        for seat, bot in _bots_of(self.stored, self.bots).items():
            self.bots.setdefault(seat, bot)

    def legal(self, seat: int) -> list[Move]:
        if self.may_roll(seat) and not self.stored.real_dice:
            return [ROLL]
        if seat in self.game.players_to_move:
            return self.game.legal_moves(seat)
        return []

    def last_decision(self, seat: int) -> int | None:
        prefix = f"{seat + 1}:"
        for i in range(len(self.stored.moves) - 1, -1, -1):
            if self.stored.moves[i].startswith(prefix):
                return i
        return None

    def can_undo(self, seat: int) -> bool:
        """One's own last decision, while no new dice have been rolled since; with other people
        at the table, only before anyone else has acted."""
        i = self.last_decision(seat)
        if i is None or self.game.is_over:
            return False
        after = self.stored.moves[i + 1 :]
        if any(e.startswith("dice") for e in after):
            return False
        return not (len(self.people()) > 1 and after)

    def check_seq(self, seat: int, seq: int) -> None:
        """A request must carry the seat's ``seq``: a replayed or stale one is refused."""
        if seq != self.stored.seats[seat].acted:
            raise TableError(409, _("this request is out of date (the game has moved on): reload the game"))

    def dice_entry(self, seat: int, move: Move) -> str:
        """The record entry of dice typed by ``seat`` (at a real-dice table only)."""
        if not self.stored.real_dice:
            raise TableError(409, _("the server rolls the dice of this game"))
        if not self.may_roll(seat):
            raise TableError(409, _("it is not yours to roll the dice"))
        return str(move)

    def roll_entry(self) -> str:
        """The record entry of the server's next roll, from the game's fair-dice secret."""
        assert self.stored.secret is not None
        return str(fair_dice.next_roll(self.game, self.stored.secret))


def replay_stored(stored: StoredGame, entries: list[str]) -> Game:
    """The stored game after ``entries``, replayed as any game record is."""
    seats = [s.name for s in stored.seats]
    return records.replay(
        records.Record(game=stored.game, players=seats, dice="external", rules=stored.rules, moves=entries)
    )


def _played(game: Game, entries: list[str]) -> Game:
    """A copy of ``game`` after record ``entries`` (the game itself is left as it is)."""
    after = game.copy()
    for entry in entries:
        player, text = records.split_entry(entry)
        after.play(text, player)
    return after


def _written(table: Table, entries: list[str], game: Game, seat: int | None) -> None:
    """The table as the store has it once ``entries`` are written (``game``: the game after them),
    as every server's copy follows a write it made or was told of."""
    table.stored.moves.extend(entries)
    table.stored.revision += 1
    if seat is not None:
        table.stored.seats[seat].acted += 1
    table.game = game


def _table_of(stored: StoredGame) -> Table:
    """The table of a stored game: its record replayed through the engine, its bots seated."""
    return Table(stored, replay_stored(stored, stored.moves), _bots_of(stored))


def _bots_of(stored: StoredGame, seated: dict[int, Bot] | None = None) -> dict[int, Bot]:
    """The computer players of a stored game (but those ``seated`` already), each seeded by
    the game and its seat."""
    seed = int(hashlib.sha256(stored.id.encode()).hexdigest()[:12], 16)
    seated = seated or {}
    return {i: make_bot(s.bot, seed + i) for i, s in enumerate(stored.seats) if s.bot is not None and i not in seated}


def new_stored(
    game_id: str,
    seats: list[SeatRequest],
    real_dice: bool,
    language: str,
    challenge: tuple[str, str, str] | None,
    listed: bool,
    player_hash: str | None,
    rules: dict[str, bool] | None,
    token: str | None = None,
) -> tuple[StoredGame, list[str | None]]:
    """A new game as the store keeps it, and each seat's secret token (None for computer players
    and free seats): :meth:`~.tables.Host.create`'s checks and choices, before any table exists.
    ``token``: the first person's seat token, chosen by the caller (a daily challenge entry's,
    derived from the player's secret), instead of a random one."""
    if not seats or not any(s.bot is None for s in seats):
        raise TableError(422, _("a game needs at least one person"))
    free = [listed and i > 0 and s.bot is None for i, s in enumerate(seats)]
    if listed and not any(free):
        raise TableError(422, _("an open table needs a free seat for another person"))
    try:
        chosen = game_rules(game_id, rules) if game_id in SPECS else {}
    except RulesError as exc:
        raise TableError(422, explain(exc)) from None
    tokens = [secrets.token_urlsafe(24) if s.bot is None and not f else None for s, f in zip(seats, free, strict=True)]
    if token is not None and any(tokens):
        tokens[next(i for i, t in enumerate(tokens) if t is not None)] = token
    stored = StoredGame(
        id=secrets.token_urlsafe(9),
        game=game_id,
        real_dice=real_dice,
        secret=challenge[1] if challenge else None if real_dice else fair_dice.new_secret(),
        seats=[
            StoredSeat(s.name, s.bot, token_hash(t) if t else None, free=f)
            for s, t, f in zip(seats, tokens, free, strict=True)
        ],
        language=language,
        challenge=challenge[0] if challenge else None,
        listed=listed,
        rules=chosen or None,
    )
    player_hash = challenge[2] if challenge else player_hash
    mine = next((i for i, t in enumerate(tokens) if t is not None), None)
    if player_hash is not None and mine is not None:  # the creator's: the first person's seat with a token
        stored.seats[mine].player_hash = player_hash
    return stored, tokens

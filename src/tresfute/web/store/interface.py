"""The store's shared interface: what a stored game is, the errors a store raises, and the
calls the server makes (:class:`Store`), whichever database keeps the games."""

from __future__ import annotations

import hashlib
import logging
import time
import unicodedata
from dataclasses import dataclass, field
from typing import Protocol


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class StoredSeat:
    name: str
    bot: str | None  # a computer player's name, or None for a person
    token_hash: str | None  # people only
    acted: int = 0  # how many times the seat has acted (moves, rolls, undos): its requests' "seq"
    free: bool = False  # a person's seat of an open table that nobody has taken yet
    player_hash: str | None = None  # the SHA-256 of the player's secret who plays it, if known


@dataclass
class StoredGame:
    id: str
    game: str  # "tres-fute" or "vraiment-tres-fute"
    real_dice: bool  # dice typed by the players (a table with real dice)
    secret: str | None  # the fair-dice secret (None for real dice)
    seats: list[StoredSeat]
    language: str = "fr"
    created: float = field(default_factory=time.time)
    moves: list[str] = field(default_factory=list)  # record entries: "1:y@r1c1", "dice w3 …"
    revision: int = 0  # grows at every change (a move, an undo): the newest state wins
    challenge: str | None = None  # the day ("2026-11-23") of a daily challenge's entry
    listed: bool = False  # an open table: listed on the home page while it has free seats
    rules: dict[str, bool] | None = None  # the game's rules options (``Game.rules``); None: the defaults


@dataclass(frozen=True)
class Appended:
    """Record entries written as moves ``start``, ``start + 1``, … (``seat`` acted, if any)."""

    start: int
    entries: list[str]
    seat: int | None

    def told(self) -> str:
        """How a notice tells these moves, after the game and its revision (:meth:`Change.parse`
        reads it)."""
        lines = "\n".join(self.entries)
        return f" {self.start} {'-' if self.seat is None else self.seat}\n{lines}"


@dataclass(frozen=True)
class Change:
    """A change of a game that the database tells every server: its new ``revision`` and, for
    moves appended (when they fit in the notice), the moves: a server that holds the revision
    before plays them on its copy instead of reading the game again."""

    game_id: str
    revision: int
    appended: Appended | None = None
    own: bool = False  # made by the server that is told

    @classmethod
    def parse(cls, notice: str, own: bool = False) -> Change:
        """A notice's change; one whose moves are not told as this release tells them is
        taken for a change of the game, which is then read (a later release may add to it)."""
        head, _, entries = notice.partition("\n")
        game_id, revision, *appended = head.split(" ")
        change = cls(game_id, int(revision), own=own)
        if len(appended) != 2 or not entries:
            return change
        start, seat = appended
        try:
            told = Appended(int(start), entries.split("\n"), None if seat == "-" else int(seat))
        except ValueError:
            return change
        return cls(game_id, int(revision), told, own)


class StoreUnavailableError(RuntimeError):
    """The database cannot be reached or written just now (PostgreSQL restarted or away, a full
    disk, a read-only file): nothing was written; the same request may be tried again later."""


class _Health:
    """Says in the log when the database starts failing, once, and when it answers again."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.failing = False
        self._log = logging.getLogger("tresfute.web.store")

    def failed(self, error: BaseException) -> StoreUnavailableError:
        if not self.failing:
            self.failing = True
            self._log.error("the database (%s) fails: %s; changes are refused until it answers", self.name, error)
        return StoreUnavailableError(str(error).strip() or type(error).__name__)

    def answered(self) -> None:
        if self.failing:
            self.failing = False
            self._log.warning("the database (%s) answers again", self.name)


class MoveConflictError(RuntimeError):
    """The game's record no longer is what the write expected (another server wrote first)."""


class AlreadySeatedError(RuntimeError):
    """A player who has a seat at an open table already asked for another; nothing was written."""


class EntryRefusedError(RuntimeError):
    """A daily challenge entry that cannot be made (``reason``: "name" taken by someone else,
    or "played" already by this player, under any name); nothing was written."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class PlayedSeat:
    """A finished game as one of its seats played it: what a player's progress page lists."""

    game_id: str
    seat: int  # from 0
    game: str
    created: float
    finished: float
    challenge: str | None
    names: list[str]  # every seat's name, in order
    bots: list[str | None]
    scores: list[int] | None  # every seat's final score, once written (:meth:`Store.save_scores`)
    review: str | None  # the seat's stored review (JSON text) in the version asked, if any


@dataclass
class Entry:
    """One daily challenge entry: who played which day's game, and their score once finished."""

    day: str
    game: str
    name: str
    game_id: str
    score: int | None


class Store(Protocol):
    def create(self, game: StoredGame) -> None: ...

    def load(self, game_id: str) -> StoredGame | None: ...

    def revision(self, game_id: str) -> int | None:
        """The game's stored revision (None if there is no such game): a server whose copy is
        older reloads it."""
        ...

    def append_moves(
        self,
        game_id: str,
        start: int,
        entries: list[str],
        seat: int | None,
        revision: int | None = None,
        score: int | None = None,
        finished: float | None = None,
        at: float | None = None,
    ) -> None:
        """Write ``entries`` as moves ``start``, ``start + 1``, … (``seat`` acted, if any); raises
        :class:`MoveConflictError` if the record does not have exactly ``start`` moves (or, when
        ``revision`` is given, if the game is no longer at that revision). ``score``: these moves
        end a daily challenge's entry, whose score is written with them, in the same transaction.
        ``finished``: these moves end the game, at that moment (seconds since 1970). ``at``: when
        the game changed (seconds since 1970; now if None), as every change below writes it."""
        ...

    def purge_finished(self, before: float | None, abandoned_before: float | None = None) -> int:
        """Forget the games finished before ``before`` (seconds since 1970), and the unfinished
        ones that have not changed since ``abandoned_before`` (None: none of that kind), daily
        challenge entries excepted (their day's ranking and the player's history show them); how
        many were forgotten."""
        ...

    def truncate(
        self, game_id: str, length: int, seat: int, revision: int | None = None, at: float | None = None
    ) -> None:
        """Keep the first ``length`` moves (``seat``'s undo); the same guard on ``revision``."""
        ...

    def seat_of(self, token: str) -> tuple[str, int] | None:
        """The game and seat (0-based) a seat token plays, if any."""
        ...

    def seat_and_revision(self, token: str) -> tuple[str, int, int] | None:
        """The game, seat and the game's revision, in one read (every request of a seat)."""
        ...

    def take_seat(
        self,
        game_id: str,
        name: str,
        token_hash: str,
        revision: int | None = None,
        player_hash: str | None = None,
        at: float | None = None,
    ) -> int | None:
        """Give the open table's first free seat to ``name`` (None if none is left): one write,
        so two people taking the last seat at once cannot both get it; the same guard on
        ``revision`` as a move's. Raises :class:`AlreadySeatedError` if ``player_hash`` plays
        a seat of this game already."""
        ...

    def idle_tables(self, after: float, before: float, limit: int) -> list[tuple[str, int]]:
        """The open tables under way whose last change was between ``after`` and ``before``,
        those that changed last first: each game's id and revision."""
        ...

    def replace_seats(
        self, game_id: str, seats: list[int], bot: str, revision: int | None = None, at: float | None = None
    ) -> None:
        """Hand ``seats`` (people's, taken or free) to the computer player ``bot``: their token and
        player are forgotten (a seat link no longer plays them); the same guard on ``revision``."""
        ...

    def open_games(self, limit: int) -> list[StoredGame]:
        """The open tables that still have a free seat, newest first (without their moves)."""
        ...

    # --- the daily challenge ---

    def challenge_secret(self, day: str, game: str, secret: str) -> tuple[str, int | None]:
        """The day's secret for ``game`` (``secret`` if it had none yet) and the strong
        computer player's score on it, once computed."""
        ...

    def challenge(self, day: str, game: str) -> tuple[str, int | None] | None:
        """The same, without making one: None if that day had no challenge of ``game``."""
        ...

    def set_strong_score(self, day: str, game: str, score: int) -> None: ...

    def enter(self, game: StoredGame, name: str, player_hash: str) -> None:
        """Create ``game`` as ``name``'s entry of the day's challenge, in one transaction:
        the name is taken for the day by ``player_hash`` (or already was), who becomes a player
        (:meth:`add_player`) if they were not; raises :class:`EntryRefusedError` if another
        player holds it, or if this player has an entry of that day's game already (under any
        name: names are compared by :func:`name_key`)."""
        ...

    def ranking(self, day: str, game: str) -> list[Entry]:
        """The day's finished entries, best score first."""
        ...

    def load_review(self, game_id: str, seat: int, version: str) -> str | None:
        """A seat's stored review (JSON text) in this version of the review, if there is one."""
        ...

    def save_review(self, game_id: str, seat: int, version: str, review: str) -> None:
        """Keep a seat's review; the first one written stays (two servers may compute it at once)."""
        ...

    def history(self, player_hash: str) -> list[Entry]:
        """Every entry made under the names this player took, newest day first."""
        ...

    # --- players (a secret kept by a browser, known by its SHA-256) ---

    def add_player(self, player_hash: str, name: str, created: float) -> bool:
        """Make a player (nothing if the hash is one already); whether it was new."""
        ...

    def player_name(self, player_hash: str) -> str | None:
        """The player's name; None for a secret this server never gave."""
        ...

    def rename_player(self, player_hash: str, name: str) -> bool:
        """Change a player's name; False (nothing changed) for an unknown player."""
        ...

    def played(self, player_hash: str, review_version: str) -> list[PlayedSeat]:
        """The finished games of the seats this player played, oldest first."""
        ...

    def save_scores(self, game_id: str, scores: list[int]) -> None:
        """Keep a finished game's final scores with its seats (read by :meth:`played`)."""
        ...

    # --- practice positions solved (web/reviews.py's Practice) ---

    def save_solved(self, player_hash: str, game_id: str, seat: int, move_number: int, solved: float) -> None:
        """Keep that the player solved a practice position; the first time stays."""
        ...

    def solved(self, player_hash: str) -> list[tuple[str, int, int]]:
        """The practice positions the player solved, (game id, seat, move number), oldest first."""
        ...

    def close(self) -> None: ...


# Characters that show nothing and are not of category Cf (format), removed from a name's key
# as format characters are: the combining grapheme joiner, the Hangul fillers, the Khmer inherent
# vowels, the Mongolian and the other variation selectors.
_INVISIBLE = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u3164\uffa0"
    + "".join(map(chr, range(0xFE00, 0xFE10)))
    + "".join(map(chr, range(0xE0100, 0xE01F0)))
)


def name_key(name: str) -> str:
    """The form in which names are compared where they must be unique (a name of the day's
    challenge): Unicode NFKC (full-width letters, ligatures, superscripts… as their plain
    letters), invisible characters removed (format characters such as the zero-width space
    U+200B, joiners and direction marks; control characters; :data:`_INVISIBLE`), each run of
    white space one space, case folded. Letters of other scripts that look alike (Cyrillic «а»
    for Latin «a») are left as they are: they are other letters (docs/web.md says why)."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(c for c in text if c not in _INVISIBLE and unicodedata.category(c) not in ("Cf", "Cc"))
    return unicodedata.normalize("NFKC", " ".join(text.split()).casefold())

"""A game being played at one keyboard: seats (people or bots), undo, save and resume."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .. import records
from ..bots import FILE_BOTS, Bot, make_bot
from ..rules import CHANCE, Game, Move
from ..rules.reasons import Reason
from ..text import terminal_safe


@dataclass(frozen=True)
class Seat:
    name: str
    bot: str | None = None  # None: a person at the keyboard

    @property
    def shown(self) -> str:
        """The name as the terminal shows it: it may come from a record, where it may hold
        anything (``tresfute.text.terminal_safe``)."""
        return terminal_safe(self.name)


@dataclass(frozen=True)
class Snapshot:
    """The game just before a person's decision, to undo it."""

    player: int
    game: Game
    dice_rolled_after: int


class Session:
    def __init__(self, game: Game, seats: list[Seat], bot_seed: int = 0) -> None:
        if len(seats) != game.n_players:
            raise ValueError("one seat per player")
        self.game = game
        self.seats = seats
        self.bots: dict[int, Bot] = {
            i: make_bot(seat.bot, bot_seed + i) for i, seat in enumerate(seats) if seat.bot is not None
        }
        for bot in self.bots.values():  # a trained agent made for the other game says so now
            check = getattr(bot, "check", None)
            if check is not None:
                check(game)
        self._undo: list[Snapshot] = []
        self.last_person: int | None = None

    @classmethod
    def new(
        cls, game_id: str, seats: list[Seat], seed: int | None = None, rules: dict[str, bool] | None = None
    ) -> Session:
        """A new game; ``rules``: its rules options (``Game(rules=...)``), the defaults for those left out."""
        game = Game(game_id, players=len(seats), seed=seed, rules=rules)
        return cls(game, seats, bot_seed=(game.seed or 0) % 1_000_003)

    @property
    def decider(self) -> int | None:
        """Who acts next: a seat, or None when the game is over."""
        player = self.game.to_move
        assert player != CHANCE, "the terminal game rolls its own dice"
        return player

    def is_bot(self, player: int | None) -> bool:
        return player is not None and player in self.bots

    def people(self) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if seat.bot is None]

    def play(self, move: Move | str) -> None:
        """A person's decision (legal or raises, changing nothing)."""
        player = self.decider
        assert player is not None and not self.is_bot(player)
        before = self.game.copy()
        self.game.play(move, player)
        self._undo.append(Snapshot(player, before, self.game.dice_rolled))
        self.last_person = player

    def play_bot(self, move: Move | None = None) -> Move:
        """The computer player's move (chosen now unless given)."""
        player = self.decider
        assert player is not None and self.is_bot(player)
        if move is None:
            move = self.bots[player].choose(self.game, player)
        self.game.play(move, player)
        return move

    def can_undo(self) -> bool:
        """Only a person's own last decision, while no new dice have been rolled since,
        and before another person has decided."""
        if not self._undo:
            return False
        last = self._undo[-1]
        decider = self.decider
        return (
            last.dice_rolled_after == self.game.dice_rolled
            and last.player == self.last_person
            and (decider is None or decider == last.player or self.is_bot(decider))
        )

    def undo(self) -> None:
        if not self.can_undo():
            raise ValueError("nothing to undo: new dice were rolled, or another person has played since")
        snapshot = self._undo.pop()
        self.game = snapshot.game
        earlier = [s for s in self._undo if s.dice_rolled_after == self.game.dice_rolled]
        self.last_person = earlier[-1].player if earlier else None

    def record(self) -> records.Record:
        return records.record_of(self.game, [s.name for s in self.seats], [s.bot for s in self.seats])

    def save(self, path: Path) -> None:
        path.write_text(records.dumps(self.record()) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path, agents: tuple[str, ...] = (), rules: dict[str, bool] | None = None) -> Session:
        """Resume a saved game; raises ``records.RecordError`` with the reason. ``rules``: those
        the game must have been played under (a record of other rules is refused).

        The record names its computer players, never a file: a trained agent's seat is its
        kind alone (``"ppo"``), played by the agent given on the command line (``agents``,
        ``--bot ppo:agent.zip``), the only file ever loaded."""
        record = records.load(path)
        if record.dice != "seeded":
            raise records.RecordError("the terminal game resumes games with seeded dice only")
        game = records.replay(record, rules=rules)
        bots = [_agent(bot, agents) for bot in record.bots or [None] * len(record.players)]
        seats = [Seat(name, bot) for name, bot in zip(record.players, bots, strict=True)]
        return cls(game, seats, bot_seed=(game.seed or 0) % 1_000_003 + len(record.moves))


def _agent(bot: str | None, agents: tuple[str, ...]) -> str | None:
    """A record's computer player as it plays now: a built-in one as it is, a trained agent's
    kind (``"ppo"``) as the one agent of that kind given (``"ppo:agent.zip"``)."""
    if bot not in FILE_BOTS:
        return bot
    given = sorted({a for a in agents if a.partition(":")[0] == bot})
    if len(given) != 1:
        raise records.RecordError(
            Reason(
                "the record has a seat for a trained agent: give its file with --bot {kind}:FILE (one file)",
                kind=bot,
            )
        )
    return given[0]

"""Players of known strength for the review's benchmarks, beyond the built-in bots.

- ``Beginner``: the valuation network's choice, but for a beginner's typical faults now and then
  (``FAULTS``: how often); benchmarks/review_reasons.py reviews its games.
- ``Handicapped``: the strong player, whose move is replaced with probability ``handicap`` by a
  random legal move (the random player's draw). One knob, and a move it plays is either the
  strong player's or random play's, so the handicap's strength lies between the two and falls as
  the probability rises.

``make_player`` makes any kind by name (benchmarks/review_quality.py's ``--kinds``): a built-in
bot (``bots.BOTS``), ``beginner``, or ``strong-hNN`` (the strong player at handicap NN %).
"""

from __future__ import annotations

import random
import re

from tresfute.bots import BOTS, Bot, make_bot
from tresfute.bots.network import network_for
from tresfute.bots.random_bot import RandomBot
from tresfute.bots.strong import StrongBot, evaluate_moves
from tresfute.rules import Game, Move, MoveKind
from tresfute.rules.game import Phase

FAULTS = {"points_now": 0.3, "bonus": 0.5, "plus_one": 0.5, "reprise": 0.5, "reroll": 0.08}
HANDICAPPED = re.compile(r"strong-h(\d\d)")  # strong-h05: the strong player, 5 % of its moves random


class Beginner:
    """The network's choice, but for a beginner's faults now and then (``FAULTS``: how often)."""

    name = "beginner"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose_with_fault(self, game: Game, player: int) -> tuple[Move, str | None]:
        """The move, and the fault it makes (a ``FAULTS`` key), or ``None``."""
        good = evaluate_moves(game, player, network_for(game))[0][1]
        moves = game.legal_moves(player)
        roll = self.rng.random()
        picks = [m for m in moves if m.kind is MoveKind.PICK]
        if game.phase is Phase.CHOOSE and picks and roll < FAULTS["points_now"]:

            def now(m: Move) -> tuple[int, int]:  # the points at once, then the die's face
                after = game.copy(dice="external", history=False)
                after.play(m, player)
                return after.score(player).total, game.values[game.dice.index(m.die or "")]

            return max(picks, key=now), "points_now"
        bonuses = [m for m in moves if m.kind is MoveKind.BONUS]
        if bonuses and roll < FAULTS["bonus"]:
            return self.rng.choice(bonuses), "bonus"
        stop = next((m for m in moves if m.kind in (MoveKind.DONE, MoveKind.PASS)), None)
        if good.kind is MoveKind.EXTRA and stop is not None and roll < FAULTS["plus_one"]:
            return stop, "plus_one"
        roll_on = next((m for m in moves if m.kind is MoveKind.ROLL), None)
        if good.kind is MoveKind.REPRISE and roll_on is not None and roll < FAULTS["reprise"]:
            return roll_on, "reprise"
        reroll = next((m for m in moves if m.kind is MoveKind.REROLL), None)
        if reroll is not None and good.kind is not MoveKind.REROLL and roll < FAULTS["reroll"]:
            return reroll, "reroll"
        return good, None

    def choose(self, game: Game, player: int) -> Move:
        return self.choose_with_fault(game, player)[0]


class Handicapped:
    """The strong player, but each move, with probability ``handicap``, a random legal move."""

    def __init__(self, handicap: float, seed: int) -> None:
        if not 0 <= handicap <= 1:
            raise ValueError(f"a handicap is a probability, not {handicap}")
        self.name = f"strong-h{round(100 * handicap):02d}"
        self.handicap = handicap
        self.rng = random.Random(seed)
        self.strong = StrongBot(seed)
        self.random = RandomBot(seed + 1)

    def choose(self, game: Game, player: int) -> Move:
        if self.rng.random() < self.handicap:
            return self.random.choose(game, player)
        return self.strong.choose(game, player)


def is_kind(kind: str) -> bool:
    """Whether ``make_player`` knows ``kind``."""
    return kind in BOTS or kind == "beginner" or HANDICAPPED.fullmatch(kind) is not None


def make_player(kind: str, seed: int) -> Bot:
    """A player by kind: a built-in bot, ``beginner`` or ``strong-hNN`` (ValueError for another)."""
    if kind == "beginner":
        return Beginner(seed)
    handicapped = HANDICAPPED.fullmatch(kind)
    if handicapped is not None:
        return Handicapped(int(handicapped.group(1)) / 100, seed)
    if kind in BOTS:
        return make_bot(kind, seed)
    raise ValueError(f"unknown kind of player {kind!r}: a bot ({', '.join(BOTS)}), beginner or strong-hNN")

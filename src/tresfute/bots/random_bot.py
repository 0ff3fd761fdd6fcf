"""The reference floor: a move drawn uniformly from the legal moves."""

from __future__ import annotations

import random
from collections.abc import Callable

from ..rules import Game, Move


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._random: Callable[[], float] = random.Random(seed).random  # bound once: it runs for every move

    def choose(self, game: Game, player: int) -> Move:
        moves = game.legal_moves(player)
        return moves[int(self._random() * len(moves))]

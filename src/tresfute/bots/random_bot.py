"""The reference floor: a move drawn uniformly from the legal moves."""

from __future__ import annotations

import random

from ..rules import Game, Move


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, game: Game, player: int) -> Move:
        moves = game.legal_moves(player)
        return moves[int(self._rng.random() * len(moves))]

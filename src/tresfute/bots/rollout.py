"""A look-ahead player: each of the greedy player's best moves is tried in simulated games.

For every candidate move, the game is copied so that it waits for dice from outside (no
future die is ever seen), the bot rolls its own dice, and the greedy player plays the copy to
the end; the move with the best average final score wins. The same simulated dice are used
for every candidate (common random numbers), so the comparison is fair.
"""

from __future__ import annotations

import random

from ..rules import CHANCE, Game, Move
from .greedy import GreedyBot


def roll_own_dice(game: Game, rng: random.Random) -> None:
    """Play the chance move due in a copy that waits for outside dice."""
    values = {d: int(rng.random() * 6) + 1 for d in game.dice_to_roll()}
    text = "dice " + " ".join(f"{d}{v}" for d, v in values.items())
    if game.phase == "solo roll":
        order = sorted(values, key=lambda d: (values[d], rng.random()))
        text += " platter=" + "".join(order[:3])
    game.play(text)


class RolloutBot:
    name = "rollout"

    def __init__(self, seed: int = 0, candidates: int = 4, rollouts: int = 6) -> None:
        self.seed = seed
        self.candidates = candidates
        self.rollouts = rollouts
        self.greedy = GreedyBot(seed)
        self._calls = 0

    def choose(self, game: Game, player: int) -> Move:
        moves = game.legal_moves(player)
        if len(moves) == 1:
            return moves[0]
        ranked = [m for _, m in self.greedy.rank(game, player)][: self.candidates]
        self._calls += 1
        seeds = [hash((self.seed, self._calls, i)) & 0xFFFFFFFF for i in range(self.rollouts)]
        best, best_value = ranked[0], float("-inf")
        for move in ranked:
            total = 0.0
            for s in seeds:
                total += self._playout(game, player, move, random.Random(s))
            if total > best_value:
                best, best_value = move, total
        return best

    def _playout(self, game: Game, player: int, move: Move, rng: random.Random) -> float:
        sim = game.copy(dice="external")
        sim.play(move, player)
        while not sim.is_over:
            p = sim.to_move
            if p == CHANCE:
                roll_own_dice(sim, rng)
            else:
                assert p is not None
                sim.play(self.greedy.choose(sim, p), p)
        return float(sim.score(player).total)

"""The strong player, and the analysis of a position that it is built on.

Every legal move is first valued by the learned evaluation (``bots/value.py``) of the position
it leads to. The best few are then searched: in each of several simulated futures, on dice
the player rolls itself (never the game's own dice), the rest of the turn is played by the
evaluation's best moves, and the position at the end of the turn is valued. The average over
the futures is the move's estimate of the final score. All candidates meet the same simulated
dice (common random numbers), and the futures are drawn from the position and the bot's seed,
so the analysis and the bot's choice agree, and a game is replayed identically.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from ..rules import CHANCE, Game, Move
from .value import ValueModel, shipped_model


def roll_own_dice(game: Game, rng: random.Random) -> None:
    """Play the chance move due in a copy that waits for outside dice."""
    values = {d: int(rng.random() * 6) + 1 for d in game.dice_to_roll()}
    text = "dice " + " ".join(f"{d}{v}" for d, v in values.items())
    if game.phase == "solo roll":
        order = sorted(values, key=lambda d: (values[d], rng.random()))
        text += " platter=" + "".join(order[:3])
    game.play(text)


class Estimate(NamedTuple):
    """A legal move and the expected final score of the player who plays it."""

    move: Move
    value: float
    searched: bool  # valued by the search; otherwise by the evaluation alone


def evaluate_moves(game: Game, player: int, model: ValueModel) -> list[tuple[float, Move]]:
    """Every legal move with the evaluation of the position it leads to, best first."""
    ranked = [(model.value(after, player), move) for move, after in game.afterstates(player)]
    ranked.sort(key=lambda vm: -vm[0])
    return ranked


class StrongBot:
    name = "strong"

    def __init__(self, seed: int = 0, candidates: int = 5, samples: int = 8, model: ValueModel | None = None) -> None:
        self.seed = seed
        self.candidates = candidates
        self.samples = samples
        self.model = model

    def _model(self, game: Game) -> ValueModel:
        return self.model or shipped_model(game.spec.id)

    def analyse(self, game: Game, player: int | None = None, candidates: int | None = None) -> list[Estimate]:
        """Every legal move of ``player`` with its expected final score, best first.

        The ``candidates`` best moves by the evaluation (default: the bot's setting; 0 for all)
        are searched and come first; the others follow with the evaluation alone, capped at the
        last searched estimate (so the list is best first and no move costs less than nothing).
        """
        if player is None:
            player = game.to_move
        if player is None or player == CHANCE:
            raise ValueError("no player decides now")
        model = self._model(game)
        ranked = evaluate_moves(game, player, model)
        if len(ranked) == 1:
            value, move = ranked[0]
            return [Estimate(move, value, False)]
        count = self.candidates if candidates is None else candidates
        if count <= 0:
            count = len(ranked)
        searched = []
        seeds = [hash((self.seed, len(game.history), game.dice_rolled, i)) for i in range(self.samples)]
        for _, move in ranked[:count]:
            total = 0.0
            for s in seeds:
                sim = game.copy(dice="external")
                sim.play(move, player)
                total += self._future(sim, player, model, random.Random(s))
            searched.append(Estimate(move, total / len(seeds), True))
        searched.sort(key=lambda e: -e.value)
        # The moves left out were ranked below every searched one; the evaluation alone is more
        # optimistic than the search, so their estimate is capped at the last searched one's.
        cap = searched[-1].value
        return searched + [Estimate(move, min(value, cap), False) for value, move in ranked[count:]]

    def choose(self, game: Game, player: int) -> Move:
        moves = game.legal_moves(player)
        if len(moves) == 1:
            return moves[0]
        return self.analyse(game, player)[0].move

    @staticmethod
    def _future(sim: Game, player: int, model: ValueModel, rng: random.Random) -> float:
        """The evaluation once the turn is over, its rest played by the evaluation's best moves."""
        turn = (sim.round, sim.turn, sim.solo_passive)
        while not sim.is_over and (sim.round, sim.turn, sim.solo_passive) == turn:
            p = sim.to_move
            if p == CHANCE:
                roll_own_dice(sim, rng)
            else:
                assert p is not None
                sim.play(evaluate_moves(sim, p, model)[0][1], p)
        return model.value(sim, player)


class ValueBot:
    """The evaluation alone, without search: fast, and the policy the training plays."""

    name = "value"

    def __init__(self, seed: int = 0, model: ValueModel | None = None, explore: float = 0.0) -> None:
        self.model = model
        self.explore = explore
        self._rng = random.Random(seed)

    def choose(self, game: Game, player: int) -> Move:
        moves = game.legal_moves(player)
        if len(moves) == 1:
            return moves[0]
        if self.explore and self._rng.random() < self.explore:
            return moves[int(self._rng.random() * len(moves))]
        return evaluate_moves(game, player, self.model or shipped_model(game.spec.id))[0][1]

"""A review's costs checked the slow way: strong rollouts to the end of the game on common dice.

How it works, at length: docs/design.md (bots/verify.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..rules import Game, Move
from .blas import blas_threads
from .clairvoyant import TimelineDice, play_chance
from .futures import collector_paused
from .strong import StrongBot

if TYPE_CHECKING:
    from .review import Review

ROLLOUTS = 24  # rollouts per decision verified, by default (each plays both moves to the end)
MOST_ROLLOUTS = 1000
MOST_DECISIONS = 50  # ``--verify K``: at most this many decisions
ROLLOUT_SEEDS = 2_000_000  # the rollouts' dice seeds are numbered from here (apart from the review's)
PLAYER_SEED = 7  # the strong player's own seed in the rollouts (not the review's 0)
# The valuation's own error, in points, for a cost of ``c``: ERROR_BASE + ERROR_SHARE × |c|,
# as a standard deviation. Fitted on tuning seed 500 (benchmarks/review_verify.py --seed 500
# --fit: 21 costly decisions of 11 greedy and random games, 32 rollouts each, 2026-12-06) by
# maximum likelihood, each difference between a cost and its rollouts' taken as normal with
# the futures', the rollouts' and this variance: the likelihood is flat in the base (0 to 6
# points within 0.6 of its log), so the base is set at 1 point (a small cost is not exact
# either) and the share fitted given it (0.46 with a base of 0). There, 19 of the 21 agree
# within twice the combined standard error (11 with the futures' standard error alone).
ERROR_BASE = 1.0
ERROR_SHARE = 0.42


def valuation_error(cost: float) -> float:
    """The standard deviation of the valuation's own error in a cost of ``cost`` points (see
    :data:`ERROR_BASE`): what the futures' standard error leaves out."""
    return ERROR_BASE + ERROR_SHARE * abs(cost)


def combined_se(cost: float, cost_se: float) -> float:
    """A cost's whole uncertainty: the futures' standard error and the valuation's own error."""
    return math.hypot(cost_se, valuation_error(cost))


def agrees(cost: float, cost_error: float, verified: Verified) -> bool:
    """Whether a cost shown as ``cost`` ± ``cost_error`` agrees with its verification: within
    twice their combined standard error."""
    return abs(cost - verified.cost) <= 2 * math.hypot(cost_error, verified.se)


class VerifyError(ValueError):
    """Verification settings out of range: ``template`` is the English sentence (translated by
    the front ends), ``params`` fill it."""

    def __init__(self, template: str, **params: object) -> None:
        super().__init__(template.format(**params))
        self.template = template
        self.params = params


@dataclass(frozen=True)
class Verified:
    """A decision's cost by rollouts: the mean final-score difference, its standard error."""

    cost: float
    se: float
    rollouts: int

    def to_json(self) -> dict[str, float | int]:
        return {"cost": round(self.cost, 2), "se": round(self.se, 2), "rollouts": self.rollouts}


def rollout_score(game: Game, player: int, move: Move, dice: TimelineDice, bots: list[StrongBot]) -> int:
    """``player``'s final score when ``move`` is played in ``game`` (not changed) and everything
    after by ``bots`` (one per seat), on ``dice``'s faces."""
    line = game.copy(dice="external", history=False)
    dice.follow(line)  # the rolls of this turn are counted from the decision, the same for both moves
    line.play(move, player)
    play_chance(line, dice)
    while not line.is_over:
        mover = line.to_move
        assert mover is not None and mover >= 0
        line.play(bots[mover].choose(line, mover), mover)
        play_chance(line, dice)
    return line.score(player).total


def verify_decision(
    game: Game, player: int, played: Move, best: Move, rollouts: int = ROLLOUTS, seed: int = 0
) -> Verified:
    """What playing ``played`` instead of ``best`` in ``game`` costs ``player``, by ``rollouts``
    strong rollouts of each to the end on common dice (the module's docstring)."""
    if not 2 <= rollouts <= MOST_ROLLOUTS:
        raise VerifyError("rollouts: from 2 to {most}, not {n}", most=MOST_ROLLOUTS, n=rollouts)
    if played == best:
        return Verified(0.0, 0.0, 0)
    bots = [StrongBot(PLAYER_SEED + p) for p in range(game.n_players)]
    differences: list[float] = []
    with blas_threads(), collector_paused():
        for i in range(rollouts):
            key = hash((seed, len(game.history), game.dice_rolled, ROLLOUT_SEEDS + i))
            best_score = rollout_score(game, player, best, TimelineDice(key), bots)
            played_score = rollout_score(game, player, played, TimelineDice(key), bots)
            differences.append(best_score - played_score)
    mean = sum(differences) / rollouts
    variance = sum((d - mean) ** 2 for d in differences) / (rollouts - 1)
    return Verified(mean, math.sqrt(variance / rollouts), rollouts)


def verify_review(
    review: Review,
    positions: dict[int, Game],
    count: int,
    rollouts: int = ROLLOUTS,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> dict[int, Verified]:
    """The ``count`` costliest decisions of ``review`` verified by rollouts, by move number;
    ``positions``: the position before each of them (``review_text.positions``)."""
    if not 1 <= count <= MOST_DECISIONS:
        raise VerifyError("decisions to verify: from 1 to {most}, not {n}", most=MOST_DECISIONS, n=count)
    if not 2 <= rollouts <= MOST_ROLLOUTS:
        raise VerifyError("rollouts: from 2 to {most}, not {n}", most=MOST_ROLLOUTS, n=rollouts)
    chosen = review.costliest(count)
    found: dict[int, Verified] = {}
    for k, d in enumerate(chosen, start=1):
        game = positions[d.move_number]
        found[d.move_number] = verify_decision(game, review.player, d.played, d.best, rollouts, seed)
        if progress is not None:
            progress(k, len(chosen))
    return found


def with_verified(review: Review, found: dict[int, Verified]) -> Review:
    """``review`` with each decision of ``found`` (by move number) carrying its verification."""
    decisions = [replace(d, verified=found.get(d.move_number, d.verified)) for d in review.decisions]
    return replace(review, decisions=decisions)


__all__ = [
    "ERROR_BASE",
    "ERROR_SHARE",
    "MOST_DECISIONS",
    "ROLLOUTS",
    "Verified",
    "VerifyError",
    "agrees",
    "combined_se",
    "valuation_error",
    "verify_decision",
    "verify_review",
    "with_verified",
]

"""What moves are worth, without the winner's curse: the one analysis that the hint, the
"computer players" panel and the review all show.

How it works, at length: docs/design.md (bots/appraisal.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..rules import CHANCE, Game, Move
from .blas import blas_threads
from .clairvoyant import TimelineDice
from .futures import FIRST_DECISION, WHOLE, collector_paused, future_values
from .lift import difference_scale, lift
from .network import ValueNetwork, valuation_network
from .strong import Estimate, StrongBot
from .verify import rollout_score, valuation_error

# Futures per move valued: first FIRST_FUTURES, then more by FIRST_FUTURES while a difference's
# standard error is above ERROR_SHARE_DRAWN of the valuation's own error for that cost
# (``verify.valuation_error``: 1 point, and 0.42 of the cost, the part no count of futures
# removes), up to MOST_FUTURES (by game: Vraiment très futé's turns are dearer). Past that
# share, more futures would shrink the cost's whole ± (the two combined) by less than an eighth:
# half a point on a cost near 0, 1.5 on a cost of 5, 2.6 on one of 10. The choice alone
# (nothing to compare it with) is valued on FIRST_FUTURES.
FIRST_FUTURES: dict[str, int] = {"tres-fute": 8, "vraiment-tres-fute": 8}
MOST_FUTURES: dict[str, int] = {"tres-fute": 32, "vraiment-tres-fute": 16}
ERROR_SHARE_DRAWN = 0.5
# The valuation futures go one turn further than the strong player's own: the value of its
# choice is then read from other positions than those that chose it, so that the network's own
# errors, which the choice favours (a best of several estimates), are not counted in its value.
MORE_TURNS = 1
# The valuation futures draw aligned dice (``future_values(aligned=True)``): a future gives the
# same die the same face at the same roll of the same turn after either move, so that two moves
# that leave different dice to roll are still compared on the same luck.
ALIGNED = True
# Where that turn more ends (``future_values(short=...)``): in Très futé at its first decision
# after the roll, which charges a game's decisions as the whole turn did for two thirds of the
# time; Vraiment très futé plays it out, as its shorter futures charged greedy games 3 to 4 %
# more (paired, on the same games: docs/review.md).
SHORT_LAST_TURN: dict[str, str] = {"tres-fute": FIRST_DECISION, "vraiment-tres-fute": WHOLE}
# The valuation futures' seeds are numbered from here, apart from the choice's (0 to a few dozen).
VALUATION_SEEDS = 1_000_000
# In a solo game's last round the futures play to the game's end, so their values are final
# scores, exact but for how the rest is played: by the network's best moves, which there
# (the last picks, the last +1) play worse than the strong player, and not alike after every
# move (a last-round pick valued 13.9 ± 1.2 on them cost 29.2 ± 1.2 by 160 strong rollouts;
# on held-out seed 5300, 3 of the 18 last decisions checked were off by more than twice their
# ±). There each move is valued instead by rollouts of the strong player to the end on common
# dice (``verify.rollout_score``, as ``--verify`` does, from other seeds): exact final scores,
# the strong player's own play, neither lift nor difference scale. LAST_ROUND_ROLLOUTS at a
# time, as the futures, up to LAST_ROUND_MOST (a greedy game's review takes about 40 % longer
# in Très futé: docs/review.md, "Speed"). Not in Vraiment très futé, where
# the strong player's rollouts made a greedy game's review 3 to 7 times as long (its search is
# dearer): there the last round keeps the valuation futures.
LAST_ROUND_ROLLOUTS = 8
LAST_ROUND_MOST = 16
ROLLED_OUT_GAMES = frozenset({"tres-fute"})
ROLLOUT_PLAYER_SEED = 3  # the strong player's seed in those rollouts (not the choice's 0, nor --verify's 7)


@dataclass(frozen=True)
class Value:
    """A move's expected final score on the valuation futures, and the standard error of the
    difference between the strong choice's and its (0 for the choice itself)."""

    expected: float
    difference_se: float
    futures: int


@dataclass(frozen=True)
class Appraisal:
    """A position's analysis: every legal move ranked as the strong player ranks them (its
    choice first), and the moves asked about valued on the valuation futures."""

    player: int
    ranked: list[Estimate]  # the strong player's analysis, its choice first
    values: dict[Move, Value]  # the choice and each move asked about

    @property
    def choice(self) -> Move:
        return self.ranked[0].move

    @property
    def best(self) -> Value:
        return self.values[self.choice]

    def cost(self, move: Move) -> float:
        """Expected points ``move`` gives away against the strong choice (below 0 where the
        valuation futures found it better)."""
        return self.best.expected - self.values[move].expected

    def expected(self) -> list[tuple[Move, float, bool]]:
        """Every legal move with its expected final score, the strong choice first: the others
        on the valuation futures where valued (never above the choice: as in the review, a move
        costs nothing against it at best), else by the analysis (capped at the lowest valued
        one); and whether it was valued there."""
        top = self.best.expected
        valued = [(m, min(v.expected, top), True) for m, v in self.values.items() if m != self.choice]
        low = min([top, *(v for _, v, _ in valued)])
        rest = [(e.move, min(e.value, low), False) for e in self.ranked if e.move not in self.values]
        others = sorted(valued, key=lambda x: -x[1]) + sorted(rest, key=lambda x: -x[1])
        return [(self.choice, top, True), *others]


def appraise(
    game: Game, player: int | None = None, moves: tuple[Move, ...] = (), seed: int = 0, searched: bool = False
) -> Appraisal:
    """The strong player's choice (seed ``seed``) and ``moves`` valued on the valuation futures;
    with ``searched``, the other moves the strong player searched too (the hint's list)."""
    if player is None:
        player = game.to_move
    if player is None or player == CHANCE:
        raise ValueError("no player decides now")
    ranked = StrongBot(seed).analyse(game, player)
    wanted = [ranked[0].move]
    asked = [*(e.move for e in ranked if e.searched and searched), *moves]
    wanted += [m for m in asked if m not in wanted]
    with blas_threads(), collector_paused():
        if rolled_out(game):
            values = _rollout_values(game, player, wanted, seed)
        else:
            values = _values(game, player, wanted, seed, valuation_network(game))
    return Appraisal(player, ranked, values)


def rolled_out(game: Game) -> bool:
    """Whether ``game``'s moves are valued by strong rollouts to the end rather than on the
    valuation futures: a solo game's last round, in Très futé (see :data:`LAST_ROUND_ROLLOUTS`)."""
    return game.n_players == 1 and game.round >= game.rounds and game.spec.id in ROLLED_OUT_GAMES


def _rollout_values(game: Game, player: int, moves: list[Move], seed: int) -> dict[Move, Value]:
    """Each move's mean final score over strong rollouts to the end on common dice, drawn as
    :func:`_values` draws its futures (the choice's value on its first rollouts alone, each
    other move's its difference to the choice on its own), unscaled: final scores are exact."""
    bots = [StrongBot(ROLLOUT_PLAYER_SEED + p) for p in range(game.n_players)]
    step, most = LAST_ROUND_ROLLOUTS, LAST_ROUND_MOST
    found: list[list[float]] = [[] for _ in moves]
    active = list(range(len(moves)))
    while active:
        n = len(found[active[0]])
        for i in range(n, n + step):
            key = hash((seed, len(game.history), game.dice_rolled, VALUATION_SEEDS + i))
            for k in active:
                found[k].append(float(rollout_score(game, player, moves[k], TimelineDice(key), bots)))
        active = [k for k in active if k == 0 or not (len(found[k]) >= most or _precise(found[0], found[k], 1.0))]
        if active == [0]:
            active = []
    first = found[0]
    best = sum(first[:step]) / step
    values = {moves[0]: Value(best, 0.0, step)}
    for move, other in zip(moves[1:], found[1:], strict=True):
        paired = first[: len(other)]
        difference = sum(a - b for a, b in zip(paired, other, strict=True)) / len(other)
        values[move] = Value(best - difference, _difference_se(paired, other), len(other))
    return values


def _values(game: Game, player: int, moves: list[Move], seed: int, network: ValueNetwork) -> dict[Move, Value]:
    """Each move's mean on the valuation futures, drawn until every difference to the first
    move is measured precisely enough (:func:`_precise`, or MOST_FUTURES are drawn)."""
    starts = []
    for move in moves:
        after = game.copy(dice="external", history=False)
        after.play(move, player)
        starts.append(after)
    step, most = FIRST_FUTURES[game.spec.id], MOST_FUTURES[game.spec.id]
    scale = difference_scale(game, network)
    found: list[list[float]] = [[] for _ in moves]
    # Each move's futures are drawn until its own difference to the choice is precise, whatever
    # else is valued beside it: the hint, the panel and the review show the same numbers.
    active = list(range(len(moves)))
    while active:
        n = len(found[active[0]])
        seeds = [hash((seed, len(game.history), game.dice_rolled, VALUATION_SEEDS + i)) for i in range(n, n + step)]
        these = [starts[k] for k in active]
        drawn = future_values(
            these, seeds, player, network, more_turns=MORE_TURNS, aligned=ALIGNED, short=SHORT_LAST_TURN[game.spec.id]
        )
        for k, more in zip(active, drawn, strict=True):
            found[k] += more
        active = [k for k in active if k == 0 or not (len(found[k]) >= most or _precise(found[0], found[k], scale))]
        if active == [0]:
            active = []
    # The choice's value on its first futures alone, lifted to what the strong player scores;
    # each other move's, that minus the difference measured on its own futures, times the
    # difference scale (the network's values are compressed or stretched: ``bots/lift.py``).
    first = found[0]
    lifted = lift(game, player, starts[0], network)
    best = sum(first[:step]) / step + lifted
    values = {moves[0]: Value(best, 0.0, step)}
    for move, other in zip(moves[1:], found[1:], strict=True):
        paired = first[: len(other)]
        difference = scale * sum(a - b for a, b in zip(paired, other, strict=True)) / len(other)
        values[move] = Value(best - difference, scale * _difference_se(paired, other), len(other))
    return values


def _precise(first: list[float], other: list[float], scale: float) -> bool:
    """Whether the difference between two moves (times ``scale``) is measured precisely enough
    on ``other``'s futures: its standard error is at most ERROR_SHARE_DRAWN of the valuation's
    own error for a cost of that size."""
    paired = first[: len(other)]
    cost = scale * (sum(paired) - sum(other)) / len(other)
    return scale * _difference_se(paired, other) <= ERROR_SHARE_DRAWN * valuation_error(cost)


def _difference_se(first: list[float], other: list[float]) -> float:
    n = len(first)
    d = [a - b for a, b in zip(first, other, strict=True)]
    mean = sum(d) / n
    return math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1) / n) if n > 1 else math.inf


__all__ = [
    "ERROR_SHARE_DRAWN",
    "FIRST_FUTURES",
    "LAST_ROUND_MOST",
    "LAST_ROUND_ROLLOUTS",
    "MORE_TURNS",
    "MOST_FUTURES",
    "Appraisal",
    "Value",
    "appraise",
    "lift",
    "rolled_out",
]

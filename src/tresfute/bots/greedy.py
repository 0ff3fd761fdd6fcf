"""The greedy player: the move with the best immediate gain.

Each legal move is played on a copy of the game that waits for dice from outside (so no
future die is ever seen) and the player's sheet is valued: its score, plus a little for
progress towards lines and boxes still open, for actions and pending bonuses, minus what the
order constraints cost later; a pick also pays for the dice it sends to the platter.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import Game, Move, MoveKind, Where
from ..rules.kinds import ActionKind, Grid, Order, Track, TrackScoring

ACTION_VALUE = {ActionKind.REROLL: 2.5, ActionKind.PLUS_ONE: 4.0, ActionKind.REPRISE: 2.0}


@dataclass(frozen=True)
class Weights:
    """The greedy player's valuation, set by hand per game on tuning seeds (docs/bench.md)."""

    pending: float = 4.0  # a bonus entry still to place
    platter_cost: float = 1.6  # each die a pick sends to the platter before the last pick
    reroll_hope: float = 3.0  # what a reroll is expected to find
    fox_floor: float = 8.0  # foxes are worth the lowest area: value them even while it is 0
    line: float = 0.5  # progress towards a line's points or bonus, by the square of its fill
    growth: float = 1.5  # tracks scored by their last box: each box makes the next worth more
    circle: float = 3.0  # a circled number, a cross waiting to happen (Vraiment très futé's yellow)


WEIGHTS = {
    "tres-fute": Weights(pending=6.0, platter_cost=3.2, reroll_hope=4.0, fox_floor=0.0, line=0.3, growth=3.5),
    "vraiment-tres-fute": Weights(),
}


def evaluate(game: Game, player: int, weights: Weights | None = None) -> float:
    """A rough value of the player's sheet: score now plus future prospects."""
    w = weights or WEIGHTS.get(game.spec.id, Weights())
    sheet = game.sheets[player]
    score = sheet.score()
    value = float(sum(score.areas.values()))
    value += len(sheet.foxes) * (max(score.fox_value, 0) + w.fox_floor)
    for a, area in game.spec.areas.items():
        state = sheet.areas[a]
        if isinstance(area, Grid):
            value += _grid_prospects(area, state, w)
        else:
            value += _track_prospects(area, state, w)
    for action, weight in ACTION_VALUE.items():
        value += weight * sheet.available(action)
    value += w.pending * len(game.pending[player])
    return value


def _grid_prospects(area: Grid, state: list[int], w: Weights) -> float:
    value = 0.0
    for line in area.lines:
        size = len(line.cells)
        filled = sum(1 for i in line.cells if state[i])
        if filled < size and filled:
            reward = line.points + (6.0 if line.bonus is not None else 0.0)
            value += w.line * reward * (filled / size) ** 2
    if area.marks == 2:  # circled numbers are crosses waiting to happen
        value += w.circle * sum(1 for level in state if level == 1)
    return value


def _track_prospects(area: Track, state: list[int], w: Weights) -> float:
    if not state or len(state) >= len(area.boxes):
        return 0.0
    last = state[-1]
    value = 0.0
    if area.scoring is TrackScoring.LAST_FILLED:
        value += w.growth * len(state)
    if area.order is Order.INCREASING_RESET_AFTER_6 and last != 6:
        value -= 0.9 * last  # a high number leaves few numbers to follow
    elif area.order is Order.NON_INCREASING:
        value -= 0.45 * (max(area.choice_values) - last)
    if area.scoring is TrackScoring.PAIRS and len(state) % 2 == 1:
        value += last - 2 * area.boxes[len(state)].multiplier  # a first half, awaiting a low second
    return value


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed  # the greedy player is deterministic; the seed is kept for the interface
        self.weights = Weights()

    def rank(self, game: Game, player: int) -> list[tuple[float, Move]]:
        """Every legal move with its value for this player, best first."""
        moves = game.legal_moves(player)
        self.weights = WEIGHTS.get(game.spec.id, Weights())
        base = evaluate(game, player, self.weights)
        ranked = [(self._value(game, player, move, base), move) for move in moves]
        ranked.sort(key=lambda vm: -vm[0])
        return ranked

    def choose(self, game: Game, player: int) -> Move:
        moves = game.legal_moves(player)
        if len(moves) == 1:
            return moves[0]
        return self.rank(game, player)[0][1]

    def _value(self, game: Game, player: int, move: Move, base: float) -> float:
        kind = move.kind
        if kind is MoveKind.REROLL:  # give up one action for what a fresh roll may bring
            return base - ACTION_VALUE[ActionKind.REROLL] + self.weights.reroll_hope
        if kind is MoveKind.REPRISE:
            return base - ACTION_VALUE[ActionKind.REPRISE] + (3.0 if Where.HAND not in game.where else 0.5)
        if kind in (MoveKind.ROLL, MoveKind.DONE, MoveKind.PASS):
            return base
        look = game.copy(dice="external")
        look.play(move, player)
        value = evaluate(look, player, self.weights)
        if kind is MoveKind.PICK and game.phase == "choose" and game.picks < 2:
            picked = game.values[game.dice.index(move.die or "")]
            sent = sum(1 for i in range(6) if game.where[i] is Where.HAND and game.values[i] < picked)
            value -= self.weights.platter_cost * sent
        return value

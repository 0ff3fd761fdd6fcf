"""The review of a finished game: what each decision of one player cost against the strong player.

For every decision of the reviewed player, the position is analysed as the strong player does
it (:meth:`StrongBot.analyse`): the network ranks every legal move, and its best candidates are
searched on simulated futures. The move played is always valued by that same search, on the
same simulated dice (common random numbers): if the search did not already cover it, it is
searched now, and so is the strong player's choice when the network alone chose it. The cost
of a decision is the strong choice's expected final score minus the played move's, never less
than 0. A game played by the strong player itself (seed 0, the review's) thus costs 0 at every
decision: the review and the player run the same analysis on the same positions.

Only what the review needs is searched: the strong player's own candidates and the played
move; the other legal moves keep the network's value. (Advancing all the futures of a search
side by side, to value their afterstates in one batch through the network, was tried and was
slower: the large batches threw away the area states the network keeps.) ``docs/review.md``
explains the labels, the accuracy, the JSON form and the speed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..i18n import N_
from ..rules import CHANCE, Game, Move, parse_move
from .greedy import GreedyBot
from .network import ValueNetwork, shipped_network
from .strong import Estimate, StrongBot, evaluate_moves, roll_own_dice

if TYPE_CHECKING:
    from ..records import Record

# A decision's label by its cost in expected points (docs/review.md says why these).
LABELS: tuple[tuple[str, float], ...] = (
    ("best", 0.5),
    ("good", 2.0),
    ("inaccuracy", 5.0),
    ("mistake", 10.0),
    ("blunder", float("inf")),
)
FORMAT = "tresfute-review/1"  # the JSON form of a review (docs/review.md)
COSTLIEST = 3  # the decisions listed first, the costliest


class ReviewError(ValueError):
    """A game that cannot be reviewed (not finished, no such player): ``template`` is the
    English sentence (translated by the front ends through gettext), ``params`` fill it."""

    def __init__(self, template: str, **params: object) -> None:
        super().__init__(template.format(**params))
        self.template = template
        self.params = params


def label(cost: float) -> str:
    """The word for a decision that cost ``cost`` expected points (``LABELS``)."""
    for name, below in LABELS:
        if cost < below:
            return name
    return LABELS[-1][0]


@dataclass(frozen=True)
class Die:
    """One die as it was when the decision was taken."""

    die: str  # its letter (``Game.dice``)
    value: int  # 0 before its first roll
    where: str  # hand, platter or field (``rules.game.Where``)


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed player, valued against the strong player's choice."""

    move_number: int  # the record's move (from 1) played here: ``tresfute analyse --move N``
    round: int  # from 1
    phase: str
    dice: tuple[Die, ...]
    legal_moves: int
    played: Move
    best: Move  # the strong player's choice
    played_value: float  # expected final score after the played move
    best_value: float  # and after the strong choice, by the same search

    @property
    def cost(self) -> float:
        """Expected points lost against the strong choice; never negative."""
        return max(0.0, self.best_value - self.played_value)

    @property
    def label(self) -> str:
        return label(self.cost)


@dataclass
class Review:
    """A player's decisions in one finished game, with what they cost."""

    game: str
    player: int  # from 0
    name: str
    final_score: int
    start_value: float  # the strong player's expected final score at the player's first decision
    decisions: list[Decision] = field(default_factory=list)

    @property
    def total_cost(self) -> float:
        return sum(d.cost for d in self.decisions)

    @property
    def mean_cost(self) -> float:
        """Expected points lost per decision."""
        return self.total_cost / len(self.decisions) if self.decisions else 0.0

    @property
    def accuracy(self) -> float:
        """The share (in %) of the strong player's expected final score that the decisions
        kept: 100 × (1 − total cost / start value), from 0 to 100 (docs/review.md)."""
        if not self.decisions or self.start_value <= 0:
            return 100.0
        return max(0.0, min(100.0, 100.0 * (1.0 - self.total_cost / self.start_value)))

    def chart(self) -> list[float]:
        """The expected final score through the game: before the first decision, then after
        each decision (the played move's value; after the last, the final score)."""
        return [self.start_value, *(d.played_value for d in self.decisions)]

    def costliest(self, count: int = COSTLIEST) -> list[Decision]:
        """The costliest decisions that cost something, costliest first (ties: earliest first)."""
        ranked = sorted((d for d in self.decisions if d.cost > 0), key=lambda d: (-d.cost, d.move_number))
        return ranked[:count]

    def counts(self) -> dict[str, int]:
        """How many decisions got each label."""
        counts = {name: 0 for name, _ in LABELS}
        for d in self.decisions:
            counts[d.label] += 1
        return counts

    def to_json(self, describe: Callable[[Decision, Move], str] | None = None) -> dict[str, Any]:
        """The review as plain data (the schema is in ``docs/review.md``). ``describe`` gives a
        move's sentence in the reader's language (``text.describe_move``), if wanted."""

        def entry(d: Decision) -> dict[str, Any]:
            data: dict[str, Any] = {
                "move_number": d.move_number,
                "round": d.round,
                "phase": d.phase,
                "dice": [{"die": x.die, "value": x.value, "where": x.where} for x in d.dice],
                "legal_moves": d.legal_moves,
                "played": str(d.played),
                "best": str(d.best),
                "played_expected": round(d.played_value, 2),
                "best_expected": round(d.best_value, 2),
                "cost": round(d.cost, 2),
                "label": d.label,
            }
            if describe is not None:
                data["played_text"] = describe(d, d.played)
                data["best_text"] = describe(d, d.best)
            return data

        return {
            "format": FORMAT,
            "game": self.game,
            "player": self.player + 1,
            "name": self.name,
            "final_score": self.final_score,
            "accuracy": round(self.accuracy, 1),
            "total_cost": round(self.total_cost, 2),
            "mean_cost": round(self.mean_cost, 2),
            "labels": self.counts(),
            "thresholds": {name: below for name, below in LABELS if below != float("inf")},
            "costliest": [d.move_number for d in self.costliest()],
            "chart": [round(v, 2) for v in self.chart()],
            "decisions": [entry(d) for d in self.decisions],
        }


class Valuer:
    """Values moves as the strong player's analysis does, searching any move it left out.

    ``value(game, player, moves)`` gives the strong analysis (its choice first) and each asked
    move's expected final score by the same search, on the same simulated dice.
    """

    def __init__(self, seed: int = 0) -> None:
        self.strong = StrongBot(seed)
        self.seed = seed

    def value(self, game: Game, player: int, moves: list[Move]) -> tuple[list[Estimate], dict[Move, float]]:
        estimates = self.strong.analyse(game, player)
        by_move = {e.move: e for e in estimates}
        best = estimates[0]
        values: dict[Move, float] = {}
        missing: list[Move] = []
        for move in moves:
            e = by_move[move]
            if e.searched or move == best.move:
                values[move] = e.value
            else:
                missing.append(move)
        if missing:
            # the strong choice too, when the network alone chose it: compared on the same dice
            if not best.searched:
                missing.append(best.move)
            values.update(self.search(game, player, missing))
            values.setdefault(best.move, best.value)
            if not best.searched:
                estimates = [best._replace(value=values[best.move], searched=True), *estimates[1:]]
        return estimates, values

    def search(self, game: Game, player: int, moves: list[Move]) -> dict[Move, float]:
        """Each move's expected final score by the strong player's search: the same futures
        (seeds, dice), the rest of the turn played by the network's best moves."""
        network = shipped_network(game.spec.id)
        settings = self.strong.search(game)
        seeds = [hash((self.seed, len(game.history), game.dice_rolled, i)) for i in range(settings.samples)]
        values = {}
        for move in moves:
            total = 0.0
            for s in seeds:
                sim = game.copy(dice="external")
                sim.play(move, player)
                total += _future(sim, player, network, random.Random(s))
            values[move] = total / len(seeds)
        return values


def _future(sim: Game, player: int, network: ValueNetwork, rng: random.Random) -> float:
    """The value once the turn is over, its rest played by the network's best moves, on dice
    rolled from ``rng`` (as the strong player's search does)."""
    turn = (sim.round, sim.turn, sim.solo_passive)
    while not sim.is_over and (sim.round, sim.turn, sim.solo_passive) == turn:
        p = sim.to_move
        if p == CHANCE:
            roll_own_dice(sim, rng)
        else:
            assert p is not None
            sim.play(evaluate_moves(sim, p, network)[0][1], p)
    return network.value(sim, player)


def _dice(game: Game) -> tuple[Die, ...]:
    return tuple(Die(d, v, str(w)) for d, v, w in zip(game.dice, game.values, game.where, strict=True))


def review_game(
    record: Record,
    player: int = 0,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review ``player``'s decisions (from 0) in a finished game record (``records.Record``).

    Raises ``records.RecordError`` for a record that does not replay, :class:`ReviewError` for
    a game not finished or a player not in it. ``progress(done, total)`` is told after each
    decision reviewed.
    """
    from .. import records  # the record's reading and checks (an adapter above the bots)

    final = records.replay(record)
    if not 0 <= player < final.n_players:
        raise ReviewError(N_("there is no player {n} in this game of {players}"), n=player + 1, players=final.n_players)
    if not final.is_over:
        raise ReviewError(N_("the game is not finished: only a finished game is reviewed"))
    entries = [records.split_entry(entry) for entry in record.moves]
    total = sum(1 for seat, _ in entries if seat == player)
    valuer = Valuer(seed)
    game = Game(record.game, players=len(record.players), seed=record.seed, dice=record.dice, rules=final.rules)
    review = Review(record.game, player, record.players[player], final.score(player).total, 0.0)

    for number, (seat, text) in enumerate(entries, start=1):
        move = parse_move(text)
        if seat == player:
            estimates, values = valuer.value(game, player, [move])
            best = estimates[0]
            decision = Decision(
                move_number=number,
                round=game.round,
                phase=str(game.phase),
                dice=_dice(game),
                legal_moves=len(estimates),
                played=move,
                best=best.move,
                played_value=values[move],
                best_value=best.value,
            )
            if not review.decisions:
                review.start_value = decision.best_value
            review.decisions.append(decision)
            if progress is not None:
                progress(len(review.decisions), total)
        game.play(move, seat)
    return review


@dataclass(frozen=True)
class Choice:
    """What a computer player would play, and its expected final score by the strong search."""

    bot: str
    move: Move
    expected: float


def computer_choices(game: Game, player: int | None = None, seed: int = 0) -> list[Choice]:
    """What the greedy and the strong players would play now, each move valued by the strong
    player's search on the same simulated dice (the greedy move searched if the strong player
    did not search it): the panel "what would each computer player play"."""
    if player is None:
        player = game.to_move
    if player is None or player == CHANCE or player not in game.players_to_move:
        raise ReviewError(N_("no player decides now"))
    greedy = GreedyBot(seed).choose(game, player)
    estimates, values = Valuer(seed).value(game, player, [greedy])
    strong = estimates[0]
    return [
        Choice("greedy", greedy, values[greedy]),
        Choice("strong", strong.move, strong.value),
    ]


__all__ = [
    "COSTLIEST",
    "FORMAT",
    "LABELS",
    "Choice",
    "Decision",
    "Die",
    "Review",
    "ReviewError",
    "Valuer",
    "computer_choices",
    "label",
    "review_game",
]

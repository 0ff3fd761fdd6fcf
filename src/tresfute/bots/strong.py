"""The strong player, and the analysis of a position that it is built on.

Every legal move is first valued by the value network (``bots/network.py``) on the position it
leads to (its "afterstate"). The best few may then be searched: in each of several simulated futures, on dice
the player rolls itself (never the game's own dice), the rest of the turn is played by the
evaluation's best moves, and the position at the end of the turn is valued (alone at the table,
at the end of the player's picks once a future has rolled: ``bots/futures.py``). The average over
the futures is the move's estimate of the final score. All candidates meet the same simulated
dice (common random numbers), and the futures are drawn from the position and the bot's seed,
so the analysis and the bot's choice agree, and a game is replayed identically.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from ..rules import CHANCE, Game, Move
from .blas import blas_threads
from .futures import FIRST_DECISION, WHOLE, collector_paused, future_values, own_dice
from .network import ValueNetwork, network_for


def roll_own_dice(game: Game, rng: random.Random) -> None:
    """Play the chance move due in a copy that waits for outside dice."""
    game.play(own_dice(game, rng))


class Estimate(NamedTuple):
    """A legal move and the expected final score of the player who plays it."""

    move: Move
    value: float
    searched: bool  # valued by the search; otherwise by the evaluation alone


def afterstates(game: Game, player: int, history: bool = True) -> tuple[list[Move], list[Game]]:
    """Every legal move of ``player`` and the position right after it, before any new dice
    (``history``: see ``Game.copy``)."""
    pairs = game.afterstates(player, history)
    return [move for move, _ in pairs], [after for _, after in pairs]


def evaluate_moves(game: Game, player: int, network: ValueNetwork) -> list[tuple[float, Move]]:
    """Every legal move with the network's value of the position it leads to, best first."""
    return [(value, move) for value, move, _ in _ranked(game, player, network)]


def _ranked(game: Game, player: int, network: ValueNetwork) -> list[tuple[float, Move, Game]]:
    """Every legal move with its value and the position it leads to, best first."""
    moves, afters = afterstates(game, player, history=False)
    ranked = list(zip(network.values(afters, player), moves, afters, strict=True))
    ranked.sort(key=lambda vma: -vma[0])
    return ranked


class Search(NamedTuple):
    """How far the strong player looks past the network's values (see :class:`StrongBot`)."""

    candidates: int  # at most this many of the network's best moves are searched (0 or 1: none)
    samples: int  # simulated futures per candidate
    margin: float  # only the moves within this many points of the network's best
    ends: str = WHOLE  # where a future that has rolled ends (``future_values(short=...)``)
    stratified: bool = False  # the futures' first rolls share out the faces (``future_values``)

    def overridden(self, candidates: int | None, samples: int | None, margin: float | None) -> Search:
        """These settings with those given (not None) in their place: a bot's own over the game's."""
        return Search(
            self.candidates if candidates is None else candidates,
            self.samples if samples is None else samples,
            self.margin if margin is None else margin,
            self.ends,
            self.stratified,
        )


# Chosen on tuning games (seed 5, never the held-out benchmark's), see docs/bench.md: three
# candidates within 4 points on six futures each gained 4.1 points over two within 2 on four in
# Très futé (271.0 against 266.9, 200 games; median 11.6 ms per decision); wider still (four
# within 6, eight futures) gained nothing more there (270.7). In Vraiment très futé, with the
# mean of phases 6-8 on 300 games: three within 4 on six futures 304.6, four within 6 on eight
# 308.5 (median 42 ms), three within 4 on twelve 308.3 (44 ms). With Très futé's dense network
# (phase 7), on 500 games of seed 6: three within 4 on six 277.9, two within 4 on six 278.8
# (276.7 against 278.3 on seed 7's), on three or four futures 274.4-274.9, two within 3 276.1,
# within 6 276.9. Those settings stay at a table (``TABLE_SEARCH``), where futures go to the end
# of the turn. Alone, futures end at the end of the player's picks (``bots/futures.py``), which
# makes them cheaper, and one more future each is searched: on 2,000 games of seed 9, against
# the table's settings with whole turns, Très futé 277.8 against 277.2 (paired +0.6 ± 0.7; six
# futures 276.8) in five sixths of the time, Vraiment très futé 316.1 against 315.8 (+0.2 ± 1.0;
# eight futures 314.7) in about three quarters. Très futé's solo futures are shorter still: a
# roll and the pick after it (``ends``), on twice as many, their first rolls stratified: on
# 3,000 games of tuning seed 81, fourteen such futures +1.7 ± 0.6 over seven to the end of the
# picks (stratified, +2.7 ± 0.6), in less time; twenty +0.2 more, four within 6 +0.1 (not kept).
# Vraiment très futé's the same way, eighteen for nine: +5.5 ± 1.5 on 952 games of seed 82.
SEARCH: dict[str, Search] = {
    "tres-fute": Search(candidates=3, samples=14, margin=4.0, ends=FIRST_DECISION, stratified=True),
    "vraiment-tres-fute": Search(candidates=4, samples=18, margin=6.0, ends=FIRST_DECISION, stratified=True),
}
TABLE_SEARCH: dict[str, Search] = {
    "tres-fute": Search(candidates=3, samples=6, margin=4.0),
    "vraiment-tres-fute": Search(candidates=4, samples=8, margin=6.0),
}


@dataclass(eq=False)
class Searching:
    """What a searching player is built with: its seed and network, and the search settings
    (``candidates``, ``samples``, ``margin``: see :class:`Search`) that replace the game's own."""

    seed: int = 0
    candidates: int | None = None
    samples: int | None = None
    network: ValueNetwork | None = None
    margin: float | None = None


@dataclass(eq=False)
class StrongBot(Searching):
    """The value network's best move, with a search over the rest of the turn where it hesitates.

    Up to ``candidates`` moves (the network's best, those within ``margin`` points of the best
    one) are searched on ``samples`` simulated futures each; when no other move comes that close,
    or with 0 candidates, the network's best move is played directly. The search thus goes
    where the network hesitates, and most decisions cost one batch of afterstates. Settings left
    out are the game's own (``SEARCH`` alone, ``TABLE_SEARCH`` at a table).
    """

    name: ClassVar[str] = "strong"

    def _network(self, game: Game) -> ValueNetwork:
        return self.network or network_for(game)

    def search(self, game: Game) -> Search:
        """The search settings for this game: the bot's own, or else the game's (alone or at a table)."""
        own = SEARCH if game.n_players == 1 else TABLE_SEARCH
        return own[game.spec.id].overridden(self.candidates, self.samples, self.margin)

    def analyse(
        self, game: Game, player: int | None = None, candidates: int | None = None, search_all: bool = False
    ) -> list[Estimate]:
        """Every legal move of ``player`` with its expected final score, best first.

        The ``candidates`` best moves by the network within the margin (default: the bot's
        settings) are searched and come first; with ``search_all``, every legal move is. The
        others follow with the network's value alone, capped at the last searched estimate (so
        the list is best first and no move costs less than nothing).
        """
        if player is None:
            player = game.to_move
        if player is None or player == CHANCE:
            raise ValueError("no player decides now")
        with blas_threads(), collector_paused():
            return self._analyse(game, player, candidates, search_all)

    def _analyse(self, game: Game, player: int, candidates: int | None, search_all: bool) -> list[Estimate]:
        network = self._network(game)
        ranked = _ranked(game, player, network)
        settings = self.search(game)
        samples = settings.samples
        if search_all:
            count = len(ranked)
        else:
            count = settings.candidates if candidates is None else candidates
            best = ranked[0][0]
            count = sum(1 for value, _, _ in ranked[:count] if best - value <= settings.margin)
        if count <= 1 or samples <= 0:
            return [Estimate(move, value, False) for value, move, _ in ranked]
        seeds = [hash((self.seed, len(game.history), game.dice_rolled, i)) for i in range(samples)]
        starts = [after for _, _, after in ranked[:count]]
        futures = future_values(starts, seeds, player, network, short=settings.ends, stratified=settings.stratified)
        searched = [
            Estimate(move, sum(values) / len(seeds), True)
            for (_, move, _), values in zip(ranked[:count], futures, strict=True)
        ]
        searched.sort(key=lambda e: -e.value)
        # The moves left out were ranked below every searched one; the network alone is more
        # optimistic than the search, so their estimate is capped at the last searched one's.
        cap = searched[-1].value
        return searched + [Estimate(move, min(value, cap), False) for value, move, _ in ranked[count:]]

    def choose(self, game: Game, player: int) -> Move:
        moves = game.legal_moves(player)
        if len(moves) == 1:
            return moves[0]
        return self.analyse(game, player)[0].move


class ValueBot:
    """The network alone, with optional random moves: the policy that self-play training uses."""

    name = "value"

    def __init__(self, seed: int = 0, network: ValueNetwork | None = None, explore: float = 0.0) -> None:
        self.network = network
        self.explore = explore
        self._rng = random.Random(seed)

    def choose(self, game: Game, player: int) -> Move:
        moves = game.legal_moves(player)
        if len(moves) == 1:
            return moves[0]
        if self.explore and self._rng.random() < self.explore:
            return moves[int(self._rng.random() * len(moves))]
        with blas_threads():
            return evaluate_moves(game, player, self.network or network_for(game))[0][1]

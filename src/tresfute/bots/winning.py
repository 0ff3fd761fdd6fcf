"""The winning player: at a table of 2 to 4, the move with the best chance of finishing first.

The strong player (``bots/strong.py``) plays for its own expected final score, even at a table.
This player plays to win. Its moves are searched as the strong player's are, on simulated
futures to the end of the turn (``bots/futures.py``: the rest of the active player's turn and
every passive player's pick from the platter, all played by the network's best moves), but the
end of each future is valued from every sheet at the table: the network's expected final score
of each player (``m_i``) is turned into this player's chance of finishing first.

How it works, at length: docs/design.md (bots/winning.py).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import ClassVar, NamedTuple

import numpy as np

from ..rules import CHANCE, Game, Move, Played
from .blas import blas_threads
from .futures import collector_paused, future_values
from .network import ValueNetwork, network_for, reading_of
from .strong import SEARCH, TABLE_SEARCH, Search, Searching, StrongBot, _ranked, evaluate_moves

# The searches at a table, chosen on tuning games (seeds below 1000): see docs/bench.md. Très
# futé's margin is 10 since its network of phase 9, whose values lie further apart (a last turn
# far behind: the risky move 8.4 points below the safe one, in tests/test_winning.py).
WIN_SEARCH: dict[str, Search] = {
    "tres-fute": Search(candidates=4, samples=8, margin=10.0),
    "vraiment-tres-fute": Search(candidates=4, samples=8, margin=8.0),
}
TIE_BREAK = 1e-4  # chances of finishing first per expected point of one's own
# A player's rate of points given up, measured over e turns of the table, counts for e / (e + 3).
SKILL_SHRINK = 3.0
_SQRT2 = math.sqrt(2.0)
# Gauss-Hermite nodes and weights for the standard normal density (probabilists' Hermite)
_X, _W = np.polynomial.hermite_e.hermegauss(24)
_NODES = [float(x) for x in _X]
_WEIGHTS = [float(w) / math.sqrt(2 * math.pi) for w in _W]


class Chance(NamedTuple):
    """A legal move and this player's chance of finishing first after it (plus the tie-break)."""

    move: Move
    value: float
    searched: bool  # valued by the search; otherwise on the position right after the move


def turns_left(game: Game) -> int:
    """The turns still to play, the current one counted whole (0 once the game is over)."""
    if game.is_over:
        return 0
    per_round = 2 if game.n_players == 1 else game.n_players
    return (game.rounds - game.round) * per_round + (per_round - game.turn)


class Observed:
    """The game so far, replayed move by move, and the points each player's decisions gave up
    against the network's best beyond the strong player's ``margin`` (``given_up``)."""

    def __init__(self, game: Game, margin: float) -> None:
        external = game.external_dice
        self.replay = Game(
            game.spec,
            players=game.n_players,
            seed=None if external else game.seed,
            dice="external" if external else "seeded",
            rules=game.rules,
        )
        self.margin = margin
        self.given_up = [0.0] * game.n_players
        self.valid = True  # the replay has followed the game so far

    def follows(self, game: Game) -> bool:
        """Whether ``game`` goes on from the position replayed so far."""
        mine = self.replay.history
        return (
            self.replay.seed == game.seed
            and self.replay.spec.id == game.spec.id
            and self.replay.rules == game.rules
            and self.replay.n_players == game.n_players
            and len(mine) <= len(game.history)
            and game.history[: len(mine)] == mine
        )

    def catch_up(self, game: Game, network: ValueNetwork) -> bool:
        """Replay the moves of ``game`` not yet seen, valuing each decision; False, now and from
        then on, where the history does not lead to ``game`` (a position set up by hand)."""
        if not self.valid:
            return False
        replay = self.replay
        history: list[Played] = game.history
        try:
            for played in history[len(replay.history) :]:
                if played.forced:  # played again by the replay itself
                    continue
                p = played.player
                if p != CHANCE and len(replay.legal_moves(p)) > 1:
                    ranked = evaluate_moves(replay, p, network)  # as the strong player ranks them
                    chosen = next(value for value, move in ranked if move == played.move)
                    self.given_up[p] += max(0.0, ranked[0][0] - chosen - self.margin)
                replay.play(played.move, p)
        except ValueError:  # an illegal move: not this game's history
            self.valid = False
        else:
            self.valid = replay.history == history and replay.scores() == game.scores()
        return self.valid


class Calibration(NamedTuple):
    """What self-play measured at one table (``data/win-spread.json``), by turns left ``k``."""

    bias: list[list[float]]  # [k][d]: the network's mean error for the player d seats after the active one
    spread: list[float]  # [k]: each final score's spread about its corrected forecast


def calibration_key(game_id: str, reading: tuple[tuple[str, bool], ...] = ()) -> str:
    """A game's name in ``data/win-spread.json`` under a reading of its rules (rules options off
    their default, sorted by name, as ``network.reading_of`` gives them): each reading has its
    own network, so its own forecasts to correct (``vraiment-tres-fute
    reprise_with_no_die_left=false``)."""
    return " ".join([game_id, *(f"{name}={str(value).lower()}" for name, value in reading)])


@cache
def calibration(game_id: str, players: int, reading: tuple[tuple[str, bool], ...] = ()) -> Calibration:
    """The shipped calibration of a table of ``players`` (2 to 4), under ``reading`` where the
    file has one for it, else the default reading's."""
    path = resources.files("tresfute.bots") / "data" / "win-spread.json"
    by_game = json.loads(path.read_text())["by_game"]
    table = by_game.get(calibration_key(game_id, reading), by_game[game_id])[str(players)]
    return Calibration(table["bias"], [pair / _SQRT2 for pair in table["spread"]])


def _below(z: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * math.erfc(-z / _SQRT2)


def chance_first(means: list[float], player: int, spread: float) -> float:
    """The chance that ``player``'s final score is the highest when each is normal about its
    mean with the same ``spread`` and independent (a tie, of chance zero, is not counted)."""
    mine = means[player]
    gaps = [(mine - m) / spread for k, m in enumerate(means) if k != player]
    if len(gaps) == 1:
        return _below(gaps[0] / _SQRT2)
    total = 0.0
    for z, w in zip(_NODES, _WEIGHTS, strict=True):
        product = w
        for gap in gaps:
            product *= _below(z + gap)
        total += product
    return total


# A reader's correction of the forecasts (:class:`WinChances`), by game: each seat's expected
# loss per turn still to play counts LOSS_SCALE times, and the calibrated spread SPREAD_SCALE
# times. The fit on tuning games of Très futé (seed 100, below 1000: 25 games at each table of
# strong, greedy and random seats; ``benchmarks/win_calibration.py --fit``) found 1.25 and 1.0,
# a Brier score of 0.1037 against 0.1038 at 1 and 1: no gain worth a number, so both stay 1 (the
# winning player's own model), which the held-out seeds measure (docs/review.md).
LOSS_SCALE: dict[str, float] = {"tres-fute": 1.0, "vraiment-tres-fute": 1.0}
SPREAD_SCALE: dict[str, float] = {"tres-fute": 1.0, "vraiment-tres-fute": 1.0}
# By game and table, the spread's scale and the loss rates' uncertainty of a reader's chances
# (:meth:`Forecast.chances`): at small tables a seat's skill, measured on few turns, was read as
# surer than it is (two greedy or two random players as far apart as a strong and a random one).
# Each reading of the rules has its own network and calibration, so its own scales. Fitted table
# by table for the lowest Brier score on tuning games (``benchmarks/win_calibration.py
# --fit-tables``), measured on held-out ones (docs/review.md); every fit's seeds, games and
# figures are in docs/notes/review-history.md.
TABLE_SCALES: dict[str, dict[int, tuple[float, float]]] = {
    "tres-fute": {2: (0.8, 1.5), 3: (0.9, 0.75), 4: (0.75, 0.5)},
    "vraiment-tres-fute": {2: (1.0, 1.0), 3: (0.8, 0.75), 4: (0.8, 0.75)},
    "vraiment-tres-fute reprise_with_no_die_left=false": {2: (0.7, 1.25), 3: (0.9, 0.5)},
}


def table_scales(key: str, players: int) -> tuple[float, float]:
    """The spread's scale and the loss rates' uncertainty at a table of a game under a reading
    of its rules (``calibration_key``; ``TABLE_SCALES``)."""
    return TABLE_SCALES.get(key, {}).get(players, (1.0, 0.0))


class Forecast(NamedTuple):
    """What a position's chances are made of: each seat's network forecast with the calibrated
    bias (``means``), each seat's expected loss per turn still to play (``rates``), the turns
    still to play and the calibrated spread of one final score."""

    means: list[float]
    rates: list[float]
    turns: int
    spread: float

    def chances(self, loss_scale: float = 1.0, spread_scale: float = 1.0, uncertainty: float = 0.0) -> list[float]:
        """Every seat's chance of finishing first, scaled to add up to 1 (the quadrature's
        rounding; a tie has chance zero in the model, its share being in the neighbours'). The
        spread, times ``spread_scale``, is widened by ``uncertainty`` times the turns left times
        the seats' root mean square rate (a rate measured on few turns may be far off)."""
        n = len(self.means)
        means = [m - loss_scale * rate * self.turns for m, rate in zip(self.means, self.rates, strict=True)]
        rates_squared = sum(rate * rate for rate in self.rates) / n
        spread = math.sqrt((self.spread * spread_scale) ** 2 + (uncertainty * self.turns) ** 2 * rates_squared)
        chances = [chance_first(means, p, spread) for p in range(n)]
        total = sum(chances)
        return [c / total for c in chances]


class WinChances:
    """Every seat's chance of finishing first, position after position of one game, for a
    reader of the game (the review, a table's page): the winning player's model seen from no
    seat (:class:`Forecast`). Each seat's network forecast, corrected by the calibrated bias,
    less the points each seat is expected to give up from its decisions so far
    (:meth:`WinningBot.loss_rates`, for every seat alike here, times ``LOSS_SCALE``), is turned
    into its chance of finishing first (:func:`chance_first`, the spread times ``SPREAD_SCALE``
    and the table's scale, widened by the loss rates' uncertainty: ``TABLE_SCALES``). Once the game
    is over the rulebook decides: each winner gets ``1/k`` of a tie still standing. Alone, the
    only seat finishes first: ``[1.0]``.

    The game is replayed once, move by move, as it is asked about in order (a later position of
    the same game only replays the moves since the last one): a review or a table asks at every
    decision at the cost of one network batch per decision."""

    def __init__(self, network: ValueNetwork | None = None) -> None:
        self.network = network
        self.observed: Observed | None = None

    def __call__(self, game: Game) -> list[float]:
        n = game.n_players
        if n == 1:
            return [1.0]
        if game.is_over:
            winners = game.winners()
            return [1 / len(winners) if p in winners else 0.0 for p in range(n)]
        spec = game.spec.id
        spread, uncertainty = table_scales(calibration_key(spec, reading_of(game)), n)
        return self.forecast(game).chances(LOSS_SCALE[spec], SPREAD_SCALE[spec] * spread, uncertainty)

    def forecast(self, game: Game) -> Forecast:
        """The parts of the chances at a table in a game not over (see :class:`Forecast`)."""
        n = game.n_players
        network = self.network or network_for(game)
        with blas_threads(), collector_paused():
            values = [network.values([game], p)[0] for p in range(n)]
            rates = self.loss_rates(game, network)
        means, turns, spread = calibrated(game, values)
        return Forecast(means, rates, turns, spread)

    def loss_rates(self, game: Game, network: ValueNetwork) -> list[float]:
        """The points each seat is expected to give up per turn still to play (as
        :meth:`WinningBot.loss_rates`, the reviewed seat included); none where the game cannot
        be replayed from its history."""
        self.observed, rates = observed_rates(self.observed, game, network)
        return [0.0] * game.n_players if rates is None else rates


def calibrated(game: Game, values: list[float]) -> tuple[list[float], int, float]:
    """Each seat's network value with the calibrated bias, the turns still to play, and the
    calibrated spread of one final score there."""
    n = game.n_players
    table = calibration(game.spec.id, n, reading_of(game))
    k = turns_left(game)
    bias = table.bias[k]
    return [value + bias[(p - game.active) % n] for p, value in enumerate(values)], k, table.spread[k]


def observed_rates(observed: Observed | None, game: Game, network: ValueNetwork) -> tuple[Observed, list[float] | None]:
    """The points each seat is expected to give up per turn still to play: what its decisions
    gave up so far over the turns played, plus ``SKILL_SHRINK``; None where the game cannot be
    replayed from its history. ``observed`` is the game as last replayed (it goes on from
    there when ``game`` follows it), returned brought up to ``game``."""
    if observed is None or not observed.follows(game):
        observed = Observed(game, TABLE_SEARCH[game.spec.id].margin)
    if not observed.catch_up(game, network):
        return observed, None
    played = game.rounds * game.n_players - turns_left(game)
    return observed, [up / (played + SKILL_SHRINK) for up in observed.given_up]


def win_chances(game: Game) -> list[float]:
    """Every seat's chance of finishing first from this position, in seat order, adding up to 1
    (see :class:`WinChances`; to follow a game position after position, keep one of those)."""
    return WinChances()(game)


def others_values(network: ValueNetwork, games: list[Game], player: int) -> dict[int, list[float]]:
    """Each other player's network value of each position. Those values read the other's own
    sheet and the moment, never ``player``'s sheet: positions alike but for it (the positions
    after ``player``'s moves from a platter, the ends of its moves' futures) are valued once
    (``Game.key``)."""
    alike: dict[tuple[object, ...], int] = {}
    first = [alike.setdefault(game.key(leaving_out=player), k) for k, game in enumerate(games)]
    distinct = list(alike.values())
    row = {k: i for i, k in enumerate(distinct)}
    out: dict[int, list[float]] = {}
    for p in range(games[0].n_players if games else 0):
        if p != player:
            valued = network.values([games[k] for k in distinct], p)
            out[p] = [valued[row[k]] for k in first]
    return out


@dataclass(eq=False)
class WinningBot(Searching):
    """The strong player's search, valued by the chance of finishing first (see the module).

    Settings left out are the game's own (``WIN_SEARCH``); ``spread`` scales the calibrated
    spreads (1: as measured); ``likeliest`` adds to the candidates the move whose position right
    after it has the best chance. In a solo game it plays the strong player's moves.
    """

    name: ClassVar[str] = "strong-win"
    spread: float = 1.0
    likeliest: bool = True
    observed: Observed | None = field(default=None, init=False)  # the game so far, as last replayed

    def __post_init__(self) -> None:
        self.strong = StrongBot(self.seed, network=self.network)

    def search(self, game: Game) -> Search:
        """The search settings at a table: the bot's own, or else the game's."""
        default = WIN_SEARCH[game.spec.id] if game.n_players > 1 else SEARCH[game.spec.id]
        return default.overridden(self.candidates, self.samples, self.margin)

    def choose(self, game: Game, player: int) -> Move:
        moves = game.legal_moves(player)
        if len(moves) == 1:
            return moves[0]
        if game.n_players == 1:
            return self.strong.choose(game, player)
        return self.analyse(game, player)[0].move

    def chance(self, game: Game, player: int, values: list[float], rates: list[float] | None = None) -> float:
        """What a position is worth to ``player``: the chance of finishing first (exact once the
        game is over) plus the tie-break, from every player's network value, less what each is
        expected to give up per turn still to play (``rates``, see :meth:`loss_rates`)."""
        if game.is_over:
            winners = game.winners()
            return (1 / len(winners) if player in winners else 0.0) + TIE_BREAK * values[player]
        means, k, spread = calibrated(game, values)
        if rates is not None:
            means = [mean - rate * k for mean, rate in zip(means, rates, strict=True)]
        return chance_first(means, player, spread * self.spread) + TIE_BREAK * means[player]

    def loss_rates(self, game: Game, player: int, network: ValueNetwork) -> list[float] | None:
        """The points each other player is expected to give up per turn still to play
        (:func:`observed_rates`, :class:`Observed`); None where the game cannot be replayed."""
        self.observed, rates = observed_rates(self.observed, game, network)
        return None if rates is None else [0.0 if p == player else rate for p, rate in enumerate(rates)]

    def analyse(self, game: Game, player: int | None = None) -> list[Chance]:
        """Every legal move of ``player`` at a table with its chance of finishing first: the
        searched candidates, best first, then the others in the network's order, with the chance
        of the position right after them (capped at the last searched one's). Mid-turn that
        chance is only a rough guide (the calibration is made at the start of a turn): played
        alone, it loses to the strong player (docs/bench.md), so without a search the network's
        best move comes first, as the strong player plays it."""
        if player is None:
            player = game.to_move
        if player is None or player == CHANCE:
            raise ValueError("no player decides now")
        if game.n_players == 1:
            raise ValueError("alone, the winning player is the strong player: see StrongBot.analyse")
        with blas_threads(), collector_paused():
            return self._analyse(game, player)

    def _analyse(self, game: Game, player: int) -> list[Chance]:
        network = self.network or network_for(game)
        ranked = _ranked(game, player, network)
        afters = [after for _, _, after in ranked]
        values = others_values(network, afters, player)
        rates = self.loss_rates(game, player, network)
        quick = [
            self.chance(after, player, [own if p == player else values[p][k] for p in range(game.n_players)], rates)
            for k, (own, _, after) in enumerate(ranked)
        ]
        settings = self.search(game)
        best = ranked[0][0]
        chosen = [k for k in range(min(settings.candidates, len(ranked))) if best - ranked[k][0] <= settings.margin]
        likeliest = max(range(len(ranked)), key=lambda k: quick[k])
        if self.likeliest and likeliest not in chosen:
            chosen.append(likeliest)
        if len(chosen) <= 1 or settings.samples <= 0:  # the network's best, as the strong player plays it
            return [Chance(move, quick[k], False) for k, (_, move, _) in enumerate(ranked)]
        seeds = [hash((self.seed, len(game.history), game.dice_rolled, i)) for i in range(settings.samples)]
        players = range(game.n_players)

        def worth(ends: list[Game]) -> list[float]:
            values = others_values(network, ends, player)
            values[player] = network.values(ends, player)
            return [self.chance(end, player, [values[p][k] for p in players], rates) for k, end in enumerate(ends)]

        futures = future_values([afters[k] for k in chosen], seeds, player, network, worth)
        searched = [Chance(ranked[k][1], sum(row) / len(row), True) for k, row in zip(chosen, futures, strict=True)]
        searched.sort(key=lambda c: -c.value)
        cap = searched[-1].value
        rest = [Chance(ranked[k][1], min(quick[k], cap), False) for k in range(len(ranked)) if k not in chosen]
        return searched + rest

"""The lift of the values shown: what the strong player scores from a position above the
valuation futures' value of its choice.

How it works, at length: docs/design.md (bots/lift.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

import numpy as np

from ..rules import Game
from .network import ValueNetwork, reading_of, reading_suffix, valuation_network

FORMAT = "tresfute-lift/3"


@dataclass(eq=False)  # compared as the one object it is (its arrays have no plain ==)
class Lift:
    """A fitted lift: ``intercept + w · x + v · x * rounds_left + c[rounds_left] + u[rounds_left]
    · x`` over the inputs ``x`` (the last round too: there the valuation futures play to the
    end, and the strong player's search still adds more on some sheets than on others).

    It is fitted on solo games. A table with fewer rounds than the solo game (three or four
    players) gives sheets it never saw at a given number of rounds left (emptier: fewer turns of
    one's own came before), where a model that reads the sheet would be guessing: there the lift
    is the mean of the fitted positions with as many rounds left, whatever the sheet. So is the
    last round of a 2-player table: it holds another player's turns, which no solo round does,
    and its late positions (little left to gain) were lifted by the sheet model as if a whole
    turn of one's own were still to come.

    At a table of three or four the valuation network is the table network
    (``network.table_network``), which counts the picks the table adds itself; its costs have
    their own difference scales, fitted on reviewed table games (``table_scales``, by number
    of players; a table without them has 1 where the lift reads no sheet, else the solo game's),
    and their own means by rounds left, fitted on table positions (``table_means``: the table
    network's values are off by other amounts than the solo network's; a table without them
    has the solo positions' means). A table of two with its own means reads no sheet either:
    the solo network reads its sheets as solo ones, and the sheet model then adds 10 to 30
    points that jump from round to round."""

    rounds: int
    intercept: float
    weights: np.ndarray
    by_rounds_left: np.ndarray
    at_rounds_left: list[tuple[float, np.ndarray]]
    by_rounds_left_mean: list[float]
    difference_scale: list[float]
    table_scales: dict[int, list[float]] = field(default_factory=dict)
    table_means: dict[int, list[float]] = field(default_factory=dict)

    def __call__(self, inputs: list[float], rounds_left: int, rounds: int | None = None, players: int = 1) -> float:
        """The lift after a choice whose afterstate has these ``inputs``, with ``rounds_left``
        after the current one, in a game of ``rounds`` (the solo game's by default) and
        ``players``."""
        if not self.reads_sheet(rounds_left, rounds, players):
            means = self.table_means.get(players, self.by_rounds_left_mean)
            return means[min(rounds_left, len(means) - 1)]
        x = np.asarray(inputs, dtype=np.float64)
        own_intercept, own_weights = self.at_rounds_left[rounds_left]
        shared = self.intercept + x @ self.weights + rounds_left * (x @ self.by_rounds_left)
        return float(shared + own_intercept + x @ own_weights)

    def reads_sheet(self, rounds_left: int, rounds: int | None = None, players: int = 1) -> bool:
        """Whether the sheet model applies: not at a table with its own means, nor at one with
        fewer rounds than the solo game's, nor in a table's last round (the class's docstring)."""
        if players in self.table_means:
            return False
        return (rounds is None or rounds == self.rounds) and (rounds_left != 0 or players == 1)

    def scale(self, rounds_left: int, rounds: int | None = None, players: int = 1) -> float:
        """What a difference between two moves' values is multiplied by, with ``rounds_left``:
        a table's own scales where they were fitted; else the solo game's where the lift reads
        the sheet, 1 where it does not (a table with fewer rounds, a table's last round)."""
        if players in self.table_scales:
            return self.table_scales[players][rounds_left]
        return self.difference_scale[rounds_left] if self.reads_sheet(rounds_left, rounds, players) else 1.0

    @classmethod
    def from_json(cls, data: dict, names: list[str]) -> Lift:
        """The lift of a ``tresfute-lift/3`` file, its weights in the order of ``names`` (an
        input the file does not name weighs nothing; a name the inputs lack is an error)."""
        if data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} file")
        index = {name: k for k, name in enumerate(names)}

        def vector(weights: dict[str, float]) -> np.ndarray:
            out = np.zeros(len(names))
            for name, weight in weights.items():
                if name not in index:
                    raise ValueError(f"the lift weighs an input the network has not: {name!r}")
                out[index[name]] = float(weight)
            return out

        rounds = int(data["rounds"])
        own = [(float(part["intercept"]), vector(part["weights"])) for part in data["at_rounds_left"]]
        if len(own) != rounds:
            raise ValueError(f"the lift has {len(own)} models by rounds left, not {rounds}")
        means = [float(x) for x in data["by_rounds_left_mean"]]
        scales = [float(x) for x in data["difference_scale"]]
        if len(scales) != rounds:
            raise ValueError(f"the lift has {len(scales)} difference scales by rounds left, not {rounds}")
        weights, by_rounds_left = vector(data["weights"]), vector(data["by_rounds_left"])

        def by_players(key: str, what: str) -> dict[int, list[float]]:
            """Each table's ``key``, by its number of players (a table plays as many rounds as
            the solo game or fewer)."""
            out = {}
            for n, table in data.get("tables", {}).items():
                if key in table:
                    values = [float(x) for x in table[key]]
                    if not 1 < int(n) <= 4 or not 0 < len(values) <= rounds:
                        raise ValueError(f"a table of {n} players with {len(values)} {what}")
                    out[int(n)] = values
            return out

        table_scales = by_players("difference_scale", "difference scales")
        table_means = by_players("by_rounds_left_mean", "means by rounds left")
        return cls(
            rounds, float(data["intercept"]), weights, by_rounds_left, own, means, scales, table_scales, table_means
        )


def lift_file(game_id: str, reading: tuple[tuple[str, bool], ...] = ()) -> str:
    return f"lift-{game_id}{reading_suffix(reading)}.json"


@cache
def _loaded(game_id: str, reading: tuple[tuple[str, bool], ...], names: tuple[str, ...]) -> Lift | None:
    data_dir = resources.files("tresfute.bots") / "data"
    for name in (lift_file(game_id, reading), lift_file(game_id)):
        path = data_dir / name
        if path.is_file():
            return Lift.from_json(json.loads(path.read_text()), list(names))
    return None


def shipped_lift(game: Game, network: ValueNetwork | None = None) -> Lift | None:
    """The lift shipped for this game and reading (None where the package has none)."""
    network = network or valuation_network(game)
    return _loaded(game.spec.id, reading_of(game), tuple(network.encoder.names))


def lift(game: Game, player: int, after: Game, network: ValueNetwork | None = None) -> float:
    """What the strong player scores from ``game`` above the valuation futures' value of its
    choice, whose afterstate is ``after`` (0 where that ends the game: its score is exact)."""
    network = network or valuation_network(game)
    inputs = network.evaluate([after], player)[1][0]
    fitted = shipped_lift(game, network)
    if inputs is None or fitted is None:
        return 0.0
    return fitted(inputs, *_where(game))


def difference_scale(game: Game, network: ValueNetwork | None = None) -> float:
    """What a difference between two moves' values in ``game`` is multiplied by (1 where no
    lift is shipped)."""
    fitted = shipped_lift(game, network)
    return 1.0 if fitted is None else fitted.scale(*_where(game))


def _where(game: Game) -> tuple[int, int, int]:
    """Where ``game`` stands for a lift: the rounds left after the current one, the game's
    rounds, and its players."""
    return max(0, game.rounds - game.round), game.rounds, game.n_players


__all__ = ["FORMAT", "Lift", "difference_scale", "lift", "lift_file", "shipped_lift"]

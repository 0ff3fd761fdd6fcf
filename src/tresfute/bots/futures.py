"""The strong player's simulated futures: the rest of a turn, played many times at once.

A searched move is valued on several simulated futures (``StrongBot.analyse``): on dice the
player draws itself, one random generator per future, the rest of the turn is played by the
network's best moves and the position at its end is valued. Played one future at a time, most
of the work would be done many times over and in small pieces. Here all the futures of all the
searched moves advance together, step by step:

- futures that are in the same position share it: they all start as one position per move,
  and they part only where their dice differ (with one or two dice left to roll, several
  futures often draw the same faces; a move that ends the turn needs no future at all);
- at each step every position to decide has its afterstates valued in one batch per player, and
  the afterstate of the best move becomes the next position (no move is played twice);
- the positions at the end of the turn are valued in one batch.

Each future draws its dice from its own generator in the order it meets them, and a position's
best move is the first of the highest values, as played one at a time: the values are the same.
"""

from __future__ import annotations

import random

from ..rules import CHANCE, Game
from .network import ValueNetwork


def own_dice(game: Game, rng: random.Random) -> str:
    """The chance move due in a game that waits for outside dice, drawn from ``rng``."""
    values = {d: int(rng.random() * 6) + 1 for d in game.dice_to_roll()}
    text = "dice " + " ".join(f"{d}{v}" for d, v in values.items())
    if game.phase == "solo roll":
        order = sorted(values, key=lambda d: (values[d], rng.random()))
        text += " platter=" + "".join(order[:3])
    return text


def _turn(game: Game) -> tuple[int, int, bool]:
    return (game.round, game.turn, game.solo_passive)


class _Position:
    """A position reached by some of the futures of one start (their numbers)."""

    __slots__ = ("futures", "game", "start", "turn")

    def __init__(self, game: Game, start: int, futures: list[int], turn: tuple[int, int, bool]) -> None:
        self.game = game
        self.start = start
        self.futures = futures
        self.turn = turn


def future_values(starts: list[Game], seeds: list[int], player: int, network: ValueNetwork) -> list[list[float]]:
    """For each start (a position right after a move, waiting for outside dice), the value for
    ``player`` at the end of the turn in each future, the future ``i`` drawing its dice from
    ``random.Random(seeds[i])``. The starts are not changed."""
    generators = [[random.Random(s) for s in seeds] for _ in starts]
    values = [[0.0] * len(seeds) for _ in starts]
    everyone = list(range(len(seeds)))
    open_ = [_Position(g.copy(dice="external"), k, everyone, _turn(g)) for k, g in enumerate(starts)]
    ended: list[_Position] = []
    while open_:
        deciding: dict[int, list[_Position]] = {}
        following: list[_Position] = []
        for position in open_:
            game = position.game
            if game.is_over or _turn(game) != position.turn:
                ended.append(position)
                continue
            mover = game.to_move
            assert mover is not None
            if mover == CHANCE:
                following += _roll(position, generators[position.start])
            else:
                deciding.setdefault(mover, []).append(position)
        for mover, positions in deciding.items():
            _play_best(positions, mover, network)
            following += positions
        open_ = following
    if ended:
        for position, value in zip(ended, network.values([p.game for p in ended], player), strict=True):
            row = values[position.start]
            for i in position.futures:
                row[i] = value
    return values


def _roll(position: _Position, generators: list[random.Random]) -> list[_Position]:
    """The positions after each future's own dice: one per distinct roll."""
    rolls: dict[str, list[int]] = {}
    for i in position.futures:
        text = own_dice(position.game, generators[i])
        found = rolls.get(text)
        if found is None:
            rolls[text] = [i]
        else:
            found.append(i)
    out: list[_Position] = []
    last = len(rolls) - 1
    for k, (text, futures) in enumerate(rolls.items()):
        game = position.game if k == last else position.game.copy(dice="external")
        game.play(text)
        out.append(_Position(game, position.start, futures, position.turn))
    return out


def _play_best(positions: list[_Position], mover: int, network: ValueNetwork) -> None:
    """Each position becomes the afterstate of its best move by the network (the first of the
    highest values; a single legal move is played without valuing it)."""
    batch: list[Game] = []
    spans: list[tuple[_Position, int, int]] = []
    for position in positions:
        afters = [after for _, after in position.game.afterstates(mover)]
        if len(afters) == 1:
            position.game = afters[0]
        else:
            spans.append((position, len(batch), len(batch) + len(afters)))
            batch += afters
    if not batch:
        return
    valued = network.values(batch, mover)
    for position, begin, end in spans:
        best = begin
        for k in range(begin + 1, end):
            if valued[k] > valued[best]:
                best = k
        position.game = batch[best]

"""The strong player's simulated futures: the rest of a turn, played for several futures at once.

A searched move is valued on several simulated futures (``StrongBot.analyse``): on dice the
player draws itself, one random generator per future, the rest of the turn is played by the
network's best moves and the position at its end is valued. Played one future at a time, much
of the work is done several times over. Here the futures of a move share their positions for as
long as they are the same: they all start as one position, and they part only where their dice
differ (with one or two dice left to roll, several futures often draw the same faces; a move
that ends the turn is valued once, not once per future). Each future still draws its dice from
its own generator in the order it meets them, every position's afterstates are valued in one
batch as before, and the best move is the first of the highest values: the estimates are the
same, bit for bit, as one future at a time.

What a future's end is worth is the player's own expected final score by default; another
player (``bots/winning.py``) gives its own measure of an end-of-turn position instead (its
chance of finishing first, from every player's sheet), on the same futures.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Callable
from typing import Any

from ..rules import CHANCE, Game
from .network import ValueNetwork


def own_dice(game: Any, rng: random.Random) -> str:
    """The chance move due in a game that waits for outside dice, drawn from ``rng``.

    ``game`` is any game with the engine's ``dice_to_roll()`` and ``phase`` (the tests' reference
    engine too): typed ``Any`` so that the compiled module does not insist on the class."""
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


def future_values(
    starts: list[Game],
    seeds: list[int],
    player: int,
    network: ValueNetwork,
    worth: Callable[[Game], float] | None = None,
) -> list[list[float]]:
    """For each start (a position right after a move, waiting for outside dice), the value for
    ``player`` at the end of the turn in each future, the future ``i`` drawing its dice from
    ``random.Random(seeds[i])``. The starts are not changed. The rest of the turn is played by
    the network's best moves; ``worth``, if given, values the position at the end of the turn
    (or of the game) instead of the network's expected final score for ``player``.

    Python's cyclic garbage collector is paused meanwhile: the search makes positions by the
    thousand, made of lists that the collector would go through again and again, and no
    cycles."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _future_values(starts, seeds, player, network, worth)
    finally:
        if collecting:
            gc.enable()


def _future_values(
    starts: list[Game],
    seeds: list[int],
    player: int,
    network: ValueNetwork,
    worth: Callable[[Game], float] | None,
) -> list[list[float]]:
    generators = [[random.Random(s) for s in seeds] for _ in starts]
    values = [[0.0] * len(seeds) for _ in starts]
    everyone = list(range(len(seeds)))
    waiting = [_Position(g.copy(dice="external"), k, everyone, _turn(g)) for k, g in enumerate(starts)]
    while waiting:
        position = waiting.pop()
        game = position.game
        if game.is_over or _turn(game) != position.turn:
            value = network.value(game, player) if worth is None else worth(game)
            row = values[position.start]
            for i in position.futures:
                row[i] = value
            continue
        mover = game.to_move
        assert mover is not None
        if mover == CHANCE:
            waiting += _roll(position, generators[position.start])
        else:
            position.game = _best_afterstate(game, mover, network)
            waiting.append(position)
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


def _best_afterstate(game: Game, mover: int, network: ValueNetwork) -> Game:
    """The position after the mover's best move by the network: the first of the highest
    values (a single legal move is played without valuing it)."""
    afters = [after for _, after in game.afterstates(mover)]
    best = 0
    if len(afters) > 1:
        valued = network.values(afters, mover)
        for k in range(1, len(afters)):
            if valued[k] > valued[best]:
                best = k
    return afters[best]

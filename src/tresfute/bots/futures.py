"""The strong player's simulated futures: the rest of a turn, played for several futures at once.

A searched move is valued on several simulated futures (``StrongBot.analyse``): on dice the
player draws itself, one random generator per future, the rest of the turn is played by the
network's best moves and the position at its end is valued. Played one future at a time, much
of the work is done several times over. Here the futures of a move share their positions for as
long as they are the same: they all start as one position, and they part only where their dice
differ (with one or two dice left to roll, several futures often draw the same faces; a move
that ends the turn is valued once, not once per future). Each future still draws its dice from
its own generator in the order it meets them, and the best move is the first of the highest
values. The futures of every searched move advance step by step together: the afterstates of
all the positions waiting for a decision are valued in one batch, and the positions at the end
of the turn in another (a few large matrix products cost less than many small ones). The
values are those of one future at a time up to float32 rounding (a matrix product's last bits
depend on its number of rows), and exactly those where the arithmetic is exact (the tests).

Where a future ends: at the end of the turn, or of the game. In a solo game, a future that has
rolled dice of its own ends as soon as the active player's picks are over: what is left of the
turn (the +1 entries) comes without dice, and the network values that moment directly (it was
trained on such positions too). That spares a quarter of the rows a solo search values, for
one more future per move (``SEARCH`` in ``bots/strong.py``; docs/bench.md). A future that starts
there plays the rest of its turn, and so does every future at a table, where the rest of the
turn holds the others' picks from the platter.

The review's valuation futures (``bots/appraisal.py``) go on for one turn more
(``more_turns``): in a solo game, through the +1 entries and the passive pick that follows.

What a future's end is worth is the player's own expected final score by default; another
player (``bots/winning.py``) gives its own measure of an end-of-turn position instead (its
chance of finishing first, from every player's sheet), on the same futures.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ..rules import CHANCE, Game, Move, MoveKind
from ..rules.game import Phase
from .network import ValueNetwork

_DICE = MoveKind.DICE
_ACTIVE_EXTRA = Phase.ACTIVE_EXTRA


def own_dice(game: Any, rng: random.Random) -> Move:
    """The chance move due in a game that waits for outside dice, drawn from ``rng``.

    ``game`` is any game with the engine's ``dice_to_roll()`` and ``phase`` (the tests' reference
    engine too): typed ``Any`` so that the compiled module does not insist on the class."""
    return _drawn(game, rng)[0]


def _drawn(game: Any, rng: random.Random) -> tuple[Move, tuple[int, ...]]:
    """:func:`own_dice`'s move, and what was drawn: each die's face in the game's die order
    (the notation's), then the solo passive roll's platter dice in the order drawn."""
    dice: list[str] = game.dice_to_roll()
    faces = [int(rng.random() * 6) + 1 for _ in dice]
    if game.phase != "solo roll":
        return Move(_DICE, dice=tuple(zip(dice, faces, strict=True))), tuple(faces)
    # the three lowest dice go to the platter, equal faces in a random order
    order = sorted(range(len(dice)), key=lambda k: (faces[k], rng.random()))[:3]
    platter = tuple(dice[k] for k in sorted(order))
    return Move(_DICE, dice=tuple(zip(dice, faces, strict=True)), platter=platter), (*faces, *order)


def _turn(game: Game) -> tuple[int, int, bool]:
    return (game.round, game.turn, game.solo_passive)


class _Position:
    """A position reached by some of the futures of one start (their numbers)."""

    __slots__ = ("futures", "game", "more_turns", "rolled", "start", "turn")

    def __init__(
        self,
        game: Game,
        start: int,
        futures: list[int],
        turn: tuple[int, int, bool],
        rolled: bool = False,
        more_turns: int = 0,
    ) -> None:
        self.game = game
        self.start = start
        self.futures = futures
        self.turn = turn
        self.rolled = rolled  # whether these futures have rolled dice of their own
        self.more_turns = more_turns  # turns still to play after this one

    def ended(self) -> bool:
        """Whether these futures are over (see the module's docstring); past their turn's end
        with turns still to play, they go on into the next one."""
        game = self.game
        if game.is_over:
            return True
        if _turn(game) != self.turn:
            if not self.more_turns:
                return True
            self.turn, self.more_turns = _turn(game), self.more_turns - 1
            return False
        return self.rolled and not self.more_turns and game.phase is _ACTIVE_EXTRA and game.n_players == 1


def future_values(
    starts: list[Game],
    seeds: list[int],
    player: int,
    network: ValueNetwork,
    worth: Callable[[list[Game]], list[float]] | None = None,
    more_turns: int = 0,
) -> list[list[float]]:
    """For each start (a position right after a move, waiting for outside dice), the value for
    ``player`` at the end of each future (see above), the future ``i`` drawing its dice from
    ``random.Random(seeds[i])``. The starts are not changed. The rest of the turn is played by
    the network's best moves; ``worth``, if given, values the positions at the end of the turn
    (or of the game) instead of the network's expected final score for ``player``.
    ``more_turns``: the futures go on for that many turns after the current one.

    Python's cyclic garbage collector is paused meanwhile (:func:`collector_paused`)."""
    with collector_paused():
        return _future_values(starts, seeds, player, network, worth, more_turns)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused inside the block (and put back as it was): a
    search makes positions by the thousand, made of lists that the collector would go through
    again and again, and no cycles."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _future_values(
    starts: list[Game],
    seeds: list[int],
    player: int,
    network: ValueNetwork,
    worth: Callable[[list[Game]], list[float]] | None,
    more_turns: int = 0,
) -> list[list[float]]:
    generators = [[random.Random(s) for s in seeds] for _ in starts]
    everyone = list(range(len(seeds)))
    going = [
        _Position(g.copy(dice="external", history=False), k, everyone, _turn(g), more_turns=more_turns)
        for k, g in enumerate(starts)
    ]
    ended: list[_Position] = []
    while going:  # one step of every future still in its turn: a roll, or a decision
        deciding: list[_Position] = []
        rolled: list[_Position] = []
        for position in going:
            game = position.game
            if position.ended():
                ended.append(position)
            elif game.to_move == CHANCE:
                rolled += _roll(position, generators[position.start])
            else:
                deciding.append(position)
        _play_best(deciding, network)
        going = deciding + rolled
    games = [position.game for position in ended]
    worths = network.values(games, player) if worth is None else worth(games)
    values = [[0.0] * len(seeds) for _ in starts]
    for position, value in zip(ended, worths, strict=True):
        row = values[position.start]
        for i in position.futures:
            row[i] = value
    return values


def _roll(position: _Position, generators: list[random.Random]) -> list[_Position]:
    """The positions after each future's own dice: one per distinct roll."""
    rolls: dict[tuple[int, ...], tuple[Move, list[int]]] = {}
    for i in position.futures:
        move, drawn = _drawn(position.game, generators[i])
        found = rolls.get(drawn)
        if found is None:
            rolls[drawn] = (move, [i])
        else:
            found[1].append(i)
    out: list[_Position] = []
    last = len(rolls) - 1
    for k, (move, futures) in enumerate(rolls.values()):
        game = position.game if k == last else position.game.copy(dice="external", history=False)
        game.play(move)
        out.append(_Position(game, position.start, futures, position.turn, True, position.more_turns))
    return out


def _play_best(deciding: list[_Position], network: ValueNetwork) -> None:
    """Play each position's best move by the network (the first of the highest values; a single
    legal move without valuing it). The afterstates of all the positions with the same mover are
    valued in one batch: fewer and larger matrix products."""
    by_mover: dict[int, list[tuple[_Position, list[Game]]]] = {}
    for position in deciding:
        mover = position.game.to_move
        assert mover is not None
        afters = [after for _, after in position.game.afterstates(mover, history=False)]
        if len(afters) == 1:
            position.game = afters[0]
        else:
            by_mover.setdefault(mover, []).append((position, afters))
    for mover, found in by_mover.items():
        batch: list[Game] = []
        for _, afters in found:
            batch += afters
        valued = network.values(batch, mover)
        first = 0
        for position, afters in found:
            best = first
            for k in range(first + 1, first + len(afters)):
                if valued[k] > valued[best]:
                    best = k
            position.game = batch[best]
            first += len(afters)

"""The strong player's simulated futures: the rest of a turn, played for several futures at once.

How it works, at length: docs/design.md (bots/futures.py).
"""

from __future__ import annotations

import gc
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ..rules import CHANCE, Game, Move, MoveKind
from ..rules.codes import Stage
from ..rules.game import Phase
from .network import ValueNetwork

_DICE = MoveKind.DICE
_ACTIVE_EXTRA = Phase.ACTIVE_EXTRA
_PASSIVE = Phase.PASSIVE
_DONE_STAGE = Stage.DONE


def own_dice(game: Any, rng: random.Random) -> Move:
    """The chance move due in a game that waits for outside dice, drawn from ``rng``.

    ``game`` is any game with the engine's ``dice_to_roll()`` and ``phase`` (the tests' reference
    engine too): typed ``Any`` so that the compiled module does not insist on the class."""
    return _drawn(game, rng)[0]


def _drawn(game: Any, rng: random.Random) -> tuple[Move, tuple[int, ...]]:
    """:func:`own_dice`'s move, and what was drawn: each die's face in the game's die order
    (the notation's), then the solo passive roll's platter dice in the order drawn."""
    return _preset_drawn(game, [rng.random() for _ in game.dice_to_roll()], rng)


def _solo_roll(dice: list[str], faces: list[int], tie_break: Callable[[int], float]) -> tuple[Move, tuple[int, ...]]:
    """A solo passive roll's move and what was drawn: the three lowest dice go to the platter,
    equal faces in the order of ``tie_break`` (asked once per die, in die order)."""
    order = sorted(range(len(dice)), key=lambda k: (faces[k], tie_break(k)))[:3]
    platter = tuple(dice[k] for k in sorted(order))
    return Move(_DICE, dice=tuple(zip(dice, faces, strict=True)), platter=platter), (*faces, *order)


# The draws of a stratified first roll (``future_values(stratified=True)``): one per die.
STRATIFIED_DICE = 6


def stratified_draws(seeds: list[int], count: int) -> list[list[float]]:
    """``count`` numbers in [0, 1) for each of ``len(seeds)`` futures, drawn from the seeds
    alone: the ``j``-th numbers of the futures fall one in each of ``len(seeds)`` equal
    intervals, in a shuffled order (a Latin hypercube). A roll whose ``j``-th die takes its face
    from the ``j``-th number gives each face to about as many futures as any other: the futures'
    mean does not depend on how lucky a handful of independent rolls happened to be."""
    n = len(seeds)
    mixer = random.Random(hash(tuple(seeds)))
    draws = [[0.0] * count for _ in seeds]
    for j in range(count):
        order = list(range(n))
        mixer.shuffle(order)
        for i in range(n):
            draws[i][j] = (order[i] + mixer.random()) / n
    return draws


def _preset_drawn(game: Any, draws: list[float], rng: random.Random) -> tuple[Move, tuple[int, ...]]:
    """:func:`_drawn`'s move for a roll whose faces come from ``draws``, the ``k``-th die to roll
    (in the game's die order) from the ``k``-th number; a solo passive roll's ties from ``rng``."""
    dice: list[str] = game.dice_to_roll()
    faces = [int(draws[k] * 6) + 1 for k in range(len(dice))]
    if game.phase != "solo roll":
        return Move(_DICE, dice=tuple(zip(dice, faces, strict=True))), tuple(faces)
    return _solo_roll(dice, faces, lambda _: rng.random())


def _turn(game: Game) -> tuple[int, int, bool]:
    return (game.round, game.turn, game.solo_passive)


_MASK = (1 << 64) - 1


def _aligned_draws(key: int) -> list[float]:
    """Twelve numbers in [0, 1) from ``key`` alone (splitmix64): a face and a tie-break for
    each of the six dice."""
    x = key & _MASK
    draws: list[float] = []
    for _ in range(12):
        x = (x + 0x9E3779B97F4A7C15) & _MASK
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        draws.append(((z ^ (z >> 31)) >> 11) * 2.0**-53)
    return draws


def _aligned_drawn(game: Any, draws: list[float]) -> tuple[Move, tuple[int, ...]]:
    """:func:`_drawn`'s move from one roll's :func:`_aligned_draws`, taken by die: two futures
    of different moves that draw for the same roll (same future, same turn, same count of rolls
    in it) give the same die the same face, so that the difference between the moves is
    measured on the same luck, where drawing in order would part their dice for good at the
    first roll of another size."""
    names: list[str] = list(game.dice)
    rolled: list[str] = game.dice_to_roll()
    index = {d: k for k, d in enumerate(names)}
    faces = [int(draws[index[d]] * 6) + 1 for d in rolled]
    if game.phase != "solo roll":
        return Move(_DICE, dice=tuple(zip(rolled, faces, strict=True))), tuple(faces)
    return _solo_roll(rolled, faces, lambda k: draws[6 + index[rolled[k]]])


def aligned_roll(game: Any, key: int) -> Move:
    """The chance move due in a game that waits for outside dice, its faces drawn from ``key``
    alone, die by die (:func:`_aligned_drawn`): the same key gives the same die the same face
    whatever other dice are rolled with it (``bots/clairvoyant.py`` fixes a game's dice so)."""
    return _aligned_drawn(game, _aligned_draws(key))[0]


# Where the last of a future's more turns ends (``future_values(short=...)``).
WHOLE = "whole"
FIRST_DECISION = "first decision"


class _Position:
    """A position reached by some of the futures of one start (their numbers)."""

    __slots__ = ("base", "futures", "game", "last", "more_turns", "picked", "rolled", "short", "start", "turn")

    def __init__(
        self,
        game: Game,
        start: int,
        futures: list[int],
        turn: tuple[int, int, bool],
        more_turns: int = 0,
        base: int = 0,
        short: str = WHOLE,
    ) -> None:
        self.game = game
        self.start = start
        self.futures = futures
        self.turn = turn
        self.rolled = False  # whether these futures have rolled dice of their own in this turn
        self.more_turns = more_turns  # turns still to play after this one
        self.base = base  # the game's count of rolls where this turn's counting starts (aligned dice)
        self.short = short  # where the last of the more turns ends (``future_values``)
        self.last = not more_turns  # in the last of the more turns (with none, this one)
        self.picked = False  # a decision was played after a roll in the last turn

    def rolled_child(self, game: Game, futures: list[int]) -> _Position:
        """The position of some of these futures after their dice."""
        child = _Position(game, self.start, futures, self.turn, self.more_turns, self.base, self.short)
        child.rolled, child.last, child.picked = True, self.last, self.picked
        return child

    def decided(self) -> None:
        """A decision was just played here."""
        if self.last and self.rolled:
            self.picked = True

    def ended(self) -> bool:
        """Whether these futures are over (see the module's docstring); past their turn's end
        with turns still to play, they go on into the next one."""
        game = self.game
        if game.is_over:
            return True
        if self.picked and self.short == FIRST_DECISION:
            return True
        if _turn(game) != self.turn:
            if not self.more_turns:
                return True
            self.turn, self.more_turns, self.base = _turn(game), self.more_turns - 1, game.dice_rolled
            self.rolled, self.last = False, not self.more_turns
            return False
        return self.rolled and not self.more_turns and game.phase is _ACTIVE_EXTRA and game.n_players == 1


def future_values(
    starts: list[Game],
    seeds: list[int],
    player: int,
    network: ValueNetwork,
    worth: Callable[[list[Game]], list[float]] | None = None,
    more_turns: int = 0,
    aligned: bool = False,
    short: str = WHOLE,
    stratified: bool = False,
    known: KnownChoices | None = None,
) -> list[list[float]]:
    """For each start (a position right after a move, waiting for outside dice), the value for
    ``player`` at the end of each future (see above), the future ``i`` drawing its dice from
    ``random.Random(seeds[i])``. The starts are not changed. The rest of the turn is played by
    the network's best moves; ``worth``, if given, values the positions at the end of the turn
    (or of the game) instead of the network's expected final score for ``player``.
    ``more_turns``: the futures go on for that many turns after the current one. ``aligned``:
    the dice of future ``i`` are drawn by :func:`_aligned_drawn` instead, the same faces for the
    same die at the same roll of the same turn whatever move each start began with. ``short``:
    where the last of the more turns ends: at its end (:data:`WHOLE`, as the first), or at its
    first decision after a roll (:data:`FIRST_DECISION`). ``stratified``: each future's first
    roll of its own is drawn from :func:`stratified_draws` instead of its generator (which then
    draws the rest), so that the futures of a start share out every die's faces evenly.
    ``known``: where the other players' choices are kept (:class:`KnownChoices`; a new one if
    not given).

    Python's cyclic garbage collector is paused meanwhile (:func:`collector_paused`)."""
    with collector_paused():
        return _future_values(starts, seeds, player, network, worth, more_turns, aligned, short, stratified, known)


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
    aligned: bool = False,
    short: str = WHOLE,
    stratified: bool = False,
    known: KnownChoices | None = None,
) -> list[list[float]]:
    known = KnownChoices() if known is None else known
    generators = [] if aligned else [[random.Random(s) for s in seeds] for _ in starts]
    firsts = stratified_draws(seeds, STRATIFIED_DICE) if stratified and not aligned else None
    cache: dict[int, list[float]] = {}
    everyone = list(range(len(seeds)))
    going = [
        _Position(g.copy(dice="external", history=False), k, everyone, _turn(g), more_turns, g.dice_rolled, short)
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
                sources = seeds if aligned else generators[position.start]
                rolled += _roll(position, sources, aligned, cache, None if position.rolled else firsts)
            else:
                deciding.append(position)
        _play_best(deciding, network, player, worth is None, known)
        for position in deciding:
            position.decided()
        going = deciding + rolled
    games = [position.game for position in ended]
    worths = network.values(games, player) if worth is None else worth(games)
    values = [[0.0] * len(seeds) for _ in starts]
    for position, value in zip(ended, worths, strict=True):
        row = values[position.start]
        for i in position.futures:
            row[i] = value
    return values


def _roll(
    position: _Position,
    sources: list[Any],
    aligned: bool,
    cache: dict[int, list[float]],
    firsts: list[list[float]] | None = None,
) -> list[_Position]:
    """The positions after each future's own dice (from its generator, or aligned: from its
    seed, each roll's draws kept in ``cache`` for the other starts, or from ``firsts``, the
    futures' stratified first rolls): one per distinct roll."""
    rolls: dict[tuple[int, ...], tuple[Move, list[int]]] = {}
    game = position.game
    events = game.dice_rolled - position.base
    for i in position.futures:
        if aligned:
            key = hash((sources[i], position.turn, events))
            draws = cache.get(key)
            if draws is None:
                draws = cache[key] = _aligned_draws(key)
            move, drawn = _aligned_drawn(game, draws)
        elif firsts is not None:
            move, drawn = _preset_drawn(game, firsts[i], sources[i])
        else:
            move, drawn = _drawn(game, sources[i])
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
        out.append(position.rolled_child(game, futures))
    return out


def _active_again(position: _Position, mover: int) -> bool:
    """Whether ``mover`` is the active player of one of the turns the futures still play after
    this one (turns go round the table in seat order, round after round)."""
    game = position.game
    return 0 < (mover - game.active) % game.n_players <= position.more_turns


def _play_best(
    deciding: list[_Position], network: ValueNetwork, player: int, own_value: bool, known: KnownChoices
) -> None:
    """Play each position's best move by the network (the first of the highest values; a single
    legal move without valuing it). The afterstates of all the positions with the same mover are
    valued in one batch: fewer and larger matrix products.

    ``own_value``: the futures end on ``player``'s own expected score (else on a ``worth`` that
    reads every sheet). Once the active player is done, another player's picks from the platter
    and +1 entries change only that player's sheet: what ``player`` may do later depends on it
    only where that player rolls before the futures end, as the active player of one of their
    turns to come. Elsewhere they are played as the first legal move, unvalued (at a table of
    four, half the rows the strong player's search would value).

    Another player's choice that ``known`` holds (the same position but for ``player``'s sheet,
    met by the future of another searched move) is played again, unvalued."""
    by_mover: dict[int, list[tuple[_Position, list[tuple[Move, Game]], Any]]] = {}
    followers: list[tuple[_Position, Any]] = []  # positions whose choice another one of this step makes
    for position in deciding:
        game = position.game
        mover = game.to_move
        assert mover is not None
        key = None
        if mover != player:
            if own_value and game.phase is _PASSIVE and not _active_again(position, mover):
                game.play(game.legal_moves(mover)[0], mover)
                continue
            if not game.pending[player]:  # else the rules may read its sheet for its bonus
                key = game.key(leaving_out=player)
                found = known.get(key)
                if found is not None:
                    game.play(found, mover)
                    continue
                if key in known.leading:
                    followers.append((position, key))
                    continue
                known.leading[key] = None
        pairs = game.afterstates(mover, history=False)
        if len(pairs) == 1:
            position.game = pairs[0][1]
            if key is not None:
                known.decided(key, game, pairs[0][0], [pairs[0][1]], player)
        else:
            by_mover.setdefault(mover, []).append((position, pairs, key))
    _value_and_play(by_mover, network, player, known)
    known.leading.clear()
    if followers:
        again: dict[int, list[tuple[_Position, list[tuple[Move, Game]], Any]]] = {}
        for position, key in followers:
            game = position.game
            mover = game.to_move
            assert mover is not None
            found = known.get(key)
            if found is not None:
                game.play(found, mover)
            else:  # its leader's choice may depend on the player's sheet: its own
                pairs = game.afterstates(mover, history=False)
                if len(pairs) == 1:
                    position.game = pairs[0][1]
                else:
                    again.setdefault(mover, []).append((position, pairs, None))
        _value_and_play(again, network, player, known)


def _value_and_play(
    by_mover: dict[int, list[tuple[_Position, list[tuple[Move, Game]], Any]]],
    network: ValueNetwork,
    player: int,
    known: KnownChoices,
) -> None:
    """Value each mover's afterstates in one batch, and move each position to its best one."""
    for mover, found in by_mover.items():
        batch: list[Game] = []
        for _, pairs, _ in found:
            batch += [after for _, after in pairs]
        valued = network.values(batch, mover)
        first = 0
        for position, pairs, key in found:
            best = first
            for k in range(first + 1, first + len(pairs)):
                if valued[k] > valued[best]:
                    best = k
            decided = position.game
            position.game = batch[best]
            if key is not None:
                known.decided(key, decided, pairs[best - first][0], batch[first : first + len(pairs)], player)
            first += len(pairs)


class KnownChoices:
    """Other players' choices in the futures of one search, by their position less the searching
    player's sheet (``Game.key``): the searched moves change only that sheet (and what follows
    from it), so the futures of several meet the others' same decisions again.

    A choice is kept only where it holds whatever that sheet: the positions after every move
    were reached without the rules reading it. They read it for its forced moves once the
    passive picks begin (all of them forced, the turn ends: the mover's inputs change) and for
    a new round's gift; a passive pick's own afterstates cannot reach the first."""

    __slots__ = ("choices", "leading", "reused")

    def __init__(self) -> None:
        self.choices: dict[Any, Move] = {}
        self.leading: dict[Any, None] = {}  # keys being valued in this step
        self.reused = 0  # choices played again

    def get(self, key: Any) -> Move | None:
        found = self.choices.get(key)
        if found is not None:
            self.reused += 1
        return found

    def decided(self, key: Any, game: Game, chosen: Move, afters: list[Game], player: int) -> None:
        """Keep ``chosen``, the mover's choice at ``game``, if it holds whatever ``player``'s sheet."""
        turn = _turn(game)
        passive = game.phase is _PASSIVE
        for after in afters:
            if _turn(after) != turn:
                if not passive or (after.round != game.round and game.spec.round_gifts[game.round] is not None):
                    return
            elif after.phase is _PASSIVE and not passive and not _another_still_picks(after, player):
                return
        self.choices[key] = chosen


def _another_still_picks(game: Game, player: int) -> bool:
    """Whether a passive player other than ``player`` still has a choice to make in this turn
    (so the turn goes on whatever ``player``'s forced moves)."""
    stage = game.stage
    return any(stage[p] is not _DONE_STAGE for p in game.passive_order() if p != player)

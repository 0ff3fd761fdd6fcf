"""The ceiling: how much a solo game's dice allow, for a player who knows every future roll.

A player who knows the dice to come could plan the whole game; what it scores bounds what any
real player can expect from the same dice. Here the dice of a game are fixed in advance by a
seed and the moment they are rolled, not by the order they are drawn in: each roll's faces come
from (seed, round, turn, the count of rolls in that turn), die by die (:func:`timeline_roll`, the
review's aligned dice). So every line of play meets the same die with the same face at the same
roll of the same turn, whatever it picked before, and a player who does not know the future
(the strong player, ``benchmarks/ceiling.py``) can be given exactly the dice the search saw.

How it works, at length: docs/design.md (bots/clairvoyant.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..rules import CHANCE, Game, Move
from . import Bot
from .futures import _turn, aligned_roll
from .network import ValueNetwork, network_for


class TimelineDice:
    """The dice of one game fixed by ``seed`` and the moment of each roll (see the module's
    docstring): :meth:`roll` gives the chance move due in a game that waits for outside dice,
    for any line of play, provided the game was followed from its start (:meth:`follow`)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._turn: tuple[int, int, bool] | None = None
        self._base = 0  # the game's count of rolls when the current turn began

    def follow(self, game: Game) -> None:
        """Note where the game stands (call after every move, or at least at each turn's start)."""
        turn = _turn(game)
        if turn != self._turn:
            self._turn, self._base = turn, game.dice_rolled

    def roll(self, game: Game) -> Move:
        """The chance move due in ``game`` (which must be waiting for outside dice)."""
        self.follow(game)
        return aligned_roll(game, hash((self.seed, self._turn, game.dice_rolled - self._base)))

    def key(self) -> tuple[object, ...]:
        """What the dice still to come depend on besides the seed and the game's count of rolls:
        the turn, and that count when the turn began (as :meth:`follow` last saw the game)."""
        return (self._turn, self._base)

    def copy(self) -> TimelineDice:
        twin = TimelineDice(self.seed)
        twin._turn, twin._base = self._turn, self._base
        return twin


def play_chance(game: Game, dice: TimelineDice) -> list[Move]:
    """Roll every known die due in ``game`` until a player must decide (or the game is over);
    the chance moves played, in order."""
    rolled: list[Move] = []
    while not game.is_over and game.to_move == CHANCE:
        move = dice.roll(game)
        game.play(move)
        rolled.append(move)
    dice.follow(game)
    return rolled


@dataclass(frozen=True)
class Line:
    """A whole solo game found by the search: its score, and every move from the first
    position (chance moves included), to replay on ``Game(..., dice="external")``."""

    score: int
    moves: list[Move]


class _Node:
    __slots__ = ("dice", "game", "moves", "parent")

    def __init__(self, game: Game, dice: TimelineDice, parent: _Node | None, moves: list[Move]) -> None:
        self.game = game
        self.dice = dice
        self.parent = parent
        self.moves = moves  # the decision that led here and the dice rolled after it

    def line(self) -> list[Move]:
        parts: list[list[Move]] = []
        node: _Node | None = self
        while node is not None:
            parts.append(node.moves)
            node = node.parent
        return [move for part in reversed(parts) for move in part]


def _position_key(game: Game, dice: TimelineDice) -> tuple[object, ...]:
    """What makes two positions of a solo game the same position, the dice to come included
    (they follow from the turn and the count of rolls since its start)."""
    sheet = game.sheets[0]
    return (
        dice.key(),  # the turn too
        tuple(tuple(state) for state in sheet.areas.values()),
        tuple(sheet.earned.values()),
        tuple(sheet.used.values()),
        tuple(sheet.foxes),
        str(game.phase),
        tuple(game.values),
        tuple(str(where) for where in game.where),
        tuple(game.field),
        game.picks,
        game.rolls,
        game.dice_rolled,
        tuple((str(pending.bonus), pending.source) for pending in game.pending[0]),
        tuple(sorted(game.extra_used[0])),
        tuple(game.swept),
    )


def clairvoyant_line(
    game_id: str,
    seed: int,
    width: int,
    rules: Mapping[str, object] | None = None,
    network: ValueNetwork | None = None,
) -> Line:
    """The best solo game the beam search finds on the dice of ``seed`` (module docstring),
    keeping ``width`` positions at each step; ``network``: the guide (default: the shipped
    player's network for the game and its rules)."""
    if width < 1:
        raise ValueError(f"the beam's width is at least 1, not {width}")
    first = Game(game_id, 1, dice="external", rules=rules)
    guide = network or network_for(first)
    dice = TimelineDice(seed)
    root = _Node(first, dice, None, play_chance(first, dice))
    kept = [root]
    best: _Node | None = root if first.is_over else None
    while kept:
        reached: dict[tuple[object, ...], _Node] = {}
        for node in kept:
            for move, after in node.game.afterstates(0, history=False):
                own_dice = node.dice.copy()
                child = _Node(after, own_dice, node, [move, *play_chance(after, own_dice)])
                reached.setdefault(_position_key(after, own_dice), child)
        going: list[_Node] = []
        for child in reached.values():
            if not child.game.is_over:
                going.append(child)
            elif best is None or child.game.score(0).total > best.game.score(0).total:
                best = child
        values = guide.values([child.game for child in going], 0) if going else []
        order = sorted(range(len(going)), key=lambda k: -values[k])
        kept = [going[k] for k in order[:width]]
    assert best is not None
    return Line(best.game.score(0).total, best.line())


def play_on(game_id: str, seed: int, bot: Bot, rules: Mapping[str, object] | None = None) -> int:
    """What ``bot`` scores in a solo game on the dice of ``seed``, as :func:`clairvoyant_line`
    sees them; the bot does not see them before they are rolled."""
    game = Game(game_id, 1, dice="external", rules=rules)
    dice = TimelineDice(seed)
    play_chance(game, dice)
    while not game.is_over:
        game.play(bot.choose(game, 0))
        play_chance(game, dice)
    return game.score(0).total

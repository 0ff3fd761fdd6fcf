"""Computer players. A bot sees the game and returns a legal move; never future dice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..rules import Game, Move
from .greedy import GreedyBot
from .random_bot import RandomBot
from .strong import Estimate, StrongBot


class Bot(Protocol):
    name: str

    def choose(self, game: Game, player: int) -> Move:
        """A legal move for ``player``, who must be one of ``game.players_to_move``."""
        ...


BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "strong": StrongBot,
}


def make_bot(name: str, seed: int) -> Bot:
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(BOTS)}") from None
    return factory(seed)


def analyse(game: Game, player: int | None = None, candidates: int | None = None) -> list[Estimate]:
    """Every legal move of the player who decides (or ``player``) with the strong player's
    estimate of their expected final score after it, best first. The first is the strong
    player's choice; the difference between two estimates is what one move costs against
    another. See :meth:`StrongBot.analyse`."""
    return StrongBot(0).analyse(game, player, candidates)


__all__ = ["BOTS", "Bot", "Estimate", "GreedyBot", "RandomBot", "StrongBot", "analyse", "make_bot"]

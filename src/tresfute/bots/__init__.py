"""Computer players. A bot sees the game and returns a legal move; never future dice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..rules import Game, Move
from .greedy import GreedyBot
from .random_bot import RandomBot
from .rollout import RolloutBot


class Bot(Protocol):
    name: str

    def choose(self, game: Game, player: int) -> Move:
        """A legal move for ``player``, who must be one of ``game.players_to_move``."""
        ...


BOTS: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": GreedyBot, "rollout": RolloutBot}


def make_bot(name: str, seed: int) -> Bot:
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(BOTS)}") from None
    return factory(seed)


__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "RolloutBot", "make_bot"]

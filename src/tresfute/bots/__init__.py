"""Computer players. A bot sees the game and returns a legal move; never future dice."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Protocol

from ..bot_names import COMPUTER_PLAYERS
from ..rules import Game, Move
from ..rules.reasons import Listing, Reason, ReasonError
from .greedy import GreedyBot
from .random_bot import RandomBot
from .strong import Estimate, StrongBot
from .winning import WinningBot


class BotError(ValueError):
    """A computer player that cannot play this game (a trained agent made for another one)."""


class Bot(Protocol):
    name: str

    def choose(self, game: Game, player: int) -> Move:
        """A legal move for ``player``, who must be one of ``game.players_to_move``."""
        ...


def _factory(where: str) -> Callable[[int], Bot]:
    """A class named ``"module:Class"``."""
    module, _, name = where.partition(":")
    factory: Callable[[int], Bot] = getattr(importlib.import_module(module), name)
    return factory


# Every built-in player by name, as declared once in ``tresfute.bot_names`` (strong-win plays to
# win at a table, bots/winning.py; alone, as strong).
BOTS: dict[str, Callable[[int], Bot]] = {player.name: _factory(player.factory) for player in COMPUTER_PLAYERS}


# Players loaded from a file, as "KIND:PATH" (e.g. "ppo:agent.zip"); their module is imported
# only when one is made, so that what they need (PyTorch) is needed only then.
FILE_BOTS: dict[str, str] = {"ppo": "tresfute.envs.agent:PPOBot"}


def make_bot(name: str, seed: int) -> Bot:
    """A computer player by name (``BOTS``) or by ``KIND:PATH`` (``FILE_BOTS``)."""
    kind, sep, path = name.partition(":")
    if sep and kind in FILE_BOTS:
        if not path:
            raise ReasonError(Reason("{kind}: needs a file, as in '{kind}:agent.zip'", kind=kind))
        module, _, factory_name = FILE_BOTS[kind].partition(":")
        return getattr(importlib.import_module(module), factory_name)(path, seed)
    try:
        factory = BOTS[name]
    except KeyError:
        known = [*BOTS, *(f"{k}:FILE" for k in FILE_BOTS)]
        raise ReasonError(
            Reason("unknown bot {name}: choose one of {known}", name=repr(name), known=Listing(tuple(known)))
        ) from None
    return factory(seed)


def analyse(
    game: Game, player: int | None = None, candidates: int | None = None, search_all: bool = False
) -> list[Estimate]:
    """Every legal move of the player who decides (or ``player``) with the strong player's
    estimate of their expected final score after it, best first. The first is the strong
    player's choice; the difference between two estimates is what one move costs against
    another. ``search_all`` searches every move, not only the best candidates (slower). See
    :meth:`StrongBot.analyse`."""
    return StrongBot(0).analyse(game, player, candidates, search_all)


__all__ = [
    "BOTS",
    "FILE_BOTS",
    "Bot",
    "BotError",
    "Estimate",
    "GreedyBot",
    "RandomBot",
    "StrongBot",
    "WinningBot",
    "analyse",
    "make_bot",
]

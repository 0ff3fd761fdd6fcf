"""Environments for learning agents (Gymnasium, PettingZoo) on the engine: no second copy of
the rules. Install with ``pip install tresfute[envs]``; ``docs/environments.md`` has the details.

    import gymnasium as gym, tresfute   # importing tresfute registers the ids
    env = gym.make("tresfute/TresFute-v0")
    env = gym.make("tresfute.envs:tresfute/TresFute-v0")  # the same, with no import first
"""

from __future__ import annotations

from collections.abc import Callable

from ..registration import GYM_IDS, register_envs
from ..rules import Game
from .actions import ActionMap, action_map, action_to_move, move_to_action


def bot_policy(name: str, seed: int = 0) -> Callable[[Game, int], int]:
    """A computer player as a policy: (game, seat) -> action number. As a baseline or an
    opponent: ``bot_policy("random")(env.unwrapped.game, 0)``."""
    from ..bots import make_bot

    bot = make_bot(name, seed)

    def policy(game: Game, seat: int) -> int:
        return action_map(game.spec.id).move_to_action(bot.choose(game, seat))

    return policy


register_envs()

__all__ = ["GYM_IDS", "ActionMap", "action_map", "action_to_move", "bot_policy", "move_to_action", "register_envs"]

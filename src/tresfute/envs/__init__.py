"""Environments for learning agents (Gymnasium, PettingZoo) on the engine: no second copy of
the rules. Install with ``pip install tresfute[envs]``; ``docs/environments.md`` has the details.

    import gymnasium as gym
    import tresfute.envs  # registers tresfute/TresFute-v0 and tresfute/VraimentTresFute-v0
    env = gym.make("tresfute/TresFute-v0")
"""

from __future__ import annotations

from collections.abc import Callable

from ..bots import make_bot
from ..rules import Game
from .actions import ActionMap, action_map, action_to_move, move_to_action

GYM_IDS = {"tres-fute": "tresfute/TresFute-v0", "vraiment-tres-fute": "tresfute/VraimentTresFute-v0"}


def register_envs() -> None:
    """Register the Gymnasium ids; importing this module does it (Gymnasium 1.x loads no plugins,
    but ``gym.make("tresfute.envs:tresfute/TresFute-v0")`` imports the module by itself)."""
    import gymnasium as gym

    for game, env_id in GYM_IDS.items():
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point="tresfute.envs.gym_env:TresFuteEnv", kwargs={"game": game})


def bot_policy(name: str, seed: int = 0) -> Callable[[Game, int], int]:
    """A computer player as a policy: (game, seat) -> action number. As a baseline or an
    opponent: ``bot_policy("random")(env.unwrapped.game, 0)``."""
    bot = make_bot(name, seed)

    def policy(game: Game, seat: int) -> int:
        return action_map(game.spec.id).move_to_action(bot.choose(game, seat))

    return policy


register_envs()

__all__ = ["GYM_IDS", "ActionMap", "action_map", "action_to_move", "bot_policy", "move_to_action", "register_envs"]

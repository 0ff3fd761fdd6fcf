"""Environments for learning agents (Gymnasium, PettingZoo) on the engine: no second copy of
the rules. Install with ``pip install tresfute[envs]``; ``docs/environments.md`` documents
each name below, with an example per framework.

    import gymnasium as gym, tresfute   # importing tresfute registers the ids
    env = gym.make("tresfute/TresFute-v0")
    env = gym.make("tresfute.envs:tresfute/TresFute-v0")  # the same, with no import first

Two adapters need more than the ``envs`` extra and are imported from their own modules:
``tresfute.envs.sb3.TresFuteVecEnv`` (Stable-Baselines3, the ``rl`` extra) and
``tresfute.envs.openspiel`` (OpenSpiel, the ``openspiel`` extra).
"""

from collections.abc import Callable as _Callable

try:  # the envs extra's packages: without them, say which extra to install (as the CLI does)
    import gymnasium as _gymnasium  # noqa: F401
    import pettingzoo as _pettingzoo  # noqa: F401
    import PIL as _PIL  # noqa: F401
except ImportError as _error:
    raise ImportError(
        f'tresfute.envs needs the envs extra ({_error.name or _error} is not installed): pip install "tresfute[envs]"',
        name=_error.name,
    ) from _error

from ..registration import GYM_IDS, register_envs
from ..rules import Game as _Game
from .actions import ActionMap, action_map, action_to_move, move_to_action
from .episode import Episode
from .gym_env import TresFuteEnv
from .observation import encode, observation_names, observation_size
from .picture import render_rgb
from .pz_env import TresFuteAEC, TresFuteParallel, env, parallel_env, raw_env
from .vector import BatchedTresFuteEnv


def bot_policy(name: str, seed: int = 0) -> _Callable[[_Game, int], int]:
    """A computer player as a policy: (game, seat) -> action number. As a baseline or an
    opponent: ``bot_policy("random")(env.unwrapped.game, 0)``."""
    from ..bots import make_bot

    bot = make_bot(name, seed)

    def policy(game: _Game, seat: int) -> int:
        return action_map(game.spec.id).move_to_action(bot.choose(game, seat))

    return policy


register_envs()

__all__ = [
    "GYM_IDS",
    "ActionMap",
    "BatchedTresFuteEnv",
    "Episode",
    "TresFuteAEC",
    "TresFuteEnv",
    "TresFuteParallel",
    "action_map",
    "action_to_move",
    "bot_policy",
    "encode",
    "env",
    "move_to_action",
    "observation_names",
    "observation_size",
    "parallel_env",
    "raw_env",
    "register_envs",
    "render_rgb",
]

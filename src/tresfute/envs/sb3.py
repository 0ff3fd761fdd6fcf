"""Stable-Baselines3's own vector environment over :class:`~.vector.BatchedTresFuteEnv`:
N games in one process for SB3 and sb3-contrib's MaskablePPO (which finds the masks
through ``env_method("action_masks")``). Needs ``stable-baselines3`` (the ``rl`` extra).

    from sb3_contrib import MaskablePPO
    from tresfute.envs.sb3 import TresFuteVecEnv

    model = MaskablePPO("MlpPolicy", TresFuteVecEnv(num_envs=8), n_steps=256)
    model.learn(10_000)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

try:
    from stable_baselines3.common.vec_env import VecEnv
    from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn
except ImportError as error:  # say which extra to install, as the CLI does
    raise ImportError(
        f'tresfute.envs.sb3 needs the rl extra ({error.name or error} is not installed): pip install "tresfute[rl]"',
        name=error.name,
    ) from error

from .vector import BatchedTresFuteEnv


class TresFuteVecEnv(VecEnv):
    """``num_envs`` games stepped together, as SB3 expects a ``VecEnv``.

    - ``reset()`` gives the observations (num_envs × size); ``seed(S)`` before it makes game
      ``i`` draw its games from seed ``S + i``, as SB3's own vector environments do;
    - ``step(actions)`` gives ``(obs, rewards, dones, infos)``; a game that ends starts anew
      at once, and its ``infos[i]`` holds ``terminal_observation`` (the ended game's last
      observation), ``score`` and ``scores``;
    - ``env_method("action_masks")`` gives each game's mask (sb3-contrib's
      ``get_action_masks`` stacks them), ``action_masks()`` all of them at once;
    - ``render_mode="rgb_array"``: ``get_images()`` draws every game, ``render()`` tiles them;
    - ``game``, ``reward``, ``opponents`` and ``seat`` as in ``TresFuteEnv``; ``batch`` is the
      :class:`~.vector.BatchedTresFuteEnv` underneath, ``batch.games`` the engine's games.
    """

    def __init__(
        self,
        num_envs: int = 8,
        game: str = "tres-fute",
        reward: str = "final",
        opponents: Sequence[str] = (),
        seat: int = 0,
        render_mode: str | None = None,
    ) -> None:
        self.batch = BatchedTresFuteEnv(num_envs, game, reward, opponents, seat, render_mode=render_mode)
        self._actions = np.zeros(num_envs, dtype=np.int64)
        super().__init__(num_envs, self.batch.single_observation_space, self.batch.single_action_space)

    def action_masks(self) -> np.ndarray:
        """True for each legal action of each game (num_envs × actions)."""
        return self.batch.action_masks()

    def reset(self) -> np.ndarray:
        seeds, options = self._seeds, self._options
        if any(options):
            raise ValueError("the batched environment takes no reset options")
        if all(s is not None for s in seeds):
            obs, _info = self.batch.reset(seed=[int(s) for s in seeds])  # type: ignore[arg-type]
        else:
            obs, _info = self.batch.reset()
        self._reset_seeds()
        self._reset_options()
        self.reset_infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        return obs  # a new array at each reset and step: the batch never writes into it again

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> VecEnvStepReturn:
        obs, rewards, terminated, truncated, info = self.batch.step(self._actions)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        final = info.get("final_info", {})
        for i in np.flatnonzero(dones):
            infos[i] = {
                "terminal_observation": info["final_obs"][i],
                "TimeLimit.truncated": bool(truncated[i]),
                "score": int(final["score"][i]),
                "scores": final["scores"][i],
            }
        return obs, rewards, dones, infos

    def close(self) -> None:
        self.batch.close()

    def get_images(self) -> Sequence[np.ndarray | None]:
        frames = self.batch.render()
        return list(frames) if frames is not None else [None] * self.num_envs

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The batch's attribute for each game asked (``game``: each game's own)."""
        games = self._get_indices(indices)
        if attr_name == "game":
            return [self.batch.games[i] for i in games]
        if attr_name == "render_mode":
            return [self.batch.render_mode for _ in games]
        value = getattr(self.batch, attr_name)
        return [value for _ in games]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Sets the batch's attribute: one for all its games, whatever ``indices`` says."""
        setattr(self.batch, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any
    ) -> list[Any]:
        """``action_masks`` and ``render`` per game; any other method of the batch is called
        once and its result given for each game asked."""
        games = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.batch.action_masks()
            return [masks[i] for i in games]
        if method_name == "render":
            images = self.get_images()
            return [images[i] for i in games]
        result = getattr(self.batch, method_name)(*method_args, **method_kwargs)
        return [result for _ in games]

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

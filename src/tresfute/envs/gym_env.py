"""Gymnasium environment: the solo game, one decision per step."""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..rules import Game, IllegalMoveError
from ..rules.game import get_spec
from .actions import action_map
from .observation import encode, observation_size


class TresFuteEnv(gym.Env):
    """The solo game of Très futé or Vraiment très futé.

    - actions: ``Discrete(len(ActionMap))``; ``info["action_mask"]`` marks the legal ones;
    - observation: a float vector in [-1, 1] (``tresfute.envs.observation``);
    - reward: the final score at the end (``reward="final"``), or the change of the total
      score at each step (``reward="delta"``: the same sum over an episode);
    - an illegal action changes nothing: reward 0 and ``info["illegal_action"]`` says why
      (``illegal="raise"`` raises instead);
    - ``reset(seed=S)`` reproduces a game; ``env.unwrapped.game`` is the engine's game.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "render_fps": 4}  # type: ignore[misc]

    def __init__(
        self, game: str = "tres-fute", reward: str = "final", illegal: str = "ignore", render_mode: str | None = None
    ) -> None:
        if reward not in ("final", "delta"):
            raise ValueError("reward is 'final' or 'delta'")
        if illegal not in ("ignore", "raise"):
            raise ValueError("illegal is 'ignore' or 'raise'")
        self.game_id = get_spec(game).id
        self.actions = action_map(self.game_id)
        self.reward_mode = reward
        self.illegal = illegal
        self.render_mode = render_mode
        size = observation_size(get_spec(self.game_id), 1)
        self.observation_space = spaces.Box(-1.0, 1.0, shape=(size,), dtype=np.float32)
        self.action_space = spaces.Discrete(len(self.actions))
        self.game: Game = Game(self.game_id, players=1, seed=0)
        self._total = 0  # the score after the last step

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": self.actions.mask(self.game, self.game.to_move), "score": self._total, **extra}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63 - 1))
        self.game = Game(self.game_id, players=1, seed=game_seed)
        score = self.game.score(0)
        self._total = score.total
        return encode(self.game, 0, score=score), self._info()

    def step(self, action: int):
        game = self.game
        if game.is_over:
            raise RuntimeError("the episode is over: call reset()")
        before = self._total
        try:
            game.play(self.actions.action_to_move(int(action)), 0)
        except (IllegalMoveError, ValueError) as exc:
            if self.illegal == "raise":
                raise
            return encode(game, 0), 0.0, False, False, self._info(illegal_action=str(exc))
        score = game.score(0)
        after = self._total = score.total
        done = game.is_over
        if self.reward_mode == "delta":
            reward = float(after - before)
        elif done:
            reward = float(after)
        else:
            reward = 0.0
        return encode(game, 0, score=score), reward, done, False, self._info()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        score = self.game.score(0)
        moves = " ".join(str(m) for m in self.game.legal_moves())
        return f"round {self.game.round}, {self.game.phase}, score {score.total}; legal: {moves}"

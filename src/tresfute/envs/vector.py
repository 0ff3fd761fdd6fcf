"""A native batched environment: N games stepped in one call, in one process.

Process-based vector environments cost more than they bring here (a step is a few
microseconds of Python), and Gymnasium's ``SyncVectorEnv`` pays a wrapper stack, an info
dict and an array per game and step. This one keeps every game's observation and mask in
one preallocated array and checks every action at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import chain
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..rules import Game
from ..rules.game import get_spec
from .actions import action_map, is_integer, not_an_action
from .episode import Episode
from .gym_env import seated
from .observation import observation_names, observation_size
from .picture import picture


class BatchedTresFuteEnv(VectorEnv):
    """``num_envs`` games of :class:`~tresfute.envs.gym_env.TresFuteEnv`, stepped together.

    - ``reset(seed=S)`` gives ``(obs, info)``: ``obs`` is one float32 array (num_envs × size);
      game ``i`` draws its games from its own stream of ``SeedSequence(S)``, so a seed
      reproduces every game whatever the order in which they end;
    - ``step(actions)`` takes one action per game (an array of num_envs numbers) and follows
      Gymnasium's autoreset mode given as ``autoreset_mode`` (``metadata["autoreset_mode"]``):
      SAME_STEP (the default): a game that ends is started anew in the same step; its reward
      is the final score, ``terminations[i]`` is True, the observation returned is the new
      game's first, ``info["final_obs"][i]`` the ended game's last and ``info["final_info"]``
      its info (``score``, ``scores``), each with its ``_`` mask; ``info["final_score"]``
      keeps the final score as before. NEXT_STEP: the ended game's last observation is
      returned, and the next step starts the game anew, ignoring its action (reward 0);
    - ``render_mode="rgb_array"``: ``render()`` gives each game's picture;
    - ``action_masks()``: one bool array (num_envs × actions), also in ``info["action_mask"]``
      (with ``info["_action_mask"]``, all True: every game has a mask);
    - ``metadata["render_fps"]``: the frame rate of a video of its pictures;
    - an illegal action in any game raises ``ValueError`` naming the game, and no game moves;
    - ``opponents``, ``seat`` and ``reward`` as in ``TresFuteEnv``.

    ``gym.make_vec("tresfute/TresFute-v0", num_envs=N, vectorization_mode="vector_entry_point")``
    builds one.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": ["rgb_array"], "render_fps": 4}  # noqa: RUF012 (Gymnasium's own attribute)

    def __init__(
        self,
        num_envs: int = 16,
        game: str = "tres-fute",
        reward: str = "final",
        opponents: Sequence[str] = (),
        seat: int = 0,
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
        render_mode: str | None = None,
        render_width: int = 600,
        rules: Mapping[str, bool] | None = None,
    ) -> None:
        if num_envs < 1:
            raise ValueError("num_envs is at least 1")
        if reward not in ("final", "delta"):
            raise ValueError("reward is 'final' or 'delta'")
        if isinstance(opponents, str) or len(opponents) > 3:
            raise ValueError("opponents is a list of at most 3 computer players, e.g. ['greedy', 'strong']")
        modes = (AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP)
        mode = next((m for m in modes if autoreset_mode in (m, m.value)), None)
        if mode is None:
            raise ValueError(f"autoreset_mode is one of {[m.value for m in modes]}, not {autoreset_mode!r}")
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}  # this instance's mode
        self.autoreset_mode = mode
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode is 'rgb_array' or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.render_width = render_width
        self.game_id, self.rules, self.opponents = seated(game, rules, opponents, seat)
        self.num_envs = num_envs
        self.reward_mode = reward
        self.n_players = 1 + len(self.opponents)
        self.seat = seat
        self.actions = action_map(self.game_id)
        size = observation_size(get_spec(self.game_id), self.n_players)
        self.single_observation_space = spaces.Box(-1.0, 1.0, shape=(size,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(len(self.actions))
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._obs = np.zeros((num_envs, size), dtype=np.float32)
        self._masks = np.zeros((num_envs, len(self.actions)), dtype=bool)
        self._rngs = [np.random.default_rng(s) for s in np.random.SeedSequence().spawn(num_envs)]
        self.episodes: list[Episode] = []
        self._ended = np.zeros(num_envs, dtype=bool)  # NEXT_STEP: games the next step starts anew

    @property
    def games(self) -> list[Game]:
        """Each game of the batch (``records.record_of`` saves one)."""
        return [episode.game for episode in self.episodes]

    def observation_names(self) -> list[str]:
        return list(observation_names(self.game_id, self.n_players))

    def action_masks(self) -> np.ndarray:
        """True for each legal action of each game (num_envs × actions)."""
        return self._masks.copy()

    def render(self) -> tuple[np.ndarray, ...] | None:
        """``rgb_array``: each game's picture (as Gymnasium's vector environments give them)."""
        if self.render_mode != "rgb_array":
            return None
        draw = picture(self.game_id, self.n_players, self.render_width).draw
        return tuple(draw(game) for game in self.games)

    def _new_game(self, i: int) -> Episode:
        from ..bots import make_bot

        rng = self._rngs[i]
        game = Game(self.game_id, players=self.n_players, seed=int(rng.integers(0, 2**63 - 1)), rules=self.rules)
        others = [p for p in range(self.n_players) if p != self.seat]
        bots = {p: make_bot(self.opponents[k], int(rng.integers(0, 2**31 - 1))) for k, p in enumerate(others)}
        return Episode(game, self.seat, bots, self.actions).start()

    def _store(self, rows: list[bytes], legal: list[list[int]]) -> None:
        """Every game's observation and mask, each written as one array at once."""
        self._obs = np.frombuffer(bytearray(b"".join(rows)), dtype=np.float32).reshape(self.num_envs, -1)
        masks = np.zeros(self._masks.shape, dtype=bool)
        columns = np.fromiter(chain.from_iterable(legal), dtype=np.intp)
        masks[np.repeat(np.arange(self.num_envs), [len(a) for a in legal]), columns] = True
        self._masks = masks

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if options:
            raise ValueError("the batched environment takes no reset options")
        if seed is not None:
            sequences = (
                np.random.SeedSequence(seed).spawn(self.num_envs)
                if isinstance(seed, int)
                else [np.random.SeedSequence(s) for s in seed]
            )
            if len(sequences) != self.num_envs:
                raise ValueError(f"give one seed per game ({self.num_envs}), or one int")
            self._rngs = [np.random.default_rng(s) for s in sequences]
        self.episodes = [self._new_game(i) for i in range(self.num_envs)]
        self._ended[:] = False
        self._store([e.observation_bytes() for e in self.episodes], [e.legal_actions() for e in self.episodes])
        return self._obs, self._mask_info({})

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self.episodes:
            raise RuntimeError("call reset() first")
        given = self._whole_numbers(actions)
        n = self.num_envs
        if given.shape != (n,):
            raise ValueError(f"give one action per game: {n}, not {given.shape[0]}")
        inside = np.asarray((given >= 0) & (given < self._masks.shape[1]), dtype=bool)
        actions = np.where(inside, given, 0).astype(np.int64)  # in range: an int64 whatever the dtype given
        legal = self._ended | (inside & self._masks[np.arange(n), actions])
        if not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            raise ValueError(f"action {given[i]} is not legal in game {i} (nothing was played)")
        rewards = np.zeros(n, dtype=np.float32)
        terminated = np.zeros(n, dtype=bool)
        final = np.zeros(n, dtype=np.int64)
        delta = self.reward_mode == "delta"
        same_step = self.autoreset_mode is AutoresetMode.SAME_STEP
        info: dict[str, Any] = {}
        rows, legal_actions = [], []
        for i, episode in enumerate(self.episodes):
            if self._ended[i]:  # NEXT_STEP: this step starts the ended game anew
                episode = self.episodes[i] = self._new_game(i)
            else:
                before = episode.score.total
                episode.play(int(actions[i]))
                total = episode.score.total
                if delta:
                    rewards[i] = total - before
                if episode.game.is_over:
                    terminated[i] = True
                    final[i] = total
                    if not delta:
                        rewards[i] = total
                    if same_step:
                        self._final(info, i, episode)
                        episode = self.episodes[i] = self._new_game(i)
            rows.append(episode.observation_bytes())
            legal_actions.append(episode.legal_actions())
        self._store(rows, legal_actions)
        if not same_step:
            self._ended = terminated
        self._mask_info(info)
        if terminated.any():
            info["final_score"], info["_final_score"] = final, terminated.copy()
        return self._obs, rewards, terminated, np.zeros(n, dtype=bool), info

    def _whole_numbers(self, actions: Any) -> np.ndarray:
        """``actions`` as a flat array of whole numbers (any integer dtype; Python ints of any
        size as objects), read as given: TypeError naming the first one that is not a whole
        number (``1.5``, ``"3"``, ``True``), never one converted by guess."""
        if is_integer(actions):  # one game, its action alone
            actions = [actions]
        if isinstance(actions, np.ndarray) and actions.dtype.kind in "iu":
            return actions.reshape(-1)
        if isinstance(actions, np.ndarray) and actions.dtype.kind != "O":
            raise TypeError(f"{not_an_action(actions, len(self.actions))}: give an array of integers")
        try:
            items = list(actions.reshape(-1) if isinstance(actions, np.ndarray) else actions)
        except TypeError:
            raise TypeError(f"give one action per game, as a list or an array: {type(actions).__name__}") from None
        for i, action in enumerate(items):
            if not is_integer(action):
                raise TypeError(f"game {i}: {not_an_action(action, len(self.actions))}")
        return np.array([int(a) for a in items], dtype=object if items else np.int64)

    def _mask_info(self, info: dict[str, Any]) -> dict[str, Any]:
        """Every game's mask in ``info``, with the ``_action_mask`` of Gymnasium's vector
        infos (which games have the key: all of them)."""
        info["action_mask"] = self._masks.copy()
        info["_action_mask"] = np.ones(self.num_envs, dtype=bool)
        return info

    def _final(self, info: dict[str, Any], i: int, episode: Episode) -> None:
        """Game ``i``'s last observation and info, as Gymnasium's own vector environments
        give them in SAME_STEP mode (``final_obs``, ``final_info``, each with its mask)."""
        last = np.frombuffer(bytearray(episode.observation_bytes()), dtype=np.float32)
        game = episode.game
        single = {"action_mask": np.zeros(len(self.actions), dtype=np.int8), "score": episode.score.total}
        single["scores"] = [s.total for s in game.scores()]
        self._add_info(info, {"final_obs": last, "final_info": single}, i)

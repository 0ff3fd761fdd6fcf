"""PettingZoo AEC environment: 2 to 4 players, in the rules' order."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..rules import Game, IllegalMoveError
from ..rules.game import get_spec
from .actions import action_map
from .episode import SheetsShown
from .observation import encode, observation_names, observation_size
from .render import render_text


class TresFuteAEC(AECEnv):
    """Agents ``player_0``.. act when the engine says so: the active player's picks, then
    each passive player's pick (the passive players decide at the same time in the rules:
    they are asked one at a time, and none sees another's choice of this turn), bonuses and
    +1 actions. Observations are ``{"observation", "action_mask"}``; the mask is also in
    ``infos``. Each agent gets its final score as reward at the end; an illegal action
    changes nothing and is reported in ``infos[agent]["illegal_action"]``.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "tresfute_v0",
        "render_modes": ["ansi"],
        "render_fps": 4,
        "is_parallelizable": False,
    }

    def __init__(self, game: str = "tres-fute", players: int = 2, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is 'ansi' or None, not {render_mode!r}")
        if players not in (2, 3, 4):
            raise ValueError("the multi-player environment is for 2 to 4 players")
        self.game_id = get_spec(game).id
        self.n_players = players
        self.actions = action_map(self.game_id)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        size = observation_size(get_spec(self.game_id), players)
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-1.0, 1.0, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(len(self.actions),), dtype=np.int8),
            }
        )
        self._action_space = spaces.Discrete(len(self.actions))
        self.game = Game(self.game_id, players=players, seed=0)
        self._shown = SheetsShown()
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _mask(self, agent: str) -> np.ndarray:
        seat = self._seat(agent)
        if seat not in self.game.players_to_move:
            return np.zeros(len(self.actions), dtype=np.int8)
        return self.actions.mask(self.game, seat)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self.game
        return {"observation": encode(game, self._seat(agent), self._shown.now(game)), "action_mask": self._mask(agent)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game = Game(self.game_id, players=self.n_players, seed=int(self._rng.integers(0, 2**63 - 1)))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._shown = SheetsShown()
        self._select()

    def _select(self) -> None:
        game = self.game
        self._shown.now(game)  # what everyone saw when passive choices began
        seat = game.to_move
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
        self.infos: dict[str, dict[str, Any]] = {a: {"action_mask": self._mask(a)} for a in self.agents}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        try:
            self.game.play(self.actions.action_to_move(int(action)), self._seat(agent))  # type: ignore[arg-type]
        except (IllegalMoveError, ValueError, TypeError) as exc:
            self._select()
            self.infos[agent]["illegal_action"] = str(exc)
            self._accumulate_rewards()
            return
        if self.game.is_over:
            scores = self.game.scores()
            self.rewards = {a: float(scores[self._seat(a)].total) for a in self.agents}
            self.terminations = {a: True for a in self.agents}
        self._select()
        self._accumulate_rewards()

    def observation_names(self) -> list[str]:
        """One name per index of ``observe(agent)["observation"]``."""
        return list(observation_names(self.game_id, self.n_players))

    def render(self) -> str | None:
        """``ansi``: the sheet of the agent to move, drawn as ``tresfute play`` draws it."""
        if self.render_mode != "ansi":
            return None
        seat = self.game.to_move
        return render_text(self.game, seat if seat is not None and seat >= 0 else 0, self.possible_agents)

    def close(self) -> None:
        pass


def raw_env(game: str = "tres-fute", players: int = 2, render_mode: str | None = None) -> TresFuteAEC:
    """The AEC environment itself, without wrappers."""
    return TresFuteAEC(game, players, render_mode)


def env(game: str = "tres-fute", players: int = 2, render_mode: str | None = None) -> AECEnv:
    """The AEC environment with PettingZoo's usual wrappers: an action outside the action
    space is an error (``AssertOutOfBoundsWrapper``), and so is a call out of order, such as
    ``step`` before ``reset`` (``OrderEnforcingWrapper``). ``env.unwrapped`` is the
    :class:`TresFuteAEC`."""
    wrapped: AECEnv = wrappers.AssertOutOfBoundsWrapper(raw_env(game, players, render_mode))
    return wrappers.OrderEnforcingWrapper(wrapped)

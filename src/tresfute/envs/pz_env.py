"""PettingZoo environments, 2 to 4 players: AEC (one decision at a time, in the rules'
order) and parallel (the passive players decide at once, as the rules have them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from ..rules import Game, IllegalMoveError, game_rules
from ..rules.game import get_spec
from .actions import action_map
from .episode import SheetsShown
from .observation import encode, observation_names, observation_size
from .picture import Window, render_rgb
from .render import render_text, require_text_render


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
        "render_modes": ["ansi", "rgb_array", "human"],
        "render_fps": 4,
        "is_parallelizable": False,  # one decision at a time: parallel_env() is the parallel form
    }

    def __init__(
        self,
        game: str = "tres-fute",
        players: int = 2,
        render_mode: str | None = None,
        rules: Mapping[str, bool] | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']} or None, not {render_mode!r}")
        if players not in (2, 3, 4):
            raise ValueError("the multi-player environment is for 2 to 4 players")
        self.game_id = get_spec(game).id
        self.rules = game_rules(self.game_id, rules)  # the game's rules options (RulesError if it has none such)
        self.n_players = players
        self.actions = action_map(self.game_id)
        self.render_mode = render_mode
        self._window = Window(f"tresfute: {self.game_id}") if render_mode == "human" else None
        if render_mode == "ansi":
            require_text_render()
        self.possible_agents = [f"player_{i}" for i in range(players)]
        size = observation_size(get_spec(self.game_id), players)
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-1.0, 1.0, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(len(self.actions),), dtype=np.int8),
            }
        )
        self._action_space = spaces.Discrete(len(self.actions))
        self.game = Game(self.game_id, players=players, seed=0, rules=self.rules)
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
        self.game = Game(
            self.game_id, players=self.n_players, seed=int(self._rng.integers(0, 2**63 - 1)), rules=self.rules
        )
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._shown = SheetsShown()
        self._select()
        if self._window is not None:
            self.render()

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
            self.game.play(self.actions.action_to_move(action), self._seat(agent))  # 1.5 or "3": refused, not read
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
        if self._window is not None:
            self.render()

    def observation_names(self) -> list[str]:
        """One name per index of ``observe(agent)["observation"]``."""
        return list(observation_names(self.game_id, self.n_players))

    def render(self) -> str | np.ndarray | None:
        """``ansi``: the sheet of the agent to move, drawn as ``tresfute play`` draws it;
        ``rgb_array``: a picture of the dice and every sheet; ``human``: that picture in a window."""
        return _render(self.game, self.render_mode, self.possible_agents, self._window, self.metadata["render_fps"])

    def close(self) -> None:
        if self._window is not None:
            self._window.close()


def _render(game: Game, mode: str | None, names: list[str], window: Window | None, fps: int) -> str | np.ndarray | None:
    """What a PettingZoo environment's ``render()`` gives in ``mode``."""
    if mode == "ansi":
        seat = game.to_move
        return render_text(game, seat if seat is not None and seat >= 0 else 0, names)
    if mode in ("rgb_array", "human"):
        frame = render_rgb(game, names)
        if window is None:
            return frame
        window.show(frame, fps)
    return None


def raw_env(
    game: str = "tres-fute", players: int = 2, render_mode: str | None = None, rules: Mapping[str, bool] | None = None
) -> TresFuteAEC:
    """The AEC environment itself, without wrappers."""
    return TresFuteAEC(game, players, render_mode, rules)


def env(
    game: str = "tres-fute", players: int = 2, render_mode: str | None = None, rules: Mapping[str, bool] | None = None
) -> AECEnv:
    """The AEC environment with PettingZoo's usual wrappers: an action outside the action
    space is an error (``AssertOutOfBoundsWrapper``), and so is a call out of order, such as
    ``step`` before ``reset`` (``OrderEnforcingWrapper``). ``env.unwrapped`` is the
    :class:`TresFuteAEC`."""
    wrapped: AECEnv = wrappers.AssertOutOfBoundsWrapper(raw_env(game, players, render_mode, rules))
    return wrappers.OrderEnforcingWrapper(wrapped)


class TresFuteParallel(ParallelEnv):
    """The parallel form: at each step every player who may decide now acts at once (the
    passive players pick from the platter together, as the rules have them; otherwise one
    player, or the players with a bonus to place). ``step(actions)`` takes an action from
    each of them; an agent with no decision now has an all-zero mask and its action is
    ignored (``action_space.sample(mask=...)`` gives 0 for it). A player missing from
    ``actions`` does not move; an illegal action changes nothing for that player and is
    reported in ``infos[agent]["illegal_action"]``. Observations, rewards (each agent's final
    score at the end) and render modes are those of :class:`TresFuteAEC`; in the passive
    phase, the other sheets are shown as they were when it began.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "tresfute_v0",  # the AEC environment's: one game, two APIs (as PettingZoo's own)
        "render_modes": ["ansi", "rgb_array", "human"],
        "render_fps": 4,
    }

    def __init__(
        self,
        game: str = "tres-fute",
        players: int = 2,
        render_mode: str | None = None,
        rules: Mapping[str, bool] | None = None,
    ) -> None:
        self._aec = TresFuteAEC(game, players, render_mode, rules)  # the spaces, the observations and the window
        self.game_id = self._aec.game_id
        self.rules = self._aec.rules
        self.n_players = players
        self.actions = self._aec.actions
        self.render_mode = render_mode
        self.possible_agents = list(self._aec.possible_agents)
        self.agents: list[str] = []

    @property
    def game(self) -> Game:
        """The engine's game (``records.record_of`` saves it)."""
        return self._aec.game

    def observation_space(self, agent: str) -> spaces.Space:
        return self._aec._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._aec._action_space

    def observation_names(self) -> list[str]:
        return self._aec.observation_names()

    def _observe(self) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        aec = self._aec
        aec._shown.now(aec.game)
        observations = {a: aec.observe(a) for a in self.agents}
        return observations, {a: {"action_mask": observations[a]["action_mask"]} for a in self.agents}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        self._aec.reset(seed=seed, options=options)  # shows the new game in human mode
        self.agents = list(self.possible_agents)
        return self._observe()

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, dict[str, np.ndarray]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        game = self.game
        if not self.agents:
            raise RuntimeError("the game is over: call reset()")
        illegal: dict[str, str] = {}
        for seat in game.players_to_move:  # each decides on what it saw: none waits for another
            agent = self.possible_agents[seat]
            if agent not in actions or seat not in game.players_to_move:
                continue
            try:
                game.play(self.actions.action_to_move(actions[agent]), seat)  # 1.5 or "3": refused, not read
            except (IllegalMoveError, ValueError, TypeError) as exc:
                illegal[agent] = str(exc)
        rewards = {a: 0.0 for a in self.agents}
        over = game.is_over
        if over:
            scores = game.scores()
            rewards = {a: float(scores[self.possible_agents.index(a)].total) for a in self.agents}
        observations, infos = self._observe()
        for agent, reason in illegal.items():
            infos[agent]["illegal_action"] = reason
        terminations = {a: over for a in self.agents}
        truncations = {a: False for a in self.agents}
        if over:
            self.agents = []
        if self._aec._window is not None:
            self.render()
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | np.ndarray | None:
        """As :meth:`TresFuteAEC.render` (``ansi`` draws the first player to decide)."""
        aec = self._aec
        return _render(aec.game, self.render_mode, self.possible_agents, aec._window, self.metadata["render_fps"])

    def close(self) -> None:
        self._aec.close()


def parallel_env(
    game: str = "tres-fute", players: int = 2, render_mode: str | None = None, rules: Mapping[str, bool] | None = None
) -> TresFuteParallel:
    """The parallel environment (``pettingzoo.utils.parallel_to_aec`` turns it into an AEC
    one in which every player is asked at each cycle, and ``aec_to_parallel`` back)."""
    return TresFuteParallel(game, players, render_mode, rules)

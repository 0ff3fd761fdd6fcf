"""Gymnasium environment: one agent's decisions, one per step; alone or against computer players."""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .. import records
from ..rules import Game, IllegalMoveError, game_rules
from ..rules.game import get_spec
from .actions import action_map
from .episode import Episode
from .observation import observation_names, observation_size
from .picture import Window, picture
from .render import render_text, require_text_render

RecordLike = records.Record | Mapping[str, Any] | str | bytes | os.PathLike[str]


def load_record(record: RecordLike) -> records.Record:
    """A record given as a :class:`~tresfute.records.Record`, its data, its JSON text or a path."""
    if isinstance(record, records.Record):
        return record
    if isinstance(record, Mapping):
        return records.from_data(dict(record))
    if isinstance(record, bytes) or (isinstance(record, str) and record.lstrip().startswith("{")):
        return records.loads(record)
    if isinstance(record, str | os.PathLike):
        return _load_record_file(Path(os.fspath(record)))
    raise TypeError(f"a record is a Record, a dict, JSON text or a path, not {type(record).__name__}")


def _load_record_file(path: Path) -> records.Record:
    """The record file at ``path``, read as the command reads one (:func:`tresfute.records.load`:
    at most its size limit read, so a file too large or a device that never ends is refused);
    a path that is not a regular file (a device, a pipe that may never be written) is refused
    before it is opened."""
    try:
        mode = path.stat().st_mode
    except OSError:
        mode = None  # no such file, no permission: said by records.load, in its words
    if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):  # a folder: said by records.load
        raise records.RecordError(f"cannot read the record {os.fspath(path)!r}: it is not a regular file")
    return records.load(path)


def seated(
    game: str, rules: Mapping[str, bool] | None, opponents: Sequence[str], seat: int
) -> tuple[str, dict[str, bool], list[str]]:
    """An agent's game (its id), its rules options (``RulesError`` if it has none such) and the
    computer players in the other seats, once ``seat`` is one of the table's and every opponent
    a known player (an unknown name fails now, with the known ones)."""
    from ..bots import make_bot

    game_id = get_spec(game).id
    chosen = game_rules(game_id, rules)
    players = 1 + len(opponents)
    if not 0 <= seat < players:
        raise ValueError(f"seat is 0..{players - 1} in a {players}-player game")
    for spec in opponents:
        make_bot(spec, 0)
    return game_id, chosen, list(opponents)


class TresFuteEnv(gym.Env):
    """Très futé or Vraiment très futé, from one agent's seat.

    - actions: ``Discrete(len(ActionMap))``; ``action_masks()`` (what sb3-contrib's
      MaskablePPO calls) and ``info["action_mask"]`` mark the legal ones;
      ``info["legal_moves"]`` lists them in the notation with ``legal_moves=True``;
    - observation: a float vector in [-1, 1]; ``observation_names()`` names each index;
    - ``opponents=["greedy", "strong"]``: computer players (any ``tresfute.bots`` name or
      spec) in the other seats of a 2-4 player game; they play between the agent's
      decisions, so a step is always the agent's decision;
    - reward: the agent's own final score at the end (``reward="final"``), or the change of
      its total score at each step (``reward="delta"``: the same sum over an episode). The
      opponents' scores do not enter it; ``info["scores"]`` gives every seat's at the end;
    - an illegal action changes nothing: reward 0 and ``info["illegal_action"]`` says why
      (``illegal="raise"`` raises instead); so does an action that is not a whole number
      (``1.5``, ``"3"``, ``True``: a TypeError naming its type and the range, never read as one);
    - ``reset(seed=S)`` reproduces a game (dice and opponents);
      ``reset(options={"record": R, "move": N})`` starts from a game record, at the
      position before its move N (default: after its last move);
    - ``render_mode="ansi"``: the sheet drawn as ``tresfute play`` draws it; ``"rgb_array"``: a
      picture (H × W × 3, uint8, ``render_width`` pixels wide) of the dice and every sheet;
      ``"human"``: that picture in a window (pygame);
    - ``env.unwrapped.game`` is the engine's game (``records.record_of`` saves it).
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 4}  # type: ignore[misc]

    def __init__(
        self,
        game: str = "tres-fute",
        reward: str = "final",
        illegal: str = "ignore",
        render_mode: str | None = None,
        opponents: Sequence[str] = (),
        seat: int = 0,
        legal_moves: bool = False,
        render_width: int = 600,
        rules: Mapping[str, bool] | None = None,
    ) -> None:
        if reward not in ("final", "delta"):
            raise ValueError("reward is 'final' or 'delta'")
        if illegal not in ("ignore", "raise"):
            raise ValueError("illegal is 'ignore' or 'raise'")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}")
        if isinstance(opponents, str) or len(opponents) > 3:
            raise ValueError("opponents is a list of at most 3 computer players, e.g. ['greedy', 'strong']")
        self.game_id, self.rules, self.opponents = seated(game, rules, opponents, seat)
        self.n_players = 1 + len(self.opponents)
        self.seat = seat
        self.actions = action_map(self.game_id)
        self.reward_mode = reward
        self.illegal = illegal
        self.render_mode = render_mode
        self.legal_moves = legal_moves
        self.render_width = render_width
        self._window = Window(f"tresfute: {self.game_id}") if render_mode == "human" else None
        if render_mode in ("rgb_array", "human"):
            picture(self.game_id, self.n_players, render_width)  # a bad width fails now
        if render_mode == "ansi":
            require_text_render()
        size = observation_size(get_spec(self.game_id), self.n_players)
        self.observation_space = spaces.Box(-1.0, 1.0, shape=(size,), dtype=np.float32)
        self.action_space = spaces.Discrete(len(self.actions))
        self.episode = Episode(
            Game(self.game_id, players=self.n_players, seed=0, rules=self.rules), seat, {}, self.actions
        )
        self._total = 0  # the agent's score after the last step

    @property
    def game(self) -> Game:
        """The engine's game (``records.record_of`` saves it)."""
        return self.episode.game

    @game.setter
    def game(self, game: Game) -> None:
        """Plays on from ``game`` (the computer players keep their seats)."""
        self.episode = Episode(game, self.seat, self.episode.bots, self.actions)
        self._total = self.episode.score.total

    # --- what the agent sees ----------------------------------------------------------

    def observation_names(self) -> list[str]:
        """One name per index of the observation (``docs/environments.md`` has the layout)."""
        return list(observation_names(self.game_id, self.n_players))

    def action_masks(self) -> np.ndarray:
        """True for each legal action now (the method sb3-contrib's MaskablePPO looks for)."""
        return self.episode.mask().astype(bool)

    def _info(self, mask: np.ndarray) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": mask, "score": self._total}
        game = self.episode.game
        if self.legal_moves:
            legal = game.legal_moves(self.seat) if self.episode.agent_to_move() else []
            info["legal_moves"] = [str(m) for m in legal]
        if game.is_over:
            info["scores"] = [s.total for s in game.scores()]
        return info

    # --- the episode --------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        from ..bots import make_bot

        super().reset(seed=seed)
        rng = self.np_random
        options = dict(options or {})
        record, stop = options.pop("record", None), options.pop("move", None)
        if options:
            raise ValueError(f"unknown reset options {sorted(options)}: use 'record' and 'move'")
        if record is None:
            if stop is not None:
                raise ValueError("the option 'move' needs a 'record'")
            game = Game(self.game_id, players=self.n_players, seed=int(rng.integers(0, 2**63 - 1)), rules=self.rules)
        else:
            game = self._game_from_record(load_record(record), stop)
        bots = {p: make_bot(self.opponents[i], int(rng.integers(0, 2**31 - 1))) for i, p in enumerate(self._others())}
        episode = Episode(game, self.seat, bots, self.actions).start()
        if game.is_over:
            raise records.RecordError("the record's game is over: nothing is left for the agent to decide")
        self.episode = episode
        self._total = episode.score.total
        if self._window is not None:
            self.render()
        return episode.observation(), self._info(episode.mask())

    def _others(self) -> list[int]:
        return [p for p in range(self.n_players) if p != self.seat]

    def _game_from_record(self, record: records.Record, stop: int | None) -> Game:
        if get_spec(record.game).id != self.game_id:
            raise records.RecordError(f"the record is a game of {record.game}, this environment plays {self.game_id}")
        if len(record.players) != self.n_players:
            raise records.RecordError(
                f"the record has {len(record.players)} players, this environment {self.n_players} "
                f"(the agent and {len(self.opponents)} opponents)"
            )
        if record.dice != "seeded":
            raise records.RecordError("the record's dice came from outside: the environment needs a seeded game")
        return records.replay(record, stop, rules=self.rules)  # a record of other rules is refused

    def step(self, action: int):
        episode = self.episode
        if episode.game.is_over:
            raise RuntimeError("the episode is over: call reset()")
        before = self._total
        try:
            number = self.actions.number(action)  # a whole number in range: 1.5 or "3" is refused, not read
        except (TypeError, ValueError) as exc:
            return self._refused(exc)
        try:
            observation, after, done, mask = episode.step(number)
        except (IllegalMoveError, ValueError) as exc:
            return self._refused(exc)
        self._total = after
        reward = float(after - before) if self.reward_mode == "delta" else float(after) if done else 0.0
        if self._window is not None:
            self.render()
        return observation, reward, done, False, self._info(mask)

    def _refused(self, exc: Exception) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """An action refused: raised with ``illegal="raise"``, else reported, nothing changed."""
        if self.illegal == "raise":
            raise exc
        info = self._info(self.episode.mask())
        info["illegal_action"] = str(exc)
        return self.episode.observation(), 0.0, False, False, info

    def render(self) -> str | np.ndarray | None:
        mode = self.render_mode
        if mode is None:
            return None
        names = [f"opponent {p} ({self._bot_name(p)})" for p in range(self.n_players)]
        names[self.seat] = "agent"
        if mode == "ansi":
            return render_text(self.game, self.seat, names)
        frame = picture(self.game_id, self.n_players, self.render_width).draw(self.game, names)
        if self._window is not None:
            self._window.show(frame, self.metadata["render_fps"])
            return None
        return frame

    def close(self) -> None:
        if self._window is not None:
            self._window.close()

    def _bot_name(self, seat: int) -> str:
        others = self._others()
        return self.opponents[others.index(seat)] if seat in others else ""

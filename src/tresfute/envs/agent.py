"""A trained agent as a computer player: ``make_bot("ppo:PATH.zip", seed)``.

The model is one that sb3-contrib's MaskablePPO saved (``examples/train_maskable_ppo.py``),
trained in ``TresFuteEnv``. sb3-contrib and PyTorch are imported only when such a player is
made, so nothing else in tresfute needs them. A model trained alone (solo observation) plays
any number of players: it is shown the part of the observation it was trained on (the dice,
the turn and its own sheet), which every observation starts with.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from ..bots import BotError
from ..rules import Game, Move
from ..rules.game import get_spec
from ..rules.reasons import Reason, ReasonError
from .actions import action_map
from .observation import encode, observation_size


@cache
def load_model(path: str) -> Any:
    """The saved MaskablePPO model, loaded once per process, on the CPU."""
    if not Path(path).is_file():
        raise ReasonError(Reason("no model file {path} (examples/train_maskable_ppo.py saves one)", path=repr(path)))
    try:
        from sb3_contrib import MaskablePPO
    except ImportError:
        raise ValueError(
            "a ppo player needs sb3-contrib and PyTorch: pip install torch==2.13.0 "
            "--index-url https://download.pytorch.org/whl/cpu, then pip install -e '.[rl]'"
        ) from None
    try:
        return MaskablePPO.load(path, device="cpu")
    except Exception as exc:  # a zip that is not a saved model: say which file and why
        raise ValueError(f"{path!r} is not a MaskablePPO model: {exc}") from None


class PPOBot:
    """Plays the saved policy's most likely legal action (deterministic; the seed is unused)."""

    def __init__(self, path: str, seed: int = 0) -> None:
        self.name = f"ppo:{path}"
        self.model = load_model(path)
        self.seed = seed
        self.actions_n = int(self.model.action_space.n)
        self.observation_n = int(self.model.observation_space.shape[0])

    def check(self, game: Game) -> None:
        """Raises :class:`BotError` unless the model was trained for this game (and a
        solo or this number of players)."""
        spec = game.spec
        if self.actions_n != len(action_map(spec.id)):
            games = [g for g in ("tres-fute", "vraiment-tres-fute") if len(action_map(g)) == self.actions_n]
            trained = games[0] if games else f"a game of {self.actions_n} actions"
            raise BotError(f"{self.name} was trained for {trained}, not {spec.id}")
        sizes = {observation_size(get_spec(spec.id), p) for p in (1, game.n_players)}
        if self.observation_n not in sizes:
            raise BotError(
                f"{self.name} sees {self.observation_n} numbers; a {game.n_players}-player {spec.id} "
                f"observation has {max(sizes)} (solo {min(sizes)})"
            )

    def choose(self, game: Game, player: int) -> Move:
        moves = game.legal_moves(player)
        if len(moves) == 1:
            return moves[0]
        self.check(game)
        actions = action_map(game.spec.id)
        observation = encode(game, player)[: self.observation_n]
        mask = actions.mask(game, player).astype(bool)
        action, _state = self.model.predict(observation, action_masks=mask, deterministic=True)
        return actions.action_to_move(int(action))

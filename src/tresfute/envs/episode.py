"""One game seen from one agent's seat, as every environment steps it.

The agent's move, then the computer players' moves until the agent decides again, its score,
its observation and its mask: the environments' hot path, compiled with the engine (one call
a step instead of a dozen Python-level ones).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

import numpy as np

from ..rules import Game, Score, Sheet
from ..rules.game import Phase
from .actions import ActionMap
from .observation import encode, encode_bytes

if TYPE_CHECKING:
    from ..bots import Bot

_PASSIVE: Final = Phase.PASSIVE


class SheetsShown:
    """The sheets passive players are shown: as they were when the turn's passive phase
    began (passive players choose at the same time in the rules, so none sees another's
    pick of this turn)."""

    def __init__(self) -> None:
        self.turn: tuple[int, int] | None = None
        self.sheets: list[Sheet] = []

    def now(self, game: Game) -> list[Sheet] | None:
        """The other players' sheets to show now, or None outside a passive phase (the
        game's own sheets)."""
        if game.phase is not _PASSIVE:
            return None
        turn = (game.round, game.turn)
        if self.turn != turn:
            self.turn, self.sheets = turn, [s.copy() for s in game.sheets]
        return self.sheets


def play_opponents(game: Game, seat: int, bots: Mapping[int, Bot]) -> None:
    """The computer players decide until it is ``seat``'s decision or the game is over."""
    while not game.is_over:
        player = game.to_move
        if player == seat or player is None:
            return
        game.play(bots[player].choose(game, player), player)


class Episode:
    """``game`` from ``seat``, the computer players in ``bots`` deciding between the agent's
    decisions (``start`` lets them play up to the agent's first decision)."""

    def __init__(self, game: Game, seat: int, bots: Mapping[int, Bot], actions: ActionMap) -> None:
        self.game: Final = game
        self.seat: Final = seat
        self.bots: Final = bots
        self.actions: Final = actions
        self.shown = SheetsShown()
        self.score: Score = game.score(seat)  # the agent's, after the last step

    def start(self) -> Episode:
        """The computer players decide until it is the agent's decision (or the game is over)."""
        play_opponents(self.game, self.seat, self.bots)
        self.score = self.game.score(self.seat)
        return self

    def step(self, action: int) -> tuple[np.ndarray, int, bool, np.ndarray]:
        """Plays the agent's ``action`` and the computer players' moves after it; returns the
        observation, the agent's total score, whether the game is over, and the mask. An
        illegal action raises (``IllegalMoveError``, ``ValueError``) and changes nothing."""
        self.play(action)
        return self.observation(), self.score.total, self.game.is_over, self.mask()

    def play(self, action: int) -> None:
        """:meth:`step` without building the observation and mask."""
        game, seat = self.game, self.seat
        game.play(self.actions.action_to_move(action), seat)
        play_opponents(game, seat, self.bots)
        self.score = game.score(seat)

    def agent_to_move(self) -> bool:
        return self.seat in self.game.players_to_move

    def observation(self) -> np.ndarray:
        return encode(self.game, self.seat, self._others(), self.score)

    def observation_bytes(self) -> bytes:
        return encode_bytes(self.game, self.seat, self._others(), self.score)

    def _others(self) -> list[Sheet] | None:
        return self.shown.now(self.game) if self.game.n_players > 1 else None

    def mask(self) -> np.ndarray:
        """1 for each of the agent's legal actions now (int8; none while it cannot move)."""
        return self.actions.mask(self.game, self.seat if self.agent_to_move() else None)

    def legal_actions(self) -> list[int]:
        return self.actions.legal_actions(self.game, self.seat) if self.agent_to_move() else []

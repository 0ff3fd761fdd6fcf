"""Action numbers for learning agents: every move a game can have, numbered once.

The numbering is built from the game's sheet description, so it is fixed for a game (see
``docs/environments.md``). ``action_to_move`` and ``move_to_action`` translate both ways;
moves are the engine's own, so an agent's game is an ordinary record.
"""

from __future__ import annotations

from functools import cache
from typing import Final, TypeGuard

import numpy as np

from ..rules import Game, Move, MoveKind
from ..rules.game import canonical_moves, get_spec, sweep_moves
from ..rules.kinds import Bonus, ChoiceBonus, EntryBonus, GameSpec, Grid


def _bonus_values(spec: GameSpec, area: str) -> list[int]:
    """Every value a bonus may write in a number track: ? choices and fixed numbers."""
    track = spec.areas[area]
    values = set(getattr(track, "choice_values", ()))
    bonuses: list[Bonus | None] = [g for g in spec.round_gifts if g is not None]
    for a in spec.areas.values():
        bonuses += [line.bonus for line in a.lines] if isinstance(a, Grid) else [b.bonus for b in a.boxes]
    bonuses += [t.end_bonus for t in spec.actions]
    for bonus in bonuses:
        options = bonus.options if isinstance(bonus, ChoiceBonus) else (bonus,)
        values |= {o.value for o in options if isinstance(o, EntryBonus) and o.area == area and o.value}
    return sorted(values)


def _entry_moves(spec: GameSpec, kind: MoveKind) -> list[Move]:
    moves = []
    for die in spec.dice:
        for a in spec.areas_for_die(die):
            area = spec.areas[a]
            if isinstance(area, Grid):
                moves += [Move(kind, die, a, (c.row, c.col)) for c in area.cells]
            else:
                moves.append(Move(kind, die, a))
    return moves


@cache
def _all_moves(game_id: str) -> tuple[Move, ...]:
    spec = get_spec(game_id)
    moves = _entry_moves(spec, MoveKind.PICK) + _entry_moves(spec, MoveKind.EXTRA)
    for a, area in spec.areas.items():
        if isinstance(area, Grid):
            moves += [Move(MoveKind.BONUS, area=a, cell=(c.row, c.col)) for c in area.cells]
        elif area.crosses:
            moves.append(Move(MoveKind.BONUS, area=a))
        else:
            moves += [Move(MoveKind.BONUS, area=a, value=v) for v in _bonus_values(spec, a)]
    moves += sweep_moves(spec)
    if any(t.action == "reprise" for t in spec.actions):
        moves += [Move(MoveKind.REPRISE, die=d) for d in spec.dice]
    moves += [Move(MoveKind.REROLL), Move(MoveKind.ROLL), Move(MoveKind.PASS), Move(MoveKind.DONE)]
    return tuple(moves)


def is_integer(action: object) -> TypeGuard[int | np.integer | np.ndarray]:
    """Whether ``action`` is a whole number as an agent gives one: a Python or NumPy integer, or
    a 0-d NumPy array of integers (what Gymnasium's ``Discrete`` space contains); not a bool,
    which is a yes or no, not a number."""
    if isinstance(action, bool):
        return False
    if isinstance(action, int | np.integer):
        return True
    return isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu"


def not_an_action(action: object, count: int) -> str:
    """Why ``action`` is not an action, naming its type and the actions' range."""
    kind = type(action).__name__
    if isinstance(action, np.ndarray):
        kind = f"array of {action.dtype}, shape {action.shape}"
    shown = repr(action)
    if len(shown) > 40:
        shown = shown[:37] + "..."
    return f"an action is a whole number from 0 to {count - 1} (an int or a NumPy integer), not {shown} ({kind})"


_INT8: Final = np.dtype(np.int8)
_frombuffer: Final = np.frombuffer  # read once, not looked up in NumPy's module at every step


class ActionMap:
    """The fixed numbering of one game's moves."""

    def __init__(self, game_id: str) -> None:
        self.game_id = get_spec(game_id).id
        canonical = canonical_moves(get_spec(self.game_id))  # the engine's own objects: found by identity
        self.moves = tuple(canonical.get(m, m) for m in _all_moves(self.game_id))
        self.index = {m: i for i, m in enumerate(self.moves)}

    def __len__(self) -> int:
        return len(self.moves)

    def number(self, action: object) -> int:
        """``action`` as an action number: a Python or NumPy integer, or a 0-d NumPy array of one.
        Anything else (a bool, a float, text, a longer array) raises TypeError naming its type
        and the range, a number out of the range ValueError: nothing is converted by guess."""
        count = len(self.moves)
        if not is_integer(action):
            raise TypeError(not_an_action(action, count))
        number = int(action)
        if not 0 <= number < count:
            raise ValueError(f"action {number} is not in 0..{count - 1}")
        return number

    def action_to_move(self, action: object) -> Move:
        """The move an action number stands for (:meth:`number` says which actions are numbers)."""
        return self.moves[self.number(action)]

    def move_to_action(self, move: Move | str) -> int:
        if isinstance(move, str):
            move = Move.parse(move)
        try:
            return self.index[move]
        except KeyError:
            raise ValueError(f"{move} has no action number in {self.game_id}") from None

    def mask(self, game: Game, player: int | None) -> np.ndarray:
        """1 for each legal action of ``player`` now, else 0 (int8, as Gymnasium expects)."""
        mask = bytearray(len(self.moves))  # filled here, then viewed by NumPy: no fancy indexing
        if player is not None and player >= 0:
            for action in self.legal_actions(game, player):
                mask[action] = 1
        return _frombuffer(mask, _INT8)

    def legal_actions(self, game: Game, player: int) -> list[int]:
        """The numbers of ``player``'s legal moves now."""
        index = self.index
        return [index[m] for m in game.legal_moves(player)]


@cache
def action_map(game_id: str) -> ActionMap:
    """The game's numbering, built once (an index of every move)."""
    return ActionMap(game_id)


def action_to_move(game_id: str, action: object) -> Move:
    return action_map(get_spec(game_id).id).action_to_move(action)


def move_to_action(game_id: str, move: Move | str) -> int:
    return action_map(get_spec(game_id).id).move_to_action(move)

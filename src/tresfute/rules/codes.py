"""The engine's states and codes: the turn's phases, where a die lies, a passive player's stage,
and the move and action kinds, each also as a final module constant for the hot path.

Compiled (mypyc, ``setup.py``), a final module constant is a C static, read directly by the
other compiled modules of the engine (``game.py``), where a plain global costs a dictionary
lookup and an enum's class attribute a metaclass hook. The constants are the engine's own
(``_`` names): elsewhere, use the enums.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from .kinds import ActionKind
from .moves import MoveKind


class Phase(StrEnum):
    TURN_START = "turn start"  # passing: the next turn begins once every bonus is resolved
    BEFORE_ROLL = "before roll"  # the active player may take dice back (reprise)
    ROLL = "roll"  # chance: the active player's dice
    CHOOSE = "choose"  # the active player picks a die, rerolls or passes
    SWEEP = "sweep"  # the active player may cross the dice a silver pick swept
    NEXT_ROLL = "next roll"  # passing: roll again or end the active part
    ACTIVE_EXTRA = "active extra"  # the active player may use +1 actions
    SOLO_ROLL = "solo roll"  # chance: the solo game's passive roll
    PASSIVE = "passive"  # passive players pick from the platter, then may use +1
    OVER = "over"


class Where(StrEnum):
    HAND = "hand"  # with the active player: to roll, or in the current roll
    PLATTER = "platter"
    FIELD = "field"  # on one of the active player's die fields


class Stage(StrEnum):
    PICK = "pick"
    EXTRA = "extra"
    DONE = "done"


_TURN_START: Final = Phase.TURN_START
_BEFORE_ROLL: Final = Phase.BEFORE_ROLL
_ROLL: Final = Phase.ROLL
_CHOOSE: Final = Phase.CHOOSE
_SWEEP: Final = Phase.SWEEP
_NEXT_ROLL: Final = Phase.NEXT_ROLL
_ACTIVE_EXTRA: Final = Phase.ACTIVE_EXTRA
_SOLO_ROLL: Final = Phase.SOLO_ROLL
_PASSIVE: Final = Phase.PASSIVE
_OVER: Final = Phase.OVER
_HAND: Final = Where.HAND
_PLATTER: Final = Where.PLATTER
_FIELD: Final = Where.FIELD
_PICK_STAGE: Final = Stage.PICK
_EXTRA_STAGE: Final = Stage.EXTRA
_DONE_STAGE: Final = Stage.DONE
_PICK: Final = MoveKind.PICK
_EXTRA: Final = MoveKind.EXTRA
_BONUS: Final = MoveKind.BONUS
_PASS_KIND: Final = MoveKind.PASS
_DONE_KIND: Final = MoveKind.DONE
_REROLL_KIND: Final = MoveKind.REROLL
_ROLL_KIND: Final = MoveKind.ROLL
_REPRISE_KIND: Final = MoveKind.REPRISE
_SWEEP_KIND: Final = MoveKind.SWEEP
_DICE_KIND: Final = MoveKind.DICE
_REROLL_ACTION: Final = ActionKind.REROLL
_PLUS_ONE_ACTION: Final = ActionKind.PLUS_ONE
_REPRISE_ACTION: Final = ActionKind.REPRISE

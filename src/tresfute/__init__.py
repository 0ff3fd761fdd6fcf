"""tresfute: Très futé and Vraiment très futé, exact and fast."""

from .registration import register_when_possible
from .rules import CHANCE, Game, IllegalMoveError, Move, MoveKind, MoveSyntaxError, parse_move

__all__ = ["CHANCE", "Game", "IllegalMoveError", "Move", "MoveKind", "MoveSyntaxError", "parse_move"]
__version__ = "0.1.0"

register_when_possible()

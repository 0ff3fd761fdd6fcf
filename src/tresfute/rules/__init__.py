"""The rules engine: no input or output, only the games' rules."""

from . import game as _game
from .game import CHANCE, Game, IllegalMoveError, Phase, Played, Where
from .games import SPECS
from .kinds import GameSpec
from .moves import Move, MoveKind, MoveSyntaxError, parse_move
from .sheet import Score, Sheet, fox_value, score_sheet, winners

# Whether the engine runs compiled (a wheel built with mypyc, see setup.py) or as plain Python.
COMPILED = not (_game.__file__ or "").endswith(".py")

__all__ = [
    "CHANCE",
    "COMPILED",
    "SPECS",
    "Game",
    "GameSpec",
    "IllegalMoveError",
    "Move",
    "MoveKind",
    "MoveSyntaxError",
    "Phase",
    "Played",
    "Score",
    "Sheet",
    "Where",
    "fox_value",
    "parse_move",
    "score_sheet",
    "winners",
]

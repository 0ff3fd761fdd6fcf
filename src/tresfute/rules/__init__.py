"""The rules engine: no input or output, only the games' rules."""

from . import game as _game
from .game import CHANCE, REPRISE_WITH_NO_DIE_LEFT, Game, IllegalMoveError, Phase, Played, RulesError, Where, game_rules
from .games import SPECS
from .kinds import GameSpec
from .moves import Move, MoveKind, MoveSyntaxError, parse_move
from .sheet import Score, Sheet, fox_value, score_sheet, winners

# Whether the engine runs compiled (a wheel built with mypyc, see setup.py) or as plain Python.
COMPILED = not (_game.__file__ or "").endswith(".py")

__all__ = [
    "CHANCE",
    "COMPILED",
    "REPRISE_WITH_NO_DIE_LEFT",
    "SPECS",
    "Game",
    "GameSpec",
    "IllegalMoveError",
    "Move",
    "MoveKind",
    "MoveSyntaxError",
    "Phase",
    "Played",
    "RulesError",
    "Score",
    "Sheet",
    "Where",
    "fox_value",
    "game_rules",
    "parse_move",
    "score_sheet",
    "winners",
]

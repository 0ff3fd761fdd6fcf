"""The rules engine: no input or output, only the games' rules."""

from .game import CHANCE, Game, IllegalMoveError, Phase, Played, Where
from .games import SPECS
from .kinds import GameSpec
from .moves import Move, MoveKind, MoveSyntaxError, parse_move
from .sheet import Score, Sheet, fox_value, score_sheet, winners

__all__ = [
    "CHANCE",
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

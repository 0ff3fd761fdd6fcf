"""An OpenSpiel game on the engine, registered with ``pyspiel`` as a Python game
(``pip install tresfute[openspiel]``; importing this module registers it):

    import pyspiel
    import tresfute.envs.openspiel  # registers "python_tresfute"

    game = pyspiel.load_game("python_tresfute(game=vraiment-tres-fute,players=2)")

How it works, at length: docs/design.md (envs/openspiel.py).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Final

import numpy as np

try:
    import pyspiel
except ImportError as error:  # say which extra to install, as the CLI does
    raise ImportError(
        f"tresfute.envs.openspiel needs the openspiel extra ({error.name or error} is not installed): "
        'pip install "tresfute[openspiel]"',
        name=error.name,
    ) from error

from .. import records
from ..rules import CHANCE, Game, Move, Sheet, game_rules
from ..rules.game import get_spec
from ..rules.games import rule_option_defaults
from ..rules.moves import DIE_LETTERS, dice_move
from .actions import ActionMap, action_map, is_integer, not_an_action
from .bounds import bounds
from .episode import SheetsShown
from .observation import encode, observation_size

SHORT_NAME = "python_tresfute"
_FACES: Final = [(face, 1.0 / 6) for face in range(6)]
_PLATTERS: Final = [tuple(c) for c in combinations(range(6), 3)]  # three of the six dice, by index


def _game_type() -> Any:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Très futé / Vraiment très futé (tresfute)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=1,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        # every game's rules options (``Game(rules=...)``) as parameters of their own, from the games' specs
        parameter_specification={"game": "tres-fute", "players": 2, **rule_option_defaults()},
    )


def _mask(game: Game, move: Move) -> int:
    """A platter's chance action: the bit mask of its dice (7 and up, apart from faces 0-5)."""
    return sum(1 << game.dice.index(d) for d in move.platter or ())


class Position:
    """What a state holds beyond pyspiel's history: the engine's game, the sheets shown in a
    passive phase and the faces of the roll so far. OpenSpiel clones a Python state with
    ``copy.deepcopy``: this copies the game with :meth:`Game.copy` instead of walking every
    object of its sheet description."""

    def __init__(self, game: Game, shown: SheetsShown | None = None) -> None:
        self.game = game
        if shown is None:
            shown = SheetsShown()
            shown.now(game)
        self.shown = shown
        self.faces: list[int] = []  # the roll due now, one die at a time, in die order

    def letters(self) -> list[str]:
        return sorted(self.game.dice_to_roll(), key=DIE_LETTERS.index)

    def rolls(self) -> list[Move]:
        """Once every die has its face: the roll as the one move that plays it, or, when the
        roll leaves the platter open (a tie in the solo roll), one move per platter the rules
        allow (the engine says which)."""
        values = dict(zip(self.letters(), self.faces, strict=True))
        alone = dice_move(values)
        if self.game.is_legal(alone):
            return [alone]
        dice = self.game.dice
        moves = [dice_move(values, tuple(dice[i] for i in platter)) for platter in _PLATTERS]
        return [m for m in moves if self.game.is_legal(m)]

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled (OpenSpiel serializes a state's attributes so) as the game's record and
        plain marks: the sheet description is not pickled, but found again by its name."""
        sheets = [(s.areas, s.earned, s.used, s.foxes) for s in self.shown.sheets]
        return _restore, (records.dumps(records.record_of(self.game)), list(self.faces), self.shown.turn, sheets)

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        shown = SheetsShown()
        shown.turn, shown.sheets = self.shown.turn, [s.copy() for s in self.shown.sheets]
        copy = Position(self.game.copy(), shown)
        copy.faces = list(self.faces)
        return copy


def _restore(record: str, faces: list[int], turn: tuple[int, int] | None, sheets: list[tuple[Any, ...]]) -> Position:
    game = records.replay(records.loads(record))
    shown = SheetsShown()
    shown.turn = turn
    for areas, earned, used, foxes in sheets:
        sheet = Sheet(game.spec)
        sheet.areas = {a: list(marks) for a, marks in areas.items()}
        sheet.earned, sheet.used, sheet.foxes = dict(earned), dict(used), list(foxes)
        shown.sheets.append(sheet)
    position = Position(game, shown)
    position.faces = list(faces)
    return position


class TresFuteGame(pyspiel.Game):
    """The game, for ``players`` (1 to 4) of ``game`` (``tres-fute`` or ``vraiment-tres-fute``);
    its rules options (``Game(rules=...)``) as parameters of their own, or as ``rules``."""

    def __init__(self, params: dict[str, Any] | None = None, rules: dict[str, bool] | None = None) -> None:
        params = params or {}
        game_id = get_spec(str(params.get("game", "tres-fute"))).id
        # pyspiel gives every parameter its default: an option the game lacks is refused only when
        # it is set otherwise
        own, defaults = game_rules(game_id), _game_type().parameter_specification
        given = {
            name: value
            for name, value in params.items()
            if name not in ("game", "players") and (name in own or value != defaults.get(name))
        }
        chosen = game_rules(game_id, {**given, **(rules or {})})  # RulesError: an option the game lacks
        players = int(params.get("players", 2))
        if not 1 <= players <= 4:
            raise ValueError(f"players is 1 to 4, not {players}")
        limits = bounds(get_spec(game_id), players)  # derived from the sheet and the rules (envs/bounds.py)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(action_map(game_id)),
            max_chance_outcomes=64,  # faces 0-5, platters as bit masks of three dice (7-56)
            num_players=players,
            min_utility=float(limits.min_utility),  # the lowest total a sheet can score
            max_utility=float(limits.max_utility),  # the highest
            utility_sum=None,
            max_game_length=limits.max_game_length,  # decisions and chance nodes
        )
        super().__init__(_game_type(), info, {"game": game_id, "players": players, **chosen})

    def new_initial_state(self) -> TresFuteState:
        return TresFuteState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ValueError(f"the observer takes no parameters, not {params}")
        return Observer(self)


class TresFuteState(pyspiel.State):
    """A game in progress; ``state.game`` is the engine's (``records.record_of`` saves it)."""

    def __init__(self, game: TresFuteGame) -> None:
        super().__init__(game)
        params = game.get_parameters()  # pyspiel keeps the parameters, not the Python attributes
        rules = {name: bool(value) for name, value in params.items() if name not in ("game", "players")}
        self.position = Position(
            Game(str(params["game"]), players=int(params["players"]), dice="external", rules=rules)
        )

    @property
    def game(self) -> Game:
        """The engine's game (``records.record_of`` saves it)."""
        return self.position.game

    @property
    def actions(self) -> ActionMap:
        return action_map(self.position.game.spec.id)

    def current_player(self) -> int:
        game = self.game
        if game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        player = game.to_move
        return int(pyspiel.PlayerId.CHANCE) if player == CHANCE else int(player)  # type: ignore[arg-type]

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.actions.legal_actions(self.game, player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next die's face (actions 0-5 for 1-6), or, after a solo roll that ties at the
        platter's boundary, which dice go to the platter (equally likely)."""
        position = self.position
        if len(position.faces) < len(position.letters()):
            return list(_FACES)
        masks = sorted(_mask(self.game, m) for m in position.rolls())
        return [(mask, 1.0 / len(masks)) for mask in masks]

    def apply_action(self, action: object) -> None:  # type: ignore[override]
        """pyspiel's, once ``action`` is known to be a whole number (a Python or NumPy integer):
        pyspiel's own conversion would take ``True`` as 1, and name neither the action's type
        nor the range when it refuses ``1.5`` or ``"3"``."""
        if not is_integer(action):
            info = self.get_game()
            count = info.max_chance_outcomes() if self.is_chance_node() else info.num_distinct_actions()
            raise TypeError(not_an_action(action, count))
        super().apply_action(int(action))

    def _apply_action(self, action: int) -> None:
        game, position = self.game, self.position
        if game.to_move != CHANCE:
            game.play(self.actions.action_to_move(action), game.to_move)
            position.shown.now(game)
            return
        outcomes = [outcome for outcome, _ in self.chance_outcomes()]
        if action not in outcomes:
            raise ValueError(f"chance action {action} is not one of this chance node's outcomes, {outcomes}")
        if action < 6:
            position.faces.append(action + 1)
            if len(position.faces) < len(position.letters()):
                return
            rolls = position.rolls()
            if len(rolls) > 1:
                return  # the platter is chance's next outcome
            roll = rolls[0]
        else:
            roll = next(m for m in position.rolls() if _mask(game, m) == action)
        position.faces = []
        game.play(roll)
        position.shown.now(game)

    def _action_to_string(self, player: int, action: int) -> str:
        if player != int(pyspiel.PlayerId.CHANCE):
            return str(self.actions.action_to_move(action))
        if action < 6:
            return f"{self.position.letters()[len(self.position.faces)]}{action + 1}"
        return "platter=" + "".join(d for i, d in enumerate(self.game.dice) if action >> i & 1)

    def is_terminal(self) -> bool:
        return self.game.is_over

    def returns(self) -> list[float]:
        if not self.game.is_over:
            return [0.0] * self.game.n_players
        return [float(s.total) for s in self.game.scores()]

    def __str__(self) -> str:
        game = self.game
        dice = " ".join(f"{d}{v}:{w}" for d, v, w in zip(game.dice, game.values, game.where, strict=True))
        scores = " ".join(str(s.total) for s in game.scores())
        rolled = f" | rolled {self.position.faces}" if self.position.faces else ""
        return f"round {game.round} turn {game.turn} {game.phase} | {dice} | scores {scores}{rolled}"


class Observer:
    """The environments' observation of a player, as OpenSpiel's observation tensor."""

    def __init__(self, game: TresFuteGame) -> None:
        params = game.get_parameters()
        size = observation_size(get_spec(str(params["game"])), int(params["players"]))
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TresFuteState, player: int) -> None:
        game = state.game
        others = state.position.shown.now(game) if game.n_players > 1 else None
        self.tensor[:] = encode(game, player, others)

    def string_from(self, state: TresFuteState, player: int) -> str:
        self.set_from(state, player)
        return f"p{player} " + self.tensor.tobytes().hex()


pyspiel.register_game(_game_type(), TresFuteGame)

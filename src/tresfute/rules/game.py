"""The game: one turn flow for both games, driven by the game's sheet description.

A :class:`Game` always knows who decides next (:attr:`Game.to_move`: a player, ``CHANCE``
when dice must be given from outside, ``None`` when the game is over) and the legal
moves (:meth:`Game.legal_moves`). :meth:`Game.play` applies a move or raises
:class:`IllegalMoveError` and changes nothing.

How it works, at length: docs/design.md (rules/game.py).
"""

from __future__ import annotations

import itertools
import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from .codes import (
    _ACTIVE_EXTRA,
    _BEFORE_ROLL,
    _BONUS,
    _CHOOSE,
    _DICE_KIND,
    _DONE_KIND,
    _DONE_STAGE,
    _EXTRA,
    _EXTRA_STAGE,
    _FIELD,
    _HAND,
    _NEXT_ROLL,
    _OVER,
    _PASS_KIND,
    _PASSIVE,
    _PICK,
    _PICK_STAGE,
    _PLATTER,
    _PLUS_ONE_ACTION,
    _REPRISE_ACTION,
    _REPRISE_KIND,
    _REROLL_ACTION,
    _REROLL_KIND,
    _ROLL,
    _ROLL_KIND,
    _SOLO_ROLL,
    _SWEEP,
    _SWEEP_KIND,
    _TURN_START,
    Phase,
    Stage,
    Where,
)
from .kinds import (
    AREA_NAMES,
    ActionBonus,
    Bonus,
    ChoiceBonus,
    EntryBonus,
    Fired,
    FoxBonus,
    GameSpec,
    Grid,
    Order,
    Track,
    area_word,
)
from .moves import DIE_LETTERS, DONE, PASS, REROLL, ROLL, Move, MoveKind, parse_move
from .reasons import Listing, Named, OneOf, Reason, ReasonError
from .sheet import Score, Sheet, winners

CHANCE: Final = -1
DIE_NAMES = {"w": "white", **AREA_NAMES}  # the white die has no area


class IllegalMoveError(ReasonError):
    """A move that the rules do not allow now; the game is left exactly as it was. ``str()``
    says why in English; ``reason`` holds the translatable :class:`~.reasons.Reason`."""


class RulesError(ReasonError):
    """Rules options a game does not have, or of the wrong type (a ``ValueError``; ``reason``
    is translatable)."""


REPRISE_WITH_NO_DIE_LEFT: Final = "reprise_with_no_die_left"


_WHERE_WORDS = {"hand": "in hand", "platter": "on the platter", "field": "on a die field"}


def _die_word(letter: str | None) -> Named:
    return Named("die", letter, DIE_NAMES.get(letter or "", str(letter)))


def _player(p: int) -> Reason:
    return Reason("player {n}", n=p + 1)


def _seat(player: object) -> int | None:
    """A player given to a public method, once known to be an int (not a bool) or None."""
    if player is not None and type(player) is not int:
        raise TypeError(f"player is a seat number from 0 (an int) or None, not {type(player).__name__}")
    return player


_ALL_DICE: Final = list(range(6))  # read only
# The lists a game's copy shares with the game it was copied from until either side writes one
# (``Game._own``): a look-ahead makes positions by the thousand, and a move writes few of them.
_VALUES: Final = 1
_WHERE: Final = 2
_FIELD_DICE: Final = 4
_SWEPT: Final = 8
_STAGE: Final = 16
_PENDING: Final = 32
_EXTRA_USED: Final = 64
_LOST: Final = 128
_ALL_SHARED: Final = 255


@dataclass(slots=True)
class Pending:
    """A bonus waiting for its entry, and what earned it."""

    bonus: Bonus
    source: str


class Played:
    """One move of the game's history, by whom, and whether the engine played it (forced).

    A plain class with read-only attributes, not a named tuple or a dataclass: compiled, it
    costs a tenth as much to build, and the engine builds one for every move."""

    __slots__ = ("forced", "move", "player", "round", "turn")

    def __init__(self, player: int, move: Move, forced: bool = False, round: int = 0, turn: int = 0) -> None:
        self.player: Final = player  # CHANCE for dice given from outside
        self.move: Final = move
        self.forced: Final = forced
        self.round: Final = round
        self.turn: Final = turn  # index of the turn in its round

    def _key(self) -> tuple[int, Move, bool, int, int]:
        return (self.player, self.move, self.forced, self.round, self.turn)

    def __reduce__(self) -> tuple[type[Played], tuple[int, Move, bool, int, int]]:
        return Played, self._key()  # pickled by its fields, compiled or not

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Played) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"Played(player={self.player}, move={self.move!r}, forced={self.forced}, "
            f"round={self.round}, turn={self.turn})"
        )


def _has_player(players: tuple[int, ...], p: int) -> bool:
    """``p in players``: compiled, ``any`` of a generator is a loop of a few instructions."""
    return any(q == p for q in players)


def _any_pending(pending: list[list[Pending]]) -> bool:
    """``any(pending)``, written so that the compiler makes it a loop, not a call."""
    return any(queue for queue in pending)


def _holds(items: list[Where] | list[Stage], item: Where | Stage) -> bool:
    """``item in items`` for enum members, by identity (no string comparisons), as a loop."""
    return any(x is item for x in items)


def _listed(move: Move, moves: list[Move]) -> Move | None:
    """The listed move equal to ``move`` (None if none), trying identity first: a bot plays one
    of the very objects listed."""
    for m in moves:
        if m is move:
            return m
    for m in moves:
        if m == move:
            return m
    return None


def _exact_dice(move: Move) -> Move:
    """A ``dice`` move built in Python, checked field by field and rebuilt in canonical order
    (die letters of the notation, values 1 to 6 as ints, each die once). The fields are read
    through ``Any``: compiled, a declared type would be checked, with a TypeError, before these
    checks could say what is wrong."""
    fields: Any = move
    dice: Any = fields.dice
    platter: Any = fields.platter
    if not isinstance(dice, tuple) or not dice:
        raise IllegalMoveError(Reason("a dice move gives each die rolled as (letter, value) pairs"))
    values: dict[str, int] = {}
    for pair in dice:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise IllegalMoveError(Reason("a dice move gives each die rolled as (letter, value) pairs"))
        die: Any = pair[0]
        value: Any = pair[1]
        if not isinstance(die, str) or len(die) != 1 or die not in "wsybgopk":
            raise IllegalMoveError(Reason("{die} is not a die letter (w, s, y, b, g, o, p, k)", die=repr(die)))
        if type(value) is not int or not 1 <= value <= 6:
            raise IllegalMoveError(
                Reason("the {die} die shows 1 to 6, not {value}", die=_die_word(die), value=repr(value))
            )
        if die in values:
            raise IllegalMoveError(Reason("each die is given once"))
        values[die] = value
    if platter is not None:
        if not isinstance(platter, tuple) or any(not isinstance(d, str) or d not in values for d in platter):
            raise IllegalMoveError(Reason("'platter=' names three of the dice rolled"))
        if len(set(platter)) != len(platter) or len(platter) != 3:
            raise IllegalMoveError(Reason("'platter=' names three of the dice rolled"))
    if fields.die is not None or fields.area is not None or fields.cell is not None or fields.value is not None:
        raise IllegalMoveError(Reason("a dice move gives only the dice and the platter"))
    order = DIE_LETTERS.index
    return Move(
        _DICE_KIND,
        dice=tuple(sorted(values.items(), key=lambda dv: order(dv[0]))),
        platter=None if platter is None else tuple(sorted(platter, key=order)),
    )


_MOVE_KINDS: Final[dict[str, MoveKind]] = {k.value: k for k in MoveKind}


def _exact_move(move: Move) -> Move:
    """A move built in Python, checked field by field before the rules read it: its kind a
    :class:`MoveKind` (or its text, ``"pick"``), a die and an area as text, a cell as two
    whole numbers, a value as a whole number (a bool is not one). Raises
    :class:`IllegalMoveError` saying which field is wrong. Read through ``Any``: compiled, a
    field read from a ``Move`` is checked against its declared type, with a TypeError."""
    fields: Any = move
    kind: Any = fields.kind
    die: Any = fields.die
    area: Any = fields.area
    cell: Any = fields.cell
    value: Any = fields.value
    dice: Any = fields.dice
    platter: Any = fields.platter
    known = _MOVE_KINDS.get(kind) if isinstance(kind, str) else None
    if known is None:
        raise IllegalMoveError(
            Reason("{kind} is not a kind of move ({kinds})", kind=repr(kind), kinds=", ".join(_MOVE_KINDS))
        )
    if known is _DICE_KIND:
        return _exact_dice(Move(known, die, area, cell, value, dice, platter))
    if die is not None and type(die) is not str:
        raise IllegalMoveError(Reason("a move's die is a letter, not {value}", value=repr(die)))
    if area is not None and type(area) is not str:
        raise IllegalMoveError(Reason("a move's area is a letter, not {value}", value=repr(area)))
    if cell is not None and (
        type(cell) is not tuple or len(cell) != 2 or type(cell[0]) is not int or type(cell[1]) is not int
    ):
        raise IllegalMoveError(Reason("a move's cell is (row, column), two whole numbers, not {cell}", cell=repr(cell)))
    if value is not None and type(value) is not int:
        raise IllegalMoveError(Reason("a move's value is a whole number, not {value}", value=repr(value)))
    if dice != () or platter is not None:
        raise IllegalMoveError(Reason("only a dice move gives dice or a platter"))
    return Move(known, die, area, cell, value)


_KNOWN_SPECS: Final[dict[str, GameSpec]] = {}  # found once (an import statement at every call costs more)


def get_spec(game: str | GameSpec | Any) -> GameSpec:  # Any: compiled, a str parameter refuses 1 in words of its own
    if isinstance(game, GameSpec):
        return game
    if not isinstance(game, str):
        raise ValueError(f"unknown game {game!r}: choose one of {', '.join(_game_ids())}")
    spec = _KNOWN_SPECS.get(game)
    if spec is not None:
        return spec
    from . import games

    try:
        spec = _KNOWN_SPECS[game] = games.SPECS[game]
    except KeyError:
        raise ValueError(f"unknown game {game!r}: choose one of {', '.join(_game_ids())}") from None
    return spec


def _game_ids() -> list[str]:
    from . import games

    return list(games.SPECS)


def game_rules(game: str | GameSpec | Any, rules: Mapping[str, object] | None = None) -> dict[str, bool]:
    """Every rules option of ``game`` (``GameSpec.rule_options``), ``rules`` given over the
    defaults. Raises :class:`RulesError` for a name the game does not have (a rule of the other
    game is named as such) or a value that is not ``True`` or ``False``."""
    spec = get_spec(game)
    chosen = {option.name: option.default for option in spec.rule_options}
    if rules is None:
        return chosen
    if not isinstance(rules, Mapping):
        raise RulesError(Reason("the rules are given as names and true or false"))
    from . import games

    given: Any = rules  # as Any: compiled, a name that is not text would fail mypyc's own check, not ours
    for name, value in given.items():
        if name not in chosen:
            elsewhere = [other for other in games.SPECS.values() if any(o.name == name for o in other.rule_options)]
            if elsewhere:
                raise RulesError(
                    Reason(
                        "{rule} is a rule of {other}, not of {game}",
                        rule=repr(name),
                        other=Named("game", elsewhere[0].id, elsewhere[0].name_en),
                        game=Named("game", spec.id, spec.name_en),
                    )
                )
            if not chosen:
                raise RulesError(
                    Reason(
                        "{game} has no rules options, not {rule}",
                        game=Named("game", spec.id, spec.name_en),
                        rule=repr(name),
                    )
                )
            raise RulesError(
                Reason(
                    "{game} has no rule {rule}: its rules are {known}",
                    game=Named("game", spec.id, spec.name_en),
                    rule=repr(name),
                    known=Listing(tuple(chosen)),
                )
            )
        if type(value) is not bool:
            raise RulesError(Reason("the rule {rule} is true or false, not {value}", rule=name, value=repr(value)))
        chosen[name] = value
    return chosen


class Game:
    """A game of Très futé or Vraiment très futé, from its first roll to its score.

    ``rules``: the game's rules options by name (:func:`game_rules`; the defaults for those not
    given), fixed for the whole game. A solo game whose dice are given from outside:

    >>> from tresfute.rules import CHANCE, Game
    >>> game = Game("tres-fute", players=1, dice="external")
    >>> game.to_move == CHANCE  # the dice are rolled first
    True
    >>> game.play("dice w3 y5 b1 g2 o6 p4")
    >>> " ".join(str(move) for move in game.legal_moves())
    'w>y@r1c1 w>y@r4c2 w>b@r1c4 w>g w>o w>p y@r1c3 y@r2c4 b@r1c4 g o p reroll'
    >>> game.play("o")  # the orange 6; every lower die goes to the platter
    >>> game.score(0).areas["o"], game.score(0).total
    (6, 6)
    >>> game.phase  # the solo game's passive roll: chance again
    <Phase.SOLO_ROLL: 'solo roll'>
    >>> game.play("o")  # refused, and the game is left as it was
    Traceback (most recent call last):
      ...
    tresfute.rules.game.IllegalMoveError: the dice must be rolled first: give them with a move such as ...
    """

    def __init__(
        self,
        game: str | GameSpec | Any = "tres-fute",  # checked by get_spec
        players: int | Any = 1,  # Any: compiled, an int parameter would take True as 1 unseen,
        seed: int | Any | None = None,  # and refuse 1.0 in words of its own
        dice: str | Any = "seeded",  # Any: compiled, a str parameter would refuse 1 in words of its own
        *,
        rules: Mapping[str, object] | None = None,
        _copy_of: Game | None = None,
        _history: bool = True,
    ) -> None:
        if _copy_of is not None:  # Game.copy (a compiled class cannot be built without __init__)
            self._copy_state(_copy_of, dice, _history)
            return
        spec = get_spec(game)
        given_seed: Any = seed  # as Any: compiled, the type of an int is taken as int, a bool's too
        if type(players) is not int:  # a bool is not a number of players, nor a seed
            raise TypeError(f"players is a whole number, 1 to 4, not {type(players).__name__}")
        if given_seed is not None and type(given_seed) is not int:
            raise TypeError(f"seed is a whole number or None, not {type(given_seed).__name__}")
        if players not in spec.rounds_by_players:
            raise ValueError(f"{spec.name_fr} is played by 1 to 4 players, not {players}")
        if dice not in ("seeded", "external"):
            raise ValueError(f"dice must be 'seeded' or 'external', not {dice!r}")
        if dice == "external" and seed is not None:
            raise ValueError("a game with dice given from outside has no seed")
        self._rules = game_rules(spec, rules)
        # The one place the engine reads the option (``_next_roll``); True where the game has none.
        self._reprise_with_no_die_left = self._rules.get(REPRISE_WITH_NO_DIE_LEFT, True)
        self.spec = spec
        self.n_players = players
        self.rounds = spec.rounds_by_players[players]
        if dice == "seeded" and seed is None:
            seed = secrets.randbits(63)
        self.seed = seed
        self._rng: random.Random | None = random.Random(seed) if dice == "seeded" else None
        self.dice = spec.dice
        tables = _tables(spec)
        self._die_index = tables.die_index
        self._white = tables.white
        self._blue = tables.blue

        self.round = 0
        self.turn = 0  # index of the turn in the round
        self.active = 0
        self.solo_passive = False  # the solo game's passive turn
        self.phase = _TURN_START
        self.values = [0] * 6  # each die's face (0 before its first roll)
        self.where = [_HAND] * 6
        self.field: list[int] = []  # dice on the active player's die fields, in order
        self.rolls = 0
        self.picks = 0
        self.dice_rolled = 0  # rolls and rerolls since the start: new dice seen by everyone
        self.swept: list[int] = []
        self.sheets = [Sheet(spec) for _ in range(players)]
        self.pending: list[list[Pending]] = [[] for _ in range(players)]
        self.extra_used: list[set[int]] = [set() for _ in range(players)]
        self.stage = [_DONE_STAGE] * players
        self.history: list[Played] = []
        self.lost_bonuses: list[tuple[int, Pending]] = []
        self._cache: list[list[Move] | None] = [None] * players  # each player's legal moves, once listed
        self._movers: tuple[int, ...] = ()
        self._shared = 0  # the lists shared with a copy (``_own``)
        self._pick_table = tables.pick
        self._extra_table = tables.extra
        self._bonus_table = tables.bonus
        self._reprise_moves = tables.reprise
        self._sweep_table = tables.sweep
        self._begin_round()
        self._advance()

    # --- who decides, and what ------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    @property
    def rules(self) -> dict[str, bool]:
        """The game's rules options (every option of its game, by name), as chosen at creation."""
        return dict(self._rules)

    @property
    def external_dice(self) -> bool:
        return self._rng is None

    @property
    def players_to_move(self) -> tuple[int, ...]:
        """Everyone who may decide now (passive players decide independently)."""
        return self._movers

    def _find_movers(self) -> tuple[int, ...]:
        phase = self.phase
        if phase is _OVER:
            return ()
        if phase is _PASSIVE:
            stage = self.stage
            return tuple(p for p in self.passive_order() if stage[p] is not _DONE_STAGE)
        if _any_pending(self.pending):
            return tuple(p for p in range(self.n_players) if self.pending[p])
        if phase is _ROLL or phase is _SOLO_ROLL:
            return (CHANCE,)
        return (self.active,)

    @property
    def to_move(self) -> int | None:
        """The player who decides next, ``CHANCE`` for dice from outside, None at the end."""
        players = self.players_to_move
        return players[0] if players else None

    def passive_order(self) -> list[int]:
        """The passive players of this turn, in seat order from the active player's left."""
        if self.solo_passive:
            return [0]
        n = self.n_players
        return [(self.active + k) % n for k in range(1, n)]

    def dice_to_roll(self) -> list[str]:
        """The dice a ``dice ...`` move must give now (empty when no roll is due)."""
        if self.phase is _SOLO_ROLL:
            return list(self.dice)
        if self.phase is _ROLL and not _any_pending(self.pending):
            return [self.dice[i] for i in range(6) if self.where[i] is _HAND]
        return []

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """When chance acts (:attr:`to_move` is ``CHANCE``: a game with ``dice="external"``,
        at a roll), every roll it may give, with its probability; empty otherwise. Apply one
        with :meth:`play`.

        An outcome is a ``dice ...`` move giving each die of :meth:`dice_to_roll` a face, in
        die order: ordered by colour, not a multiset, since the dice are told apart by their
        colour, so ``k`` dice have ``6**k`` outcomes of probability ``6**-k`` each. In the
        solo game's passive roll, when dice tie at the boundary of the three lowest, the
        outcome also names the platter's dice (``platter=``): each choice among the tied dice
        is equally likely, as in a seeded game, and shares the roll's probability. The
        probabilities add up to 1.
        """
        if self._movers != (CHANCE,):
            return []
        letters = sorted(self.dice_to_roll(), key=DIE_LETTERS.index)
        probability = 1.0 / 6 ** len(letters)
        solo = self.phase is _SOLO_ROLL
        faces = [[(d, v) for v in range(1, 7)] for d in letters]
        outcomes: list[tuple[Move, float]] = []
        for roll in itertools.product(*faces):
            if not solo:
                outcomes.append((Move(_DICE_KIND, dice=roll), probability))
                continue
            values = sorted(v for _, v in roll)
            boundary = values[2]
            if values[3] != boundary:
                outcomes.append((Move(_DICE_KIND, dice=roll), probability))
                continue
            below = [d for d, v in roll if v < boundary]
            tied = [d for d, v in roll if v == boundary]
            ways = list(itertools.combinations(tied, 3 - len(below)))
            for chosen in ways:
                platter = tuple(sorted(below + list(chosen), key=DIE_LETTERS.index))
                outcomes.append((Move(_DICE_KIND, dice=roll, platter=platter), probability / len(ways)))
        return outcomes

    def legal_moves(self, player: int | Any | None = None) -> list[Move]:  # Any: as ``play``'s player
        """The legal moves of ``player`` (default: :attr:`to_move`); none for chance, nor for a
        player who is not deciding now. Raises ValueError for a player not in the game, TypeError
        for one that is not an int."""
        seat = _seat(player)
        movers = self._movers
        if seat is None:
            seat = movers[0] if movers else None
        if seat is None or seat == CHANCE:
            return []
        if seat not in movers:
            if not 0 <= seat < self.n_players:
                raise ValueError(
                    f"there is no player {seat} in this game: players are numbered 0 to {self.n_players - 1}"
                    " (CHANCE, -1, gives the dice)"
                )
            return []
        return list(self._moves_for(seat))

    def is_legal(self, move: Move | str | Any, player: object = None) -> bool:  # Any: as ``play``'s move
        """Whether ``move`` is legal now for ``player`` (default: :attr:`to_move`); False for
        anything that is not a move or not a player."""
        if player is not None and (isinstance(player, bool) or not isinstance(player, int)):
            return False
        if not isinstance(move, Move | str):
            return False
        try:
            if isinstance(move, Move):
                move = _exact_move(move)
            self._check(move if isinstance(move, Move) else parse_move(move), player)
        except (IllegalMoveError, ValueError, TypeError):
            return False
        return True

    # --- playing ----------------------------------------------------------------------

    def play(self, move: Move | str | Any, player: int | Any | None = None) -> None:
        """Apply ``move`` for ``player`` (default: :attr:`to_move`).

        Raises :class:`IllegalMoveError` (or :class:`MoveSyntaxError` for text that is not
        a move) and leaves the game unchanged when the move is not legal; TypeError for a
        player that is not an int (a bool neither).
        """
        # Any: compiled, typed parameters would be checked by mypyc first, in its words and
        # errors (a TypeError for play(123)), and an int parameter would take True as 1 unseen
        from_text = isinstance(move, str)  # then already read exactly, by the notation
        if isinstance(move, str):
            move = parse_move(move)
        seat = _seat(player)
        if not isinstance(move, Move):
            raise IllegalMoveError(Reason("not a move: {move}", move=repr(move)))
        movers = self._movers
        p = movers[0] if seat is None and movers else seat
        if p is not None and p >= 0 and _has_player(movers, p):  # the common case
            moves = self._cache[p]
            if moves is None:
                moves = self._moves_for(p)
            listed = _listed(move, moves)
            if listed is not None:  # the engine's own object: exact types, whatever was given
                self.history.append(Played(p, listed, False, self.round, self.turn))
                self._apply(p, listed)
                self._advance()
                return
        if not from_text:
            move = _exact_move(move)
        p = self._check(move, seat)
        if p != CHANCE:  # the engine's own object: exact types, whatever was given
            moves = self._moves_for(p)
            move = moves[moves.index(move)]
        self.history.append(Played(p, move, False, self.round, self.turn))
        if p == CHANCE:
            self._apply_dice(move)
        else:
            self._apply(p, move)
        self._advance()

    def _check(self, move: Move, player: int | None) -> int:
        """The player the move is for, once it is known to be legal."""
        if not isinstance(move, Move):
            raise IllegalMoveError(Reason("not a move: {move}", move=repr(move)))
        if player is not None and type(player) is not int:
            raise TypeError(f"player is a seat number from 0 (an int) or None, not {type(player).__name__}")
        if self.phase is _OVER:
            raise IllegalMoveError(Reason("the game is over"))
        movers = self._movers
        if move.kind is _DICE_KIND:
            if player is not None and player != CHANCE:
                raise IllegalMoveError(
                    Reason("dice are nobody's decision: give a dice move with no player (or CHANCE)")
                )
            if movers != (CHANCE,):
                raise IllegalMoveError(
                    Reason("no roll is due now")
                    if self.external_dice
                    else Reason("this game rolls its own dice from its seed")
                )
            self._check_dice(move)
            return CHANCE
        if player is None:
            player = movers[0]
        if player == CHANCE:
            if movers != (CHANCE,):
                raise IllegalMoveError(Reason("chance (player -1) only gives the dice, and no roll is due now"))
            example = "dice " + " ".join(d + "1" for d in self.dice_to_roll())
            raise IllegalMoveError(
                Reason("the dice must be rolled first: give them with a move such as '{example}'", example=example)
            )
        if player not in movers:
            if not 0 <= player < self.n_players:
                raise IllegalMoveError(Reason("there is no player {n} in this game", n=player + 1))
            waiting = Listing(tuple(_player(q) if q != CHANCE else Reason("the dice") for q in movers))
            raise IllegalMoveError(
                Reason("it is not player {n}'s decision now (waiting for {waiting})", n=player + 1, waiting=waiting)
            )
        if move not in self._moves_for(player):
            raise IllegalMoveError(self._why_illegal(player, move))
        return player

    def _advance(self) -> None:
        """Run what needs no decision: passing phases, seeded rolls and forced moves."""
        cache = self._cache
        history = self.history
        while True:
            for i in range(len(cache)):
                cache[i] = None
            phase = self.phase
            if phase is _OVER:
                self._movers = ()
                return
            settled = True
            if _any_pending(self.pending):
                self._drop_lost_bonuses()
                settled = not _any_pending(self.pending)
            if settled:
                if phase is _TURN_START:
                    self._start_turn()
                    continue
                if phase is _NEXT_ROLL:
                    self._next_roll()
                    continue
                if phase is _PASSIVE:
                    stage = self.stage
                    if not _holds(stage, _PICK_STAGE) and not _holds(stage, _EXTRA_STAGE):
                        self._end_turn()
                        continue
                elif phase is _ROLL or phase is _SOLO_ROLL:
                    if self._rng is not None:
                        self._roll_from_seed()
                        continue
                    self._movers = (CHANCE,)
                    return
                movers: tuple[int, ...] = (self.active,) if phase is not _PASSIVE else self._find_movers()
            else:
                movers = self._find_movers()
            self._movers = movers
            for p in movers:
                if p == CHANCE:
                    return
                move = self._forced_move(p)
                if move is not None:
                    history.append(Played(p, move, True, self.round, self.turn))
                    self._apply(p, move)
                    break
            else:
                return

    # --- the turn flow ----------------------------------------------------------------

    def _turns_per_round(self) -> int:
        """Solo: the player's own turn, then the passive one; otherwise one turn per player."""
        return 2 if self.n_players == 1 else self.n_players

    def _seat_turn(self, turn: int) -> None:
        """Set the active player of the round's turn ``turn``, and whether it is the solo game's
        passive turn."""
        if self.n_players == 1:
            self.active, self.solo_passive = 0, turn == 1
        else:
            self.active, self.solo_passive = turn, False

    def _begin_round(self) -> None:
        self.round += 1
        self.turn = 0
        self._seat_turn(0)
        gift = self.spec.round_gifts[self.round - 1]
        if gift is not None:
            for p in range(self.n_players):
                self._fire(p, [(gift, f"round {self.round}")])
        self.phase = _TURN_START

    def _start_turn(self) -> None:
        self._seat_turn(self.turn)
        self.where = [_HAND] * 6
        self.field = []
        self.rolls = self.picks = 0
        self.swept = []
        if any(self.extra_used):
            self._own(_EXTRA_USED)
            for used in self.extra_used:
                used.clear()
        self.stage = [_DONE_STAGE] * self.n_players
        self.phase = _SOLO_ROLL if self.solo_passive else _NEXT_ROLL

    def _next_roll(self) -> None:
        if self.picks >= 3 or self.rolls >= 3:
            self._end_active_part()
        elif not self._reprise_with_no_die_left and not _holds(self.where, _HAND):
            # the strict reading: « qu'il ne peut plus lancer de dés parce que tous les dés
            # restants se trouvent sur le plateau d'argent » ends the active part, reprise or not
            self._end_active_part()
        elif self._can_reprise():
            self.phase = _BEFORE_ROLL
        elif _holds(self.where, _HAND):
            self.rolls += 1
            self.phase = _ROLL
        else:
            self._end_active_part()

    def _can_reprise(self) -> bool:
        return (
            self.rolls >= 1 and _holds(self.where, _PLATTER) and self.sheets[self.active].available(_REPRISE_ACTION) > 0
        )

    def _end_active_part(self) -> None:
        self.where = [_PLATTER if w is _HAND else w for w in self.where]
        self.phase = _ACTIVE_EXTRA

    def _begin_passive(self) -> None:
        self.phase = _PASSIVE
        self._own(_STAGE)
        for p in self.passive_order():
            self.stage[p] = _PICK_STAGE

    def _end_turn(self) -> None:
        self.turn += 1
        if self.turn < self._turns_per_round():
            self.phase = _TURN_START
        elif self.round < self.rounds:
            self._begin_round()
        else:
            self.phase = _OVER

    # --- dice -------------------------------------------------------------------------

    def _roll_from_seed(self) -> None:
        rng = self._rng
        assert rng is not None
        self.dice_rolled += 1
        self._own(_VALUES)
        values = self.values
        random = rng.random
        if self.phase is _SOLO_ROLL:
            for i in range(6):
                values[i] = int(random() * 6) + 1
            # the three lowest go to the platter; ties at the boundary broken at random (one
            # draw per die, in die order)
            keys = [(values[i], random()) for i in range(6)]
            order = sorted(range(6), key=keys.__getitem__)
            self._solo_platter(order[:3])
        else:
            where = self.where
            for i in range(6):
                if where[i] is _HAND:
                    values[i] = int(random() * 6) + 1
            self.phase = _CHOOSE

    def _solo_platter(self, platter: list[int]) -> None:
        self._own(_WHERE)
        for i in platter:
            self.where[i] = _PLATTER
        self._begin_passive()

    def _check_dice(self, move: Move) -> None:
        expected = self.dice_to_roll()
        given = [d for d, _ in move.dice]
        if sorted(given) != sorted(expected):
            raise IllegalMoveError(
                Reason(
                    "the dice to roll are {expected}, each once; got {given}",
                    expected=" ".join(expected),
                    given=" ".join(given) or "-",
                )
            )
        if self.phase is _ROLL:
            if move.platter is not None:
                raise IllegalMoveError(Reason("'platter=' is only for the solo game's passive roll"))
            return
        values = dict(move.dice)
        if move.platter is None:
            ranked = sorted(values.values())
            if ranked[2] == ranked[3]:
                raise IllegalMoveError(
                    Reason(
                        "two dice show {value} at the boundary of the three lowest: say which three "
                        "dice go to the platter (those closest to it), as in 'platter=bgo'",
                        value=ranked[2],
                    )
                )
            return
        if len(move.platter) != 3 or any(d not in values for d in move.platter):
            raise IllegalMoveError(Reason("'platter=' names three of the dice rolled"))
        highest_on = max(values[d] for d in move.platter)
        lowest_off = min(v for d, v in values.items() if d not in move.platter)
        if highest_on > lowest_off:
            raise IllegalMoveError(Reason("the platter takes the three lowest dice"))

    def _apply_dice(self, move: Move) -> None:
        self.dice_rolled += 1
        self._own(_VALUES)
        for d, v in move.dice:
            self.values[self._die_index[d]] = v
        if self.phase is _ROLL:
            self.phase = _CHOOSE
            return
        if move.platter is not None:
            platter = [self._die_index[d] for d in move.platter]
        else:
            platter = sorted(range(6), key=lambda i: self.values[i])[:3]
        self._solo_platter(platter)

    # --- legal moves ------------------------------------------------------------------

    def _moves_for(self, p: int) -> list[Move]:
        cached = self._cache[p]
        if cached is not None:
            return cached
        phase = self.phase
        moves: list[Move]
        if self.pending[p]:
            moves = self._bonus_moves(p) if phase is not _OVER else []
        elif self._extra_then_done(p):
            moves = self._extra_moves(p)
            moves.append(DONE)
        elif phase is _CHOOSE:
            moves = self._choose_moves(p) if p == self.active else []
        elif phase is _PASSIVE:
            moves = self._passive_moves(p) if self.stage[p] is _PICK_STAGE else []
        elif p != self.active:
            moves = []
        elif phase is _BEFORE_ROLL:
            moves = []
            if self.sheets[p].available(_REPRISE_ACTION) > 0:
                where, reprises = self.where, self._reprise_moves
                moves = [reprises[i] for i in range(6) if where[i] is _PLATTER]
            moves.append(ROLL if _holds(self.where, _HAND) else DONE)
        elif phase is _SWEEP:
            moves = self._sweep_moves(p)
            moves.append(DONE)
        else:
            moves = []
        self._cache[p] = moves
        return moves

    def _extra_then_done(self, p: int) -> bool:
        """Whether player ``p``'s moves (no bonus waiting) are any +1 entry, or done: its own
        active part over, or its pick of this passive turn made."""
        phase = self.phase
        return (phase is _PASSIVE and self.stage[p] is _EXTRA_STAGE) or (phase is _ACTIVE_EXTRA and p == self.active)

    def _forced_move(self, p: int) -> Move | None:
        """Player ``p``'s one legal move, played for it; None when it has a choice.

        After most moves of a turn the list is "any +1 entry, or done": then whether one +1
        entry exists is enough, and the entries are listed only if ``p`` is asked for its moves
        (a look-ahead makes thousands of positions that nobody asks)."""
        if self._cache[p] is None and not self.pending[p] and self._extra_then_done(p):
            return None if self._extra_moves(p, first=True) else DONE
        moves = self._moves_for(p)
        return moves[0] if len(moves) == 1 else None

    def _entry_value(self, d: int, area: str) -> int:
        if area == self.spec.sum_area:
            return self.values[self._white] + self.values[self._blue]
        return self.values[d]

    def _die_moves(self, p: int, dice: list[int], extra: bool = False, first: bool = False) -> list[Move]:
        """Every entry of each of ``dice`` on player ``p``'s sheet (``first``: the first found
        alone, if any).

        The same test as :meth:`Grid.die_targets` and :meth:`Track.accepts`, on the flat
        numbers of :class:`_Tables` (this runs for every decision).
        """
        moves: list[Move] = []
        states = self.sheets[p].areas
        values = self.values
        blue_sum = values[self._white] + values[self._blue]
        table = self._extra_table if extra else self._pick_table
        for d in dice:
            own = values[d]
            for a, is_sum, grid, track, entries in table[d]:
                value = blue_sum if is_sum else own
                state = states[a]
                if grid is not None:  # one move per cell
                    marks = grid[0]
                    for c in grid[1].get(value, ()):
                        if state[c] < marks:
                            moves.append(entries[c])
                            if first:
                                return moves
                    continue
                assert track is not None
                i = len(state)
                if i >= track[0] or value < track[1][i]:
                    continue
                if i and track[3]:
                    written, previous = value * track[2][i], state[-1]
                    if track[4]:
                        if written > previous:
                            continue
                    elif previous != 6 and written <= previous:
                        continue
                moves.append(entries[0])
                if first:
                    return moves
        return moves

    def _choose_moves(self, p: int) -> list[Move]:
        where = self.where
        moves = self._die_moves(p, [i for i in range(6) if where[i] is _HAND])
        if not moves or self.spec.may_decline_roll:
            moves.append(PASS)
        if self.sheets[p].available(_REROLL_ACTION) > 0:
            moves.append(REROLL)
        return moves

    def _passive_moves(self, p: int) -> list[Move]:
        where = self.where
        moves = self._die_moves(p, [i for i in range(6) if where[i] is _PLATTER])
        if not moves:  # only then may the active player's dice be used, and only "may" (il peut)
            moves = self._die_moves(p, self.field)
            moves.append(PASS)
        elif self.spec.passive_may_refuse:
            moves.append(PASS)
        return moves

    def _extra_moves(self, p: int, first: bool = False) -> list[Move]:
        if self.sheets[p].available(_PLUS_ONE_ACTION) <= 0:
            return []
        used = self.extra_used[p]
        return self._die_moves(p, [i for i in range(6) if i not in used] if used else _ALL_DICE, True, first)

    def _sweep_moves(self, p: int) -> list[Move]:
        silver = self.spec.areas["s"]
        assert isinstance(silver, Grid)
        state = self.sheets[p].areas["s"]
        moves = []
        for d in self.swept:
            by_cell = self._sweep_table[d]
            for c in silver.die_targets(state, self.values[d]):
                move = by_cell[c]
                if move is not None:
                    moves.append(move)
        return moves

    def _bonus_targets(self, p: int, bonus: Bonus) -> list[Move]:
        if isinstance(bonus, ChoiceBonus):
            return [m for option in bonus.options for m in self._bonus_targets(p, option)]
        assert isinstance(bonus, EntryBonus)
        a = bonus.area
        area = self.spec.areas[a]
        state = self.sheets[p].areas[a]
        moves = self._bonus_table[a]
        if isinstance(area, Grid):
            marks = area.marks
            return [moves[c] for c, level in enumerate(state) if level < marks]
        if area.crosses:
            return [] if area.is_full(state) else [moves[0]]
        if bonus.value is not None:
            return [moves[bonus.value]] if area.accepts(state, bonus.value, True) else []
        return [moves[v] for v in area.choice_values if area.accepts(state, v, True)]

    def _bonus_moves(self, p: int) -> list[Move]:
        waiting = self.pending[p]
        if len(waiting) == 1 and not isinstance(waiting[0].bonus, ChoiceBonus):
            return self._bonus_targets(p, waiting[0].bonus)  # the common case: no repeats
        # Each target's move is one object of the bonus table: repeats are the same object.
        moves: list[Move] = []
        seen: set[int] = set()
        for pending in waiting:
            for m in self._bonus_targets(p, pending.bonus):
                if id(m) not in seen:
                    seen.add(id(m))
                    moves.append(m)
        return moves

    def _drop_lost_bonuses(self) -> None:
        """A bonus with no legal target is lost (targets never come back)."""
        for p, pending in enumerate(list(self.pending)):
            for item in list(pending):
                if not self._bonus_targets(p, item.bonus):
                    self._own(_PENDING)
                    self._own(_LOST)
                    self.pending[p].remove(item)
                    self.lost_bonuses.append((p, item))

    # --- applying (the move is known to be legal) -------------------------------------

    def _apply(self, p: int, move: Move) -> None:
        kind = move.kind
        phase = self.phase
        sheet = self.sheets[p]
        die, area = move.die or "", move.area or ""  # the die and area of an entry move
        if kind is _PICK:
            d = self._die_index[die]
            if phase is _CHOOSE:
                self._own(_WHERE)
                self._own(_FIELD_DICE)
                values, where = self.values, self.where
                value = values[d]
                where[d] = _FIELD
                self.field.append(d)
                swept = [i for i in range(6) if where[i] is _HAND and values[i] < value]
                for i in swept:
                    where[i] = _PLATTER
                self.picks += 1
                self._enter(p, area, move.cell, self._entry_value(d, area))
                if self.spec.silver_sweep and area == "s" and swept:
                    self.swept = swept
                    self.phase = _SWEEP
                elif self.pending[p]:
                    self.phase = _NEXT_ROLL  # once the bonuses are resolved
                else:
                    self._next_roll()
            else:
                self._enter(p, area, move.cell, self._entry_value(d, area))
                self._own(_STAGE)
                self.stage[p] = _EXTRA_STAGE
        elif kind is _BONUS:
            self._take_pending(p, move)
            self._enter(p, area, move.cell, move.value)
        elif kind is _EXTRA:
            d = self._die_index[die]
            sheet.use(_PLUS_ONE_ACTION)
            self._own(_EXTRA_USED)
            self.extra_used[p].add(d)
            self._enter(p, area, move.cell, self._entry_value(d, area))
        elif kind is _PASS_KIND:
            if phase is _CHOOSE:
                self.phase = _NEXT_ROLL  # the roll is lost, and counts
            else:
                self._own(_STAGE)
                self.stage[p] = _EXTRA_STAGE
        elif kind is _DONE_KIND:
            if phase is _PASSIVE:
                self._own(_STAGE)
                self.stage[p] = _DONE_STAGE
            elif phase is _ACTIVE_EXTRA:
                if self.n_players == 1:
                    self._end_turn()
                else:
                    self._begin_passive()
            elif phase is _SWEEP:
                self.swept = []
                self.phase = _NEXT_ROLL
            else:  # BEFORE_ROLL with nothing left to roll
                self._end_active_part()
        elif kind is _REROLL_KIND:
            sheet.use(_REROLL_ACTION)
            self.phase = _ROLL
        elif kind is _ROLL_KIND:
            self.rolls += 1
            self.phase = _ROLL
        elif kind is _REPRISE_KIND:
            sheet.use(_REPRISE_ACTION)
            self._own(_WHERE)
            self.where[self._die_index[die]] = _HAND
        elif kind is _SWEEP_KIND:
            d = self._die_index[die]
            self._own(_SWEPT)
            self.swept.remove(d)
            self._enter(p, "s", move.cell, self.values[d])
            if not self.swept:
                self.phase = _NEXT_ROLL

    def _enter(self, p: int, a: str, cell: tuple[int, int] | None, value: int | None) -> None:
        area = self.spec.areas[a]
        state = self.sheets[p].writable(a)
        if cell is not None:  # a grid
            assert isinstance(area, Grid)
            fired = area.mark(state, area.cell_index[cell])
        else:
            assert isinstance(area, Track)
            fired = area.enter(state, value or 0)
        if fired:
            self._fire(p, fired)

    def _fire(self, p: int, fired: list[Fired]) -> None:
        sheet = self.sheets[p]
        for bonus, source in fired:
            if isinstance(bonus, ActionBonus | FoxBonus):
                more = sheet.gain(bonus, source)
                if more:
                    self._fire(p, more)
            else:
                self._own(_PENDING)
                self.pending[p].append(Pending(bonus, source))

    def _take_pending(self, p: int, move: Move) -> Pending:
        """The pending bonus a bonus move resolves: a plain one before a choice."""
        self._own(_PENDING)
        pending = self.pending[p]
        for want_choice in (False, True):
            for item in pending:
                if isinstance(item.bonus, ChoiceBonus) == want_choice and move in self._bonus_targets(p, item.bonus):
                    pending.remove(item)
                    return item
        raise AssertionError("no pending bonus for a legal bonus move")

    # --- explaining illegal moves -----------------------------------------------------

    def _why_illegal(self, p: int, move: Move) -> Reason:
        legal = self._moves_for(p)
        kind = move.kind
        if self.pending[p]:
            wanted = Listing(
                tuple(
                    Reason(
                        "{bonus} (from {source})",
                        bonus=Named("bonus", item.bonus, str(item.bonus)),
                        source=Named("source", item.source, item.source),
                    )
                    for item in self.pending[p]
                )
            )
            if kind is not MoveKind.BONUS:
                return Reason("{player} must first resolve the bonus: {wanted}", player=_player(p), wanted=wanted)
            return self._why_entry(p, move, None) or Reason(
                "{move} does not resolve the pending bonus: {wanted}", move=str(move), wanted=wanted
            )
        if kind is MoveKind.PASS and self._expects(p, MoveKind.PICK):
            return (
                Reason("a die can be entered, so one must be picked")
                if self.phase is Phase.CHOOSE
                else Reason("a die can be entered, so one must be taken (from the platter if possible)")
            )
        if kind not in {m.kind for m in legal} and not self._expects(p, kind):
            return Reason("'{move}' is not possible now: {situation}", move=str(move), situation=self._situation(p))
        if kind in (MoveKind.PICK, MoveKind.EXTRA, MoveKind.SWEEP):
            d = self._die_index.get(move.die or "")
            game = Named("game", self.spec.id, self.spec.name_en)
            if d is None:
                return Reason("there is no {die} die in {game}", die=_die_word(move.die), game=game)
            die = _die_word(self.dice[d])
            if kind is MoveKind.PICK and self.phase is Phase.CHOOSE and self.where[d] is not Where.HAND:
                where = Named("where", self.where[d], _WHERE_WORDS[str(self.where[d])])
                return Reason("the {die} die is not in the current roll (it is {where})", die=die, where=where)
            if kind is MoveKind.PICK and self.phase is Phase.PASSIVE:
                if self.where[d] is Where.FIELD and d in self.field:
                    return (
                        Reason("a platter die can be used, so the active player's dice cannot")
                        if any(
                            m.kind is MoveKind.PICK and self.where[self._die_index[m.die or ""]] is Where.PLATTER
                            for m in legal
                        )
                        else Reason("the {die} die cannot be entered", die=die)
                    )
                if self.where[d] is not Where.PLATTER:
                    return Reason("the {die} die is not on the platter", die=die)
            if kind is MoveKind.EXTRA and d in self.extra_used[p]:
                return Reason("the {die} die was already taken with +1 this turn", die=die)
            if kind is MoveKind.SWEEP and d not in self.swept:
                return Reason("the {die} die was not swept to the platter by this silver pick", die=die)
            if move.area not in self.spec.areas:
                return Reason("there is no {area} area in {game}", area=area_word(move.area or ""), game=game)
            allowed = self.spec.areas_for_die(self.dice[d])
            if kind is not MoveKind.SWEEP and move.area not in allowed:
                return Reason(
                    "the {die} die goes in {allowed}, not {area}",
                    die=die,
                    allowed=OneOf(tuple(area_word(a) for a in allowed)),
                    area=area_word(move.area),
                )
            return self._why_entry(p, move, self._entry_value(d, move.area)) or Reason(
                "'{move}' is not legal now", move=str(move)
            )
        if kind is MoveKind.REPRISE:
            return Reason("reprise takes back a die that is on the platter")
        return Reason(
            "'{move}' is not legal now; legal moves: {legal}",
            move=str(move),
            legal=", ".join(map(str, legal[:12])),
        )

    def _expects(self, p: int, kind: MoveKind) -> bool:
        """Whether this kind of move belongs to the player's current step (legal or not)."""
        phase = self.phase
        if phase is Phase.PASSIVE:
            stage = self.stage[p]
            return (kind is MoveKind.PICK and stage is Stage.PICK) or (kind is MoveKind.EXTRA and stage is Stage.EXTRA)
        if p != self.active:
            return False
        return (
            (kind is MoveKind.PICK and phase is Phase.CHOOSE)
            or (kind is MoveKind.EXTRA and phase is Phase.ACTIVE_EXTRA)
            or (kind is MoveKind.SWEEP and phase is Phase.SWEEP)
            or (kind is MoveKind.REPRISE and phase is Phase.BEFORE_ROLL)
        )

    def _why_entry(self, p: int, move: Move, value: int | None) -> Reason | None:
        a = move.area or ""
        area = self.spec.areas.get(a)
        name = area_word(a)
        if area is None:
            return Reason(
                "there is no {area} area in {game}", area=name, game=Named("game", self.spec.id, self.spec.name_en)
            )
        state = self.sheets[p].areas[a]
        if isinstance(area, Grid):
            if move.cell is None:
                return Reason("name the {area} cell, as in {example}", area=name, example=f"{a}@r1c2")
            c = area.cell_index.get(move.cell)
            if c is None:
                return Reason(
                    "there is no markable cell r{row}c{col} in {area}", row=move.cell[0], col=move.cell[1], area=name
                )
            return area.why_not(state, value, c)
        if move.cell is not None:
            return Reason("{area} has no cells to name: its boxes are filled left to right", area=name)
        if isinstance(area, Track) and value is None:
            if move.value is None and not area.crosses:
                return Reason("say which number to write, as in !o=4")
            value = move.value or 0
        return area.why_not(state, value if value is not None else 0, from_bonus=move.kind is MoveKind.BONUS)

    def _situation(self, p: int) -> Reason:
        phase = self.phase
        if phase is Phase.PASSIVE:
            return (
                Reason("a passive player picks a die from the platter")
                if self.stage[p] is Stage.PICK
                else Reason("the player may use +1 actions, or say 'done'")
            )
        situations = {
            Phase.CHOOSE: Reason("the active player picks a die from the roll"),
            Phase.ACTIVE_EXTRA: Reason("the active player may use +1 actions, or say 'done'"),
            Phase.BEFORE_ROLL: Reason("the active player may take dice back (reprise) before rolling"),
            Phase.SWEEP: Reason("the active player may cross the swept dice in silver, or say 'done'"),
        }
        return situations.get(phase) or Reason("the game is at {phase}", phase=str(phase))

    # --- reading the game -------------------------------------------------------------

    def score(self, player: int) -> Score:
        return self.sheets[player].score()

    def scores(self) -> list[Score]:
        return [s.score() for s in self.sheets]

    def winners(self) -> list[int]:
        """The winner(s) by the rulebook's tie-break (meaningful once the game is over)."""
        return winners(self.scores())

    def solo_rating(self) -> tuple[str, str, int | None] | None:
        """The solo table's (French label, English label, stars) for player 1's score."""
        if self.n_players != 1:
            return None
        band = self.spec.rating(self.score(0).total)
        return band.label_fr, band.label_en, band.stars

    def set_sheet(self, player: int, sheet: Sheet) -> None:
        """Set up a position: replace a player's sheet (puzzles, analysis, tests).

        The sheet is copied; nothing else changes, and legal moves are worked out anew.
        """
        if sheet.spec is not self.spec:
            raise ValueError(f"that sheet is not a {self.spec.name_fr} sheet")
        self.sheets[player] = sheet.copy()
        self._cache = [None] * self.n_players
        self._movers = self._find_movers()

    def key(self, leaving_out: int | None = None) -> tuple[object, ...]:
        """Everything the rules read of this position, hashable (its history and seed aside):
        two positions of one game with the same key have the same legal moves and play alike. With
        ``leaving_out``, that player's sheet is left out of it (a search that meets the other
        players' decisions again, with only its own sheet changed: ``bots/futures.py``)."""
        return (
            self.round,
            self.turn,
            self.active,
            self.solo_passive,
            self.phase,
            tuple(self.values),
            tuple(self.where),
            tuple(self.field),
            self.rolls,
            self.picks,
            tuple(self.swept),
            tuple(self.stage),
            tuple(tuple((w.bonus, w.source) for w in waiting) for waiting in self.pending),
            tuple(frozenset(used) for used in self.extra_used),
            tuple(None if p == leaving_out else s.key() for p, s in enumerate(self.sheets)),
        )

    def moves_played(self) -> list[Played]:
        """The decisions taken (forced moves left out): what a record stores."""
        return [h for h in self.history if not h.forced]

    def copy(self, dice: str = "same", history: bool = True) -> Game:
        """An independent copy (cheap: it shares the game's lists and sheets' marks until either
        side's engine writes one, which copies it first; change a game only by playing it, or
        with :meth:`set_sheet`). ``dice="external"``: the copy never rolls by itself but waits
        for dice from outside, so a bot can look ahead without seeing the seeded dice.
        ``history=False``: the copy's :attr:`history` starts empty (the rules never read it; a
        look-ahead that makes thousands of positions need not copy it into each)."""
        return Game(self.spec, self.n_players, _copy_of=self, dice=dice, _history=history)

    def _copy_state(self, other: Game, dice: str, history: bool = True) -> None:
        """Become an independent copy of ``other`` (see :meth:`copy`)."""
        self.spec = other.spec
        self._rules = other._rules  # never written
        self._reprise_with_no_die_left = other._reprise_with_no_die_left
        self.n_players = other.n_players
        self.rounds = other.rounds
        if dice == "external" or other._rng is None:
            self._rng = None
            self.seed = None if dice == "external" else other.seed
        else:
            self._rng = rng = random.Random.__new__(random.Random)  # no seeding from the system
            rng.setstate(other._rng.getstate())
            self.seed = other.seed
        self.dice = other.dice
        self._die_index = other._die_index
        self._white = other._white
        self._blue = other._blue
        self.round = other.round
        self.turn = other.turn
        self.active = other.active
        self.solo_passive = other.solo_passive
        self.phase = other.phase
        # the lists are shared until either game writes one (``_own``), the sheets' likewise
        self.values = other.values
        self.where = other.where
        self.field = other.field
        self.rolls = other.rolls
        self.picks = other.picks
        self.dice_rolled = other.dice_rolled
        self.swept = other.swept
        self.sheets = [s.shared_copy() for s in other.sheets]
        self.pending = other.pending
        self.extra_used = other.extra_used
        self.stage = other.stage
        self.history = list(other.history) if history else []
        self.lost_bonuses = other.lost_bonuses
        self._shared = other._shared = _ALL_SHARED
        self._cache = [None] * other.n_players
        self._movers = other._movers
        self._pick_table = other._pick_table
        self._extra_table = other._extra_table
        self._bonus_table = other._bonus_table
        self._reprise_moves = other._reprise_moves
        self._sweep_table = other._sweep_table

    def _own(self, shared: int) -> None:
        """Make a list (``_VALUES``, ``_WHERE``, ...) this game's own before writing it, copying it
        if a copy of the game may share it (:meth:`copy`)."""
        if not self._shared & shared:
            return
        self._shared &= ~shared
        if shared == _VALUES:
            self.values = list(self.values)
        elif shared == _WHERE:
            self.where = list(self.where)
        elif shared == _FIELD_DICE:
            self.field = list(self.field)
        elif shared == _SWEPT:
            self.swept = list(self.swept)
        elif shared == _STAGE:
            self.stage = list(self.stage)
        elif shared == _PENDING:
            self.pending = [list(p) for p in self.pending]
        elif shared == _EXTRA_USED:
            self.extra_used = [set(u) for u in self.extra_used]
        else:
            self.lost_bonuses = list(self.lost_bonuses)

    def afterstates(self, player: int | None = None, history: bool = True) -> list[tuple[Move, Game]]:
        """Each legal move of ``player`` (default: :attr:`to_move`) with the position it leads
        to, for look-ahead. The positions wait for dice from outside (like
        ``copy(dice="external")``): a bot never sees the game's own dice. ``history=False``:
        their :attr:`history` holds only what is played from here (see :meth:`copy`)."""
        movers = self._movers
        if player is None:
            player = movers[0] if movers else None
        if player is None or player == CHANCE or player not in movers:
            return []
        out = []
        for move in self._moves_for(player):
            after = self.copy(dice="external", history=history)
            after.history.append(Played(player, move, False, self.round, self.turn))
            after._apply(player, move)
            after._advance()
            out.append((move, after))
        return out

    def view(self) -> dict[str, Any]:
        """Everything a player sees, as plain data (JSON-ready)."""
        return {
            "game": self.spec.id,
            "players": self.n_players,
            "round": self.round,
            "rounds": self.rounds,
            "turn": self.turn,
            "active": self.active,
            "solo_passive_turn": self.solo_passive,
            "phase": str(self.phase),
            "to_move": ["chance" if p == CHANCE else p for p in self.players_to_move],
            "rolls": self.rolls,
            "picks": self.picks,
            "dice": [
                {
                    "die": c,
                    "value": self.values[i] or None,
                    "where": str(self.where[i]),
                    "field": self.field.index(i) + 1 if i in self.field else None,
                }
                for i, c in enumerate(self.dice)
            ],
            "swept": [self.dice[i] for i in self.swept],
            "sheets": [s.view() for s in self.sheets],
            "pending": [[{"bonus": str(i.bonus), "source": i.source} for i in p] for p in self.pending],
            "extra_dice_used": [[self.dice[i] for i in sorted(u)] for u in self.extra_used],
            "over": self.is_over,
        }


class _Tables:
    """What the hot path reads of a game's sheet description, worked out once per game.

    Every pick, +1 and bonus move of the game is built here (moves are immutable values), and
    each area's numbers are laid out flat so that listing legal moves calls no method.

    Picks and +1 moves: per die, one entry per area the die may go to: ``(colour, is_sum,
    grid, track, moves)``, where ``grid`` is ``(marks, cells by value)`` for a grid (``moves``
    indexed by cell) and ``track`` is ``(boxes, minimums, multipliers, ordered,
    non-increasing)`` for a track (``moves``: its one move). Bonus moves: per area, indexed by
    cell or by value. Reprise moves: per die. Sweeps (a silver pick's swept dice crossed in
    silver): per die, per silver cell, the move or None where that die may not go (a coloured
    die only in its own colour's row).
    """

    __slots__ = ("blue", "bonus", "die_index", "extra", "pick", "reprise", "spec", "sweep", "white")

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.die_index = {c: i for i, c in enumerate(spec.dice)}
        self.white = self.die_index["w"]
        self.blue = self.die_index["b"]
        tables: list[tuple[tuple[_Entry, ...], ...]] = []
        for kind in (MoveKind.PICK, MoveKind.EXTRA):
            per_die = []
            for colour in spec.dice:
                entries: list[_Entry] = []
                for a in spec.areas_for_die(colour):
                    area = spec.areas[a]
                    is_sum = a == spec.sum_area
                    if isinstance(area, Grid):
                        moves = [Move(kind, colour, a, (c.row, c.col)) for c in area.cells]
                        entries.append((a, is_sum, (area.marks, area.cells_by_value), None, moves))
                    else:
                        track = (
                            len(area.boxes),
                            tuple(b.minimum for b in area.boxes),
                            tuple(b.multiplier for b in area.boxes),
                            area.order is not Order.FREE and not area.crosses,
                            area.order is Order.NON_INCREASING,
                        )
                        entries.append((a, is_sum, None, track, [Move(kind, colour, a)]))
                per_die.append(tuple(entries))
            tables.append(tuple(per_die))
        self.pick, self.extra = tables
        bonus: dict[str, Any] = {}
        for a, area in spec.areas.items():
            if isinstance(area, Grid):
                bonus[a] = [Move(MoveKind.BONUS, area=a, cell=(c.row, c.col)) for c in area.cells]
            elif area.crosses:
                bonus[a] = [Move(MoveKind.BONUS, area=a)]
            else:
                bonus[a] = {v: Move(MoveKind.BONUS, area=a, value=v) for v in range(13)}
        self.bonus = bonus
        self.reprise = [Move(MoveKind.REPRISE, die=colour) for colour in spec.dice]
        self.sweep: list[list[Move | None]] = [[] for _ in spec.dice]
        silver = spec.areas.get("s")
        if spec.silver_sweep and isinstance(silver, Grid):
            self.sweep = [
                [
                    Move(MoveKind.SWEEP, colour, "s", (c.row, c.col))
                    if colour in ("w", "s") or colour == silver.row_colours[c.row - 1]
                    else None
                    for c in silver.cells
                ]
                for colour in spec.dice
            ]


_GridData = tuple[int, dict[int, tuple[int, ...]]]
_TrackData = tuple[int, tuple[int, ...], tuple[int, ...], bool, bool]
_Entry = tuple[str, bool, _GridData | None, _TrackData | None, list[Move]]
_TABLES: dict[int, _Tables] = {}


def canonical_moves(spec: GameSpec) -> dict[Move, Move]:
    """Each move the engine lists for this game, mapped to itself: the very object that
    :meth:`Game.legal_moves` returns. A front end that keeps its own list of moves (the
    environments' action numbers) uses these objects, so that playing one is found by
    identity rather than by comparing fields."""
    tables = _tables(spec)
    moves: list[Move] = [DONE, PASS, REROLL, ROLL, *tables.reprise]
    for per_die in (tables.pick, tables.extra):
        for entries in per_die:
            for entry in entries:
                moves += entry[4]
    for by_target in tables.bonus.values():
        moves += by_target.values() if isinstance(by_target, dict) else by_target
    moves += sweep_moves(spec)
    return {m: m for m in moves}


def sweep_moves(spec: GameSpec) -> list[Move]:
    """Every silver sweep move the game allows, die by die, then cell by cell (a coloured die
    goes only in its own colour's row): the engine's own objects."""
    return [m for by_cell in _tables(spec).sweep for m in by_cell if m is not None]


def _tables(spec: GameSpec) -> _Tables:
    tables = _TABLES.get(id(spec))
    if tables is None or tables.spec is not spec:
        tables = _TABLES[id(spec)] = _Tables(spec)
    return tables

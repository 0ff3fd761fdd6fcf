"""A frozen copy of the engine before issue 14 (the speed work), kept as a slow reference for
the differential test (``test_engine_differential.py``); not used by the package.

The game: one turn flow for both games, driven by the game's sheet description.

A :class:`Game` always knows who decides next (:attr:`Game.to_move`: a player, ``CHANCE``
when dice must be given from outside, ``None`` when the game is over) and the legal
moves (:meth:`Game.legal_moves`). :meth:`Game.play` applies a move or raises
:class:`IllegalMoveError` and changes nothing.

Conventions (decided where the rules leave room, see ``docs/rules-decisions.md``):

* A decision with exactly one legal move is played by the engine at once; it stays in
  :attr:`Game.history` marked ``forced`` (a lost roll, a bonus with a single target, ...).
* Passive players decide independently: each may act in any order; seat order is the
  default.
* Dice come from a seeded random source, or from outside (``dice="external"``): then the
  game waits at each roll for a ``dice ...`` move.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from tresfute.rules.kinds import (
    AREA_NAMES,
    ActionBonus,
    ActionKind,
    Bonus,
    ChoiceBonus,
    EntryBonus,
    Fired,
    FoxBonus,
    GameSpec,
    Grid,
    Track,
)
from tresfute.rules.moves import DONE, PASS, REROLL, ROLL, Move, MoveKind, parse_move
from tresfute.rules.sheet import Score, Sheet, winners

CHANCE = -1
DIE_NAMES = {
    "w": "white",
    "s": "silver",
    "y": "yellow",
    "b": "blue",
    "g": "green",
    "o": "orange",
    "p": "purple",
    "k": "pink",
}


class IllegalMoveError(ValueError):
    """A move that the rules do not allow now; the game is left exactly as it was."""


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


@dataclass(slots=True)
class Pending:
    """A bonus waiting for its entry, and what earned it."""

    bonus: Bonus
    source: str


class Played(NamedTuple):
    """One move of the game's history, by whom, and whether the engine played it (forced)."""

    player: int  # CHANCE for dice given from outside
    move: Move
    forced: bool = False
    round: int = 0
    turn: int = 0  # index of the turn in its round


def get_spec(game: str | GameSpec) -> GameSpec:
    if isinstance(game, GameSpec):
        return game
    from tresfute.rules import games

    try:
        return games.SPECS[game]
    except KeyError:
        raise ValueError(f"unknown game {game!r}: choose one of {', '.join(games.SPECS)}") from None


class Game:
    """A game of Très futé or Vraiment très futé, from its first roll to its score."""

    def __init__(
        self,
        game: str | GameSpec = "tres-fute",
        players: int = 1,
        seed: int | None = None,
        dice: str = "seeded",
        reprise_with_no_die_left: bool = True,
    ) -> None:
        spec = get_spec(game)
        # Vraiment très futé's rules option (docs/rules-decisions.md): False, the strict reading,
        # ends the active player's part once no die is left to roll, a reprise unused or not
        self.reprise_with_no_die_left = reprise_with_no_die_left
        if players not in spec.rounds_by_players:
            raise ValueError(f"{spec.name_fr} is played by 1 to 4 players, not {players}")
        if dice not in ("seeded", "external"):
            raise ValueError(f"dice must be 'seeded' or 'external', not {dice!r}")
        if dice == "external" and seed is not None:
            raise ValueError("a game with dice given from outside has no seed")
        self.spec = spec
        self.n_players = players
        self.rounds = spec.rounds_by_players[players]
        if dice == "seeded" and seed is None:
            seed = secrets.randbits(63)
        self.seed = seed
        self._rng: random.Random | None = random.Random(seed) if dice == "seeded" else None
        self.dice = spec.dice
        self._die_index = {c: i for i, c in enumerate(spec.dice)}
        self._white = self._die_index["w"]
        self._blue = self._die_index["b"]

        self.round = 0
        self.turn = 0  # index of the turn in the round
        self.active = 0
        self.solo_passive = False  # the solo game's passive turn
        self.phase = Phase.TURN_START
        self.values = [0] * 6  # each die's face (0 before its first roll)
        self.where = [Where.HAND] * 6
        self.field: list[int] = []  # dice on the active player's die fields, in order
        self.rolls = 0
        self.picks = 0
        self.dice_rolled = 0  # rolls and rerolls since the start: new dice seen by everyone
        self.swept: list[int] = []
        self.sheets = [Sheet(spec) for _ in range(players)]
        self.pending: list[list[Pending]] = [[] for _ in range(players)]
        self.extra_used: list[set[int]] = [set() for _ in range(players)]
        self.stage = [Stage.DONE] * players
        self.history: list[Played] = []
        self.lost_bonuses: list[tuple[int, Pending]] = []
        self._cache: dict[int, list[Move]] = {}
        self._movers: tuple[int, ...] = ()
        self._pick_table, self._extra_table, self._bonus_table = _move_tables(spec)
        self._begin_round()
        self._advance()

    # --- who decides, and what ------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def external_dice(self) -> bool:
        return self._rng is None

    @property
    def players_to_move(self) -> tuple[int, ...]:
        """Everyone who may decide now (passive players decide independently)."""
        return self._movers

    def _find_movers(self) -> tuple[int, ...]:
        phase = self.phase
        if phase is Phase.OVER:
            return ()
        if phase is Phase.PASSIVE:
            stage = self.stage
            return tuple(p for p in self.passive_order() if stage[p] is not Stage.DONE)
        if any(self.pending):
            return tuple(p for p in range(self.n_players) if self.pending[p])
        if phase is Phase.ROLL or phase is Phase.SOLO_ROLL:
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
        if self.phase is Phase.SOLO_ROLL:
            return list(self.dice)
        if self.phase is Phase.ROLL and not any(self.pending):
            return [self.dice[i] for i in range(6) if self.where[i] is Where.HAND]
        return []

    def legal_moves(self, player: int | None = None) -> list[Move]:
        """The legal moves of ``player`` (default: :attr:`to_move`); none for chance."""
        movers = self._movers
        if player is None:
            player = movers[0] if movers else None
        if player is None or player == CHANCE or player not in movers:
            return []
        return list(self._moves_for(player))

    def is_legal(self, move: Move | str, player: int | None = None) -> bool:
        try:
            self._check(move if isinstance(move, Move) else parse_move(move), player)
        except (IllegalMoveError, ValueError):
            return False
        return True

    # --- playing ----------------------------------------------------------------------

    def play(self, move: Move | str, player: int | None = None) -> None:
        """Apply ``move`` for ``player`` (default: :attr:`to_move`).

        Raises :class:`IllegalMoveError` (or :class:`MoveSyntaxError` for text that is not
        a move) and leaves the game unchanged when the move is not legal.
        """
        if isinstance(move, str):
            move = parse_move(move)
        p = self._check(move, player)
        self.history.append(Played(p, move, False, self.round, self.turn))
        if p == CHANCE:
            self._apply_dice(move)
        else:
            self._apply(p, move)
        self._advance()

    def _check(self, move: Move, player: int | None) -> int:
        """The player the move is for, once it is known to be legal."""
        if not isinstance(move, Move):
            raise IllegalMoveError(f"not a move: {move!r}")
        if self.phase is Phase.OVER:
            raise IllegalMoveError("the game is over")
        movers = self._movers
        if move.kind is MoveKind.DICE:
            if movers != (CHANCE,):
                raise IllegalMoveError(
                    "no roll is due now" if self.external_dice else "this game rolls its own dice from its seed"
                )
            self._check_dice(move)
            return CHANCE
        if player is None:
            player = movers[0]
        if player == CHANCE:
            raise IllegalMoveError(
                f"the dice must be rolled first: give them with a move such as "
                f"'dice {' '.join(d + '1' for d in self.dice_to_roll())}'"
            )
        if player not in movers:
            if not 0 <= player < self.n_players:
                raise IllegalMoveError(f"there is no player {player + 1} in this game")
            waiting = ", ".join(f"player {q + 1}" if q != CHANCE else "the dice" for q in movers)
            raise IllegalMoveError(f"it is not player {player + 1}'s decision now (waiting for {waiting})")
        if move not in self._moves_for(player):
            raise IllegalMoveError(self._why_illegal(player, move))
        return player

    def _advance(self) -> None:
        """Run what needs no decision: passing phases, seeded rolls and forced moves."""
        pending = self.pending
        while True:
            self._cache.clear()
            phase = self.phase
            if phase is Phase.OVER:
                self._movers = ()
                return
            settled = True
            if any(pending):
                self._drop_lost_bonuses()
                settled = not any(pending)
            if settled:
                if phase is Phase.TURN_START:
                    self._start_turn()
                    continue
                if phase is Phase.NEXT_ROLL:
                    self._next_roll()
                    continue
                if phase is Phase.PASSIVE and Stage.PICK not in self.stage and Stage.EXTRA not in self.stage:
                    self._end_turn()
                    continue
                if (phase is Phase.ROLL or phase is Phase.SOLO_ROLL) and self._rng is not None:
                    self._roll_from_seed()
                    continue
            self._movers = movers = self._find_movers()
            for p in movers:
                if p == CHANCE:
                    return
                moves = self._moves_for(p)
                if len(moves) == 1:
                    self.history.append(Played(p, moves[0], True, self.round, self.turn))
                    self._apply(p, moves[0])
                    break
            else:
                return

    # --- the turn flow ----------------------------------------------------------------

    def _schedule(self) -> list[tuple[int, bool]]:
        """The turns of one round: (active player, is it the solo passive turn)."""
        if self.n_players == 1:
            return [(0, False), (0, True)]
        return [(p, False) for p in range(self.n_players)]

    def _begin_round(self) -> None:
        self.round += 1
        self.turn = 0
        self.active, self.solo_passive = self._schedule()[0]
        gift = self.spec.round_gifts[self.round - 1]
        if gift is not None:
            for p in range(self.n_players):
                self._fire(p, [(gift, f"round {self.round}")])
        self.phase = Phase.TURN_START

    def _start_turn(self) -> None:
        self.active, self.solo_passive = self._schedule()[self.turn]
        self.where = [Where.HAND] * 6
        self.field = []
        self.rolls = self.picks = 0
        self.swept = []
        for used in self.extra_used:
            used.clear()
        self.stage = [Stage.DONE] * self.n_players
        self.phase = Phase.SOLO_ROLL if self.solo_passive else Phase.NEXT_ROLL

    def _next_roll(self) -> None:
        no_die_to_roll = Where.HAND not in self.where
        if self.picks >= 3 or self.rolls >= 3 or (no_die_to_roll and not self.reprise_with_no_die_left):
            self._end_active_part()
        elif self._can_reprise():
            self.phase = Phase.BEFORE_ROLL
        elif not no_die_to_roll:
            self.rolls += 1
            self.phase = Phase.ROLL
        else:
            self._end_active_part()

    def _can_reprise(self) -> bool:
        return (
            self.rolls >= 1
            and self.sheets[self.active].available(ActionKind.REPRISE) > 0
            and Where.PLATTER in self.where
        )

    def _end_active_part(self) -> None:
        self.where = [Where.PLATTER if w is Where.HAND else w for w in self.where]
        self.phase = Phase.ACTIVE_EXTRA

    def _begin_passive(self) -> None:
        self.phase = Phase.PASSIVE
        for p in self.passive_order():
            self.stage[p] = Stage.PICK

    def _end_turn(self) -> None:
        self.turn += 1
        if self.turn < len(self._schedule()):
            self.phase = Phase.TURN_START
        elif self.round < self.rounds:
            self._begin_round()
        else:
            self.phase = Phase.OVER

    # --- dice -------------------------------------------------------------------------

    def _roll_from_seed(self) -> None:
        rng = self._rng
        assert rng is not None
        self.dice_rolled += 1
        values = self.values
        if self.phase is Phase.SOLO_ROLL:
            for i in range(6):
                values[i] = int(rng.random() * 6) + 1
            # the three lowest go to the platter; ties at the boundary broken at random
            order = sorted(range(6), key=lambda i: (values[i], rng.random()))
            self._solo_platter(order[:3])
        else:
            for i in range(6):
                if self.where[i] is Where.HAND:
                    values[i] = int(rng.random() * 6) + 1
            self.phase = Phase.CHOOSE

    def _solo_platter(self, platter: list[int]) -> None:
        for i in platter:
            self.where[i] = Where.PLATTER
        self._begin_passive()

    def _check_dice(self, move: Move) -> None:
        expected = self.dice_to_roll()
        given = [d for d, _ in move.dice]
        if sorted(given) != sorted(expected):
            raise IllegalMoveError(
                f"the dice to roll are {' '.join(expected)}, each once; got {' '.join(given) or 'none'}"
            )
        if self.phase is Phase.ROLL:
            if move.platter is not None:
                raise IllegalMoveError("'platter=' is only for the solo game's passive roll")
            return
        values = dict(move.dice)
        if move.platter is None:
            ranked = sorted(values.values())
            if ranked[2] == ranked[3]:
                raise IllegalMoveError(
                    f"two dice show {ranked[2]} at the boundary of the three lowest: say which three "
                    "dice go to the platter (those closest to it), as in 'platter=bgo'"
                )
            return
        if len(move.platter) != 3 or any(d not in values for d in move.platter):
            raise IllegalMoveError("'platter=' names three of the dice rolled")
        highest_on = max(values[d] for d in move.platter)
        lowest_off = min(v for d, v in values.items() if d not in move.platter)
        if highest_on > lowest_off:
            raise IllegalMoveError("the platter takes the three lowest dice")

    def _apply_dice(self, move: Move) -> None:
        self.dice_rolled += 1
        for d, v in move.dice:
            self.values[self._die_index[d]] = v
        if self.phase is Phase.ROLL:
            self.phase = Phase.CHOOSE
            return
        if move.platter is not None:
            platter = [self._die_index[d] for d in move.platter]
        else:
            platter = sorted(range(6), key=lambda i: self.values[i])[:3]
        self._solo_platter(platter)

    # --- legal moves ------------------------------------------------------------------

    def _moves_for(self, p: int) -> list[Move]:
        cached = self._cache.get(p)
        if cached is not None:
            return cached
        phase = self.phase
        moves: list[Move]
        if phase is Phase.OVER:
            moves = []
        elif self.pending[p]:
            moves = self._bonus_moves(p)
        elif phase is Phase.PASSIVE:
            stage = self.stage[p]
            if stage is Stage.PICK:
                moves = self._passive_moves(p)
            elif stage is Stage.EXTRA:
                moves = self._extra_moves(p)
                moves.append(DONE)
            else:
                moves = []
        elif p != self.active:
            moves = []
        elif phase is Phase.CHOOSE:
            moves = self._choose_moves(p)
        elif phase is Phase.ACTIVE_EXTRA:
            moves = self._extra_moves(p)
            moves.append(DONE)
        elif phase is Phase.BEFORE_ROLL:
            moves = []
            if self.sheets[p].available(ActionKind.REPRISE) > 0:
                moves = [Move(MoveKind.REPRISE, die=self.dice[i]) for i in range(6) if self.where[i] is Where.PLATTER]
            moves.append(ROLL if Where.HAND in self.where else DONE)
        elif phase is Phase.SWEEP:
            moves = self._sweep_moves(p)
            moves.append(DONE)
        else:
            moves = []
        self._cache[p] = moves
        return moves

    def _entry_value(self, d: int, area: str) -> int:
        if area == self.spec.sum_area:
            return self.values[self._white] + self.values[self._blue]
        return self.values[d]

    def _die_moves(self, p: int, dice: list[int] | range, extra: bool = False) -> list[Move]:
        """Every entry of each of ``dice`` on player ``p``'s sheet."""
        moves: list[Move] = []
        states = self.sheets[p].areas
        values = self.values
        blue_sum = values[self._white] + values[self._blue]
        sum_area = self.spec.sum_area
        table = self._extra_table if extra else self._pick_table
        for d in dice:
            for a, area, entries in table[d]:
                value = blue_sum if a == sum_area else values[d]
                if entries.__class__ is list:  # a grid: one move per cell
                    state = states[a]
                    marks = area.marks
                    for c in area.cells_by_value.get(value, ()):
                        if state[c] < marks:
                            moves.append(entries[c])
                elif area.accepts(states[a], value):
                    moves.append(entries)
        return moves

    def _choose_moves(self, p: int) -> list[Move]:
        moves = self._die_moves(p, [i for i in range(6) if self.where[i] is Where.HAND])
        if not moves or self.spec.may_decline_roll:
            moves.append(PASS)
        if self.sheets[p].available(ActionKind.REROLL) > 0:
            moves.append(REROLL)
        return moves

    def _passive_moves(self, p: int) -> list[Move]:
        moves = self._die_moves(p, [i for i in range(6) if self.where[i] is Where.PLATTER])
        if not moves:  # « il peut utiliser un dé des cases « dé » du joueur actif »: may, not must
            return [*self._die_moves(p, self.field), PASS]
        if self.spec.passive_may_refuse:
            moves.append(PASS)
        return moves

    def _extra_moves(self, p: int) -> list[Move]:
        if self.sheets[p].available(ActionKind.PLUS_ONE) <= 0:
            return []
        used = self.extra_used[p]
        return self._die_moves(p, [i for i in range(6) if i not in used], extra=True)

    def _sweep_moves(self, p: int) -> list[Move]:
        silver = self.spec.areas["s"]
        assert isinstance(silver, Grid)
        state = self.sheets[p].areas["s"]
        moves = []
        for d in self.swept:
            colour = self.dice[d]
            for c in silver.die_targets(state, self.values[d]):
                cell = silver.cells[c]
                if colour in ("w", "s") or colour == silver.row_colours[cell.row - 1]:
                    moves.append(Move(MoveKind.SWEEP, colour, "s", (cell.row, cell.col)))
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
        moves: dict[Move, None] = {}
        for pending in self.pending[p]:
            for m in self._bonus_targets(p, pending.bonus):
                moves[m] = None
        return list(moves)

    def _drop_lost_bonuses(self) -> None:
        """A bonus with no legal target is lost (targets never come back)."""
        for p, pending in enumerate(self.pending):
            for item in list(pending):
                if not self._bonus_targets(p, item.bonus):
                    pending.remove(item)
                    self.lost_bonuses.append((p, item))

    # --- applying (the move is known to be legal) -------------------------------------

    def _apply(self, p: int, move: Move) -> None:
        kind = move.kind
        phase = self.phase
        sheet = self.sheets[p]
        if kind is MoveKind.BONUS:
            self._take_pending(p, move)
            self._enter(p, move.area, move.cell, move.value, from_bonus=True)
        elif kind is MoveKind.PICK:
            d = self._die_index[move.die]
            if phase is Phase.CHOOSE:
                value = self.values[d]
                self.where[d] = Where.FIELD
                self.field.append(d)
                swept = [i for i in range(6) if self.where[i] is Where.HAND and self.values[i] < value]
                for i in swept:
                    self.where[i] = Where.PLATTER
                self.picks += 1
                self._enter(p, move.area, move.cell, self._entry_value(d, move.area))
                if self.spec.silver_sweep and move.area == "s" and swept:
                    self.swept = swept
                    self.phase = Phase.SWEEP
                elif self.pending[p]:
                    self.phase = Phase.NEXT_ROLL  # once the bonuses are resolved
                else:
                    self._next_roll()
            else:
                self._enter(p, move.area, move.cell, self._entry_value(d, move.area))
                self.stage[p] = Stage.EXTRA
        elif kind is MoveKind.EXTRA:
            d = self._die_index[move.die]
            sheet.used[ActionKind.PLUS_ONE] += 1
            self.extra_used[p].add(d)
            self._enter(p, move.area, move.cell, self._entry_value(d, move.area))
        elif kind is MoveKind.PASS:
            if phase is Phase.CHOOSE:
                self.phase = Phase.NEXT_ROLL  # the roll is lost, and counts
            else:
                self.stage[p] = Stage.EXTRA
        elif kind is MoveKind.DONE:
            if phase is Phase.PASSIVE:
                self.stage[p] = Stage.DONE
            elif phase is Phase.ACTIVE_EXTRA:
                if self.n_players == 1:
                    self._end_turn()
                else:
                    self._begin_passive()
            elif phase is Phase.SWEEP:
                self.swept = []
                self.phase = Phase.NEXT_ROLL
            else:  # BEFORE_ROLL with nothing left to roll
                self._end_active_part()
        elif kind is MoveKind.REROLL:
            sheet.used[ActionKind.REROLL] += 1
            self.phase = Phase.ROLL
        elif kind is MoveKind.ROLL:
            self.rolls += 1
            self.phase = Phase.ROLL
        elif kind is MoveKind.REPRISE:
            sheet.used[ActionKind.REPRISE] += 1
            self.where[self._die_index[move.die]] = Where.HAND
        elif kind is MoveKind.SWEEP:
            d = self._die_index[move.die]
            self.swept.remove(d)
            self._enter(p, "s", move.cell, self.values[d])
            if not self.swept:
                self.phase = Phase.NEXT_ROLL

    def _enter(self, p: int, a: str, cell: tuple[int, int] | None, value: int | None, from_bonus: bool = False) -> None:
        area = self.spec.areas[a]
        state = self.sheets[p].areas[a]
        if isinstance(area, Grid):
            assert cell is not None
            fired = area.mark(state, area.cell_index[cell])
        else:
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
                self.pending[p].append(Pending(bonus, source))

    def _take_pending(self, p: int, move: Move) -> Pending:
        """The pending bonus a bonus move resolves: a plain one before a choice."""
        pending = self.pending[p]
        for want_choice in (False, True):
            for item in pending:
                if isinstance(item.bonus, ChoiceBonus) == want_choice and move in self._bonus_targets(p, item.bonus):
                    pending.remove(item)
                    return item
        raise AssertionError("no pending bonus for a legal bonus move")

    # --- explaining illegal moves -----------------------------------------------------

    def _why_illegal(self, p: int, move: Move) -> str:
        legal = self._moves_for(p)
        kind = move.kind
        who = f"player {p + 1}"
        if self.pending[p]:
            wanted = ", ".join(f"{item.bonus} (from {item.source})" for item in self.pending[p])
            if kind is not MoveKind.BONUS:
                return f"{who} must first resolve the bonus: {wanted}"
            return self._why_entry(p, move, None) or f"{move} does not resolve the pending bonus: {wanted}"
        if kind is MoveKind.PASS and self._expects(p, MoveKind.PICK):
            return (
                "a die can be entered, so one must be picked"
                if self.phase is Phase.CHOOSE
                else "a die can be entered, so one must be taken (from the platter if possible)"
            )
        if kind not in {m.kind for m in legal} and not self._expects(p, kind):
            return f"'{move}' is not possible now: {self._situation(p)}"
        if kind in (MoveKind.PICK, MoveKind.EXTRA, MoveKind.SWEEP):
            d = self._die_index.get(move.die or "")
            if d is None:
                return f"there is no {DIE_NAMES.get(move.die or '', move.die)} die in {self.spec.name_fr}"
            die = DIE_NAMES[self.dice[d]]
            if kind is MoveKind.PICK and self.phase is Phase.CHOOSE and self.where[d] is not Where.HAND:
                return f"the {die} die is not in the current roll (it is on the {self.where[d]})"
            if kind is MoveKind.PICK and self.phase is Phase.PASSIVE:
                if self.where[d] is Where.FIELD and d in self.field:
                    return (
                        "a platter die can be used, so the active player's dice cannot"
                        if any(
                            m.kind is MoveKind.PICK and self.where[self._die_index[m.die]] is Where.PLATTER
                            for m in legal
                        )
                        else f"the {die} die cannot be entered"
                    )
                if self.where[d] is not Where.PLATTER:
                    return f"the {die} die is not on the platter"
            if kind is MoveKind.EXTRA and d in self.extra_used[p]:
                return f"the {die} die was already taken with +1 this turn"
            if kind is MoveKind.SWEEP and d not in self.swept:
                return f"the {die} die was not swept to the platter by this silver pick"
            if move.area not in self.spec.areas:
                return f"there is no {AREA_NAMES.get(move.area or '', move.area)} area in {self.spec.name_fr}"
            allowed = self.spec.areas_for_die(self.dice[d])
            if kind is not MoveKind.SWEEP and move.area not in allowed:
                return (
                    f"the {die} die goes in {' or '.join(AREA_NAMES[a] for a in allowed)}, not {AREA_NAMES[move.area]}"
                )
            return self._why_entry(p, move, self._entry_value(d, move.area)) or f"'{move}' is not legal now"
        if kind is MoveKind.REPRISE:
            return "reprise takes back a die that is on the platter"
        return f"'{move}' is not legal now; legal moves: {', '.join(map(str, legal[:12]))}"

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

    def _why_entry(self, p: int, move: Move, value: int | None) -> str | None:
        a = move.area or ""
        area = self.spec.areas.get(a)
        name = AREA_NAMES.get(a, a)
        if area is None:
            return f"there is no {name} area in {self.spec.name_fr}"
        state = self.sheets[p].areas[a]
        if isinstance(area, Grid):
            if move.cell is None:
                return f"name the {name} cell, as in {a}@r1c2"
            c = area.cell_index.get(move.cell)
            if c is None:
                return f"there is no markable cell r{move.cell[0]}c{move.cell[1]} in {name}"
            return area.why_not(state, value, c)
        if move.cell is not None:
            return f"{name} has no cells to name: its boxes are filled left to right"
        if isinstance(area, Track) and value is None:
            if move.value is None and not area.crosses:
                return "say which number to write, as in !o=4"
            value = move.value or 0
        return area.why_not(state, value if value is not None else 0, from_bonus=move.kind is MoveKind.BONUS)

    def _situation(self, p: int) -> str:
        phase = self.phase
        if phase is Phase.PASSIVE:
            return (
                "a passive player picks a die from the platter"
                if self.stage[p] is Stage.PICK
                else "the player may use +1 actions, or say 'done'"
            )
        return {
            Phase.CHOOSE: "the active player picks a die from the roll",
            Phase.ACTIVE_EXTRA: "the active player may use +1 actions, or say 'done'",
            Phase.BEFORE_ROLL: "the active player may take dice back (reprise) before rolling",
            Phase.SWEEP: "the active player may cross the swept dice in silver, or say 'done'",
        }.get(phase, f"the game is at {phase}")

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
        self._cache.clear()
        self._movers = self._find_movers()

    def moves_played(self) -> list[Played]:
        """The decisions taken (forced moves left out): what a record stores."""
        return [h for h in self.history if not h.forced]

    def copy(self, dice: str = "same") -> Game:
        """An independent copy. ``dice="external"``: the copy never rolls by itself but waits
        for dice from outside, so a bot can look ahead without seeing the seeded dice."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        if dice == "external":
            other._rng = None
            other.seed = None
        elif self._rng is not None:
            other._rng = random.Random()
            other._rng.setstate(self._rng.getstate())
        other.values = list(self.values)
        other.where = list(self.where)
        other.field = list(self.field)
        other.swept = list(self.swept)
        other.sheets = [s.copy() for s in self.sheets]
        other.pending = [list(p) for p in self.pending]
        other.extra_used = [set(u) for u in self.extra_used]
        other.stage = list(self.stage)
        other.history = list(self.history)
        other.lost_bonuses = list(self.lost_bonuses)
        other._cache = {}
        return other

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


_TABLES: dict[int, tuple[list, list, dict]] = {}


def _move_tables(spec: GameSpec) -> tuple[list, list, dict]:
    """Every pick, +1 and bonus move of a game, built once (moves are immutable values).

    Picks and +1 moves: per die, (area, area kind, moves): a grid's moves are a list indexed
    by cell, a track has one move. Bonus moves: per area, indexed by cell or by value.
    """
    key = id(spec)
    if key not in _TABLES:
        tables = []
        for kind in (MoveKind.PICK, MoveKind.EXTRA):
            per_die = []
            for colour in spec.dice:
                entries = []
                for a in spec.areas_for_die(colour):
                    area = spec.areas[a]
                    if isinstance(area, Grid):
                        entries.append((a, area, [Move(kind, colour, a, (c.row, c.col)) for c in area.cells]))
                    else:
                        entries.append((a, area, Move(kind, colour, a)))
                per_die.append(entries)
            tables.append(per_die)
        bonus: dict[str, Any] = {}
        for a, area in spec.areas.items():
            if isinstance(area, Grid):
                bonus[a] = [Move(MoveKind.BONUS, area=a, cell=(c.row, c.col)) for c in area.cells]
            elif area.crosses:
                bonus[a] = [Move(MoveKind.BONUS, area=a)]
            else:
                bonus[a] = {v: Move(MoveKind.BONUS, area=a, value=v) for v in range(13)}
        _TABLES[key] = (tables[0], tables[1], bonus)
    return _TABLES[key]

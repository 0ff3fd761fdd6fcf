"""The reusable pieces a score sheet is made of.

A game is described as data (see ``tres_fute.py``): each score area is a :class:`Grid`
(cells crossed anywhere, lines that give bonuses or points) or a :class:`Track` (boxes
filled left to right, with multipliers, minimums, an order constraint and a way of scoring).
Bonuses are plain values; the engine in ``game.py`` fires and resolves them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from .reasons import Named, Reason


class ActionKind(StrEnum):
    """An action track on the sheet: circles are earned, then crossed when used."""

    REROLL = "reroll"
    PLUS_ONE = "plus_one"
    REPRISE = "reprise"


# --- bonuses ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ActionBonus:
    """Circle one circle on an action track (kept for later)."""

    action: ActionKind

    def __str__(self) -> str:
        return {"reroll": "reroll", "plus_one": "+1", "reprise": "reprise"}[self.action]


@dataclass(frozen=True, slots=True)
class FoxBonus:
    """A fox, counted at the end."""

    def __str__(self) -> str:
        return "fox"


@dataclass(frozen=True, slots=True)
class EntryBonus:
    """One entry in an area, resolved at once.

    ``value`` is a fixed number (orange 4, purple 6); ``None`` means a free entry: any free
    cell of a grid (X or ? bonus), the next box of a cross track (green X), or a value of
    the player's choice on a number track (? bonus).
    """

    area: str
    value: int | None = None
    mark: str = "X"  # how the sheet prints a free entry: X (Très futé) or ? (Vraiment très futé)

    def __str__(self) -> str:
        return f"{AREA_NAMES[self.area]} {self.mark if self.value is None else self.value}"


@dataclass(frozen=True, slots=True)
class ChoiceBonus:
    """One of several entry bonuses, the player's choice (round 4's black bonus)."""

    options: tuple[EntryBonus, ...]
    name: str

    def __str__(self) -> str:
        return self.name


Bonus = ActionBonus | FoxBonus | EntryBonus | ChoiceBonus

# The bonuses both sheets print.
REROLL = ActionBonus(ActionKind.REROLL)
PLUS_ONE = ActionBonus(ActionKind.PLUS_ONE)
REPRISE = ActionBonus(ActionKind.REPRISE)
FOX = FoxBonus()

AREA_NAMES = {
    "s": "silver",
    "y": "yellow",
    "b": "blue",
    "g": "green",
    "o": "orange",
    "p": "purple",
    "k": "pink",
}


def area_word(letter: str) -> Named:
    """An area's name in a :class:`Reason`."""
    return Named("area", letter, AREA_NAMES.get(letter, letter))


# A fired bonus and where it came from ("yellow row 2", "green box 4"), for players to read.
Fired = tuple[Bonus, str]


# --- grids -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cell:
    row: int
    col: int
    value: int


@dataclass(frozen=True, slots=True)
class Line:
    """Cells that complete together: a row, a column, a diagonal.

    A line is complete when every one of its cells has its first mark (a cross, or in
    Vraiment très futé's yellow a circle). Printed pre-crossed cells are simply left out.
    """

    name: str
    cells: tuple[int, ...]
    bonus: Bonus | None = None
    points: int = 0


@dataclass(frozen=True, slots=True)
class CountScore:
    """Points by number of fully marked cells in a group (blue, silver rows, yellow crosses)."""

    cells: tuple[int, ...]
    points: tuple[int, ...]  # index = number of fully marked cells


@dataclass(frozen=True)
class Grid:
    """A grid of numbers crossed anywhere, in any order.

    State: one level per cell, 0 = empty; ``marks`` levels per cell (1: a cross; 2: a circle
    then a cross). A die of value *v* marks a cell showing *v* that is not fully marked.
    """

    colour: str
    rows: int
    cols: int
    cells: tuple[Cell, ...]
    lines: tuple[Line, ...] = ()
    count_scores: tuple[CountScore, ...] = ()
    marks: int = 1
    row_colours: tuple[str, ...] = ()  # silver: the colour each row belongs to
    cell_index: dict[tuple[int, int], int] = field(init=False, repr=False)
    cells_by_value: dict[int, tuple[int, ...]] = field(init=False, repr=False)
    lines_by_cell: tuple[tuple[int, ...], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "cell_index", {(c.row, c.col): i for i, c in enumerate(self.cells)})
        by_value: dict[int, list[int]] = {}
        for i, cell in enumerate(self.cells):
            by_value.setdefault(cell.value, []).append(i)
        set_(self, "cells_by_value", {v: tuple(ix) for v, ix in by_value.items()})
        set_(
            self,
            "lines_by_cell",
            tuple(tuple(li for li, line in enumerate(self.lines) if i in line.cells) for i in range(len(self.cells))),
        )

    def new_state(self) -> list[int]:
        return [0] * len(self.cells)

    def die_targets(self, state: list[int], value: int) -> list[int]:
        """Cells a die showing ``value`` may mark."""
        marks = self.marks
        return [i for i in self.cells_by_value.get(value, ()) if state[i] < marks]

    def why_not(self, state: Sequence[int], value: int | None, cell: int) -> Reason | None:
        """Why ``cell`` cannot take an entry of ``value`` (None: any value), or None."""
        c = self.cells[cell]
        area = area_word(self.colour)
        if state[cell] >= self.marks:
            if self.marks == 1:
                return Reason("{area} r{row}c{col} is already crossed", area=area, row=c.row, col=c.col)
            return Reason("{area} r{row}c{col} is already circled and crossed", area=area, row=c.row, col=c.col)
        if value is not None and c.value != value:
            return Reason(
                "{area} r{row}c{col} shows {shown}, not {value}",
                area=area,
                row=c.row,
                col=c.col,
                shown=c.value,
                value=value,
            )
        return None

    def cell_name(self, cell: int) -> str:
        c = self.cells[cell]
        return f"{AREA_NAMES[self.colour]} r{c.row}c{c.col}"

    def mark(self, state: list[int], cell: int) -> list[Fired]:
        """Mark ``cell`` once more; returns the bonuses of the lines this completes."""
        state[cell] += 1
        if state[cell] != 1:
            return []
        fired: list[Fired] = []
        for li in self.lines_by_cell[cell]:
            line = self.lines[li]
            if line.bonus is not None and all(state[i] for i in line.cells):
                fired.append((line.bonus, f"{AREA_NAMES[self.colour]} {line.name}"))
        return fired

    def score(self, state: list[int]) -> int:
        total = 0
        for line in self.lines:
            if line.points and all(state[i] for i in line.cells):
                total += line.points
        full = self.marks
        for group in self.count_scores:
            total += group.points[sum(1 for i in group.cells if state[i] >= full)]
        return total


# --- tracks ----------------------------------------------------------------------------


class Order(StrEnum):
    """The order constraint of a track; bonus entries must respect it too."""

    FREE = "free"
    INCREASING_RESET_AFTER_6 = "increasing, any value after a 6"
    NON_INCREASING = "each at most the previous"


class TrackScoring(StrEnum):
    SUM = "sum"  # the sum of the written numbers
    LAST_FILLED = "last filled"  # points printed above the last filled box
    PAIRS = "pairs"  # each complete pair scores first - second


# Read in the hot path (legal moves, scores): compiled, a final module constant is a C static,
# where an enum's class attribute goes through a metaclass hook.
_NON_INCREASING: Final = Order.NON_INCREASING
_SUM: Final = TrackScoring.SUM
_LAST_FILLED: Final = TrackScoring.LAST_FILLED


@dataclass(frozen=True, slots=True)
class Box:
    multiplier: int = 1
    minimum: int = 1  # the die must show at least this (a bonus entry ignores it)
    bonus: Bonus | None = None
    bonus_minimum: int = 0  # the box's bonus fires only for a value at least this


@dataclass(frozen=True)
class Track:
    """Boxes filled left to right, without skipping.

    State: the numbers written so far (value x multiplier; 0 in a cross track).
    """

    colour: str
    boxes: tuple[Box, ...]
    order: Order = Order.FREE
    scoring: TrackScoring = TrackScoring.SUM
    points: tuple[int, ...] = ()  # LAST_FILLED: points by number of filled boxes
    crosses: bool = False  # boxes take a cross, not a number
    choice_values: tuple[int, ...] = (1, 2, 3, 4, 5, 6)  # values a ? bonus may choose
    _minimums: tuple[int, ...] = field(init=False, repr=False)
    _multipliers: tuple[int, ...] = field(init=False, repr=False)
    _ordered: bool = field(init=False, repr=False)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "_minimums", tuple(b.minimum for b in self.boxes))
        set_(self, "_multipliers", tuple(b.multiplier for b in self.boxes))
        set_(self, "_ordered", self.order is not Order.FREE and not self.crosses)

    def new_state(self) -> list[int]:
        return []

    def accepts(self, state: list[int], value: int, from_bonus: bool = False) -> bool:
        """Whether the next box takes ``value`` (a bonus entry ignores the box's minimum)."""
        i = len(state)
        minimums = self._minimums
        if i >= len(minimums) or (value < minimums[i] and not from_bonus):
            return False
        if i and self._ordered:
            written, previous = value * self._multipliers[i], state[-1]
            if self.order is _NON_INCREASING:
                return written <= previous
            return previous == 6 or written > previous
        return True

    def why_not(self, state: list[int], value: int, from_bonus: bool = False) -> Reason | None:
        """Why the next box cannot take ``value`` (None if it can)."""
        if self.accepts(state, value, from_bonus):
            return None
        i = len(state)
        area = area_word(self.colour)
        if i >= len(self.boxes):
            return Reason("the {area} area is full", area=area)
        box = self.boxes[i]
        if not from_bonus and value < box.minimum:
            return Reason(
                "{area} box {box} needs at least {minimum}, not {value}",
                area=area,
                box=i + 1,
                minimum=box.minimum,
                value=value,
            )
        written, previous = value * box.multiplier, state[-1]
        if self.order is Order.NON_INCREASING:
            return Reason(
                "{area} needs a number at most {previous}, not {written}", area=area, previous=previous, written=written
            )
        return Reason(
            "{area} needs a number higher than {previous} (or any number after a 6), not {written}",
            area=area,
            previous=previous,
            written=written,
        )

    def enter(self, state: list[int], value: int) -> list[Fired]:
        """Fill the next box with ``value``; returns the box's bonus if it fires."""
        i = len(state)
        box = self.boxes[i]
        state.append(0 if self.crosses else value * box.multiplier)
        if box.bonus is not None and value >= box.bonus_minimum:
            return [(box.bonus, f"{AREA_NAMES[self.colour]} box {i + 1}")]
        return []

    def is_full(self, state: list[int]) -> bool:
        return len(state) >= len(self.boxes)

    def score(self, state: list[int]) -> int:
        if self.scoring is _SUM:
            return sum(state)
        if self.scoring is _LAST_FILLED:
            return self.points[len(state)]
        return sum(state[i] - state[i + 1] for i in range(0, len(state) - 1, 2))


Area = Grid | Track


# --- actions, rating, the whole game ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class ActionTrack:
    action: ActionKind
    circles: int
    end_bonus: Bonus | None = None  # fires when the last circle is circled


@dataclass(frozen=True, slots=True)
class RatingBand:
    """A row of the solo rating table: from ``minimum`` points up."""

    minimum: int
    label_fr: str
    label_en: str
    stars: int | None = None


def N_(message: str) -> str:
    """Marks an English message that the front ends translate (``tresfute.i18n``); the rules
    themselves speak no language."""
    return message


@dataclass(frozen=True, slots=True)
class RuleOption:
    """A rule a game lets its players choose when the game is created (where the rulebook reads
    two ways, docs/rules-decisions.md): a boolean with the default reading, and its words, each an
    English message (``N_``) that the front ends translate: ``label`` what choosing it (true)
    means, beside its box in a form; ``when_true`` and ``when_false`` the reading a game is
    played under, one line each (``tresfute.text.rules_lines``)."""

    name: str
    default: bool
    label: str
    when_true: str
    when_false: str

    def said(self, value: bool) -> str:
        """The line (an English message) that says the game is played with this value."""
        return self.when_true if value else self.when_false


@dataclass(frozen=True)
class GameSpec:
    """Everything printed on one game's sheet, plus the few rules that are its own."""

    id: str
    name_fr: str
    name_en: str
    dice: tuple[str, ...]  # die colours, in the canonical order; "w" is the white joker
    areas: dict[str, Area]  # by colour, in sheet order
    sum_area: str  # the area entered with blue + white
    actions: tuple[ActionTrack, ...]
    round_gifts: tuple[Bonus | None, ...]  # index 0 = round 1
    rounds_by_players: dict[int, int]
    solo_rating: tuple[RatingBand, ...]  # best band first
    may_decline_roll: bool = False  # the active player may leave a usable roll
    passive_may_refuse: bool = False  # a passive player may refuse the platter
    silver_sweep: bool = False  # an active silver pick sweeps the dice it sends to the platter
    rule_options: tuple[RuleOption, ...] = ()  # the rules chosen when a game is created

    def areas_for_die(self, die: str) -> tuple[str, ...]:
        """Where a die may be entered: white anywhere, blue with white in the sum area, any other
        die in its own colour."""
        if die == "w":
            return tuple(self.areas)
        if die == "b":
            return (self.sum_area,)
        return (die,)

    def rating(self, points: int) -> RatingBand:
        for band in self.solo_rating:
            if points >= band.minimum:
                return band
        return self.solo_rating[-1]

"""One player's sheet (marks, action tracks, foxes) and its score."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final, TypeVar

from .kinds import ActionBonus, ActionKind, Fired, FoxBonus, GameSpec, Grid, Track, area_word
from .reasons import Reason, ReasonError

N = TypeVar("N", int, float)
_COUNTS: Final = 1 << 30  # among ``Sheet._owned``, after the areas' bits: the action counts and foxes


class Sheet:
    """The marks on one player's sheet.

    ``areas[colour]`` is the area's state (a grid's cell levels or a track's written
    numbers); ``earned``/``used`` count circled and crossed circles per action track;
    ``foxes`` lists where each fox came from.

    Inside a game, a copy (:meth:`shared_copy`) shares the areas' lists, the action counts and
    the foxes with the sheet it was copied from until either writes them (:meth:`writable`,
    :meth:`use`, :meth:`gain`): a look-ahead copies positions by the thousand, and a move changes
    one area. Change a game's sheet with ``Game.set_sheet``.
    """

    __slots__ = ("_bits", "_owned", "areas", "earned", "foxes", "spec", "used")

    _bits: dict[str, int]  # each area's bit, and every area's under ""
    _owned: int  # the bits of the areas whose list this sheet alone holds, and _COUNTS

    def __init__(self, spec: GameSpec, *, _copy_of: Sheet | None = None, _share: bool = False) -> None:
        self.spec = spec
        if _copy_of is not None:  # Sheet.copy (a compiled class cannot be built without __init__)
            self._bits = _copy_of._bits
            if _share:  # neither sheet may now write a list or count in place
                self.areas: dict[str, list[int]] = dict(_copy_of.areas)
                self.earned: dict[ActionKind, int] = _copy_of.earned
                self.used: dict[ActionKind, int] = _copy_of.used
                self.foxes: list[str] = _copy_of.foxes
                self._owned = _copy_of._owned = 0
            else:
                self.areas = {a: list(s) for a, s in _copy_of.areas.items()}
                self.earned = dict(_copy_of.earned)
                self.used = dict(_copy_of.used)
                self.foxes = list(_copy_of.foxes)
                self._owned = _copy_of._bits[""] | _COUNTS
            return
        self._bits = area_bits(spec)
        self._owned = self._bits[""] | _COUNTS
        self.areas = {a: area.new_state() for a, area in spec.areas.items()}
        self.earned = {t.action: 0 for t in spec.actions}
        self.used = {t.action: 0 for t in spec.actions}
        self.foxes = []

    @property
    def owned(self) -> int:
        """The areas whose list only this sheet holds (bit ``1 << k`` for the sheet's ``k``-th
        area): it may change them in place. Every other area's list is shared, and no longer
        changes (a reader may keep what it derives from one by the list's identity)."""
        return self._owned & ~_COUNTS

    def writable(self, area: str) -> list[int]:
        """An area's state, to change in place: first copied if another sheet may share it."""
        bit = self._bits[area]
        state = self.areas[area]
        if not self._owned & bit:
            state = self.areas[area] = list(state)
            self._owned |= bit
        return state

    def _own_counts(self) -> None:
        """Copy the action counts and the foxes first if another sheet may share them."""
        if not self._owned & _COUNTS:
            self.earned = dict(self.earned)
            self.used = dict(self.used)
            self.foxes = list(self.foxes)
            self._owned |= _COUNTS

    def use(self, action: ActionKind) -> None:
        """Cross one circled action (the engine's move that uses it, known to be legal)."""
        self._own_counts()
        self.used[action] += 1

    def available(self, action: ActionKind) -> int:
        """Circled and not yet crossed: the actions the player can still use."""
        return self.earned.get(action, 0) - self.used.get(action, 0)

    def gain(self, bonus: ActionBonus | FoxBonus, source: str) -> list[Fired]:
        """Take a fox, or circle an action; returns what completing an action track fires."""
        if isinstance(bonus, FoxBonus):
            self._own_counts()
            self.foxes.append(source)
            return []
        track = next(t for t in self.spec.actions if t.action is bonus.action)
        if self.earned[bonus.action] >= track.circles:
            return []
        self._own_counts()
        self.earned[bonus.action] += 1
        if self.earned[bonus.action] == track.circles and track.end_bonus is not None:
            return [(track.end_bonus, f"{bonus} track complete")]
        return []

    def copy(self) -> Sheet:
        """An independent copy (its own lists)."""
        return Sheet(self.spec, _copy_of=self)

    def shared_copy(self) -> Sheet:
        """A copy that shares the areas' lists with this sheet until either writes one
        (:meth:`writable`): the engine's copy of a game. Never write a shared list directly."""
        return Sheet(self.spec, _copy_of=self, _share=True)

    def score(self) -> Score:
        return score_sheet(self)

    def key(self) -> tuple[object, ...]:
        """Everything the rules read of this sheet, hashable: equal keys, the same sheet."""
        return (
            tuple(tuple(state) for state in self.areas.values()),
            tuple(self.earned.values()),
            tuple(self.used.values()),
            tuple(self.foxes),
        )

    @classmethod
    def from_marks(cls, spec: GameSpec, marks: dict[str, list[int]], possible: bool = False) -> Sheet:
        """The sheet of a finished game from its marks alone (a paper sheet).

        ``marks[colour]`` is a grid's level per cell, or a track's written numbers (a cross
        track: one 0 per cross). Every entry is checked against the area's printed numbers
        and order; foxes and action circles are derived from the bonuses the marks fire and
        from the round track's gifts. ``possible``: also refuse more entries than any game
        gives one player (:func:`entries_beyond_a_game`). Raises :class:`~.reasons.ReasonError`
        (a ``ValueError``) saying what is wrong.
        """
        sheet = cls(spec)
        fired: list[Fired] = [(g, f"round {r}") for r, g in enumerate(spec.round_gifts, start=1) if g is not None]
        for a, area in spec.areas.items():
            given = marks.get(a)
            if given is None:
                continue
            state = sheet.writable(a)
            if isinstance(area, Grid):
                if len(given) != len(area.cells) or any(not 0 <= m <= area.marks for m in given):
                    raise ReasonError(
                        Reason("{area}: one mark level (0 to {most}) per cell", area=area_word(a), most=area.marks)
                    )
                for cell, level in enumerate(given):
                    for _ in range(level):
                        fired += area.mark(state, cell)
                continue
            if len(given) > len(area.boxes):
                raise ReasonError(
                    Reason(
                        "{area} has {boxes} boxes, not {count}",
                        area=area_word(a),
                        boxes=len(area.boxes),
                        count=len(given),
                    )
                )
            for i, written in enumerate(given):
                value = _die_value(area, i, written)
                reason = area.why_not(state, value, from_bonus=True)
                if reason is not None:
                    raise ReasonError(Reason("{area} box {box}: {reason}", area=area_word(a), box=i + 1, reason=reason))
                fired += area.enter(state, value)
        bonus_entries = _count_bonuses(sheet, fired)
        if possible:
            reason = entries_beyond_a_game(sheet, bonus_entries)
            if reason is not None:
                raise ReasonError(reason)
        return sheet

    def view(self) -> dict[str, Any]:
        """A plain description of the sheet, for front ends and records."""
        areas: dict[str, Any] = {}
        for a, area in self.spec.areas.items():
            state = self.areas[a]
            if isinstance(area, Grid):
                areas[a] = [
                    {"row": c.row, "col": c.col, "value": c.value, "marks": state[i]} for i, c in enumerate(area.cells)
                ]
            else:
                areas[a] = list(state)
        return {
            "areas": areas,
            "actions": {
                str(k): {"earned": self.earned[k], "used": self.used[k], "available": self.available(k)}
                for k in self.earned
            },
            "foxes": list(self.foxes),
            "score": self.score().as_dict(),
        }


class Score:
    """A sheet's score: each area's points, the foxes and what each is worth, the total.

    A plain class with read-only attributes rather than a frozen dataclass: compiled, it costs
    a third as much to build, and bots and environments score a sheet at every step."""

    __slots__ = ("areas", "fox_value", "foxes", "total")

    def __init__(self, areas: dict[str, int], foxes: int, fox_value: int, total: int) -> None:
        self.areas: Final = areas
        self.foxes: Final = foxes
        self.fox_value: Final = fox_value  # what each fox is worth: see fox_value()
        self.total: Final = total

    def __reduce__(self) -> tuple[type[Score], tuple[dict[str, int], int, int, int]]:
        return Score, (self.areas, self.foxes, self.fox_value, self.total)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Score) and self.__reduce__()[1] == other.__reduce__()[1]

    __hash__ = None  # type: ignore[assignment]  # its areas are a dict, as a dataclass's would be

    def __repr__(self) -> str:
        return f"Score(areas={self.areas!r}, foxes={self.foxes}, fox_value={self.fox_value}, total={self.total})"

    @property
    def best_area(self) -> int:
        return max(self.areas.values())

    def as_dict(self) -> dict[str, Any]:
        return {"areas": dict(self.areas), "foxes": self.foxes, "fox_value": self.fox_value, "total": self.total}


_AREA_BITS: dict[str, dict[str, int]] = {}


def area_bits(spec: GameSpec) -> dict[str, int]:
    """One bit per area of the game's sheet (``1 << k`` for its ``k``-th area: :attr:`Sheet.owned`),
    and all of them under ``""``."""
    bits = _AREA_BITS.get(spec.id)
    if bits is None:
        bits = {a: 1 << k for k, a in enumerate(spec.areas)}
        bits[""] = (1 << len(spec.areas)) - 1
        _AREA_BITS[spec.id] = bits
    return bits


def fox_value(area_scores: Iterable[N]) -> N:
    """What each fox is worth: the lowest area score, but 0 as soon as any area scores 0.

    « Si un joueur n'obtient aucun point dans une zone, les renards valent tous 0 point »:
    this wins over a negative green (Vraiment très futé), which otherwise makes each fox
    worth that negative number. Front ends and bots value foxes through this function only.
    """
    scores = list(area_scores)
    return 0 if 0 in scores else min(scores)


def fox_area(area_scores: dict[str, int]) -> str:
    """The area the foxes are worth (the first area at 0 if there is one, else the lowest)."""
    worth = fox_value(area_scores.values())
    return next(a for a, v in area_scores.items() if v == worth)


def score_sheet(sheet: Sheet) -> Score:
    """Areas, then foxes times :func:`fox_value` of the areas."""
    states = sheet.areas
    areas = {a: area.score(states[a]) for a, area in sheet.spec.areas.items()}
    foxes = len(sheet.foxes)
    total, each = sheet_total(list(areas.values()), foxes)
    return Score(areas, foxes, each, total)


def sheet_total(area_points: list[int], foxes: int) -> tuple[int, int]:
    """A sheet's total from its areas' points and its foxes, and what each fox is worth (for
    :func:`score_sheet`, and for the strong player's evaluation, which keeps each area's points)."""
    each = fox_value(area_points)
    return sum(area_points) + foxes * each, each


def winners(scores: list[Score]) -> list[int]:
    """Highest total; among those tied, highest single area; still tied, all of them win."""
    best = max(s.total for s in scores)
    tied = [i for i, s in enumerate(scores) if s.total == best]
    top_area = max(scores[i].best_area for i in tied)
    return [i for i in tied if scores[i].best_area == top_area]


def _die_value(area: Track, box: int, written: int) -> int:
    """The die value behind a written number (a cross track: any)."""
    if area.crosses:
        return 0
    multiplier = area.boxes[box].multiplier
    low, high = min(area.choice_values), max(area.choice_values)
    if written % multiplier or not low <= written // multiplier <= high:
        where = area_word(area.colour)
        if multiplier > 1:
            raise ReasonError(
                Reason(
                    "{area} box {box}: {written} cannot be written there (x{multiplier} box)",
                    area=where,
                    box=box + 1,
                    written=written,
                    multiplier=multiplier,
                )
            )
        raise ReasonError(
            Reason("{area} box {box}: {written} cannot be written there", area=where, box=box + 1, written=written)
        )
    return written // multiplier


def _count_bonuses(sheet: Sheet, fired: list[Fired]) -> int:
    """Foxes and action circles from fired bonuses; returns how many entry bonuses fired (each
    one mark at most: entry bonuses are marks of their own)."""
    queue = list(fired)
    entries = 0
    while queue:
        bonus, source = queue.pop(0)
        if isinstance(bonus, ActionBonus | FoxBonus):
            queue += sheet.gain(bonus, source)
        else:
            entries += 1
    return entries


def most_dice_entries(spec: GameSpec) -> int:
    """The most dice one player picks in a game, +1 actions apart: each round three as the active
    player and one in each passive turn (the solo game has one passive turn a round)."""
    return max(rounds * (3 + max(n - 1, 1)) for n, rounds in spec.rounds_by_players.items())


def entries_beyond_a_game(sheet: Sheet, bonus_entries: int) -> Reason | None:
    """Why no game gives one player this many marks (None if one may), from its final marks alone.

    Each mark is a picked die, a +1 action (at most the +1 circles the marks earn), an entry
    bonus (at most one per bonus the marks fire, ``bonus_entries``) or, in Vraiment très futé,
    a swept die (at most five a turn as the active player, one more per reprise): marks are
    never erased, so the final marks fire every bonus the game fired."""
    spec = sheet.spec
    entries = 0
    for a, area in spec.areas.items():
        state = sheet.areas[a]
        entries += sum(state) if isinstance(area, Grid) else len(state)
    dice = most_dice_entries(spec)
    plus_ones = sheet.earned.get(ActionKind.PLUS_ONE, 0)
    sweeps = 0
    if spec.silver_sweep:
        sweeps = 5 * max(spec.rounds_by_players.values()) + sheet.earned.get(ActionKind.REPRISE, 0)
    most = dice + plus_ones + sweeps + bonus_entries
    if entries <= most:
        return None
    return Reason(
        "{count} marks, but a game gives one player at most {most}: {dice} dice picked, {plus_ones} +1 "
        "actions, {bonuses} bonus entries and {sweeps} swept dice",
        count=entries,
        most=most,
        dice=dice,
        plus_ones=plus_ones,
        bonuses=bonus_entries,
        sweeps=sweeps,
    )

"""What a player sees, as a flat vector of numbers in [-1, 1] (layout in docs/environments.md).

Every number the observation can hold comes from a small set (a die's face, a cell's level, a
written number, a count of circles), so each is packed into its 4-byte float32 once, when a
game's tables are built; an observation is then the join of ready-made pieces, which NumPy
views without converting a single Python float (``encode`` runs at every environment step).
"""

from __future__ import annotations

from functools import cache
from itertools import product
from struct import Struct
from typing import Final

import numpy as np

from ..float32 import FLOAT32, one_hot, packed
from ..rules import Game, Phase, Score, Sheet, Where
from ..rules.game import Stage, get_spec
from ..rules.kinds import ChoiceBonus, EntryBonus, GameSpec, Grid

PHASES = [Phase.BEFORE_ROLL, Phase.CHOOSE, Phase.SWEEP, Phase.ACTIVE_EXTRA, Phase.PASSIVE, Phase.TURN_START, Phase.OVER]
WHERE = [Where.HAND, Where.PLATTER, Where.FIELD]
STAGES = [Stage.PICK, Stage.EXTRA, Stage.DONE]
SCORE_SCALE: Final = 100.0

_FLOAT: Final = FLOAT32
_TURN: Final = Struct("4f")
_FLOAT32: Final = np.dtype(np.float32)
_frombuffer: Final = np.frombuffer  # read once, not looked up in NumPy's module at every step


def _one_hot(keys: list, extra: tuple = ()) -> dict:
    """Each key's one-hot encoding over ``keys`` (all zeros for the ``extra`` keys), packed once."""
    table = {k: one_hot(len(keys), i) for i, k in enumerate(keys)}
    return table | {k: one_hot(len(keys), -1) for k in extra}


def _scaled(count: int, scale: float) -> tuple[bytes, ...]:
    """``n / scale`` packed, for every n from 0 to ``count``."""
    return tuple(_FLOAT.pack(n / scale) for n in range(count + 1))


def _score_value(points: int) -> bytes:
    return _FLOAT.pack(max(-1.0, min(1.0, points / SCORE_SCALE)))


_ZERO: Final = _FLOAT.pack(0.0)
_ONE: Final = _FLOAT.pack(1.0)
_FACES: Final = tuple(_one_hot([1, 2, 3, 4, 5, 6], extra=(0,))[v] for v in range(7))  # by face; 0: not rolled
_WHERE: Final = _one_hot(WHERE)
_HAND: Final = Where.HAND
_PLATTER: Final = Where.PLATTER
# A die's 11 numbers: face (0 before its first roll), where it lies, swept, taken with +1.
_DICE: Final = tuple(
    _FACES[face] + _WHERE[where] + flag_swept + flag_extra
    for face in range(7)
    for where in WHERE
    for flag_swept in (_ZERO, _ONE)
    for flag_extra in (_ZERO, _ONE)
)
_PHASES: Final = _one_hot(PHASES)
_NO_PHASE: Final = packed(*(0.0 for _ in PHASES))
_STAGES: Final = _one_hot(STAGES)
# pending bonuses / 3, at most 1 (a tuple of any length: compiled, a fixed-length one would be
# boxed anew at each read by index)
_THIRDS: Final[tuple[bytes, ...]] = (_ZERO, _FLOAT.pack(1 / 3), _FLOAT.pack(2 / 3), _ONE)
_SCORES: Final = tuple(_score_value(points) for points in range(int(SCORE_SCALE) + 1))  # 0..100 points
_FOXES: Final = _scaled(6, 6)  # foxes / 6 (beyond 6: computed)


Run = tuple[int, int, tuple[bytes, ...]]


class SheetTables:
    """One game's sheet, packed: per area its kind, what each entry encodes to and the zeros
    its empty boxes leave (tracks), or its cells in runs of a few, each run's levels packed
    together for every combination (grids); per action track, its counts of circles."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec: Final = spec
        self.areas: Final = tuple(spec.areas)
        self.grid: Final = tuple(isinstance(area, Grid) for area in spec.areas.values())
        entries: list[tuple[bytes, ...]] = []
        empty: list[tuple[bytes, ...]] = []
        runs: list[tuple[Run, ...]] = []
        for letter, area in spec.areas.items():
            if isinstance(area, Grid):
                entries.append(_scaled(area.marks, area.marks))  # a cell's level / its marks
                empty.append(())
                runs.append(_runs(len(area.cells), entries[-1]))
            else:
                scale = track_scale(spec, letter)
                entries.append(tuple(_ONE + number for number in _scaled(int(scale), scale)))  # filled, number
                empty.append(tuple(bytes(8 * n) for n in range(len(area.boxes) + 1)))
                runs.append(())
        self.entries: Final = tuple(entries)
        self.empty: Final = tuple(empty)
        self.runs: Final = tuple(runs)
        self.no_pending: Final = bytes(4 * (len(spec.areas) + 1))
        self.actions: Final = tuple(t.action for t in spec.actions)
        self.circles: Final = tuple(_scaled(t.circles, t.circles) for t in spec.actions)


def _runs(cells: int, levels: tuple[bytes, ...]) -> tuple[Run, ...]:
    """A grid's cells cut into runs of at most 256 combinations of levels; each run: its first
    cell, the cell after its last, and its cells' packed levels for every combination (the
    index reads the levels as the digits of a number, the first cell the highest)."""
    base = len(levels)
    length = 1
    while base ** (length + 1) <= 256:
        length += 1
    runs: list[Run] = []
    for start in range(0, cells, length):
        end = min(start + length, cells)
        combos = product(levels, repeat=end - start)
        runs.append((start, end, tuple(b"".join(combo) for combo in combos)))
    return tuple(runs)


def track_scale(spec: GameSpec, letter: str) -> float:
    """The largest number a track can hold, to bring written numbers into [0, 1]."""
    area = spec.areas[letter]
    assert not isinstance(area, Grid)
    return float(max(b.multiplier for b in area.boxes) * max(max(area.choice_values), 6))


_TABLES: Final[dict[str, SheetTables]] = {}


def sheet_tables(spec: GameSpec) -> SheetTables:
    """The game's tables, built at its first observation (a spec of the same id but another
    object, as a test may build, gets its own)."""
    tables = _TABLES.get(spec.id)
    if tables is None or tables.spec is not spec:
        tables = _TABLES[spec.id] = SheetTables(spec)
    return tables


def sheet_size(spec: GameSpec) -> int:
    n = 0
    for area in spec.areas.values():
        n += len(area.cells) if isinstance(area, Grid) else 2 * len(area.boxes)
    return n + 2 * len(spec.actions) + 1 + len(spec.areas) + 1


def _entry(table: tuple[bytes, ...], n: int) -> bytes:
    """``n / scale`` packed: ``table[n]``, or computed when n lies outside the table (which
    runs from 0 to the scale; never in play)."""
    return table[n] if 0 <= n < len(table) else _FLOAT.pack(n / (len(table) - 1))


def _append_sheet(out: list[bytes], tables: SheetTables, sheet: Sheet, score: Score | None) -> None:
    """Marks, action tracks, foxes, each area's score and the lowest one, appended to ``out``
    (``score``: the sheet's score when the caller has it already)."""
    areas = sheet.areas
    for k, letter in enumerate(tables.areas):
        state, entries = areas[letter], tables.entries[k]
        if tables.grid[k]:
            base = len(entries)
            for start, end, packed_run in tables.runs[k]:
                index = 0
                for cell in range(start, end):
                    level = state[cell]
                    if not 0 <= level < base:  # never in play: each cell on its own
                        index = -1
                        break
                    index = index * base + level
                if index >= 0:
                    out.append(packed_run[index])
                else:
                    for cell in range(start, end):
                        out.append(_entry(entries, state[cell]))
        else:
            for written in state:
                out.append(
                    entries[written]
                    if 0 <= written < len(entries)
                    else _ONE + _FLOAT.pack(written / (len(entries) - 1))
                )
            out.append(tables.empty[k][len(tables.empty[k]) - 1 - len(state)])
    earned, used = sheet.earned, sheet.used
    for k, action in enumerate(tables.actions):
        circles = tables.circles[k]
        have = earned[action]
        out.append(_entry(circles, have))
        out.append(_entry(circles, have - used[action]))
    score = score or sheet.score()
    out.append(_entry(_FOXES, score.foxes))
    for points in score.areas.values():
        out.append(_SCORES[points] if 0 <= points <= 100 else _score_value(points))
    lowest = score.fox_value
    out.append(_SCORES[lowest] if 0 <= lowest <= 100 else _score_value(lowest))


def observation_size(spec: GameSpec, players: int) -> int:
    dice = 6 * (6 + len(WHERE) + 2)
    turn = 4 + len(PHASES) + 3
    pending = len(spec.areas) + 1
    return dice + turn + pending + players * sheet_size(spec)


def encode(game: Game, player: int, others: list[Sheet] | None = None, score: Score | None = None) -> np.ndarray:
    """The observation of ``player``: the dice, the turn, their pending bonuses, their sheet,
    then the other players' sheets in seat order from their left (``others`` overrides them,
    to hide what simultaneous passive players have just done). A writable float32 array."""
    return _frombuffer(bytearray(encode_bytes(game, player, others, score)), _FLOAT32)


def encode_bytes(game: Game, player: int, others: list[Sheet] | None = None, score: Score | None = None) -> bytes:
    """:func:`encode` as packed float32 (to fill a row of a batch without an array per game)."""
    tables = sheet_tables(game.spec)
    out: list[bytes] = []
    swept, extra_used, where, values = game.swept, game.extra_used[player], game.where, game.values
    for i in range(len(values)):
        lies = where[i]
        place = 0 if lies is _HAND else 1 if lies is _PLATTER else 2
        out.append(_DICE[((values[i] * 3 + place) * 2 + (i in swept)) * 2 + (i in extra_used)])
    out.append(
        _TURN.pack(game.round / game.rounds, game.rolls / 3, game.picks / 3, 1.0 if game.active == player else 0.0)
    )
    out.append(_PHASES.get(game.phase, _NO_PHASE))
    out.append(_STAGES[game.stage[player]])
    waiting = game.pending[player]
    if not waiting:
        out.append(tables.no_pending)
    else:
        pending = [0] * (len(tables.areas) + 1)
        for item in waiting:
            bonus = item.bonus
            if isinstance(bonus, ChoiceBonus):
                pending[-1] += 1
            elif isinstance(bonus, EntryBonus):
                pending[tables.areas.index(bonus.area)] += 1
        for count in pending:
            out.append(_THIRDS[min(count, 3)])
    _append_sheet(out, tables, game.sheets[player], score)
    n = game.n_players
    for k in range(1, n):
        other = (player + k) % n
        _append_sheet(out, tables, others[other] if others is not None else game.sheets[other], None)
    return b"".join(out)


def _sheet_names(spec: GameSpec, prefix: str) -> list[str]:
    names: list[str] = []
    for a, area in spec.areas.items():
        if isinstance(area, Grid):
            names += [f"{prefix}.{a}.r{c.row}c{c.col}" for c in area.cells]
        else:
            for i in range(1, len(area.boxes) + 1):
                names += [f"{prefix}.{a}.box{i}.filled", f"{prefix}.{a}.box{i}.number"]
    for track in spec.actions:
        names += [f"{prefix}.{track.action}.circled", f"{prefix}.{track.action}.available"]
    names.append(f"{prefix}.foxes")
    names += [f"{prefix}.score.{a}" for a in spec.areas]
    names.append(f"{prefix}.score.lowest")
    return names


@cache
def observation_names(game_id: str, players: int) -> tuple[str, ...]:
    """One name per index of :func:`encode`'s vector, e.g. ``die.w.face3``, ``turn.round``,
    ``me.y.r2c3`` (the player's yellow cell row 2 column 3), ``left1.score.g`` (the green
    score of the player on the left)."""
    spec = get_spec(game_id)
    names: list[str] = []
    for die in spec.dice:
        names += [f"die.{die}.face{v}" for v in range(1, 7)]
        names += [f"die.{die}.in_{w}" for w in WHERE]
        names += [f"die.{die}.swept", f"die.{die}.extra_taken"]
    names += ["turn.round", "turn.rolls", "turn.picks", "turn.is_active"]
    names += [f"turn.phase.{p.replace(' ', '_')}" for p in PHASES]
    names += [f"turn.stage.{s}" for s in STAGES]
    names += [f"pending.{a}" for a in spec.areas] + ["pending.choice"]
    names += _sheet_names(spec, "me")
    for k in range(1, players):
        names += _sheet_names(spec, f"left{k}")
    assert len(names) == observation_size(spec, players)
    return tuple(names)

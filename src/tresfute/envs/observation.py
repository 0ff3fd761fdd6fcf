"""What a player sees, as a flat vector of numbers in [-1, 1] (layout in docs/environments.md)."""

from __future__ import annotations

from functools import cache
from struct import Struct
from typing import Final

import numpy as np

from ..rules import Game, Phase, Score, Sheet, Where
from ..rules.game import Stage, get_spec
from ..rules.kinds import ActionKind, ChoiceBonus, EntryBonus, GameSpec, Grid

PHASES = [Phase.BEFORE_ROLL, Phase.CHOOSE, Phase.SWEEP, Phase.ACTIVE_EXTRA, Phase.PASSIVE, Phase.TURN_START, Phase.OVER]
WHERE = [Where.HAND, Where.PLATTER, Where.FIELD]
SCORE_SCALE: Final = 100.0


def _one_hot(keys: list, extra: tuple = ()) -> dict:
    """Each key's one-hot encoding over ``keys``, built once (``encode`` runs at every step)."""
    table = {k: tuple(1.0 if k == other else 0.0 for other in keys) for k in keys}
    return table | {k: (0.0,) * len(keys) for k in extra}


# Final: compiled, each is read as a C static rather than looked up at every step.
_FACES: Final = tuple(_one_hot([1, 2, 3, 4, 5, 6], extra=(0,))[v] for v in range(7))  # by face; 0: not rolled yet
_WHERE: Final = _one_hot(WHERE)
_PHASES: Final = _one_hot(PHASES)
_NO_PHASE: Final = (0.0,) * len(PHASES)
_STAGES: Final = _one_hot([Stage.PICK, Stage.EXTRA, Stage.DONE])


def sheet_size(spec: GameSpec) -> int:
    n = 0
    for area in spec.areas.values():
        n += len(area.cells) if isinstance(area, Grid) else 2 * len(area.boxes)
    return n + 2 * len(spec.actions) + 1 + len(spec.areas) + 1


@cache
def _scales(game_id: str) -> dict[str, float]:
    """The largest number each track can hold, to bring written numbers into [0, 1]."""
    spec = get_spec(game_id)
    return {
        a: float(max(b.multiplier for b in area.boxes) * max(max(area.choice_values), 6))
        for a, area in spec.areas.items()
        if not isinstance(area, Grid)
    }


def encode_sheet(spec: GameSpec, sheet: Sheet, score: Score | None = None) -> list[float]:
    """Marks, action tracks, foxes, each area's score and the lowest one (``score``: the
    sheet's score when the caller has it already)."""
    out: list[float] = []
    encode_sheet_into(out, spec, sheet, score)
    return out


def encode_sheet_into(out: list[float], spec: GameSpec, sheet: Sheet, score: Score | None = None) -> None:
    """:func:`encode_sheet`, appended to ``out``."""
    areas = sheet.areas
    for a, is_grid, scale, boxes in _sheet_plan(spec.id):
        state = areas[a]
        if is_grid:
            for level in state:
                out.append(level / scale)
        else:
            for written in state:
                out.append(1.0)
                out.append(written / scale)
            for _ in range(boxes - len(state)):
                out.append(0.0)
                out.append(0.0)
    for action, circles in _action_plan(spec.id):
        out.append(sheet.earned[action] / circles)
        out.append(sheet.available(action) / circles)
    score = score or sheet.score()
    out.append(score.foxes / 6)
    for v in score.areas.values():
        out.append(max(-1.0, min(1.0, v / SCORE_SCALE)))
    out.append(max(-1.0, min(1.0, score.fox_value / SCORE_SCALE)))


@cache
def _sheet_plan(game_id: str) -> tuple[tuple[str, bool, float, int], ...]:
    """Per area: its letter, whether it is a grid, what divides its entries (a grid's marks per
    cell, a track's largest number), its boxes (read once, not at every step)."""
    spec, scales = get_spec(game_id), _scales(game_id)
    return tuple(
        (a, True, float(area.marks), 0) if isinstance(area, Grid) else (a, False, scales[a], len(area.boxes))
        for a, area in spec.areas.items()
    )


@cache
def _action_plan(game_id: str) -> tuple[tuple[ActionKind, int], ...]:
    return tuple((t.action, t.circles) for t in get_spec(game_id).actions)


def observation_size(spec: GameSpec, players: int) -> int:
    dice = 6 * (6 + len(WHERE) + 2)
    turn = 4 + len(PHASES) + 3
    pending = len(spec.areas) + 1
    return dice + turn + pending + players * sheet_size(spec)


def encode(game: Game, player: int, others: list[Sheet] | None = None, score: Score | None = None) -> np.ndarray:
    """The observation of ``player``: the dice, the turn, their pending bonuses, their sheet,
    then the other players' sheets in seat order from their left (``others`` overrides them,
    to hide what simultaneous passive players have just done)."""
    values = encode_list(game, player, others, score)
    # Packed by struct into a buffer NumPy then views: a third of what NumPy's own conversion
    # of a list of Python floats costs.
    buffer = bytearray(4 * len(values))
    _packer(len(values)).pack_into(buffer, 0, *values)
    return np.frombuffer(buffer, dtype=np.float32)


@cache
def _packer(size: int) -> Struct:
    return Struct(f"{size}f")


def encode_list(game: Game, player: int, others: list[Sheet] | None = None, score: Score | None = None) -> list[float]:
    """:func:`encode` as a list (to fill a row of a batch without an array per game)."""
    spec = game.spec
    out: list[float] = []
    swept, extra_used, where = game.swept, game.extra_used[player], game.where
    for i, value in enumerate(game.values):
        out.extend(_FACES[value])
        out.extend(_WHERE[where[i]])
        out.append(1.0 if i in swept else 0.0)
        out.append(1.0 if i in extra_used else 0.0)
    out.append(game.round / game.rounds)
    out.append(game.rolls / 3)
    out.append(game.picks / 3)
    out.append(1.0 if game.active == player else 0.0)
    out.extend(_PHASES.get(game.phase, _NO_PHASE))
    out.extend(_STAGES[game.stage[player]])
    areas = list(spec.areas)
    pending = [0.0] * (len(areas) + 1)
    for item in game.pending[player]:
        if isinstance(item.bonus, ChoiceBonus):
            pending[-1] += 1 / 3
        elif isinstance(item.bonus, EntryBonus):
            pending[areas.index(item.bonus.area)] += 1 / 3
    for x in pending:
        out.append(min(1.0, x))
    encode_sheet_into(out, spec, game.sheets[player], score)
    n = game.n_players
    for k in range(1, n):
        other = (player + k) % n
        sheet = others[other] if others is not None else game.sheets[other]
        encode_sheet_into(out, spec, sheet)
    return out


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
    names += [f"turn.stage.{s}" for s in (Stage.PICK, Stage.EXTRA, Stage.DONE)]
    names += [f"pending.{a}" for a in spec.areas] + ["pending.choice"]
    names += _sheet_names(spec, "me")
    for k in range(1, players):
        names += _sheet_names(spec, f"left{k}")
    assert len(names) == observation_size(spec, players)
    return tuple(names)

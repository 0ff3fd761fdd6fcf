"""The strong player's evaluation: a small neural network that values a position after a move.

How it works, at length: docs/design.md (bots/network.py).
"""

from __future__ import annotations

import hashlib
import struct
import threading
import warnings
from functools import cache
from importlib import resources
from io import BytesIO
from itertools import pairwise
from pathlib import Path
from typing import Any, Final

import numpy as np

from ..float32 import FLOAT32, one_hot, packed
from ..rules import Game
from ..rules.game import Pending, Phase, Stage, Where, get_spec
from ..rules.kinds import ChoiceBonus, EntryBonus, GameSpec, Grid, Order, TrackScoring
from ..rules.sheet import Score, Sheet, area_bits, sheet_total

FORMAT = "tresfute-network/1"
SCALE = 100.0  # the network's output is in hundreds of points
AREA_STATES_KEPT = 50_000  # area states whose inputs an encoder keeps, per area
SHARED_LISTS_KEPT = 50_000  # shared area lists whose inputs an encoder keeps by identity
PARTS_KEPT = 8192  # area states whose first-layer sums a network keeps (``ValueNetwork.values``)
SUMS_KEPT = 8192  # sheets (their areas' states) whose first-layer sums a network keeps
PHASES = tuple(Phase)
WHERE = (Where.HAND, Where.PLATTER, Where.FIELD)
STAGES = (Stage.PICK, Stage.EXTRA, Stage.DONE)
# read in the hot path as constants (compiled, an enum member read by name is slow)
_F32: Final = FLOAT32
_PICK_STAGE: Final = Stage.PICK
_EXTRA_STAGE: Final = Stage.EXTRA
_PASSIVE: Final = Phase.PASSIVE
_DONE_STAGE: Final = Stage.DONE
_ROLL_K: Final = PHASES.index(Phase.ROLL)
_SOLO_ROLL_K: Final = PHASES.index(Phase.SOLO_ROLL)
_PASSIVE_K: Final = PHASES.index(Phase.PASSIVE)
_TURN_START: Final = Phase.TURN_START
_TURN_START_K: Final = PHASES.index(Phase.TURN_START)
_HAND: Final = Where.HAND
_PLATTER: Final = Where.PLATTER
_FOXES: Final = struct.Struct("5f")  # in the machine's order, as FLOAT32
_ZERO: Final = _F32.pack(0.0)


def _entry_values(spec: GameSpec, colour: str) -> tuple[int, ...]:
    """The values a die (or the blue + white sum) can bring to an area."""
    area = spec.areas[colour]
    if isinstance(area, Grid):
        return tuple(sorted(area.cells_by_value))
    if colour == spec.sum_area:
        return tuple(range(2, 13))
    return tuple(range(1, 7))


class AreaInputs:
    """What an area's state gives the network, worked out once per state (``Encoder.area``):
    its inputs, the share of entry values it still takes, and its points. A network keeps
    what the inputs add to its first layer by this object (``ValueNetwork._part_row``)."""

    __slots__ = ("colour", "inputs", "open_bytes", "open_share", "points")

    def __init__(self, colour: str, inputs: list[float], open_share: float, points: int) -> None:
        self.colour = colour
        self.inputs = inputs
        self.open_share = open_share
        self.open_bytes = _F32.pack(open_share)  # as an input of the die of this colour in hand
        self.points = points


TABLE_SIZES = (2, 3, 4)
# the tables where the table network plays and values (``network_for``, ``valuation_network``):
# at two the solo networks played better (docs/bench.md)
TABLE_NETWORK_SIZES = (3, 4)


class Encoder:
    """The network's input vector for one player's view of a position.

    A table encoder (``table=True``) appends what the solo game's inputs cannot say of a table
    (:meth:`_table`): its size, the others' turns left in the game (each a pick from their
    platter) and those before one's own next turn. Those inputs come last, so a table network
    grown from a solo one (zero weights on them) starts by valuing as the solo one does."""

    def __init__(self, spec: GameSpec, table: bool = False) -> None:
        self.spec = spec
        self.table = table
        # held while a network reads positions through this encoder: its kept area inputs and
        # the network's kept sums change as it reads, and a server's game threads share both
        self.lock = threading.RLock()
        self.entry_values = {colour: _entry_values(spec, colour) for colour in spec.areas}
        self._areas_seen: dict[str, dict[tuple[int, ...], AreaInputs]] = {c: {} for c in spec.areas}
        # a sheet's shared area lists never change (``Sheet.owned``): their inputs kept by the
        # list's identity, the list with them (so that its identity is not given to another)
        self._lists_seen: dict[int, tuple[list[int], AreaInputs]] = {}
        # the shared lists of the last sheet read, area by area, and their inputs: the positions
        # after each move of one position share all their lists but one, so most are found by
        # identity alone (the list kept, so that its identity is not given to another)
        self._last_lists: list[list[int] | None] = [None] * len(spec.areas)
        self._last_found: list[AreaInputs | None] = [None] * len(spec.areas)
        bits = area_bits(spec)
        self._area_bits = [(bits[colour], colour) for colour in spec.areas]
        # each die's own area among the sheet's areas (its openness is an input), or -1
        colours = list(spec.areas)
        self._die_areas = [colours.index(die) if die in spec.areas else -1 for die in spec.dice]
        self.names = self._names()
        self.size = len(self.names)
        # where each area's inputs lie (they come first, area by area); the rest follows
        self.area_slices: dict[str, tuple[int, int]] = {}
        start = 0
        for colour, area in spec.areas.items():
            length = len(self.area(colour, tuple(area.new_state())).inputs)
            self.area_slices[colour] = (start, start + length)
            start += length
        self.rest_start = start
        self._pieces = _RestPieces(spec)

    def _names(self) -> list[str]:
        """One name per input, in order (what :meth:`encode` writes must follow this list)."""
        spec = self.spec
        names: list[str] = []
        for colour, area in spec.areas.items():
            if isinstance(area, Grid):
                for cell in area.cells:
                    names += [f"{colour} r{cell.row}c{cell.col} marked {level}" for level in range(1, area.marks + 1)]
                for line in area.lines:
                    if line.bonus is not None or line.points:
                        names.append(f"{colour} {line.name} one short")
                for k, _ in enumerate(area.count_scores):
                    names += [f"{colour} count {k} share", f"{colour} count {k} next points"]
            else:
                names += [f"{colour} boxes {n}" for n in range(len(area.boxes) + 1)]
                if area.order is not Order.FREE and not area.crosses:
                    names += [f"{colour} last {v}" for v in (0, *area.choice_values)]
                if area.scoring is TrackScoring.PAIRS:
                    names += [f"{colour} open pair {v}" for v in (0, 1, 2, 3, 4, 5, 6)]
            names += [f"{colour} takes {v}" for v in self.entry_values[colour]]
            names += [f"{colour} openness", f"{colour} score"]
        for track in spec.actions:
            names += [f"{track.action} available {n}" for n in range(track.circles + 1)]
            names.append(f"{track.action} earned")
        names += ["foxes", "fox value", "foxes x fox value", "score", "fox value is zero"]
        names += [f"rounds left {n}" for n in range(1, max(spec.rounds_by_players.values()) + 1)]
        names += [f"phase {p}" for p in PHASES]
        names += ["active turn", "solo passive turn"]
        names += [f"own stage {s}" for s in STAGES]
        names += [f"picks {n}" for n in range(4)] + [f"rolls {n}" for n in range(4)]
        for die in spec.dice:
            names += [f"die {die} {w}" for w in WHERE]
            names += [f"die {die} shows {v}" for v in range(1, 7)]
            if die in spec.areas:
                names.append(f"die {die} in hand x openness")
        names += [f"pending {colour}" for colour in spec.areas] + ["pending choice", "pending other"]
        if self.table:
            names += [f"table of {n}" for n in TABLE_SIZES]
            names += [f"others' turns left {k}" for k in range(_most_others_turns(spec) + 1)]
            names += [f"others' turns before own {k}" for k in range(max(TABLE_SIZES) + 1)]
        return names

    def area(self, colour: str, state: tuple[int, ...]) -> AreaInputs:
        """What an area's state gives the network (kept: the same state, the same object; most
        areas are unchanged from one position to the next)."""
        seen = self._areas_seen[colour]
        found = seen.get(state)
        if found is None:
            if len(seen) >= AREA_STATES_KEPT:
                seen.clear()  # start again rather than grow for ever
            found = seen[state] = self._area_inputs(colour, state)
        return found

    def _area_inputs(self, colour: str, state: tuple[int, ...]) -> AreaInputs:
        area = self.spec.areas[colour]
        values = self.entry_values[colour]
        listed = list(state)  # the areas' rules read a state as a list
        x: list[float] = []
        if isinstance(area, Grid):
            marks = area.marks
            if marks == 1:
                x += [1.0 if level else 0.0 for level in state]
            else:
                for level in state:
                    x += [1.0 if level >= 1 else 0.0, 1.0 if level >= 2 else 0.0]
            for line in area.lines:
                if line.bonus is not None or line.points:
                    x.append(1.0 if sum(1 for c in line.cells if not state[c]) == 1 else 0.0)
            for group in area.count_scores:
                full = sum(1 for c in group.cells if state[c] >= marks)
                x.append(full / len(group.cells))
                nxt = group.points[full + 1] - group.points[full] if full < len(group.cells) else 0
                x.append(nxt / 20.0)
            takes = [1.0 if area.die_targets(listed, v) else 0.0 for v in values]
        else:
            n = len(state)
            onehot = [0.0] * (len(area.boxes) + 1)
            onehot[n] = 1.0
            x += onehot
            if area.order is not Order.FREE and not area.crosses:
                last = [0.0] * (len(area.choice_values) + 1)
                if n:
                    last[area.choice_values.index(state[-1] // area.boxes[n - 1].multiplier) + 1] = 1.0
                else:
                    last[0] = 1.0
                x += last
            if area.scoring is TrackScoring.PAIRS:
                pair = [0.0] * 7
                pair[state[-1] // area.boxes[n - 1].multiplier if n % 2 else 0] = 1.0
                x += pair
            takes = [1.0 if area.accepts(listed, v) else 0.0 for v in values]
        x += takes
        open_share = sum(takes) / len(takes)
        points = area.score(listed)
        x += [open_share, points / 50.0]
        return AreaInputs(colour, x, open_share, points)

    def encode(self, game: Game, player: int, score: Score | None = None) -> list[float]:
        """The inputs for ``player`` in ``game`` (a position after a move, or any position)."""
        areas, _, rest = self.parts(game, player, score)
        x: list[float] = []
        for found in areas:
            x += found.inputs
        return x + np.frombuffer(rest, dtype=np.float32).tolist()

    def parts(self, game: Game, player: int, score: Score | None = None) -> tuple[list[AreaInputs], int, bytes]:
        """The inputs in two parts: what each area's state gives (:meth:`area`: its inputs come
        first, area by area), then the rest of the inputs, as float32 bytes; and the player's
        score now (``score``'s if given, else from the areas' points, by the rules' count). Areas
        change one at a time: a network can keep what each area's state gives its first layer
        (``ValueNetwork.values``). The rest is joined from pieces packed once for the game
        (each one-hot group's every value: ``_RestPieces``), so a position makes few Python floats."""
        spec = self.spec
        pieces = self._pieces
        sheet = game.sheets[player]
        areas = self._areas_of(sheet)
        foxes = len(sheet.foxes)
        if score is None:
            total, lowest = sheet_total([found.points for found in areas], foxes)
        else:
            total, lowest = score.total, score.fox_value
        rest: list[bytes] = []
        for k, track in enumerate(spec.actions):
            available = min(sheet.available(track.action), track.circles)
            earned = sheet.earned[track.action]
            if available >= 0 and 0 <= earned <= track.circles:
                rest.append(pieces.actions[k][available * (track.circles + 1) + earned])
            else:  # a sheet set by hand beyond the printed circles
                rest.append(one_hot(track.circles + 1, available) + _F32.pack(earned / track.circles))
        # lowest: what each fox is worth, by the rules' one count (sheet.py)
        rest.append(
            _FOXES.pack(foxes / 6.0, lowest / 50.0, foxes * lowest / 200.0, total / 200.0, 1.0 if lowest == 0 else 0.0)
        )
        phase = game.phase
        if game.n_players == 1 or (game.active == player and phase is not _PASSIVE and phase is not _TURN_START):
            self._time(game, player, areas, rest)
        else:
            self._time_as_solo(game, player, areas, rest)
        waiting = game.pending[player]
        if waiting:
            rest.append(self._pending(waiting))
        else:
            rest.append(pieces.no_pending)
        if self.table:
            rest.append(self._table(game, player))
        return areas, total, b"".join(rest)

    def _table(self, game: Game, player: int) -> bytes:
        """The table's inputs (none set alone): its size, the turns of others still to come in
        the game (the current one while the player still has its pick in it), and how many of
        them come before the player's own next turn."""
        pieces = self._pieces
        n = game.n_players
        if n == 1 or game.is_over:
            return pieces.no_table
        turn = game.turn
        current = turn != player and not (game.phase is _PASSIVE and game.stage[player] is _DONE_STAGE)
        # the turns after the current one in this round (less one's own), then the later rounds'
        later = (n - 1 - turn) - (player > turn) + (game.rounds - game.round) * (n - 1)
        before = (player - turn) % n
        if before == 0 and game.phase is _PASSIVE:  # one's own turn's active part is over
            before = n
        return pieces.table_size[n] + pieces.others_left(int(current) + later) + pieces.others_before[before]

    def _areas_of(self, sheet: Sheet) -> list[AreaInputs]:
        """What each area of a sheet gives (:meth:`area`), an area whose list the sheet shares
        with the position it was copied from found by the list's identity (most look-ahead
        positions differ from the last in one area)."""
        states = sheet.areas
        owned = sheet.owned
        seen = self._lists_seen
        last_lists, last_found = self._last_lists, self._last_found
        areas: list[AreaInputs] = []
        for k, (bit, colour) in enumerate(self._area_bits):
            state = states[colour]
            if owned & bit:
                areas.append(self.area(colour, tuple(state)))
                continue
            last = last_found[k]
            if state is last_lists[k] and last is not None:
                areas.append(last)
                continue
            kept = seen.get(id(state))
            if kept is None:
                found = self.area(colour, tuple(state))
                if len(seen) >= SHARED_LISTS_KEPT:
                    seen.clear()  # start again rather than grow for ever
                seen[id(state)] = (state, found)
            else:
                found = kept[1]
            areas.append(found)
            last_lists[k], last_found[k] = state, found
        return areas

    def _time(self, game: Game, player: int, areas: list[AreaInputs], rest: list[bytes]) -> None:
        """Where the game stands, as it is: rounds left, phase, turn, stage, picks and rolls, dice."""
        pieces = self._pieces
        rest.append(pieces.rounds_left(game.rounds - game.round))
        phase = game.phase
        for k, p in enumerate(PHASES):
            if phase is p:
                rest.append(pieces.phases[k])
        active = game.active == player and not game.solo_passive
        rest.append(pieces.turn[(2 if active else 0) + (1 if game.solo_passive else 0)])
        rest.append(pieces.stage(game.stage[player]))
        rest.append(pieces.picks_rolls[4 * min(game.picks, 3) + min(game.rolls, 3)])
        in_hand_counts = active and phase is not _PASSIVE
        wheres, values = game.where, game.values
        for i, own_area in enumerate(self._die_areas):
            where = wheres[i]
            place = 0 if where is _HAND else 1 if where is _PLATTER else 2
            rest.append(pieces.dice[7 * place + (values[i] if place else 0)])
            if own_area >= 0:
                rest.append(areas[own_area].open_bytes if in_hand_counts and not place else _ZERO)

    def _time_as_solo(self, game: Game, player: int, areas: list[AreaInputs], rest: list[bytes]) -> None:
        """Where the game stands for a player at a table outside its own active part, told as the
        solo game's moment with the same next turn of its own.

        The network learns by solo self-play, where a round is the player's active turn and then
        its passive one; at a table the others' turns come between. Read as they are, those
        moments (another's turn, a pick from another's platter) are ones solo play never shows
        it. So: a pick from another's platter is the solo passive pick (the platter as it is, the
        other dice out of reach); waiting for one's own turn next is the solo start of it; waiting
        for a pick from someone's platter first is the solo passive turn before its roll. The
        rounds are those of the player's next active turn, so its own turns stay counted right;
        the extra picks of a table of three or four are not counted.
        """
        pieces = self._pieces
        turn = game.turn  # the turn played, or about to begin (its active player not yet seated)
        phase = game.phase
        own = game.stage[player]
        starting = phase is _TURN_START
        passive = phase is _PASSIVE and game.active != player
        picking = passive and own is not _DONE_STAGE
        own_round = game.round if player > turn or (starting and player == turn) else game.round + 1
        if (starting and player == turn) or (passive and not picking and player == (turn + 1) % game.n_players):
            # the solo start of one's own turn: its bonuses first, or its first roll
            rounds_left = game.rounds - own_round
            phase_k, turn_k, picks_rolls = (_TURN_START_K, 2, 0) if starting else (_ROLL_K, 2, 1)
            own_next = True
        else:  # the solo passive turn: its pick, or its roll still to come
            rounds_left = game.rounds - own_round + 1
            phase_k, turn_k, picks_rolls = (_PASSIVE_K if picking else _SOLO_ROLL_K), 1, 0
            own_next = False
        # Before one's first turn (the second seat's pick from the first player's platter) one has
        # every round ahead, a count solo play never shows: told as the solo game's most.
        rest.append(pieces.rounds_left(min(rounds_left, pieces.most_solo_rounds_left)))
        rest.append(pieces.phases[phase_k])
        rest.append(pieces.turn[turn_k])
        rest.append(pieces.stage(own))
        rest.append(pieces.picks_rolls[picks_rolls])
        wheres, values = game.where, game.values
        for i, own_area in enumerate(self._die_areas):
            if picking and wheres[i] is _PLATTER:
                rest.append(pieces.dice[7 + values[i]])
            else:
                rest.append(pieces.dice[0])
            if own_area >= 0:
                rest.append(areas[own_area].open_bytes if own_next else _ZERO)

    def _pending(self, waiting: list[Pending]) -> bytes:
        """The inputs of the bonuses waiting to be placed: entries by area, choices, others."""
        pending = dict.fromkeys(self.spec.areas, 0.0)
        choice = other = 0.0
        for each in waiting:
            bonus = each.bonus
            if isinstance(bonus, EntryBonus):
                pending[bonus.area] += 1.0
            elif isinstance(bonus, ChoiceBonus):
                choice += 1.0
            else:
                other += 1.0
        return self._pieces.pending.pack(*pending.values(), choice, other)


def _most_others_turns(spec: GameSpec) -> int:
    """The most turns of other players one game at a table holds (each a pick from a platter)."""
    return max((n - 1) * spec.rounds_by_players[n] for n in TABLE_SIZES)


def finished_for(game: Game, player: int) -> bool:
    """Whether ``player`` has nothing more to do in a game at a table that others still finish
    (the last turn's platter picks): its score is final."""
    return (
        game.n_players > 1
        and game.round == game.rounds
        and game.turn == game.n_players - 1
        and game.phase is _PASSIVE
        and (game.active == player or game.stage[player] is _DONE_STAGE)
        and not game.pending[player]
    )


class _RestPieces:
    """The one-hot groups of the inputs after the areas, every value of each packed as float32
    bytes once for the game (``Encoder._names`` gives their order): ``Encoder.parts`` joins them."""

    def __init__(self, spec: GameSpec) -> None:
        self.actions = [
            [
                one_hot(track.circles + 1, available) + _F32.pack(earned / track.circles)
                for available in range(track.circles + 1)
                for earned in range(track.circles + 1)
            ]
            for track in spec.actions
        ]
        most_rounds = max(spec.rounds_by_players.values())
        self.rounds = [one_hot(most_rounds, left - 1) for left in range(most_rounds + 1)]
        self.most_solo_rounds_left = spec.rounds_by_players[1] - 1
        self.phases = [one_hot(len(PHASES), k) for k in range(len(PHASES))]
        flags = (False, True)
        self.turn = [packed(float(active), float(solo_passive)) for active in flags for solo_passive in flags]
        self.stages = [one_hot(len(STAGES), k) for k in range(len(STAGES))]
        self.picks_rolls = [one_hot(4, picks) + one_hot(4, rolls) for picks in range(4) for rolls in range(4)]
        self.dice = [one_hot(len(WHERE), place) + one_hot(6, shows - 1) for place in range(3) for shows in range(7)]
        self.pending = struct.Struct(f"{len(spec.areas) + 2}f")
        self.no_pending = bytes(self.pending.size)  # float32 zeros
        self.table_size = {n: one_hot(len(TABLE_SIZES), k) for k, n in enumerate(TABLE_SIZES)}
        most = _most_others_turns(spec)
        self.others_lefts = [one_hot(most + 1, k) for k in range(most + 1)]
        self.others_before = [one_hot(max(TABLE_SIZES) + 1, k) for k in range(max(TABLE_SIZES) + 1)]
        self.no_table = bytes(len(self.table_size[2]) + len(self.others_lefts[0]) + len(self.others_before[0]))

    def others_left(self, k: int) -> bytes:
        return self.others_lefts[min(k, len(self.others_lefts) - 1)]

    def rounds_left(self, left: int) -> bytes:
        """The rounds-left group; none set past the game's end (or beyond the printed rounds)."""
        return self.rounds[left] if 0 <= left < len(self.rounds) else self.rounds[0]

    def stage(self, own: Stage) -> bytes:
        """The player's stage in the turn (pick, extra pick, done)."""
        return self.stages[0 if own is _PICK_STAGE else 1 if own is _EXTRA_STAGE else 2]


class ValueNetwork:
    """Expected final score of a player: the score now plus a learned forecast of what is to come.

    Two hidden layers with ReLU; ``layers`` holds (weights, biases) pairs, the last one with a
    single output, in hundreds of points.
    """

    def __init__(
        self, spec_id: str, layers: list[tuple[np.ndarray, np.ndarray]], info: dict | None = None, table: bool = False
    ) -> None:
        self.spec = get_spec(spec_id)
        self.spec_id = spec_id
        self.table = table  # its inputs are the table encoder's (trained at tables: ``for_tables``)
        self.encoder = _encoder(spec_id, table)
        if not layers or layers[0][0].shape[0] != self.encoder.size or layers[-1][0].shape[1] != 1:
            kind = "table " if table else ""
            raise ValueError(f"a {spec_id} {kind}network takes {self.encoder.size} inputs and gives one output")
        for (w, b), (w_next, _) in pairwise(layers):
            if b.shape != (w.shape[1],) or w_next.shape[0] != w.shape[1]:
                raise ValueError("the network's layers do not fit together")
        self.layers = [(np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32)) for w, b in layers]
        self.info = dict(info or {})
        self.weights_changed()

    def for_tables(self) -> ValueNetwork:
        """This solo network as a table network that values every position as it does: the
        table's inputs (``Encoder._table``) added with zero weights, for training to set."""
        if self.table:
            return ValueNetwork.from_bytes(self.to_bytes())
        added = _encoder(self.spec_id, True).size - self.encoder.size
        (w, b), *above = self.layers
        grown = np.concatenate([w, np.zeros((added, w.shape[1]), np.float32)])
        return ValueNetwork(self.spec_id, [(grown, b.copy()), *[(x.copy(), y.copy()) for x, y in above]], table=True)

    @classmethod
    def initial(cls, spec_id: str, hidden: tuple[int, ...] = (128, 128), seed: int = 0) -> ValueNetwork:
        """A new network with small random weights (He initialisation), the last layer at zero."""
        rng = np.random.default_rng(seed)
        sizes = [_encoder(spec_id).size, *hidden, 1]
        layers = []
        for k, (n_in, n_out) in enumerate(pairwise(sizes)):
            last = k == len(sizes) - 2
            w = np.zeros((n_in, n_out)) if last else rng.normal(0.0, np.sqrt(2.0 / n_in), (n_in, n_out))
            layers.append((w, np.zeros(n_out)))
        return cls(spec_id, layers)

    @classmethod
    def average(cls, networks: list[ValueNetwork], info: dict | None = None) -> ValueNetwork:
        """One network whose output is the mean of the given ones' (same game, same depth).

        The members sit side by side: the first layers are concatenated, the hidden ones
        block-diagonal, the last ones stacked and divided by their number. Averaging several
        equally strong networks values positions more steadily than any one of them.
        """
        if not networks or len({(n.spec_id, len(n.layers), n.table) for n in networks}) != 1:
            raise ValueError("networks to average must be of one game and have as many layers")
        depth, count = len(networks[0].layers), len(networks)
        layers: list[tuple[np.ndarray, np.ndarray]] = []
        for k in range(depth):
            weights = [n.layers[k][0] for n in networks]
            biases = [n.layers[k][1] for n in networks]
            if k == depth - 1:  # one output each: their mean
                layers.append((np.concatenate(weights, axis=0) / count, np.mean(biases, axis=0)))
            elif k == 0:  # the same inputs feed every member
                layers.append((np.concatenate(weights, axis=1), np.concatenate(biases)))
            else:
                w = np.zeros((sum(x.shape[0] for x in weights), sum(x.shape[1] for x in weights)), np.float32)
                row = col = 0
                for x in weights:
                    w[row : row + x.shape[0], col : col + x.shape[1]] = x
                    row, col = row + x.shape[0], col + x.shape[1]
                layers.append((w, np.concatenate(biases)))
        return cls(networks[0].spec_id, layers, info, networks[0].table)

    def forward(self, inputs: np.ndarray) -> np.ndarray:
        """The raw outputs (points to come, in hundreds) for a batch of input rows."""
        w, b = self.layers[0]
        return self._above_first(inputs @ w + b)

    def _above_first(self, h: np.ndarray) -> np.ndarray:
        """The outputs from the first layer's sums: the hidden layers and the output."""
        np.maximum(h, 0.0, out=h)
        for k in range(1, len(self.layers)):
            w, b = self.layers[k]
            blocks = self._blocks[k]
            if blocks is None:
                h = h @ w + b
            else:  # an averaged network: each member on its own, not through the zero blocks
                h = np.concatenate([h[:, rows] @ block for rows, block in blocks], axis=1) + b
            if k < len(self.layers) - 1:
                np.maximum(h, 0.0, out=h)
        return h[:, 0]

    def weights_changed(self) -> None:
        """Forget what was derived from the weights (after training changed them in place)."""
        self._rest_weights = self.layers[0][0][self.encoder.rest_start :]  # a view: follows the weights
        self._part_rows: dict[AreaInputs, int] = {}  # by the object: one per area state (Encoder.area)
        self._parts_used = 0
        self._parts = np.empty((0, self.layers[0][0].shape[1]), dtype=np.float32)
        # the sums of the area rows of whole sheets (most sheets come back, with other dice), by
        # the sheet's areas' states (``Encoder.area``'s objects, kept alive by the keys)
        self._sum_rows: dict[tuple[AreaInputs, ...], int] = {}
        self._sums = np.empty((0, self.layers[0][0].shape[1]), dtype=np.float32)
        self._blocks: list[list[tuple[slice, np.ndarray]] | None] = [None]
        for w, _ in self.layers[1:]:
            blocks = _diagonal_blocks(w)
            self._blocks.append(None if blocks is None else [(r, np.ascontiguousarray(w[r, c])) for r, c in blocks])

    def _part_row(self, area: AreaInputs) -> int:
        """The row of ``_parts`` that holds what an area's state adds to the first layer's sums."""
        rows = self._part_rows
        row = rows.get(area)
        if row is None:
            row = rows[area] = self._parts_used
            self._parts_used += 1
            if row == len(self._parts):
                grown = np.empty((max(row + 1, min(2 * row + 256, PARTS_KEPT)), self._parts.shape[1]), np.float32)
                grown[:row] = self._parts
                self._parts = grown
            start, stop = self.encoder.area_slices[area.colour]
            segment = np.asarray(area.inputs, dtype=np.float32)
            self._parts[row] = segment @ self.layers[0][0][start:stop]
        return row

    def _keep_sums(self, first: int, stop: int, rows: list[int]) -> None:
        """Rows ``first`` to ``stop`` of ``_sums``: the sums of the area rows listed, as many per
        sum as there are areas."""
        if stop > len(self._sums):
            grown = np.empty((max(stop, min(2 * stop + 256, SUMS_KEPT)), self._sums.shape[1]), np.float32)
            grown[:first] = self._sums[:first]
            self._sums = grown
        self._sums[first:stop] = self._parts[rows].reshape(stop - first, -1, self._sums.shape[1]).sum(axis=1)

    def values(self, games: list[Game], player: int) -> list[float]:
        """Each position's expected final score for ``player`` (exact once the game is over).

        The same numbers as :meth:`evaluate` (up to rounding), faster: the first layer adds up
        what each area's state gives it (kept from earlier positions, most areas being the same
        after every move), the sum kept for the whole sheet (the strong player's search meets
        the same sheets with other dice), and multiplies only the rest of the inputs.
        """
        with self.encoder.lock:
            return self._values(games, player)

    def _values(self, games: list[Game], player: int) -> list[float]:
        if self._parts_used + len(games) * len(self.encoder.area_slices) > PARTS_KEPT:
            self._part_rows.clear()  # start again rather than let the kept states grow for ever
            self._parts_used = 0
            self._sum_rows.clear()
        if len(self._sum_rows) + len(games) > SUMS_KEPT:
            self._sum_rows.clear()
        sum_rows = self._sum_rows
        first_new = len(sum_rows)
        out = [0.0] * len(games)
        where: list[int] = []
        now: list[int] = []
        sums: list[int] = []
        new_rows: list[int] = []
        rests: list[bytes] = []
        encoder = self.encoder
        for k, g in enumerate(games):
            if g.is_over or finished_for(g, player):
                out[k] = float(g.score(player).total)
                continue
            areas, total, rest = encoder.parts(g, player)
            where.append(k)
            now.append(total)
            rests.append(rest)
            states = tuple(areas)  # the sheet's areas' states: the same objects, the same rows and sum
            found = sum_rows.get(states)
            if found is None:
                found = sum_rows[states] = len(sum_rows)
                new_rows += [self._part_row(area) for area in areas]
            sums.append(found)
        if where:
            inputs = np.frombuffer(b"".join(rests), dtype=np.float32).reshape(len(where), -1)
            h = inputs @ self._rest_weights + self.layers[0][1]
            if new_rows:
                self._keep_sums(first_new, len(sum_rows), new_rows)
            h += self._sums[sums]
            learned: list[float] = self._above_first(h).tolist()  # Python floats at once
            for k, total, y in zip(where, now, learned, strict=True):
                out[k] = total + SCALE * y
        return out

    def evaluate(self, games: list[Game], player: int) -> tuple[list[float], list[list[float] | None]]:
        """Each position's expected final score and its inputs (None for a finished game)."""
        with self.encoder.lock:
            return self._evaluate(games, player)

    def _evaluate(self, games: list[Game], player: int) -> tuple[list[float], list[list[float] | None]]:
        out = [0.0] * len(games)
        inputs: list[list[float] | None] = [None] * len(games)
        where, now = [], []
        for k, g in enumerate(games):
            score = g.score(player)
            if g.is_over or finished_for(g, player):
                out[k] = float(score.total)
            else:
                inputs[k] = self.encoder.encode(g, player, score)
                where.append(k)
                now.append(score.total)
        if where:
            learned = self.forward(np.array([inputs[k] for k in where], dtype=np.float32))
            for k, total, y in zip(where, now, learned, strict=True):
                out[k] = total + SCALE * float(y)
        return out, inputs

    def value(self, game: Game, player: int) -> float:
        return self.values([game], player)[0]

    # --- files --------------------------------------------------------------------------

    def weights_digest(self) -> str:
        """The SHA-256 of the weights alone (each layer's shape, weights and biases as
        little-endian float32): the same for the same network whatever file holds it (a file's
        own bytes also hold the time it was written, and the training record)."""
        digest = hashlib.sha256(self.spec_id.encode() + (b" table" if self.table else b""))
        for w, b in self.layers:
            digest.update(repr((w.shape, b.shape)).encode())
            digest.update(np.ascontiguousarray(w, dtype="<f4").tobytes())
            digest.update(np.ascontiguousarray(b, dtype="<f4").tobytes())
        return digest.hexdigest()

    def to_bytes(self) -> bytes:
        arrays: dict[str, Any] = {"format": np.array(FORMAT), "game": np.array(self.spec_id)}
        arrays["info"] = np.array(_json_dumps(self.info))
        if self.table:
            arrays["inputs"] = np.array("table")
        for k, (w, b) in enumerate(self.layers):
            arrays[f"w{k}"] = w.astype(np.float32)
            arrays[f"b{k}"] = b.astype(np.float32)
        buffer = BytesIO()
        np.savez_compressed(buffer, **arrays)
        return buffer.getvalue()

    def save(self, path: str | Path) -> None:
        Path(path).write_bytes(self.to_bytes())

    @classmethod
    def from_bytes(cls, data: bytes) -> ValueNetwork:
        try:
            with np.load(BytesIO(data), allow_pickle=False) as arrays:
                if "format" not in arrays or str(arrays["format"]) != FORMAT:
                    raise ValueError("no format mark")
                layers: list[tuple[np.ndarray, np.ndarray]] = []
                while f"w{len(layers)}" in arrays:
                    k = len(layers)
                    layers.append((arrays[f"w{k}"], arrays[f"b{k}"]))
                table = "inputs" in arrays and str(arrays["inputs"]) == "table"
                return cls(str(arrays["game"]), layers, _json_loads(str(arrays["info"])), table)
        except (OSError, KeyError, EOFError, ValueError) as error:  # not an archive of arrays, one missing
            raise ValueError(f"not a {FORMAT} file: {error}") from None

    @classmethod
    def load(cls, path: str | Path) -> ValueNetwork:
        return cls.from_bytes(Path(path).read_bytes())


def _json_dumps(data: dict) -> str:
    import json

    return json.dumps(data, sort_keys=True)


def _json_loads(text: str) -> dict:
    import json

    loaded = json.loads(text)
    return loaded if isinstance(loaded, dict) else {}


def _diagonal_blocks(w: np.ndarray) -> list[tuple[slice, slice]] | None:
    """The equal blocks on the diagonal of ``w`` when every weight outside them is zero (the
    hidden layers of an averaged network), the most blocks first; None otherwise."""
    for count in range(8, 1, -1):
        rows, cols = w.shape[0] // count, w.shape[1] // count
        if rows * count != w.shape[0] or cols * count != w.shape[1]:
            continue
        blocks = [(slice(i * rows, (i + 1) * rows), slice(i * cols, (i + 1) * cols)) for i in range(count)]
        outside = np.ones(w.shape, dtype=bool)
        for r, c in blocks:
            outside[r, c] = False
        if not w[outside].any():
            return blocks
    return None


@cache
def _encoder(spec_id: str, table: bool = False) -> Encoder:
    return Encoder(get_spec(spec_id), table)


@cache
def shipped_network(game_id: str, reading: tuple[tuple[str, bool], ...] = ()) -> ValueNetwork:
    """The network shipped with the package for this game, loaded once per process; with
    ``reading`` (rules options off their default, sorted by name), the one trained under that
    reading of the rules where the package has it, else the default reading's."""
    return _first_shipped(network_file(game_id, reading), network_file(game_id))


def _first_shipped(*names: str) -> ValueNetwork:
    """The network of the first of these files that the package has."""
    data = resources.files("tresfute.bots") / "data"
    return _loaded(next(name for name in names if (data / name).is_file()))


@cache
def _loaded(name: str) -> ValueNetwork:  # one object per file, however it was asked for
    return ValueNetwork.from_bytes((resources.files("tresfute.bots") / "data" / name).read_bytes())


def reading_suffix(reading: tuple[tuple[str, bool], ...]) -> str:
    """A reading's part of a shipped file's name: ``-NAME-true|false`` per option off its default."""
    return "".join(f"-{name}-{str(value).lower()}" for name, value in reading)


def network_file(game_id: str, reading: tuple[tuple[str, bool], ...] = (), role: str = "") -> str:
    """The file name of a game's network for a reading of its rules: one part per option off
    its default (``network-vraiment-tres-fute-reprise_with_no_die_left-false.npz``), and the
    role if it is not the player's (``network-tres-fute-valuation.npz``)."""
    return f"network-{game_id}{reading_suffix(reading)}{'-' + role if role else ''}.npz"


def reading_of(game: Game) -> tuple[tuple[str, bool], ...]:
    """The game's rules options that differ from its defaults, sorted by name."""
    chosen = game.rules
    return tuple(sorted((o.name, chosen[o.name]) for o in game.spec.rule_options if chosen[o.name] != o.default))


class UntrainedRulesWarning(UserWarning):
    """The strong player plays under rules options its network was not trained under."""


@cache
def trained_under(game_id: str, reading: tuple[tuple[str, bool], ...] = ()) -> bool:
    """Whether the package has a network trained under this reading of the rules (the options
    off their default, sorted by name: ``reading_of``)."""
    return (resources.files("tresfute.bots") / "data" / network_file(game_id, reading)).is_file()


@cache
def table_network(game_id: str, reading: tuple[tuple[str, bool], ...] = ()) -> ValueNetwork | None:
    """The network trained at tables of 2 to 4 for this game and reading of its rules
    (``network-<game>[-reading]-table.npz``: self-play at every table size, with beginners'
    openings), None where the package has none."""
    name = network_file(game_id, reading, "table")
    return _loaded(name) if (resources.files("tresfute.bots") / "data" / name).is_file() else None


def _table_network_for(game: Game) -> ValueNetwork | None:
    """The table network where this game's table is one of ``TABLE_NETWORK_SIZES`` and the
    package has one for its reading; None otherwise."""
    return table_network(game.spec.id, reading_of(game)) if game.n_players in TABLE_NETWORK_SIZES else None


def network_for(game: Game) -> ValueNetwork:
    """The network the strong player plays with: at a table of ``TABLE_NETWORK_SIZES`` the table
    network (``table_network``) where the package has it, else :func:`network_alone`."""
    return _table_network_for(game) or network_alone(game)


def network_alone(game: Game) -> ValueNetwork:
    """The solo network for this game under its reading of the rules (see ``shipped_network``);
    where the package has none for that reading, the default reading's, with an
    :class:`UntrainedRulesWarning` (it plays, but was not trained for these rules)."""
    reading = reading_of(game)
    if not trained_under(game.spec.id, reading):
        warnings.warn(
            f"the strong player has no network trained under the rules "
            f"{', '.join(f'{name}={str(value).lower()}' for name, value in reading)} of {game.spec.id}: "
            "it plays them with the network of the default rules, not trained for these",
            UntrainedRulesWarning,
            stacklevel=2,
        )
    return shipped_network(game.spec.id, reading)


@cache
def _valuation(game_id: str, reading: tuple[tuple[str, bool], ...]) -> ValueNetwork:
    return _first_shipped(
        network_file(game_id, reading, "valuation"), network_file(game_id, reading), network_file(game_id)
    )


def valuation_network(game: Game) -> ValueNetwork:
    """The network that values moves for the hint and the review (``bots/appraisal.py``): one
    trained on every kind of sheet, a beginner's too, where the package has it
    (``network-<game>-valuation.npz``), else the player's. The player keeps the network that
    plays best; valuing with another one also keeps its errors out of the values of the moves
    it chose (docs/review.md). At a table of ``TABLE_NETWORK_SIZES``, the table network
    (``table_network``: trained with beginners' openings too) where the package has it: the solo
    one misses the two or three picks a round such a table gives."""
    return _table_network_for(game) or _valuation(game.spec.id, reading_of(game))

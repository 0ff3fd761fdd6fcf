"""The bounds an OpenSpiel game declares, derived from the sheet description (``GameSpec``):
the best and worst totals a sheet can score, and the longest game in actions (decisions and
chance nodes, one die a node). Nothing here is measured; ``tests/test_env_chance.py`` checks
that games stay within them and that the best sheet is scored so by the engine.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.kinds import ActionKind, Bonus, ChoiceBonus, EntryBonus, FoxBonus, GameSpec, Grid, Track, TrackScoring
from ..rules.sheet import Sheet, score_sheet


def _printed(spec: GameSpec) -> list[Bonus | None]:
    """Every bonus of the sheet, each firing at most once in a game: a line's, a box's, a
    completed action track's, a round's gift."""
    printed = [line.bonus for area in spec.areas.values() if isinstance(area, Grid) for line in area.lines]
    printed += [box.bonus for area in spec.areas.values() if isinstance(area, Track) for box in area.boxes]
    return printed + [track.end_bonus for track in spec.actions] + list(spec.round_gifts)


def foxes(spec: GameSpec) -> int:
    """How many foxes a sheet can hold: one per fox printed."""
    return sum(isinstance(bonus, FoxBonus) for bonus in _printed(spec))


def _values(spec: GameSpec, letter: str, track: Track) -> list[int]:
    """Every value an entry may bring to ``track``: a die (1-6), the sum of two (its sum area)
    or a bonus's value (its choices)."""
    dice = range(2, 13) if letter == spec.sum_area else range(1, 7)
    return sorted({*dice, *track.choice_values})


def track_extreme(spec: GameSpec, letter: str, track: Track, best: bool) -> list[int]:
    """The written numbers of the highest (``best``) or lowest scoring state ``track`` can reach:
    a search over the states box by box, each keyed by its last number (all that
    :meth:`Track.accepts` reads), bonus entries' freedom included (no box minimum)."""
    pick = max if best else min
    # after i boxes: last number written -> (points so far, the numbers written)
    layer: dict[int | None, tuple[int, list[int]]] = {None: (0, [])}
    chosen: tuple[int, list[int]] = (0, [])
    for i in range(len(track.boxes)):
        following: dict[int | None, tuple[int, list[int]]] = {}
        for points, written in layer.values():
            for value in _values(spec, letter, track):
                if not track.accepts(written, value, from_bonus=True):
                    continue
                state = list(written)
                track.enter(state, value)
                number = state[-1]
                if track.scoring is TrackScoring.PAIRS:
                    gain = written[-1] - number if i % 2 else 0
                elif track.scoring is TrackScoring.LAST_FILLED:
                    gain = track.points[i + 1] - track.points[i]
                else:
                    gain = number
                candidate = (points + gain, state)
                kept = following.get(number)
                if kept is None or pick(kept[0], candidate[0]) != kept[0]:
                    following[number] = candidate
        layer = following
        for candidate in layer.values():  # a game may end at any box
            if pick(chosen[0], candidate[0]) != chosen[0]:
                chosen = candidate
    assert track.score(chosen[1]) == chosen[0]
    return chosen[1]


def best_sheet(spec: GameSpec) -> Sheet:
    """A sheet that scores the most points: every grid cell fully marked (the points of grids
    grow with their marks), each track at its best, every fox the sheet prints."""
    sheet = Sheet(spec)
    for letter, area in spec.areas.items():
        if isinstance(area, Grid):
            sheet.areas[letter] = [area.marks] * len(area.cells)
        else:
            sheet.areas[letter] = track_extreme(spec, letter, area, best=True)
    sheet.foxes = ["printed"] * foxes(spec)
    return sheet


@dataclass(frozen=True)
class Bounds:
    max_utility: int
    min_utility: int
    max_game_length: int


def bounds(spec: GameSpec, players: int) -> Bounds:
    """The utilities (a player's final score) and the game length OpenSpiel is told."""
    best = score_sheet(best_sheet(spec)).total
    # The lowest: each area at its lowest (a grid scores nothing empty), and every fox worth
    # the lowest area when that is negative (a fox is worth 0 when an area scores 0).
    lowest = [
        a.score(a.new_state()) if isinstance(a, Grid) else a.score(track_extreme(spec, k, a, False))
        for k, a in spec.areas.items()
    ]
    worst = sum(lowest) + foxes(spec) * min(0, *lowest)
    return Bounds(best, worst, longest_game(spec, players))


def longest_game(spec: GameSpec, players: int) -> int:
    """The most actions a game can take in OpenSpiel, counted from the rules' limits.

    Every decision is one of: an entry on the player's sheet (a pick: 3 in an active turn, 1 in
    a passive one; a +1: one per circle; a bonus: one per entry bonus printed; a silver sweep;
    each writes one mark, so at most as many as the sheet holds marks), a reroll or a
    reprise (each crosses one of its printed circles), or one that ends a step: in each active
    turn a lost roll (one per roll, 3 rolls), the end of the +1 entries (1), the end of a silver
    sweep (one per pick, 3, where the game sweeps) and the choice to roll again or stop after a
    reprise (2, where the sheet has reprises); in each passive turn of each player a refusal (1)
    and the end of its +1 entries (1). Chance rolls one die a node: at most 6 dice in each of an
    active turn's 3 rolls and in each reroll; the solo game's passive roll, 6 dice and the
    platter's choice.
    """

    def holds(area: Grid | Track) -> int:
        return len(area.cells) * area.marks if isinstance(area, Grid) else len(area.boxes)

    marks = sum(holds(area) for area in spec.areas.values())
    circles = {track.action: track.circles for track in spec.actions}
    rerolls = circles.get(ActionKind.REROLL, 0)
    reprises = circles.get(ActionKind.REPRISE, 0)
    rounds = spec.rounds_by_players[players]
    active_turns = rounds * players
    passive_turns = rounds if players == 1 else rounds * players * (players - 1)  # one per player and turn
    # one player's entries: its picks (3 in each of its active turns, 1 in each passive one), its
    # +1s, its entry bonuses, its sweeps (at most the silver grid's marks), and at most its marks
    picks = 3 * rounds + passive_turns // players
    bonuses = sum(isinstance(bonus, EntryBonus | ChoiceBonus) for bonus in _printed(spec))
    sweeps = holds(spec.areas["s"]) if spec.silver_sweep else 0
    entries = min(marks, picks + circles.get(ActionKind.PLUS_ONE, 0) + bonuses + sweeps)
    per_active_turn = 3 + 1 + (3 if spec.silver_sweep else 0) + (2 if reprises else 0)
    decisions = players * (entries + rerolls + reprises) + active_turns * per_active_turn + passive_turns * 2
    chance = active_turns * 3 * 6 + players * rerolls * 6 + (rounds * (6 + 1) if players == 1 else 0)
    return decisions + chance

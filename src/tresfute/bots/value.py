"""A learned estimate of a sheet's final score: the strong player's evaluation.

The evaluation forecasts what each area will score at the end of the game, and how many foxes
the sheet will hold, then counts them the way the rulebook does (``rules.fox_value``): the
areas' sum plus the foxes times the lowest area, or 0 if any area is at 0. Forecasting areas
one by one is what lets the player see that a point in its weakest area is worth more than a
point elsewhere (each fox is worth that area), which one linear sum over the sheet cannot
express.

How it works, at length: docs/design.md (bots/value.py).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from ..rules import Game
from ..rules.game import Phase, Stage, Where
from ..rules.kinds import Grid, Order, Track, TrackScoring
from ..rules.sheet import Score, fox_area, fox_value

FORMAT = "tresfute-value/2"


def stage(game: Game, player: int) -> str:
    """The stage of the game the features are counted in: rounds left, active or passive."""
    rounds_left = game.rounds - game.round
    active = game.active == player and not game.solo_passive and game.phase is not Phase.PASSIVE
    return f"{rounds_left}{'a' if active else 'p'}"


def features(game: Game, player: int, score: Score | None = None) -> list[str]:
    """The names of the features present in the position, for ``player``'s sheet."""
    if game.is_over:
        return []
    t = stage(game, player)
    sheet = game.sheets[player]
    score = score or game.score(player)
    names = [f"{t}|bias"]
    for colour, area in game.spec.areas.items():
        state = sheet.areas[colour]
        if isinstance(area, Grid):
            for i, line in enumerate(area.lines):
                pattern = "".join([str(state[c]) for c in line.cells])
                names.append(f"{t}|{colour}L{i}|{pattern}")
            for i, count in enumerate(area.count_scores):
                top = area.marks
                names.append(f"{t}|{colour}C{i}|{sum(1 for c in count.cells if state[c] == top)}")
            if area.marks == 2:
                names.append(f"{t}|{colour}circled|{sum(1 for level in state if level == 1)}")
        else:
            names.append(_track_feature(t, colour, area, state))
    for kind in sheet.earned:
        names.append(f"{t}|has|{kind}|{min(sheet.available(kind), 7)}")
        names.append(f"{t}|earned|{kind}|{sheet.earned[kind]}")
    names.append(f"{t}|foxes|{min(len(sheet.foxes), 12)}")
    seen: dict[str, int] = {}
    for pending in game.pending[player]:
        key = str(pending.bonus)
        seen[key] = seen.get(key, 0) + 1
        names.append(f"{t}|pending|{key}|{seen[key]}")
    if game.phase is Phase.PASSIVE:
        turn = f"passive|{game.stage[player] is not Stage.DONE}"
    else:  # the dice still to roll this turn decide which areas the next picks can reach
        hand = "".join([d for d, w in zip(game.dice, game.where, strict=True) if w is Where.HAND])
        turn = f"{game.phase}|{game.picks}|{hand}|{game.rolls}"
        for die in hand:  # a die still to roll is worth what its own area can still take
            if die in game.spec.areas:
                names.append(f"hand|{die}|{game.picks}|{_openings(game.spec.areas[die], sheet.areas[die])}")
    names.append(f"{t}|turn|{turn}")
    if sheet.foxes:  # each fox is worth the lowest area (or 0): which area it is, and how low
        lowest = fox_area(score.areas)
        names.append(f"{t}|foxlow|{min(len(sheet.foxes), 6)}|{lowest}|{score.areas[lowest] // 10}")
    return names


def _openings(area: Grid | Track, state: list[int]) -> str:
    """What a die of the area's colour could still do: a grid's values with an open cell, a track's end."""
    if isinstance(area, Grid):
        return ",".join([str(v) for v in sorted(area.cells_by_value) if area.die_targets(state, v)])
    return f"{len(state)}|{state[-1] if state and area.order is not Order.FREE else 0}"


def _track_feature(t: str, colour: str, area: Track, state: list[int]) -> str:
    n = len(state)
    if area.order is not Order.FREE:  # the last number decides what may follow
        return f"{t}|{colour}|{n}|{state[-1] if state else 0}"
    if area.scoring is TrackScoring.PAIRS and n % 2:  # a pair's first half awaits its second
        return f"{t}|{colour}|{n}|{state[-1]}"
    return f"{t}|{colour}|{n}"


FOXES = "foxes"  # the last head: the foxes; the others are the areas, in sheet order


class ValueModel:
    """Expected final score, from a forecast of each area and of the foxes (see above)."""

    def __init__(self, spec_id: str, heads: tuple[str, ...], weights: dict[str, tuple[float, ...]]) -> None:
        if not heads or heads[-1] != FOXES or any(len(w) != len(heads) for w in weights.values()):
            raise ValueError(f"a {FORMAT} model has one weight per head (the areas, then '{FOXES}') per feature")
        self.spec_id = spec_id
        self.heads = heads
        self.weights = weights
        self._zero = (0.0,) * len(heads)

    def forecast(self, game: Game, player: int, score: Score | None = None) -> tuple[list[float], float]:
        """Each area's expected final score (in ``heads`` order) and the expected final foxes."""
        score = score or game.score(player)
        get, zero = self.weights.get, self._zero
        rows = [get(name, zero) for name in features(game, player, score)]
        learned = [sum(column) for column in zip(*rows, strict=True)]
        if not learned:  # the game is over: nothing more to come
            learned = list(zero)
        areas = [score.areas[a] + learned[i] for i, a in enumerate(self.heads[:-1])]
        return areas, len(game.sheets[player].foxes) + learned[-1]

    def value(self, game: Game, player: int) -> float:
        if game.is_over:
            return game.score(player).total
        areas, foxes = self.forecast(game, player)
        return sum(areas) + max(foxes, 0.0) * fox_value(areas)

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "game": self.spec_id,
            "heads": list(self.heads),
            "weights": {name: list(w) for name, w in self.weights.items()},
        }

    @classmethod
    def from_json(cls, data: dict) -> ValueModel:
        if data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} file")
        heads = tuple(str(h) for h in data["heads"])
        return cls(data["game"], heads, {str(k): tuple(float(x) for x in v) for k, v in data["weights"].items()})


@cache
def shipped_model(game_id: str) -> ValueModel:
    """The weights shipped with the package for this game."""
    path = resources.files("tresfute.bots") / "data" / f"value-{game_id}.json"
    return ValueModel.from_json(json.loads(path.read_text(encoding="utf-8")))

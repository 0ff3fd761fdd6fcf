"""The observation, packed from ready-made float32 pieces, holds exactly the numbers its
documented layout describes: checked against a plain float-by-float encoder written from
docs/environments.md, on every position of seeded random games."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tresfute.envs.observation import PHASES, STAGES, WHERE, encode, encode_bytes, observation_size
from tresfute.rules import Game, Score, Sheet
from tresfute.rules.kinds import ChoiceBonus, EntryBonus, GameSpec, Grid

GAMES = ["tres-fute", "vraiment-tres-fute"]


def clip(x: float) -> float:
    return max(-1.0, min(1.0, x))


def reference_sheet(spec: GameSpec, sheet: Sheet, score: Score) -> list[float]:
    out: list[float] = []
    for letter, area in spec.areas.items():
        state = sheet.areas[letter]
        if isinstance(area, Grid):
            out += [level / area.marks for level in state]  # a cell's level / marks
        else:
            largest = max(b.multiplier for b in area.boxes) * max(max(area.choice_values), 6)
            for i in range(len(area.boxes)):  # each box: filled, number / largest
                out += [1.0, state[i] / largest] if i < len(state) else [0.0, 0.0]
    for track in spec.actions:
        out += [sheet.earned[track.action] / track.circles, sheet.available(track.action) / track.circles]
    out.append(score.foxes / 6)
    out += [clip(points / 100) for points in score.areas.values()]
    out.append(clip(score.fox_value / 100))
    return out


def reference_encode(game: Game, player: int, others: list[Sheet] | None = None) -> list[float]:
    """docs/environments.md's layout, one number at a time."""
    out: list[float] = []
    for i, value in enumerate(game.values):
        out += [float(value == face) for face in range(1, 7)]
        out += [float(game.where[i] == w) for w in WHERE]
        out += [float(i in game.swept), float(i in game.extra_used[player])]
    out += [game.round / game.rounds, game.rolls / 3, game.picks / 3, float(game.active == player)]
    out += [float(game.phase == p) for p in PHASES]
    out += [float(game.stage[player] == s) for s in STAGES]
    areas = list(game.spec.areas)
    pending = [0] * (len(areas) + 1)
    for item in game.pending[player]:
        if isinstance(item.bonus, ChoiceBonus):
            pending[-1] += 1
        elif isinstance(item.bonus, EntryBonus):
            pending[areas.index(item.bonus.area)] += 1
    out += [min(1.0, n / 3) for n in pending]
    out += reference_sheet(game.spec, game.sheets[player], game.score(player))
    for k in range(1, game.n_players):
        seat = (player + k) % game.n_players
        sheet = others[seat] if others is not None else game.sheets[seat]
        out += reference_sheet(game.spec, sheet, sheet.score())
    return out


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("players", [1, 3])
def test_the_packed_observation_holds_the_documented_numbers(game_id: str, players: int) -> None:
    rng = random.Random(players)
    positions = 0
    for seed in range(12 if players == 1 else 4):
        game = Game(game_id, players=players, seed=seed)
        while True:
            for player in range(players):
                expected = np.array(reference_encode(game, player), dtype=np.float32)
                got = encode(game, player)
                assert got.dtype == np.float32 and got.shape == (observation_size(game.spec, players),)
                assert np.array_equal(got, expected), (seed, len(game.history), player)
                positions += 1
            if game.is_over:
                break
            game.play(rng.choice(game.legal_moves()))
    assert positions > 300


def test_an_observation_is_a_fresh_writable_array_and_others_override_the_sheets() -> None:
    game = Game("tres-fute", players=2, seed=3)
    rng = random.Random(3)
    while len(game.history) < 40:
        game.play(rng.choice(game.legal_moves()))
    first, second = encode(game, 0), encode(game, 0)
    first[:] = 0.5  # an agent may normalise in place: the next observation is its own array
    assert not np.array_equal(first, second) and np.array_equal(second, encode(game, 0))
    blank = [Sheet(game.spec), Sheet(game.spec)]
    assert np.array_equal(encode(game, 0, blank), np.array(reference_encode(game, 0, blank), dtype=np.float32))
    assert encode_bytes(game, 0) == encode(game, 0).tobytes()


@pytest.mark.parametrize("game_id", GAMES)
def test_numbers_outside_the_printed_ranges_are_still_encoded_as_documented(game_id: str) -> None:
    """Never in play (the rules keep every level and number in range), but a sheet set by
    hand gets its numbers computed rather than read from a wrong table entry."""
    game = Game(game_id, players=2, seed=1)
    forged = [Sheet(game.spec), Sheet(game.spec)]
    for letter, area in game.spec.areas.items():
        forged[1].areas[letter] = [area.marks + 1] * len(area.cells) if isinstance(area, Grid) else [99]
    got = encode(game, 0, forged)
    assert np.array_equal(got, np.array(reference_encode(game, 0, forged), dtype=np.float32))

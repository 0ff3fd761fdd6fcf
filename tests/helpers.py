"""Helpers for rule tests: positions with dice given from outside."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np

from tresfute.bots.network import Encoder, ValueNetwork
from tresfute.bots.strong import roll_own_dice
from tresfute.rules import CHANCE, SPECS, Game, Move, Sheet
from tresfute.rules.kinds import AREA_NAMES, ActionKind, Grid

TF = SPECS["tres-fute"]
VTF = SPECS["vraiment-tres-fute"]


def cells(area: Grid, names: list[str], level: int = 1) -> list[int]:
    """Grid levels with the named cells ("r1c2") marked."""
    levels = [0] * len(area.cells)
    for name in names:
        row, col = int(name[1]), int(name[3])
        levels[area.cell_index[(row, col)]] = level
    return levels


ZERO_AND_NEGATIVE = {  # silver 15, yellow 0, blue 3, green -16, pink 2; silver column 3: a fox
    "s": [1, 1, 1, 0, 0, 0] + [0, 0, 1, 1, 0, 0] + [0, 0, 1, 0, 0, 0] * 2,
    "b": [12, 10],
    "g": [2, 12, 2, 5, 3, 6],
    "k": [2],
}


def position(game: Game, player: int = 0, earned: dict[str, int] | None = None, **marks: object) -> Game:
    """Put marks on a player's sheet: grids by cell names, tracks by written numbers."""
    sheet: Sheet = game.sheets[player].copy()
    for a, given in marks.items():
        area = game.spec.areas[a]
        if isinstance(area, Grid) and isinstance(given, dict):  # {"r1c2": 2}: circled and crossed
            levels = [0] * len(area.cells)
            for name, level in given.items():
                levels[area.cell_index[(int(name[1]), int(name[3]))]] = level
            sheet.areas[a] = levels
        elif isinstance(area, Grid):
            sheet.areas[a] = cells(area, list(given))  # type: ignore[arg-type]
        else:
            sheet.areas[a] = list(given)  # type: ignore[call-overload]
    for action, n in (earned or {}).items():
        sheet.earned[action] = n  # type: ignore[index]
    game.set_sheet(player, sheet)
    return game


def new_game(players: int = 1, game: str = "tres-fute") -> Game:
    g = Game(game, players=players, dice="external")
    assert g.to_move == CHANCE
    return g


def legal(game: Game, player: int | None = None) -> set[str]:
    return {str(m) for m in game.legal_moves(player)}


def roll_randomly(game: Game, rng: random.Random) -> None:
    """Give the dice due now random values (naming the solo platter, ties broken at random)."""
    roll_own_dice(game, rng)


def play_randomly(game: Game, rng: random.Random, until=lambda game: False) -> None:
    """Random legal moves (and random dice when they come from outside) to the end."""
    while not game.is_over and not until(game):
        if game.to_move == CHANCE:
            roll_randomly(game, rng)
        else:
            game.play(rng.choice(game.legal_moves()))


def random_decisions(game: Game, rng: random.Random, share: float) -> Iterator[tuple[int, list[Move]]]:
    """As :func:`play_randomly`, to the end, about a ``share`` of the decisions with a choice
    given out (player and legal moves) before the move is played."""
    while not game.is_over:
        player = game.to_move
        assert player is not None
        if player == CHANCE:
            roll_randomly(game, rng)
            continue
        moves = game.legal_moves(player)
        if len(moves) > 1 and rng.random() < share:
            yield player, moves
        game.play(rng.choice(moves), player)


def bonus_choices(game: Game, area: str, player: int = 0) -> set[str]:
    """The bonus moves a free entry in ``area`` allows: any free cell, or any value that fits."""
    spec_area = game.spec.areas[area]
    state = game.sheets[player].areas[area]
    if isinstance(spec_area, Grid):
        cells = zip(spec_area.cells, state, strict=True)
        return {f"!{area}@r{c.row}c{c.col}" for c, level in cells if level < spec_area.marks}
    return {f"!{area}={v}" for v in spec_area.choice_values if spec_area.accepts(state, v, from_bonus=True)}


def assert_bonus_effect(game: Game, before: Sheet, name: str, effect: object) -> None:
    """``effect``: "fox", an action name, ("area", written) entered at once, or "choose <area>"."""
    sheet = game.sheets[0]
    if effect == "fox":
        assert len(sheet.foxes) == len(before.foxes) + 1
        assert sheet.foxes[-1] in name
    elif effect in ("reroll", "plus_one", "reprise"):
        action = ActionKind(effect)
        assert sheet.earned[action] == before.earned[action] + 1
    elif isinstance(effect, tuple):  # a single target: entered at once
        area, expected = effect
        assert sheet.areas[area][-len(expected) :] == expected
        assert len(sheet.areas[area]) == len(before.areas[area]) + 1
    else:  # the player chooses the entry
        area = str(effect).split()[1]
        assert game.pending[0][0].source in name
        assert legal(game) == bonus_choices(game, area)


def paper_of(sheet: Sheet) -> dict[str, Any]:
    """What a player would type for a sheet: crossed cells, circled/crossed, counts, numbers."""
    areas: dict[str, Any] = {}
    for a, area in sheet.spec.areas.items():
        state = sheet.areas[a]
        if isinstance(area, Grid):
            names = [f"r{c.row}c{c.col}" for c in area.cells]
            if area.marks == 1:
                areas[AREA_NAMES[a]] = [n for n, level in zip(names, state, strict=True) if level]
            else:
                areas[AREA_NAMES[a]] = {
                    "circled": [n for n, level in zip(names, state, strict=True) if level >= 1],
                    "crossed": [n for n, level in zip(names, state, strict=True) if level >= 2],
                }
        elif area.crosses:
            areas[AREA_NAMES[a]] = len(state)
        else:
            areas[AREA_NAMES[a]] = list(state)
    return {"game": sheet.spec.id, "areas": areas, "foxes": len(sheet.foxes)}


def exact_network(game_id: str, seed: int = 0) -> ValueNetwork:
    """A network whose arithmetic is exact in float32, whatever the order of its sums: weights
    that are small multiples of 1/16 (the output's of 1/1024) on the inputs that are 0 or 1, and
    zero on the others. Its values do not depend on how positions are batched, so the batched
    search can be compared with the plain one bit for bit."""
    rng = np.random.default_rng(seed)
    names = Encoder(SPECS[game_id]).names
    fractional = ("share", "points", "openness", "score", "earned", "fox", "pending")
    binary = np.array([not any(word in name for word in fractional) for name in names])
    w0 = rng.integers(-4, 5, (len(names), 16)) / 16 * binary[:, None]
    w1 = rng.integers(-4, 5, (16, 16)) / 16
    w2 = rng.integers(-4, 5, (16, 1)) / 1024
    biases = [rng.integers(-4, 5, n) / 16 for n in (16, 16, 1)]
    return ValueNetwork(game_id, [(w0, biases[0]), (w1, biases[1]), (w2, biases[2])])

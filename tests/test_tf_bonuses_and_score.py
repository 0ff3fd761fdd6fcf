"""Très futé: bonus chains, lost bonuses, the player's order, foxes and the winner."""

from __future__ import annotations

import pytest

from tresfute.rules import IllegalMoveError, Sheet, winners
from tresfute.rules.kinds import ActionKind

from helpers import TF, cells, legal, new_game, position


def test_a_chain_of_four_bonuses_resolves_before_play_goes_on() -> None:
    """Purple 10 gives orange 6 -> orange box 5 gives yellow X -> completing yellow row 3
    gives green X -> green box 4 gives +1. Chains resolve fully, then play goes on."""
    game = position(new_game(), p=[1, 2, 3, 4, 5, 6, 1, 2, 3], o=[1, 1, 1, 2], y=["r3c1", "r3c3"], g=[0, 0, 0])
    game.play("dice w5 y5 b5 g5 o5 p4")
    game.play("p")
    sheet = game.sheets[0]
    assert sheet.areas["o"] == [1, 1, 1, 2, 6]  # orange 6 entered at once (one target)
    assert game.pending[0][0].source == "orange box 5"
    assert game.to_move == 0 and all(m.startswith("!y@") for m in legal(game))
    with pytest.raises(IllegalMoveError, match="must first resolve the bonus: yellow"):
        game.play("done")
    game.play("!y@r3c4")  # completes row 3: green X, entered at once
    assert sheet.areas["g"] == [0, 0, 0, 0]
    assert sheet.earned[ActionKind.PLUS_ONE] == 1  # green box 4
    assert game.dice_to_roll() == ["w", "y", "b", "g", "o"]  # only now is the next roll due


def test_a_bonus_with_no_target_is_lost() -> None:
    """An X or number bonus with no free box is lost; it cannot be kept."""
    full_yellow = [f"r{r}c{c}" for r in range(1, 5) for c in range(1, 5) if r + c != 5]
    game = position(new_game(), y=full_yellow, o=[1, 1, 1, 2])
    game.play("dice w1 y1 b1 g1 o2 p1")
    game.play("o")  # orange box 5: yellow X, but yellow is full
    assert [(p, str(item.bonus), item.source) for p, item in game.lost_bonuses] == [(0, "yellow X", "orange box 5")]
    assert game.pending == [[]]


def test_simultaneous_bonuses_are_resolved_in_the_players_order() -> None:
    """Blue 3 completes row 1 (orange 5) and column 3 (purple 6): the player picks the order."""
    game = position(new_game(), b=["r1c2", "r1c4", "r2c3", "r3c3"], o=[1, 1, 1])
    game.play("dice w2 y1 b1 g1 o1 p1")
    game.play("b@r1c3")
    assert legal(game) == {"!o=5", "!p=6"}
    game.play("!p=6")
    sheet = game.sheets[0]
    assert sheet.areas["p"] == [6] and sheet.areas["o"] == [1, 1, 1, 10]  # the x2 box


def test_a_box_completing_a_row_and_a_column_gives_both_bonuses() -> None:
    """Blue 6 completes row 2 (yellow X) and column 2 (green X): both, in the player's order."""
    game = position(new_game(), b=["r2c1", "r2c3", "r2c4", "r1c2", "r3c2"])
    game.play("dice w3 y1 b3 g1 o1 p1")
    game.play("b@r2c2")
    moves = legal(game)
    assert "!g" in moves and {m for m in moves if m != "!g"} == {
        f"!y@r{c.row}c{c.col}"
        for c in TF.areas["y"].cells  # type: ignore[union-attr]
    }
    game.play("!g")
    assert game.sheets[0].areas["g"] == [0]
    assert all(m.startswith("!y@") for m in legal(game))
    game.play("!y@r2c2")
    assert game.pending == [[]]


# --- foxes and the final score ------------------------------------------------------


def sheet_with(**marks: list) -> Sheet:
    """A finished sheet: grids by crossed cell names, tracks by written numbers."""
    return Sheet.from_marks(
        TF,
        {
            a: cells(TF.areas[a], m) if a in "yb" else m  # type: ignore[arg-type]
            for a, m in marks.items()
        },
    )


BLUE_4 = ["r1c2", "r1c3", "r2c1", "r2c2"]  # 4 crosses: 7 points


def test_each_fox_is_worth_the_lowest_area() -> None:
    """A fox is worth the player's lowest area score (orange at 5 here)."""
    sheet = sheet_with(y=["r4c2", "r4c3", "r4c4"], b=BLUE_4, g=[0] * 5, o=[5], p=[2, 5, 6, 3, 4, 5, 6])
    score = sheet.score()
    assert score.areas == {"y": 0, "b": 7, "g": 15, "o": 5, "p": 31}
    assert score.foxes == 2 and score.fox_value == 0  # yellow scores 0: every fox is worth 0
    assert score.total == 58
    sheet = sheet_with(y=["r4c2", "r4c3", "r4c4", "r2c4", "r3c4"], b=BLUE_4, g=[0] * 5, o=[5], p=[2, 5, 6, 3, 4, 5, 6])
    score = sheet.score()
    assert score.areas["y"] == 20 and score.fox_value == 5
    assert sorted(sheet.foxes) == ["purple box 7", "yellow row 4"]
    assert score.total == 20 + 7 + 15 + 5 + 31 + 2 * 5


def test_ties_go_to_the_highest_single_area_then_are_shared() -> None:
    """Equal totals: the best single area wins; still equal, the victory is shared."""
    a = sheet_with(o=[6, 6, 6, 12, 6], p=[1, 2])  # 36 + 3 = 39
    b = sheet_with(o=[6, 6, 6, 12], p=[1, 2, 3, 4, 5])  # 30 + 15 = 45
    assert winners([a.score(), b.score()]) == [1]
    tied_low = sheet_with(o=[6, 6, 6, 2], p=[1, 2, 3, 4, 5, 6, 1])  # 20 + 22 = 42, best area 22
    tied_high = sheet_with(o=[6, 6, 6, 12, 6, 1, 2], p=[3])  # 39 + 3 = 42, best area 39
    assert tied_low.score().total == tied_high.score().total == 42
    assert winners([tied_low.score(), tied_high.score()]) == [1]
    assert winners([tied_high.score(), tied_high.copy().score()]) == [0, 1]

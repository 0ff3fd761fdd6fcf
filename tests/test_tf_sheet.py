"""Très futé: every number of the printed sheet, and every bonus reached in play."""

from __future__ import annotations

import pytest

from tresfute.rules import Sheet
from tresfute.rules.kinds import ActionKind, Grid, Track

from helpers import TF, assert_bonus_effect, cells, new_game, position

YELLOW, BLUE, GREEN, ORANGE, PURPLE = (TF.areas[a] for a in "ybgop")


def score_of(**marks: object) -> dict[str, int]:
    sheet = Sheet(TF)
    for a, given in marks.items():
        area = TF.areas[a]
        sheet.areas[a] = cells(area, given) if isinstance(area, Grid) else list(given)  # type: ignore[arg-type]
    return sheet.score().areas


# --- the printed numbers ---------------------------------------------------------------


def test_yellow_grid_numbers_and_prefilled_diagonal() -> None:
    """Yellow: 3 6 5 X / 2 1 X 5 / 1 X 2 4 / X 3 4 6; the X cells are never markable."""
    assert isinstance(YELLOW, Grid)
    printed = {(c.row, c.col): c.value for c in YELLOW.cells}
    assert printed == {
        (1, 1): 3,
        (1, 2): 6,
        (1, 3): 5,
        (2, 1): 2,
        (2, 2): 1,
        (2, 4): 5,
        (3, 1): 1,
        (3, 3): 2,
        (3, 4): 4,
        (4, 2): 3,
        (4, 3): 4,
        (4, 4): 6,
    }
    assert sorted(printed.values()) == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]


@pytest.mark.parametrize(
    ("crossed", "points"),
    [
        (["r2c1", "r3c1"], 10),  # column 1 (r1c1 is 3; r4c1 is printed X)
        (["r1c1", "r2c1", "r3c1"], 10),
        (["r1c2", "r2c2", "r4c2"], 14),
        (["r1c3", "r3c3", "r4c3"], 16),
        (["r2c4", "r3c4", "r4c4"], 20),
        (["r1c1", "r2c1", "r3c1", "r1c3", "r3c3", "r4c3", "r2c4", "r3c4", "r4c4"], 46),
        ([f"r{r}c{c}" for r in range(1, 5) for c in range(1, 5) if r + c != 5], 60),
        (["r1c1", "r1c2", "r1c3"], 0),  # rows score nothing
    ],
)
def test_yellow_scores_completed_columns(crossed: list[str], points: int) -> None:
    """Yellow scores the points under each completed column: 10, 14, 16, 20 (max 60)."""
    if crossed == ["r2c1", "r3c1"]:
        points = 0  # r1c1 is still open: column 1 is not complete
    assert score_of(y=crossed)["y"] == points


BLUE_TABLE = [0, 1, 2, 4, 7, 11, 16, 22, 29, 37, 46, 56]


@pytest.mark.parametrize("crosses", range(12))
def test_blue_scores_by_number_of_crosses(crosses: int) -> None:
    """Blue: 1, 2, 4, 7, 11, 16, 22, 29, 37, 46, 56 points for 1 to 11 crosses."""
    assert isinstance(BLUE, Grid)
    names = [f"r{c.row}c{c.col}" for c in BLUE.cells][:crosses]
    assert score_of(b=names)["b"] == BLUE_TABLE[crosses]


def test_blue_boxes_hold_each_sum_once() -> None:
    """Blue: the picture, 2 3 4 / 5 6 7 8 / 9 10 11 12: one box per sum 2 to 12."""
    assert isinstance(BLUE, Grid)
    assert {(c.row, c.col): c.value for c in BLUE.cells} == {
        (1, 2): 2,
        (1, 3): 3,
        (1, 4): 4,
        (2, 1): 5,
        (2, 2): 6,
        (2, 3): 7,
        (2, 4): 8,
        (3, 1): 9,
        (3, 2): 10,
        (3, 3): 11,
        (3, 4): 12,
    }


def test_green_minimums_and_points() -> None:
    """Green: minimums 1 2 3 4 5 1 2 3 4 5 6; points 1 3 6 10 15 21 28 36 45 55 66."""
    assert isinstance(GREEN, Track)
    assert [b.minimum for b in GREEN.boxes] == [1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 6]
    points = [0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66]
    for n in range(12):
        assert score_of(g=[0] * n)["g"] == points[n]


def test_orange_multipliers_and_sum() -> None:
    """Orange multipliers 1 1 1 x2 1 1 x2 1 x2 1 x3; the score is the sum written (max 96)."""
    assert isinstance(ORANGE, Track)
    assert [b.multiplier for b in ORANGE.boxes] == [1, 1, 1, 2, 1, 1, 2, 1, 2, 1, 3]
    assert score_of(o=[5, 2, 3, 12])["o"] == 22
    assert score_of(o=[6 * b.multiplier for b in ORANGE.boxes])["o"] == 96


def test_purple_sum() -> None:
    """Purple scores the sum: 2, 5, 6, 3 = 16; max 66."""
    assert score_of(p=[2, 5, 6, 3])["p"] == 16
    assert score_of(p=[6] * 11)["p"] == 66


def test_action_tracks_round_track_and_rounds() -> None:
    """Two tracks of 7 circles; round gifts reroll, +1, reroll, black X or 6; 6/6/5/4 rounds."""
    assert [(t.action, t.circles) for t in TF.actions] == [(ActionKind.REROLL, 7), (ActionKind.PLUS_ONE, 7)]
    assert [str(g) for g in TF.round_gifts] == ["reroll", "+1", "reroll", "black X or 6", "None", "None"]
    assert TF.rounds_by_players == {1: 6, 2: 6, 3: 5, 4: 4}


def test_upper_bound_is_624() -> None:
    """Everything filled with 5 foxes: 60 + 56 + 66 + 96 + 66 + 5 x 56 = 624."""
    sheet = Sheet.from_marks(
        TF,
        {
            "y": [1] * 12,
            "b": [1] * 11,
            "g": [0] * 11,
            "o": [6 * b.multiplier for b in ORANGE.boxes],  # type: ignore[union-attr]
            "p": [6] * 11,
        },
    )
    assert sheet.score().total == 624
    assert len(sheet.foxes) == 5


@pytest.mark.parametrize(
    ("points", "label", "stars"),
    [
        (281, "Super malin\u00a0!", 5),
        (280, "Tu ne t’appellerais pas Albert Einstein, par hasard\u00a0?", 4),
        (260, "Tu ne t’appellerais pas Albert Einstein, par hasard\u00a0?", 4),
        (259, "Quel génie\u00a0!", 4),
        (240, "Quel génie\u00a0!", 4),
        (239, "Impressionnant\u00a0!", 3),
        (220, "Impressionnant\u00a0!", 3),
        (219, "Je te tire mon chapeau\u00a0!", 2),
        (200, "Je te tire mon chapeau\u00a0!", 2),
        (199, "Très bon résultat\u00a0!", 1),
        (180, "Très bon résultat\u00a0!", 1),
        (179, "C’est déjà bien.", 1),
        (160, "C’est déjà bien.", 1),
        (159, "Pas mal, mais tu feras mieux la prochaine fois.", 1),
        (140, "Pas mal, mais tu feras mieux la prochaine fois.", 1),
        (139, "Bon espoir d’amélioration\u00a0!", 0),
        (0, "Bon espoir d’amélioration\u00a0!", 0),
    ],
)
def test_solo_rating_bands(points: int, label: str, stars: int) -> None:
    """The solo table: > 280, 260-280, 240-259, 220-239, ..., < 140."""
    band = TF.rating(points)
    assert (band.label_fr, band.stars) == (label, stars)
    assert band.label_en


# --- every bonus in its place, reached in play --------------------------------------
# Each case: marks already on the sheet, the roll, the pick, and what the bonus does.

BONUS_CASES = [
    # yellow rows and the diagonal
    ("yellow row 1: blue X", {"y": ["r1c1", "r1c2"]}, "w1 y5 b1 g1 o1 p1", "y@r1c3", "choose b"),
    ("yellow row 2: orange 4", {"y": ["r2c1", "r2c2"]}, "w1 y5 b1 g1 o1 p1", "y@r2c4", ("o", [4])),
    ("yellow row 3: green X", {"y": ["r3c1", "r3c3"]}, "w1 y4 b1 g1 o1 p1", "y@r3c4", ("g", [0])),
    ("yellow row 4: fox", {"y": ["r4c2", "r4c3"]}, "w1 y6 b1 g1 o1 p1", "y@r4c4", "fox"),
    ("yellow diagonal: +1", {"y": ["r1c1", "r2c2", "r3c3"]}, "w1 y6 b1 g1 o1 p1", "y@r4c4", "plus_one"),
    # blue rows and columns (sum of blue and white)
    ("blue row 1: orange 5", {"b": ["r1c2", "r1c3"]}, "w2 y1 b2 g1 o1 p1", "b@r1c4", ("o", [5])),
    ("blue row 2: yellow X", {"b": ["r2c1", "r2c2", "r2c3"]}, "w4 y1 b4 g1 o1 p1", "b@r2c4", "choose y"),
    ("blue row 3: fox", {"b": ["r3c1", "r3c2", "r3c3"]}, "w6 y1 b6 g1 o1 p1", "b@r3c4", "fox"),
    ("blue column 1: reroll", {"b": ["r2c1"]}, "w4 y1 b5 g1 o1 p1", "b@r3c1", "reroll"),
    ("blue column 2: green X", {"b": ["r1c2", "r2c2"]}, "w5 y1 b5 g1 o1 p1", "b@r3c2", ("g", [0])),
    ("blue column 3: purple 6", {"b": ["r1c3", "r2c3"]}, "w5 y1 b6 g1 o1 p1", "b@r3c3", ("p", [6])),
    ("blue column 4: +1", {"b": ["r1c4", "r2c4"]}, "w6 y1 b6 g1 o1 p1", "b@r3c4", "plus_one"),
    # green boxes
    ("green box 4: +1", {"g": [0] * 3}, "w1 y1 b1 g4 o1 p1", "g", "plus_one"),
    ("green box 6: blue X", {"g": [0] * 5}, "w1 y1 b1 g1 o1 p1", "g", "choose b"),
    ("green box 7: fox", {"g": [0] * 6}, "w1 y1 b1 g2 o1 p1", "g", "fox"),
    ("green box 9: purple 6", {"g": [0] * 8}, "w1 y1 b1 g4 o1 p1", "g", ("p", [6])),
    ("green box 10: reroll", {"g": [0] * 9}, "w1 y1 b1 g5 o1 p1", "g", "reroll"),
    # orange boxes
    ("orange box 3: reroll", {"o": [1, 1]}, "w1 y1 b1 g1 o2 p1", "o", "reroll"),
    ("orange box 5: yellow X", {"o": [1, 1, 1, 2]}, "w1 y1 b1 g1 o2 p1", "o", "choose y"),
    ("orange box 6: +1", {"o": [1, 1, 1, 2, 1]}, "w1 y1 b1 g1 o2 p1", "o", "plus_one"),
    ("orange box 8: fox", {"o": [1, 1, 1, 2, 1, 1, 2]}, "w1 y1 b1 g1 o2 p1", "o", "fox"),
    ("orange box 10: purple 6", {"o": [1, 1, 1, 2, 1, 1, 2, 1, 2]}, "w1 y1 b1 g1 o2 p1", "o", ("p", [6])),
    # purple boxes
    ("purple box 3: reroll", {"p": [1, 2]}, "w1 y1 b1 g1 o1 p3", "p", "reroll"),
    ("purple box 4: blue X", {"p": [1, 2, 3]}, "w1 y1 b1 g1 o1 p4", "p", "choose b"),
    ("purple box 5: +1", {"p": [1, 2, 3, 4]}, "w1 y1 b1 g1 o1 p5", "p", "plus_one"),
    ("purple box 6: yellow X", {"p": [1, 2, 3, 4, 5]}, "w1 y1 b1 g1 o1 p6", "p", "choose y"),
    ("purple box 7: fox", {"p": [1, 2, 3, 4, 5, 6]}, "w1 y1 b1 g1 o1 p2", "p", "fox"),
    ("purple box 8: reroll", {"p": [1, 2, 3, 4, 5, 6, 1]}, "w1 y1 b1 g1 o1 p2", "p", "reroll"),
    ("purple box 9: green X", {"p": [1, 2, 3, 4, 5, 6, 1, 2]}, "w1 y1 b1 g1 o1 p3", "p", ("g", [0])),
    ("purple box 10: orange 6", {"p": [1, 2, 3, 4, 5, 6, 1, 2, 3]}, "w1 y1 b1 g1 o1 p4", "p", ("o", [6])),
    ("purple box 11: +1", {"p": [1, 2, 3, 4, 5, 6, 1, 2, 3, 4]}, "w1 y1 b1 g1 o1 p5", "p", "plus_one"),
]


@pytest.mark.parametrize(("name", "marks", "dice", "pick", "effect"), BONUS_CASES, ids=[c[0] for c in BONUS_CASES])
def test_bonus_fires_when_its_box_or_line_is_filled(name, marks, dice, pick, effect) -> None:
    game = position(new_game(), **marks)
    before = game.sheets[0].copy()
    game.play(f"dice {dice}")
    game.play(pick)
    assert_bonus_effect(game, before, name, effect)

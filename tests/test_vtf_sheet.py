"""Vraiment très futé: every number of the printed sheet, every bonus and fox reached in play."""

from __future__ import annotations

import pytest

from tresfute.rules import Sheet
from tresfute.rules.kinds import ActionKind, Grid, Track

from helpers import VTF, assert_bonus_effect, bonus_choices, legal, new_game, position

SILVER, YELLOW, BLUE, GREEN, PINK = (VTF.areas[a] for a in "sybgk")


def vtf() -> object:
    return new_game(game="vraiment-tres-fute")


def score_of(**marks: list[int]) -> dict[str, int]:
    sheet = Sheet(VTF)
    for a, state in marks.items():
        sheet.areas[a] = list(state)
    return sheet.score().areas


# --- the printed numbers ---------------------------------------------------------------


def test_silver_rows_belong_to_the_colours_and_hold_one_to_six() -> None:
    assert isinstance(SILVER, Grid)
    assert SILVER.row_colours == ("y", "b", "g", "k")
    assert [(c.row, c.col, c.value) for c in SILVER.cells] == [(r, v, v) for r in range(1, 5) for v in range(1, 7)]


@pytest.mark.parametrize(("crosses", "points"), [(0, 0), (1, 2), (2, 4), (3, 7), (4, 11), (5, 16), (6, 22)])
def test_silver_scores_each_row_by_its_crosses(crosses: int, points: int) -> None:
    """Silver: 2, 4, 7, 11, 16, 22 for 1 to 6 crosses in a row; the rows add up (max 88)."""
    one_row = [1] * crosses + [0] * (24 - crosses)
    assert score_of(s=one_row)["s"] == points
    assert score_of(s=[1] * 24)["s"] == 88


def test_yellow_numbers_and_crosses_table() -> None:
    """Yellow: ·3·6 / 1·2· / ·4·3 / 2·5· / ·5·4; points by crosses 3 10 21 36 55 75 96 118 141 165."""
    assert isinstance(YELLOW, Grid)
    assert {(c.row, c.col): c.value for c in YELLOW.cells} == {
        (1, 2): 3,
        (1, 4): 6,
        (2, 1): 1,
        (2, 3): 2,
        (3, 2): 4,
        (3, 4): 3,
        (4, 1): 2,
        (4, 3): 5,
        (5, 2): 5,
        (5, 4): 4,
    }
    table = [0, 3, 10, 21, 36, 55, 75, 96, 118, 141, 165]
    for n in range(11):
        assert score_of(y=[2] * n + [0] * (10 - n))["y"] == table[n]
    assert score_of(y=[1] * 10)["y"] == 0  # circled numbers without a cross score nothing


def test_blue_points_by_last_filled_box() -> None:
    assert isinstance(BLUE, Track)
    points = [0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78]
    for n in range(13):
        assert score_of(b=[12] * n)["b"] == points[n]
    assert score_of(b=[9, 8, 8, 5, 2])["b"] == 15  # the rulebook's example: 5 boxes


def test_green_multipliers_and_pairs() -> None:
    """x2 x2 x2 x1 x3 x3 x3 x2 x3 x1 x4 x1; each pair scores first - second; half pairs 0."""
    assert isinstance(GREEN, Track)
    assert [b.multiplier for b in GREEN.boxes] == [2, 2, 2, 1, 3, 3, 3, 2, 3, 1, 4, 1]
    assert score_of(g=[10, 2])["g"] == 8  # the rulebook: 5 x 2 then 1 x 2
    assert score_of(g=[10, 2, 12])["g"] == 8  # a half-filled pair scores 0
    assert score_of(g=[2, 12])["g"] == -10  # negative scores are allowed
    assert score_of(g=[12, 2, 12, 1, 18, 3, 18, 2, 18, 1, 24, 1])["g"] == 92
    assert score_of(g=[2, 12, 2, 6, 3, 18, 3, 12, 3, 6, 4, 6])["g"] == -43


def test_pink_minimums_and_sum() -> None:
    assert isinstance(PINK, Track)
    assert [b.bonus_minimum for b in PINK.boxes] == [0, 0, 2, 3, 4, 5, 6, 2, 3, 4, 5, 6]
    assert score_of(k=[5, 3, 1, 4])["k"] == 13
    assert score_of(k=[6] * 12)["k"] == 72


def test_action_tracks_with_end_bonuses_and_round_track() -> None:
    assert [(t.action, t.circles, str(t.end_bonus)) for t in VTF.actions] == [
        (ActionKind.REROLL, 6, "fox"),
        (ActionKind.REPRISE, 6, "pink ?"),
        (ActionKind.PLUS_ONE, 6, "silver ?"),
    ]
    assert [str(g) for g in VTF.round_gifts] == ["reroll", "+1", "reprise", "black ?", "None", "None"]
    assert VTF.rounds_by_players == {1: 6, 2: 6, 3: 5, 4: 4}


def test_each_action_can_be_earned_in_exactly_six_places() -> None:
    """So the 6-circle tracks never overflow (round track included)."""

    def count(action: ActionKind) -> int:
        n = sum(1 for g in VTF.round_gifts if getattr(g, "action", None) is action)
        for area in VTF.areas.values():
            bonuses = [line.bonus for line in area.lines] if isinstance(area, Grid) else [b.bonus for b in area.boxes]
            n += sum(1 for b in bonuses if getattr(b, "action", None) is action)
        return n

    assert [count(a) for a in ActionKind] == [6, 6, 6]


@pytest.mark.parametrize(
    ("points", "label"),
    [
        (400, "Vraiment très futé\u00a0!"),
        (320, "Vraiment très futé\u00a0!"),
        (319, "Le nombre de points obtenu correspond à ton QI\u00a0!"),
        (300, "Le nombre de points obtenu correspond à ton QI\u00a0!"),
        (299, "Respect\u00a0!"),
        (280, "Respect\u00a0!"),
        (279, "Ça ne peut pas être dû au hasard\u00a0!"),
        (259, "Voyez-vous ça\u00a0!"),
        (239, "Très futé\u00a0!"),
        (219, "Voilà quelqu’un qui s’est entraîné\u00a0!"),
        (199, "Tu peux être content de toi\u00a0!"),
        (179, "Sur la bonne voie."),
        (159, "Fermons les yeux pour cette fois."),
        (140, "Fermons les yeux pour cette fois."),
        (139, "Moyennement futé."),
        (-20, "Moyennement futé."),
    ],
)
def test_solo_rating_bands(points: int, label: str) -> None:
    assert VTF.rating(points).label_fr == label
    assert VTF.rating(points).label_en


def test_maximum_per_area() -> None:
    assert score_of(s=[1] * 24, y=[2] * 10, b=[12] * 12, k=[6] * 12) == {"s": 88, "y": 165, "b": 78, "g": 0, "k": 72}


# --- every bonus and fox in its place, reached in play -----------------------------
# (marks on the sheet, the roll, the pick, the effect). Other dice show 6 so a silver pick
# sweeps nothing.

CASES = [
    ("silver column 1: +1", {"s": ["r1c1", "r2c1", "r3c1"]}, "w6 s1 y6 b6 g6 k6", "s@r4c1", "plus_one"),
    ("silver column 2: yellow ?", {"s": ["r1c2", "r2c2", "r3c2"]}, "w6 s2 y6 b6 g6 k6", "s@r4c2", "choose y"),
    ("silver column 3: fox", {"s": ["r1c3", "r2c3", "r3c3"]}, "w6 s3 y6 b6 g6 k6", "s@r4c3", "fox"),
    ("silver column 4: blue ?", {"s": ["r1c4", "r2c4", "r3c4"]}, "w6 s4 y6 b6 g6 k6", "s@r4c4", "choose b"),
    ("silver column 5: green ?", {"s": ["r1c5", "r2c5", "r3c5"]}, "w6 s5 y6 b6 g6 k6", "s@r4c5", "choose g"),
    ("silver column 6: pink ?", {"s": ["r1c6", "r2c6", "r3c6"]}, "w6 s6 y6 b6 g6 k6", "s@r4c6", "choose k"),
    ("yellow row 1: blue ?", {"y": ["r1c2"]}, "w1 s1 y6 b1 g1 k1", "y@r1c4", "choose b"),
    ("yellow row 2: reprise", {"y": ["r2c1"]}, "w1 s1 y2 b1 g1 k1", "y@r2c3", "reprise"),
    ("yellow row 3: yellow ?", {"y": ["r3c2"]}, "w1 s1 y3 b1 g1 k1", "y@r3c4", "choose y"),
    ("yellow row 4: green ?", {"y": ["r4c1"]}, "w1 s1 y5 b1 g1 k1", "y@r4c3", "choose g"),
    ("yellow row 5: pink ?", {"y": ["r5c2"]}, "w1 s1 y4 b1 g1 k1", "y@r5c4", "choose k"),
    ("yellow column 1: reroll", {"y": ["r2c1"]}, "w1 s1 y2 b1 g1 k1", "y@r4c1", "reroll"),
    ("yellow column 2: +1", {"y": ["r1c2", "r3c2"]}, "w1 s1 y5 b1 g1 k1", "y@r5c2", "plus_one"),
    ("yellow column 3: silver ?", {"y": ["r2c3"]}, "w1 s1 y5 b1 g1 k1", "y@r4c3", "choose s"),
    ("yellow column 4: fox", {"y": ["r1c4", "r3c4"]}, "w1 s1 y4 b1 g1 k1", "y@r5c4", "fox"),
    ("blue box 2: reprise", {"b": [12]}, "w1 s1 y1 b1 g1 k1", "b", "reprise"),
    ("blue box 3: yellow ?", {"b": [12] * 2}, "w1 s1 y1 b1 g1 k1", "b", "choose y"),
    ("blue box 5: +1", {"b": [12] * 4}, "w1 s1 y1 b1 g1 k1", "b", "plus_one"),
    ("blue box 6: reroll", {"b": [12] * 5}, "w1 s1 y1 b1 g1 k1", "b", "reroll"),
    ("blue box 7: pink ?", {"b": [12] * 6}, "w1 s1 y1 b1 g1 k1", "b", "choose k"),
    ("blue box 9: fox", {"b": [12] * 8}, "w1 s1 y1 b1 g1 k1", "b", "fox"),
    ("blue box 10: reprise", {"b": [12] * 9}, "w1 s1 y1 b1 g1 k1", "b", "reprise"),
    ("blue box 12: green ?", {"b": [12] * 11}, "w1 s1 y1 b1 g1 k1", "b", "choose g"),
    ("green box 2: reroll", {"g": [2]}, "w1 s1 y1 b1 g1 k1", "g", "reroll"),
    ("green box 4: blue ?", {"g": [2] * 3}, "w1 s1 y1 b1 g1 k1", "g", "choose b"),
    ("green box 5: reprise", {"g": [2] * 4}, "w1 s1 y1 b1 g1 k1", "g", "reprise"),
    ("green box 7: fox", {"g": [2] * 6}, "w1 s1 y1 b1 g1 k1", "g", "fox"),
    ("green box 8: silver ?", {"g": [2] * 7}, "w1 s1 y1 b1 g1 k1", "g", "choose s"),
    ("green box 9: +1", {"g": [2] * 8}, "w1 s1 y1 b1 g1 k1", "g", "plus_one"),
    ("green box 11: pink ?", {"g": [2] * 10}, "w1 s1 y1 b1 g1 k1", "g", "choose k"),
    ("green box 12: yellow ?", {"g": [2] * 11}, "w1 s1 y1 b1 g1 k1", "g", "choose y"),
    ("pink box 3: reroll", {"k": [1] * 2}, "w1 s1 y1 b1 g1 k2", "k", "reroll"),
    ("pink box 4: reprise", {"k": [1] * 3}, "w1 s1 y1 b1 g1 k3", "k", "reprise"),
    ("pink box 5: +1", {"k": [1] * 4}, "w1 s1 y1 b1 g1 k4", "k", "plus_one"),
    ("pink box 6: green ?", {"k": [1] * 5}, "w1 s1 y1 b1 g1 k5", "k", "choose g"),
    ("pink box 7: yellow ?", {"k": [1] * 6}, "w1 s1 y1 b1 g1 k6", "k", "choose y"),
    ("pink box 8: fox", {"k": [1] * 7}, "w1 s1 y1 b1 g1 k2", "k", "fox"),
    ("pink box 9: silver ?", {"k": [1] * 8}, "w1 s1 y1 b1 g1 k3", "k", "choose s"),
    ("pink box 10: reroll", {"k": [1] * 9}, "w1 s1 y1 b1 g1 k4", "k", "reroll"),
    ("pink box 11: blue ?", {"k": [1] * 10}, "w1 s1 y1 b1 g1 k5", "k", "choose b"),
    ("pink box 12: yellow ?", {"k": [1] * 11}, "w1 s1 y1 b1 g1 k6", "k", "choose y"),
]


@pytest.mark.parametrize(("name", "marks", "dice", "pick", "effect"), CASES, ids=[c[0] for c in CASES])
def test_bonus_fires_in_its_place(name, marks, dice, pick, effect) -> None:
    game = position(vtf(), **marks)
    before = game.sheets[0].copy()
    game.play(f"dice {dice}")
    game.play(pick)
    assert_bonus_effect(game, before, name, effect)


def test_pink_bonus_is_lost_below_the_minimum() -> None:
    """A value below the box's minimum is written, but the bonus is lost for good."""
    game = position(vtf(), k=[1] * 7)
    game.play("dice w1 s1 y1 b1 g1 k1")
    game.play("k")  # box 8 needs 2 for its fox
    assert game.sheets[0].areas["k"][-1] == 1 and game.sheets[0].foxes == []


@pytest.mark.parametrize(
    ("action", "earned_before", "end", "where"),
    [
        (ActionKind.REROLL, 5, "fox", ("yellow column 1", {"y": ["r2c1"]}, "w1 s1 y2 b1 g1 k1", "y@r4c1")),
        (ActionKind.REPRISE, 5, "choose k", ("yellow row 2", {"y": ["r2c1"]}, "w1 s1 y2 b1 g1 k1", "y@r2c3")),
        (
            ActionKind.PLUS_ONE,
            5,
            "choose s",
            ("silver column 1", {"s": ["r1c1", "r2c1", "r3c1"]}, "w6 s1 y6 b6 g6 k6", "s@r4c1"),
        ),
    ],
)
def test_the_last_circle_of_an_action_track_gives_its_bonus(action, earned_before, end, where) -> None:
    """Sixth reroll: a fox; sixth reprise: pink ?; sixth +1: silver ?."""
    _, marks, dice, pick = where
    game = position(vtf(), earned={action: earned_before}, **marks)
    game.play(f"dice {dice}")
    game.play(pick)
    sheet = game.sheets[0]
    assert sheet.earned[action] == 6
    if end == "fox":
        assert sheet.foxes == ["reroll track complete"]
    else:
        area = end.split()[1]
        assert game.pending[0][0].source == f"{'reprise' if action is ActionKind.REPRISE else '+1'} track complete"
        assert legal(game) == bonus_choices(game, area)

"""Très futé (Ganz schön clever): every number of the printed score sheet.

Source: ``shared/rules/tres-fute.md`` and the French rulebook. Rows and columns are
numbered from 1; ``None`` in a table is a printed, pre-crossed cell (or the blue picture),
never markable and counted as filled.
"""

from __future__ import annotations

from .kinds import (
    FOX,
    N_,
    PLUS_ONE,
    REROLL,
    ActionKind,
    ActionTrack,
    ChoiceBonus,
    EntryBonus,
    GameSpec,
    Order,
    RatingBand,
    Track,
    TrackScoring,
)
from .layout import boxes_from_rows, grid_from_table

YELLOW_X = EntryBonus("y")
BLUE_X = EntryBonus("b")
GREEN_X = EntryBonus("g")


def orange(n: int) -> EntryBonus:
    return EntryBonus("o", n)


def purple(n: int) -> EntryBonus:
    return EntryBonus("p", n)


YELLOW = grid_from_table(
    "y",
    [
        [3, 6, 5, None],
        [2, 1, None, 5],
        [1, None, 2, 4],
        [None, 3, 4, 6],
    ],
    row_bonuses=[BLUE_X, orange(4), GREEN_X, FOX],
    column_points=[10, 14, 16, 20],
    diagonals=[("diagonal", [(1, 1), (2, 2), (3, 3), (4, 4)], PLUS_ONE)],
)

BLUE = grid_from_table(
    "b",
    [
        [None, 2, 3, 4],
        [5, 6, 7, 8],
        [9, 10, 11, 12],
    ],
    row_bonuses=[orange(5), YELLOW_X, FOX],
    column_bonuses=[REROLL, GREEN_X, purple(6), PLUS_ONE],
    count_points=[0, 1, 2, 4, 7, 11, 16, 22, 29, 37, 46, 56],
)

_: None = None  # no bonus under this box
GREEN = Track(
    "g",
    boxes_from_rows(
        minimums=[1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 6],
        bonuses=[_, _, _, PLUS_ONE, _, BLUE_X, FOX, _, purple(6), REROLL, _],
    ),
    scoring=TrackScoring.LAST_FILLED,
    points=(0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66),
    crosses=True,
)

ORANGE = Track(
    "o",
    boxes_from_rows(
        multipliers=[1, 1, 1, 2, 1, 1, 2, 1, 2, 1, 3],
        bonuses=[_, _, REROLL, _, YELLOW_X, PLUS_ONE, _, FOX, _, purple(6), _],
    ),
)

PURPLE = Track(
    "p",
    boxes_from_rows([_, _, REROLL, BLUE_X, PLUS_ONE, YELLOW_X, FOX, REROLL, GREEN_X, orange(6), PLUS_ONE]),
    order=Order.INCREASING_RESET_AFTER_6,
)

# Round 4: a black X (yellow or blue anywhere, or the next green box) or a black 6
# (orange or purple), the player's choice.
BLACK_X_OR_6 = ChoiceBonus((YELLOW_X, BLUE_X, GREEN_X, orange(6), purple(6)), "black X or 6")

SPEC = GameSpec(
    id="tres-fute",
    name_fr="Très futé",
    name_en=N_("That's Pretty Clever!"),  # translated by the front ends (tresfute.text.game_name)
    dice=("w", "y", "b", "g", "o", "p"),
    areas={"y": YELLOW, "b": BLUE, "g": GREEN, "o": ORANGE, "p": PURPLE},
    sum_area="b",
    actions=(ActionTrack(ActionKind.REROLL, 7), ActionTrack(ActionKind.PLUS_ONE, 7)),
    round_gifts=(REROLL, PLUS_ONE, REROLL, BLACK_X_OR_6, None, None),
    rounds_by_players={1: 6, 2: 6, 3: 5, 4: 4},
    # The rulebook prints 260-280 and 240-260; 260 is read as the higher band, as the sheet
    # reference does (240-259).
    solo_rating=(
        RatingBand(281, "Super malin\u00a0!", "Super clever!", 5),
        RatingBand(
            260,
            "Tu ne t’appellerais pas Albert Einstein, par hasard\u00a0?",
            "Is your name Albert Einstein, by any chance?",
            4,
        ),
        RatingBand(240, "Quel génie\u00a0!", "What a genius!", 4),
        RatingBand(220, "Impressionnant\u00a0!", "Impressive!", 3),
        RatingBand(200, "Je te tire mon chapeau\u00a0!", "Hats off to you!", 2),
        RatingBand(180, "Très bon résultat\u00a0!", "A very good result!", 1),
        RatingBand(160, "C’est déjà bien.", "That's already good.", 1),
        RatingBand(
            140, "Pas mal, mais tu feras mieux la prochaine fois.", "Not bad, but you'll do better next time.", 1
        ),
        RatingBand(-10_000, "Bon espoir d’amélioration\u00a0!", "Plenty of room to improve!", 0),
    ),
)

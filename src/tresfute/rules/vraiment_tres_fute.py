"""Vraiment très futé (Doppelt so clever): every number of the printed score sheet.

Source: ``shared/rules/vraiment-tres-fute.md`` and the French rulebook. Rows and columns are
numbered from 1; ``None`` in a table is a place with no cell.
"""

from __future__ import annotations

from .kinds import (
    FOX,
    N_,
    PLUS_ONE,
    REPRISE,
    REROLL,
    ActionKind,
    ActionTrack,
    ChoiceBonus,
    EntryBonus,
    GameSpec,
    Order,
    RatingBand,
    RuleOption,
    Track,
    TrackScoring,
)
from .layout import boxes_from_rows, grid_from_table

SILVER_Q = EntryBonus("s", mark="?")  # cross any free silver cell
YELLOW_Q = EntryBonus("y", mark="?")  # circle any uncircled number, or cross a circled one
BLUE_Q = EntryBonus("b", mark="?")  # any sum 2-12, still at most the previous box
GREEN_Q = EntryBonus("g", mark="?")  # a value 1-6, times the box's multiplier
PINK_Q = EntryBonus("k", mark="?")  # a value 1-6 (the box's minimum still decides its bonus)
_: None = None

# Silver: rows belong to yellow, blue, green, pink; each holds 1 to 6.
SILVER = grid_from_table(
    "s",
    [[1, 2, 3, 4, 5, 6]] * 4,
    column_bonuses=[PLUS_ONE, YELLOW_Q, FOX, BLUE_Q, GREEN_Q, PINK_Q],
    row_count_points=[0, 2, 4, 7, 11, 16, 22],
    row_colours=("y", "b", "g", "k"),
)

# Yellow: circle a number, or cross a circled one; lines complete on circles.
YELLOW = grid_from_table(
    "y",
    [
        [_, 3, _, 6],
        [1, _, 2, _],
        [_, 4, _, 3],
        [2, _, 5, _],
        [_, 5, _, 4],
    ],
    row_bonuses=[BLUE_Q, REPRISE, YELLOW_Q, GREEN_Q, PINK_Q],
    column_bonuses=[REROLL, PLUS_ONE, SILVER_Q, FOX],
    count_points=[0, 3, 10, 21, 36, 55, 75, 96, 118, 141, 165],
    marks=2,
)

BLUE = Track(
    "b",
    boxes_from_rows([_, REPRISE, YELLOW_Q, _, PLUS_ONE, REROLL, PINK_Q, _, FOX, REPRISE, _, GREEN_Q]),
    order=Order.NON_INCREASING,
    scoring=TrackScoring.LAST_FILLED,
    points=(0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78),
    choice_values=tuple(range(2, 13)),
)

GREEN = Track(
    "g",
    boxes_from_rows(
        multipliers=[2, 2, 2, 1, 3, 3, 3, 2, 3, 1, 4, 1],
        bonuses=[_, REROLL, _, BLUE_Q, REPRISE, _, FOX, SILVER_Q, PLUS_ONE, _, PINK_Q, YELLOW_Q],
    ),
    scoring=TrackScoring.PAIRS,  # boxes 1-2, 3-4, ...: first minus second
)

PINK = Track(
    "k",
    boxes_from_rows(
        bonus_minimums=[0, 0, 2, 3, 4, 5, 6, 2, 3, 4, 5, 6],  # the bonus fires only from this value
        bonuses=[_, _, REROLL, REPRISE, PLUS_ONE, GREEN_Q, YELLOW_Q, FOX, SILVER_Q, REROLL, BLUE_Q, YELLOW_Q],
    ),
)

BLACK_Q = ChoiceBonus((SILVER_Q, YELLOW_Q, BLUE_Q, GREEN_Q, PINK_Q), "black ?")

SPEC = GameSpec(
    id="vraiment-tres-fute",
    name_fr="Vraiment très futé",
    name_en=N_("Twice as Clever!"),  # translated by the front ends (tresfute.text.game_name)
    dice=("w", "s", "y", "b", "g", "k"),
    areas={"s": SILVER, "y": YELLOW, "b": BLUE, "g": GREEN, "k": PINK},
    sum_area="b",
    actions=(
        ActionTrack(ActionKind.REROLL, 6, end_bonus=FOX),
        ActionTrack(ActionKind.REPRISE, 6, end_bonus=PINK_Q),
        ActionTrack(ActionKind.PLUS_ONE, 6, end_bonus=SILVER_Q),
    ),
    round_gifts=(REROLL, PLUS_ONE, REPRISE, BLACK_Q, None, None),
    rounds_by_players={1: 6, 2: 6, 3: 5, 4: 4},
    # The rulebook prints "> 320" then "300-319": 320 is read as the top band, as the sheet
    # reference does.
    solo_rating=(
        RatingBand(320, "Vraiment très futé\u00a0!", "Twice as clever!"),
        RatingBand(300, "Le nombre de points obtenu correspond à ton QI\u00a0!", "Your score matches your IQ!"),
        RatingBand(280, "Respect\u00a0!", "Respect!"),
        RatingBand(260, "Ça ne peut pas être dû au hasard\u00a0!", "That can't be down to luck!"),
        RatingBand(240, "Voyez-vous ça\u00a0!", "Well, look at that!"),
        RatingBand(220, "Très futé\u00a0!", "Pretty clever!"),
        RatingBand(200, "Voilà quelqu’un qui s’est entraîné\u00a0!", "Somebody has been practising!"),
        RatingBand(180, "Tu peux être content de toi\u00a0!", "You can be pleased with yourself!"),
        RatingBand(160, "Sur la bonne voie.", "On the right track."),
        RatingBand(140, "Fermons les yeux pour cette fois.", "Let's turn a blind eye this time."),
        RatingBand(-10_000, "Moyennement futé.", "Moderately clever."),
    ),
    may_decline_roll=True,
    passive_may_refuse=True,
    silver_sweep=True,
    # « Ce n'est qu'une fois que le joueur actif a posé 3 dés sur sa feuille de jeu ou qu'il ne
    # peut plus lancer de dés parce que tous les dés restants se trouvent sur le plateau
    # d'argent que les autres joueurs commencent à jouer »: True, a reprise may bring a die back
    # to roll when none is left (the player "can" still roll); False, the turn ends there.
    # docs/rules-decisions.md
    rule_options=(
        RuleOption(
            "reprise_with_no_die_left",
            True,
            label=N_(
                "With no die left to roll, you may still take a die back from the silver platter and roll it "
                "(unchecked: the turn ends there)"
            ),
            when_true=N_("No die left to roll: a reprise may take one back and roll it"),
            when_false=N_("No die left to roll: the turn ends, reprise or not"),
        ),
    ),
)

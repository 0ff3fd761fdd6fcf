"""Vraiment très futé: the rules that are its own, played through the API."""

from __future__ import annotations

import re

import pytest

from tresfute.rules import CHANCE, Game, IllegalMoveError, Phase, RulesError, Sheet, Where, fox_value, game_rules
from tresfute.rules.kinds import ActionKind

from helpers import VTF, ZERO_AND_NEGATIVE, legal, position


def vtf(players: int = 1, reprise_with_no_die_left: bool = True) -> Game:
    game = Game(
        "vraiment-tres-fute", players, dice="external", rules={"reprise_with_no_die_left": reprise_with_no_die_left}
    )
    assert game.to_move == CHANCE
    return game


# The rulebook, turn end: « Ce n'est qu'une fois que le joueur actif a posé 3 dés sur sa feuille de
# jeu ou qu'il ne peut plus lancer de dés parce que tous les dés restants se trouvent sur le plateau
# d'argent que les autres joueurs commencent à jouer ». The reprise: « un dé qui se trouve déjà sur
# le plateau d'argent peut être repris et relancé avec les autres dés lors du lancer suivant ».
# True (the default): a reprise still lets the player roll; False: the turn ends there.
READINGS = pytest.mark.parametrize("reprise_with_no_die_left", [True, False], ids=["reprise-rolls", "turn-ends"])


def platter(game: Game) -> set[str]:
    return {d for i, d in enumerate(game.dice) if game.where[i] is Where.PLATTER}


# --- silver and the sweep ----------------------------------------------------------


def test_silver_crosses_the_value_in_a_row_of_the_players_choice() -> None:
    game = vtf()
    game.play("dice w6 s3 y6 b6 g6 k6")
    assert {m for m in legal(game) if m.startswith("s")} == {"s@r1c3", "s@r2c3", "s@r3c3", "s@r4c3"}


def test_a_silver_die_whose_value_is_full_cannot_be_taken() -> None:
    game = position(vtf(), s=["r1c3", "r2c3", "r3c3", "r4c3"])
    game.play("dice w6 s3 y6 b6 g6 k6")
    assert not any(m.startswith(("s@", "w>s")) for m in legal(game)) or all(not m.startswith("s@") for m in legal(game))
    with pytest.raises(IllegalMoveError, match="silver r1c3 is already crossed"):
        game.play("s@r1c3")


def test_the_sweep_offers_only_the_dice_this_silver_pick_sends_to_the_platter() -> None:
    """After an active silver pick, each die it sends to the platter may be crossed too."""
    game = vtf()
    game.play("dice w5 s2 y5 b1 g5 k5")
    game.play("s@r1c2")  # silver 2: blue 1 is swept
    assert game.phase is Phase.SWEEP and legal(game) == {"~b@r2c1", "done"}
    game.play("done")
    game.play("dice w2 y3 g4 k2")
    game.play("g")  # green 4 (not silver): white 2, yellow 3, pink 2 go to the platter, no sweep
    assert game.phase is not Phase.SWEEP
    game = vtf()
    game.play("dice w2 s4 y3 b1 g6 k3")
    game.play("s@r3c4")  # silver 4: white 2, yellow 3, blue 1, pink 3 are swept
    assert legal(game) == {
        "~w@r1c2",
        "~w@r2c2",
        "~w@r3c2",
        "~w@r4c2",  # white: any row
        "~y@r1c3",
        "~b@r2c1",
        "~k@r4c3",  # coloured dice: their own row
        "done",
    }
    game.play("~k@r4c3")
    game.play("~w@r3c2")
    assert legal(game) == {"~y@r1c3", "~b@r2c1", "done"}
    with pytest.raises(IllegalMoveError, match="pink die was not swept"):
        game.play("~k@r4c3")
    game.play("done")
    silver = game.sheets[0].areas["s"]
    crossed = [(c.row, c.col) for c, lv in zip(VTF.areas["s"].cells, silver, strict=True) if lv]  # type: ignore
    assert crossed == [(3, 2), (3, 4), (4, 3)]
    assert game.dice_to_roll() == ["g"]  # only green is left to roll


def test_white_as_silver_lets_the_swept_silver_die_go_in_any_row() -> None:
    game = vtf()
    game.play("dice w5 s2 y6 b6 g6 k6")
    game.play("w>s@r1c5")
    assert legal(game) == {"~s@r1c2", "~s@r2c2", "~s@r3c2", "~s@r4c2", "done"}


def test_no_sweep_for_the_leftovers_after_the_third_pick() -> None:
    """A third-pick silver sweeps the dice lower than it; the leftovers go to the platter unswept."""
    game = vtf()
    game.play("dice w1 s6 y6 b6 g6 k6")
    game.play("w>k")  # 1: nothing lower
    game.play("dice s6 y6 b6 g6 k1")
    game.play("k")  # pink 1: nothing lower
    game.play("dice s3 y5 b6 g1")
    game.play("s@r1c3")  # third pick: green 1 is swept; yellow 5 and blue 6 are leftovers
    assert legal(game) == {"~g@r3c1", "done"}
    assert platter(game) == {"g"}  # yellow and blue reach the platter only as the turn ends


def test_a_passive_or_extra_silver_pick_sweeps_nothing() -> None:
    game = position(vtf(players=2), 1, earned={ActionKind.PLUS_ONE: 1})
    game.play("dice w6 s3 y2 b1 g6 k6")
    game.play("g")  # 6: white 6 and pink 6 stay; the rest to the platter
    game.play("dice w6 k6")
    game.play("k")
    game.play("dice w5")
    game.play("w>y@r1c2") if "w>y@r1c2" in legal(game) else game.play("w>k")
    assert game.players_to_move == (1,)
    game.play("s@r2c3", player=1)  # passive silver: crosses one number only
    assert game.phase is Phase.PASSIVE and not any(m.startswith("~") for m in legal(game, 1))
    game.play("+s@r4c3", player=1)  # +1 silver: one number, no sweep either
    assert game.phase is not Phase.SWEEP


# --- reprise, decline, refuse ------------------------------------------------------


@READINGS
def test_reprise_before_a_roll_but_never_the_first_nor_after_rolling(reprise_with_no_die_left: bool) -> None:
    # Dice are left to roll: both readings allow the reprise.
    game = position(vtf(reprise_with_no_die_left=reprise_with_no_die_left), earned={ActionKind.REPRISE: 2})
    assert game.to_move == CHANCE  # no reprise before the first roll
    game.play("dice w5 s6 y4 b1 g5 k2")
    with pytest.raises(IllegalMoveError):
        game.play("reprise b")
    game.play("g")  # 5: yellow 4, blue 1, pink 2 go to the platter
    assert game.phase is Phase.BEFORE_ROLL
    assert legal(game) == {"reprise y", "reprise b", "reprise k", "roll"}
    game.play("reprise b")
    game.play("reprise k")
    assert game.sheets[0].available(ActionKind.REPRISE) == 0
    assert game.to_move == CHANCE  # no reprise left: the roll comes by itself
    assert game.dice_to_roll() == ["w", "s", "b", "k"]
    game.play("dice w1 s1 b1 k1")
    with pytest.raises(IllegalMoveError):
        game.play("reprise y")


@READINGS
def test_after_the_first_pick_with_no_die_left_a_reprise_rolls_or_the_turn_ends(
    reprise_with_no_die_left: bool,
) -> None:
    game = position(vtf(reprise_with_no_die_left=reprise_with_no_die_left), earned={ActionKind.REPRISE: 1})
    game.play("dice w1 s1 y1 b1 g6 k1")
    game.play("g")  # everything else is lower: nothing left to roll
    if reprise_with_no_die_left:  # the player can still roll, with a die taken back
        assert game.phase is Phase.BEFORE_ROLL
        assert legal(game) == {"reprise w", "reprise s", "reprise y", "reprise b", "reprise k", "done"}
        game.play("reprise y")
        assert game.dice_to_roll() == ["y"]
    else:  # « il ne peut plus lancer de dés »: the active part is over, the reprise kept
        assert game.phase is Phase.SOLO_ROLL and game.solo_passive  # the solo game's passive turn
        assert game.dice_to_roll() == list(game.dice)
        assert game.sheets[0].available(ActionKind.REPRISE) == 1


@READINGS
def test_after_the_second_pick_with_no_die_left_a_reprise_rolls_or_the_others_play(
    reprise_with_no_die_left: bool,
) -> None:
    game = position(vtf(2, reprise_with_no_die_left), earned={ActionKind.REPRISE: 2})
    game.play("dice w1 s5 y2 b2 g3 k1")
    game.play("g")  # 3: white, yellow, blue, pink go to the platter; silver is left
    assert game.phase is Phase.BEFORE_ROLL  # a die is left to roll: the reprise is offered, declined
    game.play("roll")
    game.play("dice s5")
    game.play("s@r1c5")  # the last die: nothing left to roll after the second pick
    if reprise_with_no_die_left:
        assert game.players_to_move == (0,)
        assert legal(game, 0) == {"reprise w", "reprise y", "reprise b", "reprise k", "done"}
        game.play("reprise w")
        game.play("roll")
        assert game.dice_to_roll() == ["w"]
        assert game.rolls == 3
    else:  # « ... que les autres joueurs commencent à jouer »
        assert game.phase is Phase.PASSIVE
        assert game.players_to_move == (1,)
        assert game.sheets[0].available(ActionKind.REPRISE) == 2
        assert game.picks == 2


def test_rules_are_chosen_when_the_game_is_created() -> None:
    assert Game("vraiment-tres-fute", seed=1).rules == {"reprise_with_no_die_left": True}  # the default
    game = Game("vraiment-tres-fute", seed=1, rules={"reprise_with_no_die_left": False})
    assert game.rules == {"reprise_with_no_die_left": False}
    assert game.copy().rules == game.rules == game.copy(dice="external").rules
    game.rules["reprise_with_no_die_left"] = True  # a copy: the game's rules never change
    assert game.rules == {"reprise_with_no_die_left": False}
    assert Game("tres-fute", seed=1, rules={}).rules == {}
    assert game_rules("vraiment-tres-fute") == {"reprise_with_no_die_left": True}


@pytest.mark.parametrize(
    ("game", "rules", "message"),
    [
        (
            "vraiment-tres-fute",
            {"reprise": False},
            "Twice as Clever! has no rule 'reprise': its rules are reprise_with_no_die_left",
        ),
        ("vraiment-tres-fute", {"reprise_with_no_die_left": "false"}, "true or false, not 'false'"),
        ("vraiment-tres-fute", {"reprise_with_no_die_left": 0}, "true or false, not 0"),
        (
            "tres-fute",
            {"reprise_with_no_die_left": False},
            "'reprise_with_no_die_left' is a rule of Twice as Clever!, not of That's Pretty Clever",
        ),
        ("tres-fute", {"sweep": True}, "has no rules options"),
        ("vraiment-tres-fute", ["reprise_with_no_die_left"], "names and true or false"),
    ],
)
def test_rules_a_game_does_not_have_are_refused(game: str, rules: object, message: str) -> None:
    with pytest.raises(RulesError, match=re.escape(message)):
        Game(game, seed=1, rules=rules)  # type: ignore[arg-type]


def test_the_active_player_may_decline_a_roll() -> None:
    game = vtf()
    game.play("dice w1 s1 y1 b1 g1 k1")
    assert "pass" in legal(game)
    game.play("pass")
    assert game.dice_to_roll() == list(game.dice)  # the roll is lost and counts; no die moved
    assert game.rolls == 2


def test_a_passive_player_may_refuse_the_platter_but_then_not_use_the_active_dice() -> None:
    game = vtf(players=2)
    game.play("dice w6 s3 y2 b1 g6 k6")
    game.play("g")
    game.play("dice w6 k6")
    game.play("k")
    game.play("dice w5")
    game.play("w>k")
    moves = legal(game, 1)
    assert "pass" in moves and "g" not in moves  # green 6 is on a die field
    game.play("pass", player=1)
    assert not any(m.kind == "pick" for m in game.legal_moves(1))


def test_active_dice_only_when_no_platter_die_can_be_used() -> None:
    game = vtf(players=2)
    game.play("dice w6 s1 y1 b1 g6 k1")
    game.play("g")
    game.play("dice w6")
    game.play("w>k")
    # player 2 can use nothing from the platter (silver 1, yellow 1, blue 1, pink 1)
    position(game, 1, s=[f"r{r}c1" for r in range(1, 5)], y={"r2c1": 2}, b=[2], k=[1] * 12)
    assert legal(game, 1) == {"g", "w>s@r1c6", "w>s@r2c6", "w>s@r3c6", "w>s@r4c6", "w>y@r1c4", "w>g", "pass"}


# --- blue, green, pink, foxes ------------------------------------------------------


def test_blue_sums_never_rise_even_for_the_blue_question_mark() -> None:
    game = position(vtf(), b=[7], g=[2] * 3)
    game.play("dice w4 s1 y1 b4 g1 k1")
    with pytest.raises(IllegalMoveError, match="blue needs a number at most 7, not 8"):
        game.play("b")
    game.play("g")  # green box 4: blue ?
    assert legal(game) == {f"!b={v}" for v in range(2, 8)}


def test_the_green_pair_from_the_rulebook() -> None:
    """A green 5 in box 1 is written 10, a later green 1 in box 2 is written 2: the pair scores 8."""
    game = vtf()
    game.play("dice w6 s6 y6 b6 g5 k6")
    game.play("g")
    assert game.sheets[0].areas["g"] == [10]
    game.play("dice w6 s6 y6 b6 k6")
    game.play("pass")
    game.play("dice w6 s6 y6 b6 k6")
    game.play("pass")
    game.play("dice w6 s6 y6 b2 g1 k3")  # the solo passive roll: green 1, blue 2, pink 3
    game.play("g")
    assert game.sheets[0].areas["g"] == [10, 2]
    assert game.score(0).areas["g"] == 8


def test_yellow_circles_then_crosses() -> None:
    """A yellow die circles an uncircled number or crosses a circled one; never crosses first."""
    game = position(vtf(), y={"r1c2": 1})
    game.play("dice w6 s6 y3 b6 g6 k6")
    assert {m for m in legal(game) if m.startswith("y")} == {"y@r1c2", "y@r3c4"}
    game.play("y@r1c2")
    assert game.sheets[0].areas["y"][0] == 2
    assert game.score(0).areas["y"] == 3


def test_a_chain_through_four_areas() -> None:
    """Pink 6 (green ?) -> green box 4 (blue ?) -> blue box 3 (yellow ?) -> yellow row 1 (blue ?)."""
    game = position(vtf(), k=[1] * 5, g=[2] * 3, b=[12, 12], y={"r1c4": 1})
    game.play("dice w1 s1 y1 b1 g1 k5")
    game.play("k")
    assert legal(game) == {f"!g={v}" for v in range(1, 7)}
    game.play("!g=3")
    assert legal(game) == {f"!b={v}" for v in range(2, 13)}
    game.play("!b=12")
    game.play("!y@r1c2")  # circles the 3: row 1 all circled -> blue ?
    assert game.pending[0][0].source == "yellow row 1"
    game.play("!b=9")
    assert game.sheets[0].areas["b"] == [12, 12, 12, 9]
    assert game.pending == [[]]


def test_foxes_are_negative_when_the_lowest_area_is() -> None:
    sheet = Sheet.from_marks(
        VTF,
        {"s": [1] * 3 + [0] * 21, "y": [2] + [0] * 9, "b": [12] * 9, "g": [2, 12, 2, 6, 3, 18, 3], "k": [5, 3, 1, 4]},
    )
    score = sheet.score()
    assert score.areas == {"s": 7, "y": 3, "b": 45, "g": -10 - 4 - 15, "k": 13}
    assert sorted(sheet.foxes) == ["blue box 9", "green box 7"]
    assert score.fox_value == -29 and score.total == 7 + 3 + 45 - 29 + 13 - 2 * 29


def test_foxes_are_worth_0_when_an_area_scores_0_even_with_a_negative_green() -> None:
    """« Si un joueur n'obtient aucun point dans une zone, les renards valent tous 0 point »:
    an area at 0 wins over a negative green."""
    sheet = Sheet.from_marks(VTF, ZERO_AND_NEGATIVE)
    score = sheet.score()
    assert score.areas == {"s": 15, "y": 0, "b": 3, "g": -16, "k": 2}
    assert sheet.foxes == ["silver column 3"]
    assert score.fox_value == 0 and score.total == 4
    assert fox_value([15, 0, 3, -16, 2]) == 0 and fox_value([15, 1, 3, -16, 2]) == -16
    assert sheet.view()["score"]["fox_value"] == 0, "what the page, the terminal and records show"


def test_a_fox_with_green_lowest_at_eight() -> None:
    sheet = Sheet.from_marks(VTF, {"s": [1] * 24, "y": [2] * 10, "b": [12] * 9, "g": [10, 2], "k": [6] * 12})
    score = sheet.score()
    assert score.fox_value == 8
    assert score.foxes == len(sheet.foxes) >= 1


def test_solo_game_has_six_active_and_six_passive_turns() -> None:
    import random

    game = Game("vraiment-tres-fute", players=1, seed=3)
    rng = random.Random(3)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    assert sorted({(h.round, h.turn) for h in game.history}) == [(r, t) for r in range(1, 7) for t in (0, 1)]
    assert game.solo_rating() is not None

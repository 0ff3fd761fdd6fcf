"""The ceiling's search (``bots/clairvoyant.py``): a game's dice fixed by the moment of each roll,
a line of play that replays on them to the score it claims, and far above a player who does not
know them. (The bound's figures are measured by ``benchmarks/ceiling.py``, not by tests.)"""

from __future__ import annotations

import pytest

from tresfute.bots import make_bot
from tresfute.bots.clairvoyant import TimelineDice, clairvoyant_line, play_chance, play_on
from tresfute.rules import CHANCE, Game, IllegalMoveError

GAMES = ["tres-fute", "vraiment-tres-fute"]
STRICT = {"reprise_with_no_die_left": False}


@pytest.mark.parametrize("game_id", GAMES)
def test_a_die_rolled_at_the_same_moment_shows_the_same_face_whatever_was_picked(game_id: str) -> None:
    """Two lines that pick different dice from the first roll roll again at the same moment of
    the same turn: each die both still hold shows the same face in both."""
    game = Game(game_id, players=1, dice="external")
    dice = TimelineDice(7)
    play_chance(game, dice)
    seconds = []
    for _move, after in game.afterstates(0):
        if after.to_move != CHANCE or after.phase == "solo roll":
            continue
        own = dice.copy()
        roll = own.roll(after)
        seconds.append(dict(roll.dice))
    assert len(seconds) >= 2
    compared = 0
    for other in seconds[1:]:
        common = set(seconds[0]) & set(other)
        assert all(seconds[0][d] == other[d] for d in common)
        compared += len(common)
    assert compared > 0


@pytest.mark.parametrize(
    ("game_id", "rules"), [("tres-fute", None), ("vraiment-tres-fute", None), ("vraiment-tres-fute", STRICT)]
)
def test_the_line_found_replays_on_its_dice_to_its_score(game_id: str, rules: dict | None) -> None:
    """Every move of the line is legal, its chance moves are the dice of its seed, and the game
    so replayed ends with the score the search claims (under the game's own reading of the rules)."""
    line = clairvoyant_line(game_id, 11, width=4, rules=rules)
    game = Game(game_id, players=1, dice="external", rules=rules)
    dice = TimelineDice(11)
    for move in line.moves:
        if game.to_move == CHANCE:
            assert move == dice.roll(game)
        game.play(move)
        dice.follow(game)
    assert game.is_over
    assert game.score(0).total == line.score


def test_a_line_of_one_reading_is_refused_under_the_other_where_it_leans_on_it() -> None:
    """A line found under the default reading of Vraiment très futé that takes a die back with
    no die left to roll is not legal under the strict reading (the first such move is refused)."""
    for seed in range(40):
        line = clairvoyant_line("vraiment-tres-fute", seed, width=2)
        strict = Game("vraiment-tres-fute", players=1, dice="external", rules=STRICT)
        try:
            for move in line.moves:
                strict.play(move)
        except IllegalMoveError:
            return
    pytest.fail("no line of 40 games used the reprise with no die left to roll")


@pytest.mark.parametrize("game_id", GAMES)
def test_knowing_the_dice_scores_far_above_a_player_who_does_not(game_id: str) -> None:
    """On the same dice, the search's line beats the greedy player's game by far."""
    for seed in (1, 2):
        found = clairvoyant_line(game_id, seed, width=8).score
        greedy = play_on(game_id, seed, make_bot("greedy", 0))
        assert found > greedy + 50


def test_a_beam_has_a_width() -> None:
    with pytest.raises(ValueError, match="width"):
        clairvoyant_line("tres-fute", 1, width=0)

"""Paper sheets checked for possibility: a sheet with more marks than any game gives one player
is refused with the count; every sheet a real game leaves is accepted (``docs/sheets.md``)."""

from __future__ import annotations

import random

import pytest

from tresfute import paper
from tresfute.bots import make_bot
from tresfute.rules import Game

from helpers import paper_of, play_randomly

FULL_TRES_FUTE = {
    "game": "tres-fute",
    "areas": {
        "yellow": [f"r{r}c{c}" for r in range(1, 5) for c in range(1, 5) if r + c != 5],
        "blue": [f"r{r}c{c}" for r in range(1, 4) for c in range(1, 5) if (r, c) != (1, 1)],
        "green": 11,
        "orange": [6, 6, 6, 12, 6, 6, 12, 6, 12, 6, 18],
        "purple": [1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5],
    },
}


def test_a_sheet_with_more_marks_than_any_game_gives_is_refused() -> None:
    """Every mark is a die picked (at most 25: three a round as the active player and one in each
    passive turn, 5 rounds x 5 with three players), a +1 (at most the +1 circles earned) or an
    entry bonus (at most one per bonus fired): a full Très futé sheet holds 56 marks, at most 48."""
    with pytest.raises(paper.SheetError, match="56 marks, but a game gives one player at most 48: 25 dice picked"):
        paper.sheet_from_data(FULL_TRES_FUTE)


def test_the_refusal_is_in_french_too() -> None:
    from tresfute.i18n import set_language
    from tresfute.text import explain

    set_language("fr")
    with pytest.raises(paper.SheetError) as error:
        paper.sheet_from_data(FULL_TRES_FUTE)
    assert explain(error.value).startswith("56 marques, mais une partie en donne au plus 48 à un joueur")


@pytest.mark.parametrize("game_id", ["tres-fute", "vraiment-tres-fute"])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_sheet_a_game_leaves_is_accepted(game_id: str, players: int) -> None:
    for seed in range(3):
        game = Game(game_id, players=players, seed=seed)
        if seed == 0:
            bots = [make_bot("greedy", p) for p in range(players)]
            while not game.is_over:
                p = game.to_move
                assert p is not None
                game.play(bots[p].choose(game, p), p)
        else:
            play_randomly(game, random.Random(seed))
        for p, sheet in enumerate(game.sheets):
            _spec, read = paper.sheet_from_data(paper_of(sheet))
            assert read.score() == sheet.score(), (seed, p)

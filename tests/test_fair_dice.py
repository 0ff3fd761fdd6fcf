"""The fair dice are the ones ``docs/web.md`` ("Fair dice") documents, to the digit: known
secrets give known dice, computed here again from the documented formula with hashlib alone, so
that ``fair_dice`` cannot drift from the documentation while still agreeing with itself (it both
draws the dice and checks them). The rejection threshold and the platter's tie-break are held to
crafted secrets that reach them. The page's own checker is held to the same values in
``tests/test_web_fair_dice_browser.py``.
"""

from __future__ import annotations

import hashlib

import pytest

from tresfute import fair_dice
from tresfute.rules import Game, parse_move

LIMIT = 4294967292  # documented: a multiple of 6 (4294967292 = 6 × 715827882), the largest below 2**32


def word(text: str) -> int:
    """The first 4 bytes of the text's SHA-256, big-endian (docs/web.md)."""
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:4], "big")


def documented_die(secret: str, roll: int, die: str) -> int:
    """``x mod 6 + 1`` for the first ``j`` with ``x = word("<secret>:<k>:<d>:<j>") < 4294967292``."""
    j = 0
    while word(f"{secret}:{roll}:{die}:{j}") >= LIMIT:
        j += 1
    return word(f"{secret}:{roll}:{die}:{j}") % 6 + 1


def test_the_limit_is_the_largest_multiple_of_six_below_two_to_the_32() -> None:
    assert LIMIT % 6 == 0 and LIMIT + 6 > 2**32


# the secret "tresfute": its commitment, and its first two rolls, worked out by hand from the formula
TRESFUTE_COMMITMENT = "039d5bbc9b018a366a826a6128d904b5e7f87d159573fe6e5776eb2d4ab29cd1"
TRESFUTE_ROLLS = {
    (1, "tres-fute"): {"w": 2, "y": 6, "b": 6, "g": 1, "o": 6, "p": 1},
    (1, "vraiment-tres-fute"): {"w": 2, "s": 4, "y": 6, "b": 6, "g": 1, "k": 1},
    (2, "tres-fute"): {"w": 4, "y": 2, "b": 2, "g": 3, "o": 2, "p": 1},
}


def test_the_commitment_is_the_secrets_sha256() -> None:
    assert fair_dice.commitment("tresfute") == TRESFUTE_COMMITMENT
    assert hashlib.sha256(b"tresfute").hexdigest() == TRESFUTE_COMMITMENT


@pytest.mark.parametrize(("roll", "game"), sorted(TRESFUTE_ROLLS))
def test_a_known_secret_gives_the_documented_dice(roll: int, game: str) -> None:
    expected = TRESFUTE_ROLLS[roll, game]
    assert {d: documented_die("tresfute", roll, d) for d in expected} == expected, "the formula as documented"
    assert {d: fair_dice.die_value("tresfute", roll, d) for d in expected} == expected, "the module's"
    text = "dice " + " ".join(f"{d}{v}" for d, v in expected.items())
    assert fair_dice.roll_text("tresfute", roll, list(expected), False) == text


def test_a_game_draws_its_rolls_by_their_number_from_one_with_the_dice_still_in_hand() -> None:
    """Roll ``k`` is the game's ``k``-th: the first roll throws the six dice, the second (after
    the white 2 is chosen and the two 1s go to the platter) the three left in hand."""
    game = Game("tres-fute", 1, dice="external")
    first = fair_dice.next_roll(game, "tresfute")
    assert str(first) == "dice w2 y6 b6 g1 o6 p1"
    game.play(first)
    game.play(parse_move("w>y@r2c1"))
    assert game.dice_to_roll() == ["y", "b", "o"]
    assert str(fair_dice.next_roll(game, "tresfute")) == "dice y2 b2 o2"
    assert fair_dice.check_record("tresfute", TRESFUTE_COMMITMENT, ["dice w2 y6 b6 g1 o6 p1", "dice y2 b2 o2"]) == []


# A crafted secret (found by trying about a billion secrets) whose first word for the silver die
# of roll 1 is the limit itself, 4294967292: thrown away (only x < 4294967292 is kept), so j = 1
# decides the die: 5, where the word kept would have shown 1 (4294967292 mod 6 + 1).
REJECTED_SECRET = "r000015829356"
REJECTED_DIE = "s"
REJECTED_WORD = 4294967292  # the word of j = 0
REJECTED_VALUE = 5  # the die's value, from j = 1


def test_a_word_past_the_limit_is_thrown_away_and_the_next_j_decides() -> None:
    assert word(f"{REJECTED_SECRET}:1:{REJECTED_DIE}:0") == REJECTED_WORD == LIMIT
    assert word(f"{REJECTED_SECRET}:1:{REJECTED_DIE}:1") < LIMIT
    assert documented_die(REJECTED_SECRET, 1, REJECTED_DIE) == REJECTED_VALUE
    assert fair_dice.die_value(REJECTED_SECRET, 1, REJECTED_DIE) == REJECTED_VALUE
    kept = REJECTED_WORD % 6 + 1
    assert kept == 1 != REJECTED_VALUE, "a checker that kept the word at the limit would show another face"
    commitment = fair_dice.commitment(REJECTED_SECRET)
    assert fair_dice.check_record(REJECTED_SECRET, commitment, [f"dice {REJECTED_DIE}{REJECTED_VALUE}"]) == []
    assert fair_dice.check_record(REJECTED_SECRET, commitment, [f"dice {REJECTED_DIE}{kept}"]) == [
        f"move 1: 'dice {REJECTED_DIE}{kept}', the secret gives 'dice {REJECTED_DIE}{REJECTED_VALUE}'"
    ]


# The solo game's passive roll for the secret "platter-2": w1 y3 b5 g1 o4 p3. The platter takes
# the three lowest: w and g (the 1s), then one of the two 3s (y and p); p's platter hash is the
# lower, so p, where the dice's order (or the higher hash) would take y.
PLATTER_SECRET = "platter-2"
PLATTER_HASHES = {"y": 0x8B222963, "p": 0x02AE0C22}


def test_the_platter_takes_the_three_lowest_a_tie_broken_by_the_lower_platter_hash() -> None:
    assert {d: word(f"{PLATTER_SECRET}:1:{d}:platter") for d in "yp"} == PLATTER_HASHES
    assert {d: documented_die(PLATTER_SECRET, 1, d) for d in "wybgop"} == dict(w=1, y=3, b=5, g=1, o=4, p=3)
    honest = "dice w1 y3 b5 g1 o4 p3 platter=wgp"
    assert fair_dice.roll_text(PLATTER_SECRET, 1, list("wybgop"), True) == honest
    commitment = fair_dice.commitment(PLATTER_SECRET)
    assert fair_dice.check_record(PLATTER_SECRET, commitment, [honest]) == []
    assert fair_dice.check_record(PLATTER_SECRET, commitment, ["dice w1 y3 b5 g1 o4 p3 platter=wgy"]) == [
        f"move 1: 'dice w1 y3 b5 g1 o4 p3 platter=wgy', the secret gives {honest!r}"
    ]


def test_a_tampered_roll_or_a_wrong_secret_is_named() -> None:
    moves = ["dice w2 y6 b6 g1 o6 p1", "1:w>y@r2c1", "dice y2 b2 o2"]
    assert fair_dice.check_record("tresfute", TRESFUTE_COMMITMENT, moves) == []
    tampered = [*moves[:2], "dice y2 b2 o5"]
    assert fair_dice.check_record("tresfute", TRESFUTE_COMMITMENT, tampered) == [
        "move 3: 'dice y2 b2 o5', the secret gives 'dice y2 b2 o2'"
    ]
    assert fair_dice.check_record("tresfutE", TRESFUTE_COMMITMENT, moves) == [
        "the secret does not match the published hash"
    ]

"""Dice anyone can check: every roll derived from a secret by SHA-256, published as a hash first.

How it works, at length: docs/design.md (fair_dice.py).
"""

from __future__ import annotations

import hashlib
import secrets

from .rules import Game, Move, parse_move
from .rules.game import Phase

_LIMIT = 4294967292  # the largest multiple of 6 below 2**32


def new_secret() -> str:
    return secrets.token_hex(32)


def commitment(secret: str) -> str:
    """What is published before the game: the SHA-256 of the secret, in hex."""
    return hashlib.sha256(secret.encode()).hexdigest()


def _word(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")


def die_value(secret: str, roll: int, die: str) -> int:
    j = 0
    while True:
        x = _word(f"{secret}:{roll}:{die}:{j}")
        if x < _LIMIT:
            return x % 6 + 1
        j += 1


def roll_text(secret: str, roll: int, dice: list[str], solo_platter: bool) -> str:
    """The ``dice ...`` move of roll number ``roll`` for the dice given (in their order)."""
    values = {d: die_value(secret, roll, d) for d in dice}
    text = "dice " + " ".join(f"{d}{v}" for d, v in values.items())
    if solo_platter:
        lowest = sorted(dice, key=lambda d: (values[d], _word(f"{secret}:{roll}:{d}:platter")))[:3]
        text += " platter=" + "".join(sorted(lowest, key=dice.index))
    return text


def next_roll(game: Game, secret: str) -> Move:
    """The roll ``game`` waits for (it must be waiting for dice from outside)."""
    dice = game.dice_to_roll()
    if not dice:
        raise ValueError("no roll is due")
    return parse_move(roll_text(secret, game.dice_rolled + 1, dice, game.phase is Phase.SOLO_ROLL))


def check_record(secret: str, published: str, moves: list[str]) -> list[str]:
    """Problems found re-deriving a record's rolls from the revealed secret (empty: all fair)."""
    if commitment(secret) != published:
        return ["the secret does not match the published hash"]
    problems = []
    roll = 0
    for number, entry in enumerate(moves, start=1):
        if not entry.startswith("dice "):
            continue
        roll += 1
        move = parse_move(entry)
        expected = roll_text(secret, roll, [d for d, _ in move.dice], move.platter is not None)
        if str(move) != str(parse_move(expected)):
            problems.append(f"move {number}: {entry!r}, the secret gives {expected!r}")
    return problems

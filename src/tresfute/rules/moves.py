"""Moves and their text notation (see ``docs/notation.md``).

Every decision is a :class:`Move`; ``Move.parse(str(move)) == move`` for every move.

How it works, at length: docs/design.md (rules/moves.py).
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Final, NamedTuple

from .reasons import Reason, ReasonError

DIE_LETTERS = "wsybgopk"
AREA_LETTERS = "sybgopk"


class MoveKind(StrEnum):
    PICK = "pick"
    EXTRA = "extra"
    BONUS = "bonus"
    SWEEP = "sweep"
    REROLL = "reroll"
    REPRISE = "reprise"
    ROLL = "roll"
    PASS = "pass"
    DONE = "done"
    DICE = "dice"


class MoveSyntaxError(ReasonError):
    """The text is not a move in the notation (``reason``: the translatable explanation)."""


class Move(NamedTuple):
    kind: MoveKind
    die: str | None = None
    area: str | None = None
    cell: tuple[int, int] | None = None
    value: int | None = None
    dice: tuple[tuple[str, int], ...] = ()
    platter: tuple[str, ...] | None = None

    def __str__(self) -> str:
        kind = self.kind
        if kind is MoveKind.PICK or kind is MoveKind.EXTRA or kind is MoveKind.SWEEP:
            text = self.die or ""
            if self.area != self.die and kind is not MoveKind.SWEEP:  # a sweep is always in silver
                text += f">{self.area}"
            if self.cell is not None:
                text += f"@r{self.cell[0]}c{self.cell[1]}"
            return {"pick": "", "extra": "+", "sweep": "~"}[kind] + text
        if kind is MoveKind.BONUS:
            text = f"!{self.area}"
            if self.cell is not None:
                text += f"@r{self.cell[0]}c{self.cell[1]}"
            if self.value is not None:
                text += f"={self.value}"
            return text
        if kind is MoveKind.REPRISE:
            return f"reprise {self.die}"
        if kind is MoveKind.DICE:
            text = "dice " + " ".join(f"{d}{v}" for d, v in self.dice)
            if self.platter is not None:
                text += " platter=" + "".join(self.platter)
            return text
        return kind.value

    @classmethod
    def parse(cls, text: str) -> Move:
        return parse_move(text)


# Plain moves, shared (moves are immutable values).
REROLL: Final = Move(MoveKind.REROLL)
ROLL: Final = Move(MoveKind.ROLL)
PASS: Final = Move(MoveKind.PASS)
DONE: Final = Move(MoveKind.DONE)

_ENTRY = re.compile(r"^([+~]?)([wsybgopk])(?:>([sybgopk]))?(?:@r([1-9])c([1-9]))?$")
_BONUS = re.compile(r"^!([sybgopk])(?:@r([1-9])c([1-9]))?(?:=(\d{1,2}))?$")
_DIE_VALUE = re.compile(r"^([wsybgopk])([1-6])$")


def parse_move(text: object) -> Move:
    """Read a move written in the notation; raises :class:`MoveSyntaxError` with the reason."""
    if not isinstance(text, str):
        raise MoveSyntaxError(Reason("a move is written as text, not {kind}", kind=type(text).__name__))
    words = text.strip().split()
    if not words:
        raise MoveSyntaxError(Reason("empty move"))
    head = words[0].lower()
    if len(words) == 1:
        if head == "reroll":
            return REROLL
        if head == "roll":
            return ROLL
        if head == "pass":
            return PASS
        if head == "done":
            return DONE
        m = _ENTRY.match(head)
        if m:
            prefix, die, area, row, col = m.groups()
            if die == "w" and area is None and prefix != "~":
                raise MoveSyntaxError(
                    Reason("{text}: say which area the white die goes to, as in 'w>o'", text=repr(text))
                )
            kind = {"": MoveKind.PICK, "+": MoveKind.EXTRA, "~": MoveKind.SWEEP}[prefix]
            if kind is MoveKind.SWEEP and area not in (None, "s"):
                raise MoveSyntaxError(Reason("{text}: a swept die is crossed in silver", text=repr(text)))
            cell = (int(row), int(col)) if row else None
            return Move(kind, die=die, area=area or ("s" if kind is MoveKind.SWEEP else die), cell=cell)
        m = _BONUS.match(head)
        if m:
            area, row, col, value = m.groups()
            cell = (int(row), int(col)) if row else None
            return Move(MoveKind.BONUS, area=area, cell=cell, value=int(value) if value else None)
    if head == "reprise":
        if len(words) != 2 or words[1].lower() not in DIE_LETTERS:
            raise MoveSyntaxError(
                Reason("{text}: write 'reprise' and one die letter, as in 'reprise g'", text=repr(text))
            )
        return Move(MoveKind.REPRISE, die=words[1].lower())
    if head == "dice":
        return _parse_dice(text, words[1:])
    raise MoveSyntaxError(
        Reason(
            "cannot read {text} as a move: expected a pick such as 'y@r2c3' or 'w>o', "
            "an extra die '+g', a bonus '!o=4', or one of reroll, reprise <die>, roll, pass, done, dice ...",
            text=repr(text),
        )
    )


def _parse_dice(text: str, words: list[str]) -> Move:
    dice: list[tuple[str, int]] = []
    platter: tuple[str, ...] | None = None
    for word in words:
        word = word.lower()
        if word.startswith("platter="):
            letters = word.removeprefix("platter=")
            if not letters or any(ch not in DIE_LETTERS for ch in letters):
                raise MoveSyntaxError(
                    Reason("{text}: 'platter=' takes die letters, as in 'platter=bgo'", text=repr(text))
                )
            platter = tuple(letters)
            continue
        m = _DIE_VALUE.match(word)
        if not m:
            raise MoveSyntaxError(
                Reason("{text}: {word} is not a die and a value 1-6, as in 'y5'", text=repr(text), word=repr(word))
            )
        dice.append((m.group(1), int(m.group(2))))
    if not dice:
        raise MoveSyntaxError(
            Reason("{text}: give the value of each die rolled, as in 'dice w3 y5 b1'", text=repr(text))
        )
    named = [d for d, _ in dice]
    if len(set(named)) != len(named):
        raise MoveSyntaxError(Reason("{text}: each die is given once", text=repr(text)))
    dice.sort(key=lambda dv: DIE_LETTERS.index(dv[0]))
    if platter is not None:
        platter = tuple(sorted(platter, key=DIE_LETTERS.index))
        if len(set(platter)) != len(platter):
            raise MoveSyntaxError(Reason("{text}: each platter die is given once", text=repr(text)))
    return Move(MoveKind.DICE, dice=tuple(dice), platter=platter)


def dice_move(values: dict[str, int], platter: tuple[str, ...] | None = None) -> Move:
    """The chance move for dice given from outside, in canonical order."""
    return _parse_dice(
        "dice", [f"{d}{v}" for d, v in values.items()] + ([f"platter={''.join(platter)}"] if platter else [])
    )

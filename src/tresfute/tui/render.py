"""The terminal game's drawing of a sheet and the dice: :mod:`tresfute.sheet_text`'s, which the
environments' ``ansi`` render mode and the review share without importing the terminal game."""

from ..sheet_text import Target, labelled, render_dice, render_sheet, targets_of, win_chances_now

__all__ = ["Target", "labelled", "render_dice", "render_sheet", "targets_of", "win_chances_now"]

"""The computer players' names, written out so that what only names them (the command line's
options, a record's check) does not import the players themselves (numpy); a test checks them
against ``tresfute.bots``."""

from __future__ import annotations

BUILT_IN = ("greedy", "random", "strong", "strong-win")  # tresfute.bots.BOTS
FILE_KINDS = ("ppo",)  # tresfute.bots.FILE_BOTS: players loaded from a file named "KIND:PATH"

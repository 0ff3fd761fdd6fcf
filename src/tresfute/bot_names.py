"""The computer players, declared once: each one's name, where its class is, its words and whether
it plays with the value network. Written out here, without importing the players themselves
(numpy), so that what only names them (the command line's options, a record's check, the menus)
starts at once; ``tresfute.bots.BOTS`` is made from this list.

Adding a computer player: its module in ``tresfute/bots/``, its line here, its words in the
catalogues (CONTRIBUTING.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from .i18n import N_


@dataclass(frozen=True, slots=True)
class ComputerPlayer:
    """A built-in computer player. ``factory``: ``"module:Class"``, made from a seed;
    ``name_said``: its name for players to read ("greedy"); ``choice``: how a menu offers it
    ("Computer (greedy)"); ``network``: it plays with the value network of the game's rules
    (``bots/network.py``), which may not have been trained under the rules chosen."""

    name: str
    factory: str
    name_said: str
    choice: str
    network: bool = False


# By strength, the weakest first (as ``BOTS`` and the messages list them); menus offer them the
# strongest first (``menu_players``).
COMPUTER_PLAYERS: tuple[ComputerPlayer, ...] = (
    ComputerPlayer("random", "tresfute.bots.random_bot:RandomBot", N_("random play"), N_("Computer (random)")),
    ComputerPlayer("greedy", "tresfute.bots.greedy:GreedyBot", N_("greedy"), N_("Computer (greedy)")),
    ComputerPlayer(
        "strong", "tresfute.bots.strong:StrongBot", N_("strong"), N_("Computer (strong, maximises its score)"), True
    ),
    ComputerPlayer(
        "strong-win",
        "tresfute.bots.winning:WinningBot",
        N_("plays to win"),
        N_("Computer (strong, plays to win)"),
        True,
    ),
)
TABLE_PLAYER = "strong-win"  # a computer seat at a table, unless another is chosen: plays to win

BUILT_IN = tuple(sorted(player.name for player in COMPUTER_PLAYERS))  # the names, sorted (the command line's choice)
FILE_KINDS = ("ppo",)  # tresfute.bots.FILE_BOTS: players loaded from a file named "KIND:PATH"


def computer_player(name: str) -> ComputerPlayer | None:
    """The built-in computer player of this name, if there is one."""
    return next((player for player in COMPUTER_PLAYERS if player.name == name), None)


def menu_players() -> tuple[ComputerPlayer, ...]:
    """The built-in computer players as a menu offers them: the strongest first."""
    return tuple(reversed(COMPUTER_PLAYERS))

"""The steps of a turn, explained for newcomers: the browser's guided game shows each the first
time it happens (``web/static/js/guide.js``, the same words), the terminal game's help lists them."""

from __future__ import annotations

from .i18n import N_, _

# (key, title, explanation), in the order of a first game; the same messages as guide.js's STEPS.
STEPS: tuple[tuple[str, str, str], ...] = (
    (
        "roll",
        N_("The roll"),
        N_(
            "You are the active player: roll the dice. Your turn has up to three rolls; each time you"
            " roll every die that is neither on one of your die fields nor on the silver platter."
        ),
    ),
    (
        "choose",
        N_("Choosing a die"),
        N_(
            "Choose one die of the roll and enter it in the area of its colour: only the places it "
            "may go are offered. The white die is a joker for any colour. The chosen die goes on a "
            "die field."
        ),
    ),
    (
        "platter",
        N_("The silver platter"),
        N_(
            "Every die of the roll lower than the one you chose went to the silver platter: it is out"
            " of your turn, but the passive players pick from it. The others stay for your next roll,"
            " if you have one left."
        ),
    ),
    (
        "bonus",
        N_("A bonus"),
        N_(
            "You have a bonus to place: enter it now. If that entry reaches another bonus, that one "
            "follows: a chain, until every bonus is placed. Rerolls and +1 are circled on their track"
            " and kept for later."
        ),
    ),
    (
        "reroll",
        N_("Reroll"),
        N_(
            "You have a reroll: instead of choosing a die, you may roll again all the dice you just "
            "rolled. It uses up one circle of its track."
        ),
    ),
    (
        "extra",
        N_("Extra die (+1)"),
        N_(
            "Your turn is over and you have a +1: you may enter one more die, any of the six as it "
            "lies, even one already used (each die once per turn), or keep it for later."
        ),
    ),
    (
        "reprise",
        N_("Taking a die back (reprise)"),
        N_("Before this roll you may take one die back from the silver platter, to roll it with the others."),
    ),
    (
        "sweep",
        N_("Silver sweep"),
        N_(
            "Your silver choice sent dice to the platter: you may also cross each of them in the "
            "silver area, a coloured die in its own row, white or silver in any row."
        ),
    ),
    (
        "passive",
        N_("The passive pick"),
        N_(
            "The active player's turn is over: take one die from the silver platter and enter it on "
            "your sheet. Each passive player picks on their own."
        ),
    ),
    (
        "solo",
        N_("The passive pick (solo)"),
        N_(
            "Your passive turn: the six dice are rolled and the three lowest go to the silver "
            "platter. Take one of them and enter it; then your next active turn begins."
        ),
    ),
    (
        "fox",
        N_("The fox"),
        N_(
            "A fox: at the end of the game each fox is worth as many points as your lowest area, so "
            "keep every area growing."
        ),
    ),
)


def steps_text() -> str:
    """The steps as Markdown, in the current language (the terminal game's help)."""
    lines = ["## " + _("Your first game, step by step"), ""]
    lines += ["- " + _("{title}: {text}").format(title=f"**{_(title)}**", text=_(text)) for _key, title, text in STEPS]
    return "\n".join(lines) + "\n"

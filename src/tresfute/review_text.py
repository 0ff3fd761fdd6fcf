"""A game review for the terminal (``tresfute review``): a table, the chart drawn in text, JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .bots.review import Decision, Review
from .i18n import N_, _
from .records import Record
from .rules import Game, Move, parse_move
from .text import describe_move, terminal_safe

if TYPE_CHECKING:  # the table needs Rich (the tui extra); the JSON does not
    from rich.console import Console

LABEL_WORDS = {
    "best": N_("best"),
    "good": N_("good"),
    "inaccuracy": N_("inaccuracy"),
    "mistake": N_("mistake"),
    "blunder": N_("blunder"),
}
LABEL_STYLES = {"best": "green", "good": "cyan", "inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "red"}
CHART_ROWS = 10


def label_word(name: str) -> str:
    return _(LABEL_WORDS[name])


def number(value: float, digits: int = 1) -> str:
    """A number as the reader writes it: a decimal comma in French."""
    from .i18n import language

    text = f"{value:.{digits}f}"
    return text.replace(".", ",") if language() == "fr" else text


def positions(record: Record, review: Review) -> dict[int, Game]:
    """The position before each reviewed decision, by its move number (to describe its moves)."""
    wanted = {d.move_number for d in review.decisions}
    game = Game(record.game, players=len(record.players), seed=record.seed, dice=record.dice)
    from .records import split_entry

    found: dict[int, Game] = {}
    for number_, entry in enumerate(record.moves, start=1):
        seat, text = split_entry(entry)
        if number_ in wanted:
            found[number_] = game.copy()
        game.play(parse_move(text), seat)
    return found


def review_json(record: Record, review: Review) -> dict[str, Any]:
    """The review's JSON (``docs/review.md``), each move also as a sentence in the language."""
    games = positions(record, review)

    def describe(decision: Decision, move: Move) -> str:
        return describe_move(games[decision.move_number], move)

    data = review.to_json(describe)
    for entry in data["decisions"]:
        entry["label_text"] = label_word(entry["label"])
    return data


def chart_lines(values: list[float], rounds: list[int] | None = None, rows: int = CHART_ROWS) -> list[str]:
    """The expected final score through the game, drawn with one column per point; under the
    axis, ``rounds`` (one per point) numbered where each round begins."""
    low, high = min(values), max(values)
    span = max(high - low, 1.0)
    levels = [round((v - low) / span * (rows - 1)) for v in values]
    lines = []
    for row in range(rows - 1, -1, -1):
        axis = high - (rows - 1 - row) * span / (rows - 1)
        cells = "".join("●" if level == row else ("│" if level > row else " ") for level in levels)
        lines.append(f"{axis:6.0f} ┤{cells}")
    lines.append(" " * 7 + "└" + "─" * len(values))
    if rounds is not None:
        marks = [str(r % 10) if k == 0 or r != rounds[k - 1] else " " for k, r in enumerate(rounds)]
        lines.append(" " * 8 + "".join(marks).rstrip())
    return lines


def print_review(record: Record, review: Review, console: Console | None = None) -> None:
    """The review as a table, the costliest decisions and the chart, for the terminal."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = console or Console(highlight=False)
    games = positions(record, review)
    console.print(
        _("Review of {name}: final score {score}, accuracy {accuracy} %, {cost} expected points lost").format(
            name=escape(terminal_safe(review.name)),  # the record's text: no control, no markup
            score=review.final_score,
            accuracy=number(review.accuracy),
            cost=number(review.total_cost),
        )
    )
    counts = "  ".join(f"{label_word(k)} {n}" for k, n in review.counts().items())
    console.print(counts)
    costliest = review.costliest()
    if costliest:
        console.print("\n" + _("The costliest decisions:"))
        for d in costliest:
            game = games[d.move_number]
            console.print(
                "  "
                + _("move {n} (round {round}): {played} instead of {best}, −{cost} points ({label})").format(
                    n=d.move_number,
                    round=d.round,
                    played=describe_move(game, d.played),
                    best=describe_move(game, d.best),
                    cost=number(d.cost),
                    label=label_word(d.label),
                )
            )
    table = Table(show_lines=False)
    table.add_column(_("Move"), justify="right")
    table.add_column(_("Round"), justify="right")
    table.add_column(_("Played"))
    table.add_column(_("Strong player"))
    table.add_column(_("Expected"), justify="right")
    table.add_column(_("Cost"), justify="right")
    table.add_column(_("Label"))
    for d in review.decisions:  # moves in the notation (docs/notation.md), to keep one line each
        style = LABEL_STYLES[d.label]
        table.add_row(
            str(d.move_number),
            str(d.round),
            str(d.played),
            "=" if d.best == d.played else str(d.best),
            number(d.played_value),
            number(d.cost) if d.cost else "",
            f"[{style}]{label_word(d.label)}[/{style}]",
        )
    console.print(table)
    console.print(_("Expected final score through the game (rounds below):"))
    rounds = [d.round for d in review.decisions]
    for line in chart_lines(review.chart(), rounds[:1] + rounds):
        console.print(line, markup=False)


__all__ = ["chart_lines", "label_word", "print_review", "review_json"]

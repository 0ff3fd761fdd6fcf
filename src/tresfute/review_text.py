"""A game review for the terminal (``tresfute review``): a table, the chart drawn in text, JSON,
the costliest decisions checked by rollouts (``--verify``), and practice (``--practice``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .bots.review import Decision, Review
from .bots.why import theme_words
from .i18n import N_, _, ngettext
from .records import Record
from .rules import Game, Move, parse_move
from .text import describe_move, explain, terminal_safe

if TYPE_CHECKING:  # the table needs Rich (the tui extra); the JSON does not
    from rich.console import Console

LABEL_WORDS = {
    "best": N_("best"),
    "good": N_("good"),
    "inaccuracy": N_("inaccuracy"),
    "mistake": N_("mistake"),
    "blunder": N_("blunder"),
}
LEVEL_WORDS = {
    "world_class": N_("world class"),
    "expert": N_("expert"),
    "advanced": N_("advanced"),
    "intermediate": N_("intermediate"),
    "casual": N_("casual player"),
    "apprentice": N_("apprentice"),
    "novice": N_("novice"),
    "beginner": N_("beginner"),
}
# The labels practised by default (``--practice``, the page's practice button); the inaccuracies
# are added when asked (``--inaccuracies``). Counted by label, as the review's counts show them.
PRACTISED_LABELS = ("mistake", "blunder")
WIDTH = 80  # the practice's terminal: what an 80-column terminal shows without wrapping
LABEL_STYLES = {"best": "green", "good": "cyan", "inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "red"}
CHART_ROWS = 10


def label_word(name: str) -> str:
    return _(LABEL_WORDS[name])


def level_word(name: str) -> str:
    return _(LEVEL_WORDS[name])


def number(value: float, digits: int = 1) -> str:
    """A number as the reader writes it: a decimal comma in French and German."""
    from .i18n import decimal_comma

    text = f"{value:.{digits}f}"
    return text.replace(".", ",") if decimal_comma() else text


def signed(value: float, digits: int = 1) -> str:
    """A number with its sign, '+12.3' or '−4.1' (a true minus sign), as the reader writes it."""
    text = number(abs(value), digits)
    return text if text == number(0.0, digits) else ("−" if value < 0 else "+") + text


def balance_text(review: Review) -> str:
    """Where the points went, adding up: the expected final score at the first decision, the
    dice's luck, the decisions' cost and the valuation's own error, to the final score."""
    return _(
        "Where the points went: {start} expected at the first decision, {luck} from the dice (luck), "
        "{cost} from the decisions, {error} the valuation's own error: final score {final}"
    ).format(
        start=number(review.start_value),
        luck=signed(review.luck),
        cost=signed(-review.total_cost),
        error=signed(review.valuation_error),
        final=review.final_score,
    )


def cost_text(decision: Decision) -> str:
    """A decision's cost and its uncertainty (``Decision.cost_error``: the futures' standard
    error and the valuation's own error), e.g. '−5.2 ± 1.8', or '+0.3 ± 1.0' where the move
    played did better than the strong choice (empty when it cost nothing)."""
    if round(decision.cost, 1) == 0:
        return ""
    sign = "−" if decision.cost > 0 else "+"
    text = f"{sign}{number(abs(decision.cost))}"
    return f"{text} ± {number(decision.cost_error)}" if decision.cost_error else text


def positions(record: Record, review: Review) -> dict[int, Game]:
    """The position before each reviewed decision, by its move number (to describe its moves)."""
    wanted = {d.move_number for d in review.decisions}
    from .records import rules_of, split_entry

    game = Game(record.game, players=len(record.players), seed=record.seed, dice=record.dice, rules=rules_of(record))

    found: dict[int, Game] = {}
    for number_, entry in enumerate(record.moves, start=1):
        seat, text = split_entry(entry)
        if number_ in wanted:
            found[number_] = game.copy()
        game.play(parse_move(text), seat)
    return found


def review_json(record: Record, review: Review) -> dict[str, Any]:
    """The review's JSON (``docs/review.md``), each move and reason also as a sentence in the
    language."""
    games = positions(record, review)

    def describe(decision: Decision, move: Move) -> str:
        return describe_move(games[decision.move_number], move)

    data = review.to_json(describe, explain)
    for entry in data["decisions"]:
        entry["label_text"] = label_word(entry["label"])
    data["level_text"] = level_word(data["level"])
    return data


def chart_lines(
    values: list[float],
    rounds: list[int] | None = None,
    rows: int = CHART_ROWS,
    bounds: tuple[float, float] | None = None,
) -> list[str]:
    """The expected final score through the game, drawn with one column per point; under the
    axis, ``rounds`` (one per point) numbered where each round begins. ``bounds``: the axis's
    low and high (the chance to win: 0 to 100), else the values' own."""
    low, high = bounds or (min(values), max(values))
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


def theme_lines(review: Review) -> list[str]:
    """The costly decisions grouped by theme (``Review.themes``), costliest theme first: its
    title, how many and what they cost, their decisions (the practice's positions) and a tip."""
    themes = review.themes()
    if not themes:
        return []
    lines = ["\n" + _("Mistakes by theme:")]
    for theme in themes:
        title, tip = theme_words(theme.name)
        lines.append(
            "  "
            + ngettext(
                "{title}: {n} decision, {cost} points (decision {moves})",
                "{title}: {n} decisions, {cost} points (decisions {moves})",
                len(theme.decisions),
            ).format(
                title=explain(title),
                n=len(theme.decisions),
                cost=number(theme.cost),
                moves=", ".join(str(d.move_number) for d in theme.decisions),
            )
        )
        lines.append("    " + explain(tip))
    return lines


def print_review(record: Record, review: Review, console: Console | None = None) -> None:
    """The review as a table, the costliest decisions and the chart, for the terminal."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console(highlight=False)
    games = positions(record, review)
    for line in summary_lines(review):
        console.print(line, markup=False)
    if review.costliest():
        console.print("\n" + _("The costliest decisions:"), markup=False)
        for line in costliest_lines(review, games, reasons=True):
            console.print(line, markup=False)
    for line in theme_lines(review):
        console.print(line, markup=False)
    table = Table(show_lines=False)
    table.add_column(_("Decision"), justify="right")
    table.add_column(_("Round"), justify="right")
    table.add_column(_("Played"))
    table.add_column(_("Strong player"))
    table.add_column(_("Expected"), justify="right")
    table.add_column(_("Cost"), justify="right")
    table.add_column(_("Label"))
    table.add_column(_("Why"))
    for d in review.decisions:
        game = games[d.move_number]
        style = LABEL_STYLES[d.label]
        table.add_row(
            str(d.move_number),
            str(d.round),
            describe_move(game, d.played),
            "=" if d.best == d.played else describe_move(game, d.best),
            number(d.played_value),
            cost_text(d),
            f"[{style}]{label_word(d.label)}[/{style}]",
            explain(d.reason) if d.reason is not None else "",
        )
    console.print(table)
    console.print(_("Expected final score through the game (rounds below):"), markup=False)
    rounds = [d.round for d in review.decisions]
    for line in chart_lines(review.chart(), rounds[:1] + rounds):
        console.print(line, markup=False)
    chances = review.win_chart()
    if chances:  # at a table: the chance to finish first at the same points, in %
        console.print(_("Chance to win through the game, in % (rounds below):"), markup=False)
        for line in chart_lines([100 * c for c in chances], rounds[:1] + rounds, bounds=(0.0, 100.0)):
            console.print(line, markup=False)


def summary_lines(review: Review) -> list[str]:
    """The review's few lines of figures: the final score, the accuracy, the error rate and its
    level, where the points went, and how many decisions got each label."""
    return [
        _("Review of {name}: final score {score}, accuracy {accuracy} %, {cost} expected points lost").format(
            name=terminal_safe(review.name),  # the record's text: no control (printed without markup)
            score=review.final_score,
            accuracy=number(review.accuracy),
            cost=number(review.total_cost),
        ),
        _("Error rate: {rate} points lost per decision that mattered (level: {level})").format(
            rate=number(review.error_rate, 2), level=level_word(review.level)
        ),
        balance_text(review),
        "  ".join(f"{label_word(k)} {n}" for k, n in review.counts().items()),
    ]


def print_summary(record: Record, review: Review, console: Console | None = None) -> None:
    """The review in a few lines (:func:`summary_lines`, the costliest decisions), wrapped to
    80 columns: what ``--practice`` shows before its positions, in place of the whole table."""
    from rich.console import Console

    console = console or Console(highlight=False, width=WIDTH)
    for line in summary_lines(review):
        console.print(line, markup=False)
    for line in costliest_lines(review, positions(record, review), reasons=False):
        console.print(line, markup=False)


def costliest_lines(review: Review, games: dict[int, Game], reasons: bool) -> list[str]:
    """The costliest decisions, a line each (what was played, the best move, the cost and its
    label), each followed by its reason if ``reasons``."""
    lines = []
    for d in review.costliest():
        game = games[d.move_number]
        lines.append(
            "  "
            + _("decision {n} (round {round}): {played} instead of {best}, {cost} points ({label})").format(
                n=d.move_number,
                round=d.round,
                played=describe_move(game, d.played),
                best=describe_move(game, d.best),
                cost=cost_text(d),
                label=label_word(d.label),
            )
        )
        if reasons and d.reason is not None:
            lines.append("    " + explain(d.reason))
    return lines


def verified_lines(review: Review) -> list[str]:
    """The decisions checked by rollouts (``--verify``), costliest first: the cost shown and the
    rollouts', each with its standard error, and whether they agree (within twice their
    combined standard error). Empty when none was checked."""
    checked = sorted((d for d in review.decisions if d.verified is not None), key=lambda d: (-d.cost, d.move_number))
    if not checked:
        return []
    from .bots.verify import agrees

    rollouts = max(d.verified.rollouts for d in checked if d.verified is not None)
    lines = [
        _(
            "Checked by strong rollouts to the end ({n} for each move, the same dice for both), "
            "points lost ± standard error:"
        ).format(n=rollouts)
    ]
    for d in checked:
        verified = d.verified
        assert verified is not None
        agreed = agrees(d.cost, d.cost_error, verified)
        lines.append(
            "  "
            + _("decision {n} (round {round}): review {cost} ± {error}, rollouts {verified} ± {se}: {verdict}").format(
                n=d.move_number,
                round=d.round,
                cost=number(d.cost),
                error=number(d.cost_error),
                verified=number(verified.cost),
                se=number(verified.se),
                verdict=_("they agree") if agreed else _("they disagree"),
            )
        )
    return lines


def print_verified(record: Record, review: Review, console: Console | None = None) -> None:
    """:func:`verified_lines`, if any decision was checked."""
    from rich.console import Console

    console = console or Console(highlight=False)
    for line in verified_lines(review):
        console.print(line, markup=False)


def practice_queue(review: Review, inaccuracies: bool = False) -> list[Decision]:
    """The decisions to practise, costliest first: those labelled mistake or blunder, and with
    ``inaccuracies`` those labelled inaccuracy too (as many as the review's counts say)."""
    wanted = PRACTISED_LABELS + (("inaccuracy",) if inaccuracies else ())
    chosen = (d for d in review.decisions if d.label in wanted)
    return sorted(chosen, key=lambda d: (-d.cost, d.move_number))


def practice(
    record: Record,
    review: Review,
    ask: Callable[[str], str],
    say: Callable[[str], None],
    inaccuracies: bool = False,
) -> int:
    """Play again the mistakes and blunders of a review (``tresfute review --practice``; with
    ``inaccuracies``, those too), costliest first, as "learn from your mistakes": each position
    is shown (the sheet and the dice as they were, 80 columns) with the move played then and
    what it cost; the player names a move (its number in the list, or the notation) and is
    asked again until one is within ``PRACTICE_MARGIN`` points of the best, or ``?`` shows the
    best move and why. Returns how many were found. ``ask`` reads an answer (empty: stop),
    ``say`` writes a line."""
    import textwrap

    from rich.console import Console

    from .bots.review import PRACTICE_MARGIN, Answer, judge
    from .tui.render import render_dice, render_sheet

    queue = practice_queue(review, inaccuracies)
    if not queue:
        counts = review.counts()
        if not inaccuracies and counts["inaccuracy"]:
            say(
                _("No mistake or blunder to practise; --inaccuracies adds the {n} inaccuracies.").format(
                    n=counts["inaccuracy"]
                )
            )
        else:
            say(_("No mistake or blunder to practise.") if not inaccuracies else _("Nothing to practise."))
        return 0
    games = positions(record, review)
    console = Console(highlight=False, record=True, width=WIDTH)
    wrap = textwrap.TextWrapper(width=WIDTH, subsequent_indent="      ")

    def tell(text: str, indent: str = "") -> None:
        for line in textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent) or [""]:
            say(line)

    tell(
        _(
            "{n} positions to practise, costliest first. Name a move by its number or its notation: "
            "you are asked again until you find one within {margin} point of the best; ? shows the "
            "best move, an empty answer stops."
        ).format(n=len(queue), margin=number(PRACTICE_MARGIN))
    )
    found = 0
    for k, d in enumerate(queue, start=1):
        game = games[d.move_number]
        moves = game.legal_moves(review.player)
        with console.capture() as captured:
            console.print(render_sheet(game, review.player, set(), None))
            console.print(render_dice(game))
        say(captured.get().rstrip("\n"))
        tell(
            _("Position {k} of {n} (decision {number}, round {round}).").format(
                k=k, n=len(queue), number=d.move_number, round=d.round
            )
        )
        tell(
            _("You played {move}: {cost} points below the strong player's choice ({label}).").format(
                move=describe_move(game, d.played),
                cost=f"{number(d.cost)} ± {number(d.cost_error)}",
                label=label_word(d.label),
            )
        )
        for i, move in enumerate(moves, start=1):
            for line in wrap.wrap(f"  {i:2}. {describe_move(game, move)}"):
                say(line)
        judged: dict[Move, Answer] = {}
        while True:
            text = ask(_("Your move (number; ? shows the best; empty stops)")).strip()
            if not text:
                tell(_("{found} of {n} positions found.").format(found=found, n=k - 1))
                return found
            if text == "?":
                answer = judged.get(d.played) or judge(game, review.player, d.played)
                tell(_("The best move: {best}.").format(best=describe_move(game, answer.best)))
                if answer.reason is not None:
                    tell(explain(answer.reason), "  ")
                break
            tried = _chosen(text, moves)
            if tried is None:
                tell(_("Not one of the moves listed: give its number (1 to {n}).").format(n=len(moves)))
                continue
            answer = judged[tried] = judged.get(tried) or judge(game, review.player, tried)
            if answer.right:
                found += 1
                tell(
                    _("Right: {move} is within {margin} point of the best move ({cost} points).").format(
                        move=describe_move(game, tried), margin=number(PRACTICE_MARGIN), cost=number(answer.cost)
                    )
                )
                break
            tell(
                _("Not quite: {move} gives away {cost} points. Try another move, or ? to see the best one.").format(
                    move=describe_move(game, tried), cost=number(answer.cost)
                )
            )
    tell(_("{found} of {n} positions found.").format(found=found, n=len(queue)))
    return found


def _chosen(text: str, moves: list[Move]) -> Move | None:
    """The move a practice answer names: its number in the list, or its notation."""
    if text.isdigit():
        k = int(text)
        return moves[k - 1] if 1 <= k <= len(moves) else None
    try:
        move = parse_move(text)
    except ValueError:
        return None
    return move if move in moves else None


__all__ = [
    "balance_text",
    "chart_lines",
    "cost_text",
    "label_word",
    "level_word",
    "practice",
    "practice_queue",
    "print_review",
    "print_summary",
    "print_verified",
    "review_json",
    "signed",
    "summary_lines",
    "verified_lines",
]

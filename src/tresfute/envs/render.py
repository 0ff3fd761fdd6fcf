"""The ``ansi`` render mode: the terminal game's own drawing of the sheets (``sheet_text``), as
plain text (drawn with Rich, the ``tui`` extra's: imported only for this mode)."""

from __future__ import annotations

from ..i18n import _
from ..rules import Game
from ..text import situation


def require_text_render() -> None:
    """Raise an ImportError naming the extra when the ``ansi`` mode cannot draw (no Rich)."""
    try:
        from .. import sheet_text  # noqa: F401  (the terminal game's drawing, with Rich)
    except ImportError as error:
        raise ImportError(
            'render_mode "ansi" draws the sheet as tresfute play does, with Rich (the tui extra): '
            'pip install "tresfute[tui]"',
            name=error.name,
        ) from error


def render_text(game: Game, seat: int, names: list[str] | None = None) -> str:
    """What ``tresfute play`` shows ``seat`` (in the current language, French by default):
    the round and what to do, the dice, the sheet ([5]: a cell the player may take now);
    then the other players' totals and the legal moves in the notation."""
    from ..sheet_text import labelled, render_dice, render_sheet, targets_of

    names = names or [f"player_{i}" for i in range(game.n_players)]
    moves = game.legal_moves(seat) if seat in game.players_to_move else []
    head = _("Round {round}/{rounds}").format(round=game.round, rounds=game.rounds)
    todo = situation(game, seat) if moves else ""
    who = f"{head} · {names[seat]}"
    lines = [
        f"{labelled(who)} {todo}" if todo else who,  # "Tour 1/6 · Zoé : …" in French
        render_dice(game).plain.rstrip(),
        render_sheet(game, seat, targets_of(moves), None).plain.rstrip("\n"),
    ]
    others = [f"{labelled(names[p])} {game.score(p).total}" for p in range(game.n_players) if p != seat]
    if others:
        lines.append(" · ".join(others))
    if moves:
        lines.append("→ " + " ".join(str(m) for m in moves))
    return "\n".join(lines) + "\n"

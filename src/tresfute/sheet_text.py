"""A sheet and the dice drawn as Rich text, as on paper: the terminal game's drawing (``tui``),
also the environments' ``ansi`` render mode and the review's positions in the terminal.

Symbols carry the meaning (✗ crossed, ◯ circled, [5] a legal target, >5< the move under the
cursor, ▒ printed); colours only add to them, so the sheet reads without colour too.

Two drawings of the same sheet description: the full one (one area under the other, with
every label spelled out) and the compact one for small terminals (80×24): the grids in a column
on the left, the tracks, action tracks and round track on the right, labels shortened. Needs
Rich (the ``tui`` extra), but not Textual.
"""

from __future__ import annotations

from rich.text import Text

from .bots.winning import WinChances
from .i18n import _, decimal_comma, ngettext
from .rules import Game, Move, MoveKind, Where
from .rules.kinds import ActionBonus, Bonus, Grid, Track, TrackScoring
from .text import action_name, area_name, bonus_label, die_name, short_area

COLOURS = {
    "w": "#111111 on #eeeeee",
    "s": "#111111 on #b4bcc8",
    "y": "#111111 on #f7d51d",
    "b": "#ffffff on #1f5fd1",
    "g": "#111111 on #3cb44b",
    "o": "#111111 on #f58231",
    "p": "#ffffff on #7b2cbf",
    "k": "#111111 on #ff6fb5",
}
TARGET = "bold underline"
FOCUS = "bold reverse"
USED = "dim strike"  # a bonus reached: crossed out, as on paper
NO_BREAK = "\u00a0"  # before % in French and German
CELL = 4  # characters per cell or box in the compact drawing
GAP = 2  # between the compact drawing's two columns

Target = tuple[str, tuple[int, int] | None]  # (area, cell) or (area, None) for a track's next box


def targets_of(moves: list[Move]) -> set[Target]:
    return {(m.area, m.cell) for m in moves if m.area is not None and m.kind is not MoveKind.REPRISE}


def labelled(label: str) -> str:
    """``Rounds:`` in English, ``Tours :`` in French (a non-breaking space before the colon)."""
    return _("{label}:").format(label=label)


def render_sheet(game: Game, player: int, targets: set[Target], focus: Target | None, compact: bool = False) -> Text:
    if compact:
        return _compact_sheet(game, player, targets, focus)
    sheet = game.sheets[player]
    score = sheet.score()
    out = Text()
    for a, area in game.spec.areas.items():
        _title(out, a, score.areas[a])
        out.append("\n")
        if isinstance(area, Grid):
            _grid(out, game, a, area, sheet.areas[a], targets, focus)
        else:
            _track(out, a, area, sheet.areas[a], targets, focus)
        out.append("\n")
    for line in _actions(game, player, compact=False):
        out.append_text(line)
        out.append("\n")
    out.append_text(_rounds(game))
    out.append("\n")
    out.append_text(_foxes_and_total(game, player))
    out.append("\n")
    return out


def _title(out: Text, a: str, points: int) -> None:
    out.append(f" {area_name(a).upper()} ", style=COLOURS[a])
    out.append("  " + ngettext("{n} point", "{n} points", abs(points)).format(n=points))


def _cell_token(area: Grid, level: int, value: int, state: str) -> str:
    """Four characters: '  5 ', '[ 5]' a legal target, '> 5<' the move under the cursor."""
    if state == "focus":
        return f">{value:>2}<"
    if state == "target":
        return f"[{'◯' if level else ' '}{value}]" if value < 10 else f"[{value}]"
    if level == 0:
        return f" {value:>2} "
    if area.marks == 2 and level == 1:
        return f" ◯{value} "
    return "  ⊗ " if area.marks == 2 else "  ✗ "


def _grid_row(
    game: Game, a: str, area: Grid, state: list[int], r: int, targets: set[Target], focus: Target | None
) -> Text:
    """One row of a grid's cells, ``CELL`` characters each."""
    out = Text()
    for c in range(1, area.cols + 1):
        index = area.cell_index.get((r, c))
        if index is None:
            out.append("  ▒ " if game.spec.id == "tres-fute" else "    ", style="dim")
            continue
        cell = area.cells[index]
        where = (a, (r, c))
        state_name = "focus" if focus == where else "target" if where in targets else ""
        style = (
            FOCUS
            if state_name == "focus"
            else TARGET
            if state_name == "target"
            else ("dim" if state[index] >= area.marks else COLOURS[a])
        )
        out.append(_cell_token(area, state[index], cell.value, state_name), style=style)
    return out


def _row_label(area: Grid, r: int) -> Text:
    if area.row_colours:
        return Text(f"{short_area(area.row_colours[r - 1]):>2}", style=COLOURS[area.row_colours[r - 1]])
    return Text(f"r{r}", style="dim")


def _line_done(area: Grid, state: list[int], name: str) -> bool:
    line = next((li for li in area.lines if li.name == name), None)
    return line is not None and all(state[i] for i in line.cells)


def _grid(
    out: Text, game: Game, a: str, area: Grid, state: list[int], targets: set[Target], focus: Target | None
) -> None:
    rows = {line.name: line for line in area.lines}
    out.append("     " + "".join(f"   c{c}" for c in range(1, area.cols + 1)) + "\n", style="dim")
    for r in range(1, area.rows + 1):
        out.append("  ")
        out.append_text(_row_label(area, r))
        out.append(" ")
        for token in _grid_row(game, a, area, state, r, targets, focus).divide(range(CELL, CELL * area.cols, CELL)):
            out.append(" ")
            out.append_text(token)
        line = rows.get(f"row {r}")
        if line is not None and line.bonus is not None:
            out.append(f"  → {bonus_label(line.bonus)}", style=USED if _line_done(area, state, line.name) else "")
        out.append("\n")
    feet = []
    for c in range(1, area.cols + 1):
        line = rows.get(f"column {c}")
        if line is None:
            feet.append("    ")
            continue
        feet.append(f"{line.points if line.points else bonus_label(line.bonus):>5}")
    if any(f.strip() for f in feet):
        out.append("   ↓ " + "".join(feet) + "\n")
    diagonal = rows.get("diagonal")
    if diagonal is not None:
        out.append("      ↘ " + _("diagonal: {bonus}").format(bonus=bonus_label(diagonal.bonus)) + "\n")
    for group in area.count_scores[:1]:
        points = " ".join(map(str, group.points[1:]))
        if len(area.count_scores) == 1:
            out.append("      " + _("points by crosses: {points}").format(points=points) + "\n")
        else:
            out.append("      " + _("points per row by crosses: {points}").format(points=points) + "\n")


def _track(out: Text, a: str, area: Track, state: list[int], targets: set[Target], focus: Target | None) -> None:
    n = len(area.boxes)
    if any(b.multiplier != 1 for b in area.boxes):
        out.append("      " + "".join(f"{'×' + str(b.multiplier):>5}" for b in area.boxes) + "\n", style="dim")
    if any(b.minimum != 1 for b in area.boxes):
        out.append("      " + "".join(f"{'≥' + str(b.minimum):>5}" for b in area.boxes) + "\n", style="dim")
    out.append("      ")
    for i in range(n):
        if i < len(state):
            out.append(f"{'✗' if area.crosses else state[i]:>5}", style=COLOURS[a])
        elif i == len(state) and (a, None) in targets:
            out.append(f"{'>__<' if focus == (a, None) else '[__]':>5}", style=FOCUS if focus == (a, None) else TARGET)
        else:
            out.append(f"{'__':>5}", style="dim")
    out.append("\n      ")
    for i, box in enumerate(area.boxes):
        out.append(f"{bonus_label(box.bonus):>5}", style=USED if i < len(state) else "")
    out.append("\n")
    if any(b.bonus_minimum > 1 for b in area.boxes):
        out.append(
            "      "
            + "".join(f"{'≥' + str(b.bonus_minimum) if b.bonus_minimum > 1 else '':>5}" for b in area.boxes)
            + "\n",
            style="dim",
        )
    if area.points:
        points = " ".join(map(str, area.points[1:]))
        out.append("      " + _("points by boxes filled: {points}").format(points=points) + "\n")


def _actions(game: Game, player: int, compact: bool) -> list[Text]:
    """Each action track: circles crossed when used (⊗), earned (●), still to earn (○)."""
    sheet = game.sheets[player]
    lines = []
    for track in game.spec.actions:
        earned, used = sheet.earned[track.action], sheet.used[track.action]
        circles = "⊗" * used + "●" * (earned - used) + "○" * (track.circles - earned)
        end = f" → {bonus_label(track.end_bonus)}" if track.end_bonus is not None else ""
        symbol = f"{bonus_label(ActionBonus(track.action)):>2}"
        name = "" if compact else " " + labelled(action_name(track.action))
        left = ngettext("{n} left", "{n} left", earned - used).format(n=earned - used)
        lines.append(Text(f"{symbol}{name} {circles}{end}  {left}"))
    return lines


def _rounds(game: Game) -> Text:
    """The round track: past rounds struck through, the current one highlighted, each gift."""
    out = Text(labelled(_("Rounds")) + " ")
    for r in range(1, game.rounds + 1):
        gift = bonus_label(game.spec.round_gifts[r - 1])
        style = "dim strike" if r < game.round else "bold reverse" if r == game.round else ""
        out.append(f"{r}{' ' + gift if gift else ''}", style=style)
        out.append("  ")
    out.rstrip()
    return out


def _foxes_and_total(game: Game, player: int) -> Text:
    score = game.sheets[player].score()
    chances = win_chances_now(game)
    gap = "    " if chances is None else "  "  # at a table the chance to win fits in 80 columns too
    out = Text(
        _("Foxes: {n} × {value} = {points}").format(
            n=score.foxes, value=score.fox_value, points=score.foxes * score.fox_value
        )
        + gap
    )
    out.append(_("Total: {total}").format(total=score.total), style="bold")
    if chances is not None:
        percent = f"{round(100 * chances[player])}{NO_BREAK if decimal_comma() else ''}%"  # 45 %, 45%
        out.append(gap + _("win: {percent}").format(percent=percent))
    return out


# The game on screen's win chances, followed move by move (``bots.winning.WinChances``) and kept
# for the position (every sheet of a drawing, every redraw, reads the same).
_followed: tuple[WinChances, tuple[object, ...], list[float]] | None = None


def win_chances_now(game: Game) -> list[float] | None:
    """Every seat's chance to finish first in ``game`` now, or None alone."""
    global _followed
    if game.n_players == 1:
        return None
    key = (game.spec.id, game.seed, game.n_players, len(game.history), game.history[-1] if game.history else None)
    if _followed is not None and _followed[1] == key:
        return _followed[2]
    follower = _followed[0] if _followed is not None else WinChances()
    chances = follower(game)
    _followed = (follower, key, chances)
    return chances


# --- the compact drawing ---------------------------------------------------------------------


def _short_bonus(bonus: Bonus | None) -> str:
    """A bonus in three characters at most ("Xbl", "?ja", "4or", "REN", "+1"), to sit in a cell."""
    return bonus_label(bonus).replace(" ", "")


def _wrapped(words: list[str], width: int, indent: str = "") -> list[Text]:
    lines: list[str] = []
    for word in words:
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(indent + word if lines else word)
    return [Text(line, style="dim") for line in lines]


def _compact_title(a: str, points: int) -> Text:
    out = Text()
    _title(out, a, points)
    return out


def _compact_grid(
    game: Game, a: str, area: Grid, state: list[int], targets: set[Target], focus: Target | None
) -> list[Text]:
    lines = [_compact_title(a, area.score(state))]
    rows = {line.name: line for line in area.lines}
    for r in range(1, area.rows + 1):
        line = _row_label(area, r)
        line.append(" ")
        line.append_text(_grid_row(game, a, area, state, r, targets, focus))
        bonus = rows.get(f"row {r}")
        if bonus is not None and bonus.bonus is not None:
            line.append(f" →{bonus_label(bonus.bonus)}", style=USED if _line_done(area, state, bonus.name) else "")
        lines.append(line)
    feet = Text("↓  ")
    for c in range(1, area.cols + 1):
        column = rows.get(f"column {c}")
        if column is None:
            feet.append(" " * CELL)
            continue
        label = str(column.points) if column.points else _short_bonus(column.bonus)
        feet.append(f"{label:>{CELL}}", style=USED if _line_done(area, state, column.name) else "")
    if feet.plain.strip() != "↓":
        lines.append(feet)
    diagonal = rows.get("diagonal")
    if diagonal is not None:
        text = "↘ " + _("diagonal: {bonus}").format(bonus=bonus_label(diagonal.bonus))
        lines.append(Text(text, style=USED if _line_done(area, state, diagonal.name) else ""))
    width = max(line.cell_len for line in lines)
    if area.count_scores:
        points = " ".join(map(str, area.count_scores[0].points[1:]))
        if len(area.count_scores) == 1:
            ladder = _("by crosses: {points}").format(points=points)
        else:
            ladder = _("per row: {points}").format(points=points)
        lines.extend(_wrapped(ladder.split(" "), width, indent="  "))
    return lines


def _box_token(area: Track, state: list[int], i: int, targets: set[Target], focus: Target | None) -> tuple[str, str]:
    """A box as four characters, and its style: what is written, or what the sheet prints."""
    a = area.colour
    if i < len(state):
        return (f"{'✗' if area.crosses else state[i]:>3} ", COLOURS[a])
    box = area.boxes[i]
    printed = "__"
    if any(b.minimum != 1 for b in area.boxes):
        printed = f"≥{box.minimum}"
    elif any(b.multiplier != 1 for b in area.boxes):
        printed = f"×{box.multiplier}"
    if i == len(state) and (a, None) in targets:
        return (f">{printed}<", FOCUS) if focus == (a, None) else (f"[{printed}]", TARGET)
    return (f" {printed} ", "dim")


def _compact_track(a: str, area: Track, state: list[int], targets: set[Target], focus: Target | None) -> list[Text]:
    boxes, bonuses = Text(), Text()
    for i, box in enumerate(area.boxes):
        token, style = _box_token(area, state, i, targets, focus)
        boxes.append(token, style=style)
        bonuses.append(f"{_short_bonus(box.bonus):>3} ", style=USED if i < len(state) else "")
    lines = [_compact_title(a, area.score(state)), boxes, bonuses]
    if any(b.bonus_minimum > 1 for b in area.boxes):  # a box's bonus only from this value
        lines.append(
            Text("".join(f"{'≥' + str(b.bonus_minimum) if b.bonus_minimum > 1 else '':>3} " for b in area.boxes), "dim")
        )
    if area.scoring is TrackScoring.LAST_FILLED:  # the points printed under each box
        lines.append(Text("".join(f"{p:>3} " for p in area.points[1:]), "dim"))
    return lines


def _compact_sheet(game: Game, player: int, targets: set[Target], focus: Target | None) -> Text:
    sheet = game.sheets[player]
    left: list[Text] = []
    right: list[Text] = []
    for a, area in game.spec.areas.items():
        if isinstance(area, Grid):
            left.extend(_compact_grid(game, a, area, sheet.areas[a], targets, focus))
        else:
            right.extend(_compact_track(a, area, sheet.areas[a], targets, focus))
    right.extend(_actions(game, player, compact=True))
    right.append(_rounds(game))
    right.append(_foxes_and_total(game, player))
    width = max(line.cell_len for line in left) + GAP
    out = Text()
    for i in range(max(len(left), len(right))):
        line = left[i].copy() if i < len(left) else Text()
        line.pad_right(width - line.cell_len)
        if i < len(right):
            line.append_text(right[i])
        line.rstrip()
        out.append_text(line)
        out.append("\n")
    out.rstrip()
    return out


def render_dice(game: Game, compact: bool = False) -> Text:
    """Where each die lies: the roll (or, in a solo passive turn, the other dice), the silver
    platter, the die fields. The compact line (at most 80 columns) shortens the group names
    and leaves out the empty groups."""
    groups = {
        Where.HAND: _("Other dice") if game.solo_passive else _("Roll"),
        Where.PLATTER: _("Platter") if compact else _("Silver platter"),
        Where.FIELD: _("Fields") if compact else _("Die fields"),
    }
    out = Text()
    for where, title in groups.items():
        dice = [i for i in range(6) if game.where[i] is where]
        if where is Where.FIELD:
            dice = [i for i in game.field]
        if compact and not dice:  # every die is in another group
            continue
        if out:
            out.append("  " if compact else "     ")
        out.append(labelled(title), style="bold")
        if not dice:
            out.append(" —")
        for i in dice:
            value = game.values[i]
            letter = game.dice[i]
            out.append(" ")
            chip = f"{die_name(letter)} {value if value else '?'}"
            out.append(chip if compact else f" {chip} ", style=COLOURS[letter])
    return out

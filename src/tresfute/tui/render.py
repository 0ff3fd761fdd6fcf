"""Draw a sheet and the dice as Rich text, as on paper.

Symbols carry the meaning (✗ crossed, ◯ circled, [5] a legal target, >5< the move under the
cursor, ▒ printed); colours only add to them, so the sheet reads without colour too.
"""

from __future__ import annotations

from rich.text import Text

from ..i18n import _, ngettext
from ..rules import Game, Move, MoveKind, Where
from ..rules.kinds import ActionBonus, Grid, Track
from ..text import action_name, area_name, bonus_label, die_name, short_area

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

Target = tuple[str, tuple[int, int] | None]  # (area, cell) or (area, None) for a track's next box


def targets_of(moves: list[Move]) -> set[Target]:
    return {(m.area, m.cell) for m in moves if m.area is not None and m.kind is not MoveKind.REPRISE}


def render_sheet(game: Game, player: int, targets: set[Target], focus: Target | None) -> Text:
    sheet = game.sheets[player]
    score = sheet.score()
    out = Text()
    for a, area in game.spec.areas.items():
        title = f" {area_name(a).upper()} "
        out.append(title, style=COLOURS[a])
        points = score.areas[a]
        out.append("  " + ngettext("{n} point", "{n} points", abs(points)).format(n=points) + "\n")
        if isinstance(area, Grid):
            _grid(out, game, a, area, sheet.areas[a], targets, focus)
        else:
            _track(out, a, area, sheet.areas[a], targets, focus)
        out.append("\n")
    _actions(out, game, player)
    _rounds(out, game)
    fox_text = _("Foxes: {n} × {value} = {points}").format(
        n=score.foxes, value=score.fox_value, points=score.foxes * score.fox_value
    )
    out.append(f"{fox_text}    ")
    out.append(_("Total: {total}").format(total=score.total), style="bold")
    out.append("\n")
    return out


def _cell_token(area: Grid, level: int, value: int, state: str) -> str:
    """Five characters: '   5 ', ' [ 5]' a legal target, ' > 5<' the move under the cursor."""
    if state == "focus":
        return f" >{value:>2}<"
    if state == "target":
        return f" [{'◯' if level else ' '}{value}]" if value < 10 else f" [{value}]"
    if level == 0:
        return f"  {value:>2} "
    if area.marks == 2 and level == 1:
        return f"  ◯{value} "
    return "   ⊗ " if area.marks == 2 else "   ✗ "


def _grid(
    out: Text, game: Game, a: str, area: Grid, state: list[int], targets: set[Target], focus: Target | None
) -> None:
    rows = {line.name: line for line in area.lines}
    out.append("     " + "".join(f"   c{c}" for c in range(1, area.cols + 1)) + "\n", style="dim")
    for r in range(1, area.rows + 1):
        if area.row_colours:
            out.append(f"  {short_area(area.row_colours[r - 1]):>2} ", style=COLOURS[area.row_colours[r - 1]])
        else:
            out.append(f"  r{r} ", style="dim")
        for c in range(1, area.cols + 1):
            index = area.cell_index.get((r, c))
            if index is None:
                out.append("   ▒ " if game.spec.id == "tres-fute" else "     ", style="dim")
                continue
            cell = area.cells[index]
            where = (a, (r, c))
            state_name = "focus" if focus == where else "target" if where in targets else ""
            token = _cell_token(area, state[index], cell.value, state_name)
            style = (
                FOCUS
                if state_name == "focus"
                else TARGET
                if state_name == "target"
                else ("dim" if state[index] >= area.marks else COLOURS[a])
            )
            out.append(token, style=style)
        line = rows.get(f"row {r}")
        if line is not None and line.bonus is not None:
            done = all(state[i] for i in line.cells)
            out.append(f"  → {bonus_label(line.bonus)}", style="dim strike" if done else "")
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
        if len(area.count_scores) == 1:
            out.append("      " + _("points by crosses") + ": " + " ".join(map(str, group.points[1:])) + "\n")
        else:
            out.append("      " + _("points per row by crosses") + ": " + " ".join(map(str, group.points[1:])) + "\n")


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
        label = bonus_label(box.bonus)
        if box.bonus is not None and box.bonus_minimum > 1:
            label = f"{label}"
        out.append(f"{label:>5}", style="dim strike" if i < len(state) else "")
    out.append("\n")
    if any(b.bonus_minimum > 1 for b in area.boxes):
        out.append(
            "      "
            + "".join(f"{'≥' + str(b.bonus_minimum) if b.bonus_minimum > 1 else '':>5}" for b in area.boxes)
            + "\n",
            style="dim",
        )
    if area.points:
        out.append("      " + _("points by boxes filled") + ": " + " ".join(map(str, area.points[1:])) + "\n")


def _actions(out: Text, game: Game, player: int) -> None:
    sheet = game.sheets[player]
    for track in game.spec.actions:
        earned, used = sheet.earned[track.action], sheet.used[track.action]
        circles = "⊗" * used + "●" * (earned - used) + "○" * (track.circles - earned)
        end = f" → {bonus_label(track.end_bonus)}" if track.end_bonus is not None else ""
        out.append(f"{bonus_label(ActionBonus(track.action)):>2} {action_name(track.action)}: {circles}{end}  ")
        out.append(_("({n} left)").format(n=earned - used) + "\n")


def _rounds(out: Text, game: Game) -> None:
    """The round track: past rounds struck through, the current one highlighted, each gift."""
    out.append(_("Rounds") + ": ")
    for r in range(1, game.rounds + 1):
        gift = bonus_label(game.spec.round_gifts[r - 1])
        label = f" {r}{' ' + gift if gift else ''} "
        style = "dim strike" if r < game.round else "bold reverse" if r == game.round else ""
        out.append(label, style=style)
        out.append(" ")
    out.append("\n")


def render_dice(game: Game) -> Text:
    groups = {
        Where.HAND: _("Other dice") if game.solo_passive else _("Roll"),
        Where.PLATTER: _("Silver platter"),
        Where.FIELD: _("Die fields"),
    }
    out = Text()
    for where, title in groups.items():
        dice = [i for i in range(6) if game.where[i] is where]
        if where is Where.FIELD:
            dice = [i for i in game.field]
        out.append(f"{title}: ", style="bold")
        if not dice:
            out.append("—  ")
        for i in dice:
            value = game.values[i]
            letter = game.dice[i]
            out.append(f" {die_name(letter)} {value if value else '?'} ", style=COLOURS[letter])
            out.append(" ")
        out.append("   ")
    return out

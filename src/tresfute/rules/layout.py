"""Build areas from printed tables, the way the sheet references give them."""

from __future__ import annotations

from collections.abc import Sequence

from .kinds import Bonus, Box, Cell, CountScore, Grid, Line


def grid_from_table(
    colour: str,
    table: Sequence[Sequence[int | None]],
    *,
    row_bonuses: Sequence[Bonus | None] = (),
    column_bonuses: Sequence[Bonus | None] = (),
    column_points: Sequence[int] = (),
    diagonals: Sequence[tuple[str, Sequence[tuple[int, int]], Bonus]] = (),
    count_points: Sequence[int] = (),
    row_count_points: Sequence[int] = (),
    marks: int = 1,
    row_colours: Sequence[str] = (),
) -> Grid:
    """``None`` cells are printed (pre-crossed) or absent: never markable, always complete.

    ``count_points`` scores the fully marked cells of the whole grid; ``row_count_points``
    scores each row on its own (silver).
    """
    cells: list[Cell] = []
    index: dict[tuple[int, int], int] = {}
    for r, row in enumerate(table, start=1):
        for c, value in enumerate(row, start=1):
            if value is not None:
                index[(r, c)] = len(cells)
                cells.append(Cell(r, c, value))
    n_rows, n_cols = len(table), len(table[0])

    def row_cells(r: int) -> tuple[int, ...]:
        return tuple(index[(r, c)] for c in range(1, n_cols + 1) if (r, c) in index)

    def column_cells(c: int) -> tuple[int, ...]:
        return tuple(index[(r, c)] for r in range(1, n_rows + 1) if (r, c) in index)

    lines: list[Line] = []
    for r, bonus in enumerate(row_bonuses, start=1):
        lines.append(Line(f"row {r}", row_cells(r), bonus=bonus))
    for c in range(1, n_cols + 1):
        bonus = column_bonuses[c - 1] if column_bonuses else None
        points = column_points[c - 1] if column_points else 0
        if bonus is not None or points:
            lines.append(Line(f"column {c}", column_cells(c), bonus=bonus, points=points))
    for name, where, bonus in diagonals:
        lines.append(Line(name, tuple(index[rc] for rc in where), bonus=bonus))

    counts: list[CountScore] = []
    if count_points:
        counts.append(CountScore(tuple(range(len(cells))), tuple(count_points)))
    if row_count_points:
        counts.extend(CountScore(row_cells(r), tuple(row_count_points)) for r in range(1, n_rows + 1))
    return Grid(
        colour=colour,
        rows=n_rows,
        cols=n_cols,
        cells=tuple(cells),
        lines=tuple(lines),
        count_scores=tuple(counts),
        marks=marks,
        row_colours=tuple(row_colours),
    )


def boxes_from_rows(
    bonuses: Sequence[Bonus | None],
    *,
    multipliers: Sequence[int] | None = None,
    minimums: Sequence[int] | None = None,
    bonus_minimums: Sequence[int] | None = None,
) -> tuple[Box, ...]:
    """A track's boxes from the printed rows under it, one value per box in each row."""
    n = len(bonuses)
    rows = [multipliers or [1] * n, minimums or [1] * n, bonus_minimums or [0] * n]
    if any(len(row) != n for row in rows):
        raise ValueError("every printed row of a track has one value per box")
    return tuple(
        Box(multiplier=m, minimum=lo, bonus=b, bonus_minimum=bm) for b, m, lo, bm in zip(bonuses, *rows, strict=True)
    )

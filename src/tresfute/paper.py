"""Score a filled paper sheet from a JSON description of its marks (``docs/sheets.md``).

Read strictly (:mod:`tresfute.inputs`): a count is a JSON number, a cell is written exactly
``r<row>c<column>`` in ASCII digits, no unknown area or field. Every refusal is one
translatable sentence naming the area and what was expected.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from . import inputs
from .rules import SPECS, Score, Sheet
from .rules.kinds import AREA_NAMES, GameSpec, Grid, area_word
from .rules.reasons import Reason, ReasonError
from .text import rating_labels

AREA_BY_NAME = {name: letter for letter, name in AREA_NAMES.items()}
MAX_BYTES = 1 << 16  # a full sheet is well under 2 KB
_CELL = re.compile(r"r([1-9])c([1-9])", re.ASCII)


class SheetError(ReasonError):
    """A sheet description that cannot be scored; says what is wrong (translatable:
    ``tresfute.text.explain``)."""


class PaperSheet(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    game: str
    areas: dict[str, Any] = Field(default={}, max_length=len(AREA_NAMES))
    foxes: int | None = Field(default=None, ge=0, le=99)  # optional: checked against the marks' foxes

    @field_validator("game")
    @classmethod
    def _known_game(cls, game: str) -> str:
        return inputs.known_game(game, SheetError)


def load_sheet(text: str | bytes) -> tuple[GameSpec, Sheet]:
    """Read and check a sheet file; raises :class:`SheetError` with the first problem."""
    return _build(inputs.read_json(PaperSheet, text, MAX_BYTES, SheetError, _invalid))


def load_sheet_file(path: Path) -> tuple[GameSpec, Sheet]:
    """Read and check the sheet file at ``path``, its size bounded before it is read
    (:func:`tresfute.inputs.read_file`); raises :class:`SheetError` with the first problem."""
    return load_sheet(inputs.read_file(path, MAX_BYTES, SheetError, _invalid))


def sheet_from_data(data: Any) -> tuple[GameSpec, Sheet]:
    """Build and check the sheet from parsed JSON; raises :class:`SheetError` with the first problem."""
    return _build(inputs.read_data(PaperSheet, data, SheetError, _invalid))


def _invalid(problem: Reason) -> Reason:
    return Reason("not a valid paper sheet: {problem}", problem=problem)


def _build(paper: PaperSheet) -> tuple[GameSpec, Sheet]:
    spec = SPECS[paper.game]
    marks: dict[str, list[int]] = {}
    for name, given in paper.areas.items():
        letter = AREA_BY_NAME.get(name)
        if letter is None or letter not in spec.areas:
            raise SheetError(
                Reason(
                    "{game} has no {name} area (areas: {known})",
                    game=spec.name_fr,
                    name=repr(name),
                    known=", ".join(AREA_NAMES[a] for a in spec.areas),
                )
            )
        marks[letter] = _area_marks(spec, letter, given)
    try:
        sheet = Sheet.from_marks(spec, marks, possible=True)
    except ReasonError as exc:
        raise SheetError(exc.reason) from None
    if paper.foxes is not None and paper.foxes != len(sheet.foxes):
        raise SheetError(
            Reason(
                "the marks give {count} foxes ({sources}), the sheet says {stated}",
                count=len(sheet.foxes),
                sources=", ".join(sheet.foxes) or "-",
                stated=paper.foxes,
            )
        )
    return spec, sheet


def _is_int(value: object) -> bool:
    return type(value) is int  # not a bool, not a float


def _area_marks(spec: GameSpec, letter: str, given: Any) -> list[int]:
    area = spec.areas[letter]
    name = area_word(letter)
    if isinstance(area, Grid):
        levels = [0] * len(area.cells)
        if area.marks == 1:
            if not isinstance(given, list):
                raise SheetError(Reason('{area}: a list of crossed cells, as in ["r1c2", "r3c4"]', area=name))
            groups = [(given, 1)]
        else:
            if not isinstance(given, dict) or set(given) - {"circled", "crossed"}:
                raise SheetError(Reason('{area}: {{"circled": [cells], "crossed": [cells]}}', area=name))
            groups = [(given.get("circled", []), 1), (given.get("crossed", []), 2)]
        for cells, level in groups:
            if not isinstance(cells, list):
                raise SheetError(Reason('{area}: cells are given as a list, as in ["r1c2"]', area=name))
            for cell in cells:
                m = _CELL.fullmatch(cell) if isinstance(cell, str) else None
                index = area.cell_index.get((int(m.group(1)), int(m.group(2)))) if m else None
                if index is None:
                    raise SheetError(
                        Reason(
                            '{area}: {cell} is not a markable cell (cells are named like "r2c3")',
                            area=name,
                            cell=ascii(cell)[:40],
                        )
                    )
                if levels[index] >= level:
                    raise SheetError(Reason("{area}: {cell} is given twice", area=name, cell=cell))
                levels[index] = max(levels[index], level)
        return levels
    if area.crosses:
        if not _is_int(given) or not 0 <= given <= len(area.boxes):
            raise SheetError(
                Reason("{area}: the number of crossed boxes, 0 to {most}", area=name, most=len(area.boxes))
            )
        return [0] * given
    if not isinstance(given, list) or not all(_is_int(v) for v in given):
        raise SheetError(Reason("{area}: the numbers written, left to right, as in [5, 2, 3, 12]", area=name))
    return list(given)


def breakdown(spec: GameSpec, sheet: Sheet) -> dict[str, Any]:
    """The score of a sheet, area by area, with the solo rating it would earn."""
    score: Score = sheet.score()
    band = spec.rating(score.total)
    return {
        "game": spec.id,
        "areas": {AREA_NAMES[a]: v for a, v in score.areas.items()},
        "foxes": score.foxes,
        "fox_sources": list(sheet.foxes),
        "fox_value": score.fox_value,
        "total": score.total,
        "solo_rating": {**rating_labels(band.label_fr, band.label_en), "stars": band.stars},
    }

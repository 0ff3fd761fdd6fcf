"""Score a filled paper sheet from a JSON description of its marks (``docs/sheets.md``)."""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from .rules import Score, Sheet
from .rules.game import get_spec
from .rules.kinds import AREA_NAMES, GameSpec, Grid

AREA_BY_NAME = {name: letter for letter, name in AREA_NAMES.items()}
_CELL = re.compile(r"^r(\d)c(\d)$")


class SheetError(ValueError):
    """A sheet description that cannot be scored; says what is wrong."""


class PaperSheet(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str
    areas: dict[str, Any] = {}
    foxes: int | None = None  # optional: checked against the foxes the marks give


def load_sheet(text: str | bytes) -> tuple[GameSpec, Sheet]:
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SheetError(f"not JSON: {exc}") from None
    return sheet_from_data(data)


def sheet_from_data(data: Any) -> tuple[GameSpec, Sheet]:
    """Build and check the sheet; raises :class:`SheetError` with the first problem."""
    try:
        paper = PaperSheet.model_validate(data)
        spec = get_spec(paper.game)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'sheet'}: {e['msg']}" for e in exc.errors())
        raise SheetError(f"not a valid sheet: {problems}") from None
    except ValueError as exc:
        raise SheetError(str(exc)) from None
    marks: dict[str, list[int]] = {}
    for name, given in paper.areas.items():
        letter = AREA_BY_NAME.get(name)
        if letter not in spec.areas:
            known = ", ".join(AREA_NAMES[a] for a in spec.areas)
            raise SheetError(f"{spec.name_fr} has no {name!r} area (areas: {known})")
        marks[letter] = _area_marks(spec, letter, given)
    try:
        sheet = Sheet.from_marks(spec, marks)
    except ValueError as exc:
        raise SheetError(str(exc)) from None
    if paper.foxes is not None and paper.foxes != len(sheet.foxes):
        sources = ", ".join(sheet.foxes) or "none"
        raise SheetError(f"the marks give {len(sheet.foxes)} foxes ({sources}), the sheet says {paper.foxes}")
    return spec, sheet


def _area_marks(spec: GameSpec, letter: str, given: Any) -> list[int]:
    area = spec.areas[letter]
    name = AREA_NAMES[letter]
    if isinstance(area, Grid):
        levels = [0] * len(area.cells)
        if area.marks == 1:
            if not isinstance(given, list):
                raise SheetError(f'{name}: a list of crossed cells, as in ["r1c2", "r3c4"]')
            groups = [(given, 1)]
        else:
            if not isinstance(given, dict) or set(given) - {"circled", "crossed"}:
                raise SheetError(f'{name}: {{"circled": [cells], "crossed": [cells]}}')
            groups = [(given.get("circled", []), 1), (given.get("crossed", []), 2)]
        for cells, level in groups:
            if not isinstance(cells, list):
                raise SheetError(f'{name}: cells are given as a list, as in ["r1c2"]')
            for cell in cells:
                m = _CELL.match(cell) if isinstance(cell, str) else None
                index = area.cell_index.get((int(m.group(1)), int(m.group(2)))) if m else None
                if index is None:
                    raise SheetError(f'{name}: {cell!r} is not a markable cell (cells are named like "r2c3")')
                if levels[index] >= level and level == 1:
                    raise SheetError(f"{name}: {cell} is given twice")
                levels[index] = max(levels[index], level)
        return levels
    if area.crosses:
        if not isinstance(given, int) or isinstance(given, bool) or not 0 <= given <= len(area.boxes):
            raise SheetError(f"{name}: the number of crossed boxes, 0 to {len(area.boxes)}")
        return [0] * given
    if not isinstance(given, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in given):
        raise SheetError(f"{name}: the numbers written, left to right, as in [5, 2, 3, 12]")
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
        "solo_rating": {"fr": band.label_fr, "en": band.label_en, "stars": band.stars},
    }

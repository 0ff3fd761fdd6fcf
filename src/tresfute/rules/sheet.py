"""One player's sheet (marks, action tracks, foxes) and its score."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .kinds import ActionKind, GameSpec, Grid


class Sheet:
    """The marks on one player's sheet.

    ``areas[colour]`` is the area's state (a grid's cell levels or a track's written
    numbers); ``earned``/``used`` count circled and crossed circles per action track;
    ``foxes`` lists where each fox came from.
    """

    __slots__ = ("spec", "areas", "earned", "used", "foxes")

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.areas: dict[str, list[int]] = {a: area.new_state() for a, area in spec.areas.items()}
        self.earned: dict[ActionKind, int] = {t.action: 0 for t in spec.actions}
        self.used: dict[ActionKind, int] = {t.action: 0 for t in spec.actions}
        self.foxes: list[str] = []

    def available(self, action: ActionKind) -> int:
        """Circled and not yet crossed: the actions the player can still use."""
        return self.earned.get(action, 0) - self.used.get(action, 0)

    def copy(self) -> Sheet:
        other = Sheet.__new__(Sheet)
        other.spec = self.spec
        other.areas = {a: list(s) for a, s in self.areas.items()}
        other.earned = dict(self.earned)
        other.used = dict(self.used)
        other.foxes = list(self.foxes)
        return other

    def score(self) -> Score:
        return score_sheet(self)

    def view(self) -> dict[str, Any]:
        """A plain description of the sheet, for front ends and records."""
        areas: dict[str, Any] = {}
        for a, area in self.spec.areas.items():
            state = self.areas[a]
            if isinstance(area, Grid):
                areas[a] = [
                    {"row": c.row, "col": c.col, "value": c.value, "marks": state[i]}
                    for i, c in enumerate(area.cells)
                ]
            else:
                areas[a] = list(state)
        return {
            "areas": areas,
            "actions": {
                str(k): {"earned": self.earned[k], "used": self.used[k], "available": self.available(k)}
                for k in self.earned
            },
            "foxes": list(self.foxes),
            "score": self.score().as_dict(),
        }


@dataclass(frozen=True, slots=True)
class Score:
    areas: dict[str, int]
    foxes: int
    fox_value: int  # the lowest area score: what each fox is worth
    total: int

    @property
    def best_area(self) -> int:
        return max(self.areas.values())

    def as_dict(self) -> dict[str, Any]:
        return {"areas": dict(self.areas), "foxes": self.foxes, "fox_value": self.fox_value, "total": self.total}


def score_sheet(sheet: Sheet) -> Score:
    """Areas, then foxes times the lowest area (0 if any area scores 0, negative if it is)."""
    areas = {a: area.score(sheet.areas[a]) for a, area in sheet.spec.areas.items()}
    fox_value = min(areas.values())
    foxes = len(sheet.foxes)
    return Score(areas, foxes, fox_value, sum(areas.values()) + foxes * fox_value)


def winners(scores: list[Score]) -> list[int]:
    """Highest total; among those tied, highest single area; still tied, all of them win."""
    best = max(s.total for s in scores)
    tied = [i for i, s in enumerate(scores) if s.total == best]
    top_area = max(scores[i].best_area for i in tied)
    return [i for i in tied if scores[i].best_area == top_area]

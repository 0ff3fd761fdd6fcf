"""A game's printed sheet as plain data for the browser to draw (no rules: what is printed)."""

from __future__ import annotations

from typing import Any

from ..i18n import _, use_language
from ..rules.game import get_spec
from ..rules.kinds import ActionBonus, Bonus, ChoiceBonus, EntryBonus, FoxBonus, Grid, Track
from ..text import action_name, area_name, bonus_label, bonus_name, die_name, game_name


def _picture(bonus: Bonus) -> dict[str, Any]:
    """What the printed bonus shows, for the page to draw it: an action's symbol, the fox, or an
    entry (a cross, a number or a "?" in the target area's colour; black for a free choice)."""
    if isinstance(bonus, ActionBonus):
        return {"kind": "action", "action": str(bonus.action)}
    if isinstance(bonus, FoxBonus):
        return {"kind": "fox"}
    if isinstance(bonus, ChoiceBonus):
        return {"kind": "choice", "options": [_picture(option) for option in bonus.options]}
    assert isinstance(bonus, EntryBonus)
    return {"kind": "entry", "area": bonus.area, "value": bonus.value, "mark": bonus.mark}


def _bonus(bonus: Bonus | None) -> dict[str, Any] | None:
    if bonus is None:
        return None
    return {"label": bonus_label(bonus), "name": bonus_name(bonus), "picture": _picture(bonus)}


# What the printed sheet shows where a grid has no cell (tres-fute.md): Très futé's yellow
# diagonal is printed crossed and its blue corner is a picture of the two dice added; Vraiment
# très futé's yellow simply has no cell there.
_BLANKS = {("tres-fute", "y"): "crossed", ("tres-fute", "b"): "sum"}


def sheet_layout(game_id: str, language: str) -> dict[str, Any]:
    spec = get_spec(game_id)
    with use_language(language):
        areas = []
        for letter, area in spec.areas.items():
            entry: dict[str, Any] = {"letter": letter, "name": area_name(letter)}
            if isinstance(area, Grid):
                lines = {line.name: line for line in area.lines}
                entry |= {
                    "kind": "grid",
                    "rows": area.rows,
                    "cols": area.cols,
                    "marks": area.marks,
                    "cells": [
                        [
                            None if (r, c) not in area.cell_index else area.cells[area.cell_index[(r, c)]].value
                            for c in range(1, area.cols + 1)
                        ]
                        for r in range(1, area.rows + 1)
                    ],
                    "row_colours": list(area.row_colours),
                    "row_bonuses": [
                        _bonus(lines[f"row {r}"].bonus) if f"row {r}" in lines else None
                        for r in range(1, area.rows + 1)
                    ],
                    "column_feet": [
                        None
                        if f"column {c}" not in lines
                        else {
                            "label": str(lines[f"column {c}"].points),
                            "name": _("{n} points").format(n=lines[f"column {c}"].points),
                            "points": lines[f"column {c}"].points,
                        }
                        if lines[f"column {c}"].points
                        else _bonus(lines[f"column {c}"].bonus)
                        for c in range(1, area.cols + 1)
                    ],
                    "diagonal": _bonus(lines["diagonal"].bonus) if "diagonal" in lines else None,
                    "count_points": [list(g.points[1:]) for g in area.count_scores[:1]],
                    "count_per_row": len(area.count_scores) > 1,
                    "blank": _BLANKS.get((spec.id, letter), "none"),
                }
            else:
                assert isinstance(area, Track)
                entry |= {
                    "kind": "track",
                    "crosses": area.crosses,
                    "order": area.order.name.lower(),  # free, increasing_reset_after_6, non_increasing
                    "scoring": area.scoring.name.lower(),  # sum, last_filled, pairs
                    "points": list(area.points[1:]),
                    "boxes": [
                        {
                            "multiplier": b.multiplier,
                            "minimum": b.minimum,
                            "bonus": _bonus(b.bonus),
                            "bonus_minimum": b.bonus_minimum,
                        }
                        for b in area.boxes
                    ],
                }
            areas.append(entry)
        return {
            "game": spec.id,
            "name": game_name(spec),
            "dice": [{"letter": d, "name": die_name(d)} for d in spec.dice],
            "areas": areas,
            "actions": [
                {
                    "action": str(t.action),
                    "name": action_name(t.action),
                    "circles": t.circles,
                    "symbol": bonus_label(ActionBonus(t.action)),
                    "end_bonus": _bonus(t.end_bonus),
                }
                for t in spec.actions
            ],
            "round_gifts": [_bonus(g) for g in spec.round_gifts],
            "rounds_by_players": {str(k): v for k, v in spec.rounds_by_players.items()},
        }

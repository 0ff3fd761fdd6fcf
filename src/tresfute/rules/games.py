"""The games the engine knows, by id."""

from __future__ import annotations

from .kinds import GameSpec
from .tres_fute import SPEC as TRES_FUTE
from .vraiment_tres_fute import SPEC as VRAIMENT_TRES_FUTE

SPECS: dict[str, GameSpec] = {TRES_FUTE.id: TRES_FUTE, VRAIMENT_TRES_FUTE.id: VRAIMENT_TRES_FUTE}


def rule_option_defaults() -> dict[str, bool]:
    """Every game's rules options by name, each with its default (read where one list of
    parameters serves every game, as OpenSpiel's)."""
    defaults: dict[str, bool] = {}
    for spec in SPECS.values():
        for option in spec.rule_options:
            defaults.setdefault(option.name, option.default)
    return defaults

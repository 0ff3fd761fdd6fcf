"""The games the engine knows, by id."""

from __future__ import annotations

from .kinds import GameSpec
from .tres_fute import SPEC as TRES_FUTE

SPECS: dict[str, GameSpec] = {TRES_FUTE.id: TRES_FUTE}

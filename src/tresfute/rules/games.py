"""The games the engine knows, by id."""

from __future__ import annotations

from .kinds import GameSpec
from .tres_fute import SPEC as TRES_FUTE
from .vraiment_tres_fute import SPEC as VRAIMENT_TRES_FUTE

SPECS: dict[str, GameSpec] = {TRES_FUTE.id: TRES_FUTE, VRAIMENT_TRES_FUTE.id: VRAIMENT_TRES_FUTE}

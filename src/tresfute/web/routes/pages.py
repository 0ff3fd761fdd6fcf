"""The page and what it reads besides the games: its static files, its messages, the sheets."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from ...i18n import _, use_language
from ...rules import SPECS
from ..deps import LanguageDep
from ..layout import sheet_layout
from ..strings import ui_strings
from ..tables import TableError

STATIC = Path(str(resources.files("tresfute.web") / "static"))

router = APIRouter()


def static_files() -> StaticFiles:
    """The page's scripts, styles and pictures, served under ``/static``."""
    return StaticFiles(directory=STATIC)


@router.get("/", include_in_schema=False)
@router.get("/rules", include_in_schema=False)
@router.get("/g/{game_id}", include_in_schema=False)
@router.get("/me", include_in_schema=False)  # the player's progress
async def page(game_id: str | None = None) -> FileResponse:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})


@router.get("/api/strings")
async def strings(language: LanguageDep) -> dict[str, str | list[str]]:
    return ui_strings(language)


@router.get("/api/layout/{game_id}")
async def layout(game_id: str, language: LanguageDep) -> dict[str, Any]:
    if game_id not in SPECS:
        with use_language(language):
            raise TableError(404, _("no such game"))
    return sheet_layout(game_id, language)

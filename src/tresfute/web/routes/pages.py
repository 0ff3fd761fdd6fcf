"""The page and what it reads besides the games: its static files, its messages, the sheets.

What does not change while a server runs is fetched once: the page names its files under
``/static/v-<version>/…`` (the version a hash of the files and the catalogues), answered with a
year's ``Cache-Control: immutable``; its messages and sheets (``?v=<version>``) likewise. A file
asked without the version, or with an older one, is revalidated by its ETag (304).
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import cache
from importlib import resources
from os import PathLike
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import Scope

from ...i18n import LANGUAGE_NAMES, LOCALE_DIR, SOURCE_LANGUAGE, _, use_language
from ...rules import SPECS
from ..deps import LanguageDep, request_language
from ..layout import sheet_layout
from ..strings import choices, ui_strings
from ..tables import TableError

STATIC = Path(str(resources.files("tresfute.web") / "static"))
FOR_EVER = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"  # kept, but asked again each time (ETag, If-None-Match: 304)

router = APIRouter()


@cache
def version() -> str:
    """A hash of the page's files, the catalogues and the menus' lists: it changes with any of them."""
    digest = hashlib.sha256(json.dumps(choices(SOURCE_LANGUAGE), sort_keys=True).encode())  # the menus' lists
    for folder in (STATIC, Path(LOCALE_DIR)):
        for path in sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix != ".po"):
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


class StaticAssets(StaticFiles):
    """The static files; under ``v-<this version>/`` cached for a year, else revalidated."""

    def get_path(self, scope: Scope) -> str:
        path = super().get_path(scope)
        first, _sep, rest = path.partition(os.sep)
        if first.startswith("v-") and rest:
            scope["tresfute.for_ever"] = first == f"v-{version()}"
            return rest
        return path

    def file_response(
        self, full_path: PathLike[str] | str, stat_result: os.stat_result, scope: Scope, status_code: int = 200
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["cache-control"] = FOR_EVER if scope.get("tresfute.for_ever") else REVALIDATE
        return response


def static_files() -> StaticFiles:
    """The page's scripts, styles and pictures, served under ``/static``."""
    return StaticAssets(directory=STATIC)


@cache
def _index() -> str:
    return (STATIC / "index.html").read_text(encoding="utf-8")


@router.get("/", include_in_schema=False)
@router.get("/rules", include_in_schema=False)
@router.get("/g/{game_id}", include_in_schema=False)
@router.get("/me", include_in_schema=False)  # the player's progress
async def page(request: Request, game_id: str | None = None) -> HTMLResponse:
    """The page, in the request's language (:func:`~..deps.request_language`), naming its
    files under this version."""
    languages = " ".join(LANGUAGE_NAMES)  # the one list (tresfute.i18n), for static/js/i18n.js
    text = _index().replace(
        '<html lang="fr">',
        f'<html lang="{request_language(request)}" data-version="{version()}" data-languages="{languages}">',
    )
    text = text.replace('"/static/', f'"/static/v-{version()}/')
    return HTMLResponse(text, headers={"Cache-Control": "no-store", "Vary": "Accept-Language, Cookie"})


def _lasting(request: Request, content: Any) -> JSONResponse:
    """``content``, cached for ever when asked for this version (``?v=``)."""
    current = request.query_params.get("v") == version()
    return JSONResponse(content, headers={"Cache-Control": FOR_EVER if current else REVALIDATE})


@router.get("/api/strings", response_model=dict[str, str | list[str]])
async def strings(request: Request, language: LanguageDep, v: str | None = None) -> JSONResponse:
    return _lasting(request, ui_strings(language))


@router.get("/api/choices", response_model=dict[str, Any])
async def menu_choices(request: Request, language: LanguageDep, v: str | None = None) -> JSONResponse:
    """What the page's menus offer: the languages, the games with their rules options, the
    computer players (:func:`~..strings.choices`)."""
    return _lasting(request, choices(language))


@router.get("/api/layout/{game_id}", response_model=dict[str, Any])
async def layout(request: Request, game_id: str, language: LanguageDep, v: str | None = None) -> JSONResponse:
    if game_id not in SPECS:
        with use_language(language):
            raise TableError(404, _("no such game"))
    return _lasting(request, sheet_layout(game_id, language))

"""A player's progress: a new player's secret, their name, their finished games and figures, and
their games as records (JSON) or as a table (CSV). The secret travels in ``X-Player-Token``."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

from ...i18n import _, use_language
from ..deps import AddressDep, LanguageDep, PlayerToken, ServerDep, in_game_thread
from ..models import PlayerIn, shown_name
from ..players import Players
from ..tables import TableError

router = APIRouter()


def _name(body: PlayerIn, language: str) -> str:
    name = shown_name(body.name)
    if name is None:
        with use_language(language):
            raise TableError(422, _("choose a name"))
    return name


def _players(server: Any) -> Players:
    return Players(server.host)


@router.post("/api/players", status_code=201)
async def new_player(body: PlayerIn, server: ServerDep, language: LanguageDep, address: AddressDep) -> dict[str, Any]:
    """A new player: their secret, which the page keeps (the server keeps only its hash)."""
    name = _name(body, language)
    with use_language(language):
        server.guard.spend("players", address)
    token = await in_game_thread(language, lambda: _players(server).new(name))
    return {"token": token, "name": name}


@router.get("/api/players/me")
async def me(server: ServerDep, language: LanguageDep, x_player_token: PlayerToken = None) -> dict[str, Any]:
    """The player's name, finished games (score, seat, review figures), challenge entries, and
    the strong computer player's solo scores to compare with."""
    return await in_game_thread(language, lambda: _players(server).progress(x_player_token))


@router.put("/api/players/me")
async def rename(
    body: PlayerIn, server: ServerDep, language: LanguageDep, x_player_token: PlayerToken = None
) -> dict[str, Any]:
    name = _name(body, language)
    return {"name": await in_game_thread(language, lambda: _players(server).rename(x_player_token, name))}


@router.get("/api/players/me/games.csv")
async def table_csv(server: ServerDep, language: LanguageDep, x_player_token: PlayerToken = None) -> Response:
    """The player's table, a line per finished game, as a download."""
    text = await in_game_thread(language, lambda: _players(server).table_csv(x_player_token))
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="tresfute-games.csv"'},
    )


@router.get("/api/players/me/records.json")
async def records_json(server: ServerDep, language: LanguageDep, x_player_token: PlayerToken = None) -> Response:
    """Every finished game of the player as a game record (docs/records.md), in a JSON list."""
    found = await in_game_thread(language, lambda: _players(server).records(x_player_token))
    return Response(
        json.dumps(found, indent=1, ensure_ascii=False),
        media_type="application/json",
        headers={"Content-Disposition": 'attachment; filename="tresfute-records.json"'},
    )

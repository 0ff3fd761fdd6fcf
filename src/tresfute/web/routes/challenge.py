"""The daily challenge's routes: today's entry, a day's board, a player's history."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ..challenge import entry_view
from ..deps import AskerDep, LanguageDep, PlayerToken, ServerDep, in_game_thread
from ..models import ChallengeIn

router = APIRouter()


@router.get("/api/challenge/history")  # before /api/challenge/{game}, which would take it
async def challenge_history(server: ServerDep, x_player_token: PlayerToken = None) -> dict[str, Any]:
    """The asking player's entries, every day, newest first."""
    entries = await in_game_thread("fr", lambda: server.daily.history(x_player_token))
    return {"entries": [entry_view(e) for e in entries]}


@router.post("/api/challenge/{game}", status_code=201)
async def challenge_start(game: str, body: ChallengeIn, asker: AskerDep) -> dict[str, Any]:
    """Today's entry in ``game``'s challenge under ``name``; ``player`` is the player's token (a
    new one if none was sent): the page keeps it, it holds the name for the day."""
    asker.admit("entries", [body.name])
    table, token, player = await in_game_thread(
        asker.language, lambda: asker.server.daily.start(game, body.name, asker.player_token, asker.language)
    )
    return {
        "id": table.id,
        "day": table.stored.challenge,
        "token": token,
        "player": player,
        "link": f"/g/{table.id}#seat={token}",
    }


@router.post("/api/challenge/entries/{game_id}/seat")
async def challenge_reopen(
    game_id: str, server: ServerDep, language: LanguageDep, x_player_token: PlayerToken = None
) -> dict[str, Any]:
    """The seat of the asking player's entry ``game_id`` (in progress or over), for any browser that
    holds the player's secret: its token and link, as when it was begun."""
    stored, token = await in_game_thread(language, lambda: server.daily.reopen(game_id, x_player_token))
    return {
        "id": stored.id,
        "day": stored.challenge,
        "game": stored.game,
        "name": stored.seats[0].name,
        "token": token,
        "link": f"/g/{stored.id}#seat={token}",
    }


@router.get("/api/challenge/{game}")
async def challenge_board(
    game: str, server: ServerDep, language: LanguageDep, day: str | None = None, x_player_token: PlayerToken = None
) -> dict[str, Any]:
    return await in_game_thread(language, lambda: server.daily.board(game, day, x_player_token))

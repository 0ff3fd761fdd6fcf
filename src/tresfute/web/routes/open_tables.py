"""Open tables: the games listed on the home page while a seat is free, and taking that seat."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, BackgroundTasks

from ..deps import AskerDep, ServerDep, in_game_thread
from ..models import JoinIn
from ..players import Players
from ..tables import Table

router = APIRouter()


@router.get("/api/open")
async def open_tables(server: ServerDep) -> dict[str, Any]:
    """The open tables that still have a free seat, newest first."""
    return {"games": await in_game_thread("fr", server.host.open_tables)}


@router.post("/api/games/{game_id}/join", status_code=201)
async def join(game_id: str, body: JoinIn, asker: AskerDep, background: BackgroundTasks) -> dict[str, Any]:
    """Take a free seat of an open table: its token, kept by the page as any seat's. The seat is
    the player's whose secret ``X-Player-Token`` carries (needed: 401 without it), one seat a
    player at a table (409 for a second); an address takes at most ``TRESFUTE_JOINS_PER_MINUTE``
    seats a minute (429)."""
    (name,) = asker.admit("joins", [body.name])
    server = asker.server

    def work() -> tuple[Table, int, str]:
        player = Players(server.host).known(asker.player_token)
        return server.host.join(game_id, name, player)

    table, seat, token = await in_game_thread(asker.language, work)
    background.add_task(server.computers.play, table)  # the pages are told after the answer
    return {"id": table.id, "seat": seat, "token": token, "link": f"/g/{table.id}#seat={token}"}

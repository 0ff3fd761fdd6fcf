"""A game's record, as a download: what anyone can replay and check the dice of."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from ... import records
from ..deps import LanguageDep, PlayerToken, SeatToken, ServerDep, in_game_thread

router = APIRouter()


@router.get("/api/games/{game_id}/record")
async def record(
    game_id: str,
    server: ServerDep,
    language: LanguageDep,
    x_seat_token: SeatToken = None,
    x_player_token: PlayerToken = None,
) -> Response:
    """The game record; a seat's own game's even while it is a challenge entry of today."""

    def work() -> str:  # in a thread: the table may be locked by a thinking computer player
        if x_seat_token is not None:
            table = server.host.seat_of(game_id, x_seat_token)[0]
        else:
            table = server.watched(game_id, x_player_token)
        return records.dumps(server.host.record(table))

    text = await in_game_thread(language, work)
    return Response(
        text,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="tresfute-{game_id}.json"'},
    )

"""A finished game's review (``POST`` starts it, ``GET`` follows it), practice on its costly
decisions, and during a game what each computer player would play. Who may ask (docs/web.md): a
seat of the game for its own decisions; anyone who may watch the game for any seat
(``?player=N``, from 1); a daily challenge's entry only once its day is over, by anyone, its seat
included."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from ...i18n import use_language
from ..deps import AddressDep, LanguageDep, PlayerToken, RequiredSeatToken, SeatToken, Server, ServerDep, in_game_thread
from ..models import PracticeIn, WholeNumber
from ..reviews import VERIFY_MOST, VERIFY_ROLLOUTS, Practice, Reviews, choices
from ..threads import run_in_game_thread

router = APIRouter()

PlayerAsked = Annotated[WholeNumber | None, Query(ge=1, le=4)]
MoveNumber = Annotated[WholeNumber, Query(ge=1)]
VerifyCount = Annotated[WholeNumber, Query(ge=1, le=VERIFY_MOST)]
Rollouts = Annotated[WholeNumber, Query(ge=2, le=VERIFY_ROLLOUTS)]


def reviews_of(request: Request) -> Reviews:
    found: Reviews = request.app.state.reviews
    return found


async def asked(
    server: Server,
    reviews: Reviews,
    game_id: str,
    language: str,
    seat_token: str | None,
    player_token: str | None,
    player: int | None,
) -> int:
    """The seat whose review is asked for, once the asker may have it (else a refusal)."""

    def work() -> int:
        if seat_token is not None:
            table, seat = server.host.seat_of(game_id, seat_token)
            return reviews.seat_asked(table, seat, player)
        return reviews.seat_asked(server.watched(game_id, player_token), None, player)

    return await in_game_thread(language, work)


@router.post("/api/games/{game_id}/review")
async def start_review(
    game_id: str,
    request: Request,
    server: ServerDep,
    language: LanguageDep,
    player: PlayerAsked = None,
    x_seat_token: SeatToken = None,
    x_player_token: PlayerToken = None,
) -> JSONResponse:
    """Start the review of a finished game's seat (computed once, in the background): 202 with
    its progress, or 200 with the review when it is stored already."""
    reviews = reviews_of(request)
    seat = await asked(server, reviews, game_id, language, x_seat_token, x_player_token, player)
    answer = await in_game_thread(language, lambda: reviews.answer(game_id, seat, language))
    if answer["status"] == "none":
        progress = reviews.start(game_id, seat, run_in_game_thread)
        answer = {"status": "running", "done": progress.done, "total": progress.total}
    return JSONResponse(answer, status_code=202 if answer["status"] == "running" else 200)


@router.get("/api/games/{game_id}/review")
async def review(
    game_id: str,
    request: Request,
    server: ServerDep,
    language: LanguageDep,
    player: PlayerAsked = None,
    x_seat_token: SeatToken = None,
    x_player_token: PlayerToken = None,
) -> dict[str, Any]:
    """The review (``docs/review.md``'s JSON, its moves in words), ``{"status": "running",
    "done", "total"}`` while it is computed, or ``{"status": "none"}`` if nobody asked for it."""
    reviews = reviews_of(request)
    seat = await asked(server, reviews, game_id, language, x_seat_token, x_player_token, player)
    return await in_game_thread(language, lambda: reviews.answer(game_id, seat, language))


@router.post("/api/games/{game_id}/review/verify")
async def verify_review(
    game_id: str,
    request: Request,
    server: ServerDep,
    language: LanguageDep,
    address: AddressDep,
    player: PlayerAsked = None,
    count: VerifyCount = VERIFY_MOST,
    rollouts: Rollouts = VERIFY_ROLLOUTS,
    x_seat_token: SeatToken = None,
    x_player_token: PlayerToken = None,
) -> JSONResponse:
    """Verify the ``count`` costliest decisions of a stored review by ``rollouts`` strong
    rollouts to the end each (``bots/verify.py``), in the background: 202 with the review and
    its ``verifying`` progress, or 200 with the review once they carry their ``verified``
    (done once, then kept). 409 while the review itself is not done."""
    reviews = reviews_of(request)
    seat = await asked(server, reviews, game_id, language, x_seat_token, x_player_token, player)
    if await in_game_thread(language, lambda: reviews.to_verify(game_id, seat)):
        if (game_id, seat) not in reviews.verifying:
            with use_language(language):
                server.guard.spend("practice", address)  # seconds of a game thread
        reviews.verify_start(game_id, seat, count, rollouts, run_in_game_thread)
    answer = await in_game_thread(language, lambda: reviews.answer(game_id, seat, language))
    return JSONResponse(answer, status_code=202 if "verifying" in answer else 200)


@router.get("/api/games/{game_id}/practice")
async def practice_position(
    game_id: str,
    request: Request,
    server: ServerDep,
    language: LanguageDep,
    move_number: MoveNumber,
    player: PlayerAsked = None,
    x_seat_token: SeatToken = None,
    x_player_token: PlayerToken = None,
) -> dict[str, Any]:
    """A reviewed seat's costly decision (``move_number``: the record's move, from 1) as it stood:
    the game's view before it, seen from that seat, with its legal moves in words and
    ``practice`` (what the decision was; not the strong player's choice)."""
    reviews = reviews_of(request)
    seat = await asked(server, reviews, game_id, language, x_seat_token, x_player_token, player)

    def work() -> dict[str, Any]:
        return Practice(reviews).position(server.host.table(game_id), seat, move_number, language)

    return await in_game_thread(language, work)


@router.post("/api/games/{game_id}/practice")
async def practise(
    game_id: str,
    body: PracticeIn,
    request: Request,
    server: ServerDep,
    language: LanguageDep,
    address: AddressDep,
    player: PlayerAsked = None,
    x_seat_token: SeatToken = None,
    x_player_token: PlayerToken = None,
) -> dict[str, Any]:
    """Judge a move tried in a reviewed seat's costly decision: ``right`` when within half a point
    of the strong player's choice (``best``, in words), with the reason; a right answer counts
    on the player's progress page (the player's secret, else the seat's own player when its
    token is sent)."""
    reviews = reviews_of(request)
    seat = await asked(server, reviews, game_id, language, x_seat_token, x_player_token, player)
    with use_language(language):
        server.guard.spend("practice", address)  # a move judged is a third of a second's work

    def work() -> dict[str, Any]:
        table = server.host.table(game_id)
        own = x_seat_token is not None and player is None  # the seat's own token, for its own decisions
        return Practice(reviews).answer(table, seat, body.move_number, body.move, x_player_token, own)

    return await reviews.judged_in_turn(language, lambda: in_game_thread(language, work))


@router.post("/api/games/{game_id}/choices")
async def computer_choices(
    game_id: str, server: ServerDep, language: LanguageDep, token: RequiredSeatToken
) -> dict[str, Any]:
    """What the greedy and the strong computer players would play now, with their expected
    final scores (not in the daily challenge)."""
    return {"choices": await in_game_thread(language, lambda: choices(server.host, game_id, token, language))}

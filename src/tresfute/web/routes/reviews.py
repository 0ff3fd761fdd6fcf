"""A finished game's review (``POST`` starts it, ``GET`` follows it), practice on its costly
decisions, and during a game what each computer player would play. Who may ask (docs/web.md): a
seat of the game for its own decisions; anyone who may watch the game for any seat
(``?player=N``, from 1); a daily challenge's entry only once its day is over, by anyone, its seat
included."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
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


@dataclass(frozen=True, slots=True)
class Asking:
    """What every review route is asked with: the game, the asker's tokens and the seat asked
    for (``?player=N``), the server and its reviews."""

    game_id: str
    server: Server
    reviews: Reviews
    language: str
    player: int | None
    seat_token: str | None
    player_token: str | None

    async def seat(self) -> int:
        """The seat whose review is asked for, once the asker may have it (else a refusal).
        Called by the route, after FastAPI has checked all of the request's parameters."""

        def work() -> int:
            if self.seat_token is not None:
                table, seat = self.server.host.seat_of(self.game_id, self.seat_token)
                return self.reviews.seat_asked(table, seat, self.player)
            return self.reviews.seat_asked(self.server.watched(self.game_id, self.player_token), None, self.player)

        return await in_game_thread(self.language, work)

    async def answer(self, seat: int) -> dict[str, Any]:
        """The seat's review as it stands (``Reviews.answer``)."""
        return await in_game_thread(self.language, lambda: self.reviews.answer(self.game_id, seat, self.language))


def asking(
    game_id: str,
    request: Request,
    server: ServerDep,
    language: LanguageDep,
    player: PlayerAsked = None,
    x_seat_token: SeatToken = None,
    x_player_token: PlayerToken = None,
) -> Asking:
    reviews: Reviews = request.app.state.reviews
    return Asking(game_id, server, reviews, language, player, x_seat_token, x_player_token)


AskingDep = Annotated[Asking, Depends(asking)]


@router.post("/api/games/{game_id}/review")
async def start_review(asking: AskingDep) -> JSONResponse:
    """Start the review of a finished game's seat (computed once, in the background): 202 with
    its progress, or 200 with the review when it is stored already."""
    seat = await asking.seat()
    answer = await asking.answer(seat)
    if answer["status"] == "none":
        progress = asking.reviews.start(asking.game_id, seat, run_in_game_thread)
        answer = {"status": "running", "done": progress.done, "total": progress.total}
    return JSONResponse(answer, status_code=202 if answer["status"] == "running" else 200)


@router.get("/api/games/{game_id}/review")
async def review(asking: AskingDep) -> dict[str, Any]:
    """The review (``docs/review.md``'s JSON, its moves in words), ``{"status": "running",
    "done", "total"}`` while it is computed, or ``{"status": "none"}`` if nobody asked for it."""
    return await asking.answer(await asking.seat())


@router.post("/api/games/{game_id}/review/verify")
async def verify_review(
    asking: AskingDep,
    address: AddressDep,
    count: VerifyCount = VERIFY_MOST,
    rollouts: Rollouts = VERIFY_ROLLOUTS,
) -> JSONResponse:
    """Verify the ``count`` costliest decisions of a stored review by ``rollouts`` strong
    rollouts to the end each (``bots/verify.py``), in the background: 202 with the review and
    its ``verifying`` progress, or 200 with the review once they carry their ``verified``
    (done once, then kept). 409 while the review itself is not done."""
    seat = await asking.seat()
    game_id, reviews, language = asking.game_id, asking.reviews, asking.language
    if await in_game_thread(language, lambda: reviews.to_verify(game_id, seat)):
        if (game_id, seat) not in reviews.verifying:
            with use_language(language):
                asking.server.guard.spend("practice", address)  # seconds of a game thread
        reviews.verify_start(game_id, seat, count, rollouts, run_in_game_thread)
    answer = await asking.answer(seat)
    return JSONResponse(answer, status_code=202 if "verifying" in answer else 200)


@router.get("/api/games/{game_id}/practice")
async def practice_position(asking: AskingDep, move_number: MoveNumber) -> dict[str, Any]:
    """A reviewed seat's costly decision (``move_number``: the record's move, from 1) as it stood:
    the game's view before it, seen from that seat, with its legal moves in words and
    ``practice`` (what the decision was; not the strong player's choice)."""
    seat = await asking.seat()

    def work() -> dict[str, Any]:
        table = asking.server.host.table(asking.game_id)
        return Practice(asking.reviews).position(table, seat, move_number, asking.language)

    return await in_game_thread(asking.language, work)


@router.post("/api/games/{game_id}/practice")
async def practise(body: PracticeIn, asking: AskingDep, address: AddressDep) -> dict[str, Any]:
    """Judge a move tried in a reviewed seat's costly decision: ``right`` when within half a point
    of the strong player's choice (``best``, in words), with the reason; a right answer counts
    on the player's progress page (the player's secret, else the seat's own player when its
    token is sent)."""
    seat = await asking.seat()
    with use_language(asking.language):
        asking.server.guard.spend("practice", address)  # a move judged is a third of a second's work

    def work() -> dict[str, Any]:
        table = asking.server.host.table(asking.game_id)
        own = asking.seat_token is not None and asking.player is None  # the seat's own token, for its own decisions
        return Practice(asking.reviews).answer(table, seat, body.move_number, body.move, asking.player_token, own)

    return await asking.reviews.judged_in_turn(asking.language, lambda: in_game_thread(asking.language, work))


@router.post("/api/games/{game_id}/choices")
async def computer_choices(
    game_id: str, server: ServerDep, language: LanguageDep, token: RequiredSeatToken
) -> dict[str, Any]:
    """What the greedy and the strong computer players would play now, with their expected
    final scores (not in the daily challenge)."""
    return {"choices": await in_game_thread(language, lambda: choices(server.host, game_id, token, language))}

"""Game reviews for the page, without HTTP: who may ask for one, the computation in the
background with its progress, and the moves written in the reader's language.

A review (``bots.review``) takes seconds: it is computed in a game thread, at most
:data:`REVIEWS_AT_ONCE` at a time (so that the other game threads stay free for moves), and
stored with the game (``store.reviewed``): every later request reads it. While it runs, this
process knows how far it has gone; a request to another server process sharing the database
sees it only once it is stored. A review stored in an older format (``bots.review.FORMAT``) is
never shown: it is computed anew.

How it works, at length: docs/design-web.md (web/reviews.py).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from .. import records
from ..bots.review import (
    COSTLIEST,
    FORMAT,
    PRACTICE_MARGIN,
    WHY_FROM,
    ReviewError,
    computer_choices,
    judge,
    reason_from_json,
)
from ..bots.verify import ROLLOUTS, agrees, combined_se, verify_decision
from ..bots.why import theme_words
from ..i18n import N_, _, use_language
from ..review_text import label_word, level_word
from ..rules import Game, IllegalMoveError, MoveSyntaxError, parse_move
from ..text import bot_name, describe_move, explain, situation
from .days import closes
from .limits import TooManyError
from .store import reviewed, token_hash
from .tables import Host, Table, TableError, move_view

REVIEWS_AT_ONCE = 1  # of the game threads (threads.GAME_THREADS), those a review may take
# Practice moves judged at once, as reviews, and how many may wait their turn: more are refused
# (429), so that other games' moves keep their threads (8 judged at once from one address had
# raised another game's median move from 3 to 153 ms). Each address has its own limit too
# (limits.Limits.practice_per_minute).
PRACTICE_AT_ONCE = 1
PRACTICE_WAITING = 4
Result = TypeVar("Result")
PRACTISED_FROM = WHY_FROM  # a decision that cost this many expected points or more is practised
VERIFIED = ":verified"  # the version suffix under which a review's verification is stored
VERIFY_MOST = COSTLIEST  # the page verifies at most the costliest decisions it lists first
VERIFY_ROLLOUTS = ROLLOUTS  # and at most this many rollouts each (a few seconds of a game thread)


@dataclass
class Progress:
    """A review under way: ``done`` decisions of ``total`` (0 until the first is counted)."""

    done: int = 0
    total: int = 0
    error: str | None = None  # the English sentence of a review that failed, with its params
    params: dict[str, object] | None = None


def refused(error: ReviewError) -> TableError:
    """A review refused (a game not finished, no such player), in the reader's language."""
    return TableError(409, _(error.template).format(**error.params))


class Reviews:
    """The reviews one server process is computing, by game and seat."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.running: dict[tuple[str, int], Progress] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._turns: asyncio.Semaphore | None = None  # made in the event loop that uses it
        self._judging: asyncio.Semaphore | None = None
        self._waiting = 0  # practice moves waiting for their turn to be judged
        self.verifying: dict[tuple[str, int], Progress] = {}

    def seat_asked(self, table: Table, seat: int | None, player: int | None) -> int:
        """The seat to review: the token's own (``seat``), else ``player`` (from 1; the first by
        default). A challenge entry is reviewed only once its day is over (the review shows the
        strong player's choices on the day's dice), an unfinished game never."""
        stored = table.stored
        with table.lock:
            over = table.game.is_over
        if not over:
            raise refused(ReviewError("the game is not finished: only a finished game is reviewed"))
        if stored.challenge is not None and self.host.wall_clock() < closes(stored.challenge):
            raise TableError(409, _("a challenge entry is reviewed once its day is over"))
        if seat is not None and player is None:
            return seat
        chosen = (player or 1) - 1
        if not 0 <= chosen < len(stored.seats):
            raise refused(
                ReviewError("there is no player {n} in this game of {players}", n=chosen + 1, players=len(stored.seats))
            )
        return chosen

    def stored(self, game_id: str, seat: int) -> dict[str, Any] | None:
        """The stored review, if there is one (a read: nothing is computed)."""
        found = self.host.store.load_review(game_id, seat, FORMAT)
        if found is None:
            return None
        data: dict[str, Any] = json.loads(found)
        return data

    def start(self, game_id: str, seat: int, run: Callable[[Callable[[], None]], Awaitable[None]]) -> Progress:
        """Start computing the review in the background (``run`` hands the work to a game
        thread), unless it is already under way here; its progress."""

        def work(told: Callable[[int, int], None]) -> None:
            reviewed(self.host.store, game_id, seat, told)

        failed = N_("the review failed: {problem}")
        return self._in_background(self.running, (game_id, seat), run, work, failed, (ReviewError,))

    def _in_background(
        self,
        under_way: dict[tuple[str, int], Progress],
        key: tuple[str, int],
        run: Callable[[Callable[[], None]], Awaitable[None]],
        work: Callable[[Callable[[int, int], None]], None],
        failed: str,
        worded: tuple[type[ReviewError], ...] = (),
    ) -> Progress:
        """``work(told)`` in a game thread in the background, in a review's turn
        (:data:`REVIEWS_AT_ONCE` at a time), unless ``key`` is ``under_way`` here already; its
        progress, kept in ``under_way`` until it is done (and then too if it failed: the error,
        ``worded`` errors in their own words, others as ``failed``)."""
        progress = under_way.get(key)
        if progress is not None:
            return progress
        progress = under_way[key] = Progress()
        if self._turns is None:
            self._turns = asyncio.Semaphore(REVIEWS_AT_ONCE)
        turns = self._turns

        def told(done: int, total: int) -> None:
            progress.done, progress.total = done, total

        def guarded() -> None:
            try:
                work(told)
            except worded as error:
                progress.error, progress.params = error.template, dict(error.params)
            except Exception as error:  # a record that does not replay, the database away
                progress.error, progress.params = failed, {"problem": str(error)}

        async def background() -> None:
            try:
                async with turns:
                    await run(guarded)
            finally:
                if progress.error is None:
                    under_way.pop(key, None)

        task = asyncio.get_running_loop().create_task(background())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return progress

    def verified(self, game_id: str, seat: int) -> dict[str, Any] | None:
        """The stored verification of a review, by move number (as text), if there is one."""
        found = self.host.store.load_review(game_id, seat, FORMAT + VERIFIED)
        return None if found is None else dict(json.loads(found))

    def to_verify(self, game_id: str, seat: int) -> bool:
        """Whether the stored review is still to verify (not verified yet); a 409 when there is
        no stored review (a review is verified once it is done)."""
        if self.stored(game_id, seat) is None:
            raise TableError(409, _("this game has no review yet: a review is verified once it is done"))
        return self.verified(game_id, seat) is None

    def verify_start(
        self, game_id: str, seat: int, count: int, rollouts: int, run: Callable[[Callable[[], None]], Awaitable[None]]
    ) -> Progress:
        """Start verifying the ``count`` costliest decisions of the stored review (see
        :meth:`to_verify`) by ``rollouts`` rollouts each, in the background (a review's turn:
        :data:`REVIEWS_AT_ONCE`), unless it is under way here; its progress."""

        def work(told: Callable[[int, int], None]) -> None:
            data = self.stored(game_id, seat)
            assert data is not None, "a stored review stays"
            found = verify_stored(self.host, game_id, seat, data, count, rollouts, told)
            self.host.store.save_review(game_id, seat, FORMAT + VERIFIED, json.dumps(found))

        failed = N_("the verification failed: {problem}")
        return self._in_background(self.verifying, (game_id, seat), run, work, failed)

    async def judged_in_turn(self, language: str, judged: Callable[[], Awaitable[Result]]) -> Result:
        """``judged()`` once a turn is free (:data:`PRACTICE_AT_ONCE` at a time); refused (429,
        said in ``language``) when :data:`PRACTICE_WAITING` already wait."""
        if self._judging is None:
            self._judging = asyncio.Semaphore(PRACTICE_AT_ONCE)
        turns = self._judging
        if turns.locked() and self._waiting >= PRACTICE_WAITING:
            with use_language(language):
                message = _("the server is judging other practice moves: try again in {seconds} s")
            raise TooManyError(message.format(seconds=1), 1)
        self._waiting += 1
        try:
            await turns.acquire()
        finally:
            self._waiting -= 1
        try:
            return await judged()
        finally:
            turns.release()

    def answer(self, game_id: str, seat: int, language: str) -> dict[str, Any]:
        """What a request is told: the review (its moves in words), or how far it has gone,
        or ``{"status": "none"}`` when nobody asked for it yet."""
        progress = self.running.get((game_id, seat))
        if progress is not None and progress.error is not None:
            self.running.pop((game_id, seat), None)  # told once; asking again tries again
            with use_language(language):
                raise TableError(409, _(progress.error).format(**(progress.params or {})))
        data = self.stored(game_id, seat)
        if data is not None:
            checked = self.verified(game_id, seat) or {}
            for decision in data["decisions"]:
                found = checked.get(str(decision["move_number"]))
                if found is not None:
                    decision["verified"] = found
            verifying = self.verifying.get((game_id, seat))
            if verifying is not None and verifying.error is not None:
                self.verifying.pop((game_id, seat), None)  # told once; asking again tries again
                with use_language(language):
                    data["verify_error"] = _(verifying.error).format(**(verifying.params or {}))
            elif verifying is not None:
                data["verifying"] = {"done": verifying.done, "total": verifying.total}
            return in_words(self.host, game_id, data, language)
        if progress is not None:
            return {"status": "running", "done": progress.done, "total": progress.total}
        return {"status": "none"}


def in_words(host: Host, game_id: str, data: dict[str, Any], language: str) -> dict[str, Any]:
    """The stored review with each decision's moves as the page shows them (``played_move``,
    ``best_move``: the move's words, die, area and cell, as in a view's ``legal``) and its words
    (``played_text``, ``best_text``, ``label_text``, and for a costly decision ``why``, the reason
    in a sentence) in ``language``, the level's word (``level_text``)."""
    stored = host.store.load(game_id)
    if stored is None:
        raise TableError(404, _("no such game"))
    wanted = {d["move_number"]: d for d in data["decisions"]}
    game = Game(stored.game, players=len(stored.seats), dice="external", rules=stored.rules)
    with use_language(language):
        for number, entry in enumerate(stored.moves, start=1):
            seat, text = records.split_entry(entry)
            decision = wanted.get(number)
            if decision is not None:
                for key in ("played", "best"):
                    shown = move_view(game, parse_move(decision[key]))
                    decision[f"{key}_move"] = shown
                    decision[f"{key}_text"] = describe_move(game, parse_move(decision[key]))
                decision["label_text"] = label_word(decision["label"])
                if "why_reason" in decision:
                    decision["why"] = explain(reason_from_json(decision["why_reason"]))
            game.play(parse_move(text), seat)
        data["label_words"] = {name: label_word(name) for name in data["labels"]}
        for theme in data.get("themes", []):  # a review stored before the themes has none
            theme["title"], theme["tip"] = (explain(words) for words in theme_words(theme["theme"]))
        data["level_text"] = level_word(data["level"])
    data["status"] = "done"
    return data


def verify_stored(
    host: Host,
    game_id: str,
    seat: int,
    data: dict[str, Any],
    count: int,
    rollouts: int,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, dict[str, Any]]:
    """The ``count`` costliest decisions of a stored review (its ``costliest``) verified by
    ``rollouts`` strong rollouts each (``bots.verify.verify_decision``), by move number as text:
    the rollouts' cost, its standard error, and whether the review's cost agrees with it."""
    stored = host.store.load(game_id)
    if stored is None:
        raise TableError(404, _("no such game"))
    players = [s.name for s in stored.seats]
    record = records.Record(game=stored.game, players=players, dice="external", rules=stored.rules, moves=stored.moves)
    by_move = {d["move_number"]: d for d in data["decisions"]}
    chosen = [by_move[n] for n in data["costliest"][:count]]
    found: dict[str, dict[str, Any]] = {}
    for k, decision in enumerate(chosen, start=1):
        game = records.replay(record, stop=decision["move_number"])
        played, best = parse_move(decision["played"]), parse_move(decision["best"])
        verified = verify_decision(game, seat, played, best, rollouts)
        error = decision.get("cost_error", decision["cost_se"])
        agreed = agrees(decision["cost"], error, verified)
        found[str(decision["move_number"])] = {**verified.to_json(), "agrees": agreed}
        if progress is not None:
            progress(k, len(chosen))
    return found


def practised(data: dict[str, Any], move_number: int) -> dict[str, Any]:
    """The decision of a stored review played at ``move_number``, if it is one to practise (it
    cost :data:`PRACTISED_FROM` points or more); else a 422 that says so."""
    for decision in data["decisions"]:
        if decision["move_number"] == move_number and decision["cost"] >= PRACTISED_FROM:
            return dict(decision)
    sentence = _("move {n} is not a decision of {name}'s that cost {points} points or more: only those are practised")
    raise TableError(422, sentence.format(n=move_number, name=data["name"], points=int(PRACTISED_FROM)))


class Practice:
    """Practice on a reviewed seat's costly decisions: the position as it stood, and the move a
    player tries there judged (``bots.review.judge``)."""

    def __init__(self, reviews: Reviews) -> None:
        self.reviews = reviews
        self.host = reviews.host

    def _position(self, table: Table, seat: int, move_number: int) -> tuple[dict[str, Any], dict[str, Any], Game]:
        """The stored review, its decision at ``move_number`` and the position before it."""
        data = self.reviews.stored(table.id, seat)
        if data is None:
            raise TableError(409, _("this game has no review yet: a position is practised from its review"))
        decision = practised(data, move_number)
        stored = table.stored
        players = [s.name for s in stored.seats]
        # under the game's own rules: a strict reading's game does not replay under the default one
        record = records.Record(
            game=stored.game, players=players, dice="external", rules=stored.rules, moves=stored.moves
        )
        game = records.replay(record, stop=move_number)
        assert seat in game.players_to_move, "a review's decision is one its seat took"
        return data, decision, game

    def position(self, table: Table, seat: int, move_number: int, language: str) -> dict[str, Any]:
        """The decision's position as the page shows a game (the seat's sheet, the dice, its legal
        moves in words) with what the decision was: not the strong player's choice."""
        data, decision, game = self._position(table, seat, move_number)
        view = self.host.view_at(table, move_number - 1, language)
        with use_language(language):
            view.update(
                you=seat,
                seq=0,
                legal=[move_view(game, m) for m in game.legal_moves(seat)],
                dice_to_roll=[],
                solo_roll=False,
                can_undo=False,
                prompt=situation(game, seat),
                status=_("Your move."),  # the position is played again: the reader decides
            )
            view["practice"] = {
                "move_number": move_number,
                "round": decision["round"],
                "player": seat + 1,
                "name": data["name"],
                "played": decision["played"],
                "played_text": describe_move(game, parse_move(decision["played"])),
                "cost": decision["cost"],
                "cost_se": decision["cost_se"],
                "cost_error": decision.get("cost_error", decision["cost_se"]),
                "label": decision["label"],
                "label_text": label_word(decision["label"]),
                "margin": PRACTICE_MARGIN,
            }
        return view

    def answer(
        self, table: Table, seat: int, move_number: int, move_text: str, player: str | None, own_seat: bool
    ) -> dict[str, Any]:
        """The move tried judged against the strong choice: right when within
        ``PRACTICE_MARGIN`` points of it. A right answer counts for the player (``player``: the
        secret sent, else the seat's own player when ``own_seat``, its token sent), once per
        position."""
        _data, _decision, game = self._position(table, seat, move_number)
        try:
            move = parse_move(move_text)
        except MoveSyntaxError as exc:
            raise TableError(422, _("not a move: {reason}").format(reason=explain(exc))) from None
        try:
            game.copy().play(move, seat)  # the engine is the judge of what is legal
        except IllegalMoveError as exc:
            raise TableError(409, _("illegal move: {reason}").format(reason=explain(exc))) from None
        answer = judge(game, seat, move)
        solver = (
            token_hash(player) if player is not None else table.stored.seats[seat].player_hash if own_seat else None
        )
        counted = False
        if answer.right and solver is not None and self.host.store.player_name(solver) is not None:
            self.host.store.save_solved(solver, table.id, seat, move_number, self.host.wall_clock())
            counted = True
        return {
            "move_number": move_number,
            "right": answer.right,
            "margin": PRACTICE_MARGIN,
            "move": move_view(game, move),
            "best": move_view(game, answer.best),
            "expected": round(answer.expected, 2),
            "best_expected": round(answer.best_expected, 2),
            "cost": round(answer.cost, 2),
            "cost_se": round(answer.cost_se, 2),
            # the ± shown: the futures' standard error and the valuation's own error
            "cost_error": round(0.0 if answer.move == answer.best else combined_se(answer.cost, answer.cost_se), 2),
            "why": None if answer.reason is None else explain(answer.reason),
            "counted": counted,
        }


def choices(host: Host, game_id: str, token: str, language: str) -> list[dict[str, Any]]:
    """What the greedy and the strong computer players would play in the seat's position, each
    with its expected final score (refused in the daily challenge, as hints are)."""
    seat, game = host.position_to_advise(game_id, token)
    try:
        found = computer_choices(game, seat)
    except ReviewError as error:
        raise refused(error) from None
    with use_language(language):
        return [
            {
                "bot": c.bot,
                "bot_label": bot_name(c.bot),
                "move": str(c.move),
                "label": describe_move(game, c.move),
                "expected": round(c.expected, 1),
            }
            for c in found
        ]

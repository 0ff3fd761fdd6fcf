"""Practice on a review's costly decisions (``GET``/``POST /api/games/{id}/practice``): the
position as it stood, the move tried judged as the review judges a decision (``bots.review.judge``,
for real), a right answer counted once for the player on their progress page; forged input
refused with a clear message and nothing changed. And the review's page data: a costly
decision's reason in words (``why``), the level's word, and an old format's review recomputed.

The reviews here are made quickly: ``decision_of`` is replaced by one that calls every third
decision of the seat costly (3 points, the first other legal move the "best"), with a reason.
The practice's judging is the engine's own.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from test_review_store import external_moves
from test_web_review import TOKEN, seat_token, served, until_done
from tresfute import records
from tresfute.bots import review as review_module
from tresfute.bots.appraisal import appraise
from tresfute.bots.greedy import GreedyBot
from tresfute.bots.review import FORMAT, Decision
from tresfute.bots.strong import roll_own_dice
from tresfute.rules import CHANCE, Game, Move
from tresfute.rules.reasons import Reason
from tresfute.web.challenge import closes
from tresfute.web.store import SQLiteStore, StoredGame, StoredSeat, reviewed, token_hash

OLD_FORMAT = "tresfute-review/9"
REASON = "the best move earns a fox, which yours gives up"
DAY = "2026-11-25"


def quick_decision(
    game: Game, player: int, move: Move, number: int, seed: int = 0, final: Game | None = None
) -> Decision:
    """A decision valued at once: every third one cost 3 points against another legal move."""
    legal = game.legal_moves(player)
    other = next((m for m in legal if m != move), move)
    costly = other != move and number % 3 == 0
    return Decision(
        move_number=number,
        round=game.round,
        phase=str(game.phase),
        dice=(),
        legal_moves=len(legal),
        played=move,
        best=other if costly else move,
        played_value=97.0 if costly else 100.0,
        best_value=100.0,
        cost_se=0.4,
        reason=Reason(REASON) if costly else None,
    )


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(review_module, "decision_of", quick_decision)


@pytest.fixture(scope="module")
def finished() -> list[str]:
    return external_moves(0)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    s = SQLiteStore(tmp_path / "games.sqlite3")
    yield s
    s.close()


def stored_game(
    moves: list[str], game_id: str = "g1", player: str | None = None, challenge: str | None = None
) -> StoredGame:
    seat = StoredSeat("Ana", None, token_hash(seat_token(game_id)), player_hash=player and token_hash(player))
    return StoredGame(game_id, "tres-fute", False, None, [seat], moves=moves, challenge=challenge)


def costly(review: dict[str, Any]) -> list[int]:
    return [d["move_number"] for d in review["decisions"] if d["cost"] >= 2]


def position(moves: list[str], move_number: int) -> Game:
    record = records.Record(game="tres-fute", players=["Ana"], dice="external", moves=moves)
    return records.replay(record, stop=move_number)


def test_an_old_format_review_is_recomputed_not_shown(
    store: SQLiteStore, finished: list[str], quick: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A review stored in an older format (tresfute-review/9: the last version's values, with
    Très futé's player and lift before its phase 9) is never shown:
    the page is told nobody asked, and asking computes the review anew in the current format."""
    store.create(stored_game(finished))
    old = {"format": OLD_FORMAT, "name": "Ana", "accuracy": 12.3, "decisions": [], "stale": True}
    store.save_review("g1", 0, OLD_FORMAT, json.dumps(old))
    with served(store) as client:
        assert client.get("/api/games/g1/review").json() == {"status": "none"}
        started = client.post("/api/games/g1/review?lang=en", headers={"X-Seat-Token": TOKEN})
        assert started.status_code == 202
        review = until_done(client, "/api/games/g1/review?lang=en")
    assert review["format"] == FORMAT and "stale" not in review and review["decisions"]
    assert json.loads(store.load_review("g1", 0, OLD_FORMAT) or "{}") == old  # kept, never read


def test_the_review_says_why_and_names_the_level(store: SQLiteStore, finished: list[str], quick: None) -> None:
    store.create(stored_game(finished))
    reviewed(store, "g1", 0)
    with served(store) as client:
        english = client.get("/api/games/g1/review?lang=en").json()
        french = client.get("/api/games/g1/review?lang=fr").json()
    marked = [d for d in english["decisions"] if d["cost"] >= 2]
    assert marked and all(d["why"] == REASON for d in marked)
    assert all("why" not in d for d in english["decisions"] if d["cost"] < 2)
    assert english["level"] in {name for name, _ in review_module.LEVELS}
    assert english["level_text"] == english["level"]
    words = {"expert": "expert", "strong": "fort", "advanced": "confirmé", "intermediate": "intermédiaire"}
    assert french["level_text"] == words.get(french["level"], "débutant")


@pytest.fixture
def practised(store: SQLiteStore, finished: list[str]) -> tuple[SQLiteStore, str, list[int]]:
    """A finished game of the player's, reviewed (quickly: the practice's judge is the engine's
    own, so ``decision_of`` is put back before it runs): the store, the player's secret, the
    review's costly decisions."""
    player = "practising-player-0123456789"
    store.add_player(token_hash(player), "Ana", 0.0)
    store.create(stored_game(finished[:-1], player=player))
    # when it ended (the progress page lists finished games; those of long ago are forgotten)
    store.append_moves("g1", len(finished) - 1, finished[-1:], 0, finished=time.time())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(review_module, "decision_of", quick_decision)
        review = reviewed(store, "g1", 0)
    assert review is not None
    return store, player, costly(review)


def test_a_costly_position_is_shown_as_it_stood_without_the_best_move(
    practised: tuple[SQLiteStore, str, list[int]], finished: list[str]
) -> None:
    store, _player, numbers = practised
    number = numbers[0]
    game = position(finished, number)
    with served(store) as client:
        view = client.get(f"/api/games/g1/practice?move_number={number}&lang=en", headers={"X-Seat-Token": TOKEN})
        by_anyone = client.get(f"/api/games/g1/practice?move_number={number}&player=1&lang=en")
    assert view.status_code == 200, view.text
    shown = view.json()
    assert by_anyone.status_code == 200 and by_anyone.json() == shown  # anyone who may watch, as for reviews
    assert shown["you"] == 0 and shown["over"] is False and shown["step"] == number - 1
    assert shown["status"] == "Your move." and shown["prompt"]
    assert {m["move"] for m in shown["legal"]} == {str(m) for m in game.legal_moves(0)}
    assert all(m["label"] and m["label"] != m["move"] for m in shown["legal"])  # in words
    assert [d["value"] for d in shown["state"]["dice"]] == list(game.values)  # the dice as they were
    what = shown["practice"]
    assert what["move_number"] == number and what["played"] == records.split_entry(finished[number - 1])[1]
    assert what["cost"] == 3.0 and what["margin"] == 0.5 and "best" not in what


def test_a_right_and_a_wrong_answer_and_the_solved_count(
    practised: tuple[SQLiteStore, str, list[int]], finished: list[str]
) -> None:
    """The worst move by the network is judged wrong, with the best move in words and a reason;
    the best move is right, and counts once on the player's progress page."""
    store, player, numbers = practised
    number = numbers[0]
    game = position(finished, number)
    worst = appraise(game, 0).ranked[-1].move
    url = "/api/games/g1/practice?lang=en"
    headers = {"X-Seat-Token": TOKEN, "X-Player-Token": player}
    with served(store) as client:
        wrong = client.post(url, json={"move_number": number, "move": str(worst)}, headers=headers)
        assert wrong.status_code == 200, wrong.text
        answer = wrong.json()
        best = answer["best"]["move"]
        assert best != str(worst)
        right = client.post(url, json={"move_number": number, "move": best}, headers=headers).json()
        again = client.post(url, json={"move_number": number, "move": best}, headers=headers).json()
        progress = client.get("/api/players/me", headers={"X-Player-Token": player}).json()
    assert answer["right"] is False and answer["cost"] > 0.5 and answer["counted"] is False
    assert answer["move"]["move"] == str(worst) and answer["move"]["label"] and answer["best"]["label"]
    assert answer["why"] and answer["expected"] < answer["best_expected"]
    assert right["right"] is True and right["cost"] <= 0.5 and right["counted"] is True
    assert again["right"] is True
    assert store.solved(token_hash(player)) == [("g1", 0, number)]  # once per position
    assert progress["solved"] == 1
    (row,) = progress["games"]
    assert row["solved"] == 1 and row["to_practise"] == len(numbers) and row["error_rate"] is not None


def test_a_right_answer_with_the_seat_token_alone_counts_for_the_seats_player(
    practised: tuple[SQLiteStore, str, list[int]], finished: list[str]
) -> None:
    store, player, numbers = practised
    number = numbers[-1]
    with served(store) as client:
        best = client.post(
            "/api/games/g1/practice",
            json={"move_number": number, "move": str(position(finished, number).legal_moves(0)[0])},
            headers={"X-Seat-Token": TOKEN},
        ).json()["best"]["move"]
        right = client.post(
            "/api/games/g1/practice", json={"move_number": number, "move": best}, headers={"X-Seat-Token": TOKEN}
        ).json()
        by_a_watcher = client.post("/api/games/g1/practice?player=1", json={"move_number": number, "move": best})
    assert right["right"] is True and right["counted"] is True
    assert by_a_watcher.status_code == 200 and by_a_watcher.json()["counted"] is False  # nobody to count it for
    assert store.solved(token_hash(player)) == [("g1", 0, number)]


def test_forged_practice_requests_are_refused_and_change_nothing(
    practised: tuple[SQLiteStore, str, list[int]], finished: list[str]
) -> None:
    """An illegal move, a text that is no move, a move number that is not a costly decision of
    the seat (a cheap one, the dice's roll, past the end, 0), another game's seat token, a game
    not reviewed, a challenge entry of a day not over: a sentence saying why, nothing kept."""
    store, player, numbers = practised
    number = numbers[0]
    game = position(finished, number)
    cheap = next(n for n, e in enumerate(finished, start=1) if records.split_entry(e)[0] == 0 and n not in numbers)
    roll = next(n for n, e in enumerate(finished, start=1) if records.split_entry(e)[0] is None)
    legal = {str(m) for m in game.legal_moves(0)}
    illegal = next(f"y@r{r}c{c}" for r in range(1, 5) for c in range(1, 5) if f"y@r{r}c{c}" not in legal)
    store.create(stored_game(finished, "g2"))  # finished, not reviewed
    store.create(stored_game(finished, "g3", challenge=DAY))
    headers = {"X-Seat-Token": TOKEN, "X-Player-Token": player}

    def tried(move_number: Any, move: str = "pass", game_id: str = "g1", **extra: str) -> Any:
        return client.post(
            f"/api/games/{game_id}/practice?lang=en",
            json={"move_number": move_number, "move": move},
            headers={**headers, **extra},
        )

    now = [closes(DAY) - 3600]
    with TestClient(review_module_app(store, now)) as client:
        refused = tried(number, illegal)
        assert refused.status_code == 409 and refused.json()["error"].startswith("illegal move:")
        garbage = tried(number, "fly me to the moon")
        assert garbage.status_code == 422 and garbage.json()["error"].startswith("not a move:")
        for forged in (cheap, roll, len(finished) + 5):
            answer = tried(forged)
            assert answer.status_code == 422, (forged, answer.text)
            assert f"move {forged} is not a decision of Ana's that cost 2 points or more" in answer.json()["error"]
        assert tried(0).status_code == 422 and tried("3").status_code == 422  # no move 0; a number, not text
        assert client.get("/api/games/g1/practice?move_number=0").status_code == 422
        other_seat = tried(number, game_id="g2")  # g1's seat token on g2
        assert other_seat.status_code == 403
        not_reviewed = client.post("/api/games/g2/practice?player=1&lang=en", json={"move_number": number, "move": "x"})
        assert not_reviewed.status_code == 409 and "no review yet" in not_reviewed.json()["error"]
        today = tried(number, game_id="g3", **{"X-Seat-Token": seat_token("g3")})
        assert today.status_code == 409 and "once its day is over" in today.json()["error"]
        assert client.post("/api/games/nope/practice", json={"move_number": 1, "move": "pass"}).status_code == 404
        in_french = client.post(
            "/api/games/g1/practice?lang=fr", json={"move_number": cheap, "move": "pass"}, headers=headers
        )
        assert in_french.json()["error"].startswith(f"le coup {cheap} n’est pas")
    assert store.solved(token_hash(player)) == []


def review_module_app(store: SQLiteStore, now: list[float]) -> Any:
    from tresfute.web.app import create_app

    return create_app(store=store, clock=lambda: now[0], challenge_bot="greedy")


# Every rules option of both games: Très futé has none, Vraiment très futé's reprise with no die
# left is read both ways (docs/rules-decisions.md).
RULES_READINGS = [
    ("tres-fute", None),
    ("vraiment-tres-fute", {"reprise_with_no_die_left": True}),
    ("vraiment-tres-fute", {"reprise_with_no_die_left": False}),
]


def played_under(game_id: str, rules: dict[str, bool] | None, seed: int) -> records.Record:
    """A finished solo game of the greedy player under ``rules``, its dice in the record."""
    game = Game(game_id, 1, dice="external", rules=rules)
    rng = random.Random(seed)
    while not game.is_over:
        if game.to_move == CHANCE:
            roll_own_dice(game, rng)
        else:
            game.play(GreedyBot(0).choose(game, 0), 0)
    return records.record_of(game)


@pytest.mark.parametrize(("game_id", "rules"), RULES_READINGS)
def test_review_and_practice_replay_the_game_under_its_own_rules(
    store: SQLiteStore, quick: None, game_id: str, rules: dict[str, bool] | None
) -> None:
    """Issue 72: practice rebuilt a Vraiment très futé game without its rules options, so every
    position after the strict reading had diverged from the default one answered 500. Each
    costly decision's position is now the one the game had, under each rules option."""
    record = played_under(game_id, rules, seed=4)
    if rules == {"reprise_with_no_die_left": False}:  # the game really is one the default reading cannot replay
        with pytest.raises(records.RecordError):
            records.replay(records.Record(game=game_id, players=["Ana"], dice="external", moves=record.moves))
    seat = StoredSeat("Ana", None, token_hash(TOKEN))
    store.create(StoredGame("g1", game_id, False, None, [seat], moves=record.moves, rules=rules))
    headers = {"X-Seat-Token": TOKEN}
    with served(store) as client:
        assert client.post("/api/games/g1/review?lang=en", headers=headers).status_code == 202
        review = until_done(client, "/api/games/g1/review?lang=en", headers)
        numbers = costly(review)
        assert len(numbers) >= 5
        for number in numbers:
            shown = client.get(f"/api/games/g1/practice?move_number={number}&lang=en", headers=headers)
            assert shown.status_code == 200, (number, shown.text)
            game = records.replay(record, stop=number)
            assert {m["move"] for m in shown.json()["legal"]} == {str(m) for m in game.legal_moves(0)}
            assert shown.json()["rules"] == (rules or {})
        last = numbers[-1]
        tried = str(records.replay(record, stop=last).legal_moves(0)[0])
        judged = client.post("/api/games/g1/practice", json={"move_number": last, "move": tried}, headers=headers)
    assert judged.status_code == 200, judged.text
    assert judged.json()["move"]["move"] == tried


def test_practice_moves_past_an_address_s_limit_are_refused_429_and_count_nothing(
    practised: tuple[SQLiteStore, str, list[int]], finished: list[str]
) -> None:
    """Issue 72: practice was not rate-limited. Each move judged costs a third of a second: an
    address may have ``practice_per_minute`` judged (then 429 with Retry-After, nothing kept)."""
    from tresfute.web.app import create_app
    from tresfute.web.limits import Limits

    store, player, numbers = practised
    number = numbers[0]
    move = str(appraise(position(finished, number), 0).ranked[-1].move)  # judged wrong: never counted
    headers = {"X-Seat-Token": TOKEN, "X-Player-Token": player}
    with TestClient(create_app(store=store, challenge_bot="greedy", limits=Limits(practice_per_minute=2))) as client:
        for _ in range(2):
            answer = client.post("/api/games/g1/practice", json={"move_number": number, "move": move}, headers=headers)
            assert answer.status_code == 200, answer.text
        best = answer.json()["best"]["move"]
        refused = client.post(
            "/api/games/g1/practice?lang=en", json={"move_number": number, "move": best}, headers=headers
        )
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    assert refused.json()["error"].startswith("too many practice moves from your connection: try again in")
    assert answer.json()["right"] is False and best != move
    assert store.solved(token_hash(player)) == []  # the right answer refused was not counted


def test_practice_moves_are_judged_one_at_a_time_and_a_queue_too_long_is_refused(
    practised: tuple[SQLiteStore, str, list[int]], finished: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Eight moves judged at once held every game thread (another game's median move went from 3
    to 153 ms): they are judged one at a time, as reviews are computed, and past those waiting
    (``PRACTICE_WAITING``) a move is refused, 429 with Retry-After."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from tresfute.web import reviews as web_reviews
    from tresfute.web.app import create_app
    from tresfute.web.limits import Limits

    store, _player, numbers = practised
    number = numbers[0]
    move = str(position(finished, number).legal_moves(0)[0])
    gate, lock = threading.Event(), threading.Lock()
    judging = [0, 0]  # at once now, most at once
    real = web_reviews.judge

    def slow_judge(*args: Any) -> Any:
        with lock:
            judging[0] += 1
            judging[1] = max(judging)
        assert gate.wait(30)
        try:
            return real(*args)
        finally:
            with lock:
                judging[0] -= 1

    monkeypatch.setattr(web_reviews, "judge", slow_judge)
    many = web_reviews.PRACTICE_AT_ONCE + web_reviews.PRACTICE_WAITING + 2
    with TestClient(create_app(store=store, challenge_bot="greedy", limits=Limits(practice_per_minute=0))) as client:

        def tried(_: int) -> Any:
            return client.post(
                "/api/games/g1/practice?lang=en",
                json={"move_number": number, "move": move},
                headers={"X-Seat-Token": TOKEN},
            )

        with ThreadPoolExecutor(many) as pool:
            answers = [pool.submit(tried, i) for i in range(many)]
            while sum(1 for a in answers if a.done()) < 2:  # the two past the queue are answered at once
                time.sleep(0.02)
            gate.set()
            statuses = sorted(a.result().status_code for a in answers)
    assert statuses == [200] * (many - 2) + [429, 429]
    assert judging[1] == web_reviews.PRACTICE_AT_ONCE
    late = next(a.result() for a in answers if a.result().status_code == 429)
    assert late.headers["retry-after"] == "1" and "judging other practice moves" in late.json()["error"]

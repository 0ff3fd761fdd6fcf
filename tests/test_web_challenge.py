"""The daily challenge: one solo game per game type and day, the same dice for everyone.

The server's clock is injected: the tests move it past midnight (UTC) to close a day.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tresfute import fair_dice, records
from tresfute.web.app import create_app
from tresfute.web.challenge import closes, play_alone
from tresfute.web.store import PostgresStore, SQLiteStore, Store

NOON = 1_795_435_200.0  # 2026-11-23 12:00 UTC
DAY = "2026-11-23"


class Clock:
    def __init__(self) -> None:
        self.now = NOON

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(params=["sqlite", "postgresql"])
def client(request: pytest.FixtureRequest, tmp_path: Path, clock: Clock) -> Iterator[TestClient]:
    if request.param == "sqlite":
        store: Store = SQLiteStore(tmp_path / "games.sqlite3")
    else:
        store = PostgresStore(request.getfixturevalue("postgres_url"))
    app = create_app(store=store, clock=clock, challenge_bot="greedy")
    yield TestClient(app)
    app.state.daily.wait_idle()
    store.close()


def start(client: TestClient, name: str, player: str | None = None, game: str = "tres-fute") -> Any:
    headers = {"X-Player-Token": player} if player else {}
    return client.post(f"/api/challenge/{game}?lang=en", json={"name": name}, headers=headers)


def view(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": token})
    assert response.status_code == 200, response.text
    return response.json()


def play_to_end(client: TestClient, game_id: str, token: str, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    now = view(client, game_id, token)
    while not now["over"]:
        move = rng.choice(now["legal"])["move"]
        response = client.post(
            f"/api/games/{game_id}/act", json={"move": move, "seq": now["seq"]}, headers={"X-Seat-Token": token}
        )
        assert response.status_code == 200, response.text
        now = response.json()
    return now


def record(client: TestClient, game_id: str, player: str | None = None) -> records.Record:
    response = client.get(f"/api/games/{game_id}/record", headers={"X-Player-Token": player} if player else {})
    assert response.status_code == 200, response.text
    return records.loads(response.text)


def board(client: TestClient, player: str | None = None, day: str | None = None) -> dict[str, Any]:
    query = f"?day={day}" if day else ""
    response = client.get(f"/api/challenge/tres-fute{query}", headers={"X-Player-Token": player} if player else {})
    assert response.status_code == 200, response.text
    return response.json()


def test_two_players_of_the_day_get_the_same_dice_checkable_once_the_day_is_over(
    client: TestClient, clock: Clock
) -> None:
    ana, bob = start(client, "Ana").json(), start(client, "Bob").json()
    assert ana["day"] == bob["day"] == DAY and ana["player"] != bob["player"]
    published = board(client)["commitment"]
    first = [view(client, e["id"], e["token"]) for e in (ana, bob)]
    assert [v["commitment"] for v in first] == [published, published]
    rolled = [
        client.post(f"/api/games/{e['id']}/act", json={"move": "roll", "seq": 0}, headers={"X-Seat-Token": e["token"]})
        for e in (ana, bob)
    ]
    assert rolled[0].json()["state"]["dice"] == rolled[1].json()["state"]["dice"]
    ends = [play_to_end(client, e["id"], e["token"], seed) for seed, e in enumerate((ana, bob))]
    assert [end["secret"] for end in ends] == [None, None], "the day's secret stays hidden until the day is over"
    assert board(client)["secret"] is None

    clock.now = closes(DAY)
    closed = board(client, day=DAY)
    assert closed["closed"] and fair_dice.commitment(closed["secret"]) == published
    for entry in (ana, bob):
        moves = record(client, entry["id"]).moves
        assert fair_dice.check_record(closed["secret"], published, moves) == []
    assert view(client, ana["id"], ana["token"])["secret"] == closed["secret"]
    assert board(client)["day"] == "2026-11-24" and board(client)["commitment"] != published


def test_the_ranking_lists_finished_entries_and_where_the_computer_player_stands(client: TestClient) -> None:
    entries = [start(client, name).json() for name in ("Ana", "Bob", "Cyd")]
    scores = {}
    for seed, entry in enumerate(entries[:2]):
        end = play_to_end(client, entry["id"], entry["token"], seed)
        scores[entry["id"]] = end["result"]["scores"][0]["total"]
    client.app.state.daily.wait_for_strong(DAY, "tres-fute")  # type: ignore[attr-defined]
    now = board(client, entries[0]["player"])
    assert [e["id"] for e in now["entries"]] == sorted(scores, key=lambda i: -scores[i]), "Cyd has not finished"
    assert [e["score"] for e in now["entries"]] == sorted(scores.values(), reverse=True)
    assert now["entries"][0]["rank"] == 1 and now["you"]["name"] == "Ana"
    secret = client.app.state.host.store.challenge_secret(DAY, "tres-fute", "unused")[0]  # type: ignore[attr-defined]
    strong = play_alone("tres-fute", "greedy", secret).scores()[0].total
    assert now["strong"] == {"score": strong, "rank": 1 + sum(s > strong for s in scores.values())}


def test_a_repeated_or_forged_entry_is_refused_and_changes_nothing(client: TestClient) -> None:
    ana = start(client, "Ana").json()
    player = ana["player"]
    client.app.state.daily.wait_for_strong(DAY, "tres-fute")  # type: ignore[attr-defined]
    before = (board(client, player), client.get("/api/challenge/history", headers={"X-Player-Token": player}).json())
    again = start(client, "Ana", player)
    assert again.status_code == 409 and "already played" in again.json()["error"]
    for taker in (None, "x" * 32):  # the name is Ana's today, whatever the case or spaces
        taken = start(client, "  ana ", taker)
        assert taken.status_code == 409 and "taken today" in taken.json()["error"]
    forged = [
        client.post("/api/challenge/tres-fute", json={"name": "Bob"}, headers={"X-Player-Token": "bad token!"}),
        client.post("/api/challenge/tres-fute", json={"name": ""}),
        client.post("/api/challenge/tres-fute", json={"name": "Bob", "score": 300}),
        client.post("/api/challenge/chess", json={"name": "Bob"}),
        client.get("/api/challenge/tres-fute?day=2026-11-24"),
        client.get("/api/challenge/tres-fute?day=yesterday"),
    ]
    assert [r.status_code for r in forged] == [422, 422, 422, 404, 404, 422]
    assert all(r.json()["error"] for r in forged)
    hint = client.post(f"/api/games/{ana['id']}/hint", headers={"X-Seat-Token": ana["token"]})
    assert hint.status_code == 409
    after = (board(client, player), client.get("/api/challenge/history", headers={"X-Player-Token": player}).json())
    assert after == before
    other = start(client, "Ana", player, game="vraiment-tres-fute")  # one entry per game type
    assert other.status_code == 201


def test_a_player_enters_a_game_once_a_day_whatever_the_name_and_look_alike_names_are_one(
    client: TestClient,
) -> None:
    """One entry per player (their secret) and per day for each game: a second name does not
    give a second go on dice already seen. A name that looks the same (a zero-width space, other
    case, full-width letters) is the name another player holds. Refused with a sentence; nothing
    changes: the ranking shows one "Dup1"."""
    dup = start(client, "Dup1").json()
    play_to_end(client, dup["id"], dup["token"], 3)
    player = dup["player"]
    client.app.state.daily.wait_for_strong(DAY, "tres-fute")  # type: ignore[attr-defined]
    history = {"X-Player-Token": player}
    before = (board(client, player), client.get("/api/challenge/history", headers=history).json())
    again = start(client, "Dup2", player)
    assert again.status_code == 409
    assert again.json() == {"error": "you have already played today's challenge of this game"}
    for name in ("Dup\u200b1", "DUP1", "\uff24\uff55\uff50\uff11"):
        taken = start(client, name)
        assert taken.status_code == 409
        assert taken.json() == {"error": "this name is taken today by another player: choose another"}
    after = (board(client, player), client.get("/api/challenge/history", headers=history).json())
    assert after == before and [e["name"] for e in after[0]["entries"]] == ["Dup1"]
    assert start(client, "Dup2").status_code == 201, "the second name was not kept for the first player"


def test_a_name_is_held_for_one_day_and_a_player_sees_their_own_history(client: TestClient, clock: Clock) -> None:
    ana = start(client, "Ana").json()
    play_to_end(client, ana["id"], ana["token"], 1)
    clock.now += 86_400
    assert start(client, "Ana", "y" * 32).status_code == 201, "a new day: the name is free again"
    later = start(client, "Anna", ana["player"]).json()
    history = client.get("/api/challenge/history", headers={"X-Player-Token": ana["player"]}).json()["entries"]
    assert [(e["day"], e["name"], e["id"]) for e in history] == [
        ("2026-11-24", "Anna", later["id"]),
        (DAY, "Ana", ana["id"]),
    ]
    assert history[1]["score"] is not None and history[0]["score"] is None


def test_an_entry_is_watched_and_replayed_move_by_move_only_by_those_who_have_played(
    client: TestClient, clock: Clock
) -> None:
    ana, bob = start(client, "Ana").json(), start(client, "Bob").json()
    end = play_to_end(client, ana["id"], ana["token"], 2)
    assert client.get(f"/api/games/{ana['id']}").status_code == 403
    own = client.get(f"/api/games/{ana['id']}/record", headers={"X-Seat-Token": ana["token"]})
    assert own.status_code == 200 and records.replay(records.loads(own.text)).is_over, "one's own record, at once"
    assert client.get(f"/api/games/{ana['id']}/record", headers={"X-Player-Token": bob["player"]}).status_code == 403
    play_to_end(client, bob["id"], bob["token"], 3)
    moves = record(client, ana["id"], bob["player"]).moves
    headers = {"X-Player-Token": bob["player"]}
    steps = [client.get(f"/api/games/{ana['id']}?at={k}", headers=headers).json() for k in (0, 1, len(moves))]
    assert [s["step"] for s in steps] == [0, 1, len(moves)] and steps[0]["steps"] == len(moves)
    assert steps[0]["state"]["dice"] != steps[1]["state"]["dice"]
    assert steps[-1]["result"] == end["result"] and steps[-1]["secret"] is None
    clock.now = closes(DAY)
    assert client.get(f"/api/games/{ana['id']}").status_code == 200


def test_a_day_is_a_real_date_and_a_day_gone_by_without_a_challenge_is_not_made_up(
    client: TestClient, clock: Clock
) -> None:
    """Asking for a day that cannot exist, or a past day nobody played, is refused and writes
    nothing: no challenge is drawn (its secret shown at once) nor a computer player's game run."""
    store = client.app.state.host.store  # type: ignore[attr-defined]
    refused = [
        client.get("/api/challenge/tres-fute?day=2025-02-30&lang=en"),
        client.get("/api/challenge/tres-fute?day=2026-11-22&lang=en"),
    ]
    assert [r.status_code for r in refused] == [422, 404]
    assert "not a day" in refused[0].json()["error"] and "no challenge" in refused[1].json()["error"]
    assert store.challenge("2025-02-30", "tres-fute") is None and store.challenge("2026-11-22", "tres-fute") is None
    first = board(client)  # today's is drawn when first asked for
    assert first["yesterday"] is None, "the day before had none"
    clock.now += 86_400
    past = board(client, day=DAY)
    assert past["closed"] and fair_dice.commitment(past["secret"]) == first["commitment"]
    assert board(client)["yesterday"] == {"day": DAY, "secret": past["secret"]}, "shown beside today's"


def test_the_move_that_ends_an_entry_lands_with_its_score_or_not_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If the write of an entry's last move fails, the game is not over and the entry has no
    score; playing the move again finishes it and ranks it."""
    store = SQLiteStore(tmp_path / "games.sqlite3")
    app = create_app(store=store, clock=Clock(), challenge_bot="greedy")
    client = TestClient(app, raise_server_exceptions=False)
    ana = start(client, "Ana").json()
    write = store.append_moves

    def failing_last_write(*args: Any, score: int | None = None, **kwargs: Any) -> None:
        if score is not None:
            raise OSError("the database went away")
        write(*args, score=score, **kwargs)

    monkeypatch.setattr(store, "append_moves", failing_last_write)
    now = view(client, ana["id"], ana["token"])
    while True:
        sent = {"move": now["legal"][0]["move"], "seq": now["seq"]}
        response = client.post(f"/api/games/{ana['id']}/act", json=sent, headers={"X-Seat-Token": ana["token"]})
        if response.status_code != 200:
            break
        now = response.json()
    assert response.status_code == 500 and not now["over"]
    assert view(client, ana["id"], ana["token"]) == now, "nothing of the failed move is kept"
    assert [
        e["score"]
        for e in client.get("/api/challenge/history", headers={"X-Player-Token": ana["player"]}).json()["entries"]
    ] == [None]
    monkeypatch.setattr(store, "append_moves", write)
    again = client.post(f"/api/games/{ana['id']}/act", json=sent, headers={"X-Seat-Token": ana["token"]})
    assert again.status_code == 200 and again.json()["over"]
    score = again.json()["result"]["scores"][0]["total"]
    assert [e["score"] for e in board(client)["entries"]] == [score]
    app.state.daily.wait_idle()
    store.close()


def test_an_entry_in_progress_is_reopened_by_the_player_from_another_browser(client: TestClient) -> None:
    """A browser that holds the player's secret (another device, after /me#player=…) gets the
    entry's seat back from "My challenges": the same seat, its moves so far, the game going on
    from there; nobody else gets it, and a refusal changes nothing."""
    ana = start(client, "Ana").json()
    rolled = client.post(
        f"/api/games/{ana['id']}/act", json={"move": "roll", "seq": 0}, headers={"X-Seat-Token": ana["token"]}
    ).json()
    history = client.get("/api/challenge/history", headers={"X-Player-Token": ana["player"]}).json()["entries"]
    assert [(e["id"], e["score"]) for e in history] == [(ana["id"], None)], "listed in progress, with its id"

    reopened = client.post(f"/api/challenge/entries/{ana['id']}/seat", headers={"X-Player-Token": ana["player"]})
    assert reopened.status_code == 200, reopened.text
    seat = reopened.json()
    assert seat["token"] == ana["token"], "every browser of the player holds the one seat"
    assert seat["link"] == ana["link"] and (seat["day"], seat["game"], seat["name"]) == (DAY, "tres-fute", "Ana")
    again = view(client, ana["id"], seat["token"])
    assert again["you"] == 0 and again["revision"] == rolled["revision"] and again["state"] == rolled["state"]
    move = again["legal"][0]["move"]
    played = client.post(
        f"/api/games/{ana['id']}/act", json={"move": move, "seq": again["seq"]}, headers={"X-Seat-Token": seat["token"]}
    )
    assert played.status_code == 200 and played.json()["revision"] == rolled["revision"] + 1

    bob = start(client, "Bob").json()
    before = view(client, ana["id"], ana["token"])
    refused = [
        client.post(f"/api/challenge/entries/{ana['id']}/seat", headers={"X-Player-Token": bob["player"]}),
        client.post(f"/api/challenge/entries/{ana['id']}/seat"),
        client.post("/api/challenge/entries/nosuchgame/seat", headers={"X-Player-Token": ana["player"]}),
        client.post(f"/api/challenge/entries/{ana['id']}/seat", headers={"X-Player-Token": "bad token!"}),
    ]
    assert [r.status_code for r in refused] == [403, 401, 404, 422]
    assert all(r.json()["error"] and "token" not in r.json() for r in refused)
    created = client.post("/api/games?lang=en", json={"game": "tres-fute", "seats": [{"name": "Ana"}]}).json()
    not_an_entry = client.post(
        f"/api/challenge/entries/{created['id']}/seat", headers={"X-Player-Token": ana["player"]}
    )
    assert not_an_entry.status_code == 404
    assert view(client, ana["id"], ana["token"]) == before


def test_an_entry_begun_with_a_random_seat_token_says_where_it_can_be_reopened(client: TestClient) -> None:
    """An entry made before seat tokens were derived from the player's secret: refused with a
    sentence (409), its first browser's seat unchanged."""
    from tresfute.web.store import token_hash
    from tresfute.web.tables import SeatRequest

    host = client.app.state.host  # type: ignore[attr-defined]
    player = "p" * 32
    secret = host.store.challenge_secret(DAY, "tres-fute", fair_dice.new_secret())[0]
    table, tokens = host.create(
        "tres-fute", [SeatRequest("Old")], language="en", challenge=(DAY, secret, token_hash(player))
    )
    refused = client.post(f"/api/challenge/entries/{table.id}/seat?lang=en", headers={"X-Player-Token": player})
    assert refused.status_code == 409
    assert refused.json() == {"error": "this entry can only be reopened in the browser where it was begun"}
    assert view(client, table.id, tokens[0])["you"] == 0

"""Every seat's chance to finish first (``bots.winning.win_chances``), as the review and a
table's page show it (issue 71 item 3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tresfute import records
from tresfute.bots import make_bot
from tresfute.bots.review import review_game
from tresfute.bots.winning import (
    LOSS_SCALE,
    SPREAD_SCALE,
    Forecast,
    WinChances,
    calibration_key,
    table_scales,
    turns_left,
    win_chances,
)
from tresfute.cli import main
from tresfute.rules import Game
from tresfute.simulate import play_game

# Random games of two (seed below, game 0): a tie still standing after the rulebook's tie-break,
# and equal totals that the best single area decides (found by playing seeds in turn).
STANDING_TIE = 1378
TIE_BROKEN = 216


def played(
    game_id: str, kinds: list[str], seed: int, until_round: int | None = None, rules: dict[str, bool] | None = None
) -> Game:
    """A game of ``kinds`` (one a seat), to its end or to the start of round ``until_round``
    (0: the last round), under ``rules``."""
    game = Game(game_id, players=len(kinds), seed=seed, rules=rules or {})
    bots = [make_bot(kind, seed + p) for p, kind in enumerate(kinds)]
    stop = game.rounds if until_round == 0 else until_round
    while not game.is_over and (stop is None or game.round < stop):
        p = game.to_move
        assert p is not None
        game.play(bots[p].choose(game, p), p)
    return game


@pytest.mark.parametrize("game_id", ["tres-fute", "vraiment-tres-fute"])
def test_the_chances_are_one_a_seat_in_seat_order_and_add_up_to_one(game_id: str) -> None:
    """At the last turn of games of one greedy player against random ones (at 2, 3 and 4, the
    greedy one first or last), the chances add up to 1, one a seat; where one seat leads by 40
    points or more, wherever it sits, it has the best chance."""
    led = set()
    for players in (2, 3, 4):
        for seat in (0, players - 1):
            kinds = ["greedy" if p == seat else "random" for p in range(players)]
            game = Game(game_id, players=players, seed=7)
            bots = [make_bot(kind, 7 + p) for p, kind in enumerate(kinds)]
            while turns_left(game) > 1:
                p = game.to_move
                assert p is not None
                game.play(bots[p].choose(game, p), p)
            chances = win_chances(game)
            assert len(chances) == players and sum(chances) == pytest.approx(1.0, abs=1e-9)
            assert all(0.0 <= c <= 1.0 for c in chances)
            totals = sorted(((s.total, p) for p, s in enumerate(game.scores())), reverse=True)
            if totals[0][0] - totals[1][0] >= 40:
                leader = totals[0][1]
                assert max(range(players), key=lambda p: chances[p]) == leader
                led.add(leader)
    assert {0, 1} <= led or {0, 2} <= led  # a leader first and one further round the table


def test_a_game_followed_move_by_move_gives_a_fresh_look_s_chances() -> None:
    """A follower (one replay of the game, move after move) says what a fresh look at the same
    position says, each time adding up to 1."""
    game = Game("tres-fute", players=3, seed=11)
    assert sum(win_chances(game)) == pytest.approx(1.0)
    follower = WinChances()
    bots = [make_bot("greedy", p) for p in range(3)]
    for _ in range(40):
        p = game.to_move
        assert p is not None
        game.play(bots[p].choose(game, p), p)
        assert follower(game) == pytest.approx(win_chances(game), abs=1e-12)


def test_at_the_end_the_rulebook_decides_a_standing_tie_shared() -> None:
    """Once the game is over the chances are the rulebook's result: the winner's 1 (equal totals
    decided by the best single area), or a tie still standing shared."""
    tie = play_game("tres-fute", 2, "random", STANDING_TIE, 0)
    assert tie.is_over and tie.winners() == [0, 1]
    assert win_chances(tie) == [0.5, 0.5]
    broken = play_game("tres-fute", 2, "random", TIE_BROKEN, 0)
    totals = [s.total for s in broken.scores()]
    assert totals[0] == totals[1] and len(broken.winners()) == 1
    assert win_chances(broken) == [1.0 if p in broken.winners() else 0.0 for p in range(2)]
    four = played("tres-fute", ["greedy", "random", "random", "greedy"], 3)
    assert win_chances(four) == [1.0 if p in four.winners() else 0.0 for p in range(4)]


def test_alone_the_only_seat_finishes_first() -> None:
    game = Game("tres-fute", players=1, seed=2)
    assert win_chances(game) == [1.0]


def test_a_position_set_by_hand_keeps_the_forecasts_alone() -> None:
    """A copy without history cannot be replayed: no skill correction, still a share of one."""
    game = played("tres-fute", ["greedy", "random"], 4, until_round=3)
    bare = game.copy(history=False)
    chances = win_chances(bare)
    assert len(chances) == 2 and sum(chances) == pytest.approx(1.0)


def test_at_every_table_the_chances_widen_with_what_the_loss_rates_may_be_wrong_by() -> None:
    """In Très futé a seat's skill, measured on few turns, was read as surer than it is (two
    greedy players as far apart as a strong and a random one): the chances shown widen each
    final score's spread by the table's rate uncertainty times the turns left times the seats'
    rates (``TABLE_SCALES``, fitted on tuning games table by table); a game with no rules of its
    own scales has none."""
    assert all(table_scales("tres-fute", players)[1] > 0 for players in (2, 3, 4))
    assert table_scales("no-such-game", 2) == (1.0, 0.0)
    for players in (2, 3, 4):
        game = played("tres-fute", ["greedy", "random", "random", "greedy"][:players], 4, until_round=3)
        look = WinChances()
        forecast = look.forecast(game)
        spread, uncertainty = table_scales("tres-fute", players)
        scaled = forecast.chances(LOSS_SCALE["tres-fute"], SPREAD_SCALE["tres-fute"] * spread)
        shown = look(game)
        assert sum(shown) == pytest.approx(1.0)
        assert any(forecast.rates), "the random players have given points up by round 3"
        leader = max(range(players), key=lambda p: scaled[p])
        assert 1 / players < shown[leader] < scaled[leader]
        sure = Forecast(forecast.means, [0.0] * players, forecast.turns, forecast.spread)  # no rate: nothing to widen
        assert sure.chances(1.0, 1.0, uncertainty) == pytest.approx(sure.chances(1.0, 1.0))


def test_each_reading_of_the_rules_has_its_own_table_scales() -> None:
    """A reading of the rules has its own network and calibration, so its own scales: Vraiment
    très futé's (fitted on its tuning games) are not the strict reading's, which keeps the bare
    spread at four players."""
    strict = {"reprise_with_no_die_left": False}
    assert table_scales("vraiment-tres-fute", 4) != (1.0, 0.0)
    assert table_scales(calibration_key("vraiment-tres-fute", tuple(strict.items())), 4) == (1.0, 0.0)
    game = played("vraiment-tres-fute", ["greedy", "random", "random", "greedy"], 4, until_round=2, rules=strict)
    look = WinChances()
    assert look(game) == pytest.approx(look.forecast(game).chances(1.0, 1.0))


@pytest.fixture(scope="module")
def two_player_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = play_game("tres-fute", 2, "greedy", 5, 0)
    path = tmp_path_factory.mktemp("win") / "game.json"
    path.write_text(records.dumps(records.record_of(game, ["Alice", "Bob"])))
    return path


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_the_review_json_carries_every_seat_s_chance_at_a_table(two_player_record: Path) -> None:
    """``tresfute review --json``: ``win_chance`` on every decision (every seat's, in seat order,
    after the move played) and ``win_chart``, the reviewed seat's at the chart's points, ending
    on the result."""
    code, out = run("review", str(two_player_record), "--player", "2", "--json", "--lang", "en")
    assert code == 0
    data = json.loads(out)
    final = records.replay(records.loads(two_player_record.read_text()))
    for d in data["decisions"]:
        assert len(d["win_chance"]) == 2 and sum(d["win_chance"]) == pytest.approx(1.0, abs=2e-4)
    assert len(data["win_chart"]) == len(data["chart"])
    assert data["win_chart"][-1] == (1.0 if 1 in final.winners() else 0.0)
    assert data["win_chart"][1:-1] == [d["win_chance"][1] for d in data["decisions"][:-1]]
    assert all(0.0 <= c <= 1.0 for c in data["win_chart"])


def test_the_terminal_review_draws_the_chance_to_win_below_the_score(two_player_record: Path) -> None:
    code, out = run("review", str(two_player_record), "--lang", "en")
    assert code == 0
    assert "Chance to win through the game, in %" in out and "100 ┤" in out


def test_a_solo_review_has_no_chance_to_win() -> None:
    """Alone, the only seat finishes first: the review's JSON and chart are as before."""
    game = play_game("tres-fute", 1, "greedy", 5, 0)
    review = review_game(records.record_of(game))
    data = review.to_json()
    assert review.win_chart() == [] and "win_chart" not in data
    assert all("win_chance" not in d for d in data["decisions"])


def test_a_table_s_view_carries_every_seat_s_chance_and_a_solo_view_none(tmp_path: Path) -> None:
    """The page's view of a table: ``win_chance``, one a seat in seat order adding up to 1, the
    result once the game is over; a solo game's view has none."""
    from fastapi.testclient import TestClient

    from tresfute.web.app import create_app

    client = TestClient(create_app(database=tmp_path / "games.sqlite3"))
    made = client.post(
        "/api/games", json={"game": "tres-fute", "seats": [{"name": "Ana"}, {"name": "Bob", "bot": "greedy"}]}
    ).json()
    token = made["seats"][0]["token"]
    for _ in range(400):
        view = client.get(f"/api/games/{made['id']}?lang=en", headers={"X-Seat-Token": token}).json()
        assert len(view["win_chance"]) == 2 and sum(view["win_chance"]) == pytest.approx(1.0, abs=2e-4)
        if view["over"]:
            break
        moved = client.post(
            f"/api/games/{made['id']}/act",
            json={"move": view["legal"][0]["move"], "seq": view["seq"]},
            headers={"X-Seat-Token": token},
        )
        assert moved.status_code == 200, moved.text
    assert view["over"]
    assert view["win_chance"] == [
        1.0 / len(view["result"]["winners"]) if p in view["result"]["winners"] else 0.0 for p in range(2)
    ]
    solo = client.post("/api/games", json={"game": "tres-fute", "seats": [{"name": "Ana"}]}).json()
    assert client.get(f"/api/games/{solo['id']}").json()["win_chance"] is None


def test_the_terminal_sheet_shows_the_chance_to_win_at_a_table_only() -> None:
    from tresfute.i18n import use_language
    from tresfute.tui.render import render_sheet

    game = played("tres-fute", ["greedy", "random"], 4, until_round=3)
    chances = win_chances(game)
    with use_language("en"):
        text = render_sheet(game, 1, set(), None).plain
        compact = render_sheet(game, 1, set(), None, compact=True).plain
    # in short words beside the total, so that a table's sheet fits 80 columns
    assert f"Total: {game.sheets[1].score().total}  win: {round(100 * chances[1])}%" in text and "win: " in compact
    with use_language("fr"):
        assert f"victoire\u00a0: {round(100 * chances[1])}\u00a0%" in render_sheet(game, 1, set(), None).plain
    alone = played("tres-fute", ["greedy"], 4, until_round=3)
    with use_language("en"):
        assert "win: " not in render_sheet(alone, 0, set(), None).plain

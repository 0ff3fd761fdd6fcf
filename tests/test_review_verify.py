"""Honest numbers (issue 74 item 2): the ± shown beside a cost includes the valuation's own error
(``bots/verify.valuation_error``), and ``tresfute review --verify K`` (the page's "Verify")
values the K costliest decisions again by strong rollouts to the end on the same dice for both
moves, each with its standard error (JSON ``verified``). Few rollouts here, so that it is quick.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tresfute import records
from tresfute.bots import review as review_module
from tresfute.bots.appraisal import rolled_out
from tresfute.bots.review import FORMAT, Decision, Review, decision_of, label, review_game
from tresfute.bots.verify import (
    ERROR_BASE,
    ERROR_SHARE,
    Verified,
    VerifyError,
    agrees,
    valuation_error,
    verify_decision,
    verify_review,
)
from tresfute.cli import main
from tresfute.review_text import positions
from tresfute.rules import Game, parse_move
from tresfute.simulate import play_game


@pytest.fixture(scope="module")
def reviewed() -> tuple[records.Record, Review]:
    record = records.record_of(play_game("tres-fute", 1, "greedy", 1, 0), ["greedy"])
    return record, review_game(record)


@pytest.fixture
def same_review(reviewed: tuple[records.Record, Review], monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The command reviews the game as the fixture did (not again)."""
    record, review = reviewed
    monkeypatch.setattr(review_module, "review_game", lambda *args, **kwargs: review)
    yield record  # type: ignore[misc]


def position_before(kind: str, seed: int, n: int, move_number: int) -> tuple[Game, str]:
    """The position of a seeded solo Très futé game before its record's move ``move_number``,
    and that move."""
    final = play_game("tres-fute", 1, kind, seed, n)
    record = records.record_of(final, [kind])
    entries = [records.split_entry(entry) for entry in record.moves]
    game = Game(record.game, players=1, seed=record.seed, dice=record.dice, rules=final.rules)
    for seat, text in entries[: move_number - 1]:
        game.play(parse_move(text), seat)
    return game, entries[move_number - 1][1]


def decision(cost: float, cost_se: float, played: str = "b@r1c2", best: str = "y@r1c1") -> Decision:
    return Decision(1, 1, "choose", (), 6, parse_move(played), parse_move(best), 100.0 - cost, 100.0, cost_se)


def test_the_shown_uncertainty_includes_the_valuations_own_error() -> None:
    d = decision(3.0, 0.4)
    assert valuation_error(3.0) == ERROR_BASE + ERROR_SHARE * 3.0 > 0
    assert d.cost_error == pytest.approx(math.hypot(0.4, valuation_error(3.0)))
    assert d.cost_error > d.cost_se
    # the label keeps the futures' caution (the bounds were set on it): the ± shown is wider
    assert d.label == label(3.0, 0.4) == "inaccuracy"
    assert decision(0.0, 0.0, "b@r1c2", "b@r1c2").cost_error == 0  # the strong choice itself: exactly 0
    data = Review("tres-fute", 0, "Ana", 100, 100.0, [d]).to_json()
    assert data["format"] == FORMAT == "tresfute-review/21"
    entry = data["decisions"][0]
    assert entry["cost_error"] == round(d.cost_error, 2) and entry["cost_se"] == 0.4 and "verified" not in entry


def test_a_verification_plays_both_moves_on_the_same_dice(reviewed: tuple[records.Record, Review]) -> None:
    record, review = reviewed
    last = review.decisions[-1]  # a late position: its rollouts are short
    game = positions(record, review)[last.move_number]
    moves = game.legal_moves(0)
    a, b = moves[0], moves[-1]
    one = verify_decision(game, 0, a, b, rollouts=3)
    again = verify_decision(game, 0, a, b, rollouts=3)
    assert one == again and one.rollouts == 3 and one.se >= 0  # seeded: the same dice, the same answer
    swapped = verify_decision(game, 0, b, a, rollouts=3)
    assert swapped.cost == pytest.approx(-one.cost) and swapped.se == pytest.approx(one.se)  # common dice
    assert verify_decision(game, 0, a, a, rollouts=3) == Verified(0.0, 0.0, 0)
    before = game.copy()
    for bad in (1, 0, 1001):
        with pytest.raises(VerifyError, match="rollouts: from 2 to 1000"):
            verify_decision(game, 0, a, b, rollouts=bad)
    assert game.history == before.history  # nothing played in the position
    with pytest.raises(VerifyError, match="decisions to verify"):
        verify_review(review, positions(record, review), 0)
    assert agrees(10.0, 3.0, Verified(4.0, 0.0, 5)) and not agrees(10.0, 2.0, Verified(4.0, 1.0, 5))


def test_review_verify_adds_the_rollouts_cost_to_the_costliest_decisions(
    same_review: records.Record, tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    path.write_text(records.dumps(same_review))
    result = CliRunner().invoke(main, ["review", str(path), "--verify", "1", "--rollouts", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    checked = [d for d in data["decisions"] if "verified" in d]
    assert [d["move_number"] for d in checked] == data["costliest"][:1]
    verified = checked[0]["verified"]
    assert set(verified) == {"cost", "se", "rollouts", "agrees"} and verified["rollouts"] == 2
    error = checked[0]["cost_error"]
    assert verified["agrees"] == (abs(checked[0]["cost"] - verified["cost"]) <= 2 * math.hypot(error, verified["se"]))
    assert all(d["cost_error"] >= d["cost_se"] for d in data["decisions"])
    shown = CliRunner().invoke(main, ["review", str(path), "--verify", "1", "--rollouts", "2", "--lang", "en"])
    assert shown.exit_code == 0, shown.output
    assert "Checked by strong rollouts to the end (2 for each move, the same dice for both)" in shown.output
    assert f"decision {checked[0]['move_number']} (round" in shown.output.split("Checked by")[1]


def test_verify_settings_out_of_range_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("{}")
    for args in (["--verify", "0"], ["--verify", "51"], ["--verify", "1", "--rollouts", "1"], ["--verify", "x"]):
        result = CliRunner().invoke(main, ["review", str(path), *args, "--lang", "en"])
        assert result.exit_code == 2 and "Invalid value" in result.output, args


def test_the_page_verifies_the_costliest_decisions_in_the_background(tmp_path: Path) -> None:
    """``POST /api/games/{id}/review/verify``: refused before the review is done (409) and with
    settings out of range (422, nothing stored); then the costliest decision carries its
    ``verified``, kept with the review (asking again computes nothing)."""
    from test_review_store import external_moves
    from test_web_practice import quick_decision, stored_game
    from test_web_review import TOKEN, served, until_done
    from tresfute.web import reviews as web_reviews
    from tresfute.web.store import SQLiteStore

    store = SQLiteStore(tmp_path / "games.sqlite3")
    headers = {"X-Seat-Token": TOKEN}
    try:
        store.create(stored_game(external_moves(0)))
        with pytest.MonkeyPatch.context() as patch, served(store) as client:
            patch.setattr(review_module, "decision_of", quick_decision)
            early = client.post("/api/games/g1/review/verify?lang=en", headers=headers)
            assert early.status_code == 409 and "no review yet" in early.json()["error"]
            client.post("/api/games/g1/review", headers=headers)
            review = until_done(client, "/api/games/g1/review")
            for query in ("count=4", "count=0", "rollouts=1", "rollouts=25", "count=x"):
                refused = client.post(f"/api/games/g1/review/verify?{query}", headers=headers)
                assert refused.status_code == 422, query
            assert store.load_review("g1", 0, FORMAT + web_reviews.VERIFIED) is None
            calls: list[int] = []
            real = web_reviews.verify_decision

            def counted(*args: object) -> Verified:
                calls.append(1)
                return real(*args)  # type: ignore[arg-type]

            patch.setattr(web_reviews, "verify_decision", counted)
            started = client.post("/api/games/g1/review/verify?count=1&rollouts=2", headers=headers)
            assert started.status_code in (200, 202) and started.json()["status"] == "done"
            for _ in range(600):
                answer = client.get("/api/games/g1/review", headers=headers).json()
                if "verifying" not in answer:
                    break
                time.sleep(0.1)
            first = next(d for d in answer["decisions"] if d["move_number"] == review["costliest"][0])
            assert first["verified"]["rollouts"] == 2 and isinstance(first["verified"]["agrees"], bool)
            assert sum("verified" in d for d in answer["decisions"]) == 1
            again = client.post("/api/games/g1/review/verify?count=1&rollouts=2", headers=headers)
            assert again.status_code == 200 and calls == [1]  # kept: not computed twice
    finally:
        store.close()


def test_the_last_rounds_decisions_cost_what_strong_rollouts_find() -> None:
    """In a solo game's last round the valuation futures play to the end with the network's
    moves, which play the last picks worse than the strong player: a first pick of the last
    round (green 5 where white 3 as orange was best) was charged 13.9 ± 1.2 where 160 strong
    rollouts find 29.2 ± 1.2. Valued by strong rollouts (other seeds than ``--verify``'s), the
    cost agrees with its verification within twice the two standard errors alone."""
    game, played = position_before("random", 5300, 8, 24)
    assert game.round == game.rounds and rolled_out(game)
    d = decision_of(game, 0, parse_move(played), 24)
    assert str(d.best) == "w>o" and d.cost_se > 0
    verified = verify_decision(game, 0, d.played, d.best, rollouts=48)
    assert abs(d.cost - verified.cost) <= 2 * math.hypot(d.cost_se, verified.se), (d.cost, d.cost_se, verified)
    earlier, _ = position_before("random", 5300, 8, 20)
    assert earlier.round < earlier.rounds and not rolled_out(earlier)  # before it: the valuation futures


def test_a_cost_with_no_dice_left_is_exact() -> None:
    """The game's last +1 with no dice left to roll: both moves' final scores are certain, so
    the cost is their exact difference (12 points), with no standard error (the difference
    scale, fitted for the network's values, stretched it to 12.19)."""
    game, played = position_before("random", 500, 2, 27)
    d = decision_of(game, 0, parse_move(played), 27)
    exact = verify_decision(game, 0, d.played, d.best, rollouts=2)
    assert exact.se == 0 and exact.cost == 12
    assert d.cost == exact.cost and d.cost_se == 0

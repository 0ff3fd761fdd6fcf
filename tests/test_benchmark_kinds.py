"""The review benchmarks' players of known strength (benchmarks/known_players.py) and what
benchmarks/review_quality.py says of them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tresfute.bots.random_bot import RandomBot
from tresfute.rules import Game
from tresfute.simulate import derived_seed, rows_written, run_and_write

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from known_players import Beginner, Handicapped, is_kind, make_player  # noqa: E402
from review_quality import play, strength_order  # noqa: E402
from review_reasons import play as play_beginner  # noqa: E402

STRICT = {"reprise_with_no_die_left": False}


@pytest.mark.parametrize(
    ("game_id", "kind", "rules"), [("tres-fute", "beginner", {}), ("vraiment-tres-fute", "strong-h30", STRICT)]
)
def test_a_new_kind_plays_a_whole_game_of_legal_moves(game_id: str, kind: str, rules: dict[str, bool]) -> None:
    game = Game(game_id, 1, seed=7, rules=rules)
    player = make_player(kind, 7)
    while not game.is_over:
        move = player.choose(game, 0)
        assert move in game.legal_moves(0)
        game.play(move, 0)
    assert all(game.rules[name] == value for name, value in rules.items())


def test_review_quality_plays_a_new_kind_on_the_same_dice_as_the_built_in_kinds() -> None:
    game = play("tres-fute", 1, "strong-h99", 3120, 4, {})
    assert (
        game.is_over and game.seed == derived_seed(3120, 4, "game") == play("tres-fute", 1, "random", 3120, 4, {}).seed
    )


def test_at_handicap_one_the_strong_player_plays_random_moves() -> None:
    game, other = Game("tres-fute", 1, seed=3), Game("tres-fute", 1, seed=3)
    handicapped, random = Handicapped(1.0, 11), RandomBot(12)
    while not game.is_over:
        move = handicapped.choose(game, 0)
        assert move == random.choose(other, 0)
        game.play(move, 0)
        other.play(move, 0)
    assert handicapped.name == "strong-h100"


def test_unknown_kinds_and_handicaps_are_refused() -> None:
    assert is_kind("strong-h05") and is_kind("beginner") and is_kind("greedy")
    assert not is_kind("strong-h5") and not is_kind("beginner2")
    with pytest.raises(ValueError, match="unknown kind of player 'strong-h5'"):
        make_player("strong-h5", 0)
    with pytest.raises(ValueError, match="a handicap is a probability"):
        Handicapped(1.5, 0)
    script = str(ROOT / "benchmarks" / "review_quality.py")
    result = subprocess.run(
        [sys.executable, script, "--game", "tres-fute", "--kinds", "random,expert"], capture_output=True, text=True
    )
    assert result.returncode == 2 and "--kinds: each of random, greedy, beginner" in result.stderr


def test_the_beginner_of_review_reasons_plays_under_the_strict_reading() -> None:
    game, faults = play_beginner("vraiment-tres-fute", 5740, STRICT)
    assert game.is_over and game.rules["reprise_with_no_die_left"] is False
    assert faults and set(faults.values()) <= {"points_now", "bonus", "plus_one", "reprise", "reroll"}
    assert isinstance(make_player("beginner", 1), Beginner)


def _rows(kind: str, finals: list[float], error_rate: float) -> list[dict]:
    return [{"kind": kind, "final": final, "error_rate": error_rate, "n": n} for n, final in enumerate(finals)]


def test_the_strength_order_is_the_measured_final_score_and_says_where_the_error_rates_break_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows = _rows("strong", [300, 302], 0.1) + _rows("strong-h05", [280, 282], 0.5)
    rows += _rows("greedy", [150, 152], 4.0) + _rows("random", [60, 62], 8.0)
    strength_order(rows, "tres-fute")
    out = capsys.readouterr().out
    assert "mean error rates in the order of strength (lower for the stronger), in 6 pairs of kinds" in out
    assert "measurably apart in strength: yes" in out
    assert "measured strength order is the expected one (strong > strong-h05 > greedy > random)" in out
    assert "strong and strong-h05 game k: the stronger's error rate lower in 2 of 2, its level higher in 2" in out
    # beginner-like play that scores less than greedy play (expected more) but errs less: both said;
    # a handicapped player as strong as greedy play is not judged against it, however it errs
    rows += _rows("beginner", [100, 90], 3.0) + _rows("strong-h30", [152, 150], 5.0)
    strength_order(rows, "tres-fute")
    out = capsys.readouterr().out
    assert "  beginner     95.0 ± 5.0  err  3.00  level 4.00" in out
    assert "measurably apart in strength: no: strong-h30 not below beginner, greedy not below beginner" in out
    assert "measured strength order is NOT the expected one" in out
    assert "of the same strength as measured (within 2 se), not judged: strong-h30-greedy" in out
    assert "greedy and beginner game k: the stronger's error rate lower in 0 of 2, its level higher in 0" in out


def _squared(n: int) -> dict[str, int]:
    return {"n": n, "square": n * n}


def test_a_run_writes_each_result_as_it_comes_and_goes_on_where_it_stopped(tmp_path: Path) -> None:
    """The benchmarks' and scripts' ``--out`` files (``simulate.rows_written``, ``run_and_write``):
    one JSON line a result, written as it comes, read back to leave out the jobs done."""
    out = tmp_path / "runs" / "squares.jsonl"
    assert rows_written(out) == [] and rows_written(None) == []
    first = list(run_and_write(_squared, [1, 2], 1, out))
    assert sorted(r["n"] for r in first) == [1, 2] and rows_written(out) == first
    done = {r["n"] for r in rows_written(out)}
    more = list(run_and_write(_squared, [n for n in range(4) if n not in done], 1, out))
    assert sorted(r["n"] for r in more) == [0, 3]
    assert sorted(r["square"] for r in rows_written(out)) == [0, 1, 4, 9]
    assert list(run_and_write(_squared, [5], 1, None)) == [{"n": 5, "square": 25}], "without a file, only handed on"

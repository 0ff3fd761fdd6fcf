"""The benchmark scripts run and clean up after themselves."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # whole loads and engine measures: left out by pytest -m "not slow"

ROOT = Path(__file__).parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_web_load_benchmark_removes_its_temporary_database(tmp_path: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "web_load.py"), "--games", "1", "--port", str(_free_port())],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "moves/s" in result.stdout
    assert list(tmp_path.iterdir()) == [], "the temporary database is left behind"


def test_the_page_review_benchmark_times_a_table_games_review_and_counts_the_progress_shown(tmp_path: Path) -> None:
    """A person at a table plays to the end, then asks for the review as the page does: its time
    is printed with the progress figures the page was given on the way, and the server's
    temporary database goes with it."""
    command = ["--players", "2", "--bots", "greedy", "--games", "1", "--game", "tres-fute"]
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "page_review.py"), *command],
        capture_output=True,
        text=True,
        env={**os.environ, "TMPDIR": str(tmp_path)},
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    shown = re.search(r"tres-fute: review (\d+\.\d+) s, (\d+) progress figures shown", result.stdout)
    assert shown and float(shown[1]) > 0 and int(shown[2]) >= 1, result.stdout
    assert "review on the page" in result.stdout and "goal 15 s" in result.stdout
    assert list(tmp_path.iterdir()) == [], "the temporary database is left behind"


def test_the_web_load_benchmark_plays_on_the_pages_sockets_and_measures_once_every_game_is_under_way() -> None:
    """``--moves socket`` plays as the page does while its WebSocket is open; with a duration, the
    moves sent once every game is under way are measured apart, with the CPU a move costs."""
    command = [sys.executable, str(ROOT / "benchmarks" / "web_load.py"), "--games", "3", "--moves", "socket"]
    command += ["--think", "0.05", "--duration", "4", "--port", str(_free_port())]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert re.search(r"all moves: \d+ moves/s; latency p50", result.stdout), result.stdout
    assert re.search(r"from 2 s on, every game under way: \d+ moves/s; latency p50", result.stdout), result.stdout
    assert re.search(r"CPU a move: servers \d+\.\d\d ms, load client \d+\.\d\d ms", result.stdout), result.stdout


@pytest.mark.parametrize("moves", ["http", "socket"])
def test_the_web_load_benchmark_seats_computer_players_and_waits_out_their_turns(moves: str) -> None:
    """``--bots``: the person's moves are answered before the computers play (issue 72), so the
    player waits out their turns, asking again over HTTP or hearing their changes on the socket,
    and the games go on to their end (a view with no legal move once stopped the load client)."""
    command = [sys.executable, str(ROOT / "benchmarks" / "web_load.py"), "--games", "2", "--bots", "2"]
    command += ["--moves", moves, "--port", str(_free_port())]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    played = re.search(
        r"2 concurrent games of tres-fute \(2 computer player\(s\) greedy each\), (\d+) moves", result.stdout
    )
    # with no --duration the players stop only at their game's end: two whole games of 30 decisions or more each
    assert played and int(played[1]) >= 2 * 30, result.stdout


def test_the_side_by_side_benchmark_runs_two_installs_in_turn_and_gives_their_ratio() -> None:
    script = str(ROOT / "benchmarks" / "side_by_side.py")
    command = [sys.executable, script, sys.executable, sys.executable, "--rounds", "1", "--scale", "0.005"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    summary = result.stdout.split("best of 1")[1].splitlines()[1:]
    assert len(summary) == 6, "random, look-ahead and Gymnasium, for both games"
    for line in summary:
        assert re.search(r" old +[1-9][\d,]* +new +[1-9][\d,]* +x\d+\.\d\d$", line), line
    refused = subprocess.run([*command, "--what", "random,speed"], capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "unknown measurement(s): speed" in refused.stderr


def test_the_paired_side_by_side_takes_turns_game_by_game_and_gives_the_ratio() -> None:
    """``--paired``: both installs stay up and take turns game by game (the strong player's
    solo games), so that a shared machine's slow minutes fall on both; one line per measure and
    game, with the speed-up and the median per-game ratio."""
    script = str(ROOT / "benchmarks" / "side_by_side.py")
    command = [sys.executable, script, sys.executable, sys.executable, "--rounds", "1", "--scale", "0.25"]
    result = subprocess.run(
        [*command, "--paired", "--what", "strong", "--game", "tres-fute"], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    (line,) = result.stdout.splitlines()
    assert re.search(
        r"^strong +s/game +tres-fute +old +\d+\.\d{3} +new +\d+\.\d{3} +x\d+\.\d\d +\(median game x\d+\.\d\d; ", line
    ), line
    refused = subprocess.run([*command, "--paired", "--what", "random"], capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "--paired measures strong, analyse and table only" in refused.stderr


def test_the_paired_side_by_side_times_a_computer_players_decisions_on_the_same_table_positions() -> None:
    """``--what table``: the new install plays a seeded table game once, then both installs'
    players decide at each of its positions in turn; the mean decision's time on each side."""
    script = str(ROOT / "benchmarks" / "side_by_side.py")
    command = [sys.executable, script, sys.executable, sys.executable, "--rounds", "1", "--paired", "--what", "table"]
    result = subprocess.run(
        [*command, "--game", "tres-fute", "--players", "2", "--bot", "greedy"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    (line,) = result.stdout.splitlines()
    assert re.search(
        r"^table +ms a decision +tres-fute +old +\d+\.\d{3} +new +\d+\.\d{3} +x\d+\.\d\d +"
        r"\(median game x\d+\.\d\d; .*; greedy at 2\)$",
        line,
    ), line


def test_the_web_load_side_by_side_benchmark_gives_each_installs_two_process_ratio(postgres_url: str) -> None:
    import psycopg

    script = str(ROOT / "benchmarks" / "web_load_side_by_side.py")
    command = [sys.executable, script, sys.executable, sys.executable, "--rounds", "1", "--games", "2"]
    command += ["--port", str(_free_port())]
    result = subprocess.run([*command, "--server", postgres_url], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    summary = result.stdout.split("best / median of 1 rounds:")[1].strip().splitlines()
    assert len(summary) == 2, "one line for each install"
    for line in summary:
        assert re.search(r"1 process\(es\) [\d,]+ / [\d,]+ moves/s, 2 process\(es\) [\d,]+ / [\d,]+ moves/s", line)
        assert re.search(r"2 over 1: x\d+\.\d\d \(best\), x\d+\.\d\d \(median\)$", line), line
    with psycopg.connect(postgres_url) as connection:
        names = connection.execute("SELECT datname FROM pg_database WHERE datname LIKE 'tresfute_load_%'").fetchall()
    assert names == [], "each run's database is dropped"
    refused = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "more than one process needs --server" in refused.stderr


def test_the_page_weighs_under_its_budget_and_the_benchmark_counts_every_file_it_loads() -> None:
    """Issue 37's budget: the page's JavaScript, CSS and SVG at most 150 KB compressed; the
    benchmark counts the files the page loads (index.html names its script and style, and the
    modules import the rest)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from page_speed import STATIC, page_weight

    weight = page_weight()
    modules = list((STATIC / "js").glob("*.js"))
    assert weight["files"] == len(modules) + 5
    assert 0 < weight["gzip_bytes"] < weight["raw_bytes"] and weight["gzip_bytes"] <= 150 * 1024


def test_the_start_time_benchmark_times_the_commands_and_measures_the_sizes(tmp_path: Path) -> None:
    (tmp_path / "tresfute-0.1.0-py3-none-any.whl").write_bytes(b"x" * 2_000_000)
    command = [sys.executable, str(ROOT / "benchmarks" / "cli_start.py"), "--runs", "1", "--src", str(ROOT / "src")]
    result = subprocess.run([*command, "--dist", str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "tresfute score --help" in result.stdout and "python -c pass" in result.stdout
    assert re.search(r"tresfute-0\.1\.0-py3-none-any\.whl +2\.00 MB", result.stdout)

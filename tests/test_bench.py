"""tresfute bench and simulate: a bot against others, per-game scores, histogram, progress."""

from __future__ import annotations

import json
import os
import statistics
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tresfute import progress as progress_module
from tresfute.cli import _warn_if_plain_engine, main
from tresfute.simulate import bench, play_game, win_share

ROOT = Path(__file__).parent.parent
BENCH = ["bench", "--game", "tres-fute", "--bot", "greedy", "--games", "4", "--seed", "1000"]


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_a_tie_is_shared_in_the_win_rate() -> None:
    assert win_share([1], 1) == 1 and win_share([0, 1], 1) == 0.5 and win_share([0, 2, 3], 2) == 1 / 3
    assert win_share([0], 1) == 0


def test_the_bot_against_opponents_reports_its_win_rate_its_mean_and_theirs() -> None:
    """The bot moves round the table; its figures are from its own sheet only."""
    code, out, _ = invoke(*BENCH, "--players", "2", "--opponents", "random", "--json")
    assert code == 0, out
    data = json.loads(out)
    games = [play_game("tres-fute", 2, "greedy", 1000, n, opponents="random") for n in range(4)]
    assert data["bot_seats"] == [1, 2, 1, 2]
    assert data["scores"] == [[s.total for s in g.scores()] for g in games]
    own = [g.scores()[n % 2].total for n, g in enumerate(games)]
    others = [g.scores()[1 - n % 2].total for n, g in enumerate(games)]
    assert data["mean"] == statistics.fmean(own) and data["opponents_mean"] == statistics.fmean(others)
    assert data["win_rate"] == statistics.fmean(win_share(g.winners(), n % 2) for n, g in enumerate(games))
    assert data["opponents"] == "random" and data["games"] == 4
    on_two = bench("tres-fute", 2, "greedy", 4, 1000, workers=2, opponents="random")
    assert {k: on_two[k] for k in ("scores", "win_rate", "mean")} == {
        k: data[k] for k in ("scores", "win_rate", "mean")
    }, "the same games on two processes"


def test_the_text_report_against_opponents() -> None:
    code, out, _ = invoke(*BENCH, "--players", "3", "--opponents", "random", "--lang", "en")
    assert code == 0, out
    assert "That's Pretty Clever!, greedy against 2 × random, seed 1000: 4 games" in out
    assert "greedy wins " in out and "(a tie shared); mean " in out and "the opponents' " in out


@pytest.mark.parametrize("players", ["1", None])
def test_opponents_need_other_seats(players: str | None) -> None:
    args = [*BENCH, "--opponents", "random"] + (["--players", players] if players else [])
    code, out, err = invoke(*args)
    assert code == 2 and "--opponents demande --players 2 à 4" in err and out == ""
    with pytest.raises(ValueError, match="opponents need a game of 2 to 4 players"):
        bench("tres-fute", 1, "greedy", 1, 1000, opponents="random")


def test_the_json_has_every_games_scores_and_the_text_a_histogram_of_them() -> None:
    code, out, _ = invoke(*BENCH, "--games", "12", "--bot", "random", "--json")
    data = json.loads(out)
    assert len(data["scores"]) == 12 and all(len(g) == 1 for g in data["scores"])
    assert statistics.fmean(g[0] for g in data["scores"]) == data["mean"]
    code, out, _ = invoke(*BENCH, "--games", "12", "--bot", "random", "--lang", "en")
    assert code == 0, out
    lines = out.split("  scores:\n")[1].split("  solo rating bands:")[0].splitlines()
    counts = [int(line.split()[-1]) for line in lines]
    assert sum(counts) == 12 and len(lines) >= 2
    low, high = (int(x) for x in lines[0].split()[0].split("–"))
    assert low <= min(g[0] for g in data["scores"]) <= high


@pytest.mark.parametrize(
    "args",
    [
        (*BENCH, "--json"),
        (*BENCH, "--json", "--workers", "2"),
        ("simulate", "--games", "3", "--json"),
    ],
)
def test_progress_goes_to_a_terminal_on_stderr_never_into_the_json(
    args: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    _warn_if_plain_engine()  # its line, once a process, is not the progress: given before, whatever ran first
    code, out, err = invoke(*args)
    assert code == 0 and err == "", "no terminal: no progress"
    json.loads(out)
    monkeypatch.setattr(progress_module, "stderr_is_terminal", lambda: True)
    code, out, err = invoke(*args)
    assert code == 0 and "Parties jouées" in err
    json.loads(out)


def test_the_progress_is_told_of_every_game() -> None:
    told: list[int] = []
    bench("tres-fute", 1, "random", 5, 1000, workers=2, progress=told.append)
    assert sum(told) == 5


def test_the_training_script_shows_its_self_play_progress_on_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("numpy")
    monkeypatch.syspath_prepend(str(ROOT / "scripts"))
    import train_strong

    monkeypatch.setattr(progress_module, "stderr_is_terminal", lambda: True)
    out = tmp_path / "value.json"
    args = ["--games", "2", "--iterations", "1", "--workers", "1", "--seed", "3", "--out", str(out)]
    monkeypatch.setattr(sys, "argv", ["train_strong.py", *args])
    train_strong.main()
    captured = capsys.readouterr()
    assert "iteration 0: self-play" in captured.err and "iteration 0: greedy played 2 games" in captured.out
    assert "self-play" not in captured.out and json.loads(out.read_text())["format"]


@pytest.mark.parametrize(("games", "seed"), [(2, -1), (3, 7), (5, 1000)])
def test_the_deciles_lie_between_the_scores_played(games: int, seed: int) -> None:
    """p10 and p90 read between the lowest and the highest score, even with a few games; p50
    is the median."""
    code, out, _ = invoke("bench", "--games", str(games), "--seed", str(seed), "--bot", "random", "--json")
    assert code == 0, out
    data = json.loads(out)
    totals = [t for game in data["scores"] for t in game]
    assert min(totals) <= data["p10"] <= data["p50"] <= data["p90"] <= max(totals)
    assert data["p50"] == statistics.median(totals)
    if games == 2:  # a tenth of the way from the lower score to the higher
        low, high = sorted(totals)
        assert data["p10"] == pytest.approx(low + (high - low) / 10)
        assert data["p90"] == pytest.approx(high - (high - low) / 10)


@pytest.mark.parametrize(
    ("args", "french", "english"),
    [
        (["bench", "--games", "1"], "graine 1000\u00a0: 1 partie\n", "seed 1000: 1 game\n"),
        (["bench", "--games", "2"], "graine 1000\u00a0: 2 parties\n", "seed 1000: 2 games\n"),
        (["simulate", "--games", "1"], "graine 1\u00a0: 1 partie\n", "seed 1: 1 game\n"),
        (["bench", "--games", "1", "--players", "2", "--opponents", "random"], ": 1 partie\n", ": 1 game\n"),
    ],
)
def test_the_number_of_games_agrees_with_it(args: list[str], french: str, english: str) -> None:
    code, out, _ = invoke(*args, "--bot", "random", "--lang", "fr")
    assert code == 0 and out.splitlines(keepends=True)[0].endswith(french), out
    code, out, _ = invoke(*args, "--bot", "random", "--lang", "en")
    assert code == 0 and out.splitlines(keepends=True)[0].endswith(english), out


def _figures_of_the_games(data: dict) -> dict:
    """A run's figures but its times (a resumed run's games keep the times they were played in)."""
    timed = ("seconds_per_game", "decisions_per_second", "median_ms_per_decision", "p90_ms_per_decision")
    return {key: value for key, value in data.items() if key not in timed}


def test_a_run_kept_in_a_file_stops_and_goes_on_with_the_figures_of_one_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--results FILE`` keeps each finished game: run again with the same settings, only the
    games the file lacks are played, and the figures are those of the whole run in one piece."""
    from tresfute import simulate

    played: list[int] = []
    play_one = simulate._play_one

    def counting(job: tuple) -> simulate.GameResult:
        played.append(job[4])
        return play_one(job)

    monkeypatch.setattr(simulate, "_play_one", counting)
    kept = tmp_path / "run.jsonl"
    args = ("tres-fute", 2, "greedy")
    bench(*args, 3, 1000, opponents="random", results=kept)
    assert played == [0, 1, 2]
    resumed = bench(*args, 5, 1000, opponents="random", results=kept)
    assert played == [0, 1, 2, 3, 4], "only the games the file lacked"
    whole = bench(*args, 5, 1000, opponents="random")
    assert _figures_of_the_games(resumed) == _figures_of_the_games(whole)
    played.clear()
    fewer = bench(*args, 4, 1000, opponents="random", results=kept)
    assert played == [] and _figures_of_the_games(fewer) == _figures_of_the_games(
        bench(*args, 4, 1000, opponents="random")
    )
    assert len(kept.read_text().splitlines()) == 1 + 5, "the run, then each game once"


def test_a_last_line_cut_short_is_dropped_and_its_game_played_again(tmp_path: Path) -> None:
    """A run stopped while it wrote a game leaves half a line: that game is played again."""
    kept = tmp_path / "run.jsonl"
    first = bench("tres-fute", 1, "random", 3, 1000, results=kept)
    kept.write_bytes(kept.read_bytes()[:-25])
    again = bench("tres-fute", 1, "random", 3, 1000, results=kept)
    assert again["scores"] == first["scores"]
    lines = kept.read_text().splitlines()
    assert len(lines) == 4 and [json.loads(line).get("n") for line in lines] == [None, 0, 1, 2]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("hello\n", "is not a results file of tresfute bench (its first line does not name a run)"),
        ("my notes", "is not a results file of tresfute bench (its first line does not name a run)"),
        (None, "holds the games of another run (--game tres-fute --bot random --seed 1000), not of this one "),
        ("damaged", "is damaged at line 3: not a finished game of this run"),
    ],
)
def test_a_results_file_of_another_run_or_damaged_is_refused_and_left_as_it_was(
    tmp_path: Path, content: str | None, message: str
) -> None:
    kept = tmp_path / "run.jsonl"
    code, _, err = invoke(*BENCH, "--games", "3", "--bot", "random", "--results", str(kept))
    assert code == 0, err
    if content == "damaged":
        lines = kept.read_text().splitlines(keepends=True)
        kept.write_text("".join([lines[0], lines[1], '{"n": 1, "scores": []}\n', lines[3]]))
    elif content is not None:
        kept.write_text(content)
    before = kept.read_bytes()
    seed = "7" if content is None else "1000"
    code, out, err = invoke(
        *BENCH, "--games", "5", "--seed", seed, "--bot", "random", "--results", str(kept), "--lang", "en"
    )
    assert code == 1 and message in err and "Traceback" not in err and out == "", err
    assert kept.read_bytes() == before
    code, _, err = invoke(
        *BENCH, "--games", "5", "--seed", seed, "--bot", "random", "--results", str(kept), "--lang", "fr"
    )
    assert code == 1 and "Erreur\u00a0:" in err and str(kept) in err


def test_a_results_file_another_run_is_writing_is_refused(tmp_path: Path) -> None:
    """Two runs appending to one file would each write the other's games again: the second waits."""
    fcntl = pytest.importorskip("fcntl")
    kept = tmp_path / "run.jsonl"
    with kept.open("a") as other:
        fcntl.flock(other.fileno(), fcntl.LOCK_EX)
        code, _, err = invoke(*BENCH, "--bot", "random", "--results", str(kept), "--lang", "en")
        assert code == 1 and "another run is writing" in err and kept.read_bytes() == b""
    code, _, err = invoke(*BENCH, "--bot", "random", "--results", str(kept), "--lang", "en")
    assert code == 0, err


def test_a_run_on_several_workers_goes_on_from_its_file_too(tmp_path: Path) -> None:
    """With several workers the games finish out of order: each is kept as it finishes, by its
    number, and the resumed run's figures are those of one run."""
    kept = tmp_path / "run.jsonl"
    bench("tres-fute", 1, "random", 3, 1000, workers=2, results=kept)
    resumed = bench("tres-fute", 1, "random", 6, 1000, workers=2, results=kept)
    assert _figures_of_the_games(resumed) == _figures_of_the_games(bench("tres-fute", 1, "random", 6, 1000))
    numbers = sorted(json.loads(line)["n"] for line in kept.read_text().splitlines()[1:])
    assert numbers == list(range(6))


def test_a_header_cut_short_is_written_again_and_a_pipe_is_refused(tmp_path: Path) -> None:
    """Stopped while it wrote its first line, a run starts again; a path that is not a regular
    file (a pipe that would never end) is refused."""
    kept = tmp_path / "run.jsonl"
    bench("tres-fute", 1, "random", 1, 1000, results=kept)
    kept.write_bytes(kept.read_bytes()[:30])
    assert bench("tres-fute", 1, "random", 2, 1000, results=kept)["games"] == 2
    assert len(kept.read_text().splitlines()) == 3
    if hasattr(os, "mkfifo"):
        pipe = tmp_path / "pipe"
        os.mkfifo(pipe)
        code, _, err = invoke(*BENCH, "--bot", "random", "--results", str(pipe), "--lang", "en")
        assert code == 1 and "is not a regular file" in err

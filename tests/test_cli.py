"""The tresfute command: replay, score, simulate (French by default, English on request)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tresfute import records
from tresfute.cli import main
from tresfute.simulate import play_game

EXAMPLES = Path(__file__).parent.parent / "examples"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_replay_prints_the_scores_and_the_winner(tmp_path: Path) -> None:
    game = play_game("tres-fute", 2, "random", 1, 0)
    path = tmp_path / "game.json"
    path.write_text(records.dumps(records.record_of(game, ["Alice", "Bob"])))
    code, out = run("replay", str(path))
    assert code == 0
    assert "Partie valide" in out and "Alice" in out and "Vainqueur" in out
    assert f"Total {game.score(0).total:4}" in " ".join(out.split("  ")) or str(game.score(0).total) in out
    code, out = run("replay", str(path), "--json")
    data = json.loads(out)
    assert [p["total"] for p in data["players"]] == [s.total for s in game.scores()]
    assert data["winners"] == [["Alice", "Bob"][w] for w in game.winners()]


def test_replay_rejects_a_bad_record_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"game": "tres-fute", "players": ["a"], "seed": 1, "moves": ["1:done"]}')
    code, out = run("replay", str(path))
    assert (
        code == 1
        and "le coup 1 ('1:done') est illégal\u00a0: 'done' n’est pas possible maintenant\u00a0: le joueur actif" in out
    )
    code, out = run("replay", str(path), "--lang", "en")
    assert code == 1 and "move 1 ('1:done') is illegal: 'done' is not possible now: the active player picks" in out
    code, out = run("replay", str(tmp_path / "missing.json"))
    assert code == 1 and out.startswith("Erreur\u00a0: impossible de lire ")
    code, out = run("replay", str(tmp_path / "missing.json"), "--lang", "en")
    assert code == 1 and out.startswith("Error: cannot read ")


def test_solo_replay_shows_the_rating_in_english() -> None:
    code, out = run("replay", str(EXAMPLES / "solo-game.json"), "--lang", "en")
    assert code == 0, out
    assert "Solo rating:" in out and "Yellow" in out


@pytest.mark.parametrize(
    ("args", "french", "english"),
    [
        (("replay", str(EXAMPLES / "solo-game.json")), "Très futé —", "That's Pretty Clever! —"),
        (("score", str(EXAMPLES / "vraiment-tres-fute-sheet.json")), "Vraiment très futé\n", "Twice as Clever!\n"),
        (("simulate", "--games", "1"), "Très futé, 1 ×", "That's Pretty Clever!, 1 ×"),
        (("bench", "--games", "1", "--bot", "random"), "Très futé, 1 ×", "That's Pretty Clever!, 1 ×"),
    ],
)
def test_game_names_follow_the_language(args: tuple[str, ...], french: str, english: str) -> None:
    code, out = run(*args, "--lang", "en")
    assert code == 0, out
    assert english in out and french not in out
    code, out = run(*args)
    assert french in out and english not in out


def test_score_a_paper_sheet() -> None:
    code, out = run("score", "--game", "tres-fute", str(EXAMPLES / "tres-fute-sheet.json"), "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["areas"] == {"yellow": 46, "blue": 7, "green": 15, "orange": 22, "purple": 16}
    assert data["total"] == 113
    code, out = run("score", str(EXAMPLES / "tres-fute-sheet.json"))
    assert "Jaune" in out and "113" in out and "Note en solo" in out


@pytest.mark.parametrize("game_id", ["tres-fute", "vraiment-tres-fute"])
def test_simulate_is_reproducible_and_has_every_figure(game_id: str) -> None:
    args = (
        "simulate",
        "--game",
        game_id,
        "--players",
        "2",
        "--bot",
        "random",
        "--games",
        "20",
        "--seed",
        "4",
        "--json",
    )
    # stdout alone: the plain engine's warning (stderr, once a process) may come with the first run
    first = json.loads(CliRunner().invoke(main, list(args)).stdout)
    second = json.loads(CliRunner().invoke(main, list(args)).stdout)
    assert set(first) >= {"games", "mean", "sd", "min", "max", "mean_per_area", "mean_foxes", "games_per_second"}
    first.pop("games_per_second"), second.pop("games_per_second")
    assert first == second
    assert first["games"] == 20


def test_score_a_vraiment_tres_fute_sheet() -> None:
    code, out = run("score", str(EXAMPLES / "vraiment-tres-fute-sheet.json"), "--lang", "en")
    assert code == 0, out
    assert "Silver" in out and "Pink" in out and "78" in out


def test_the_module_runs_as_a_command() -> None:
    out = subprocess.run([sys.executable, "-m", "tresfute", "--help"], capture_output=True, text=True, check=True)
    assert "replay" in out.stdout and "simulate" in out.stdout


@pytest.mark.parametrize(
    "args", [("simulate", "--players", "5"), ("simulate", "--game", "chess"), ("score", "--game", "chess", "x.json")]
)
def test_bad_options_are_refused(args: tuple[str, ...]) -> None:
    code, out = run(*args, "--lang", "fr")
    assert code == 2 and "Erreur\u00a0: valeur non valide pour '--" in out
    code, out = run(*args, "--lang", "en")
    assert code == 2 and "Error: Invalid value for '--" in out


def test_analyse_rates_a_recorded_move_against_the_strong_players_choice() -> None:
    """`tresfute analyse RECORD --move N`: every legal move of that position with its expected
    final score, best first, and what the move played cost."""
    code, out = run("analyse", str(EXAMPLES / "solo-game.json"), "--move", "4", "--json")
    assert code == 0, out
    data = json.loads(out)
    rows = data["moves"]
    assert data["name"] == "Camille" and len(rows) > 1
    assert rows[0]["cost"] == 0 and all(row["cost"] >= 0 for row in rows if row["searched"])
    played = [row for row in rows if row["played"]]
    assert [row["move"] for row in played] == ["y@r3c3"]
    code, out = run("analyse", str(EXAMPLES / "solo-game.json"), "--move", "4", "--lang", "en")
    assert code == 0 and "Camille to decide" in out and "The move played costs" in out


def test_analyse_all_searches_every_legal_move() -> None:
    """`tresfute analyse RECORD --all`: every legal move is searched, not only the candidates."""
    code, out = run("analyse", str(EXAMPLES / "solo-game.json"), "--move", "4", "--all", "--json")
    assert code == 0, out
    rows = json.loads(out)["moves"]
    assert len(rows) > 2 and all(row["searched"] for row in rows)
    assert [row["expected"] for row in rows] == sorted((row["expected"] for row in rows), reverse=True)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--move", "999"), "the record has 25 moves: no move 999"),
        (("--move", "27"), "the record has 25 moves: no move 27"),
        (("--move", "26"), "the game is over after the record's 25 moves: no decision to analyse"),
        ((), "the game is over after the record's 25 moves: no decision to analyse"),
    ],
)
def test_analyse_refuses_a_position_without_a_decision(args: tuple[str, ...], message: str) -> None:
    code, out = run("analyse", str(EXAMPLES / "solo-game.json"), "--lang", "en", *args)
    assert code == 1 and out == f"Error: {message}\n"


def test_analyse_says_in_french_that_the_game_is_over_after_the_last_move() -> None:
    code, out = run("analyse", str(EXAMPLES / "solo-game.json"), "--move", "26")
    assert code == 1
    assert out == (
        "Erreur\u00a0: la partie est finie après les 25 coups de l’enregistrement\u00a0: "
        "plus aucune décision à analyser\n"
    )


def test_analyse_after_the_last_move_of_a_game_in_progress_is_where_it_stops(tmp_path: Path) -> None:
    """In a game in progress, --move N+1 (or no --move) is the position the record stops in."""
    data = json.loads((EXAMPLES / "solo-game.json").read_text())
    data["moves"], data["result"] = data["moves"][:3], None
    path = tmp_path / "in-progress.json"
    path.write_text(json.dumps(data))
    code, out = run("analyse", str(path), "--move", "4", "--json")
    assert code == 0, out
    assert json.loads(out)["name"] == "Camille" and not any(row["played"] for row in json.loads(out)["moves"])
    assert run("analyse", str(path), "--json") == (code, out)
    assert run("analyse", str(path), "--move", "5", "--lang", "en") == (1, "Error: the record has 3 moves: no move 5\n")

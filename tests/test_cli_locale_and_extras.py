"""The command speaks the locale's language (``--lang`` wins), names the extra a command lacks,
says which engine runs, and warns once when a long command runs the plain one."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import tresfute.rules
from tresfute import bots, cli
from tresfute.i18n import environment_language

SHEET = Path(__file__).parent.parent / "examples" / "tres-fute-sheet.json"


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANG": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "fr_CA"}, "fr"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "it_IT.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
        ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "fr_FR.UTF-8", "LC_ALL": "en_GB.UTF-8"}, "en"),
        ({"LC_ALL": "", "LANG": "fr_BE.UTF-8"}, "fr"),  # an empty variable counts as unset
        ({"LANGUAGE": "fr:en", "LANG": "C.UTF-8"}, "fr"),
    ],
)
def test_the_language_follows_the_locale_as_gettext_reads_it(environ: dict[str, str], expected: str) -> None:
    assert environment_language(environ) == expected


def _command(*args: str, **environ: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    return subprocess.run(
        [sys.executable, "-m", "tresfute", *args], capture_output=True, text=True, env={**clean, **environ}, timeout=60
    )


def test_lang_en_gives_english_and_lang_fr_french_and_lang_option_wins() -> None:
    english = _command("score", str(SHEET), LANG="en_US.UTF-8")
    french = _command("score", str(SHEET), LANG="fr_FR.UTF-8")
    assert english.returncode == french.returncode == 0
    assert "Total" in english.stdout and "Solo rating:" in english.stdout
    assert "Note en solo" in french.stdout
    assert "Note en solo" in _command("score", str(SHEET), "--lang", "fr", LANG="en_US.UTF-8").stdout
    assert "Solo rating:" in _command("score", str(SHEET), "--lang", "en", LANG="fr_FR.UTF-8").stdout


def test_error_lines_are_in_the_locales_language(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.json")
    french = _command("score", missing, LANG="fr_FR.UTF-8")
    assert french.returncode == 1 and french.stderr.startswith("Erreur\u00a0: impossible de lire ")
    english = _command("score", missing, LANG="en_US.UTF-8")
    assert english.returncode == 1 and english.stderr.startswith("Error: cannot read ")
    usage = _command("simulate", "--players", "9", LANG="fr_FR.UTF-8")
    assert usage.returncode == 2
    assert "tresfute simulate --help\u00a0» pour l’aide." in usage.stderr
    assert "Erreur\u00a0: " in usage.stderr


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli.main, list(args))
    return result.exit_code, result.output


def test_version_says_which_engine_runs() -> None:
    code, out = run("--version")
    engine = "moteur compilé" if tresfute.rules.COMPILED else "moteur en Python pur"
    assert code == 0 and out == f"tresfute {tresfute.__version__} ({engine})\n"


@pytest.mark.parametrize(
    ("args", "blocked", "extra"),
    [
        (("serve",), "fastapi", "web"),
        (("serve",), "uvicorn", "web"),
        (("play",), "textual", "tui"),
        (("serve", "--db", "postgresql://nobody@localhost/none"), "psycopg_pool", "postgres"),
    ],
)
def test_a_command_whose_extra_is_missing_names_it_in_one_line(
    monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...], blocked: str, extra: str
) -> None:
    for name in list(sys.modules):  # imported afresh, as on a machine without the package
        if name == blocked or name.startswith((blocked + ".", "tresfute.web", "tresfute.tui")):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, blocked, None)  # importing it raises ImportError
    code, out = run(*args, "--lang", "en")
    command = "serve --db postgresql://…" if extra == "postgres" else args[0]
    install = f'pip install "tresfute[{extra}]"'
    assert code == 1
    assert out == f"Error: tresfute {command} needs the {extra} extra ({blocked} is not installed): {install}\n"


def test_the_long_commands_warn_once_on_stderr_when_the_plain_engine_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tresfute.rules, "COMPILED", False)
    cli._warn_if_plain_engine.cache_clear()
    result = CliRunner().invoke(cli.main, ["simulate", "--games", "2", "--json", "--lang", "en"])
    assert result.exit_code == 0
    assert result.stderr.count("plain Python engine") == 1 and result.stdout.startswith("{")
    again = CliRunner().invoke(cli.main, ["simulate", "--games", "2", "--json"])
    assert "plain Python engine" not in again.stderr, "once per process"
    monkeypatch.setattr(tresfute.rules, "COMPILED", True)
    cli._warn_if_plain_engine.cache_clear()
    compiled = CliRunner().invoke(cli.main, ["simulate", "--games", "2", "--json"])
    assert compiled.exit_code == 0 and compiled.stderr == ""
    cli._warn_if_plain_engine.cache_clear()


def test_the_names_the_help_shows_are_the_bots_and_games_there_are() -> None:
    assert tuple(sorted(bots.BOTS)) == cli.BOT_NAMES
    assert tuple(bots.FILE_BOTS) == cli.FILE_BOT_KINDS


@pytest.mark.parametrize("args", [["--help"], ["score", "--help"], ["simulate", "--help"], ["--version"]])
def test_help_imports_neither_the_bots_nor_pydantic(args: list[str]) -> None:
    heavy = "('numpy', 'pydantic', 'tresfute.bots', 'tresfute.records')"
    code = (
        "import sys\nfrom tresfute.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n"
        f"    print(sorted(m for m in {heavy} if m in sys.modules), file=sys.stderr)"
    )
    result = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=60)
    assert result.stderr.strip() == "[]"


@pytest.mark.parametrize(
    ("variable", "value", "said"),
    [
        ("TRESFUTE_GAMES_PER_MINUTE", "abc", "Error: TRESFUTE_GAMES_PER_MINUTE='abc': not a number\n"),
        ("TRESFUTE_KEEP_FINISHED_DAYS", "-1", "Error: TRESFUTE_KEEP_FINISHED_DAYS='-1': a limit is 0 (none) or more\n"),
        (
            "TRESFUTE_BLAS_THREADS",
            "two",
            "Error: TRESFUTE_BLAS_THREADS must be a whole number of threads (0: BLAS's own choice), not 'two'\n",
        ),
    ],
)
def test_serve_refuses_a_wrong_setting_in_one_line_before_it_starts(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, variable: str, value: str, said: str
) -> None:
    """A wrong TRESFUTE_… variable stops `serve` at once with one error line, no traceback, and
    no server started (uvicorn.run would block the test)."""
    import uvicorn

    monkeypatch.setenv(variable, value)
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: pytest.fail("the server started"))
    code, out = run("serve", "--db", str(tmp_path / "games.sqlite3"), "--lang", "en")
    assert code == 1 and out.endswith(said) and "Traceback" not in out


def test_serve_refuses_a_database_it_cannot_open_in_one_line_and_leaves_it_as_it_was(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A folder, a file that is not SQLite, an SQLite file of something else: `serve` stops at once
    with a sentence in the player's language naming the file, no traceback, and the file as it was."""
    import sqlite3

    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: pytest.fail("the server started"))
    not_sqlite = tmp_path / "notes.sqlite3"
    not_sqlite.write_text('{"not": "a database"}')
    foreign = tmp_path / "other.sqlite3"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE games (name TEXT)")
    foreign_before = foreign.read_bytes()
    bookmarks = tmp_path / "places.sqlite"  # another program's tables, none of tresfute's
    with sqlite3.connect(bookmarks) as db:
        db.execute("CREATE TABLE places (url TEXT)")
    bookmarks_before = bookmarks.read_bytes()
    for where, said in (
        (tmp_path, f"Erreur : aucune base de données ne peut être ouverte ni créée à {tmp_path} ("),
        (not_sqlite, f"Erreur : {not_sqlite} n’est pas une base de données SQLite : donnez"),
        (foreign, f"Erreur : {foreign} est une base de données SQLite, mais pas celle des parties de tresfute"),
        (bookmarks, f"Erreur : {bookmarks} est une base de données SQLite, mais pas celle des parties de tresfute"),
    ):
        code, out = run("serve", "--db", str(where), "--lang", "fr")
        assert code == 1 and out.replace("\u00a0", " ").startswith(said) and "Traceback" not in out, out
        assert out.count("\n") == 1, "one line"
    assert not_sqlite.read_text() == '{"not": "a database"}' and foreign.read_bytes() == foreign_before
    assert bookmarks.read_bytes() == bookmarks_before
    code, out = run("serve", "--db", str(foreign), "--lang", "en")
    assert out == f"Error: {foreign} is an SQLite database, but not of tresfute's games: give another file\n"


@pytest.mark.parametrize(
    ("bot", "french", "english"),
    [
        (
            "nope",
            "joueur ordinateur inconnu 'nope'\u00a0: choisissez parmi random, greedy, strong, strong-win, ppo:FILE",
            "unknown bot 'nope': choose one of random, greedy, strong, strong-win, ppo:FILE",
        ),
        (
            "ppo:",
            "ppo\u00a0: il faut un fichier, comme dans 'ppo:agent.zip'",
            "ppo: needs a file, as in 'ppo:agent.zip'",
        ),
    ],
)
def test_a_wrong_bot_is_refused_in_the_user_s_language(bot: str, french: str, english: str) -> None:
    """The project's own refusal of a --bot value, and click's "Invalid value for" before it."""
    code, out = run("simulate", "--games", "2", "--bot", bot, "--lang", "fr")
    assert code == 2 and out.endswith(f"\nErreur\u00a0: valeur non valide pour '--bot'\u00a0: {french}\n"), out
    code, out = run("simulate", "--games", "2", "--bot", bot, "--lang", "en")
    assert code == 2 and out.endswith(f"\nError: Invalid value for '--bot': {english}\n"), out
    with pytest.raises(ValueError, match=re.escape(english)):  # the library's own error, in English
        bots.make_bot(bot, 0)

"""Input from outside, refused where it arrives (issue 54): a record never names code or a file,
a file too large is refused before it is read, a name cannot drive the terminal, a malformed
``Move`` or a bool for a number is refused by the engine (compiled or plain), and a record's JSON
says exactly what is wrong with it."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner

import tresfute
from tresfute import Game, IllegalMoveError, Move, records
from tresfute.cli import main
from tresfute.paper import SheetError, load_sheet
from tresfute.rules import MoveKind
from tresfute.simulate import play_game

ESCAPES = "\x1b[2J\x1b]0;pwned\x07\x9b31m\u2028"  # clear the screen, set the title, C1 CSI, a line break


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def record_file(tmp_path: Path, **fields: object) -> Path:
    data = json.loads(records.dumps(records.record_of(Game("tres-fute", 2, seed=5))))
    data.update(fields)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    return path


# --- a record never names code or a file -----------------------------------------------------


@pytest.mark.parametrize("bot", ["skynet", "ppo:", "ppo:/nonexistent.zip", "ppo:/etc/hostname", "tresfute.envs"])
def test_a_record_naming_anything_but_a_built_in_player_is_refused_before_anything_is_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bot: str
) -> None:
    """``play --resume`` of such a record: one sentence, exit status 1, no traceback, and no
    computer player made (so no file opened by the agent loader)."""
    import tresfute.tui.session as session

    made: list[str] = []

    def make_bot(name: str, seed: int) -> None:
        made.append(name)
        raise AssertionError("a computer player made from what a record names")

    monkeypatch.setattr(session, "make_bot", make_bot)
    path = record_file(tmp_path, bots=[None, bot])
    code, out = run("play", "--resume", str(path), "--lang", "en")
    assert code == 1 and made == []
    assert out == (
        f"Error: Cannot resume: not a valid record: bots: {bot!r} is not a computer player: a record names "
        "one of 'greedy', 'random', 'strong', 'strong-win', 'ppo', never a file\n"
    )
    with pytest.raises(records.RecordError, match="never a file"):  # the library's own reading
        records.loads(path.read_bytes())


def test_a_trained_agent_is_saved_as_its_kind_and_played_by_the_file_given_at_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seat of ``--bot ppo:agent.zip`` is written ``"ppo"``; resuming takes the agent's file
    from the command line (``Session.load(path, agents)``), and says so when none is given."""
    import tresfute.tui.session as session
    from tresfute.bots import RandomBot

    game = Game("tres-fute", 2, seed=5)
    record = records.record_of(game, ["Ann", "Agent"], [None, "ppo:/somewhere/agent.zip"])
    assert record.bots == [None, "ppo"]
    path = tmp_path / "game.json"
    path.write_text(records.dumps(record))
    made: list[str] = []

    def make_bot(name: str, seed: int) -> RandomBot:
        made.append(name)
        return RandomBot(seed)

    monkeypatch.setattr(session, "make_bot", make_bot)
    with pytest.raises(records.RecordError) as refused:
        session.Session.load(path)
    assert str(refused.value) == (
        "the record has a seat for a trained agent: give its file with --bot ppo:FILE (one file)"
    )
    with pytest.raises(records.RecordError):
        session.Session.load(path, ("ppo:a.zip", "ppo:b.zip"))
    assert made == []
    resumed = session.Session.load(path, ("strong", "ppo:/mine/agent.zip"))
    assert made == ["ppo:/mine/agent.zip"] and resumed.seats[1].bot == "ppo:/mine/agent.zip"


# --- the size of a file is checked before it is read -----------------------------------------


def test_a_file_too_large_is_refused_without_being_read_into_memory(tmp_path: Path) -> None:
    """A 300 MB record (sparse: no disk used) is refused in one sentence, holding at most a few
    megabytes; a paper sheet the same."""
    path = tmp_path / "huge.json"
    with open(path, "wb") as file:
        file.truncate(300 * 1024 * 1024)
    tracemalloc.start()
    try:
        code, out = run("replay", str(path), "--lang", "en")
        sheet_code, sheet_out = run("score", str(path), "--lang", "en")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (code, out) == (1, "Error: not a valid record: the file is too large: at most 1048576 bytes\n")
    assert (sheet_code, sheet_out) == (
        1,
        "Error: not a valid paper sheet: the file is too large: at most 65536 bytes\n",
    )
    assert peak < 8 * 1024 * 1024, f"{peak} bytes held to refuse it"


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="a system without /dev/zero")
def test_a_device_that_never_ends_is_refused_under_a_memory_limit(tmp_path: Path) -> None:
    """``/dev/zero`` under a 2 GB address-space limit: one sentence and status 1, no MemoryError."""

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONUTF8": "1"}
    for command in (["replay", "/dev/zero"], ["play", "--resume", "/dev/zero"]):
        done = subprocess.run(
            [sys.executable, "-m", "tresfute", *command, "--lang", "en"],
            capture_output=True,
            text=True,
            timeout=120,
            preexec_fn=limited,
            env=env,
        )
        assert done.returncode == 1, done.stderr
        assert done.stderr.splitlines()[-1].endswith("the file is too large: at most 1048576 bytes"), done.stderr
        assert "Traceback" not in done.stderr


# --- names cannot drive the terminal ----------------------------------------------------------


def test_a_name_with_terminal_escapes_is_printed_harmless_by_replay(tmp_path: Path) -> None:
    game = play_game("tres-fute", 2, "random", 1, 0)
    path = tmp_path / "game.json"
    path.write_text(records.dumps(records.record_of(game, [f"Eve{ESCAPES}", "Bob"])))
    code, out = run("replay", str(path), "--lang", "en")
    assert code == 0
    assert not {"\x1b", "\x07", "\x9b", "\u2028"} & set(out), "no control character reaches the terminal"
    assert "Eve\\x1b[2J\\x1b]0;pwned\\x07\\x9b31m\\u2028" in out, "each written as its escape"
    code, out = run("replay", str(path), "--json")
    assert code == 0 and not {"\x1b", "\x07", "\x9b", "\u2028"} & set(out)
    assert json.loads(out)["players"][0]["name"] == f"Eve{ESCAPES}", "the same JSON, escaped"


def test_a_name_with_terminal_escapes_or_markup_is_printed_harmless_by_review(tmp_path: Path) -> None:
    game = play_game("tres-fute", 1, "greedy", 3, 0)
    path = tmp_path / "game.json"
    path.write_text(records.dumps(records.record_of(game, [f"[bold]Eve[/]{ESCAPES}"])))
    code, out = run("review", str(path), "--lang", "en")
    assert code == 0, out
    assert not {"\x1b", "\x07", "\x9b", "\u2028"} & set(out)
    assert out.startswith("Review of [bold]Eve[/]\\x1b[2J\\x1b]0;pwned\\x07\\x9b31m\\u2028: final score")


def test_the_terminal_game_shows_a_record_s_names_harmless(tmp_path: Path) -> None:
    """Resumed, the names of a record are shown with their controls escaped and their markup
    as text (a name ``[/]`` would otherwise stop the screen with a markup error)."""
    import asyncio

    from tresfute.tui.app import GameScreen, HandoverScreen, TresFuteApp

    game = Game("tres-fute", 2, seed=5)
    path = tmp_path / "game.json"
    path.write_text(records.dumps(records.record_of(game, [f"[/]Eve{ESCAPES}", "Bob"])))
    shown: list[str] = []

    async def main_() -> None:
        app = TresFuteApp(resume=path, bot_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(20):
                await pilot.pause()
                if isinstance(app.screen, HandoverScreen):
                    break
            assert isinstance(app.screen, HandoverScreen), app.screen
            shown.extend(str(w.render()) for w in app.screen.query("Label, Button"))
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, GameScreen)
            shown.extend(str(w.render()) for w in app.screen.query("Static"))

    asyncio.run(asyncio.wait_for(main_(), 120))  # a markup error would stop the app, not the test
    text = "\n".join(shown)
    assert "[/]Eve\\x1b[2J\\x1b]0;pwned\\x07\\x9b31m\\u2028" in text
    assert not {"\x1b", "\x07", "\x9b", "\u2028"} & set(text)


# --- the engine refuses a malformed move, compiled as plain ----------------------------------


def _state(game: Game) -> str:
    return json.dumps([str(game.phase), game.values, [str(w) for w in game.where], [str(h.move) for h in game.history]])


def malformed(*fields: object) -> Move:
    """A ``Move`` built with fields of the wrong types, as a program may build one."""
    return Move(*fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        (malformed("pick", "y", "y", (3, 3)), "yellow r3c3 shows 2, not 4"),  # the kind as text, illegal here
        (malformed(MoveKind.PICK, "y", "y", (1,)), "a move's cell is (row, column), two whole numbers, not (1,)"),
        (
            malformed(MoveKind.PICK, "y", "y", ("3", "3")),
            "a move's cell is (row, column), two whole numbers, not ('3', '3')",
        ),
        (malformed(MoveKind.BONUS, None, "o", None, "6"), "a move's value is a whole number, not '6'"),
        (malformed(MoveKind.PICK, 3, "y", (3, 3)), "a move's die is a letter, not 3"),
        (malformed(MoveKind.PICK, "y", ["y"], (3, 3)), "a move's area is a letter, not ['y']"),
        (
            malformed("jump"),
            "'jump' is not a kind of move (pick, extra, bonus, sweep, reroll, reprise, roll, pass, done, dice)",
        ),
        (malformed(MoveKind.PASS, None, None, None, None, (("y", 3),)), "only a dice move gives dice or a platter"),
    ],
)
def test_a_malformed_move_is_an_illegal_move_and_changes_nothing(move: Move, reason: str) -> None:
    game = Game("tres-fute", 1, seed=3)
    before = _state(game)
    with pytest.raises(IllegalMoveError) as refused:
        game.play(move)
    assert str(refused.value) == reason
    assert _state(game) == before
    assert not game.is_legal(move)


def test_a_move_whose_kind_is_written_as_text_plays_as_the_engine_s_own() -> None:
    game = Game("tres-fute", 1, seed=3)
    legal = game.legal_moves()[0]
    game.play(malformed(str(legal.kind), legal.die, legal.area, legal.cell))
    assert game.history[-1].move is legal or game.history[-1].move == legal
    assert game.history[-1].move.kind is legal.kind


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"players": True}, TypeError, "players is a whole number, 1 to 4, not bool"),
        ({"seed": True}, TypeError, "seed is a whole number or None, not bool"),
        ({"seed": 1.0}, TypeError, "seed is a whole number or None, not float"),
        ({"players": 5}, ValueError, "Très futé is played by 1 to 4 players, not 5"),
    ],
)
def test_a_game_refuses_a_bool_where_a_number_is_meant(arguments: dict, error: type, message: str) -> None:
    with pytest.raises(error) as refused:
        Game("tres-fute", **arguments)
    assert str(refused.value) == message


def test_a_player_who_is_not_in_the_game_has_no_legal_moves_to_list() -> None:
    game = Game("tres-fute", 2, seed=1)
    with pytest.raises(ValueError) as refused:
        game.legal_moves(7)
    assert (
        str(refused.value)
        == "there is no player 7 in this game: players are numbered 0 to 1 (CHANCE, -1, gives the dice)"
    )
    with pytest.raises(ValueError):
        game.legal_moves(-2)
    waiting = 1 - game.players_to_move[0]
    assert game.legal_moves(waiting) == [] and game.legal_moves(-1) == [], "in the game, but not deciding now"
    with pytest.raises(TypeError, match="not bool"):
        game.play(game.legal_moves()[0], True)  # type: ignore[arg-type]


def test_move_kind_is_exported_from_the_package() -> None:
    """The records guide writes ``from tresfute import MoveKind``."""
    assert tresfute.MoveKind is MoveKind and "MoveKind" in tresfute.__all__


# --- a record's JSON, read exactly -----------------------------------------------------------


def test_a_key_given_twice_is_refused_not_read_as_its_last_value() -> None:
    text = '{"game": "tres-fute", "players": ["a"], "seed": 1, "seed": 2}'
    with pytest.raises(records.RecordError) as refused:
        records.loads(text)
    assert str(refused.value) == "not a valid record: the key 'seed' is given twice in the same object"
    nested = '{"game": "vraiment-tres-fute", "areas": {"orange": [1], "orange": [2]}}'
    with pytest.raises(SheetError) as sheet_refused:
        load_sheet(nested)
    assert str(sheet_refused.value) == "not a valid paper sheet: the key 'orange' is given twice in the same object"


def test_a_key_given_twice_is_said_in_french_by_the_command(tmp_path: Path) -> None:
    path = tmp_path / "twice.json"
    path.write_text('{"game": "tres-fute", "game": "tres-fute", "players": ["a"], "seed": 1}')
    code, out = run("replay", str(path), "--lang", "fr")
    assert code == 1 and out.startswith("Erreur\u00a0: ") and "'game'" in out and "deux fois" in out


@pytest.mark.parametrize("space", ["\u2028", "\u2029", "\u00a0", "\u3000", "\u0085", "\t", " ", "\n"])
def test_a_move_with_a_unicode_space_or_line_break_around_it_is_refused(space: str) -> None:
    """Around the move, after the seat, or between a dice move's words (one ASCII space there)."""

    def refusal(entry: str) -> str:
        text = json.dumps({"game": "tres-fute", "players": ["a"], "seed": 1, "moves": [entry]})
        with pytest.raises(records.RecordError) as refused:
            records.loads(text)
        return str(refused.value)

    spaced = "write the move with no space around it, and one plain space between words"
    for entry in (f"1:y@r1c1{space}", f"1:{space}y@r1c1", f"dice w3{space}y5", f"dice w3 y5{space}"):
        if entry != "dice w3 y5":  # (one ASCII space between words is the notation)
            assert refusal(entry) == f"move 1 ({entry!r}): {spaced}", entry
    entry = f"{space}1:y@r1c1"  # before the seat: not a seat
    assert refusal(entry) == f"move 1 ({entry!r}): write a move as '<seat>:<move>', as in '1:y@r2c3', or dice alone"


def test_a_number_of_thousands_of_digits_is_named_as_such() -> None:
    text = '{"game": "tres-fute", "players": ["a"], "seed": ' + "9" * 5000 + "}"
    with pytest.raises(records.RecordError) as refused:
        records.loads(text)
    assert str(refused.value) == "not a valid record: the file holds a number too long to be read (line 1)"


def test_the_terminal_game_says_why_a_record_is_refused_even_when_it_quotes_markup(tmp_path: Path) -> None:
    """The refusal quotes the record's text (``'[/]'``): shown as text on the start screen, not
    read as markup (which would stop the screen with a markup error)."""
    import asyncio

    from tresfute.tui.app import SetupScreen, TresFuteApp

    path = record_file(tmp_path, bots=[None, "[/]"])
    shown: list[str] = []

    async def main_() -> None:
        app = TresFuteApp(resume=path, bot_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, SetupScreen)
            shown.append(str(app.screen.query_one("#setup-error").render()))

    asyncio.run(asyncio.wait_for(main_(), 120))
    assert shown == [
        "Impossible de reprendre\u00a0: enregistrement de partie non valide\u00a0: bots\u00a0: '[/]' n’est pas un "
        "joueur ordinateur\u00a0: un enregistrement nomme l’un de 'greedy', 'random', 'strong', 'strong-win', "
        "'ppo', jamais un fichier"
    ]

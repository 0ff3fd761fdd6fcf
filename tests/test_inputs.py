"""Every bad input is refused at the boundary where it enters, with one clear sentence, and
changes nothing: game records, paper sheets, the Python ``Move``/``Game`` API, and the command
line that reads them (one error line on stderr, exit status 1, no traceback, the file untouched).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tresfute import inputs, paper, records
from tresfute.cli import main
from tresfute.i18n import use_language
from tresfute.rules import CHANCE, Game, IllegalMoveError, Move, MoveKind
from tresfute.text import explain

from helpers import new_game

SOLO = json.loads((Path(__file__).parent.parent / "examples" / "solo-game.json").read_text())
SHEET = json.loads((Path(__file__).parent.parent / "examples" / "tres-fute-sheet.json").read_text())


def with_moves(*moves: str, **fields: object) -> dict:
    return {**SOLO, "moves": list(moves), "result": None, **fields}


def first_move() -> str:
    return SOLO["moves"][0].partition(":")[2]


def refused_cleanly(tmp_path: Path, command: str, content: str, *args: str) -> str:
    """Run ``tresfute COMMAND FILE``; assert one error line, exit 1, the file untouched; the line."""
    path = tmp_path / "input.json"
    path.write_text(content, encoding="utf-8")
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    result = CliRunner().invoke(main, [command, *args, str(path)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(("Error: ", "Erreur\u00a0: ")), result.stderr  # as --lang says
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before
    return lines[0]


# --- records -----------------------------------------------------------------------------

NON_ASCII_SEATS = ["²", "١", "１", "1 ", " 1", "+1", "01x"]


@pytest.mark.parametrize("seat", NON_ASCII_SEATS)
def test_a_seat_not_written_in_ascii_digits_is_refused(seat: str) -> None:
    with pytest.raises(records.RecordError, match=r"move 1 .*write a move as '<seat>:<move>'"):
        records.from_data(with_moves(f"{seat}:{first_move()}"))


@pytest.mark.parametrize("command", ["replay", "analyse", "play"])
@pytest.mark.parametrize("seat", ["²", "١"])
def test_the_commands_refuse_a_non_ascii_seat_in_one_line(tmp_path: Path, command: str, seat: str) -> None:
    content = json.dumps(with_moves(f"{seat}:{first_move()}"))
    args = ("--resume",) if command == "play" else ()
    line = refused_cleanly(tmp_path, command, content, "--lang", "en", *args)
    assert "move 1" in line and "write a move as '<seat>:<move>'" in line


@pytest.mark.parametrize(("seat", "players"), [("0", 1), ("2", 1), ("5", 4), ("99999999999999999999", 2)])
def test_a_seat_out_of_range_is_refused(seat: str, players: int) -> None:
    data = with_moves(f"{seat}:{first_move()}", players=["a"] * players)
    with pytest.raises(records.RecordError, match=rf"move 1 .*the seat must be a number from 1 to {players}"):
        records.from_data(data)


def test_a_seat_on_a_dice_move_is_refused() -> None:
    data = with_moves("1:dice w1 y2 b3 g4 o5 p6", dice="external", seed=None)
    with pytest.raises(records.RecordError, match=r"move 1 .*dice are written without a seat"):
        records.from_data(data)


@pytest.mark.parametrize(
    ("change", "field", "expected"),
    [
        ({"seed": "7"}, "seed", "a whole number"),
        ({"seed": 7.0}, "seed", "a whole number"),
        ({"seed": True}, "seed", "a whole number"),
        ({"players": "Ana"}, "players", "a list"),
        ({"players": [1]}, r"players\[0\]", "text"),
        ({"moves": "1:pass"}, "moves", "a list"),
        ({"moves": [1]}, r"moves\[0\]", "text"),
        ({"colour": "red"}, "colour", "is not a known field"),
        ({"\x85ormat": "red"}, re.escape("'\\x85ormat'"), "is not a known field"),
        ({"a\nb": 1}, re.escape("'a\\nb'"), "is not a known field"),
        ({"dice": "loaded"}, "dice", "must be one of 'seeded' or 'external'"),
        ({"format": "tresfute-record/2"}, "format", "must be one of"),
        ({"players": ["x" * 1001]}, r"players\[0\]", "at most 1000 characters"),
        ({"moves": ["1:" + "x" * 99]}, r"moves\[0\]", "at most 100 characters"),
        ({"moves": ["1:pass"] * 5001}, "moves", "at most 5000 items"),
        ({"result": {"scores": [], "winners": ["1"]}}, r"result.winners\[0\]", "a whole number"),
    ],
)
def test_each_field_of_a_record_has_an_exact_type(change: dict, field: str, expected: str) -> None:
    with pytest.raises(records.RecordError, match=rf"^not a valid record: {field}.*{expected}"):
        records.loads(json.dumps({**SOLO, **change}))


def test_the_values_a_field_takes_are_listed_in_the_reader_s_language() -> None:
    """pydantic joins the values a field takes with an English "or": said in the reader's language."""
    with pytest.raises(records.RecordError) as refused:
        records.loads(json.dumps({**SOLO, "dice": "loaded"}))
    with use_language("fr"):
        assert explain(refused.value).endswith("dice doit être l’un de 'seeded' ou 'external'")
    with use_language("en"):
        assert explain(refused.value).endswith("dice must be one of 'seeded' or 'external'")


@pytest.mark.parametrize("depth", [300, 5000, 100_000])
def test_a_deeply_nested_record_is_refused_without_recursion(depth: int) -> None:
    text = json.dumps({**SOLO, "result": None})[:-1] + ', "x": ' + "[" * depth + "]" * depth + "}"
    with pytest.raises(records.RecordError, match=r"nested too deeply"):
        records.loads(text)


def test_a_huge_record_is_refused_before_it_is_parsed() -> None:
    with pytest.raises(records.RecordError, match=r"too large"):
        records.loads(" " * (records.MAX_BYTES + 1))


@pytest.mark.parametrize("command", ["replay", "analyse", "play"])
def test_the_commands_refuse_a_deep_record_in_one_line(tmp_path: Path, command: str) -> None:
    args = ("--resume",) if command == "play" else ()
    line = refused_cleanly(tmp_path, command, "[" * 5000 + "]" * 5000, *args)
    assert "imbriqué" in line  # French by default


def _cut_short() -> str:
    """A record cut after its seventh line (a copy that stopped), as the file ends there."""
    return "\n".join(json.dumps(SOLO, indent=2).splitlines()[:7])


@pytest.mark.parametrize(
    ("content", "french", "english"),
    [
        (
            _cut_short(),
            "le fichier n’est pas du JSON valide\u00a0: il s’arrête trop tôt (ligne 7)",
            "the file is not valid JSON: it ends too soon (line 7)",
        ),
        (
            '{\n  "game": "tres-fute",\n  "players" ["a"]\n}',
            "le fichier n’est pas du JSON valide (ligne 3, colonne 13)",
            "the file is not valid JSON (line 3, column 13)",
        ),
        (
            "\x80\x81junk",
            "le fichier n’est pas du JSON valide (ligne 1, colonne 1)",
            "the file is not valid JSON (line 1, column 1)",
        ),
        (" \n\t", "le fichier est vide", "the file is empty"),
    ],
)
def test_a_file_that_is_not_json_says_where_in_the_reader_s_language(
    tmp_path: Path, content: str, french: str, english: str
) -> None:
    """The JSON parser's own English words ("EOF while parsing an object") are not shown: the
    line and column where it stopped are, in the reader's language."""
    line = refused_cleanly(tmp_path, "replay", content)
    assert line == "Erreur\u00a0: enregistrement de partie non valide\u00a0: " + french
    line = refused_cleanly(tmp_path, "replay", content, "--lang", "en")
    assert line == "Error: not a valid record: " + english
    assert refused_cleanly(tmp_path, "score", content, "--lang", "en").endswith(english)


def test_a_record_that_starts_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    """Some editors start a UTF-8 file with a byte-order mark: the record is read all the same."""
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(SOLO).encode())
    result = CliRunner().invoke(main, ["replay", "--lang", "en", str(path)])
    assert result.exit_code == 0 and "Valid game (25 moves)" in result.output, result.output
    assert records.loads("\ufeff" + json.dumps(SOLO)) == records.loads(json.dumps(SOLO))
    with pytest.raises(records.RecordError, match="not valid JSON"):  # one mark, not a second one
        records.loads(b"\xef\xbb\xbf\xef\xbb\xbf" + json.dumps(SOLO).encode())


@pytest.mark.parametrize("command", ["replay", "analyse", "review", "score", "play"])
def test_a_file_that_cannot_be_read_is_said_in_the_reader_s_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """A missing file, a folder, a file not allowed to be read: our own sentence, not the
    system's English text."""
    nbsp = "\u00a0"
    resume = "Impossible de reprendre\u00a0: " if command == "play" else ""
    args = [command, "--resume"] if command == "play" else [command]

    def says(path: Path, *lang: str) -> str:
        result = CliRunner().invoke(main, [*args, str(path), *lang])
        assert result.exit_code == 1 and result.stdout == "", result.output
        assert len(result.stderr.splitlines()) == 1, result.stderr
        return result.stderr.rstrip("\n")

    missing = tmp_path / "missing.json"
    assert says(missing) == f"Erreur{nbsp}: {resume}impossible de lire {missing}{nbsp}: ce fichier n’existe pas"
    assert says(missing, "--lang", "en").endswith(f"cannot read {missing}: there is no such file")
    assert (
        says(tmp_path) == f"Erreur{nbsp}: {resume}impossible de lire {tmp_path}{nbsp}: c’est un dossier, pas un fichier"
    )
    assert says(tmp_path, "--lang", "en").endswith(f"cannot read {tmp_path}: it is a folder, not a file")
    locked = tmp_path / "locked.json"
    locked.write_text(json.dumps(SOLO))

    def refuse(path: Path, *_mode: object, **_options: object) -> object:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(inputs, "open", refuse, raising=False)  # (as root, chmod would not refuse)
    assert says(locked) == f"Erreur{nbsp}: {resume}impossible de lire {locked}{nbsp}: accès refusé"
    assert says(locked, "--lang", "en").endswith(f"cannot read {locked}: permission denied")


def test_play_resume_refuses_a_bad_record_with_exit_status_1(tmp_path: Path) -> None:
    line = refused_cleanly(tmp_path, "play", json.dumps(with_moves("1:done")), "--lang", "en", "--resume")
    assert line.startswith("Error: Cannot resume: move 1 ('1:done') is illegal")


BAD_RECORDS = {
    "a seat in superscript": lambda: json.dumps(with_moves(f"²:{first_move()}")),
    "a seat in Arabic-Indic digits": lambda: json.dumps(with_moves(f"١:{first_move()}")),
    "seat 0": lambda: json.dumps(with_moves(f"0:{first_move()}")),
    "seat -1": lambda: json.dumps(with_moves(f"-1:{first_move()}")),
    "a seat on dice": lambda: json.dumps(with_moves("1:dice w1 y2 b3 g4 o5 p6", dice="external", seed=None)),
    "dice of 9": lambda: json.dumps(with_moves("dice w9 y2 b3 g4 o5 p6", dice="external", seed=None)),
    "a seed in quotes": lambda: json.dumps({**SOLO, "seed": str(SOLO["seed"])}),
    "an unknown field": lambda: json.dumps({**SOLO, "colour": "red"}),
    "nested 5000 deep": lambda: "[" * 5000 + "]" * 5000,
    "too large": lambda: " " * (records.MAX_BYTES + 1),
    "not UTF-8": lambda: "\udcff",
}


@pytest.mark.parametrize("command", ["replay", "analyse", "play"])
@pytest.mark.parametrize("bad", sorted(BAD_RECORDS))
def test_every_command_refuses_every_bad_record_in_one_line(tmp_path: Path, command: str, bad: str) -> None:
    args = ("--resume",) if command == "play" else ()
    content = BAD_RECORDS[bad]()
    path = tmp_path / "input.json"
    path.write_bytes(content.encode("utf-8", "surrogateescape"))
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    result = CliRunner().invoke(main, [command, *args, str(path)])
    assert result.exit_code == 1 and result.stdout == "", result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("Erreur\u00a0: "), result.stderr
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before


# --- the Python API ----------------------------------------------------------------------


def test_a_dice_move_built_in_python_has_its_values_checked() -> None:
    game = new_game()
    for dice in [
        tuple((d, 9) for d in game.dice),
        tuple((d, 0) for d in game.dice),
        tuple((d, True) for d in game.dice),
        tuple((d, 3.0) for d in game.dice),
        (("w", 1), ("x", 2), ("b", 3), ("g", 4), ("o", 5), ("p", 6)),
        (("w", 1),) * 6,
    ]:
        with pytest.raises(IllegalMoveError):
            game.play(Move(MoveKind.DICE, dice=dice))  # type: ignore[arg-type]
        assert not game.is_legal(Move(MoveKind.DICE, dice=dice))  # type: ignore[arg-type]
        assert game.values == [0] * 6 and game.history == [] and game.to_move == CHANCE


def test_dice_given_in_any_order_are_recorded_in_canonical_order() -> None:
    game = new_game()
    game.play(Move(MoveKind.DICE, dice=(("p", 6), ("w", 1), ("y", 2), ("b", 3), ("g", 4), ("o", 5))))
    assert str(game.history[0].move) == "dice w1 y2 b3 g4 o5 p6"


def test_a_dice_move_for_a_player_is_refused() -> None:
    game = new_game(players=2)
    with pytest.raises(IllegalMoveError, match=r"dice are nobody's decision"):
        game.play("dice w1 y2 b3 g4 o5 p6", 0)
    assert game.history == []


def test_chance_plays_no_decision_and_its_example_is_never_empty() -> None:
    game = new_game(players=2)
    with pytest.raises(IllegalMoveError, match=r"such as 'dice w1 y1 b1 g1 o1 p1'"):
        game.play("y@r1c1", CHANCE)
    game.play("dice w1 y2 b3 g4 o5 p6")
    with pytest.raises(IllegalMoveError, match=r"chance .* only gives the dice, and no roll is due now"):
        game.play("y@r3c3", CHANCE)
    assert len(game.history) == 1


# The same on either engine: compiled (mypyc), the engine checks the player itself (issue 72, item 9),
# so that True is not read as 1 and a wrong type is refused in the engine's words, not mypyc's.
@pytest.mark.parametrize("player", ["0", 0.0, True, [0]])
def test_a_player_that_is_not_an_int_is_a_type_error_that_says_so(player: object) -> None:
    game = new_game(players=2)
    game.play("dice w1 y2 b3 g4 o5 p6")
    history = list(game.history)
    with pytest.raises(TypeError, match=r"player is a seat number from 0"):
        game.play("y@r3c3", player)  # type: ignore[arg-type]
    assert not game.is_legal("y@r3c3", player)  # type: ignore[arg-type]
    assert game.history == history


@pytest.mark.parametrize(
    ("players", "seed"),
    [
        (True, None),
        ("2", None),
        (2.0, None),
        (1, "7"),
        (1, 7.5),
    ],
)
def test_a_game_is_built_from_exact_types(players: object, seed: object) -> None:
    with pytest.raises(TypeError):
        Game("tres-fute", players, seed=seed)  # type: ignore[arg-type]


def test_a_move_built_with_loose_types_is_played_as_the_engines_own_move() -> None:
    game = new_game()
    game.play("dice w1 y2 b3 g4 o5 p6")
    loose = Move("pick", "y", "y", (3.0, 3.0))  # type: ignore[arg-type]
    game.play(loose)
    played = game.history[-1].move
    assert type(played.kind) is MoveKind and played.cell == (3, 3) and type(played.cell[0]) is int
    assert str(played) == "y@r3c3"
    assert records.replay(records.loads(records.dumps(records.record_of(game)))).sheets[0].areas == {
        a: s for a, s in game.sheets[0].areas.items()
    }


# --- paper sheets ------------------------------------------------------------------------


@pytest.mark.parametrize("foxes", ["1", True, 1.0, -1, 100])
def test_the_fox_count_is_a_json_number_in_range(foxes: object) -> None:
    with pytest.raises(paper.SheetError, match=r"^not a valid paper sheet: foxes "):
        paper.sheet_from_data({**SHEET, "foxes": foxes})


@pytest.mark.parametrize("cell", ["r1c1\n", "r١c1", "R1C1", " r1c1", "r1c1 ", "r01c1", "r1c1r1c1", "r0c1"])
def test_a_cell_is_written_exactly_r_row_c_column(cell: str) -> None:
    with pytest.raises(paper.SheetError, match=r"is not a markable cell") as error:
        paper.sheet_from_data({"game": "tres-fute", "areas": {"yellow": [cell]}})
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(
    ("areas", "reason"),
    [
        ({"green": True}, "green: the number of crossed boxes"),
        ({"green": 5.0}, "green: the number of crossed boxes"),
        ({"orange": [5, 2.0]}, "orange: the numbers written"),
        ({"orange": [True]}, "orange: the numbers written"),
    ],
)
def test_sheet_numbers_are_json_numbers(areas: dict, reason: str) -> None:
    with pytest.raises(paper.SheetError, match=reason):
        paper.sheet_from_data({"game": "tres-fute", "areas": areas})


def test_a_crossed_cell_given_twice_is_refused() -> None:
    with pytest.raises(paper.SheetError, match=r"r1c2 is given twice"):
        paper.sheet_from_data({"game": "vraiment-tres-fute", "areas": {"yellow": {"crossed": ["r1c2", "r1c2"]}}})


def test_score_speaks_french_and_prints_no_raw_newline(tmp_path: Path) -> None:
    content = json.dumps({"game": "tres-fute", "areas": {"yellow": ["r1c2", "r1c2\n"]}})
    line = refused_cleanly(tmp_path, "score", content)
    nbsp = "\u00a0"
    expected = f"jaune{nbsp}: 'r1c2\\n' n’est pas une case que l’on peut cocher "
    expected += f"(les cases se nomment comme «{nbsp}r2c3{nbsp}»)"
    assert line == "Erreur\u00a0: " + expected
    line = refused_cleanly(tmp_path, "score", json.dumps({"game": "tres-fute", "areas": {"yellow": ["r1c2"] * 2}}))
    assert line == f"Erreur{nbsp}: jaune{nbsp}: r1c2 est donnée deux fois"


@pytest.mark.parametrize(
    "content",
    ["[" * 5000 + "]" * 5000, '{"game": "tres-fute", "areas": ' + "[" * 3000 + "]" * 3000 + "}", "{", "", "\xff"],
)
def test_score_refuses_a_broken_file_in_one_line(tmp_path: Path, content: str) -> None:
    refused_cleanly(tmp_path, "score", content)

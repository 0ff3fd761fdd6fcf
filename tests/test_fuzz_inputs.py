"""Property-based tests of every reader (Hypothesis): legal play round-trips through the record
format; a mutated record or sheet is refused cleanly or read as exactly what it says; the
command line's readers, fed mutated files, answer with one line or a result, never a traceback.

The suite tries ``TRESFUTE_FUZZ_EXAMPLES`` examples per test (100 by default: a few seconds);
``TRESFUTE_FUZZ_EXAMPLES=100000 pytest tests/test_fuzz_inputs.py`` is the long run.
"""

from __future__ import annotations

import json
import os
import random
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from test_sheets_possible import paper_of
from tresfute import paper, records
from tresfute.bots.strong import roll_own_dice
from tresfute.cli import main
from tresfute.rules import CHANCE, SPECS, Game, parse_move
from tresfute.rules.kinds import AREA_NAMES, Grid

EXAMPLES = int(os.environ.get("TRESFUTE_FUZZ_EXAMPLES", "100"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
)
GAMES = sorted(SPECS)


def _played(game_id: str, players: int, seed: int, external: bool, steps: int | None) -> Game:
    """A game after ``steps`` random decisions (to the end if None), seeded or with dice from outside."""
    game = Game(game_id, players=players, dice="external") if external else Game(game_id, players, seed=seed)
    rng = random.Random(seed)
    count = 0
    while not game.is_over and (steps is None or count < steps):
        if game.to_move == CHANCE:
            roll_own_dice(game, rng)
        else:
            game.play(rng.choice(game.legal_moves()))
        count += 1
    return game


# --- legal play round-trips ------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
@FUZZ
@given(
    players=st.integers(1, 4),
    seed=st.integers(0, 2**63 - 1),
    external=st.booleans(),
    steps=st.none() | st.integers(0, 400),
)
def test_any_legal_play_round_trips_through_a_record(
    game_id: str, players: int, seed: int, external: bool, steps: int | None
) -> None:
    game = _played(game_id, players, seed, external, steps)
    text = records.dumps(records.record_of(game, [f"P{i}" for i in range(players)]))
    replayed = records.replay(records.loads(text))
    assert replayed.view() == game.view()
    assert replayed.moves_played() == game.moves_played()
    assert replayed.history == game.history


# --- mutations -------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
# Characters that look like what a reader expects but are not: digits of other scripts,
# superscripts, full-width forms, spaces and newlines, the notation's own signs.
TRICKY = st.sampled_from([*"0123456789²١１ \n\t:@>~+!=rcwsybgopkRC-.e", "\u00a0", "\u200b", "\x00"])
EDIT_CHARS = TRICKY | st.characters()


def _paths(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            found += _paths(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            found += _paths(value, (*path, i))
    return found


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        data = data[part]
    return data


@st.composite
def mutated(draw: st.DrawFn, data: Any) -> Any:
    """``data`` (parsed JSON) with one to three edits: a value replaced, removed or added, or a
    string edited character by character."""
    data = json.loads(json.dumps(data))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(data)))
        kind = draw(st.sampled_from(["replace", "remove", "add", "edit", "edit"]))
        parent = _get(data, path[:-1]) if path else None
        node = _get(data, path)
        if kind == "edit" and isinstance(node, str) and path:
            i = draw(st.integers(0, len(node)))
            j = draw(st.integers(i, min(len(node), i + 2)))
            parent[path[-1]] = node[:i] + draw(st.text(EDIT_CHARS, max_size=2)) + node[j:]
        elif kind == "edit" and isinstance(node, int) and not isinstance(node, bool) and path:
            parent[path[-1]] = node + draw(st.sampled_from([-1, 1, -(2**64), 2**64, 7]))
        elif kind == "remove" and path:
            del parent[path[-1]]
        elif kind == "add" and isinstance(node, dict):
            node[draw(st.text(max_size=8) | st.sampled_from(["game", "moves", "seed", "foxes", "areas"]))] = draw(
                JSON_VALUES
            )
        elif kind == "add" and isinstance(node, list):
            node.insert(draw(st.integers(0, len(node))), draw(JSON_VALUES))
        elif path:
            parent[path[-1]] = draw(JSON_VALUES)
        else:
            data = draw(JSON_VALUES)
    return data


def _base_records() -> list[dict[str, Any]]:
    solo = json.loads((Path(__file__).parent.parent / "examples" / "solo-game.json").read_text())
    in_progress = records.record_of(_played("vraiment-tres-fute", 2, 5, True, 60), ["Ana", "Bo"])
    finished = records.record_of(_played("tres-fute", 3, 6, False, None), ["A", "B", "C"], ["random", None, "greedy"])
    return [solo, json.loads(records.dumps(in_progress)), json.loads(records.dumps(finished))]


RECORDS = _base_records()


def _read_as_it_says(data: Any, record: records.Record) -> None:
    """An accepted record holds exactly the data given, and replays its moves as written."""
    assert record.model_dump(exclude_unset=True, mode="json") == data
    try:
        game = records.replay(record)
    except records.RecordError:
        event("accepted, not replayed")
        return
    event("accepted and replayed")
    played = game.moves_played()
    assert len(played) == len(record.moves)
    for entry, done in zip(record.moves, played, strict=True):
        player, text = records.split_entry(entry, len(record.players))
        assert done.move == parse_move(text)
        assert done.player == (CHANCE if player is None else player)


@FUZZ
@given(data=st.data(), base=st.sampled_from(range(len(RECORDS))))
def test_a_mutated_record_is_refused_or_read_as_it_says(data: st.DataObject, base: int) -> None:
    given_data = data.draw(mutated(RECORDS[base]))
    try:
        record = records.loads(json.dumps(given_data, ensure_ascii=data.draw(st.booleans())))
    except records.RecordError as error:
        event("refused")
        assert str(error)
        return
    event("accepted")
    _read_as_it_says(given_data, record)


@FUZZ
@given(text=st.text(EDIT_CHARS, max_size=40), base=st.sampled_from(range(len(RECORDS))), at=st.integers(0, 10**6))
def test_a_record_file_with_bytes_changed_is_refused_or_read_as_it_says(text: str, base: int, at: int) -> None:
    original = records.dumps(records.from_data(RECORDS[base]))
    at %= len(original) + 1
    changed = original[:at] + text + original[at + len(text) // 2 :]
    try:
        record = records.loads(changed)
    except records.RecordError:
        event("refused")
        return
    event("accepted")
    _read_as_it_says(json.loads(changed), record)


SHEETS = [
    json.loads((Path(__file__).parent.parent / "examples" / name).read_text())
    for name in ("tres-fute-sheet.json", "vraiment-tres-fute-sheet.json")
]


def _marks_as_given(given: dict[str, Any], sheet: Any) -> None:
    """An accepted sheet holds exactly the marks given (cells as sets, tracks as written)."""
    written = paper_of(sheet)["areas"]
    for name, value in given.get("areas", {}).items():
        area = sheet.spec.areas[next(a for a, n in AREA_NAMES.items() if n == name)]
        if isinstance(area, Grid) and area.marks == 2:
            circled = set(value.get("circled", [])) | set(value.get("crossed", []))
            assert set(written[name]["circled"]) == circled
            assert set(written[name]["crossed"]) == set(value.get("crossed", []))
        elif isinstance(area, Grid):
            assert set(written[name]) == set(value) and len(value) == len(set(value))
        else:
            assert written[name] == value
    for letter, state in sheet.areas.items():
        if AREA_NAMES[letter] not in given.get("areas", {}):
            assert not any(state), "an area not given is empty"


@FUZZ
@given(data=st.data(), base=st.sampled_from(range(len(SHEETS))))
def test_a_mutated_sheet_is_refused_or_read_as_it_says(data: st.DataObject, base: int) -> None:
    given_data = data.draw(mutated(SHEETS[base]))
    try:
        spec, sheet = paper.load_sheet(json.dumps(given_data, ensure_ascii=data.draw(st.booleans())))
    except paper.SheetError as error:
        event("refused")
        assert str(error)
        return
    event("accepted")
    assert spec.id == given_data["game"]
    assert set(given_data) <= {"game", "areas", "foxes"}
    if given_data.get("foxes") is not None:  # null, as absent: no count to check
        assert given_data["foxes"] == len(sheet.foxes)
    _marks_as_given(given_data, sheet)


# --- the command line ------------------------------------------------------------------


def _one_line_or_result(args: list[str]) -> None:
    result = CliRunner().invoke(main, args)
    event(f"exit {result.exit_code}")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    if result.exit_code == 0:
        assert result.stdout
    else:
        assert result.exit_code == 1 and result.stdout == ""
        assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith(("Error: ", "Erreur\u00a0: "))


@FUZZ
@given(data=st.data(), base=st.sampled_from(range(len(RECORDS) + len(SHEETS))), lang=st.sampled_from(["fr", "en"]))
def test_the_command_line_readers_answer_one_line_or_a_result(
    tmp_path: Path, data: st.DataObject, base: int, lang: str
) -> None:
    command, source = ("replay", RECORDS[base]) if base < len(RECORDS) else ("score", SHEETS[base - len(RECORDS)])
    text = json.dumps(data.draw(mutated(source)))
    if data.draw(st.booleans()):
        at = data.draw(st.integers(0, len(text)))
        text = text[:at] + data.draw(st.text(EDIT_CHARS, max_size=4)) + text[at + 1 :]
    path = tmp_path / "fuzz.json"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    _one_line_or_result([command, "--lang", lang, str(path)])
    assert path.read_bytes() == text.encode("utf-8", "surrogatepass"), "the file is left as it was"


# --- hostile records (issue 54) ----------------------------------------------------------
# What a hostile tester fed the readers: a key given twice, Unicode spaces and line breaks
# around a move, numbers thousands of digits long, JSON nested thousands deep, control
# characters and terminal escapes in names, code or files named as a seat's computer player.
# Each reader refuses with one clear sentence or reads what is written; never another exception.

UNICODE_SPACES = st.sampled_from(["\u00a0", "\u2028", "\u2029", "\u3000", "\u200b", "\x85", "\u2009", "\ufeff", " "])
CONTROLS = st.sampled_from(
    ["\x1b[2J", "\x1b]0;pwned\x07", "\x1b[31m", "\x00", "\x07", "\x08", "\r", "\x9b2J", "\u202e"]
)
HOSTILE_BOTS = st.sampled_from(["skynet", "ppo:", "ppo:/nonexistent.zip", "ppo:/etc/hostname", "../../etc/passwd"])


def _json(text: str) -> Any:
    """The text as Python's JSON reader reads it (a repeated key: the last), numbers of any length."""
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return json.loads(text)
    finally:
        sys.set_int_max_str_digits(limit)


@st.composite
def hostile_record_text(draw: st.DrawFn) -> str:
    """A base record's JSON text with one of the hostile tester's changes."""
    data = json.loads(json.dumps(RECORDS[draw(st.sampled_from(range(len(RECORDS))))]))
    kind = draw(st.sampled_from(["twice", "spaces", "digits", "nested", "controls", "bots"]))
    event(f"hostile: {kind}")
    if kind == "spaces" and data["moves"]:
        i = draw(st.integers(0, len(data["moves"]) - 1))
        entry = data["moves"][i]
        seat, _, move = entry.rpartition(":") if not entry.startswith("dice ") else ("", "", entry)
        before, after = draw(st.text(UNICODE_SPACES, max_size=2)), draw(st.text(UNICODE_SPACES, max_size=2))
        where = draw(st.sampled_from(["around the entry", "after the seat"]))
        data["moves"][i] = (
            before + entry + after if where == "around the entry" or not seat else f"{seat}:{before}{move}{after}"
        )
    elif kind == "controls":
        i = draw(st.integers(0, len(data["players"]) - 1))
        data["players"][i] = "".join(draw(st.lists(CONTROLS | st.sampled_from(["A", "na"]), min_size=1, max_size=4)))
    elif kind == "bots":
        data["bots"] = [draw(HOSTILE_BOTS | st.none()) for _ in data["players"]]
    text = json.dumps(data, ensure_ascii=draw(st.booleans()))
    if kind == "twice":  # a key given a second time, with another value, first or last
        key = draw(st.sampled_from(sorted(data)))
        other = json.dumps(draw(JSON_VALUES | st.sampled_from(["tres-fute", "vraiment-tres-fute", 1, [], "seeded"])))
        text = (
            "{" + f"{json.dumps(key)}: {other}, " + text[1:]
            if draw(st.booleans())
            else text[:-1] + f", {json.dumps(key)}: {other}}}"
        )
    elif kind == "digits":  # a value replaced by a number thousands of digits long
        key = draw(st.sampled_from(sorted(data)))
        digits = draw(st.sampled_from(["9", "1", "-1", "0.", "1e"])) + "9" * draw(st.integers(1, 12_000))
        text = (
            text[:-1] + f", {json.dumps(key)}: {digits}}}"
            if key not in ("moves",)
            else text.replace('"moves": [', f'"moves": [{digits}, ', 1)
        )
    elif kind == "nested":  # a value replaced by arrays or objects nested deep
        depth = draw(st.integers(1, 200_000))
        opening, closing = ("[", "]") if draw(st.booleans()) else ('{"a":', "}")
        text = (
            text[:-1] + f', "{draw(st.sampled_from(sorted(data)))}": ' + opening * depth + "0" + closing * depth + "}"
        )
    return text


@FUZZ
@given(text=hostile_record_text())
def test_a_hostile_record_is_refused_in_one_sentence_or_read_as_it_says(text: str) -> None:
    try:
        record = records.loads(text)
    except records.RecordError as error:
        event("refused")
        assert str(error) and "\n" not in str(error)
        return
    event("accepted")
    _read_as_it_says(_json(text), record)


@FUZZ
@given(text=hostile_record_text(), lang=st.sampled_from(["fr", "en"]))
def test_the_command_line_answers_a_hostile_record_in_one_line_or_a_result(
    tmp_path: Path, text: str, lang: str
) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="utf-8")
    _one_line_or_result(["replay", "--lang", lang, str(path)])


# --- hostile records (issue 54) ------------------------------------------------------------
# These hold the readers (records and the command line) to issue 54's fixes: each failed on the
# code before them.
TERMINAL_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _refusal(text: str) -> str:
    with pytest.raises(records.RecordError) as refused:
        records.loads(text)
    return str(refused.value)


@FUZZ
@given(data=st.data(), base=st.sampled_from(range(len(RECORDS))))
def test_issue_54_a_record_with_a_key_given_twice_is_refused(data: st.DataObject, base: int) -> None:
    record = RECORDS[base]
    key = data.draw(st.sampled_from(sorted(record)))
    text = json.dumps(record)
    _refusal(text[:-1] + f", {json.dumps(key)}: {json.dumps(record[key])}}}")  # even with the same value


@FUZZ
@given(data=st.data(), space=UNICODE_SPACES.filter(lambda c: c != " "))
def test_issue_54_unicode_spaces_around_a_move_are_refused(data: st.DataObject, space: str) -> None:
    record = json.loads(json.dumps(RECORDS[0]))
    i = data.draw(st.integers(0, len(record["moves"]) - 1))
    seat, _, move = record["moves"][i].partition(":")
    record["moves"][i] = data.draw(st.sampled_from([f"{seat}:{move}{space}", f"{seat}:{space}{move}"]))
    _refusal(json.dumps(record))


@FUZZ
@given(digits=st.integers(4_400, 20_000), key=st.sampled_from(["seed", "format", "extra"]))
def test_issue_54_a_number_thousands_of_digits_long_is_not_called_invalid_json(digits: int, key: str) -> None:
    invalid_json = _refusal('{"game": tres-fute}').split(" (")[0]  # what a file that is not JSON is told
    text = json.dumps(RECORDS[1])[:-1] + f', "{key}": {"9" * digits}}}'
    assert invalid_json not in _refusal(text)


@FUZZ
@given(bots=st.lists(HOSTILE_BOTS, min_size=3, max_size=3))
def test_issue_54_a_record_names_only_built_in_computer_players(bots: list[str]) -> None:
    record = json.loads(json.dumps(RECORDS[2]))  # three players
    record["bots"] = bots
    _refusal(json.dumps(record))


@FUZZ
@given(
    names=st.lists(st.lists(CONTROLS | st.sampled_from(["A", "na"]), min_size=1, max_size=4), min_size=3, max_size=3)
)
def test_issue_54_replay_writes_no_terminal_control_from_a_name(tmp_path: Path, names: list[list[str]]) -> None:
    record = json.loads(json.dumps(RECORDS[2]))
    record["players"] = ["".join(name) for name in names]
    path = tmp_path / "names.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", "--lang", "en", str(path)])
    assert not TERMINAL_CONTROLS.search(result.stdout + result.stderr)

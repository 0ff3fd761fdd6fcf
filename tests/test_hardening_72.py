"""Issue 72, outside the server: ``analyse`` refuses an illegal move as ``replay`` does (item 4),
the environments read a record file as the command does, bounded (item 5), the compiled engine
raises the plain one's errors (item 9: these tests run on whichever engine is installed, and CI
runs the whole suite on the compiled one, ``TRESFUTE_COMPILED_TESTS=required``), and an
environment's action is a whole number, never one made of ``1.5`` or ``"3"`` (item 11)."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from tresfute import records
from tresfute.cli import main
from tresfute.envs.gym_env import TresFuteEnv
from tresfute.envs.pz_env import parallel_env, raw_env
from tresfute.envs.vector import BatchedTresFuteEnv
from tresfute.rules import Game, IllegalMoveError, RulesError, game_rules
from tresfute.rules.game import get_spec

EXAMPLE = Path(__file__).parent.parent / "examples" / "solo-game.json"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


# --- item 4: analyse --move N of an illegal move ------------------------------------------------


def _record_with_an_illegal_move_4(tmp_path: Path) -> Path:
    data = json.loads(EXAMPLE.read_text())
    data["moves"][3] = "1:y@r1c1"  # yellow r1c1 shows 3 in that position: the die shows 2
    del data["result"]
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_analyse_refuses_an_illegal_move_in_the_words_and_status_of_replay(tmp_path: Path, lang: str) -> None:
    path = _record_with_an_illegal_move_4(tmp_path)
    replayed = run("replay", str(path), "--lang", lang)
    assert replayed[0] == 1 and "Traceback" not in replayed[1]
    for extra in ((), ("--json",), ("--all",)):
        assert run("analyse", str(path), "--move", "4", "--lang", lang, *extra) == replayed
    if lang == "en":
        assert replayed[1] == "Error: move 4 ('1:y@r1c1') is illegal: yellow r1c1 shows 3, not 2\n"


def test_analyse_of_a_legal_move_before_the_illegal_one_still_runs(tmp_path: Path) -> None:
    """Only the moves up to the one analysed are checked: the position of move 3 is analysed."""
    code, out = run("analyse", str(_record_with_an_illegal_move_4(tmp_path)), "--move", "3", "--json")
    assert code == 0, out
    assert [row["played"] for row in json.loads(out)["moves"]].count(True) == 1


# --- item 5: a record path read bounded -------------------------------------------------------


def _state(env: TresFuteEnv) -> records.Record:
    return records.record_of(env.game)


def test_an_environment_refuses_a_record_file_too_large_before_reading_it(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with open(big, "wb") as file:
        file.truncate(64 << 20)  # sparse: 64 MB that take no disk
    env = TresFuteEnv()
    env.reset(seed=1)
    before = _state(env)
    tracemalloc.start()
    try:
        with pytest.raises(records.RecordError) as refused:
            env.reset(options={"record": big})
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert str(refused.value) == "not a valid record: the file is too large: at most 1048576 bytes"
    assert peak < 8 << 20, f"{peak} bytes held to refuse it"
    assert _state(env) == before


def test_an_environment_reads_a_record_file_as_the_command_does(tmp_path: Path) -> None:
    """The same reading (``records.load``): a file that is not a record, or no file, says so."""
    env = TresFuteEnv()
    env.reset(seed=1)
    before = _state(env)
    folder, empty = tmp_path / "folder", tmp_path / "empty.json"
    folder.mkdir()
    empty.write_bytes(b"")
    for path, reason in [
        (empty, "not a valid record: the file is empty"),
        (folder, f"cannot read {folder}: it is a folder, not a file"),
        (tmp_path / "none.json", f"cannot read {tmp_path / 'none.json'}: there is no such file"),
    ]:
        with pytest.raises(records.RecordError) as refused:
            env.reset(options={"record": str(path)})
        assert str(refused.value) == reason
        assert _state(env) == before


@pytest.mark.skipif(not Path("/dev/zero").exists() or not hasattr(os, "mkfifo"), reason="no /dev/zero or pipes")
def test_an_environment_refuses_a_device_or_a_pipe_under_a_memory_limit(tmp_path: Path) -> None:
    """``/dev/zero`` (read whole, it was a MemoryError after 2.6 GB) and a pipe nobody writes to
    (opened, it would wait forever): refused before they are opened, in a process limited to
    2 GB of address space."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    script = (
        "import sys\n"
        "from tresfute import records\n"
        "from tresfute.envs.gym_env import TresFuteEnv\n"
        "env = TresFuteEnv()\n"
        "for path in sys.argv[1:]:\n"
        "    try:\n"
        "        env.reset(options={'record': path})\n"
        "    except records.RecordError as exc:\n"
        "        print(exc)\n"
    )

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    done = subprocess.run(
        [sys.executable, "-c", script, "/dev/zero", str(pipe)],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limited,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "cannot read the record '/dev/zero': it is not a regular file",
        f"cannot read the record {str(pipe)!r}: it is not a regular file",
    ]


# --- item 9: the same errors from both engines --------------------------------------------------

_GAME = Game("tres-fute", 2, seed=1)
_FIRST = _GAME.legal_moves()[0]
_SEAT = "player is a seat number from 0 (an int) or None, not {}"

WRONG_TYPES: list[tuple[str, Callable[[], object], type[Exception], str]] = [
    (
        "Game(rules={1: True})",
        lambda: Game("tres-fute", rules={1: True}),  # type: ignore[dict-item]
        RulesError,
        "has no rules options, not 1",
    ),
    (
        "Game(vtf, rules={1: True})",
        lambda: Game("vraiment-tres-fute", rules={1: True}),  # type: ignore[dict-item]
        RulesError,
        "has no rule 1: its rules are reprise_with_no_die_left",
    ),
    (
        "game_rules(vtf, {None: True})",
        lambda: game_rules("vraiment-tres-fute", {None: True}),  # type: ignore[dict-item]
        RulesError,
        "has no rule None",
    ),
    ("Game(123)", lambda: Game(123), ValueError, "unknown game 123: choose one of tres-fute, vraiment-tres-fute"),
    ("game_rules(1)", lambda: game_rules(1), ValueError, "unknown game 1: choose one of tres-fute, vraiment-tres-fute"),
    ("get_spec(['tres-fute'])", lambda: get_spec(["tres-fute"]), ValueError, "unknown game ['tres-fute']"),
    ("Game(dice=1)", lambda: Game("tres-fute", dice=1), ValueError, "dice must be 'seeded' or 'external', not 1"),
    ("play(123)", lambda: _GAME.copy().play(123), IllegalMoveError, "not a move: 123"),
    ("play(None)", lambda: _GAME.copy().play(None), IllegalMoveError, "not a move: None"),
    ("play(b'y@r1c1')", lambda: _GAME.copy().play(b"y@r1c1"), IllegalMoveError, "not a move: b'y@r1c1'"),
    ("play(move, True)", lambda: _GAME.copy().play(_FIRST, True), TypeError, _SEAT.format("bool")),
    ("play(move, 0.0)", lambda: _GAME.copy().play(_FIRST, 0.0), TypeError, _SEAT.format("float")),
    ("legal_moves('0')", lambda: _GAME.legal_moves("0"), TypeError, _SEAT.format("str")),
    ("legal_moves(True)", lambda: _GAME.legal_moves(True), TypeError, _SEAT.format("bool")),
]


@pytest.mark.parametrize(("call", "error", "words"), [w[1:] for w in WRONG_TYPES], ids=[w[0] for w in WRONG_TYPES])
def test_a_wrong_type_at_the_engine_s_entry_is_the_same_error_on_either_engine(
    call: Callable[[], object], error: type[Exception], words: str
) -> None:
    """The plain engine's own error, not mypyc's ``TypeError`` of its argument check (which says
    ``union[Move, str] object expected; got int``); compiled, True is not taken for 1 either."""
    with pytest.raises(Exception) as raised:
        call()
    assert type(raised.value) is error and words in str(raised.value), repr(raised.value)
    assert "object expected" not in str(raised.value)


def test_a_wrong_type_changes_nothing_and_is_never_legal() -> None:
    game = Game("tres-fute", 2, seed=1)
    before = [str(h.move) for h in game.history]
    for move in (123, None, b"y@r1c1", 1.5):
        with pytest.raises(IllegalMoveError):
            game.play(move)  # type: ignore[arg-type]
        assert not game.is_legal(move)  # type: ignore[arg-type]
    assert [str(h.move) for h in game.history] == before


# --- item 11: an action is a whole number --------------------------------------------------------

NOT_ACTIONS: list[Any] = [1.5, 2.0, "3", True, np.bool_(True), np.float64(2.0), np.array([2]), np.array(2.0), None]


def _is_refusal(text: str, action: object) -> bool:
    """The refusal names the range and the action's type."""
    kind = "array of" if isinstance(action, np.ndarray) else type(action).__name__
    return "an action is a whole number from 0 to 143" in text and f"({kind}" in text


@pytest.mark.parametrize("action", NOT_ACTIONS, ids=repr)
def test_gymnasium_refuses_an_action_that_is_not_a_whole_number(action: object) -> None:
    env = TresFuteEnv()
    _obs, info = env.reset(seed=3)
    before = _state(env)
    _obs, reward, done, _t, info = env.step(action)  # type: ignore[arg-type]
    assert (reward, done) == (0.0, False) and _is_refusal(info["illegal_action"], action), info["illegal_action"]
    assert _state(env) == before
    strict = TresFuteEnv(illegal="raise")
    strict.reset(seed=3)
    with pytest.raises(TypeError) as refused:
        strict.step(action)  # type: ignore[arg-type]
    assert _is_refusal(str(refused.value), action)
    assert _state(strict) == before


@pytest.mark.parametrize("kind", [int, np.int64, np.uint8, np.array])
def test_gymnasium_takes_python_and_numpy_integers(kind: Callable[[int], object]) -> None:
    env, other = TresFuteEnv(), TresFuteEnv()
    _obs, info = env.reset(seed=3)
    other.reset(seed=3)
    action = int(np.flatnonzero(info["action_mask"])[0])
    assert "illegal_action" not in env.step(kind(action))[4]  # type: ignore[arg-type]
    other.step(action)
    assert _state(env) == _state(other) != records.record_of(Game("tres-fute", 1, seed=0))


@pytest.mark.parametrize("action", NOT_ACTIONS, ids=repr)
def test_pettingzoo_refuses_an_action_that_is_not_a_whole_number(action: object) -> None:
    aec = raw_env("tres-fute", 2)
    aec.reset(seed=3)
    before = records.record_of(aec.game)
    aec.step(action)  # type: ignore[arg-type]
    assert _is_refusal(aec.infos[aec.agent_selection]["illegal_action"], action)
    assert records.record_of(aec.game) == before
    parallel = parallel_env("tres-fute", 2)
    parallel.reset(seed=3)
    agent = parallel.possible_agents[parallel.game.to_move]  # type: ignore[index]
    _obs, _rewards, _ends, _cuts, infos = parallel.step({agent: action})
    assert _is_refusal(infos[agent]["illegal_action"], action)
    assert records.record_of(parallel.game) == before


@pytest.mark.parametrize("action", NOT_ACTIONS, ids=repr)
def test_the_vector_environment_refuses_an_action_that_is_not_a_whole_number(action: object) -> None:
    batch = BatchedTresFuteEnv(num_envs=2)
    batch.reset(seed=3)
    good = int(np.flatnonzero(batch.action_masks()[1])[0])
    before = [records.record_of(g) for g in batch.games]
    with pytest.raises(TypeError) as refused:
        batch.step([good, action])
    assert str(refused.value).startswith("game 1: ") and _is_refusal(str(refused.value), action)
    with pytest.raises(TypeError, match=r"not array\(\[3\., 3\.\]\) \(array of float64, shape \(2,\)\)"):
        batch.step(np.array([3, 3], dtype=float))
    assert [records.record_of(g) for g in batch.games] == before


def test_the_vector_environment_takes_integer_arrays_and_lists_of_integers() -> None:
    batches = [BatchedTresFuteEnv(num_envs=2) for _ in range(4)]
    for batch in batches:
        batch.reset(seed=3)
    good = [int(np.flatnonzero(mask)[0]) for mask in batches[0].action_masks()]
    for batch, actions in zip(
        batches,
        [good, np.array(good, dtype=np.uint8), [np.int64(good[0]), np.array(good[1])], np.array(good, dtype=object)],
        strict=True,
    ):
        batch.step(actions)
    assert len({json.dumps([records.dumps(records.record_of(g)) for g in b.games]) for b in batches}) == 1
    with pytest.raises(ValueError, match=f"action {10**30} is not legal in game 0"):  # no overflow, its value said
        batches[0].step([10**30, good[1]])


def test_openspiel_refuses_an_action_that_is_not_a_whole_number() -> None:
    try:
        import tresfute.envs.openspiel as spiel
    except ImportError:
        if os.environ.get("TRESFUTE_OPENSPIEL_TESTS") == "required":
            raise
        pytest.skip("open-spiel is not installed (pip install -e '.[openspiel]')")
    state = spiel.TresFuteGame({"players": 1}).new_initial_state()
    for action in (1.5, "3", True, 6, 100):  # at a die's roll: faces 0 to 5
        with pytest.raises((TypeError, ValueError)) as refused:
            state.apply_action(action)
        assert "from 0 to 63" in str(refused.value) or "not one of this chance node's outcomes" in str(refused.value)
        assert state.history() == []
    state.apply_action(np.int64(2))
    while state.is_chance_node():
        state.apply_action(np.array(state.chance_outcomes()[0][0]))
    history = state.history()
    for action in NOT_ACTIONS:
        with pytest.raises(TypeError, match="an action is a whole number from 0 to 143"):
            state.apply_action(action)
        assert state.history() == history
    state.apply_action(np.int32(state.legal_actions()[0]))
    assert len(state.history()) == len(history) + 1

"""The strong player's value network: its inputs, its value, its files, and its training.
(Strength is measured by `tresfute bench`, not by tests.)"""

from __future__ import annotations

import random
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

import numpy as np
import pytest

from tresfute.bots import network as network_module
from tresfute.bots.network import (
    ValueNetwork,
    _encoder,
    _first_shipped,
    finished_for,
    network_alone,
    network_file,
    network_for,
    reading_of,
    shipped_network,
    table_network,
    valuation_network,
)
from tresfute.bots.strong import StrongBot, afterstates
from tresfute.bots.training import (
    Job,
    Settings,
    final_network,
    load_checkpoint,
    new_state,
    play_games,
    play_opening,
    run,
)
from tresfute.rules import SPECS, Game
from tresfute.simulate import derived_seed

from helpers import position

GAMES = ["tres-fute", "vraiment-tres-fute"]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_position_gives_one_named_input_per_place(game_id: str) -> None:
    """Random games of 1 to 4 players: every player's inputs have the encoder's length, are
    finite, and the score the encoder counts from its areas' points is the rules' score."""
    encoder = _encoder(game_id)
    assert len(encoder.names) == len(set(encoder.names)) == encoder.size
    rng = random.Random(4)
    for seed in range(6):
        game = Game(game_id, players=1 + seed % 4, seed=seed)
        while not game.is_over:
            for player in range(game.n_players):
                x = encoder.encode(game, player)
                assert len(x) == encoder.size and all(np.isfinite(x))
                assert encoder.parts(game, player)[1] == game.score(player).total
            game.play(rng.choice(game.legal_moves()))


def test_the_inputs_name_what_the_sheet_holds() -> None:
    """Every yellow 6 crossed: a yellow die can no longer use a 6; two purple numbers ending on 5:
    the next purple number must be a 6 (or anything after a 6)."""
    game = Game("tres-fute", seed=3)
    yellow = game.spec.areas["y"]
    sixes = {f"r{yellow.cells[c].row}c{yellow.cells[c].col}": 1 for c in yellow.cells_by_value[6]}
    game = position(game, y=sixes, p=[3, 5])
    inputs = dict(zip(_encoder("tres-fute").names, _encoder("tres-fute").encode(game, 0), strict=True))
    assert inputs["y takes 6"] == 0 and inputs["y takes 5"] == 1
    assert inputs["p boxes 2"] == 1 and inputs["p last 5"] == 1
    assert inputs["p takes 6"] == 1 and inputs["p takes 5"] == 0
    assert inputs["rounds left 5"] == 1, "round 1 of 6"
    assert inputs["die y in hand x openness"] == pytest.approx(5 / 6), "a yellow die still to roll"


def test_the_action_inputs_follow_the_sheet_even_past_the_printed_circles() -> None:
    """The inputs of the action tracks come from pieces packed for the printed circles; a sheet
    set by hand past them is still encoded (the count capped in the one-hot, the share past 1)."""
    game = Game("tres-fute", seed=4)
    encoder = _encoder("tres-fute")
    track = game.spec.actions[0]
    sheet = game.sheets[0]
    sheet.earned[track.action] = 2
    inputs = dict(zip(encoder.names, encoder.encode(game, 0), strict=True))
    assert inputs[f"{track.action} available 2"] == 1 and inputs[f"{track.action} available 1"] == 0
    assert inputs[f"{track.action} earned"] == pytest.approx(2 / track.circles)
    sheet.earned[track.action] = track.circles + 3
    inputs = dict(zip(encoder.names, encoder.encode(game, 0), strict=True))
    assert inputs[f"{track.action} available {track.circles}"] == 1
    assert sum(inputs[f"{track.action} available {n}"] for n in range(track.circles + 1)) == 1
    assert inputs[f"{track.action} earned"] == pytest.approx((track.circles + 3) / track.circles)
    network = shipped_network("tres-fute")
    assert network.values([game], 0)[0] == pytest.approx(network.evaluate([game], 0)[0][0], abs=1e-3)


def test_a_finished_game_is_worth_its_score_and_a_running_one_its_score_plus_the_forecast() -> None:
    network = ValueNetwork.initial("tres-fute", seed=1)  # the last layer starts at zero
    game = Game("tres-fute", seed=5)
    rng = random.Random(5)
    while game.round < 3:
        game.play(rng.choice(game.legal_moves()))
    assert network.value(game, 0) == game.score(0).total, "no forecast yet: the score now"
    w, b = network.layers[-1]
    network.layers[-1] = (w, b + 0.5)  # forecast: 50 more points
    assert network.value(game, 0) == pytest.approx(game.score(0).total + 50)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    assert network.value(game, 0) == game.score(0).total


def test_a_network_file_round_trips_and_a_bad_one_is_refused(tmp_path: Path) -> None:
    network = ValueNetwork.initial("vraiment-tres-fute", hidden=(16, 8), seed=2)
    network.info = {"made by": "test"}
    path = tmp_path / "n.npz"
    network.save(path)
    again = ValueNetwork.load(path)
    assert again.info == {"made by": "test"} and again.spec_id == "vraiment-tres-fute"
    for (w, b), (w2, b2) in zip(network.layers, again.layers, strict=True):
        assert np.array_equal(w, w2) and np.array_equal(b, b2)
    (tmp_path / "bad.npz").write_bytes(b"not a network")
    with pytest.raises(ValueError, match="not a tresfute-network/1 file"):
        ValueNetwork.load(tmp_path / "bad.npz")
    with pytest.raises(ValueError, match="inputs"):  # a Très futé network's shapes, named otherwise
        ValueNetwork("vraiment-tres-fute", ValueNetwork.initial("tres-fute").layers)


def test_an_averaged_network_values_each_position_at_the_mean_of_its_members() -> None:
    members = [ValueNetwork.initial("tres-fute", hidden=(12, 8), seed=k) for k in range(3)]
    for k, member in enumerate(members):  # outputs that differ: the last layers are not zero
        w, b = member.layers[-1]
        member.layers[-1] = (w + 0.1 * (k + 1), b + k)
    averaged = ValueNetwork.average(members, {"members": 3})
    inputs = np.random.default_rng(0).random((7, _encoder("tres-fute").size), dtype=np.float32)
    expected = np.mean([m.forward(inputs) for m in members], axis=0)
    assert np.allclose(averaged.forward(inputs), expected, atol=1e-5)
    assert averaged.info == {"members": 3}
    with pytest.raises(ValueError, match="one game"):
        ValueNetwork.average([members[0], ValueNetwork.initial("vraiment-tres-fute")])


@pytest.mark.parametrize("game_id", SPECS)
def test_the_fast_values_are_the_inputs_through_the_layers(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``values`` adds up kept first-layer sums per area state; ``evaluate`` multiplies every
    input: the same numbers, for a plain and an averaged network, even when the kept sums are
    let go of mid-game."""
    monkeypatch.setattr(network_module, "PARTS_KEPT", 20)  # fewer than one batch may need
    members = [ValueNetwork.initial(game_id, hidden=(24, 16), seed=k) for k in range(2)]
    for k, member in enumerate(members):  # a non-zero forecast
        w, b = member.layers[-1]
        member.layers[-1] = (w + 0.05 * (k + 1), b + 0.2)
    averaged = ValueNetwork.average(members)
    assert averaged._blocks[1] is not None and len(averaged._blocks[1]) == 2, "its members apart"
    rng = random.Random(3)
    for network in (shipped_network(game_id), members[0], averaged):
        game = Game(game_id, players=2, seed=7)
        while not game.is_over:
            player = game.to_move
            _moves, afters = afterstates(game, player)
            expected, _inputs = network.evaluate(afters, player)
            assert network.values(afters, player) == pytest.approx(expected, abs=1e-3)
            game.play(rng.choice(game.legal_moves()))


def test_threads_valuing_positions_at_once_get_each_position_s_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server's game threads share one network (a table's computer players, its views' chances
    to win, a review): several valuing at once get what each position is worth, as ``evaluate``
    says, and no error. The kept sums are let go of often, as a long-running server does."""
    monkeypatch.setattr(network_module, "PARTS_KEPT", 400)
    monkeypatch.setattr(network_module, "SUMS_KEPT", 60)
    network = ValueNetwork.from_bytes(table_network("vraiment-tres-fute").to_bytes())
    batches = []
    for seed in range(8):
        game, rng = Game("vraiment-tres-fute", players=3, seed=seed), random.Random(seed)
        while not game.is_over:
            player = game.to_move
            batches.append((afterstates(game, player)[1], player))
            game.play(rng.choice(game.legal_moves()))
    expected = [network.evaluate(afters, player)[0] for afters, player in batches]
    errors: list[BaseException] = []
    wrong: list[int] = []

    def value_some(first: int) -> None:
        try:
            for k in range(first, len(batches), 4):
                afters, player = batches[k]
                if network.values(afters, player) != pytest.approx(expected[k], abs=1e-3):
                    wrong.append(k)
        except BaseException as error:  # reported by the test's own thread
            errors.append(error)

    threads = [threading.Thread(target=value_some, args=(first,)) for first in range(4)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # the threads take turns as often as they can
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == [] and wrong == []


@pytest.mark.parametrize("game_id", SPECS)
def test_an_area_s_inputs_kept_by_its_shared_list_are_those_of_its_marks(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Look-ahead positions share the areas they leave unchanged with the position they come
    from (``Sheet.owned``), and the encoder keeps those areas' inputs by the list: in positions
    two moves ahead, as the game goes on (and when what is kept is let go of), every area's
    inputs are those worked out afresh from its marks."""
    monkeypatch.setattr(network_module, "SHARED_LISTS_KEPT", 30)
    encoder = network_module.Encoder(SPECS[game_id])
    rng = random.Random(5)
    game = Game(game_id, players=2, seed=5)
    checked = 0
    while not game.is_over:
        player = game.to_move
        assert player is not None
        positions = [game]  # the game itself too: its own lists, written in place as it goes on
        if len(game.history) % 2:  # (a look-ahead every other move)
            for _, after in game.afterstates(player, history=False)[:4]:
                positions += [after] + [a for _, a in after.afterstates(history=False)[:3]]
        for seen in positions:
            for p in range(2):
                areas, _, _ = encoder.parts(seen, p)
                states = seen.sheets[p].areas
                fresh = [encoder._area_inputs(c, tuple(states[c])) for c in SPECS[game_id].areas]
                assert [a.inputs for a in areas] == [a.inputs for a in fresh]
                checked += 1
        game.play(rng.choice(game.legal_moves()))
    assert checked > 300


@pytest.mark.parametrize("game_id", GAMES)
def test_the_shipped_network_is_packaged_and_loads(game_id: str) -> None:
    network = shipped_network(game_id)
    assert network.spec_id == game_id and network.layers[0][0].shape[0] == _encoder(game_id).size
    assert network.info.get("settings", {}).get("game") == game_id, "the file says how it was trained"


def test_the_shipped_weights_checksums_are_documented_with_the_command_that_rebuilt_them() -> None:
    """docs/bench.md gives each shipped network's file SHA-256 and its weights' digest (the
    same for the same weights in any file); docs/notes/bench-history.md the commands that made them."""
    import hashlib
    import re
    from importlib import resources

    docs = Path(__file__).parent.parent / "docs"
    text = (docs / "bench.md").read_text(encoding="utf-8")
    commands = (docs / "notes" / "bench-history.md").read_text(encoding="utf-8")
    rows = re.findall(r"\| `(network-[a-z_-]+\.npz)` \| `([0-9a-f]{64})` \| `([0-9a-f]{64})` \|", text)
    data_dir = resources.files("tresfute.bots") / "data"
    shipped = sorted(f.name for f in data_dir.iterdir() if f.name.startswith("network-") and f.name.endswith(".npz"))
    assert sorted(name for name, _, _ in rows) == shipped, "every shipped network is documented"
    assert {f"network-{game_id}.npz" for game_id in GAMES} <= set(shipped)
    for name, file_sha, weights_sha in rows:
        data = (data_dir / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == file_sha, f"{name}: the file is not the one documented"
        assert ValueNetwork.from_bytes(data).weights_digest() == weights_sha
        assert f"--out src/tresfute/bots/data/{name}" in commands, "the command that wrote it"


def test_the_weights_digest_follows_the_weights_not_the_file(tmp_path: Path) -> None:
    network = ValueNetwork.initial("tres-fute", hidden=(8, 4), seed=1)
    network.save(tmp_path / "a.npz")
    network.info["note"] = "another record"
    network.save(tmp_path / "b.npz")
    assert ValueNetwork.load(tmp_path / "a.npz").weights_digest() == network.weights_digest()
    assert ValueNetwork.load(tmp_path / "b.npz").weights_digest() == network.weights_digest()
    network.layers[1][1][0] += 1e-3
    assert network.weights_digest() != ValueNetwork.load(tmp_path / "a.npz").weights_digest()


@pytest.mark.slow
def test_the_shipped_weights_load_from_a_built_wheel(plain_wheel: Path) -> None:
    """A wheel built from the checkout holds both networks, and they load from its bytes. (The
    plain wheel: its package data is the compiled one's, and it builds in seconds, not a minute.)"""
    with zipfile.ZipFile(plain_wheel) as wheel:
        for game_id in GAMES:
            data = wheel.read(f"tresfute/bots/data/network-{game_id}.npz")
            assert ValueNetwork.from_bytes(data).spec_id == game_id


def test_the_strong_player_plays_the_network_s_best_afterstate() -> None:
    game = Game("vraiment-tres-fute", players=1, seed=8)
    network = shipped_network(game.spec.id)
    moves, afters = afterstates(game, 0)
    values = network.values(afters, 0)
    best = moves[max(range(len(moves)), key=values.__getitem__)]
    assert StrongBot(0, candidates=0).choose(game, 0) == best
    assert StrongBot(0, candidates=0).analyse(game, 0)[0].move == best


@pytest.mark.slow
def test_training_runs_end_to_end_checkpoints_and_resumes(tmp_path: Path) -> None:
    """A tiny run: self-play, TD(lambda) fit, evaluation, checkpoint; resumed, it goes on from
    where it stopped, and its best network says how it was made."""
    settings = Settings(
        game="tres-fute", iterations=1, games=2, hidden=(8, 8), eval_every=1, eval_games=2, workers=1, seed=3
    )
    state = new_state(settings)
    before = state.network.layers[0][0].copy()
    lines: list[str] = []
    checkpoint = tmp_path / "run.npz"
    run(state, checkpoint, report=lines.append)
    assert state.iteration == 1 and len(state.curve) == 1 and "eval_mean" in state.curve[0]
    assert not np.array_equal(before, state.network.layers[0][0]), "the fit changed the weights"
    assert lines and lines[0].startswith("iteration 1/1")
    resumed = load_checkpoint(checkpoint)
    assert resumed.iteration == 1 and resumed.steps == state.steps
    resumed.settings.iterations = 2
    run(resumed, checkpoint, report=lines.append)
    assert resumed.iteration == 2 and [p["iteration"] for p in resumed.curve] == [1, 2]
    final = final_network(resumed)
    assert final.info["settings"]["game"] == "tres-fute" and len(final.info["curve"]) == 2
    game = Game("tres-fute", seed=1)
    assert isinstance(StrongBot(0, network=final).choose(game, 0), type(game.legal_moves()[0]))


def test_self_play_with_search_plays_the_strong_player_s_moves_and_learns_each_one() -> None:
    """With ``search``, a training game is the strong player's game over the network being
    trained (its futures seeded by the game's number); each chosen afterstate is a row."""
    network = shipped_network("tres-fute")
    seed, number = 7, 0
    x, targets, finals = play_games((network.to_bytes(), "train", seed, [number], 0.0, 0.7, True, 0.0))
    game = Game("tres-fute", players=1, seed=derived_seed(seed, number, "train"))
    bot = StrongBot(derived_seed(seed, number, "train-search"), network=network)
    while not game.is_over:
        game.play(bot.choose(game, 0), 0)
    assert finals == [game.score(0).total]
    assert x.shape == (len(targets), network.encoder.size) and len(targets) > 20
    alone = play_games((network.to_bytes(), "train", seed, [number], 0.0, 0.7, False, 0.0))
    assert alone[2] != finals or not np.array_equal(alone[0], x), "the search chose other moves than the network"


def test_an_opening_hands_a_beginners_sheet_to_the_network_and_only_what_follows_is_learned() -> None:
    """With ``openings``, a training game begins with rounds of a random, greedy or careless
    player: the rows are the network's afterstates from the hand-over on, their targets what the
    network then scores (so fewer rows than the same game's self-play, and a lower final)."""
    network = shipped_network("tres-fute")
    seed, numbers = 7, list(range(12))
    opened = play_games((network.to_bytes(), "train", seed, numbers, 0.0, 0.7, False, 1.0))
    plain = play_games((network.to_bytes(), "train", seed, numbers, 0.0, 0.7, False, 0.0))
    assert len(opened[1]) < len(plain[1]) and np.mean(opened[2]) < np.mean(plain[2])
    again = play_games((network.to_bytes(), "train", seed, numbers, 0.0, 0.7, False, 1.0))
    assert again[2] == opened[2] and np.array_equal(again[0], opened[0]), "seeded by the game's number"
    # the opening itself: from round 1 to a round drawn from 2 on, by one kind of player
    for number in range(6):
        game = Game("tres-fute", players=1, seed=number)
        play_opening(game, network, random.Random(number))
        assert 2 <= game.round <= game.rounds or game.is_over
    evaluated = play_games((network.to_bytes(), "eval", seed, numbers[:3], 0.0, 0.7, False, 1.0))
    assert evaluated[2] == play_games((network.to_bytes(), "eval", seed, numbers[:3], 0.0, 0.7, False, 0.0))[2], (
        "evaluation games are never opened"
    )


def test_training_plays_under_its_reading_of_the_rules_and_the_strong_player_finds_its_network() -> None:
    """A run's ``rules`` (a reading of the rules, docs/rules-decisions.md) are those of every game
    it plays; the network for a reading is shipped as its own file, named by the options off
    their default, and the strong player picks the one for its game's reading."""
    network = shipped_network("vraiment-tres-fute")
    strict = (("reprise_with_no_die_left", False),)
    numbers = list(range(6))
    default = play_games(Job(network.to_bytes(), "train", 3, numbers, 0.0, 0.7))
    stricter = play_games(Job(network.to_bytes(), "train", 3, numbers, 0.0, 0.7, rules=strict))
    assert default[2] != stricter[2], "the turn ends where the strict reading says: other games"
    game = Game("vraiment-tres-fute", seed=1, rules={"reprise_with_no_die_left": False})
    assert reading_of(game) == strict and reading_of(Game("vraiment-tres-fute", seed=1)) == ()
    assert network_file("vraiment-tres-fute", strict) == "network-vraiment-tres-fute-reprise_with_no_die_left-false.npz"
    assert network_file("tres-fute") == "network-tres-fute.npz"
    assert network_for(Game("tres-fute", seed=1)) is shipped_network("tres-fute")
    strict_game = Game("vraiment-tres-fute", seed=1, rules={"reprise_with_no_die_left": False})
    assert network_for(strict_game) is not shipped_network("vraiment-tres-fute"), "shipped for its reading"
    assert network_for(strict_game).info["settings"]["rules"] == {"reprise_with_no_die_left": False}
    # the hint's and the review's values come from a network trained on every kind of sheet
    # (and each game's player, another network, on its own play only, without openings)
    for game_id in GAMES:
        valuing = valuation_network(Game(game_id, seed=1))
        assert valuing.info["settings"]["openings"] > 0
        assert valuing is not shipped_network(game_id)
        assert shipped_network(game_id).info["settings"]["openings"] == 0
    # a reading or game without a valuation file of its own values with the player's network
    assert _first_shipped("network-tres-fute-none.npz", "network-tres-fute.npz") is shipped_network("tres-fute")
    strict_valuing = valuation_network(strict_game)  # the reading's own, trained with openings too
    assert strict_valuing is not network_for(strict_game) and strict_valuing.info["settings"]["openings"] > 0
    assert strict_valuing.info["settings"]["rules"] == {"reprise_with_no_die_left": False}


def test_training_is_reproducible_for_a_seed() -> None:
    def once() -> np.ndarray:
        settings = Settings(
            game="vraiment-tres-fute", iterations=1, games=2, hidden=(8,), eval_every=5, eval_games=4, workers=1
        )
        state = run(new_state(settings), None, report=lambda _line: None)
        return state.network.layers[0][0]

    assert np.array_equal(once(), once())


def test_every_game_has_a_network_with_the_right_inputs() -> None:
    for game_id, spec in SPECS.items():
        assert _encoder(game_id).spec is spec


def test_the_averaging_script_writes_one_network_and_refuses_a_mix(tmp_path: Path) -> None:
    script = Path(__file__).parent.parent / "scripts" / "average_networks.py"
    paths = []
    for k, game_id in enumerate(["tres-fute", "tres-fute", "vraiment-tres-fute"]):
        paths.append(tmp_path / f"n{k}.npz")
        ValueNetwork.initial(game_id, hidden=(8, 4), seed=k).save(paths[-1])
    out = tmp_path / "mean.npz"
    done = subprocess.run([sys.executable, str(script), "--out", str(out), *map(str, paths[:2])], capture_output=True)
    assert done.returncode == 0, done.stderr
    averaged = ValueNetwork.load(out)
    assert averaged.info["settings"] == {"game": "tres-fute", "average_of": ["n0.npz", "n1.npz"]}
    assert f"weights SHA-256 {averaged.weights_digest()}" in done.stderr.decode()
    refused = subprocess.run(
        [sys.executable, str(script), "--out", str(tmp_path / "mix.npz"), *map(str, paths)],
        capture_output=True,
        text=True,
    )
    assert refused.returncode != 0 and "one game" in refused.stderr and not (tmp_path / "mix.npz").exists()


def test_a_run_can_grow_from_a_checkpoint_s_last_network(tmp_path: Path) -> None:
    """``train_network.py --start`` takes a network file or a training checkpoint: from a
    checkpoint, the network of its last iteration (not its best by evaluation)."""
    script = Path(__file__).parent.parent / "scripts" / "train_network.py"
    tiny = ["--game", "tres-fute", "--games", "2", "--workers", "1", "--eval-games", "2"]
    checkpoint = tmp_path / "run.npz"
    first = [
        *tiny,
        "--iterations",
        "1",
        "--hidden",
        "8",
        "8",
        "--checkpoint",
        str(checkpoint),
        "--out",
        str(tmp_path / "a.npz"),
    ]
    done = subprocess.run([sys.executable, str(script), *first], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "b.npz"
    done = subprocess.run(
        [sys.executable, str(script), *tiny, "--iterations", "0", "--start", str(checkpoint), "--out", str(out)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert ValueNetwork.load(out).weights_digest() == load_checkpoint(checkpoint).network.weights_digest()


def _moment(inputs: dict[str, float]) -> tuple[float, ...]:
    """The inputs that say where the game stands: phase, turn, stage, picks and rolls."""
    return tuple(value for name, value in inputs.items() if name.split()[0] in ("phase", "own", "picks", "rolls"))


def _rounds_left(inputs: dict[str, float]) -> tuple[float, ...]:
    return tuple(value for name, value in inputs.items() if name.startswith("rounds left"))


@pytest.mark.parametrize("game_id", GAMES)
def test_at_a_table_every_moment_reads_as_one_the_solo_game_shows(game_id: str) -> None:
    """The network learns alone, where a round is one's active turn then one's passive turn. At a
    table, the others' turns (waiting for them, picking from their platter) are read as the solo
    game's passive turn or the start of one's own: never a moment solo play does not show, nor
    a count of rounds left (before one's first turn at a table, every round is still ahead)."""
    encoder = _encoder(game_id)
    names = encoder.names
    rng = random.Random(8)
    solo: set[tuple[float, ...]] = set()
    solo_rounds: set[tuple[float, ...]] = set()
    for seed in range(10):  # the reacheds played and those after each move (waiting for dice)
        game = Game(game_id, seed=seed)
        while not game.is_over:
            for reached in [game] + [after for _, after in game.afterstates()]:
                inputs = dict(zip(names, encoder.encode(reached, 0), strict=True))
                solo.add(_moment(inputs))
                solo_rounds.add(_rounds_left(inputs))
            game.play(rng.choice(game.legal_moves()))
    for seed in range(6):
        game = Game(game_id, players=2 + seed % 3, seed=seed)
        while not game.is_over:
            for reached in [game] + [after for _, after in game.afterstates()]:
                for player in range(game.n_players):
                    own_part = reached.active == player and str(reached.phase) not in ("passive", "turn start")
                    if own_part or reached.is_over or finished_for(reached, player):
                        continue  # one's own active part reads as it is, as alone
                    inputs = dict(zip(names, encoder.encode(reached, player), strict=True))
                    assert inputs["active turn"] + inputs["solo passive turn"] == 1
                    assert _moment(inputs) in solo, (reached.round, reached.turn, reached.phase, player)
                    assert _rounds_left(inputs) in solo_rounds, (reached.round, reached.turn, player)
            game.play(rng.choice(game.legal_moves()))


def test_at_a_table_the_rounds_left_are_those_of_one_s_next_own_turn() -> None:
    """Three players, five rounds. The third player's picks from the others' platters come before
    its own first turn: the solo passive turn of a round before the first (five still to come).
    The first player's pick from the second one's platter is its passive turn of round 1 (four
    to come); the second player, once it has picked from the first one's platter, has its own
    turn of round 1 next (four to come after it), while the third player still picks."""
    encoder = _encoder("tres-fute")
    game = Game("tres-fute", players=3, seed=11)
    rng = random.Random(11)
    seen = set()
    while game.round == 1:
        for player in range(3):
            inputs = dict(zip(encoder.names, encoder.encode(game, player), strict=True))
            left = next((n for n in range(1, 6) if inputs[f"rounds left {n}"] == 1), 0)
            passive = str(game.phase) == "passive" and game.active != player
            if player == 2 and (game.turn == 0 or (game.turn == 1 and not (passive and str(game.stage[2]) == "done"))):
                seen.add("third, before its turn")
                assert (left, inputs["solo passive turn"]) == (5, 1)
            elif player == 0 and game.turn == 1 and passive and str(game.stage[0]) != "done":
                seen.add("first, picking")
                assert (left, inputs["phase passive"], inputs["solo passive turn"]) == (4, 1, 1)
            elif player == 1 and game.turn == 0 and passive and str(game.stage[1]) == "done":
                seen.add("second, picked")
                assert (left, inputs["phase roll"], inputs["active turn"], inputs["rolls 1"]) == (4, 1, 1, 1)
            elif game.active == player and str(game.phase) in ("choose", "sweep", "active extra"):
                assert (left, inputs["active turn"]) == (4, 1)
        game.play(rng.choice(game.legal_moves()))
    assert seen == {"third, before its turn", "first, picking", "second, picked"}


def test_a_player_done_with_the_last_turn_is_worth_its_score_while_the_others_pick() -> None:
    """The game's last turn, three players: once the first player has picked from the third
    one's platter it has nothing more to do, so its value is its score, not a forecast."""
    network = shipped_network("tres-fute")
    rng = random.Random(12)
    game = Game("tres-fute", players=3, seed=12)
    checked = False
    while not game.is_over:
        last_turn = game.round == game.rounds and game.turn == 2 and str(game.phase) == "passive"
        if last_turn and str(game.stage[0]) == "done" and not game.pending[0]:
            assert finished_for(game, 0) and not finished_for(game, 1)
            assert network.value(game, 0) == game.score(0).total
            assert network.evaluate([game], 0)[0][0] == game.score(0).total
            checked = True
        elif game.round < game.rounds:
            assert not finished_for(game, 0)
        game.play(rng.choice(game.legal_moves()))
    assert checked


# --- networks that know the table (issue 71) ----------------------------------------------


def _table_inputs(encoder, game: Game, player: int) -> tuple[int, int, int]:
    """The table's size, the others' turns left and those before one's own turn, as the
    table encoder's one-hot inputs say them."""
    inputs = dict(zip(encoder.names, encoder.encode(game, player), strict=True))
    size = next(n for n in (2, 3, 4) if inputs[f"table of {n}"] == 1)
    left = next(k for k in range(13) if inputs[f"others' turns left {k}"] == 1)
    before = next(k for k in range(5) if inputs[f"others' turns before own {k}"] == 1)
    return size, left, before


def test_the_table_inputs_count_the_picks_from_others_platters_still_to_come() -> None:
    """Three players, five rounds: each of the others' turns gives a seat one pick from their
    platter, so every seat has 2 x 5 of them ahead at the start. A pick made, that turn is no
    longer ahead; one's own turn's active part over, the two others' turns come before the next."""
    encoder = _encoder("tres-fute", True)
    rng = random.Random(5)
    game = Game("tres-fute", players=3, seed=5)
    assert [_table_inputs(encoder, game, p) for p in range(3)] == [(3, 10, 0), (3, 10, 1), (3, 10, 2)]
    seen = set()
    while not game.is_over:
        passive = str(game.phase) == "passive"
        if game.round == 1 and game.turn == 0 and passive and str(game.stage[1]) == "done":
            seen.add("picked")
            assert _table_inputs(encoder, game, 1)[1:] == (9, 1)  # its own turn next, the third's later
            assert _table_inputs(encoder, game, 0)[1:] == (10, 3)  # its active part over
        if game.round == game.rounds and game.turn == 2 and passive and str(game.stage[0]) != "done":
            seen.add("last pick")
            assert _table_inputs(encoder, game, 0)[1] == 1
        game.play(rng.choice(game.legal_moves()))
    assert seen == {"picked", "last pick"}
    alone = Game("tres-fute", seed=5)
    inputs = encoder.encode(alone, 0)
    assert not any(inputs[_encoder("tres-fute").size :]), "alone, no table input is set"


@pytest.mark.parametrize("game_id", GAMES)
def test_a_table_network_grown_from_a_solo_one_values_as_it_until_trained(game_id: str, tmp_path: Path) -> None:
    """``for_tables`` adds the table's inputs with zero weights: every position of games of 1 to
    4 players is valued as the solo network values it (to float32's rounding); the file says it
    is a table network, and a solo network's weights are refused for one."""
    solo = shipped_network(game_id)
    table = solo.for_tables()
    assert table.table and table.encoder.size > solo.encoder.size
    rng = random.Random(2)
    for players in (1, 2, 3, 4):
        game = Game(game_id, players=players, seed=players)
        while not game.is_over:
            player = game.to_move
            afters = [after for _, after in game.afterstates()]
            assert table.values(afters, player) == pytest.approx(solo.values(afters, player), abs=1e-3)
            game.play(rng.choice(game.legal_moves()))
    table.save(tmp_path / "table.npz")
    loaded = ValueNetwork.load(tmp_path / "table.npz")
    assert loaded.table and loaded.weights_digest() == table.weights_digest() != solo.weights_digest()
    with pytest.raises(ValueError, match="table network takes"):
        ValueNetwork(game_id, solo.layers, table=True)


def test_table_self_play_learns_each_seat_s_afterstates_towards_its_own_final_score() -> None:
    """Games at a table: every seat is the network, each seat's chosen afterstates are rows of the
    table encoder, and (lambda 1) each row's target is its own seat's final score."""
    network = shipped_network("tres-fute").for_tables()
    x, targets, finals = play_games(Job(network.to_bytes(), "train", 4, [0, 1], 0.0, 1.0, players=(3,)))
    assert len(finals) == 6 and x.shape == (len(targets), network.encoder.size)
    score_input = network.encoder.names.index("score")
    reached = {round(float(t) * 100 + float(row[score_input]) * 200) for t, row in zip(targets, x, strict=True)}
    assert reached == set(finals), "every seat's rows end on that seat's final score"
    assert all(row[network.encoder.names.index("table of 3")] == 1 for row in x)


def test_a_table_run_grows_its_start_for_tables_and_resumes_with_its_table_sizes(tmp_path: Path) -> None:
    """``players`` (2 to 4) makes a run a table run: its start is grown with the table's inputs,
    its games are played at those tables in turn, and a checkpoint keeps them."""
    start = ValueNetwork.initial("tres-fute", (8, 8), seed=1)
    settings = Settings(
        game="tres-fute", iterations=1, games=2, hidden=(8, 8), eval_every=1, eval_games=2, workers=1, players=(2, 4)
    )
    state = new_state(settings, start)
    assert state.network.table
    run(state, tmp_path / "run.npz", report=lambda line: None)
    resumed = load_checkpoint(tmp_path / "run.npz")
    assert resumed.settings.players == (2, 4) and resumed.network.table
    assert final_network(resumed).table
    with pytest.raises(ValueError, match="trained at tables"):
        new_state(Settings(game="tres-fute", hidden=(8, 8)), state.network)


@pytest.mark.parametrize(
    "game_id, rules",
    [("tres-fute", {}), ("vraiment-tres-fute", {}), ("vraiment-tres-fute", {"reprise_with_no_die_left": False})],
)
def test_at_tables_of_three_and_four_the_strong_player_and_the_review_take_the_table_network(
    game_id: str, rules: dict[str, bool]
) -> None:
    """Every game and reading ships a table network, trained at tables of 2, 3 and 4 under that
    reading. At tables of three and four the strong player plays with it and the review and
    the hint value with it; alone and at two they keep the solo networks, which played better
    at two (docs/bench.md); so does the chance to win, for the winning player and for a
    reader, its calibration measured on the strong player's own network."""
    alone = Game(game_id, players=1, rules=rules)
    reading = reading_of(alone)
    table = table_network(game_id, reading)
    assert table is not None and table.table and table.info["settings"]["players"] == [2, 3, 4]
    assert table.info["settings"]["rules"] == dict(reading)
    for players in (1, 2, 3, 4):
        game = Game(game_id, players=players, rules=rules)
        assert (network_for(game) is table) == (valuation_network(game) is table) == (players >= 3)
        assert network_alone(game) is shipped_network(game_id, reading)
        if players < 3:
            assert network_for(game) is network_alone(game) and not valuation_network(game).table

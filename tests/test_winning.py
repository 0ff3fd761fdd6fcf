"""The winning player (``bots/winning.py``): at a table it plays for its chance of finishing first.

(Its strength against the strong player is measured by ``tresfute bench``, docs/bench.md.)
"""

from __future__ import annotations

import json
import math
import random
from importlib import resources

import pytest
from click.testing import CliRunner

from tresfute.bots import BOTS, GreedyBot, StrongBot, WinningBot, make_bot
from tresfute.bots.futures import future_values, own_dice
from tresfute.bots.network import network_for, shipped_network
from tresfute.bots.winning import (
    SKILL_SHRINK,
    TIE_BREAK,
    WinChances,
    calibration,
    calibration_key,
    chance_first,
    others_values,
    turns_left,
)
from tresfute.cli import main
from tresfute.rules import CHANCE, SPECS, Game, Sheet
from tresfute.rules.kinds import ActionKind

from helpers import exact_network, play_randomly

GAMES = ["tres-fute", "vraiment-tres-fute"]


def test_the_winning_player_is_listed_and_made_by_name() -> None:
    """``strong-win`` is a bot name of the registry (and so of the command line)."""
    assert BOTS["strong-win"] is WinningBot
    assert isinstance(make_bot("strong-win", 3), WinningBot)


def test_the_chance_of_finishing_first_is_a_share_of_one() -> None:
    """The normal model: equal forecasts share the chance equally, the chances of a table add up
    to 1, the quadrature of two players agrees with the closed form, and a lead raises it."""
    assert chance_first([200.0, 200.0], 0, 30.0) == pytest.approx(0.5)
    for means in ([250.0, 240.0, 200.0], [180.0, 220.0, 205.0, 230.0], [300.0, 200.0, 200.0]):
        chances = [chance_first(means, p, 25.0) for p in range(len(means))]
        assert sum(chances) == pytest.approx(1.0, abs=1e-6)
        assert max(range(len(means)), key=lambda p: chances[p]) == max(range(len(means)), key=lambda p: means[p])
    # two players by quadrature (a third one far behind changes nothing) and by the closed form
    three = chance_first([230.0, 215.0, -1000.0], 0, 20.0)
    assert three == pytest.approx(0.5 * math.erfc(-15.0 / 20.0 / 2))
    assert chance_first([230.0, 215.0], 0, 20.0) == pytest.approx(three)


@pytest.mark.slow
def test_a_calibration_of_one_game_keeps_the_other_game_s_tables(tmp_path) -> None:
    """``calibrate_win.py --only GAME`` replays only that game's tables (its network changed) and
    keeps the other's from the file, with the command that writes the whole file, as ``--players``
    does with the tables of other sizes; a file made with another seed is refused and left as
    it was."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).parent.parent / "scripts" / "calibrate_win.py"
    shipped = json.loads((resources.files("tresfute.bots") / "data" / "win-spread.json").read_text())
    out = tmp_path / "win-spread.json"
    out.write_text(json.dumps(shipped))
    command = [sys.executable, str(script), "--games", "1", "--workers", "1", "--out", str(out)]
    done = subprocess.run([*command, "--only", "tres-fute", "--seed", str(shipped["seed"])], capture_output=True)
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text())
    kept = [name for name in shipped["by_game"] if name != "tres-fute"]
    assert "vraiment-tres-fute" in kept
    assert all(data["by_game"][name] == shipped["by_game"][name] for name in kept)
    assert data["games"] == {**shipped["games"], "tres-fute": 1}
    assert data["command"].startswith("python scripts/calibrate_win.py --games 1 --vtf-games ")
    assert sorted(data["by_game"]["tres-fute"]) == ["2", "3", "4"]
    # ``--players`` plays only the tables of those sizes and keeps the others (their network unchanged)
    shipped["by_game"]["tres-fute"]["2"]["spread"][1] = 99.0  # no game gives that: a kept table is the file's
    out.write_text(json.dumps(shipped))
    seed = str(shipped["seed"])
    done = subprocess.run([*command, "--only", "tres-fute", "--players", "3", "--seed", seed], capture_output=True)
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text())
    assert all(data["by_game"][name] == shipped["by_game"][name] for name in kept)
    played = data["by_game"]["tres-fute"]
    assert played["2"] == shipped["by_game"]["tres-fute"]["2"] and played["4"] == shipped["by_game"]["tres-fute"]["4"]
    assert played["3"] != shipped["by_game"]["tres-fute"]["3"]  # one game, not the shipped calibration's
    before = out.read_text()
    other_seed = str((shipped["seed"] + 1) % 1000)
    refused = subprocess.run([*command, "--only", "tres-fute", "--seed", other_seed], capture_output=True, text=True)
    assert refused.returncode != 0 and "seed" in refused.stderr and out.read_text() == before
    out.write_text('{"seed": 0}')
    empty = subprocess.run([*command, "--only", "tres-fute", "--seed", "0"], capture_output=True, text=True)
    assert empty.returncode == 2 and "holds none" in empty.stderr and out.read_text() == '{"seed": 0}'


STRICT = (("reprise_with_no_die_left", False),)


@pytest.mark.parametrize(
    ("game_id", "reading"), [("tres-fute", ()), ("vraiment-tres-fute", ()), ("vraiment-tres-fute", STRICT)]
)
def test_the_calibration_covers_every_table_and_every_turn(game_id: str, reading: tuple) -> None:
    """The shipped calibration has a bias per seat and a spread for every turn left of every
    table of 2 to 4, for each game and each reading of its rules (each has its own network),
    made on tuning seeds (below 1000); a finished game has no spread."""
    spec = SPECS[game_id]
    data = json.loads((resources.files("tresfute.bots") / "data" / "win-spread.json").read_text())
    assert data["seed"] < 1000 and "calibrate_win.py" in data["command"]
    assert calibration_key(game_id, reading) in data["by_game"]
    for players in (2, 3, 4):
        table = calibration(game_id, players, reading)
        turns = spec.rounds_by_players[players] * players
        assert len(table.spread) == len(table.bias) == turns + 1
        assert table.spread[0] == 0.0 and all(s > 0 for s in table.spread[1:])
        assert all(len(row) == players for row in table.bias)


def test_a_table_under_the_strict_reading_is_forecast_with_that_reading_s_calibration() -> None:
    """The strict reading of Vraiment très futé has its own network, so its own calibration: the
    winning player reads the tables of its game's reading, and a reading without tables of its
    own falls back on the default reading's."""
    strict = calibration("vraiment-tres-fute", 2, STRICT)
    assert strict != calibration("vraiment-tres-fute", 2)
    assert calibration("tres-fute", 2, (("no_such_option", True),)) == calibration("tres-fute", 2)
    game = Game("vraiment-tres-fute", players=2, seed=3, rules={"reprise_with_no_die_left": False})
    player = WinningBot(0)
    values = [150.0, 140.0]
    k = turns_left(game)
    means = [v + strict.bias[k][p] for p, v in enumerate(values)]
    assert player.chance(game, 0, values) == pytest.approx(
        chance_first(means, 0, strict.spread[k]) + TIE_BREAK * means[0]
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_chance_to_win_forecasts_with_the_strong_player_s_own_network(players: int) -> None:
    """The winning player and a reader forecast every seat with the network the strong player
    plays with (the table network at three and four, the solo one at two), whose errors the
    calibration measured: each seat's mean is that network's value plus the calibrated bias."""
    game = Game("tres-fute", players=players, seed=11)
    play_randomly(game, random.Random(4), until=lambda game: game.round == 2)
    network = network_for(game)
    assert network.table == (players >= 3)
    bias = calibration("tres-fute", players).bias[turns_left(game)]
    forecast = WinChances().forecast(game)
    expected = [network.value(game, p) + bias[(p - game.active) % players] for p in range(players)]
    assert forecast.means == pytest.approx(expected)


def test_turns_left_counts_the_current_turn_whole() -> None:
    game = Game("tres-fute", players=3, seed=1)
    assert turns_left(game) == 15  # 5 rounds of 3 turns
    while game.turn == 0:
        game.play(game.legal_moves()[0])
    assert turns_left(game) == 14


@pytest.mark.parametrize("game_id", GAMES)
def test_alone_the_winning_player_plays_the_strong_players_moves(game_id: str) -> None:
    """In a solo game the winning player is the strong player, move for move (two rounds)."""
    game = Game(game_id, players=1, seed=7)
    winning, strong = WinningBot(5), StrongBot(5)
    while game.round <= 2:
        move = winning.choose(game, 0)
        assert move == strong.choose(game, 0)
        game.play(move)


def _play_through(game_id: str, players: int, seed: int, bot: WinningBot, seat: int | None = None) -> int:
    """A game with the winning player in every seat, or in ``seat`` alone (the greedy player in
    the others); each of its moves checked legal, and the game left as it was by the thinking
    (its searches play on copies). Decisions it was asked."""
    game = Game(game_id, players=players, seed=seed)
    others = GreedyBot(seed)
    asked = 0
    while not game.is_over:
        player = game.to_move
        assert player is not None and player >= 0
        if seat is not None and player != seat:
            game.play(others.choose(game, player), player)
            continue
        before = json.dumps(game.view(), sort_keys=True)
        move = bot.choose(game, player)
        assert move in game.legal_moves(player)
        assert json.dumps(game.view(), sort_keys=True) == before, "a bot never changes the game"
        game.play(move, player)
        asked += 1
    return asked


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_winning_player_plays_only_legal_moves_quickly(players: int) -> None:
    """A seeded game of Très futé at each table size, played through by the winning player in
    every seat with a small search (two candidates, two futures): every move is legal."""
    assert _play_through("tres-fute", players, 100 + players, WinningBot(1, candidates=2, samples=2)) > 30


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_winning_player_plays_only_legal_moves(game_id: str, players: int) -> None:
    """A seeded game of both games at each table size, with the player's own search settings,
    in one seat (every seat plays so in the quick test above; alone it is the strong player,
    whose random positions ``test_bots.py`` checks)."""
    assert _play_through(game_id, players, players, WinningBot(players), seat=players - 1) > 20


def test_bench_measures_the_winning_player_against_the_strong_one() -> None:
    """``tresfute bench --bot strong-win --players 2 --opponents strong`` runs and reports a win rate."""
    result = CliRunner().invoke(
        main,
        [
            "bench",
            "--game",
            "tres-fute",
            "--bot",
            "strong-win",
            "--players",
            "2",
            "--opponents",
            "strong",
            "--games",
            "1",
            "--seed",
            "5",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)  # stderr may say that the plain engine runs
    assert data["bot"] == "strong-win" and data["opponents"] == "strong"
    assert data["win_rate"] in (0.0, 0.5, 1.0)


def _sheet(spec_id: str, areas: dict[str, list[int]], earned: dict[str, int], used: dict[str, int], foxes: list[str]):
    sheet = Sheet(SPECS[spec_id])
    for colour, state in areas.items():
        sheet.areas[colour] = list(state)
    for action, n in earned.items():
        sheet.earned[ActionKind(action)] = n
    for action, n in used.items():
        sheet.used[ActionKind(action)] = n
    sheet.foxes = list(foxes)
    return sheet


def _last_turn_behind() -> Game:
    """Très futé, 2 players, the last turn: player 2 (seat 1) rolls first, 109 points against 231.

    Only a big turn can still win: the yellow 2 on its cell and the orange 4 (the moves of most
    points on average) almost never do; the white 2 on that same cell, which keeps the yellow die
    to roll again, wins in about one future in five. (The position was found in a tuning game,
    dice of ``random.Random(22)``, and is set up here from its sheets.)"""
    game = Game("tres-fute", players=2, dice="external")
    play_randomly(game, random.Random(0), until=lambda g: g.round == 6 and g.turn == 1 and g.to_move == CHANCE)
    game.set_sheet(
        0,
        _sheet(
            "tres-fute",
            {
                "y": [1, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 1],
                "b": [1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 0],
                "g": [0, 0, 0, 0, 0, 0, 0],
                "o": [4, 1, 6, 8, 3, 4, 10],
                "p": [6, 4, 5, 6, 6, 3, 4, 6, 4],
            },
            {"reroll": 5, "plus_one": 5},
            {"reroll": 4, "plus_one": 5},
            ["purple box 7", "green box 7"],
        ),
    )
    game.set_sheet(
        1,
        _sheet(
            "tres-fute",
            {
                "y": [0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 0, 1],
                "b": [1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1],
                "g": [0, 0, 0, 0, 0, 0, 0],
                "o": [5, 2, 1, 8],
                "p": [3, 4, 5, 6, 1],
            },
            {"reroll": 4, "plus_one": 4},
            {"reroll": 2, "plus_one": 4},
            ["green box 7"],
        ),
    )
    game.play("dice w2 y2 b1 g6 o4 p5")
    assert game.to_move == 1 and [s.total for s in game.scores()] == [231, 109]
    return game


def _outcomes(game: Game, move: str, futures: int = 64) -> tuple[float, float]:
    """A move's mean final score and share of wins on many futures played by the network."""
    network = shipped_network("tres-fute")
    after = dict((str(m), a) for m, a in game.afterstates(1))[move]
    seeds = list(range(futures))
    score = future_values([after], seeds, 1, network)[0]

    def won_by_1(ends: list[Game]) -> list[float]:
        return [1.0 if 1 in end.winners() else 0.0 for end in ends]

    won = future_values([after], seeds, 1, network, won_by_1)[0]
    return sum(score) / futures, sum(won) / futures


def test_behind_on_the_last_turn_it_takes_the_risk_that_can_still_win() -> None:
    """Where the moves of most points (almost) never win, the winning player takes the risky move
    that still can, and the strong player (for points) does not. The outcomes are counted on 64
    futures of the rest of the game, played by the network."""
    game = _last_turn_behind()
    risky = str(WinningBot(0).choose(game, 1))
    safe = str(StrongBot(0).choose(game, 1))
    assert risky != safe
    safe_score, safe_wins = _outcomes(game, safe)
    risky_score, risky_wins = _outcomes(game, risky)
    assert safe_score > risky_score  # the strong player's move is worth more points …
    assert safe_wins < 0.05 < 0.1 < risky_wins  # … and almost never wins, where the risk does
    outcomes = {str(m): _outcomes(game, str(m)) for m in game.legal_moves(1)}
    most_points = max(outcomes, key=lambda m: outcomes[m][0])
    assert outcomes[most_points][1] < 0.05  # the move of most points almost never wins
    assert max(outcomes, key=lambda m: outcomes[m][1]) == risky  # no move wins more often


def _two_rounds_against(opponent: str, dice: str = "seeded") -> tuple[Game, WinningBot, float]:
    """Two rounds of a table of three: the winning player (small search) in seat 0, ``opponent``
    in the others. Also what the opponents' decisions gave up beyond the strong player's margin,
    counted here decision by decision with the network's ranking (``evaluate_moves``)."""
    from tresfute.bots.blas import blas_threads
    from tresfute.bots.strong import SEARCH, evaluate_moves

    game = Game("tres-fute", players=3, seed=31) if dice == "seeded" else Game("tres-fute", players=3, dice="external")
    rng = random.Random(31)
    winning = WinningBot(2, candidates=2, samples=2)
    bots = [winning, make_bot(opponent, 1), make_bot(opponent, 2)]
    margin = SEARCH["tres-fute"].margin
    given_up = 0.0
    while game.round <= 2:
        player = game.to_move
        assert player is not None
        if player == CHANCE:
            game.play(own_dice(game, rng))
            continue
        move = bots[player].choose(game, player)
        if player != 0 and len(game.legal_moves(player)) > 1:
            with blas_threads():  # as the players rank them: the last bits depend on the threads
                ranked = evaluate_moves(game, player, network_for(game))
            given_up += max(0.0, ranked[0][0] - next(v for v, m in ranked if m == move) - margin)
        game.play(move, player)
    return game, winning, given_up


@pytest.mark.parametrize("dice", ["seeded", "external"])
def test_players_who_gave_points_away_are_expected_to_go_on_doing_so(dice: str) -> None:
    """The forecasts assume the strong player's play. The greedy player's decisions give up
    points against the network's best (beyond the strong player's margin): the winning player
    counts them from the game's history, exactly as counted decision by decision, and expects
    the same rate for the turns still to play; with the dice given from outside as well."""
    game, winning, given_up = _two_rounds_against("greedy", dice)
    network = network_for(game)  # the table network: the winning player's at a table of three
    rates = winning.loss_rates(game, 0, network)
    assert rates is not None and rates[0] == 0.0 and min(rates[1:]) > 0.5
    played = game.rounds * 3 - turns_left(game)
    assert sum(rates) * (played + SKILL_SHRINK) == pytest.approx(given_up, rel=1e-6)
    # and so the race looks better to the winning player than by the forecasts alone
    values = [network.value(game, p) for p in range(3)]
    assert winning.chance(game, 0, values, rates) > winning.chance(game, 0, values)


def test_the_strong_player_gives_nothing_away_beyond_its_margin() -> None:
    """Against the strong player the forecasts stand as they are: its every decision lies within
    its own margin of the network's best, so nothing is counted against it."""
    game, winning, given_up = _two_rounds_against("strong")
    assert given_up == 0.0
    assert winning.loss_rates(game, 0, network_for(game)) == [0.0, 0.0, 0.0]


def test_a_position_set_up_by_hand_keeps_the_forecasts_as_they_are() -> None:
    """A sheet set by hand does not follow from the game's history: no rate is guessed from a
    replay that leads elsewhere, then or later, and the player still chooses a legal move."""
    game, winning, _ = _two_rounds_against("greedy")
    network = network_for(game)
    assert winning.loss_rates(game, 0, network) is not None
    sheet = Sheet(game.spec)
    game.set_sheet(1, sheet)
    assert winning.loss_rates(game, 0, network) is None
    while game.to_move != 0:
        game.play(game.legal_moves()[0])
    assert winning.loss_rates(game, 0, network) is None
    assert winning.choose(game, 0) in game.legal_moves(0)


def test_the_replay_of_the_game_so_far_follows_the_games_rules() -> None:
    """Under the strict reading of Vraiment très futé's reprise with no die left to roll, a
    game whose history differs from the default reading's is still followed move by move: the
    points given away are counted, not dropped as a position set up by hand."""
    from tresfute import records
    from tresfute.simulate import play_game

    strict = {"reprise_with_no_die_left": False}
    for seed in range(40):
        game = play_game("vraiment-tres-fute", 2, "greedy", seed, 0, rules=strict)
        data = json.loads(records.dumps(records.record_of(game)))
        del data["rules"]  # read under the default reading, this game's history breaks
        try:
            records.replay(records.from_data(data))
        except records.RecordError:
            break
    else:
        raise AssertionError("no game where the readings differ")
    winning = WinningBot(seed=0)
    assert winning.loss_rates(game, 0, shipped_network("vraiment-tres-fute")) is not None


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_others_values_of_positions_alike_but_for_the_players_sheet_are_read_once(
    game_id: str, players: int
) -> None:
    """A player's value reads its own sheet and the moment, never another's: the winning
    player values the positions after its moves (and its futures' ends) that differ only in its
    own sheet once for each other player. Each other player's values are those of every
    position valued alone (an exact network: no batch's size moves its last bits), at the
    positions after every decision of a random game, where a pick from the platter leaves
    several alike."""
    network = exact_network(game_id, seed=players)
    game = Game(game_id, players=players, seed=players)
    rng = random.Random(players)
    alike = 0
    while not game.is_over:
        mover = game.to_move
        assert mover is not None
        afters = [after for _, after in game.afterstates(mover, history=False)]
        found = others_values(network, afters, mover)
        assert found == {p: [network.values([a], p)[0] for a in afters] for p in range(players) if p != mover}
        alike += len({after.key(leaving_out=mover) for after in afters}) < len(afters)
        game.play(rng.choice(game.legal_moves(mover)), mover)
    assert alike >= 10

"""Calibrate the winning player: how far a final score falls from the network's forecast.

python scripts/calibrate_win.py [--games 150] [--vtf-games 80] [--seed 0] [--workers 2] [--raw FILE]
                                [--only GAME]

plays games of the strong player against itself at tables of 2, 3 and 4 players (``--games``
per table of Très futé, ``--vtf-games`` of Vraiment très futé; game ``n`` on seeds derived from
``--seed``, ``n`` and the purpose "calibrate-win", which no benchmark uses; ``--seed`` must be
below 1000, the tuning seeds of ``docs/bench.md``). The dice are drawn as the strong player's
futures draw them (``futures.own_dice``), so that the game can stop where a search stops: at the
start of each turn, before its first roll, every player's sheet is valued by the network (``m``);
at the end, the final scores ``F`` are known. For each number ``k`` of turns still to play and
each seat ``d`` after the active player, the mean error ``F - m`` is the network's bias there
(trained alone, it misjudges a table's turns); the spread is the root mean square of a pair's
difference of errors once corrected. The winning player (``bots/winning.py``) adds the bias to
each forecast and models each final score as normal about it, with that spread over the square
root of 2 (which gives each difference of two scores exactly the measured spread). The table,
with the command and the seed, is written to ``src/tresfute/bots/data/win-spread.json``.
``--raw FILE`` keeps every game's forecasts there (and reads them back on the next run).
``--only GAME`` plays only that game's tables (after its network changed) and keeps the others
from the file, and ``--players N …`` only the tables of those sizes: what the whole command
would write, in a fraction of the time. The forecasts are the strong player's own network's
(``network.network_for``: at tables of three and four the table network).

Each reading of a game's rules has its own network (``bots/network.py``), so its own tables:
besides each game under its default rules, every rules option read the other way is calibrated
under its own name (``winning.calibration_key``: ``"vraiment-tres-fute
reprise_with_no_die_left=false"``, with ``--vtf-games`` games a table), and ``--only`` takes
such a name too.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import time
from pathlib import Path

from tresfute.bots.blas import blas_threads
from tresfute.bots.futures import own_dice
from tresfute.bots.network import network_for
from tresfute.bots.strong import StrongBot
from tresfute.bots.winning import calibration_key, turns_left
from tresfute.rules import CHANCE, SPECS, Game
from tresfute.simulate import derived_seed

OUT = Path(__file__).resolve().parent.parent / "src" / "tresfute" / "bots" / "data" / "win-spread.json"
PURPOSE = "calibrate-win"


Forecast = tuple[int, int, list[float], list[int]]  # turns left, active player, forecasts, scores now
Reading = tuple[tuple[str, bool], ...]  # rules options off their default, sorted by name


def readings() -> dict[str, tuple[str, Reading]]:
    """What is calibrated, by its name in the file: each game under its default rules, and
    under each of its rules options read the other way."""
    found: dict[str, tuple[str, Reading]] = {}
    for game_id, spec in SPECS.items():
        found[game_id] = (game_id, ())
        for option in spec.rule_options:
            reading = ((option.name, not option.default),)
            found[calibration_key(game_id, reading)] = (game_id, reading)
    return found


def one_game(job: tuple[str, Reading, int, int, int]) -> tuple[list[Forecast], list[int]]:
    """One self-play game: at the start of each turn the turns left, the active player, every
    player's forecast and score; and the final scores."""
    game_id, reading, players, seed, number = job
    rng = random.Random(derived_seed(seed, number, PURPOSE))
    bots = [StrongBot(derived_seed(seed, number, f"{PURPOSE}-bot{p}")) for p in range(players)]
    game = Game(game_id, players=players, dice="external", rules=dict(reading))
    network = network_for(game)  # the strong player's own: the table network at three and four
    forecasts: list[Forecast] = []
    seen: set[tuple[int, int]] = set()
    while not game.is_over:
        mover = game.to_move
        assert mover is not None
        if mover == CHANCE:
            if (game.round, game.turn) not in seen:  # the turn's first roll: where a search stops
                seen.add((game.round, game.turn))
                with blas_threads():
                    means = [network.value(game, p) for p in range(players)]
                forecasts.append((turns_left(game), game.active, means, [s.total for s in game.scores()]))
            game.play(own_dice(game, rng))
        else:
            game.play(bots[mover].choose(game, mover), mover)
    return forecasts, [s.total for s in game.scores()]


def fit(results: list[tuple[list[Forecast], list[int]]], players: int, turns: int) -> dict[str, list]:
    """The correction and the spread, for k = 0 … turns turns left (k = 0: the game is over, exact).

    ``bias[k][d]``: the mean of ``F - m`` for the player ``d`` seats after the active one (the
    network, trained alone, misjudges a table's turns: at the second turn of a round it expects
    the rest of a solo round). ``spread[k]``: the root mean square, over every pair of players,
    of the difference of their errors ``F - m - bias``."""
    errors: dict[tuple[int, int], list[float]] = {}
    for forecasts, finals in results:
        for k, active, means, _ in forecasts:
            for p in range(players):
                errors.setdefault((k, (p - active) % players), []).append(finals[p] - means[p])
    bias = [[0.0] * players for _ in range(turns + 1)]
    for (k, seat), found in errors.items():
        bias[k][seat] = round(sum(found) / len(found), 2)
    squares = [0.0] * (turns + 1)
    counts = [0] * (turns + 1)
    for forecasts, finals in results:
        for k, active, means, _ in forecasts:
            left = [finals[p] - means[p] - bias[k][(p - active) % players] for p in range(players)]
            for i in range(players):
                for j in range(i + 1, players):
                    squares[k] += (left[i] - left[j]) ** 2
                    counts[k] += 1
    spread = [round(math.sqrt(s / c), 2) if c else 0.0 for s, c in zip(squares, counts, strict=True)]
    return {"bias": bias, "spread": spread}


def dumps(data: dict) -> str:
    """The file's text: indented, each table's list on one line."""
    lines: dict[str, str] = {}
    tables: dict[str, dict] = {}
    for game_id, by_players in data["by_game"].items():
        for players, table in by_players.items():
            for name, rows in table.items():
                lines[key := f"@{game_id}/{players}/{name}@"] = json.dumps(rows)
                tables.setdefault(game_id, {}).setdefault(players, {})[name] = key
    text = json.dumps({**data, "by_game": tables}, indent=1)
    for key, line in lines.items():
        text = text.replace(f'"{key}"', line)
    return text + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=150, help="games per table of Très futé")
    parser.add_argument("--vtf-games", type=int, default=80, help="games per table of Vraiment très futé")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--raw", type=Path, help="keep the games' forecasts in this file, or read them from it")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--only",
        choices=list(readings()),
        help="play only this game's tables (after its network changed) and keep the others from --out, "
        "made with the same seed: the file is the one the whole command writes",
    )
    parser.add_argument(
        "--players",
        type=int,
        nargs="+",
        choices=(2, 3, 4),
        default=[2, 3, 4],
        help="play only the tables of these sizes (after their network changed) and keep the others from --out",
    )
    args = parser.parse_args()
    if not 0 <= args.seed < 1000:
        parser.error("calibrate on tuning seeds (0 to 999): 1000 and up are the benchmark's")
    calibrated = readings()
    counts = {key: args.games if game_id == "tres-fute" else args.vtf_games for key, (game_id, _) in calibrated.items()}
    kept: dict = {}
    some_tables = set(args.players) != {2, 3, 4}
    if args.only or some_tables:
        try:
            kept = json.loads(args.out.read_text())
        except (OSError, ValueError) as error:
            parser.error(f"the tables not played are kept from {args.out}, which cannot be read: {error}")
        if not isinstance(kept, dict) or not all(
            isinstance(kept.get(part), dict) and name in kept[part]
            for part in ("by_game", "games")
            for name in SPECS  # every game's default reading: the tables of last resort
            if name != args.only or some_tables
        ):
            parser.error(f"the tables not played are kept from {args.out}, which holds none")
        if kept.get("seed") != args.seed:
            parser.error(f"{args.out} was calibrated with seed {kept.get('seed')}, not {args.seed}")
    raw: dict[str, list] = json.loads(args.raw.read_text()) if args.raw and args.raw.exists() else {}
    by_game: dict[str, dict[str, dict[str, list]]] = {}
    with multiprocessing.Pool(args.workers) as pool:
        for name, (game_id, reading) in calibrated.items():
            if args.only and name != args.only:
                if name in kept["by_game"]:
                    by_game[name] = kept["by_game"][name]
                    counts[name] = kept["games"][name]
                else:  # a reading the file has no tables for: its games use the default reading's
                    del counts[name]
                continue
            by_game[name] = {}
            for players in (2, 3, 4):
                key = f"{name}/{players}"
                if players not in args.players:
                    if str(players) not in kept["by_game"].get(name, {}):
                        parser.error(f"{args.out} has no table of {players} for {name} to keep")
                    by_game[name][str(players)] = kept["by_game"][name][str(players)]
                    continue
                start = time.perf_counter()
                if len(raw.get(key, [])) != counts[name]:
                    jobs = [(game_id, reading, players, args.seed, n) for n in range(counts[name])]
                    raw[key] = pool.map(one_game, jobs, chunksize=1)
                    if args.raw:
                        args.raw.write_text(json.dumps(raw))
                table = fit(raw[key], players, SPECS[game_id].rounds_by_players[players] * players)
                by_game[name][str(players)] = table
                print(f"{key}: spread {table['spread']} ({time.perf_counter() - start:.0f} s)", flush=True)
    data = {
        "what": (
            "strong self-play at tables of 2 to 4, by number of turns left k (index 0: the game is over): "
            "bias[k][d], the mean of F - m for the player d seats after the active one; spread[k], the root mean "
            "square over pairs of players of the difference of F - m - bias (F the final score, m the network's "
            "forecast at the start of a turn, before its first roll); by game, and by game under a reading of its "
            "rules with an option off its default (its own network), named as in 'vraiment-tres-fute "
            "reprise_with_no_die_left=false'"
        ),
        "command": (
            f"python scripts/calibrate_win.py --games {counts['tres-fute']} --vtf-games {counts['vraiment-tres-fute']}"
            f" --seed {args.seed}"
        ),
        "seed": args.seed,
        "games": counts,
        "by_game": by_game,
    }
    args.out.write_text(dumps(data))
    print(f"written: {args.out}")


if __name__ == "__main__":
    main()

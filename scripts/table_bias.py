"""The values shown at a table, measured against strong tables' games, and the lift's table bias.

    python scripts/table_bias.py --game tres-fute --players 3,4 --games 60 --seed 740 \
        --out runs/table-bias-tf-740.jsonl --write

Plays ``--games`` tables at each size of ``--players`` (to fit: tuning seeds, below 1000), every
decision the strong choice that the review and the hint value (``bots.appraisal.appraise``,
one BLAS thread a worker), and measures, at each decision, the seat's final score less the
value shown: what the strong player's game went on to score above what it was said to be
worth. Its means, for each table size, round and seat counted from the active player's (the
time at a table; the seat's own turn or another's), are printed with the standard error of
their games. Each game's rows go to ``--out`` (a run given the same file goes on where it
stopped; ``--report`` prints the files without playing). ``--write`` adds the means to the
table bias of the shipped lift (``bots/lift.py``'s ``table_bias``, in
``src/tresfute/bots/data/lift-*.json``), with the command in ``table_bias_made_by``: measured
with a bias already shipped, the rows are what is left of it, and they are added to it.
``--rule NAME=true|false`` plays under a rules option, and writes that reading's lift.
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import sys
from collections import defaultdict
from pathlib import Path

from tresfute.bots.appraisal import appraise
from tresfute.bots.blas import blas_threads
from tresfute.bots.lift import lift_file
from tresfute.bots.network import reading_of
from tresfute.rules import Game
from tresfute.simulate import add_rule_option, chosen_rules, derived_seed, rows_written, run_and_write

DATA = Path(__file__).resolve().parent.parent / "src" / "tresfute" / "bots" / "data"


def measured(job: tuple[str, int, int, int, dict[str, bool]]) -> dict:
    """Game ``n`` of a table of ``players``, each decision the review's strong choice
    (``bots.appraisal.appraise``: the value shown is its value, and no decision costs
    anything): where the table stood at each (round, the deciding seat counted from the active
    player's), and its final score less the value shown then."""
    game_id, players, seed, n, rules = job
    game = Game(game_id, players=players, seed=derived_seed(seed, n, "game"), rules=rules)
    shown: list[tuple[int, int, int, float]] = []
    with blas_threads():
        while not game.is_over:
            player = game.to_move
            assert player is not None and player >= 0
            appraisal = appraise(game, player)
            shown.append((player, game.round, (player - game.active) % players, appraisal.best.expected))
            game.play(appraisal.choice, player)
    finals = [score.total for score in game.scores()]
    rows = [[round_, offset, round(finals[player] - value, 3)] for player, round_, offset, value in shown]
    return {"players": players, "n": n, "rows": rows}


def means(games: list[dict], players: int) -> dict[tuple[int, int], tuple[float, float, int]]:
    """Each (round, seat from the active player's) cell's mean of what was left, the standard
    error of its games' means, and how many games it holds."""
    by_game: dict[tuple[int, int], list[float]] = defaultdict(list)
    for game in games:
        if game["players"] != players:
            continue
        cells: dict[tuple[int, int], list[float]] = defaultdict(list)
        for round_, offset, left in game["rows"]:
            cells[round_, offset].append(left)
        for cell, lefts in cells.items():
            by_game[cell].append(statistics.fmean(lefts))
    found = {}
    for cell, values in by_game.items():
        se = statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else float("inf")
        found[cell] = (statistics.fmean(values), se, len(values))
    return found


def report(games: list[dict]) -> dict[int, dict[tuple[int, int], tuple[float, float, int]]]:
    sizes = sorted({game["players"] for game in games})
    found = {}
    for players in sizes:
        cells = means(games, players)
        found[players] = cells
        count = sum(1 for game in games if game["players"] == players)
        print(f"{players} players, {count} games: final score less the value shown, by round and seat")
        for r in sorted({r for r, _ in cells}):
            shown = []
            for k in range(players):
                if (r, k) in cells:
                    mean, se, _games = cells[r, k]
                    shown.append(f"seat +{k}: {mean:+6.1f} ± {se:4.1f}")
            print(f"  round {r}: " + ", ".join(shown))
    return found


def write(game_id: str, rules: dict[str, bool], found: dict) -> Path:
    """Add the means to the table bias of the reading's shipped lift."""
    reading = reading_of(Game(game_id, players=1, rules=rules))
    path = DATA / lift_file(game_id, reading)
    data = json.loads(path.read_text())
    bias = data.get("table_bias", {})
    for players, cells in found.items():
        rounds = Game(game_id, players=players, rules=rules).rounds
        old = bias.get(str(players), [[0.0] * players for _ in range(rounds)])
        left = {cell: mean for cell, (mean, _se, _games) in cells.items()}
        bias[str(players)] = [
            [round(old[r][k] + left.get((r + 1, k), 0.0), 1) for k in range(players)] for r in range(rounds)
        ]
    data["table_bias"] = dict(sorted(bias.items()))
    made = data.get("table_bias_made_by", [])
    made = [made] if isinstance(made, str) else made
    data["table_bias_made_by"] = [*made, "python scripts/table_bias.py " + shlex.join(sys.argv[1:])]
    path.write_text(json.dumps(data, indent=1) + "\n")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=["tres-fute", "vraiment-tres-fute"], required=True)
    parser.add_argument("--players", default="3,4", help="the table sizes, comma-separated (2 to measure only)")
    parser.add_argument("--games", type=int, default=40, help="tables of each size")
    parser.add_argument("--seed", type=int, default=740)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, help="each game's rows, one JSON line a game")
    parser.add_argument("--report", type=Path, nargs="*", help="print these files' means, without playing")
    parser.add_argument("--write", action="store_true", help="add the means to the shipped lift's table bias")
    add_rule_option(parser)
    args = parser.parse_args()
    rules = chosen_rules(parser, args.game, args.rule)
    sizes = sorted({int(n) for n in args.players.split(",")})
    if any(n not in (2, 3, 4) for n in sizes):
        parser.error("--players: table sizes among 2, 3 and 4")
    if args.report is not None:
        games = [json.loads(line) for path in args.report for line in path.read_text().splitlines() if line.strip()]
        report(games)
        return
    if args.write and args.seed >= 1000:
        parser.error(
            "--write: from a tuning seed, below 1000 (those from 1000 on are held out: measured, never fitted)"
        )
    games = rows_written(args.out)
    done = {(game["players"], game["n"]) for game in games}
    jobs = [(args.game, n_players, args.seed, n, rules) for n_players in sizes for n in range(args.games)]
    jobs = [job for job in jobs if (job[1], job[3]) not in done]
    games.extend(run_and_write(measured, jobs, args.workers, args.out))
    found = report([game for game in games if game["players"] in sizes])
    if args.write:
        print("wrote", write(args.game, rules, found))


if __name__ == "__main__":
    main()

"""Whole-game review time: ``bots.review.review_game`` over every decision of a finished solo
game, Très futé and Vraiment très futé, the played move always searched. Goal: at most 1 s
(Très futé) and 3 s (Vraiment très futé) per game.

    OPENBLAS_NUM_THREADS=1 python benchmarks/review_speed.py [--games 3] [--bot greedy] [--seed 1] [--all]
    OPENBLAS_NUM_THREADS=1 python benchmarks/review_speed.py --players 3   # a seat's review at a table

With ``--players N`` the games are tables of N players of ``--bot`` and the first seat's game is
reviewed: the goals are then 3 s (Très futé) and 6 s (Vraiment très futé), issue 71's.

Beside it, in the same run (a loaded machine slows both alike): ``analyse`` over the same
decisions, the strong analysis alone (its candidates searched, as the review's base), and with
``--all`` every legal move searched (what rating the played move cost before the review).

The games are seeded games of ``--bot`` (greedy by default: a player who often departs from the
strong player's choice, so most of its moves must be searched too; the strong player's own games
cost only the analysis). Each game is reviewed once after a first review of another game has
loaded the networks; the time of each game, their median and the decisions per second are
printed. The first line says whether the engine runs compiled (mypyc) or as plain Python, and
how many threads BLAS may use (one, for figures that compare across machines).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from tresfute import records
from tresfute.bots import analyse
from tresfute.bots.review import review_game
from tresfute.records import Record, split_entry
from tresfute.rules import COMPILED, Game
from tresfute.simulate import play_game

GOALS = {"tres-fute": 1.0, "vraiment-tres-fute": 3.0}
TABLE_GOALS = {"tres-fute": 3.0, "vraiment-tres-fute": 6.0}


def analysed(record: Record, search_all: bool) -> float:
    """Seconds to analyse every decision of player 1 (``bots.analyse``), as the review's base."""
    game = Game(record.game, players=len(record.players), seed=record.seed, dice=record.dice)
    seconds = 0.0
    for entry in record.moves:
        seat, text = split_entry(entry)
        if seat == 0:
            start = time.perf_counter()
            analyse(game, 0, search_all=search_all)
            seconds += time.perf_counter() - start
        game.play(text, seat)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--bot", default="greedy")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--all", dest="search_all", action="store_true", help="also time analyse --all")
    parser.add_argument("--players", type=int, default=1, choices=[1, 2, 3, 4], help="players at each table")
    args = parser.parse_args()
    threads = os.environ.get("OPENBLAS_NUM_THREADS", "unset")
    print(f"engine: {'compiled' if COMPILED else 'plain Python'}; OPENBLAS_NUM_THREADS={threads}")
    players = args.players
    for game_id, goal in (GOALS if players == 1 else TABLE_GOALS).items():
        review_game(records.record_of(play_game(game_id, players, args.bot, args.seed + 1000, 0)))  # warm up
        times, base, every, decisions = [], [], [], 0
        for n in range(args.games):
            record = records.record_of(play_game(game_id, players, args.bot, args.seed, n))
            start = time.perf_counter()
            review = review_game(record)
            times.append(time.perf_counter() - start)
            decisions += len(review.decisions)
            base.append(analysed(record, False))
            if args.search_all:
                every.append(analysed(record, True))
        median = statistics.median(times)
        table = f" at {players} players" if players > 1 else ""
        print(
            f"{game_id}: {args.games} games of {args.bot}{table}, review {median:.2f} s per game (median;"
            f" {', '.join(f'{t:.2f}' for t in times)}), {decisions / sum(times):.0f} decisions/s;"
            f" goal {goal:.0f} s: {'met' if median <= goal else 'not met'}"
        )
        print(f"  analyse, candidates only: {statistics.median(base):.2f} s per game (median)")
        if every:
            print(f"  analyse --all (every move searched): {statistics.median(every):.2f} s per game (median)")


if __name__ == "__main__":
    main()

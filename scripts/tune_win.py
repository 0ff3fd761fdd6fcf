"""Tuning games of the winning player against another bot, with settings of one's choosing.

python scripts/tune_win.py GAME PLAYERS GAMES SEED SETTINGS [OPPONENT]

e.g. ``python scripts/tune_win.py tres-fute 2 300 0 '{"margin": 15.0}' strong``: ``WinningBot(**SETTINGS)``
plays one seat (it moves round the table, as in ``tresfute bench``) and OPPONENT (default
strong) the others, on the games ``tresfute bench --seed SEED`` would play; SEED must be a
tuning seed (below 1000, docs/bench.md). Prints the win rate (a tie shared), its standard
error, both means and the seconds of thinking per game. Two processes.
"""

from __future__ import annotations

import json
import multiprocessing
import statistics
import sys
import time

from tresfute.bots import make_bot
from tresfute.bots.winning import WinningBot
from tresfute.rules import Game
from tresfute.simulate import bot_seat, derived_seed, win_share


def one(job: tuple[str, int, int, int, dict, str]) -> tuple[float, int, float, float]:
    game_id, players, seed, n, settings, opponent = job
    game = Game(game_id, players=players, seed=derived_seed(seed, n, "game"))
    seat = bot_seat(players, n)
    bots = [
        WinningBot(derived_seed(seed, n, f"bot{p}"), **settings)
        if p == seat
        else make_bot(opponent, derived_seed(seed, n, f"bot{p}"))
        for p in range(players)
    ]
    thinking = 0.0
    while not game.is_over:
        p = game.to_move
        assert p is not None and p >= 0
        start = time.perf_counter()
        move = bots[p].choose(game, p)
        if p == seat:
            thinking += time.perf_counter() - start
        game.play(move, p)
    totals = [s.total for s in game.scores()]
    others = statistics.fmean(t for i, t in enumerate(totals) if i != seat)
    return win_share(game.winners(), seat), totals[seat], others, thinking


def main() -> None:
    game_id, players, games, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    settings = json.loads(sys.argv[5])
    opponent = sys.argv[6] if len(sys.argv) > 6 else "strong"
    if not 0 <= seed < 1000:
        sys.exit("tune on tuning seeds (0 to 999): 1000 and up are the benchmark's")
    jobs = [(game_id, players, seed, n, settings, opponent) for n in range(games)]
    with multiprocessing.Pool(2) as pool:
        results = pool.map(one, jobs, chunksize=1)
    wins = [r[0] for r in results]
    rate, se = statistics.fmean(wins), statistics.pstdev(wins) / len(wins) ** 0.5
    own, others, thinking = (statistics.fmean(r[k] for r in results) for k in (1, 2, 3))
    print(
        f"{game_id}, {players} players, seed {seed}, {settings} against {opponent}: wins {rate:.1%} (se {se:.1%}), "
        f"{len(wins)} games; mean {own:.1f}, the others' {others:.1f}; {thinking:.2f} s of thinking a game"
    )


if __name__ == "__main__":
    main()

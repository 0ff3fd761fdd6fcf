"""Engine throughput: random solo games per second, and look-ahead: afterstates valued per
second by the value-only player. Best of several runs.

    python benchmarks/engine_speed.py [--game tres-fute] [--players 1] [--games 2000] [--runs 5]
                                      [--lookahead-games 40]

Random play: seeded games between random players (``tresfute.simulate.play_game``).
Look-ahead: solo games of the value-only player (``tresfute.bots.strong.ValueBot``), which
values the position after each legal move with the shipped evaluation; the figure counts those
positions (decisions with a single legal move are played without valuing anything).
Best-of-N is reported because a shared machine only ever slows a run down. The first line says
whether the engine runs compiled (mypyc) or as plain Python.
"""

from __future__ import annotations

import argparse
import time

from tresfute.bots.strong import ValueBot
from tresfute.rules import COMPILED, Game
from tresfute.simulate import play_game


def random_rate(game: str, players: int, games: int) -> float:
    start = time.perf_counter()
    for n in range(games):
        play_game(game, players, "random", 1, n)
    return games / (time.perf_counter() - start)


def lookahead_rate(game: str, games: int) -> float:
    valued = 0
    start = time.perf_counter()
    for n in range(games):
        g, bot = Game(game, players=1, seed=n), ValueBot(n)
        while not g.is_over:
            moves = len(g.legal_moves(0))
            if moves > 1:
                valued += moves
            g.play(bot.choose(g, 0), 0)
    return valued / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="tres-fute")
    parser.add_argument("--players", type=int, default=1)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--lookahead-games", type=int, default=40, help="value-only games per run (0: skip)")
    args = parser.parse_args()
    print(f"engine: {'compiled (mypyc)' if COMPILED else 'plain Python'}")
    rates = [random_rate(args.game, args.players, args.games) for _ in range(args.runs)]
    print(
        f"{args.game}, {args.players} player(s), random play: best {max(rates):.0f} games/s "
        f"(runs: {', '.join(f'{r:.0f}' for r in rates)})"
    )
    if args.lookahead_games > 0:
        rates = [lookahead_rate(args.game, args.lookahead_games) for _ in range(args.runs)]
        print(
            f"{args.game}, solo, value-only player: best {max(rates):.0f} afterstates valued/s "
            f"(runs: {', '.join(f'{r:.0f}' for r in rates)})"
        )


if __name__ == "__main__":
    main()

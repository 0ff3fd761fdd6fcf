"""Random-play throughput of the engine: games per second, best of several runs.

    python benchmarks/engine_speed.py [--game tres-fute] [--players 1] [--games 2000] [--runs 5]

Best-of-N is reported because a shared machine only ever slows a run down.
"""

from __future__ import annotations

import argparse
import time

from tresfute.simulate import play_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="tres-fute")
    parser.add_argument("--players", type=int, default=1)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rates = []
    for _ in range(args.runs):
        start = time.perf_counter()
        for n in range(args.games):
            play_game(args.game, args.players, "random", 1, n)
        rates.append(args.games / (time.perf_counter() - start))
    print(
        f"{args.game}, {args.players} player(s), random play: best {max(rates):.0f} games/s "
        f"(runs: {', '.join(f'{r:.0f}' for r in rates)})"
    )


if __name__ == "__main__":
    main()

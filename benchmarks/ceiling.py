"""The ceiling: the best solo score found with every future roll known, against the strong
player's on the same dice.

    python benchmarks/ceiling.py --game tres-fute --games 100 --seed 1000 --widths 16,64,256 \\
        --out runs/ceiling-tf.jsonl [--rule reprise_with_no_die_left=false] [--workers 2]

For each game (seeds ``--seed`` to ``--seed + --games - 1``): the dice are fixed by the seed and
the moment of each roll (``bots/clairvoyant.py``); the clairvoyant beam search is run at each
width of ``--widths``, and the strong player (``strong``, seed 0, as ``tresfute bench`` makes
it) plays a game on the same dice without knowing them in advance. The bound of a game is the
best score found at any width (each is a line of play that these dice allow); the share is the
strong player's mean score over the mean bound. Each game goes to ``--out`` as one JSON line,
and a run given the same file goes on where it stopped (the widths and rules must be the same).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from multiprocessing import Pool
from pathlib import Path

from tresfute.bots import make_bot
from tresfute.bots.blas import blas_threads
from tresfute.bots.clairvoyant import clairvoyant_line, play_on
from tresfute.simulate import add_rule_option, chosen_rules


def one(job: tuple[str, dict[str, bool], int, tuple[int, ...]]) -> dict:
    game_id, rules, seed, widths = job
    found: dict[str, int] = {}
    seconds: dict[str, float] = {}
    with blas_threads():
        for width in widths:
            start = time.process_time()
            found[str(width)] = clairvoyant_line(game_id, seed, width, rules).score
            seconds[str(width)] = round(time.process_time() - start, 2)
        strong = play_on(game_id, seed, make_bot("strong", 0), rules)
    return {
        "game": game_id,
        "rules": rules,
        "seed": seed,
        "widths": found,
        "seconds": seconds,
        "bound": max(found.values()),
        "strong": strong,
    }


def _mean_se(values: list[float]) -> str:
    se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return f"{statistics.fmean(values):.1f} ± {se:.1f}"


def summary(rows: list[dict], widths: tuple[int, ...]) -> str:
    rules = " ".join(f"{name}={str(value).lower()}" for name, value in rows[0]["rules"].items())
    lines = [f"{rows[0]['game']}{' ' + rules if rules else ''}: {len(rows)} games"]
    for width in widths:
        scores = [r["widths"][str(width)] for r in rows]
        times = [r["seconds"][str(width)] for r in rows]
        lines.append(f"  width {width:>5}: {_mean_se(scores)}  ({statistics.fmean(times):.1f} s a game)")
    bounds = [r["bound"] for r in rows]
    strong = [r["strong"] for r in rows]
    lines.append(f"  bound (best of the widths): {_mean_se(bounds)}")
    lines.append(f"  strong player, same dice:   {_mean_se(strong)}")
    share = statistics.fmean(strong) / statistics.fmean(bounds)
    gaps = [b - s for b, s in zip(bounds, strong, strict=True)]
    lines.append(f"  share of the bound: {100 * share:.1f} %  (bound − strong {_mean_se(gaps)} a game)")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="tres-fute")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--widths", default="16,64,256", help="beam widths, comma-separated")
    add_rule_option(parser)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    widths = tuple(int(w) for w in args.widths.split(","))
    rules = chosen_rules(parser, args.game, args.rule)

    done: dict[int, dict] = {}
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            row = json.loads(line)
            if row["game"] == args.game and row["rules"] == rules and set(row["widths"]) == {str(w) for w in widths}:
                done[row["seed"]] = row
    jobs = [(args.game, rules, s, widths) for s in range(args.seed, args.seed + args.games) if s not in done]
    with Pool(args.workers) as pool, args.out.open("a") as out:
        for row in pool.imap_unordered(one, jobs):
            done[row["seed"]] = row
            out.write(json.dumps(row) + "\n")
            out.flush()
            print(f"seed {row['seed']}: bound {row['bound']} {row['widths']}, strong {row['strong']}", flush=True)
    rows = [done[s] for s in range(args.seed, args.seed + args.games)]
    print(summary(rows, widths))


if __name__ == "__main__":
    main()

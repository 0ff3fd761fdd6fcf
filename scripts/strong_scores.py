"""The strong computer player's solo scores that a player's progress page compares theirs with.

python scripts/strong_scores.py [--games 200] [--seed 1000] [--workers 2]

plays ``--games`` seeded solo games of each game with the strong player, exactly as
``tresfute bench --game G --bot strong --games N --seed S`` does (game ``n`` on the seed derived
from ``S`` and ``n``: the first ``N`` games of the benchmark's reported runs, ``docs/bench.md``),
and writes every game's score to ``src/tresfute/bots/data/strong-scores.json``, with the command
and the seed. The scores do not depend on ``--workers``; the engine (compiled or plain) plays the
same moves.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from tresfute.rules import SPECS
from tresfute.simulate import bench

OUT = Path(__file__).resolve().parent.parent / "src" / "tresfute" / "bots" / "data" / "strong-scores.json"


def dumps(data: dict[str, Any]) -> str:
    """The file's text: indented, each game's scores on one line."""
    lists = {game: json.dumps(d["scores"]) for game, d in data["by_game"].items()}
    text = json.dumps({**data, "by_game": {g: {**d, "scores": f"@{g}@"} for g, d in data["by_game"].items()}}, indent=1)
    for game, scores in lists.items():
        text = text.replace(f'"@{game}@"', scores)
    return text + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    found = {}
    for game in SPECS:
        start = time.perf_counter()
        data = bench(game, 1, "strong", args.games, args.seed, workers=args.workers)
        scores = [seats[0] for seats in data["scores"]]
        found[game] = {"scores": scores, "mean": round(statistics.fmean(scores), 1)}
        print(f"{game}: {len(scores)} games, mean {found[game]['mean']}, {time.perf_counter() - start:.0f} s")
    data = {
        "what": "the strong computer player's score in each seeded solo game (tresfute bench's games)",
        "command": f"python scripts/strong_scores.py --games {args.games} --seed {args.seed}",
        "bot": "strong",
        "seed": args.seed,
        "games": args.games,
        "by_game": found,
    }
    OUT.write_text(dumps(data))
    print(f"written: {OUT}")


if __name__ == "__main__":
    main()

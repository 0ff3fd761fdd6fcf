"""Train the strong player's evaluation (``bots/data/value-<game>.json``) from self-play.

    python scripts/train_strong.py --game vraiment-tres-fute --iterations 6 --games 6000 --explore 0.05

Each iteration plays solo games with the current evaluation (the greedy player for the first),
records every position on the way with what each area and the foxes still gained after it, and
fits each head of the evaluation of ``bots/value.py`` (one per area, one for the foxes) to those
gains (ridge regression, solved by conjugate gradients), on the positions of the last
``--window`` iterations. Only tuning seeds are used (base seeds 0-999, see docs/bench.md): every
game's seed is derived from ``--seed`` and the iteration. The self-play games of each iteration
show a progress bar on stderr when it is a terminal. Needs numpy (``pip install -e
".[envs]"``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from tresfute.bots.greedy import GreedyBot
from tresfute.bots.strong import StrongBot, ValueBot
from tresfute.bots.value import FOXES, ValueModel, features
from tresfute.progress import progress_bar
from tresfute.rules import Game
from tresfute.rules.game import get_spec
from tresfute.simulate import derived_seed

OUT = Path(__file__).resolve().parent.parent / "src" / "tresfute" / "bots" / "data"


def play(args: tuple[str, dict | None, int, int, float, bool]) -> tuple[list[list[str]], list[list[float]], float]:
    """One solo game: the features after every move, what each head still gained, the final score."""
    game_id, model_json, seed, number, explore, search = args
    game = Game(game_id, players=1, seed=derived_seed(seed, number, "train"))
    bot: GreedyBot | ValueBot | StrongBot
    if model_json is None:
        bot = GreedyBot(number)
    elif search:
        bot = StrongBot(number, model=ValueModel.from_json(model_json))
    else:
        bot = ValueBot(number, ValueModel.from_json(model_json), explore=explore)
    rows, now = [], []
    while not game.is_over:
        game.play(bot.choose(game, 0), 0)
        if not game.is_over:
            rows.append(features(game, 0))
            now.append(_heads(game))
    final = _heads(game)
    return rows, [[f - v for f, v in zip(final, values, strict=True)] for values in now], game.score(0).total


def _heads(game: Game) -> list[float]:
    """What the sheet holds now for each head: every area's score, then the foxes."""
    return [*game.score(0).areas.values(), len(game.sheets[0].foxes)]


def fit(rows: list[list[str]], targets: list[list[float]], ridge: float, iterations: int) -> dict[str, list[float]]:
    """Ridge regression of each head's targets on the binary features, by conjugate gradients."""
    vocabulary: dict[str, int] = {}
    flat, row_of = [], []
    for r, names in enumerate(rows):
        for name in names:
            flat.append(vocabulary.setdefault(name, len(vocabulary)))
            row_of.append(r)
    idx = np.array(flat, dtype=np.int64)
    row = np.array(row_of, dtype=np.int64)
    ys = np.array(targets, dtype=np.float64)
    n, f = len(rows), len(vocabulary)

    def normal(w: np.ndarray) -> np.ndarray:
        xw = np.bincount(row, weights=w[idx], minlength=n)
        return np.bincount(idx, weights=xw[row], minlength=f) + ridge * w

    weights = np.zeros((f, ys.shape[1]))
    for head in range(ys.shape[1]):
        y = ys[:, head]
        b = np.bincount(idx, weights=y[row], minlength=f)
        w = np.zeros(f)
        r = b - normal(w)
        p = r.copy()
        rr = r @ r
        for _ in range(iterations):
            ap = normal(p)
            alpha = rr / (p @ ap)
            w += alpha * p
            r -= alpha * ap
            new = r @ r
            if new < 1e-8 * (b @ b):
                break
            p = r + (new / rr) * p
            rr = new
        weights[:, head] = w
        pred = np.bincount(row, weights=w[idx], minlength=n)
        print(f"  head {head}: rms error {np.sqrt(np.mean((pred - y) ** 2)):.2f}")
    print(f"  fit: {n} positions, {f} features")
    return {
        name: [round(float(x), 2) for x in weights[i]]
        for name, i in vocabulary.items()
        if np.abs(weights[i]).max() >= 0.005
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="tres-fute")
    parser.add_argument("--iterations", type=int, default=4)
    parser.add_argument("--games", type=int, default=6000, help="games per iteration")
    parser.add_argument("--seed", type=int, default=7, help="a tuning seed, 0-999")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--explore", type=float, default=0.03, help="share of random moves in self-play")
    parser.add_argument("--ridge", type=float, default=3.0)
    parser.add_argument("--search", action="store_true", help="self-play with the strong player (slower, better)")
    parser.add_argument("--window", type=int, default=4, help="fit on the positions of this many last iterations")
    parser.add_argument("--start", type=Path, help="start from this evaluation instead of the greedy player")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if not 0 <= args.seed <= 999:
        parser.error("training uses tuning seeds only (0-999)")
    out = args.out or OUT / f"value-{args.game}.json"
    model_json = json.loads(args.start.read_text()) if args.start else None
    spec = get_spec(args.game)
    heads = (*spec.areas, FOXES)
    window: list[tuple[list[list[str]], list[list[float]]]] = []
    with Pool(args.workers) as pool:
        for iteration in range(args.iterations):
            start = time.perf_counter()
            base = args.seed * 1000 + iteration
            jobs = [(args.game, model_json, base, n, args.explore, args.search) for n in range(args.games)]
            rows: list[list[str]] = []
            targets: list[list[float]] = []
            finals = []
            with progress_bar(len(jobs), f"iteration {iteration}: self-play") as progress:
                for game_rows, game_targets, final in pool.imap(play, jobs, chunksize=10):
                    rows += game_rows
                    targets += game_targets
                    finals.append(final)
                    if progress is not None:
                        progress(1)
            window = [*window, (rows, targets)][-args.window :]
            player = "greedy" if model_json is None else "strong" if args.search else "evaluation"
            print(
                f"iteration {iteration}: {player} played {len(finals)} games, mean {statistics.fmean(finals):.1f} "
                f"({time.perf_counter() - start:.0f} s)"
            )
            weights = fit([r for rs, _ in window for r in rs], [t for _, ts in window for t in ts], args.ridge, 200)
            model_json = ValueModel(args.game, heads, {k: tuple(v) for k, v in weights.items()}).to_json()
            out.write_text(json.dumps(model_json, sort_keys=True, separators=(",", ":")) + "\n")
            print(f"  wrote {out} ({out.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()

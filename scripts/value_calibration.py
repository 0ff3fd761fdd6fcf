"""Positions of every kind of play, with what the strong player then scores from them.

    python scripts/value_calibration.py --game tres-fute --games 400 --seed 20 --out runs/cal-tf.npz

Solo games are played by four kinds of player (random, greedy, noisy-strong: the strong player
with a quarter of its moves random, strong). In each round one decision of the game is drawn at
random; from there the strong player plays the game to its end on dice drawn anew (the game's
own dice are never used past that point), and the final score is kept. Each row holds the
position's round, the kind of play that led there, the network's value of the strong player's
first move's afterstate and the network's inputs there (for fitting the values), the expected
final score the hint and the review show there (``bots/appraisal.py``), and the final score
reached. ``--seed`` picks the games and the rollouts: the review's and the benchmark's
seeds (0 and 1000 on) must not be used for fitting; ``scripts/value_calibration.py --report``
measures the calibration error by round and kind on a file, and with ``--fit`` gives the search
gain (``appraisal.SEARCH_GAIN``: what the strong player scores above the network's valuation,
by rounds left) that fits it: the shipped one is fitted on ``--seed 20``.
"""

from __future__ import annotations

import argparse
import random
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from tresfute.bots import GreedyBot, RandomBot, StrongBot
from tresfute.bots.appraisal import appraise, search_gain
from tresfute.bots.blas import blas_threads
from tresfute.bots.network import shipped_network
from tresfute.bots.strong import roll_own_dice
from tresfute.rules import CHANCE, Game, Move

KINDS = ("random", "greedy", "noisy", "strong")


class NoisyStrong:
    """The strong player, with a share of its moves random: sheets between greedy and strong."""

    name = "noisy"

    def __init__(self, seed: int, share: float = 0.25) -> None:
        self.strong = StrongBot(seed)
        self.rng = random.Random(seed)
        self.share = share

    def choose(self, game: Game, player: int) -> Move:
        if self.rng.random() < self.share:
            moves = game.legal_moves(player)
            return moves[int(self.rng.random() * len(moves))]
        return self.strong.choose(game, player)


def player_of(kind: str, seed: int):
    return {"random": RandomBot, "greedy": GreedyBot, "noisy": NoisyStrong, "strong": StrongBot}[kind](seed)


def rollout(start: Game, seed: int) -> tuple[list[float], float, int]:
    """The strong player from ``start`` to the end on fresh dice: the inputs of its first
    afterstate, the network's value there, and the final score."""
    network = shipped_network(start.spec.id)
    rng = random.Random(seed)
    bot = StrongBot(seed)
    sim = start.copy(dice="external")
    first: tuple[list[float], float] | None = None
    while not sim.is_over:
        p = sim.to_move
        if p == CHANCE:
            roll_own_dice(sim, rng)
            continue
        assert p is not None
        move = bot.choose(sim, p)
        sim.play(move, p)
        if first is None:
            values, inputs = network.evaluate([sim], p)
            first = (inputs[0] or [], values[0])
    assert first is not None
    return first[0], first[1], sim.score(0).total


def one_game(job: tuple[str, str, int]) -> list[tuple[str, int, list[float], float, float, int, float, float]]:
    game_id, kind, seed = job
    rng = random.Random(seed)
    game = Game(game_id, players=1, seed=seed)
    bot = player_of(kind, seed + 1)
    # the decisions of each round, then one drawn per round
    by_round: dict[int, list[int]] = {}
    moves: list[tuple[int, Move]] = []
    positions: list[Game] = []
    while not game.is_over:
        p = game.to_move
        assert p is not None and p >= 0
        legal = game.legal_moves(p)
        if len(legal) > 1:
            by_round.setdefault(game.round, []).append(len(positions))
            positions.append(game.copy())
        move = legal[0] if len(legal) == 1 else bot.choose(game, p)
        moves.append((p, move))
        game.play(move, p)
    rows = []
    for rnd, indices in sorted(by_round.items()):
        position = positions[rng.choice(indices)]
        shown = appraise(position, 0).best.expected  # what the hint and the review show
        inputs, first_value, final = rollout(position, rng.getrandbits(48))
        rows.append(
            (kind, rnd, inputs, shown, first_value, final, float(position.score(0).total), search_gain(position))
        )
    return rows


def generate(game_id: str, games: int, seed: int, workers: int) -> dict[str, np.ndarray]:
    jobs = [(game_id, KINDS[n % len(KINDS)], seed * 1_000_003 + n) for n in range(games)]
    rows = []
    with blas_threads(), Pool(workers) as pool:
        for n, result in enumerate(pool.imap_unordered(one_game, jobs, chunksize=2), start=1):
            rows += result
            if n % 20 == 0:
                print(f"{n}/{games} games", flush=True)
    return {
        "kind": np.array([KINDS.index(r[0]) for r in rows], dtype=np.int8),
        "round": np.array([r[1] for r in rows], dtype=np.int8),
        "inputs": _padded([r[2] for r in rows]),
        "shown": np.array([r[3] for r in rows], dtype=np.float32),
        "first_value": np.array([r[4] for r in rows], dtype=np.float32),
        "final": np.array([r[5] for r in rows], dtype=np.float32),
        "score_now": np.array([r[6] for r in rows], dtype=np.float32),
        "gain": np.array([r[7] for r in rows], dtype=np.float32),  # the search gain in ``shown``
    }


def _padded(rows: list[list[float]]) -> np.ndarray:
    """The inputs as one array: a row whose first afterstate ended the game has none (zeros)."""
    width = max((len(r) for r in rows), default=0)
    return np.array([r or [0.0] * width for r in rows], dtype=np.float32)


def report(data: dict[str, np.ndarray], field: str = "shown") -> None:
    """Mean value minus final score by round and kind (± its standard error)."""
    rounds = sorted(set(data["round"].tolist()))
    print(f"{'kind':8}" + "".join(f"{'round ' + str(r):>16}" for r in rounds))
    for k, kind in enumerate(KINDS):
        line = f"{kind:8}"
        for r in rounds:
            mask = (data["kind"] == k) & (data["round"] == r)
            err = data[field][mask] - data["final"][mask]
            if len(err) > 1:
                line += f"{err.mean():>+9.1f} ±{err.std(ddof=1) / np.sqrt(len(err)):4.1f}"
                line += f"{'':2}"
            else:
                line += f"{'-':>16}"
        print(line)


def fit(data: dict[str, np.ndarray], rounds: int) -> tuple[float, float]:
    """The search gain ``a + b * rounds_left`` (``appraisal.SEARCH_GAIN``) that makes the shown
    values meet the final scores on average: least squares over every position, every kind."""
    left = (rounds - data["round"]).astype(float)
    raw = data["final"] - (data["shown"] - data.get("gain", np.zeros_like(data["shown"])))
    a, b = np.linalg.lstsq(np.vstack([np.ones_like(left), left]).T, raw, rcond=None)[0]
    return round(float(a), 1), round(float(b), 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=["tres-fute", "vraiment-tres-fute"], required=True)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--report", type=Path, nargs="*", help="measure the calibration of these files")
    parser.add_argument("--fit", action="store_true", help="with --report: the search gain that fits these files")
    args = parser.parse_args()
    if args.report:
        parts = [dict(np.load(p)) for p in args.report]
        data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
        report(data)
        if args.fit:
            a, b = fit(data, Game(args.game, players=1).rounds)
            print(f"search gain: {a} + {b} * rounds left (appraisal.SEARCH_GAIN)")
        return
    data = generate(args.game, args.games, args.seed, args.workers)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(args.out, **data)
    report(data)


if __name__ == "__main__":
    main()

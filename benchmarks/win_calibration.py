"""Whether the chance to win that a table shows is calibrated, on held-out games.

    python benchmarks/win_calibration.py --games 200 --seed 5100 --workers 1 --out runs/win-calibration.jsonl

Plays ``--games`` games at each table of 2, 3 and 4 players of each ``--game`` (seeds derived
from ``--seed``, the game's number and the table; 5100 and up were never used to build or tune
anything: docs/review.md), each seat drawn from ``--kinds`` (strong, greedy and random by
default: mixes of players of every strength, drawn from the seed). At every decision of the
game (a position where a player, not the dice, moves) every seat's chance of finishing first
is recorded (``bots.winning.WinChances``, as the review and the page show it: its parts, every
seat's forecast and loss rate, so that the chances can be made again with other scales), and at
the end each seat's result (1 for a win, ``1/k`` for a tie of ``k``, else 0). Each game goes to
``--out`` as one JSON line; a run given the same file goes on where it stopped, and
``--report`` only reads the file. ``--rule NAME=true|false`` plays under a rules option (its
reading's own network, calibration and table scales).

``--fit`` (on tuning seeds, below 1000, only) finds, by game, the scales of the loss rates and
of the spread (``winning.LOSS_SCALE``, ``winning.SPREAD_SCALE``) with the lowest Brier score on
the file's games, and reports with them; the shipped scales were fitted so:

    python benchmarks/win_calibration.py --games 25 --seed 100 --out runs/win-tuning.jsonl --fit

(Très futé only: Vraiment très futé's strong player is too slow at a table for the time there
was; its scales are Très futé's, unmeasured.) ``--fit-tables`` (tuning seeds, one game and
reading a run) finds each table's spread scale and rates' uncertainty (``winning.TABLE_SCALES``)
the same way, and reports with them.

It prints, by table and in all, the predictions grouped in tenths of the predicted chance: the
mean predicted chance, the observed share of wins, the number of predictions and of distinct
seats (a game's seat counts once however many of its predictions fall in the group), and
whether the two are within ``--tolerance`` points (5) where the group has 100 seats or more;
then the Brier score (the mean of ``(chance - result)^2`` over every seat of every prediction)
beside the naive one (every seat ``1/n``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from tresfute.bots import make_bot
from tresfute.bots.blas import blas_threads
from tresfute.bots.network import reading_of
from tresfute.bots.winning import LOSS_SCALE, SPREAD_SCALE, Forecast, WinChances, calibration_key, table_scales
from tresfute.rules import CHANCE, Game
from tresfute.seeds import derived_seed
from tresfute.simulate import add_rule_option, chosen_rules, win_share

KINDS = ("strong", "greedy", "random")
TABLES = (2, 3, 4)
FIRST_HELD_OUT = 1000  # seeds below are the tuning seeds (docs/bench.md)
MIN_SEATS = 100  # a group is judged from this many distinct seats


def one(job: tuple[str, int, int, int, tuple[str, ...], dict[str, bool]]) -> dict:
    """One game: its seats' kinds, every seat's chance at each decision, every seat's result."""
    game_id, players, seed, n, kinds, rules = job
    purpose = f"win-calibration-{players}"
    draw = random.Random(derived_seed(seed, n, f"{purpose}-kinds"))
    seats = [draw.choice(kinds) for _ in range(players)]
    game = Game(game_id, players=players, seed=derived_seed(seed, n, purpose), rules=rules)
    bots = [make_bot(kind, derived_seed(seed, n, f"{purpose}-bot{p}")) for p, kind in enumerate(seats)]
    chances = WinChances()
    predicted: list[list] = []  # every decision's forecast: means, rates, turns left, spread
    start = time.perf_counter()
    spent = 0.0
    with blas_threads():
        while not game.is_over:
            p = game.to_move
            assert p is not None and p != CHANCE
            before = time.perf_counter()
            f = chances.forecast(game)
            predicted.append([[round(m, 3) for m in f.means], [round(r, 4) for r in f.rates], f.turns, f.spread])
            spent += time.perf_counter() - before
            game.play(bots[p].choose(game, p), p)
    winners = game.winners()
    return {
        "game": game_id,
        "players": players,
        "rules": rules,
        "n": n,
        "seats": seats,
        "scores": [s.total for s in game.scores()],
        "result": [win_share(winners, p) for p in range(players)],
        "predicted": predicted,
        "seconds": round(time.perf_counter() - start, 3),
        "chance_seconds": round(spent, 3),
    }


Scales = dict[str, tuple[float, float]]  # by game: the loss rates' and the spread's


def reading_key(line: dict) -> str:
    """The calibration key of a game's line: its game under the rules it was played by."""
    game = Game(line["game"], players=line["players"], seed=0, rules=line.get("rules", {}))
    return calibration_key(line["game"], reading_of(game))


TableScales = dict[int, tuple[float, float]]  # by table: the spread's scale and the rates' uncertainty


def chances_of(line: dict, scales: Scales, tables: TableScales | None = None) -> list[list[float]]:
    """A game's chances at each decision, made with ``scales`` and the table's scales (``tables``
    where it has this table, else the shipped ``winning.TABLE_SCALES``)."""
    loss, spread = scales[line["game"]]
    n = line["players"]
    table_spread, uncertainty = (tables or {}).get(n) or table_scales(reading_key(line), n)
    spread *= table_spread
    return [Forecast(*parts).chances(loss, spread, uncertainty) for parts in line["predicted"]]


def brier(lines: list[dict], scales: Scales) -> float:
    total = 0.0
    count = 0
    for line in lines:
        for chances in chances_of(line, scales):
            total += sum((c - won) ** 2 for c, won in zip(chances, line["result"], strict=True))
            count += len(chances)
    return total / max(1, count)


def _below(z: np.ndarray) -> np.ndarray:
    """The standard normal distribution function, to 1.5e-7 (Abramowitz and Stegun 7.1.26):
    the fit's grid only, the report uses the model's own."""
    x = np.abs(z) / math.sqrt(2.0)
    t = 1.0 / (1.0 + 0.3275911 * x)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    erfc = poly * np.exp(-x * x)
    return np.where(z >= 0, 1.0 - 0.5 * erfc, 0.5 * erfc)


def _fast_brier(
    key: str,
    tables: dict[int, tuple[np.ndarray, ...]],
    loss: float,
    spread: float,
    table: tuple[float, float] | None = None,
) -> float:
    """The Brier score of :func:`brier`, computed for every decision at once (with ``table``'s
    scales at every table where given, else the shipped ones)."""
    nodes, weights = np.polynomial.hermite_e.hermegauss(24)
    weights = weights / math.sqrt(2 * math.pi)
    total = 0.0
    count = 0
    for n, (means, rates, turns, spreads, results) in tables.items():
        m = means - loss * rates * turns[:, None]
        table_spread, uncertainty = table or table_scales(key, n)
        widened = (uncertainty * turns) ** 2 * (rates**2).mean(axis=1)
        s = np.sqrt((spreads * spread * table_spread) ** 2 + widened)
        chances = np.empty_like(m)
        for p in range(n):
            gaps = np.stack([(m[:, p] - m[:, q]) / s for q in range(n) if q != p], axis=1)  # (D, n - 1)
            inside = _below(nodes[None, None, :] + gaps[:, :, None]).prod(axis=1)  # (D, nodes)
            chances[:, p] = inside @ weights
        chances /= chances.sum(axis=1, keepdims=True)
        total += float(((chances - results) ** 2).sum())
        count += chances.size
    return total / max(1, count)


def fit(lines: list[dict]) -> Scales:
    """By game, the scales of the loss rates and the spread with the lowest Brier score (on a
    grid: loss scale 0 to 8 by 0.25, spread scale 0.5 to 1.5 by 0.05)."""
    found: Scales = {}
    for game_id in sorted({line["game"] for line in lines}):
        tables: dict[int, tuple[np.ndarray, ...]] = {}
        for n in TABLES:
            chosen = [line for line in lines if line["game"] == game_id and line["players"] == n]
            rows = [(parts, line["result"]) for line in chosen for parts in line["predicted"]]
            if rows:
                tables[n] = (
                    np.array([parts[0] for parts, _ in rows]),
                    np.array([parts[1] for parts, _ in rows]),
                    np.array([parts[2] for parts, _ in rows], dtype=float),
                    np.array([parts[3] for parts, _ in rows]),
                    np.array([result for _, result in rows]),
                )
        key = reading_key(next(line for line in lines if line["game"] == game_id))  # one run: one reading
        grid = [(a / 4, b / 20) for a in range(0, 33) for b in range(10, 31)]
        found[game_id] = min(grid, key=lambda ab: _fast_brier(key, tables, *ab))
        loss, spread = found[game_id]
        score = _fast_brier(key, tables, loss, spread)
        print(f"{game_id}: loss scale {loss}, spread scale {spread}, Brier {score:.4f}")
    return found


def fit_tables(lines: list[dict], scales: Scales) -> TableScales:
    """By table, the spread's scale and the loss rates' uncertainty (``winning.TABLE_SCALES``)
    with the lowest Brier score on the file's games, the game's ``scales`` kept (on a grid:
    spread scale 0.5 to 1.5 by 0.05, uncertainty 0 to 2 by 0.25). One game and reading a run."""
    if len({reading_key(line) for line in lines}) > 1:
        raise ValueError("--fit-tables fits one game under one reading: run it on one --game and --rule")
    key = reading_key(lines[0])
    loss, spread = scales[lines[0]["game"]]
    found: TableScales = {}
    for n in TABLES:
        rows = [(parts, line["result"]) for line in lines if line["players"] == n for parts in line["predicted"]]
        if not rows:
            continue
        arrays = {
            n: (
                *(np.array([parts[i] for parts, _ in rows], dtype=float) for i in range(4)),
                np.array([result for _, result in rows]),
            )
        }
        grid = [(a / 20, b / 4) for a in range(10, 31) for b in range(0, 9)]
        scores = {table: _fast_brier(key, arrays, loss, spread, table) for table in grid}
        best = min(grid, key=scores.__getitem__)
        shipped = _fast_brier(key, arrays, loss, spread)
        print(
            f"{key} at {n}: spread scale {best[0]}, uncertainty {best[1]}, Brier {scores[best]:.4f} "
            f"(shipped {table_scales(key, n)}: {shipped:.4f}; none: {scores[(1.0, 0.0)]:.4f})"
        )
        found[n] = best
    return found


def report(lines: list[dict], tolerance: float, scales: Scales, tables: TableScales | None = None) -> bool:
    """Print the tables (by game and table, then all together); whether every group of
    MIN_SEATS seats or more is within ``tolerance``."""
    held = True
    groups: dict[str, list[dict]] = {}
    for line in lines:
        groups.setdefault(f"{line['game']} {line['players']} players", []).append(line)
        groups.setdefault("all", []).append(line)
    for name, chosen in groups.items():
        sums = [[0.0, 0.0, 0] for _ in range(10)]  # predicted, observed, predictions
        seats: list[set[tuple[str, int, int, int]]] = [set() for _ in range(10)]
        brier = naive = 0.0
        count = 0
        seconds = chance_seconds = 0.0
        decisions = 0
        for line in chosen:
            n = line["players"]
            seconds += line["seconds"]
            chance_seconds += line["chance_seconds"]
            decisions += len(line["predicted"])
            for chances in chances_of(line, scales, tables):
                for p, (c, won) in enumerate(zip(chances, line["result"], strict=True)):
                    tenth = min(9, int(c * 10))
                    sums[tenth][0] += c
                    sums[tenth][1] += won
                    sums[tenth][2] += 1
                    seats[tenth].add((line["game"], n, line["n"], p))
                    brier += (c - won) ** 2
                    naive += (1 / n - won) ** 2
                    count += 1
        print(f"\n{name}: {len(chosen)} games, {decisions} decisions")
        print("  tenth      predicted  observed  predictions  seats  within")
        for tenth, (predicted, observed, k) in enumerate(sums):
            if not k:
                continue
            gap = 100 * (observed - predicted) / k
            judged = len(seats[tenth]) >= MIN_SEATS
            ok = abs(gap) <= tolerance
            held = held and (ok or not judged)
            verdict = ("yes" if ok else "NO") if judged else "-"
            print(
                f"  {tenth / 10:.1f}-{(tenth + 1) / 10:.1f}  {100 * predicted / k:9.1f}  {100 * observed / k:8.1f}"
                f"  {k:11d}  {len(seats[tenth]):5d}  {verdict} ({gap:+.1f})"
            )
        if count:
            print(f"  Brier {brier / count:.4f}, naive (1/n) {naive / count:.4f}")
            print(f"  chance: {1000 * chance_seconds / max(1, decisions):.1f} ms a decision ({seconds:.0f} s of play)")
    return held


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=["tres-fute", "vraiment-tres-fute"])
    parser.add_argument("--games", type=int, default=100, help="games per table (2, 3 and 4 players)")
    parser.add_argument("--tables", default="2,3,4", help="the tables played, by their number of players")
    parser.add_argument("--seed", type=int, default=5100)
    parser.add_argument("--kinds", default=",".join(KINDS), help="the players a seat is drawn from")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--tolerance", type=float, default=5.0, help="points between predicted and observed")
    parser.add_argument("--report", action="store_true", help="only print the figures of --out")
    parser.add_argument("--fit", action="store_true", help="fit the scales on --out (tuning seeds only)")
    parser.add_argument(
        "--fit-tables", action="store_true", help="fit each table's scales on --out (tuning seeds only; one --game)"
    )
    add_rule_option(parser, "a rules option of the games played (each --game must have it), e.g. --rule NAME=false")
    args = parser.parse_args()
    games = args.game or ["tres-fute"]
    rules = {game_id: chosen_rules(parser, game_id, args.rule) for game_id in games}
    kinds = tuple(args.kinds.split(","))
    tables = [int(n) for n in args.tables.split(",")]
    if not set(tables) <= set(TABLES):
        parser.error(f"--tables: among {', '.join(map(str, TABLES))}")
    if args.seed < FIRST_HELD_OUT:
        print(f"seed {args.seed}: a tuning seed, not a held-out one", file=sys.stderr)
    lines = [json.loads(text) for text in args.out.read_text().splitlines()] if args.out.exists() else []
    if not args.report:
        done = {(line["game"], line["players"], line["n"]) for line in lines}
        # game by game across the tables, so that a run stopped early covers every table
        jobs = [
            (game_id, players, args.seed, n, kinds, rules[game_id])
            for n in range(args.games)
            for game_id in games
            for players in tables
            if (game_id, players, n) not in done
        ]
        args.out.parent.mkdir(parents=True, exist_ok=True)
        with Pool(args.workers) as pool, args.out.open("a") as out:
            for line in pool.imap(one, jobs):
                out.write(json.dumps(line) + "\n")
                out.flush()
                lines.append(line)
    scales: Scales = {game_id: (LOSS_SCALE[game_id], SPREAD_SCALE[game_id]) for game_id in LOSS_SCALE}
    if args.fit:
        if args.seed >= FIRST_HELD_OUT:
            parser.error("fit on tuning seeds (below 1000) only: the held-out ones measure")
        scales.update(fit(lines))
    tables_fitted: TableScales = {}
    if args.fit_tables:
        if args.seed >= FIRST_HELD_OUT:
            parser.error("fit on tuning seeds (below 1000) only: the held-out ones measure")
        try:
            tables_fitted = fit_tables(lines, scales)
        except ValueError as error:
            parser.error(str(error))
    held = report(lines, args.tolerance, scales, tables_fitted)
    print(f"\nwithin {args.tolerance:g} points in every group of {MIN_SEATS} seats or more: {'yes' if held else 'no'}")


if __name__ == "__main__":
    main()

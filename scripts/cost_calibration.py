"""The costs' difference scale (``bots/lift.py``), fitted where the costs must add up: on the
decisions of reviewed games that departed from the strong choice.

    python scripts/cost_calibration.py --game tres-fute --games 400 --seed 33 --out runs/cost-tf-33.npz
    python scripts/cost_calibration.py --game tres-fute --report runs/cost-tf-33.npz --fit LIFT.json

A cost is meant to be the expected points a move gives away: after a move that departed from
the strong choice, the value shown at the next decision (or the final score, after the last)
should on average be the choice's value minus the cost. The valuation futures measure each
difference in their own network's values, which a network may compress or stretch; the
*difference scale* is the number that makes the differences expected losses. Solo games are
played by random and greedy players (``--kinds noisy`` adds the strong player with a quarter of
its moves random: ``value_calibration.py``; its departures are fewer and smaller) and reviewed
(``review_game``, the shipped lift); for each decision that departed from the choice the file
keeps its rounds left, the valuation futures' difference (the cost without the scale it was
shown with) and the drop, the choice's value minus the next decision's. For each number of
rounds left the scale is the ratio of the drops' sum to the differences' sum (what makes the
costs add up there), drawn towards the ratio over every round by as much as its noise exceeds
the rounds' spread (empirical Bayes).

``--players N`` (2, 3 or 4) plays tables of N players of the kind and reviews one seat of each
(the seed picks it): the costs at that table size (the table network's at three and four),
whose scales ``--fit`` writes under the lift file's ``tables``, by number of players.

``--balance`` fits one factor more on the scales: the one that brings each kind's mean final +
cost − start nearest 0 (the departures' drops run to the seat's next decision, and at a table
the other players' turns come between).

``--report FILES`` prints the ratios and, by kind of player, the games' final + total cost −
start value with the scales found; ``--fit FILE`` writes them into that lift file as its
``difference_scale`` (the rest of the file is kept: fit the lift first,
``value_calibration.py --fit``, as the drops are read with it). ``--rule NAME=true|false`` plays
the games under that rules option. Tuning seeds only: the review's (0) and the benchmarks'
(1000 on) must not be used for fitting.
"""

from __future__ import annotations

import argparse
import json
from contextlib import nullcontext
from multiprocessing import Pool
from pathlib import Path

import numpy as np
from value_calibration import player_of, save

from tresfute import records
from tresfute.bots.blas import blas_threads
from tresfute.bots.lift import shipped_lift
from tresfute.bots.review import review_game
from tresfute.rules import Game
from tresfute.simulate import add_rule_option, chosen_rules, rule_options

KINDS = ("random", "greedy", "noisy")

Played = tuple[int, float, float, list[tuple[int, float, float]]]  # kind, final, start, departures


def one_game(job: tuple[str, int, int, dict[str, bool], int]) -> Played:
    """One game played and reviewed (at a table, the seat the seed picks): its final score,
    start value, and for each of its decisions that departed from the choice its rounds left,
    the valuation futures' difference and the drop (to the seat's next decision)."""
    game_id, kind, seed, rules, players = job
    game = Game(game_id, players=players, seed=seed, rules=rules)
    bots = [player_of(KINDS[kind], seed + 1 + p) for p in range(players)]
    while not game.is_over:
        p = game.to_move
        assert p is not None and p >= 0
        legal = game.legal_moves(p)
        game.play(legal[0] if len(legal) == 1 else bots[p].choose(game, p), p)
    seat = seed % players
    review = review_game(records.record_of(game, [f"{KINDS[kind]}{p + 1}" for p in range(players)]), player=seat)
    lift = shipped_lift(game)
    decisions = review.decisions
    departures = []
    for i, d in enumerate(decisions):
        if d.played == d.best:
            continue
        left = game.rounds - d.round
        scale = lift.scale(left, game.rounds, players) if lift is not None else 1.0
        following = decisions[i + 1].best_value if i + 1 < len(decisions) else review.final_score
        departures.append((left, d.cost / scale, d.best_value - following))
    return kind, float(review.final_score), review.start_value, departures


def generate(
    game_id: str, games: int, seed: int, workers: int, kinds: tuple[str, ...], rules: dict[str, bool], players: int
) -> dict[str, np.ndarray]:
    jobs = [(game_id, KINDS.index(kinds[n % len(kinds)]), seed * 1_000_003 + n, rules, players) for n in range(games)]
    played: list[Played] = []
    with blas_threads(), Pool(workers) if workers > 1 else nullcontext() as pool:  # one worker: here
        for n, result in enumerate(pool.imap(one_game, jobs, chunksize=2) if pool else map(one_game, jobs), start=1):
            played.append(result)
            if n % 20 == 0:
                print(f"{n}/{games} games", flush=True)
    rows = [(g, *d) for g, (_, _, _, departures) in enumerate(played) for d in departures]
    return {
        "kind": np.array([p[0] for p in played], dtype=np.int8),
        "final": np.array([p[1] for p in played]),
        "start": np.array([p[2] for p in played]),
        "game": np.array([r[0] for r in rows], dtype=np.int32),
        "left": np.array([r[1] for r in rows], dtype=np.int8),
        "difference": np.array([r[2] for r in rows]),
        "drop": np.array([r[3] for r in rows]),
        "rules": np.array(json.dumps(rules, sort_keys=True)),
        "players": np.array(players),
    }


def ratio(difference: np.ndarray, drop: np.ndarray) -> tuple[float, float]:
    """The drops' sum over the differences' sum, and its standard error (the departures taken
    as independent: each drop's luck is the next roll's)."""
    total = float(difference.sum())
    scale = float(drop.sum()) / total
    residual = drop - scale * difference
    return scale, float(np.sqrt(residual @ residual)) / abs(total)


def difference_scales(left: np.ndarray, difference: np.ndarray, drop: np.ndarray, rounds: int) -> list[float]:
    """The scale for each number of rounds left: its own ratio, drawn towards the ratio over
    every round by ``se² / (se² + spread²)``, the spread being what the rounds' ratios vary by
    beyond their noise (all the way where they vary no more than it)."""
    pooled, _ = ratio(difference, drop)
    own = [
        ratio(difference[left == k], drop[left == k]) if (left == k).sum() > 1 else (pooled, np.inf)
        for k in range(rounds)
    ]
    measured = [(s, se) for s, se in own if np.isfinite(se)]
    spread = max(0.0, float(np.var([s for s, _ in measured], ddof=1)) - float(np.mean([se * se for _, se in measured])))
    return [pooled + (s - pooled) * spread / (spread + se * se) if spread > 0 else pooled for s, se in own]


def gaps(data: dict[str, np.ndarray], scales: list[float]) -> tuple[np.ndarray, np.ndarray]:
    """Each game's final − start value and its total cost with ``scales``."""
    cost = np.zeros(len(data["final"]))
    np.add.at(cost, data["game"], np.asarray(scales)[data["left"]] * data["difference"])
    return data["final"] - data["start"], cost


def add_up(data: dict[str, np.ndarray], scales: list[float]) -> None:
    """Final + total cost − start value by kind, the costs multiplied by ``scales``."""
    rest, cost = gaps(data, scales)
    gap = rest + cost
    for k, kind in enumerate(KINDS):
        mask = data["kind"] == k
        if mask.sum() > 1:
            se = gap[mask].std(ddof=1) / np.sqrt(mask.sum())
            print(f"  {kind:8} {mask.sum():4d} games: final + cost − start {gap[mask].mean():+6.1f} ± {se:.1f}")


def balance(data: dict[str, np.ndarray], scales: list[float]) -> float:
    """The one factor on ``scales`` that brings the kinds' mean final + cost − start nearest 0
    (least squares over the kinds, each kind weighing alike). The departures' ratios measure the
    drop to the next decision, whatever happens between (the other players' turns at a table);
    this measures the whole game, as the review's figure is read."""
    rest, cost = gaps(data, scales)
    kinds = [k for k in range(len(KINDS)) if (data["kind"] == k).sum() > 1]
    a = np.array([rest[data["kind"] == k].mean() for k in kinds])
    b = np.array([cost[data["kind"] == k].mean() for k in kinds])
    return float(-(a @ b) / (b @ b))


def report(data: dict[str, np.ndarray], rounds: int, balanced: bool = False) -> list[float]:
    scales = difference_scales(data["left"], data["difference"], data["drop"], rounds)
    for k in range(rounds):
        here = data["left"] == k
        if here.sum() > 1:
            s, se = ratio(data["difference"][here], data["drop"][here])
            print(f"rounds left {k}: {here.sum():5d} departures, ratio {s:.3f} ± {se:.3f}, scale {scales[k]:.3f}")
    print("with no scale:")
    add_up(data, [1.0] * rounds)
    print("with these scales:")
    add_up(data, scales)
    factor = balance(data, scales)
    balanced_scales = [s * factor for s in scales]
    print(f"balanced across the kinds (the scales times {factor:.3f}):")
    add_up(data, balanced_scales)
    return balanced_scales if balanced else scales


def merged(paths: list[Path]) -> dict[str, np.ndarray]:
    parts = [dict(np.load(p)) for p in paths]
    readings = {str(part.pop("rules")) for part in parts}
    if len(readings) > 1:
        raise SystemExit(f"--report: these files were played under different rules ({', '.join(sorted(readings))})")
    tables = {int(part.pop("players", 1)) for part in parts}  # files made before: solo games
    if len(tables) > 1:
        raise SystemExit(f"--report: these files were played at tables of different sizes ({sorted(tables)})")
    offset = 0
    for part in parts:  # each file numbers its own games
        part["game"] = part["game"] + offset
        offset += len(part["final"])
    data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    data["rules"] = np.array(readings.pop())
    data["players"] = np.array(tables.pop())
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=["tres-fute", "vraiment-tres-fute"], required=True)
    parser.add_argument("--games", type=int, default=400, help="games in all, the kinds in turn")
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--kinds", default="random,greedy", help=f"comma-separated, of {', '.join(KINDS)}")
    parser.add_argument(
        "--players", type=int, default=1, choices=[1, 2, 3, 4], help="players at each table, all of the kind"
    )
    parser.add_argument("--out", type=Path)
    parser.add_argument("--report", type=Path, nargs="*", help="the scales these files give")
    parser.add_argument("--fit", type=Path, help="with --report: write them into this lift file")
    parser.add_argument("--balance", action="store_true", help="with --fit: the scales balanced across the kinds")
    add_rule_option(parser)
    args = parser.parse_args()
    rules = chosen_rules(parser, args.game, args.rule)
    if args.report:
        data = merged(args.report)
        played_under = json.loads(str(data["rules"]))
        if args.rule and played_under != rules:
            parser.error(f"--report: these files were played under {played_under}, not {rules}")
        players = int(data["players"])
        scales = report(data, Game(args.game, players=players, rules=played_under).rounds, args.balance)
        if args.fit:
            lift = json.loads(args.fit.read_text())
            files = " ".join(str(p) for p in args.report)
            made_by = f"python scripts/cost_calibration.py --game {args.game} --report {files}"
            made_by += rule_options(played_under) + (" --balance" if args.balance else "")
            rounded = [round(s, 4) for s in scales]
            if players == 1:
                lift["difference_scale"], lift["difference_scale_made_by"] = rounded, made_by
            else:  # a table's own scales, by its number of players
                table = lift.setdefault("tables", {}).setdefault(str(players), {})  # its means kept
                table.update(difference_scale=rounded, made_by=made_by)
            args.fit.write_text(json.dumps(lift, indent=1) + "\n")
            print(f"difference scale written to {args.fit}")
        return
    data = generate(args.game, args.games, args.seed, args.workers, tuple(args.kinds.split(",")), rules, args.players)
    save(data, args.out)
    report(data, Game(args.game, players=args.players, rules=rules).rounds)


if __name__ == "__main__":
    main()

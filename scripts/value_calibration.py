"""Positions of every kind of play, with what the strong player then scores from them; the
lift of the values shown (``bots/lift.py``) fitted on them.

    python scripts/value_calibration.py --game tres-fute --games 800 --seed 22 --out runs/cal-tf-22b.npz
    python scripts/value_calibration.py --game tres-fute --report runs/cal-tf-22b.npz --ridge 30 --round-ridge 100 \
        --fit LIFT.json
    python scripts/value_calibration.py --game tres-fute --report runs/cal-tf-1000.npz --lift LIFT.json

Solo games are played by four kinds of player (random, greedy, noisy-strong: the strong player
with a quarter of its moves random, strong). In each round one decision of the game is drawn at
random; from there the strong player plays the game to its end on dice drawn anew (the game's
own dice are never used past that point), and the final score is kept, with the luck of the
rollout's rolls (``luck_of_roll``): a roll's luck is the network's value after it less the mean
after eight rolls drawn anew in its place, so it averages 0, and the final score less the luck
measures the same mean with about two thirds of the variance (the reports and the fit read
it). Each row holds the position's round, the kind of play that led there, the network's value
of the strong player's first move's afterstate and the network's inputs there, the expected
final score the hint and the review show there (``bots/appraisal.py``), the lift it holds, the
valuation network's inputs after the review's strong choice (what the lift reads), the final
score reached and the rollout's luck.
``--seed`` picks the games and the rollouts: the review's and the benchmark's seeds (0 and
1000 on) must not be used for fitting. ``--report FILES`` measures the calibration error by
round and kind; with ``--lift FILE``, as the values would be shown with that lift (it reads
only what the files hold: no game is played again); with ``--fit FILE``, writes the lift that
fits these files (docs/review.md gives the commands of the shipped ones; the costs' difference
scale that the file holds beside it is kept: ``cost_calibration.py`` fits it afterwards, on
reviewed games read with this lift); with ``--refine`` too, the lift that file holds refined on
these files (its weights drawn towards its own: new tuning games add to what its own taught; the
file keeps the commands that made it, ``refines``). ``--rule
NAME=true|false`` plays the games under that rules option (the strong player and its network
those of that reading; the file keeps the rules, and a report refuses to mix readings).

``--players N`` (2, 3 or 4) plays tables of N players of the kind and draws the decisions of one
seat (the seed picks it); from each, that seat plays on as the strong player, the others as
their kind (the luck counted is of the seat's own rolls). ``--fit`` then writes the table's
means by rounds left (``table_means``) under the lift file's ``tables``: a table's lift.
"""

from __future__ import annotations

import argparse
import json
import random
from contextlib import nullcontext
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from tresfute.bots import GreedyBot, RandomBot, StrongBot
from tresfute.bots.appraisal import appraise, lift
from tresfute.bots.blas import blas_threads
from tresfute.bots.lift import FORMAT as LIFT_FORMAT
from tresfute.bots.lift import Lift
from tresfute.bots.network import ValueNetwork, network_for, reading_of, valuation_network
from tresfute.bots.strong import roll_own_dice
from tresfute.rules import CHANCE, Game, Move
from tresfute.simulate import add_rule_option, chosen_rules, rule_options

# the kinds of play that lead to a position; "start": the game's first decision (no play yet:
# the value every review starts from, and a sheet rarely drawn among a round's decisions)
KINDS = ("random", "greedy", "noisy", "strong", "start")
PLAYED = KINDS[:4]


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


# alternative rolls drawn for each roll of a rollout, for its luck (``luck_of_roll``)
LUCK_DRAWS = 8


def rollout(start: Game, seed: int, seat: int = 0, others: str = "strong") -> tuple[list[float], float, int, float]:
    """The strong player in ``seat`` from ``start`` to the end on fresh dice (at a table, the
    other seats played by ``others``, as the table's kind played them): the inputs of its first
    afterstate, the network's value there, its final score, and the luck of its rolls (the sum
    of :func:`luck_of_roll`: the final score less it has the same mean, and a smaller spread; at
    a table only the seat's own rolls are counted, which keeps the mean)."""
    network = network_for(start)
    rng = random.Random(seed)
    luck_rng = random.Random(seed ^ 0x5EED)  # the alternative rolls: the rollout's own dice unchanged
    bots = [StrongBot(seed) if p == seat else player_of(others, seed + 1 + p) for p in range(start.n_players)]
    sim = start.copy(dice="external")
    first: tuple[list[float], float] | None = None
    luck = 0.0
    while not sim.is_over:
        p = sim.to_move
        if p == CHANCE:
            before = sim.copy(dice="external", history=False)
            roll_own_dice(sim, rng)
            if before.active == seat:
                luck += luck_of_roll(before, sim, luck_rng, network, seat)
            continue
        assert p is not None
        move = bots[p].choose(sim, p)
        sim.play(move, p)
        if first is None and p == seat:
            values, inputs = network.evaluate([sim], p)
            first = (inputs[0] or [], values[0])
    assert first is not None
    return first[0], first[1], sim.score(seat).total, luck


def luck_of_roll(before: Game, rolled: Game, rng: random.Random, network: ValueNetwork, player: int = 0) -> float:
    """How much better the roll that came is than rolls drawn anew in its place: the value of
    the position it leads to (:func:`rolled_values`) minus the mean over ``LUCK_DRAWS`` other
    rolls of ``before``, drawn from the same dice.

    Its mean is 0 whatever the values' errors (the other rolls come from the same chance as the
    real one), so the final score less the luck of every roll is an unbiased measure of what
    the strong player scores from a position; where the values follow the dice the luck is much
    of the final score's spread around its mean (a control variate: on Vraiment très futé's
    held-out positions the variance falls to 0.65-0.72), so a calibration cell is measured on
    fewer games."""
    others = []
    for _ in range(LUCK_DRAWS):
        other = before.copy(dice="external", history=False)
        roll_own_dice(other, rng)
        others.append(other)
    values = rolled_values([rolled, *others], network, player)
    return values[0] - sum(values[1:]) / LUCK_DRAWS


def rolled_values(positions: list[Game], network: ValueNetwork, player: int = 0) -> list[float]:
    """What each position right after a roll is worth to ``player``: the network's value of its
    best move, of the position itself where it does not decide, the score once over."""
    groups: list[list[Game]] = []
    for position in positions:
        if position.is_over or position.to_move != player:
            groups.append([position])
        else:
            groups.append([after for _, after in position.afterstates(player, history=False)] or [position])
    flat = network.values([g for group in groups for g in group], player)
    out, at = [], 0
    for group in groups:
        out.append(max(flat[at : at + len(group)]))
        at += len(group)
    return out


def after_choice(position: Game, move: Move, seat: int = 0) -> tuple[list[float], float]:
    """The valuation network's inputs after the strong choice (what the lift reads), and the
    lift the shown value holds (``bots/lift.py``)."""
    after = position.copy(dice="external", history=False)
    after.play(move, seat)
    return valuation_network(position).evaluate([after], seat)[1][0] or [], lift(position, seat, after)


Row = tuple[str, int, list[float], float, float, int, float, float, list[float], float]


def one_game(job: tuple[str, str, int, dict[str, bool], int]) -> list[Row]:
    """One game's rows: a decision drawn in each round (at a table of the kind, the seat's that
    the seed picks), or the first decision alone (``start``, of a strong table)."""
    game_id, kind, seed, rules, players = job
    rng = random.Random(seed)
    game = Game(game_id, players=players, seed=seed, rules=rules)
    seat = seed % players
    played = "strong" if kind == "start" else kind
    bots = [player_of(played, seed + 1 + p) for p in range(players)]
    # the seat's decisions of each round, then one drawn per round
    by_round: dict[int, list[int]] = {}
    positions: list[Game] = []
    while not game.is_over:
        p = game.to_move
        assert p is not None and p >= 0
        legal = game.legal_moves(p)
        if len(legal) > 1 and p == seat:
            if kind == "start":
                return [row_at(kind, game, rng, seat, played)]
            by_round.setdefault(game.round, []).append(len(positions))
            positions.append(game.copy())
        game.play(legal[0] if len(legal) == 1 else bots[p].choose(game, p), p)
    drawn = [positions[rng.choice(indices)] for _, indices in sorted(by_round.items())]
    return [row_at(kind, position, rng, seat, played) for position in drawn]


def row_at(kind: str, position: Game, rng: random.Random, seat: int = 0, others: str = "strong") -> Row:
    """The row of one position: what is shown there, and what the strong player then scores."""
    appraisal = appraise(position, seat)
    shown = appraisal.best.expected  # what the hint and the review show
    chosen, lifted = after_choice(position, appraisal.choice, seat)
    inputs, first_value, final, luck = rollout(position, rng.getrandbits(48), seat, others)
    score_now = float(position.score(seat).total)
    return (kind, position.round, inputs, shown, first_value, final, score_now, lifted, chosen, luck)


def generate(
    game_id: str,
    games: int,
    seed: int,
    workers: int,
    kinds: tuple[str, ...] = PLAYED,
    rules: dict[str, bool] | None = None,
    players: int = 1,
) -> dict[str, np.ndarray]:
    rules = rules or {}
    jobs = [(game_id, kinds[n % len(kinds)], seed * 1_000_003 + n, rules, players) for n in range(games)]
    rows = []
    with blas_threads(), Pool(workers) if workers > 1 else nullcontext() as pool:  # one worker: here
        results = pool.imap_unordered(one_game, jobs, chunksize=2) if pool else map(one_game, jobs)
        for n, result in enumerate(results, start=1):
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
        "gain": np.array([r[7] for r in rows], dtype=np.float32),  # the lift in ``shown``
        "choice_inputs": _padded([r[8] for r in rows]),
        "luck": np.array([r[9] for r in rows], dtype=np.float32),  # the rollout's rolls' luck
        "rules": np.array(json.dumps(rules, sort_keys=True)),  # the reading the games were played under
        "players": np.array(players),
    }


def save(data: dict[str, np.ndarray], out: Path | None) -> None:
    """The rows to ``out`` (compressed numpy arrays, its folder made), if given."""
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(out, **data)  # type: ignore[arg-type]  # numpy's stub takes a key for allow_pickle


def _padded(rows: list[list[float]]) -> np.ndarray:
    """The inputs as one array: a row whose first afterstate ended the game has none (zeros)."""
    width = max((len(r) for r in rows), default=0)
    return np.array([r or [0.0] * width for r in rows], dtype=np.float32)


def scored(data: dict[str, np.ndarray]) -> np.ndarray:
    """What the strong player scored from each position, less its rollout's luck (the same
    mean, a smaller spread: ``luck_of_roll``; rows of files made before the luck was kept
    hold none)."""
    return data["final"] - data["luck"]


def report(data: dict[str, np.ndarray], field: str = "shown") -> None:
    """Mean value minus final score (less its luck) by round and kind (± its standard error)."""
    rounds = sorted(set(data["round"].tolist()))
    print(f"{'kind':8}" + "".join(f"{'round ' + str(r):>16}" for r in rounds))
    for k, kind in enumerate(KINDS):
        line = f"{kind:8}"
        for r in rounds:
            mask = (data["kind"] == k) & (data["round"] == r)
            err = data[field][mask] - scored(data)[mask]
            if len(err) > 1:
                line += f"{err.mean():>+9.1f} ±{err.std(ddof=1) / np.sqrt(len(err)):4.1f}"
                line += f"{'':2}"
            else:
                line += f"{'-':>16}"
        print(line)


def raw_values(data: dict[str, np.ndarray]) -> np.ndarray:
    """The shown values without the lift they held when the file was made."""
    return data["shown"] - data["gain"]


def lift_targets(data: dict[str, np.ndarray], rounds: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What a lift is fitted on, over the positions whose choice does not end the game (its
    score is exact there): final score (less its luck) minus the raw value, the inputs after
    the choice, and the rounds left."""
    going_on = data["choice_inputs"].any(axis=1)
    target = (scored(data) - raw_values(data))[going_on].astype(np.float64)
    x = data["choice_inputs"][going_on].astype(np.float64)
    left = (rounds - data["round"][going_on]).astype(np.int64)
    return target, x, left


def table_means(data: dict[str, np.ndarray], rounds: int) -> list[float]:
    """A table's lift (``Lift.table_means``): for each number of rounds left, the mean of the
    final score (less its luck) minus the raw value, over the positions whose choice does not
    end the game. A table has too few positions of a kind and round to read the sheet."""
    target, _, left = lift_targets(data, rounds)
    missing = [k for k in range(rounds) if not (left == k).any()]
    if missing:
        raise ValueError(f"the files hold no position with {missing[0]} rounds left")
    return [round(float(target[left == k].mean()), 2) for k in range(rounds)]


def fit(
    data: dict[str, np.ndarray],
    rounds: int,
    names: list[str],
    ridge: float,
    round_ridge: float,
    note: str,
    scales: list[float],
    prior: Lift | None = None,
) -> dict:
    """The lift (``bots/lift.py``) that makes the shown values meet the final scores: ridge
    regression of final − raw value on the inputs after the choice, the same times the rounds
    left, and for each number of rounds left an intercept and the inputs again (its departure
    from the shared model, penalised ``round_ridge`` times more), each feature scaled to unit
    spread for the penalty (every kind of play weighs alike: the files hold as many games of
    each); and the mean of final − raw value for each number of rounds left (the lift of a
    table with fewer rounds than the solo game's); and for each number of rounds left the
    difference scale of the costs as ``scales`` says (``cost_calibration.py`` fits it). A choice
    that ends the game has no lift (its score is exact): its rows are left out.

    With a ``prior`` lift, the fit refines it: the weights are drawn towards the prior's rather
    than towards 0 (the regression is of what the prior leaves over), so that new tuning games
    add to what the prior's own games taught. The means for a table are the new files' where
    they hold positions with that many rounds left (they describe the player the files were
    played with, as the prior's describe the one before), the prior's elsewhere."""
    target, x, left = lift_targets(data, rounds)
    table_means = [round(float(target[left == k].mean()), 2) if (left == k).any() else None for k in range(rounds)]
    width = x.shape[1]
    at = [(left == k).astype(np.float64)[:, None] for k in range(rounds)]
    features = np.hstack([x, x * left[:, None], *at, *(x * a for a in at)])
    if prior is not None:  # the prior's weights in the features' order: what it lifts, subtracted
        own = prior.at_rounds_left
        prior_weights = np.r_[prior.weights, prior.by_rounds_left, [c for c, _ in own], *(u for _, u in own)]
        target = target - (prior.intercept + features @ prior_weights)
        table_means = [m if m is not None else p for m, p in zip(table_means, prior.by_rounds_left_mean, strict=True)]
    if None in table_means:
        raise ValueError(f"the files hold no position with {table_means.index(None)} rounds left")
    multiplier = np.r_[np.ones(2 * width), np.full(features.shape[1] - 2 * width, round_ridge)]
    mean, spread = features.mean(0), features.std(0)
    used = spread > 1e-9
    z = (features[:, used] - mean[used]) / spread[used]
    design = np.hstack([np.ones((len(z), 1)), z])
    penalty = np.diag(np.r_[0.0, ridge * multiplier[used]])
    solved = np.linalg.solve(design.T @ design + penalty, design.T @ target)
    weights = np.zeros(features.shape[1])
    weights[used] = solved[1:] / spread[used]
    intercept = float(solved[0] - weights[used] @ mean[used])
    if prior is not None:
        weights += prior_weights
        intercept += prior.intercept

    def named(vector: np.ndarray) -> dict[str, float]:
        return {n: round(float(w), 5) for n, w in zip(names, vector, strict=True) if abs(w) >= 1e-5}

    by_round = weights[2 * width + rounds :].reshape(rounds, width)
    return {
        "format": LIFT_FORMAT,
        "made_by": note,
        "rounds": rounds,
        "by_rounds_left_mean": table_means,
        "intercept": round(intercept, 4),
        "weights": named(weights[:width]),
        "by_rounds_left": named(weights[width : 2 * width]),
        "at_rounds_left": [
            {"intercept": round(float(weights[2 * width + k]), 4), "weights": named(by_round[k])} for k in range(rounds)
        ],
        "difference_scale": scales,
    }


def relifted(data: dict[str, np.ndarray], fitted: Lift, rounds: int, players: int = 1) -> dict[str, np.ndarray]:
    """The file's shown values as they would be with ``fitted``: it depends only on the inputs
    after the choice, the round and the table, so no game is played again."""
    x = data["choice_inputs"]
    lifts = [
        fitted(list(row), rounds - int(r), rounds, players) if row.any() else 0.0
        for row, r in zip(x, data["round"], strict=True)
    ]
    return {**data, "shown": raw_values(data) + np.array(lifts, dtype=np.float32), "gain": np.array(lifts)}


def kinds_summary(data: dict[str, np.ndarray]) -> None:
    """Shown − final (less its luck) over the rounds, by kind (± its standard error)."""
    err = data["shown"] - scored(data)
    parts = []
    for k, kind in enumerate(KINDS):
        mask = data["kind"] == k
        if mask.sum() > 1:
            parts.append(f"{kind} {err[mask].mean():+.1f} ± {err[mask].std(ddof=1) / np.sqrt(mask.sum()):.1f}")
    print("over the rounds: " + ", ".join(parts) + f"; all {err.mean():+.1f}")
    luck = data["luck"]
    if luck.any():  # it averages 0: a check of the luck's draws
        print(f"the rollouts' luck: {luck.mean():+.2f} ± {luck.std(ddof=1) / np.sqrt(len(luck)):.2f} on average")


def fit_table(
    path: Path, data: dict[str, np.ndarray], rounds: int, players: int, game_id: str, files: list[Path], rules: dict
) -> None:
    """Write a table's means (``table_means``) into the lift file ``path``, under ``tables``
    and its number of players; the rest of the file (the solo lift, the costs' scales) kept."""
    lift_data = json.loads(path.read_text())
    table = lift_data.setdefault("tables", {}).setdefault(str(players), {})
    table["by_rounds_left_mean"] = table_means(data, rounds)
    table["means_made_by"] = (
        f"python scripts/value_calibration.py --game {game_id} --report {' '.join(str(p) for p in files)}"
        + rule_options(dict(sorted(rules.items())))
    )
    path.write_text(json.dumps(lift_data, indent=1) + "\n")
    print(f"the means of a table of {players} written to {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=["tres-fute", "vraiment-tres-fute"], required=True)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--kinds", default=",".join(PLAYED), help=f"comma-separated, of {', '.join(KINDS)}")
    parser.add_argument(
        "--players", type=int, default=1, choices=[1, 2, 3, 4], help="players at each table, all of the kind"
    )
    parser.add_argument("--out", type=Path)
    parser.add_argument("--report", type=Path, nargs="*", help="measure the calibration of these files")
    parser.add_argument("--fit", type=Path, help="with --report: write the lift that fits these files here")
    parser.add_argument("--ridge", type=float, default=100.0, help="the fit's penalty (inputs scaled to unit spread)")
    parser.add_argument(
        "--round-ridge", type=float, default=10.0, help="how many times more each round's own weights are penalised"
    )
    parser.add_argument("--lift", type=Path, help="with --report: measure the files as shown with this lift")
    parser.add_argument(
        "--refine",
        action="store_true",
        help="with --fit: refine the lift that file holds (its weights drawn towards its own, not towards 0)",
    )
    add_rule_option(parser)
    args = parser.parse_args()
    rules = chosen_rules(parser, args.game, args.rule)
    if args.report:
        parts = [dict(np.load(p)) for p in args.report]
        readings = {str(part.pop("rules", "{}")) for part in parts}  # files made before: the default reading
        if len(readings) > 1:
            parser.error(f"--report: these files were played under different rules ({', '.join(sorted(readings))})")
        tables = {int(part.pop("players", 1)) for part in parts}  # files made before: solo games
        if len(tables) > 1:
            parser.error(f"--report: these files were played at tables of different sizes ({sorted(tables)})")
        players = tables.pop()
        played_under = Game(args.game, players=players, rules=json.loads(readings.pop()))
        if args.rule and reading_of(played_under) != reading_of(Game(args.game, players=1, rules=rules)):
            parser.error(f"--report: these files were played under other rules than {rules}")
        rules = dict(reading_of(played_under))
        for part in parts:  # files made before they were kept: after the rollout's first move; no luck
            part.setdefault("choice_inputs", part["inputs"])
            part.setdefault("luck", np.zeros_like(part["final"]))
        data = {k: np.concatenate([p[k] for p in parts]) for k in set.intersection(*(set(p) for p in parts))}
        rounds = played_under.rounds
        names = list(valuation_network(played_under).encoder.names)
        if args.lift:
            data = relifted(data, Lift.from_json(json.loads(args.lift.read_text()), names), rounds, players)
        report(data)
        kinds_summary(data)
        if args.fit and players > 1:
            fit_table(args.fit, data, rounds, players, args.game, args.report, rules)
        elif args.fit:
            files = " ".join(str(p) for p in args.report)
            note = (
                f"python scripts/value_calibration.py --game {args.game} --report {files}"
                f" --ridge {args.ridge:g} --round-ridge {args.round_ridge:g}"
                + rule_options(dict(sorted(rules.items())))
                + (" --refine" if args.refine else "")
            )
            kept = json.loads(args.fit.read_text()) if args.fit.exists() else {}
            if args.refine and not kept:
                parser.error(f"--refine: {args.fit} holds no lift to refine")
            scales = kept.get("difference_scale", [1.0] * rounds)
            prior = Lift.from_json(kept, names) if args.refine else None
            fitted = fit(data, rounds, names, args.ridge, args.round_ridge, note, scales, prior)
            if args.refine:  # the commands that made the lift refined, the last first
                fitted["refines"] = [kept["made_by"], *kept.get("refines", [])]
            for key in ("difference_scale_made_by", "tables"):  # cost_calibration.py's, kept
                if key in kept:
                    fitted[key] = kept[key]
            args.fit.write_text(json.dumps(fitted, indent=1) + "\n")
            print(f"lift written to {args.fit}")
        return
    kinds = tuple(args.kinds.split(","))
    data = generate(args.game, args.games, args.seed, args.workers, kinds, rules, args.players)
    save(data, args.out)
    report(data)


if __name__ == "__main__":
    main()

"""Self-play training of the value network (``bots/network.py``) by TD(lambda).

How it works, at length: docs/design.md (bots/training.py).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import asdict, dataclass, field
from multiprocessing import Pool
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from ..rules import Game
from ..seeds import derived_seed
from .blas import blas_threads
from .greedy import GreedyBot
from .network import SCALE, ValueNetwork, finished_for
from .strong import StrongBot, afterstates, evaluate_moves


@dataclass
class Settings:
    """Everything a run depends on: the same settings and seed give the same network."""

    game: str
    iterations: int = 40
    games: int = 2000  # self-play games per iteration
    hidden: tuple[int, ...] = (128, 128)
    lam: float = 0.7
    explore: tuple[float, float] = (0.1, 0.005)  # at the first and the last iteration
    learning_rate: tuple[float, float] = (1e-3, 5e-5)
    batch: int = 128
    epochs: int = 2  # passes over each iteration's positions
    teacher: int = 0  # first iterations learned from the linear evaluation's values (see teacher_games)
    eval_every: int = 4
    eval_games: int = 300
    seed: int = 1
    workers: int = 2
    search: bool = False  # self-play moves chosen by the strong player's search over this network
    openings: float = 0.0  # share of training games that begin with other players' play (see OPENINGS)
    rules: dict[str, bool] = field(default_factory=dict)  # rules options of the games (a reading)
    players: tuple[int, ...] = (1,)  # table sizes, in turn game by game (2 to 4: a table network)

    def at(self, pair: tuple[float, float], iteration: int) -> float:
        """A setting annealed from its first to its last value, geometrically."""
        first, last = pair
        if self.iterations <= 1:
            return first
        t = iteration / (self.iterations - 1)
        return float(first * (last / first) ** t) if first > 0 and last > 0 else first + (last - first) * t


class Job(NamedTuple):
    """A batch of games for one worker: the network, what the games are for and how to play them."""

    network: bytes
    purpose: str  # "train", "eval" (or "teacher"): the games' seeds come from it
    seed: int
    numbers: list[int]
    explore: float
    lam: float
    search: bool = False
    openings: float = 0.0
    rules: tuple[tuple[str, bool], ...] = ()  # the game's rules options (a reading of the rules)
    players: tuple[int, ...] = (1,)  # game number k is played at a table of players[k % len(players)]


@dataclass
class State:
    """Where a run stands: the network, the optimiser's moments, what was measured."""

    settings: Settings
    network: ValueNetwork
    iteration: int = 0
    adam: list[np.ndarray] = field(default_factory=list)
    steps: int = 0
    curve: list[dict[str, Any]] = field(default_factory=list)
    best: ValueNetwork | None = None
    best_mean: float = float("-inf")


# --- self-play --------------------------------------------------------------------------


def choose(
    network: ValueNetwork,
    game: Game,
    player: int,
    rng: random.Random,
    explore: float,
    searcher: StrongBot | None = None,
):
    """The move to play, its afterstate's value and inputs (None when the game ends with it).

    The network's best move, or with ``searcher`` (a strong player over the same network) the
    move its search chooses: the positions of a stronger player than the network alone, whose
    values the network then learns (the search's gain kept in the network, to build on)."""
    moves, afters = afterstates(game, player)
    values = network.values(afters, player)
    if len(moves) > 1 and explore and rng.random() < explore:
        k = rng.randrange(len(moves))
    elif searcher is not None and len(moves) > 1:
        k = moves.index(searcher.analyse(game, player)[0].move)
    else:
        k = max(range(len(moves)), key=values.__getitem__)
    after = afters[k]
    inputs = None if after.is_over or finished_for(after, player) else network.encoder.encode(after, player)
    return moves[k], values[k], inputs, after


@blas_threads()
def teacher_games(job: Job) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Games of the linear evaluation (``bots/value.py``): every afterstate it valued, with its value.

    The first iterations of a run start the network from that evaluation's judgement of every
    legal move (it learned from earlier self-play); self-play by TD(lambda) takes over after.
    """
    from .value import shipped_model

    job = Job(*job)
    network = ValueNetwork.from_bytes(job.network)
    seed, explore = job.seed, job.explore
    teacher = shipped_model(network.spec_id)
    rows: list[list[float]] = []
    targets: list[float] = []
    finals = []
    for number in job.numbers:
        game = Game(network.spec_id, players=1, seed=derived_seed(seed, number, "teacher"), rules=dict(job.rules))
        rng = random.Random(derived_seed(seed, number, "teacher-explore"))
        while not game.is_over:
            moves = game.legal_moves(0)
            best, best_value = moves[0], float("-inf")
            for move in moves:
                after = game.copy(dice="external")
                after.play(move, 0)
                value = teacher.value(after, 0)
                if value > best_value:
                    best, best_value = move, value
                if not after.is_over and len(moves) > 1:
                    score = after.score(0)
                    rows.append(network.encoder.encode(after, 0, score))
                    targets.append((value - score.total) / SCALE)
            if len(moves) > 1 and explore and rng.random() < explore:
                best = moves[rng.randrange(len(moves))]
            game.play(best, 0)
        finals.append(game.score(0).total)
    x = np.array(rows, dtype=np.float32).reshape(len(rows), network.encoder.size)
    return x, np.array(targets, dtype=np.float32), finals


OPENINGS = ("random", "greedy", "careless")
CARELESS = 1 / 3  # the share of random moves of the careless opening


def play_opening(game: Game, network: ValueNetwork, rng: random.Random) -> None:
    """Rounds of other kinds of player than the network (``OPENINGS``, one drawn per seat), from
    the first round to one drawn among the others: the sheets a beginner or a careless player has."""
    kinds = [OPENINGS[rng.randrange(len(OPENINGS))]]
    hand_over = rng.randint(2, game.rounds)  # the network plays from this round's start
    greedy = [GreedyBot(rng.getrandbits(32))]
    for _ in range(1, game.n_players):
        kinds.append(OPENINGS[rng.randrange(len(OPENINGS))])
        greedy.append(GreedyBot(rng.getrandbits(32)))
    while not game.is_over and game.round < hand_over:
        player = game.to_move
        assert player is not None  # the game is not over
        kind = kinds[player]
        moves = game.legal_moves(player)
        if kind == "random" or (kind == "careless" and rng.random() < CARELESS):
            move = moves[rng.randrange(len(moves))]
        elif kind == "greedy":
            move = greedy[player].choose(game, player)
        else:
            move = evaluate_moves(game, player, network)[0][1]  # the network's best
        game.play(move, player)


@blas_threads()
def play_games(job: Job) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Self-play games: the inputs of every chosen afterstate, their targets, the final scores.

    At a table every seat is the network, and each seat's afterstates get their targets from
    that seat's own later values and final score."""
    job = Job(*job)
    purpose, seed, explore, lam = job.purpose, job.seed, job.explore, job.lam
    network = ValueNetwork.from_bytes(job.network)
    rows: list[list[float]] = []
    targets: list[float] = []
    finals = []
    for number in job.numbers:
        players = job.players[number % len(job.players)]
        game = Game(network.spec_id, players=players, seed=derived_seed(seed, number, purpose), rules=dict(job.rules))
        rng = random.Random(derived_seed(seed, number, f"{purpose}-explore"))
        searcher = StrongBot(derived_seed(seed, number, f"{purpose}-search"), network=network) if job.search else None
        seats = [_Seat() for _ in range(players)]
        if job.openings and purpose == "train":
            opening = random.Random(derived_seed(seed, number, "opening"))
            if opening.random() < job.openings:
                play_opening(game, network, opening)
        while not game.is_over:
            player = game.to_move
            assert player is not None  # the game is not over
            move, value, x, after = choose(network, game, player, rng, explore, searcher)
            if x is not None:
                seat = seats[player]
                seat.values.append(value)
                seat.now.append(after.score(player).total)
                seat.inputs.append(x)
            game.play(move, player)
        for player, seat in enumerate(seats):
            final = game.score(player).total
            finals.append(final)
            if purpose == "eval":
                continue
            rows += seat.inputs
            targets += _lambda_targets(seat, final, lam)
    x = np.array(rows, dtype=np.float32).reshape(len(rows), network.encoder.size)
    return x, np.array(targets, dtype=np.float32), finals


class _Seat:
    """One seat's chosen afterstates in a self-play game: their values, scores and inputs."""

    def __init__(self) -> None:
        self.values: list[float] = []
        self.now: list[int] = []
        self.inputs: list[list[float]] = []


def _lambda_targets(seat: _Seat, final: int, lam: float) -> list[float]:
    """Each afterstate's lambda-return (the next one's value mixed with the target after it,
    ending on the final score), less its score now, in the network's unit."""
    target = next_value = float(final)
    found = [0.0] * len(seat.values)
    for t in range(len(seat.values) - 1, -1, -1):
        target = (1 - lam) * next_value + lam * target
        found[t] = (target - seat.now[t]) / SCALE
        next_value = seat.values[t]
    return found


def _jobs(
    network: ValueNetwork,
    purpose: str,
    seed: int,
    numbers: range,
    explore: float,
    lam: float,
    chunk: int,
    search: bool = False,
    openings: float = 0.0,
    rules: dict[str, bool] | None = None,
    players: tuple[int, ...] = (1,),
) -> list[Job]:
    data = network.to_bytes()
    kept = tuple(sorted((rules or {}).items()))
    return [
        Job(data, purpose, seed, list(numbers[i : i + chunk]), explore, lam, search, openings, kept, players)
        for i in range(0, len(numbers), chunk)
    ]


# --- fitting ----------------------------------------------------------------------------


@blas_threads()
def fit(state: State, x: np.ndarray, y: np.ndarray, learning_rate: float, rng: np.random.Generator) -> float:
    """Minibatch Adam on the squared error; returns the mean squared error before the update."""
    settings = state.settings
    layers = state.network.layers
    params = [p for w, b in layers for p in (w, b)]
    if not state.adam:
        state.adam = [np.zeros_like(p) for p in params] + [np.zeros_like(p) for p in params]
    first, second = state.adam[: len(params)], state.adam[len(params) :]
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    losses = []
    for _ in range(settings.epochs):
        order = rng.permutation(len(y))
        for start in range(0, len(y), settings.batch):
            batch = order[start : start + settings.batch]
            grads, loss = _gradients(layers, x[batch], y[batch])
            losses.append(loss)
            state.steps += 1
            correction1 = 1 - beta1**state.steps
            correction2 = 1 - beta2**state.steps
            for p, g, m, v in zip(params, grads, first, second, strict=True):
                m *= beta1
                m += (1 - beta1) * g
                v *= beta2
                v += (1 - beta2) * g * g
                p -= learning_rate * (m / correction1) / (np.sqrt(v / correction2) + eps)
    state.network.weights_changed()
    return float(np.mean(losses)) if losses else 0.0


def _gradients(layers: list[tuple[np.ndarray, np.ndarray]], x: np.ndarray, y: np.ndarray):
    """Gradients of the mean squared error for every weight and bias, in layer order."""
    activations = [x]
    h = x
    last = len(layers) - 1
    for k, (w, b) in enumerate(layers):
        h = h @ w + b
        if k < last:
            h = np.maximum(h, 0.0)
        activations.append(h)
    error = activations[-1][:, 0] - y
    delta = (2.0 / len(y)) * error[:, None]
    grads: list[np.ndarray] = []
    for k in range(last, -1, -1):
        w, _ = layers[k]
        grads = [activations[k].T @ delta, delta.sum(axis=0), *grads]
        if k:
            delta = (delta @ w.T) * (activations[k] > 0)
    return grads, float(np.mean(error * error))


# --- the run ----------------------------------------------------------------------------


def evaluate(
    network: ValueNetwork,
    games: int,
    seed: int,
    pool: Any,
    chunk: int = 25,
    rules: dict[str, bool] | None = None,
    players: tuple[int, ...] = (1,),
) -> float:
    """Mean score of the network's own play (no exploration) on evaluation seeds (every seat's)."""
    jobs = _jobs(network, "eval", seed, range(games), 0.0, 0.0, chunk, rules=rules, players=players)
    finals = [s for _, _, scores in _map(pool, play_games, jobs) for s in scores]
    return float(np.mean(finals))


def _map(pool: Any, function: Callable, jobs: list) -> Iterable:
    return pool.imap(function, jobs) if pool is not None else map(function, jobs)


def run(
    state: State,
    checkpoint: Path | None,
    report: Callable[[str], None] = print,
    bar: Callable[[int, str], AbstractContextManager[Callable[[int], None] | None]] | None = None,
    until: int | None = None,
) -> State:
    """Train until the last iteration (or iteration ``until``), saving a checkpoint after each one.

    ``report`` gets one line per iteration; ``bar(total, label)``, if given, a progress bar
    (``tresfute.progress.progress_bar``) told of every batch of games played. A run stopped
    at ``until`` and resumed gives the same network as the same stops did before.
    """
    settings = state.settings
    rng = np.random.default_rng(settings.seed * 7919 + state.iteration)
    pool = Pool(settings.workers) if settings.workers > 1 else None
    try:
        while state.iteration < min(settings.iterations, until or settings.iterations):
            i = state.iteration
            explore = settings.at(settings.explore, i)
            learning_rate = settings.at(settings.learning_rate, i)
            start = time.perf_counter()
            numbers = range(i * settings.games, (i + 1) * settings.games)
            chunk = max(1, min(50, settings.games // (4 * max(settings.workers, 1)) or 1))
            taught = i < settings.teacher
            play = teacher_games if taught else play_games
            jobs = _jobs(
                state.network,
                "train",
                settings.seed,
                numbers,
                explore,
                settings.lam,
                chunk,
                settings.search,
                settings.openings,
                settings.rules,
                settings.players,
            )
            parts = []
            with bar(len(numbers), f"iteration {i + 1}") if bar else nullcontext() as progress:
                for part in _map(pool, play, jobs):
                    parts.append(part)
                    if progress is not None:
                        progress(len(part[2]))
            x = np.concatenate([p[0] for p in parts])
            y = np.concatenate([p[1] for p in parts])
            scores = [s for p in parts for s in p[2]]
            played = time.perf_counter() - start
            loss = fit(state, x, y, learning_rate, rng)
            point: dict[str, Any] = {
                "iteration": i + 1,
                "games": (i + 1) * settings.games,
                "self_play_mean": round(float(np.mean(scores)), 2),
                "teacher": taught,
                "explore": round(explore, 4),
                "learning_rate": learning_rate,
                "loss": round(loss, 5),
                "seconds": round(time.perf_counter() - start, 1),
            }
            state.iteration += 1
            if state.iteration % settings.eval_every == 0 or state.iteration == settings.iterations:
                mean = evaluate(
                    state.network,
                    settings.eval_games,
                    settings.seed,
                    pool,
                    rules=settings.rules,
                    players=settings.players,
                )
                point["eval_mean"] = round(mean, 2)
                if mean > state.best_mean:
                    state.best_mean = mean
                    state.best = ValueNetwork.from_bytes(state.network.to_bytes())
            state.curve.append(point)
            report(
                f"iteration {point['iteration']}/{settings.iterations}: self-play {point['self_play_mean']}"
                + (f", evaluation {point['eval_mean']}" if "eval_mean" in point else "")
                + f", loss {loss:.4f}, {len(y)} positions, {played:.0f} s of play"
            )
            if checkpoint is not None:
                save_checkpoint(state, checkpoint)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return state


def final_network(state: State) -> ValueNetwork:
    """The best network by evaluation, with how it was made."""
    network = ValueNetwork.from_bytes((state.best or state.network).to_bytes())
    network.info = {
        "settings": _settings_json(state.settings),
        "eval_mean": state.best_mean,
        "curve": state.curve,
    }
    return network


def new_state(settings: Settings, start: ValueNetwork | None = None) -> State:
    """A run's start: ``start`` (a table network grown from it for tables: ``for_tables``), else
    random weights."""
    at_tables = settings.players != (1,)
    if start is None:
        start = ValueNetwork.initial(settings.game, settings.hidden, settings.seed)
    network = start.for_tables() if at_tables else start
    if network.spec_id != settings.game:
        raise ValueError(f"the starting network is for {network.spec_id}, not {settings.game}")
    if network.table and not at_tables:
        raise ValueError("a table network is trained at tables (players 2 to 4)")
    return State(settings, network)


def _settings_json(settings: Settings) -> dict[str, Any]:
    return json.loads(json.dumps(asdict(settings)))


def save_checkpoint(state: State, path: Path) -> None:
    """Everything to resume: settings, network, optimiser, best network, curve (one .npz)."""
    arrays: dict[str, Any] = {
        "meta": np.array(
            json.dumps(
                {
                    "settings": _settings_json(state.settings),
                    "iteration": state.iteration,
                    "steps": state.steps,
                    "curve": state.curve,
                    "best_mean": state.best_mean,
                }
            )
        ),
        "network": np.frombuffer(state.network.to_bytes(), dtype=np.uint8),
    }
    if state.best is not None:
        arrays["best"] = np.frombuffer(state.best.to_bytes(), dtype=np.uint8)
    for k, a in enumerate(state.adam):
        arrays[f"adam{k}"] = a
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, **arrays)
    tmp.replace(path)


def load_checkpoint(path: Path) -> State:
    with np.load(path, allow_pickle=False) as arrays:
        meta = json.loads(str(arrays["meta"]))
        raw = meta["settings"]
        raw["hidden"] = tuple(raw["hidden"])
        raw["explore"] = tuple(raw["explore"])
        raw["learning_rate"] = tuple(raw["learning_rate"])
        raw["players"] = tuple(raw.get("players", (1,)))
        settings = Settings(**raw)
        network = ValueNetwork.from_bytes(arrays["network"].tobytes())
        best = ValueNetwork.from_bytes(arrays["best"].tobytes()) if "best" in arrays else None
        adam: list[np.ndarray] = []
        while f"adam{len(adam)}" in arrays:
            adam.append(arrays[f"adam{len(adam)}"].astype(np.float32))
    return State(
        settings,
        network,
        iteration=meta["iteration"],
        adam=adam,
        steps=meta["steps"],
        curve=meta["curve"],
        best=best,
        best_mean=meta["best_mean"],
    )

"""Environment steps per second for random masked play (one core), best of several runs.

python benchmarks/env_speed.py [--games 64] [--seconds 2] [--repeats 5]

For each game: the engine alone (decisions/s); the Gymnasium environment as ``gym.make``
gives it (steps/s); ``--games`` copies of it in Gymnasium's ``SyncVectorEnv``; the native
``BatchedTresFuteEnv`` over the same number of games; PettingZoo with 3 players. Every
environment picks its actions the same way (a uniform legal action from the mask, drawn for
the whole batch at once), and counts game steps (a vector environment's reset steps are not).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import gymnasium as gym
import numpy as np

import tresfute  # noqa: F401  (registers the ids)
from tresfute.envs import GYM_IDS
from tresfute.envs.pz_env import raw_env
from tresfute.envs.vector import BatchedTresFuteEnv
from tresfute.rules import Game


def sample(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """A uniform legal action per row of ``masks`` (one row or a batch)."""
    return np.argmax(rng.random(masks.shape) * masks, axis=-1)


def single_rate(env_id: str, seconds: float) -> float:
    env, rng = gym.make(env_id), np.random.default_rng(0)
    steps, start, episode = 0, time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        _obs, info = env.reset(seed=episode)
        done = False
        while not done:
            _obs, _r, done, _t, info = env.step(int(sample(rng, info["action_mask"])))
            steps += 1
        episode += 1
    return steps / (time.perf_counter() - start)


def sync_vector_rate(env_id: str, games: int, seconds: float) -> float:
    envs = gym.vector.SyncVectorEnv([lambda: gym.make(env_id) for _ in range(games)])
    rng = np.random.default_rng(0)
    _obs, info = envs.reset(seed=0)
    resetting = np.zeros(games, dtype=bool)  # next-step autoreset: the next step only resets these
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        _obs, _r, term, trunc, info = envs.step(sample(rng, info["action_mask"]))
        steps += games - int(resetting.sum())
        resetting = term | trunc
    return steps / (time.perf_counter() - start)


def batched_rate(game: str, games: int, seconds: float) -> float:
    envs, rng = BatchedTresFuteEnv(games, game), np.random.default_rng(0)
    envs.reset(seed=0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        envs.step(sample(rng, envs.action_masks()))
        steps += games
    return steps / (time.perf_counter() - start)


def aec_rate(game: str, players: int, seconds: float) -> float:
    env, rng = raw_env(game, players), np.random.default_rng(0)
    steps, start, episode = 0, time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        env.reset(seed=episode)
        for _agent in env.agent_iter():
            obs, _r, term, trunc, _info = env.last()
            env.step(None if term or trunc else int(sample(rng, obs["action_mask"])))
            steps += 1
        episode += 1
    return steps / (time.perf_counter() - start)


def engine_rate(game: str, seconds: float) -> float:
    rng = random.Random(0)
    steps, start, seed = 0, time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        g = Game(game, players=1, seed=seed)
        while not g.is_over:
            g.play(rng.choice(g.legal_moves()))
            steps += 1
        seed += 1
    return steps / (time.perf_counter() - start)


def best(repeats: int, run: Callable[[], float]) -> float:
    return max(run() for _ in range(repeats))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=64, help="games in each vector environment")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one run")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each, the best is kept")
    args = parser.parse_args()
    s, r, n = args.seconds, args.repeats, args.games
    for game, env_id in GYM_IDS.items():
        runs: dict[str, Callable[[], float]] = {
            "engine alone (decisions/s)": lambda g=game: engine_rate(g, s),
            "Gymnasium, one game": lambda e=env_id: single_rate(e, s),
            f"SyncVectorEnv, {n} games": lambda e=env_id: sync_vector_rate(e, n, s),
            f"BatchedTresFuteEnv, {n} games": lambda g=game: batched_rate(g, n, s),
            "PettingZoo, 3 players": lambda g=game: aec_rate(g, 3, s),
        }
        figures = {label: best(r, run) for label, run in runs.items()}
        print(f"{game} (game steps per second, best of {r} runs of {s:g} s):")
        for label, rate in figures.items():
            print(f"  {label:32} {rate:10,.0f}")


if __name__ == "__main__":
    main()

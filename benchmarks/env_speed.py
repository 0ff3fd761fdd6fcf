"""Environment steps per second for random masked play, against the engine alone.

python benchmarks/env_speed.py [--seconds 5]
"""

from __future__ import annotations

import argparse
import random
import time

import gymnasium as gym
import numpy as np

import tresfute.envs  # noqa: F401  (registers the ids)
from tresfute.envs import GYM_IDS
from tresfute.envs.pz_env import env as aec_env
from tresfute.rules import Game


def gym_rate(env_id: str, seconds: float) -> float:
    env = gym.make(env_id).unwrapped
    steps, start, episode = 0, time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        _obs, info = env.reset(seed=episode)
        done = False
        while not done:
            _obs, _r, done, _t, info = env.step(env.action_space.sample(mask=info["action_mask"]))
            steps += 1
        episode += 1
    return steps / (time.perf_counter() - start)


def aec_rate(game: str, players: int, seconds: float) -> float:
    env = aec_env(game, players)
    steps, start, episode = 0, time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        env.reset(seed=episode)
        for agent in env.agent_iter():
            obs, _r, term, trunc, _info = env.last()
            action = None if term or trunc else env.action_space(agent).sample(mask=obs["action_mask"])
            env.step(action)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    np.random.seed(0)
    for game, env_id in GYM_IDS.items():
        print(
            f"{game}: engine alone {engine_rate(game, args.seconds):,.0f} decisions/s; "
            f"Gymnasium solo {gym_rate(env_id, args.seconds):,.0f} steps/s; "
            f"PettingZoo 3 players {aec_rate(game, 3, args.seconds):,.0f} steps/s"
        )


if __name__ == "__main__":
    main()

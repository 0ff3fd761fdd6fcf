"""Train a masked-PPO agent on the solo game for a few minutes, then evaluate it.

    pip install -e ".[rl]"        # sb3-contrib (and PyTorch) are optional extras
    python examples/train_maskable_ppo.py --game tres-fute --minutes 5

Evaluation seeds (1,000,000 and up) are never used for training (the training environment
is seeded from 0). The figures are those of ``tresfute bench``: mean, sd, standard error,
p10/p50/p90.
"""

from __future__ import annotations

import argparse
import statistics
import time

import gymnasium as gym
import numpy as np
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker
from stable_baselines3.common.callbacks import BaseCallback

import tresfute.envs  # noqa: F401  (registers the ids)
from tresfute.envs import GYM_IDS

EVAL_SEEDS = 1_000_000


def mask_of(env: gym.Env) -> np.ndarray:
    game = env.unwrapped.game
    return env.unwrapped.actions.mask(game, game.to_move).astype(bool)


class StopAfter(BaseCallback):
    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.deadline = time.monotonic() + seconds

    def _on_step(self) -> bool:
        return time.monotonic() < self.deadline


def evaluate(model: MaskablePPO, env_id: str, games: int) -> dict[str, float]:
    env = ActionMasker(gym.make(env_id), mask_of)
    scores = []
    for n in range(games):
        obs, _info = env.reset(seed=EVAL_SEEDS + n)
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=mask_of(env), deterministic=True)
            obs, _r, done, _t, _info = env.step(int(action))
        scores.append(env.unwrapped.game.score(0).total)
    q = statistics.quantiles(scores, n=10)
    sd = statistics.pstdev(scores)
    return {
        "games": games,
        "mean": statistics.fmean(scores),
        "sd": sd,
        "se": sd / games**0.5,
        "p10": q[0],
        "p50": statistics.median(scores),
        "p90": q[-1],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=sorted(GYM_IDS), default="tres-fute")
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--eval-games", type=int, default=200)
    args = parser.parse_args()
    env_id = GYM_IDS[args.game]
    env = ActionMasker(gym.make(env_id), mask_of)
    env.reset(seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=2048, batch_size=256, seed=0, verbose=0)
    before = evaluate(model, env_id, args.eval_games)
    model.learn(total_timesteps=10**9, callback=StopAfter(args.minutes * 60))
    after = evaluate(model, env_id, args.eval_games)
    print(f"{args.game}: {model.num_timesteps} training steps in {args.minutes} min")
    for label, figures in (("untrained", before), ("trained", after)):
        print(
            f"  {label:9} "
            + "  ".join(f"{k} {v:.1f}" if isinstance(v, float) else f"{k} {v}" for k, v in figures.items())
        )


if __name__ == "__main__":
    main()

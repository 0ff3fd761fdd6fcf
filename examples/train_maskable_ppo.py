"""Train a masked-PPO agent, evaluate it on held-out games, save it as a computer player.

    pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu   # CPU build
    pip install -e ".[rl]"                                                        # sb3-contrib
    python examples/train_maskable_ppo.py --game tres-fute --minutes 5 --save agent.zip
    tresfute bench --bot ppo:agent.zip --games 1000 --seed 1000     # the usual benchmark
    tresfute play --bot ppo:agent.zip                               # play against it

MaskablePPO reads the legal actions from the environment's ``action_masks()``. Training
games come from the stream of ``reset(seed=0)``; evaluation games use the seeds 1000 and up
(``--eval-seed``), and the script checks that no evaluation game was played in training. The
figures are those of ``tresfute bench``: mean, sd, standard error, p10/p50/p90.
``--opponents greedy strong`` trains and evaluates in 3-player games against them.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import gymnasium as gym
import torch
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

import tresfute  # noqa: F401  (registers the ids)
from tresfute.envs import GYM_IDS


class SeedLog(gym.Wrapper):
    """Keeps the engine seed of every game the agent trains on."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self.seeds: set[int] = set()

    def reset(self, **kwargs: Any):
        out = self.env.reset(**kwargs)
        self.seeds.add(self.env.unwrapped.game.seed)
        return out


class Budget(BaseCallback):
    """Stops after a number of steps or of seconds, with a progress bar on stderr."""

    def __init__(self, steps: int | None, seconds: float | None, progress: Progress) -> None:
        super().__init__()
        self.steps, self.seconds, self.progress = steps, seconds, progress
        self.start = time.monotonic()
        total = steps if steps else seconds
        self.task = progress.add_task("training", total=total, unit="steps" if steps else "s")

    def _on_step(self) -> bool:
        elapsed = time.monotonic() - self.start
        done = self.num_timesteps if self.steps else elapsed
        self.progress.update(self.task, completed=done, description=f"training ({self.num_timesteps:,} steps)")
        if self.steps:
            return self.num_timesteps < self.steps
        return elapsed < (self.seconds or 0)


def evaluate(
    model: MaskablePPO, env_id: str, opponents: list[str], games: int, first_seed: int, progress: Progress, label: str
) -> tuple[dict[str, float], set[int]]:
    """Plays ``games`` games with seeds ``first_seed``..; the figures and the games' engine seeds."""
    env = gym.make(env_id, opponents=opponents)
    scores, seeds = [], set()
    task = progress.add_task(label, total=games)
    for n in range(games):
        obs, _info = env.reset(seed=first_seed + n)
        seeds.add(env.unwrapped.game.seed)
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks(), deterministic=True)
            obs, _r, done, _t, _info = env.step(int(action))
        scores.append(env.unwrapped.game.score(0).total)
        progress.advance(task)
    q = statistics.quantiles(scores, n=10) if games > 1 else [scores[0]] * 9
    sd = statistics.pstdev(scores)
    figures = {"games": games, "mean": statistics.fmean(scores), "sd": sd, "se": sd / games**0.5}
    figures |= {"p10": q[0], "p50": statistics.median(scores), "p90": q[-1]}
    return figures, seeds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=sorted(GYM_IDS), default="tres-fute")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--minutes", type=float, default=None, help="train for this long (default 5)")
    budget.add_argument("--steps", type=int, default=None, help="or for this many steps")
    parser.add_argument("--opponents", nargs="*", default=[], help="computer players in the other seats")
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--eval-seed", type=int, default=1000, help="evaluation games use seeds from here on")
    parser.add_argument("--seed", type=int, default=0, help="the training games' and the network's seed")
    parser.add_argument("--save", default=None, help="where to save the model (default: agent-GAME.zip)")
    parser.add_argument(
        "--threads", type=int, default=1, help="PyTorch threads (the network is small: more only help on idle cores)"
    )
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    if args.minutes is None and args.steps is None:
        args.minutes = 5.0
    env_id = GYM_IDS[args.game]
    save = args.save or f"agent-{args.game}.zip"

    env = SeedLog(gym.make(env_id, opponents=args.opponents))
    env.reset(seed=args.seed)  # every later training game comes from this seed's stream
    n_steps = 2048 if args.steps is None or args.steps >= 4096 else 256
    model = MaskablePPO("MlpPolicy", env, n_steps=n_steps, batch_size=min(256, n_steps), seed=args.seed, verbose=0)
    columns = (TextColumn("{task.description}"), BarColumn(), TextColumn("{task.percentage:>3.0f}%"))
    with Progress(*columns, TimeRemainingColumn(), console=Console(stderr=True), transient=True) as progress:
        evaluation = (env_id, args.opponents, args.eval_games, args.eval_seed, progress)
        before, _ = evaluate(model, *evaluation, "evaluating the untrained policy")
        seconds = args.minutes * 60 if args.minutes is not None else None
        started = time.monotonic()
        model.learn(total_timesteps=10**12, callback=Budget(args.steps, seconds, progress))
        trained_for = time.monotonic() - started
        after, eval_seeds = evaluate(model, *evaluation, "evaluating the trained policy")
    model.save(save)

    seen = len(eval_seeds & env.seeds)
    against = f" against {', '.join(args.opponents)}" if args.opponents else " (solo)"
    print(f"{args.game}{against}: {model.num_timesteps:,} training steps in {trained_for / 60:.1f} min")
    print(f"  {len(env.seeds):,} training games; {seen} of the {args.eval_games} evaluation games seen in training")
    for label, figures in (("untrained", before), ("trained", after)):
        print(
            f"  {label:9} "
            + "  ".join(f"{k} {v:.1f}" if isinstance(v, float) else f"{k} {v}" for k, v in figures.items())
        )
    print(f"saved {save}; play against it: tresfute play --bot ppo:{save}")
    print(f"  benchmark it: tresfute bench --game {args.game} --bot ppo:{save} --games 1000 --seed {args.eval_seed}")
    if seen:
        raise SystemExit("evaluation games were played in training: choose another --eval-seed")


if __name__ == "__main__":
    main()

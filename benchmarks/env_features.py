"""The environments' other speeds, best of several runs on one core:

python benchmarks/env_features.py [--seconds 2] [--repeats 3] [--games 64] [--what steps,frames,chance]

- steps: game steps per second of random masked play in ``BatchedTresFuteEnv`` and in the
  SB3 ``VecEnv`` over it (``tresfute.envs.sb3.TresFuteVecEnv``, skipped without
  stable-baselines3), ``--games`` games each, the same way of choosing actions, run in turn
  (so that a change of the machine's load hits both alike);
- frames: ``rgb_array`` pictures per second at 600 pixels wide (``render_rgb`` of a game
  half played), for 1 and 4 players;
- chance: ``Game.chance_outcomes()`` at a roll of the six dice, of three dice, and in the solo
  game's passive roll: outcomes listed per second (and calls per second).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import time
from collections.abc import Callable

import numpy as np

from tresfute.envs import BatchedTresFuteEnv, render_rgb
from tresfute.rules import CHANCE, Game, Phase


def sample(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    return np.argmax(rng.random(masks.shape) * masks, axis=-1)


def batched_rate(game: str, games: int, seconds: float) -> float:
    envs, rng = BatchedTresFuteEnv(games, game), np.random.default_rng(0)
    envs.reset(seed=0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        envs.step(sample(rng, envs.action_masks()))
        steps += games
    return steps / (time.perf_counter() - start)


def sb3_rate(game: str, games: int, seconds: float) -> float:
    from tresfute.envs.sb3 import TresFuteVecEnv

    env, rng = TresFuteVecEnv(games, game), np.random.default_rng(0)
    env.seed(0)
    env.reset()
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.step(sample(rng, env.action_masks()))
        steps += games
    return steps / (time.perf_counter() - start)


def half_played(game: str, players: int) -> Game:
    g, rng = Game(game, players=players, seed=1), random.Random(1)
    while g.round <= g.rounds // 2:
        g.play(rng.choice(g.legal_moves()))
    return g


def frame_rate(game: str, players: int, seconds: float) -> float:
    g = half_played(game, players)
    render_rgb(g)  # the printed parts, drawn once
    frames, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        render_rgb(g)
        frames += 1
    return frames / (time.perf_counter() - start)


def at_roll(game: str, players: int, dice: int, phase: Phase) -> Game:
    """A game with dice from outside, waiting for a roll of ``dice`` dice in ``phase``."""
    rng = random.Random(0)
    for seed in range(1000):
        rng.seed(seed)
        g = Game(game, players=players, dice="external")
        while not g.is_over:
            if g.to_move == CHANCE:
                if g.phase is phase and len(g.dice_to_roll()) == dice:
                    return g
                letters = g.dice_to_roll()  # distinct faces: a solo roll with no tie to settle
                g.play(
                    "dice "
                    + " ".join(f"{d}{v}" for d, v in zip(letters, rng.sample(range(1, 7), len(letters)), strict=True))
                )
                continue
            g.play(rng.choice(g.legal_moves()))
    raise RuntimeError(f"no roll of {dice} dice found")


def chance_rate(g: Game, seconds: float) -> tuple[float, float]:
    calls, outcomes, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        outcomes += len(g.chance_outcomes())
        calls += 1
    elapsed = time.perf_counter() - start
    return outcomes / elapsed, calls / elapsed


def best(repeats: int, run: Callable[[], float]) -> float:
    return max(run() for _ in range(repeats))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one run")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each, the best is kept")
    parser.add_argument("--games", type=int, default=64, help="games in each vector environment")
    parser.add_argument("--what", default="steps,frames,chance", help="which measures, comma-separated")
    args = parser.parse_args()
    s, r, n = args.seconds, args.repeats, args.games
    what = set(args.what.split(","))
    unknown = what - {"steps", "frames", "chance"}
    if unknown:
        parser.error(f"unknown measure(s): {', '.join(sorted(unknown))}")
    games = ("tres-fute", "vraiment-tres-fute")
    print(f"best of {r} runs of {s:g} s")
    if "steps" in what:
        print(f"game steps per second, {n} games (the two taken in turn):")
        has_sb3 = importlib.util.find_spec("stable_baselines3") is not None
        for game in games:
            batched, sb3 = 0.0, 0.0
            for _ in range(r):
                batched = max(batched, batched_rate(game, n, s))
                sb3 = max(sb3, sb3_rate(game, n, s)) if has_sb3 else 0.0
            print(f"  {game:20} BatchedTresFuteEnv {batched:10,.0f}")
            if has_sb3:
                print(f"  {game:20} SB3 TresFuteVecEnv {sb3:10,.0f}")
            else:
                print(f"  {game:20} SB3 TresFuteVecEnv  (stable-baselines3 is not installed)")
    if "frames" in what:
        print("rgb_array frames per second, 600 pixels wide:")
        for game in games:
            for players in (1, 4):
                shape = render_rgb(half_played(game, players)).shape
                rate = best(r, lambda g=game, p=players: frame_rate(g, p, s))
                print(f"  {game:20} {players} player(s) {shape[1]}x{shape[0]} {rate:10,.0f}")
    if "chance" in what:
        print("chance outcomes listed per second (calls per second):")
        rolls = [
            ("tres-fute", 2, 6, Phase.ROLL, "6 dice"),
            ("tres-fute", 2, 3, Phase.ROLL, "3 dice"),
            ("tres-fute", 1, 6, Phase.SOLO_ROLL, "solo passive roll"),
        ]
        for game, players, dice, phase, label in rolls:
            g = at_roll(game, players, dice, phase)
            outcomes, calls = max((chance_rate(g, s) for _ in range(r)), key=lambda x: x[0])
            count = len(g.chance_outcomes())
            print(f"  {label:20} {count:7,} outcomes {outcomes:12,.0f} /s ({calls:,.1f} calls/s)")


if __name__ == "__main__":
    main()

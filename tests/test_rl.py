"""Learning agents with sb3-contrib: MaskablePPO trains through ``action_masks()``, the
example script trains, evaluates and saves, and a saved agent takes a seat.

Needs the ``rl`` extra (sb3-contrib and a CPU PyTorch, see docs/environments.md); skipped
with the reason otherwise. ``.ci/run`` installs them and sets ``TRESFUTE_RL_TESTS=required``,
so CI never skips these tests.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from click.testing import CliRunner

import tresfute  # noqa: F401  (registers the ids)
from tresfute.bots import BotError, make_bot
from tresfute.cli import main
from tresfute.i18n import use_language
from tresfute.rules import Game
from tresfute.tui.app import EndScreen, GameScreen, SetupScreen, TresFuteApp, seat_kinds
from tresfute.tui.session import Seat, Session

pytestmark = pytest.mark.slow  # trains an agent with PyTorch: left out by pytest -m "not slow"

try:
    import sb3_contrib
    import torch
except ImportError as exc:
    if os.environ.get("TRESFUTE_RL_TESTS") == "required":
        raise RuntimeError(f"the rl tests are required but {exc.name} is missing (see docs/environments.md)") from None
    pytest.skip(f"{exc.name} is not installed (pip install -e '.[rl]' with a CPU torch)", allow_module_level=True)

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def one_thread() -> None:
    torch.set_num_threads(1)  # a few hundred steps: threads only cost on a shared machine


class CountMasks(gym.Wrapper):
    """Counts the calls to ``action_masks()`` (which MaskablePPO finds through wrappers)."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self.calls = 0

    def action_masks(self) -> np.ndarray:
        self.calls += 1
        return self.env.unwrapped.action_masks()


def test_maskable_ppo_trains_through_action_masks_and_plays_only_legal_moves() -> None:
    env = CountMasks(gym.make("tresfute/TresFute-v0", illegal="raise"))  # an illegal action would raise
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=2, seed=0)
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(total_timesteps=384)
    assert model.num_timesteps >= 384 and env.calls >= 384
    assert any(not torch.equal(a, b) for a, b in zip(before, model.policy.parameters(), strict=True))


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example script, run as a user would, with a tiny budget."""
    path = tmp_path_factory.mktemp("agent") / "agent.zip"
    command = [sys.executable, str(ROOT / "examples" / "train_maskable_ppo.py"), "--steps", "300"]
    command += ["--eval-games", "3", "--save", str(path)]
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=300, env={**os.environ, "OMP_NUM_THREADS": "1"}
    )
    assert done.returncode == 0, done.stderr
    assert "0 of the 3 evaluation games seen in training" in done.stdout
    assert "trained   games 3  mean" in done.stdout and path.is_file()
    return path


def test_a_saved_agent_is_a_computer_player_in_bench(agent: Path) -> None:
    result = CliRunner().invoke(main, ["bench", "--bot", f"ppo:{agent}", "--games", "2", "--seed", "1000", "--json"])
    assert result.exit_code == 0, result.output
    assert '"games": 2' in result.output and f"ppo:{agent}" in result.output


def test_a_saved_agent_plays_a_seat_against_people_and_other_players(agent: Path) -> None:
    """A solo-trained agent sees the part of a multi-player observation it was trained on."""
    with use_language("en"):  # tresfute play --bot ppo:FILE offers it in the seats
        assert ("Computer: ppo:x.zip", "ppo:x.zip") in seat_kinds(("ppo:x.zip",))
    session = Session.new("tres-fute", [Seat("agent", f"ppo:{agent}"), Seat("strong", "strong")], seed=5)
    while not session.game.is_over:
        session.play_bot()
    assert {h.player for h in session.game.moves_played()} == {0, 1}


def test_the_terminal_game_seats_a_saved_agent_against_a_person(agent: Path) -> None:
    """tresfute play --bot ppo:FILE: the agent is offered in the seats and plays its turns;
    the person (seat 1) plays the first listed move with Enter."""
    spec = f"ppo:{agent}"

    async def main() -> None:
        app = TresFuteApp(bot_delay=0, extra_bots=(spec,))
        async with app.run_test(size=(140, 50)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, SetupScreen)
            app.screen.query_one("#players").value = 2
            await pilot.pause()
            app.screen.query_one("#kind0").value = spec
            app.screen.query_one("#kind1").value = "person"
            app.screen.query_one("#seed").value = "3"
            await pilot.click("#start")
            await pilot.pause()
            assert isinstance(app.screen, GameScreen)
            session = app.screen.session
            for _ in range(600):
                if isinstance(app.screen, EndScreen):
                    break
                await pilot.press("enter")
                await pilot.pause()
            assert isinstance(app.screen, EndScreen)
            players = {h.player for h in session.game.moves_played() if not h.forced}
            assert players == {0, 1} and session.seats[0].bot == spec

    asyncio.run(main())


def test_an_agent_for_the_other_game_or_a_bad_file_is_refused_with_the_reason(agent: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["bench", "--game", "vraiment-tres-fute", "--bot", f"ppo:{agent}", "--games", "1", "--lang", "en"]
    )
    assert result.exit_code == 1 and "trained for tres-fute, not vraiment-tres-fute" in result.output
    with pytest.raises(BotError, match="trained for tres-fute"):
        Session.new("vraiment-tres-fute", [Seat("agent", f"ppo:{agent}")], seed=1)
    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"not a zip")
    for spec, reason in (
        (f"ppo:{bad}", "not a MaskablePPO model"),
        ("ppo:/no/such.zip", "no model file"),
        ("ppo:", "needs a file"),
    ):
        with pytest.raises(ValueError, match=reason):
            make_bot(spec, 0)
        result = CliRunner().invoke(main, ["bench", "--bot", spec, "--games", "1", "--lang", "en"])
        assert result.exit_code == 2 and reason in result.output
    game = Game("tres-fute", players=1, seed=1)
    move = make_bot(f"ppo:{agent}", 0).choose(game, 0)
    assert move in game.legal_moves(0)


def test_maskable_ppo_trains_on_eight_games_at_once_with_every_final_observation() -> None:
    """The SB3 VecEnv over the batched environment: an illegal action would raise, and every
    episode's end carries its last observation."""
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.callbacks import BaseCallback

    from tresfute.envs.sb3 import TresFuteVecEnv

    class Ends(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.ends = self.with_final = 0

        def _on_step(self) -> bool:
            for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
                self.ends += int(done)
                self.with_final += int(done and info["terminal_observation"].shape == (186,))
            return True

    env = TresFuteVecEnv(num_envs=8, game="tres-fute")
    env.seed(0)
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=128, n_epochs=1, seed=0)
    ends = Ends()
    model.learn(total_timesteps=4096, callback=ends)
    assert model.num_timesteps >= 4096 and ends.ends >= 8 * 4 and ends.with_final == ends.ends
    masks = get_action_masks(env)
    assert masks.shape == (8, 144) and masks.any(axis=1).all()
    assert np.array_equal(env.env_method("action_masks", indices=[2])[0], masks[2])
    assert env.has_attr("action_masks") and env.env_is_wrapped(gym.Wrapper) == [False] * 8


def test_an_sb3_vec_env_seed_reproduces_its_games() -> None:
    from tresfute.envs.sb3 import TresFuteVecEnv

    def run() -> list[np.ndarray]:
        env = TresFuteVecEnv(num_envs=3, game="vraiment-tres-fute", opponents=["greedy"])
        env.seed(7)
        seen = [env.reset()]
        for _ in range(30):
            obs, _rewards, _dones, _infos = env.step(env.action_masks().argmax(axis=1))
            seen.append(obs)
        return seen

    first = run()
    assert all(np.array_equal(a, b) for a, b in zip(first, run(), strict=True))
    assert not np.array_equal(first[0], first[1])  # an observation given is never written again


def test_sb3_make_vec_env_builds_with_its_default_rgb_array_render_mode() -> None:
    """make_vec_env asks for render_mode='rgb_array' by default (it used to crash here)."""
    from stable_baselines3.common.env_util import make_vec_env

    envs = make_vec_env("tresfute/TresFute-v0", n_envs=2, seed=0)
    envs.reset()
    frame = envs.render()
    assert envs.render_mode == "rgb_array" and frame.dtype == np.uint8 and frame.shape[2] == 3
    assert np.stack(envs.env_method("action_masks")).shape == (2, 144)
    envs.close()

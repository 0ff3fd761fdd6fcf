"""The Gymnasium and PettingZoo environments, on the engine."""

from __future__ import annotations

import random
import subprocess
import sys
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import tresfute  # noqa: F401  (registers the ids)
from tresfute import records
from tresfute.envs import GYM_IDS, ActionMap, bot_policy
from tresfute.envs.pz_env import env as aec_env
from tresfute.envs.pz_env import raw_env
from tresfute.envs.vector import BatchedTresFuteEnv
from tresfute.i18n import use_language
from tresfute.rules import CHANCE, Game
from tresfute.tui.render import render_sheet, targets_of

GAMES = sorted(GYM_IDS)


@pytest.fixture(autouse=True)
def quiet() -> None:
    warnings.filterwarnings("ignore", category=UserWarning)


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_env_checker_passes(game: str) -> None:
    check_env(gym.make(GYM_IDS[game]).unwrapped, skip_render_check=False)


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_env_checker_passes_against_computer_players(game: str) -> None:
    check_env(gym.make(GYM_IDS[game], opponents=["greedy", "random"], seat=1).unwrapped, skip_render_check=False)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("make", [aec_env, raw_env], ids=["env", "raw_env"])
def test_pettingzoo_api_test_passes(game: str, players: int, make) -> None:
    api_test(make(game, players), num_cycles=400, verbose_progress=False)


@pytest.mark.parametrize("game", GAMES)
def test_masked_random_play_is_always_legal_and_rewards_the_final_score(game: str) -> None:
    env = gym.make(GYM_IDS[game])
    for episode in range(15):
        _obs, info = env.reset(seed=episode)
        total, done = 0.0, False
        while not done:
            action = env.action_space.sample(mask=info["action_mask"])
            obs, reward, done, _truncated, info = env.step(action)
            assert "illegal_action" not in info
            assert env.observation_space.contains(obs)
            total += reward
        assert total == env.unwrapped.game.score(0).total


@pytest.mark.parametrize("game", GAMES)
def test_delta_rewards_add_up_to_the_final_score(game: str) -> None:
    env = gym.make(GYM_IDS[game], reward="delta")
    _obs, info = env.reset(seed=3)
    total, done = 0.0, False
    while not done:
        _obs, reward, done, _t, info = env.step(env.action_space.sample(mask=info["action_mask"]))
        total += reward
    assert total == env.unwrapped.game.score(0).total


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_masked_play_rewards_each_agent_its_final_score(game: str) -> None:
    env = aec_env(game, 3)
    env.reset(seed=5)
    rewards = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _info = env.last()
        rewards[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        action = env.action_space(agent).sample(mask=obs["action_mask"])
        env.step(action)
        assert "illegal_action" not in env.infos.get(agent, {})
    assert rewards == {a: float(s.total) for a, s in zip(env.possible_agents, env.game.scores(), strict=True)}


@pytest.mark.parametrize("game", GAMES)
def test_the_action_mapping_round_trips_for_every_legal_move(game: str) -> None:
    actions = ActionMap(game)
    assert len(set(actions.moves)) == len(actions)
    for seed in range(25):
        g = Game(game, players=random.Random(seed).randint(1, 4), seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            for player in g.players_to_move:
                for move in g.legal_moves(player):
                    number = actions.move_to_action(move)
                    assert actions.action_to_move(number) == move
                    assert actions.move_to_action(str(move)) == number
            g.play(rng.choice(g.legal_moves()))


@pytest.mark.parametrize("game", GAMES)
def test_seeds_reproduce_episodes_and_the_game_is_an_ordinary_record(game: str) -> None:
    def episode(seed: int) -> tuple[list[int], Game]:
        env = gym.make(GYM_IDS[game])
        _obs, info = env.reset(seed=seed)
        env.action_space.seed(seed)
        actions, done = [], False
        while not done:
            action = int(env.action_space.sample(mask=info["action_mask"]))
            actions.append(action)
            _obs, _r, done, _t, info = env.step(action)
        return actions, env.unwrapped.game

    first, game_a = episode(11)
    second, game_b = episode(11)
    assert first == second and game_a.scores() == game_b.scores()
    replayed = records.replay(records.loads(records.dumps(records.record_of(game_a))))
    assert replayed.scores() == game_a.scores()


def test_an_illegal_action_changes_nothing_and_says_why() -> None:
    env = gym.make("tresfute/TresFute-v0")
    obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, done, _t, info2 = env.step(illegal)
    assert np.array_equal(obs, obs2) and reward == 0 and not done
    assert info2["illegal_action"]
    strict = gym.make("tresfute/TresFute-v0", illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(ValueError):
        strict.step(illegal)
    with pytest.raises(ValueError, match=r"not in 0\.\."):
        ActionMap("tres-fute").action_to_move(10_000)


def test_passive_players_do_not_see_each_others_choices() -> None:
    """In a turn's passive phase, other players' sheets are shown as they were when it began."""
    env = raw_env("tres-fute", 3)
    env.reset(seed=2)
    checked = False
    for agent in env.agent_iter():
        obs, _r, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        game = env.game
        if game.phase == "passive" and len(game.players_to_move) == 1 and game.active != env._seat(agent):
            from tresfute.envs.observation import encode

            live = encode(game, env._seat(agent))
            assert np.array_equal(obs["observation"], encode(game, env._seat(agent), env._frozen))
            checked = checked or not np.array_equal(obs["observation"], live)
        env.step(env.action_space(agent).sample(mask=obs["action_mask"]))
    assert checked  # some passive player would otherwise have seen another's pick


def test_a_bot_plays_inside_the_environment() -> None:
    """A computer player as a baseline policy in Gymnasium, and as an opponent in PettingZoo."""
    env = gym.make("tresfute/VraimentTresFute-v0")
    _obs, info = env.reset(seed=4)
    policy = bot_policy("random", seed=4)
    done = False
    while not done:
        action = policy(env.unwrapped.game, 0)
        assert info["action_mask"][action] == 1
        _obs, _r, done, _t, info = env.step(action)
    aec = aec_env("tres-fute", 2)
    aec.reset(seed=4)
    opponent = bot_policy("random", seed=9)
    for agent in aec.agent_iter():
        obs, _r, term, trunc, _info = aec.last()
        if term or trunc:
            aec.step(None)
        elif agent == "player_1":
            aec.step(opponent(aec.game, 1))
        else:
            aec.step(aec.action_space(agent).sample(mask=obs["action_mask"]))
    assert aec.game.is_over and aec.game.to_move is None and CHANCE == -1

"""PettingZoo's parallel API, its conversions, and PettingZoo's own checks of both forms."""

from __future__ import annotations

import importlib.util
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, render_test, seed_test
from pettingzoo.utils.conversions import aec_to_parallel, parallel_to_aec

from tresfute import records
from tresfute.envs.pz_env import TresFuteParallel, parallel_env, raw_env
from tresfute.rules import Phase

GAMES = ["tres-fute", "vraiment-tres-fute"]


@pytest.fixture(autouse=True)
def quiet(monkeypatch) -> None:
    warnings.filterwarnings("ignore", category=UserWarning)
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")  # the human mode's window, without a screen


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_parallel_api_test_passes(game: str, players: int) -> None:
    parallel_api_test(parallel_env(game, players), num_cycles=400)


@pytest.mark.parametrize("game", GAMES)
def test_the_parallel_env_round_trips_through_the_aec_form(game: str) -> None:
    env = parallel_env(game, 3)
    aec = parallel_to_aec(env)
    api_test(aec, num_cycles=300, verbose_progress=False)
    assert aec_to_parallel(aec) is env
    parallel_api_test(aec_to_parallel(aec), num_cycles=300)


def test_seeds_reproduce_both_forms() -> None:
    parallel_seed_test(lambda: parallel_env("tres-fute", 3), num_cycles=200)
    seed_test(lambda: raw_env("vraiment-tres-fute", 2), num_cycles=200)


@pytest.mark.slow  # PettingZoo draws many pictures: left out by pytest -m "not slow"
@pytest.mark.skipif(importlib.util.find_spec("pygame") is None, reason="the human mode's window needs pygame")
def test_render_test_passes_for_every_render_mode() -> None:
    render_test(lambda render_mode=None: raw_env("tres-fute", 2, render_mode=render_mode))
    render_test(lambda render_mode=None: parallel_to_aec(parallel_env("vraiment-tres-fute", 3, render_mode)))


@pytest.mark.parametrize("game", GAMES)
def test_passive_players_decide_at_once_and_the_game_is_an_ordinary_record(game: str) -> None:
    env = TresFuteParallel(game, 4)
    observations, infos = env.reset(seed=3)
    rng = np.random.default_rng(0)
    together = 0
    while env.agents:
        deciding = [a for a in env.agents if observations[a]["action_mask"].any()]
        assert [env.possible_agents.index(a) for a in deciding] == sorted(env.game.players_to_move)
        at_once = env.game.phase is Phase.PASSIVE and len(deciding) > 1
        played = len(env.game.history)
        actions = {a: int(np.argmax(rng.random(len(env.actions)) * observations[a]["action_mask"])) for a in env.agents}
        observations, rewards, terminations, _t, infos = env.step(actions)
        assert not any("illegal_action" in i for i in infos.values())
        if at_once:  # every passive player's decision was played in this one step
            together += 1
            mine = [h.player for h in env.game.history[played:] if not h.forced]
            assert sorted(mine) == sorted(env.possible_agents.index(a) for a in deciding)
    assert together > 10 and all(terminations.values())
    scores = env.game.scores()
    assert rewards == {a: float(scores[i].total) for i, a in enumerate(env.possible_agents)}
    assert records.replay(records.loads(records.dumps(records.record_of(env.game)))).scores() == scores


def test_an_illegal_or_missing_action_moves_nothing_for_that_player() -> None:
    env = parallel_env("tres-fute", 2)
    observations, _ = env.reset(seed=1)
    mover = next(a for a in env.agents if observations[a]["action_mask"].any())
    illegal = int(np.flatnonzero(observations[mover]["action_mask"] == 0)[0])
    before = records.record_of(env.game)
    _obs, _rewards, _term, _trunc, infos = env.step({mover: illegal})
    assert "illegal_action" in infos[mover] and records.record_of(env.game) == before
    env.step({})
    assert records.record_of(env.game) == before


def test_both_forms_have_one_name_and_the_same_render_settings() -> None:
    """One game, two APIs, as PettingZoo's own environments: the same ``metadata["name"]``
    (tools key results and saved files by it), render modes and frame rate."""
    aec, par = raw_env("tres-fute", 2), parallel_env("tres-fute", 2)
    assert aec.metadata["name"] == par.metadata["name"] == "tresfute_v0"
    assert {k: v for k, v in aec.metadata.items() if k != "is_parallelizable"} == par.metadata
    assert parallel_to_aec(par).metadata["name"] == "tresfute_v0"

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

import tresfute  # registers the ids
from tresfute import records
from tresfute.envs import GYM_IDS, ActionMap, TresFuteEnv, bot_policy
from tresfute.envs.pz_env import env as aec_env
from tresfute.envs.pz_env import raw_env
from tresfute.envs.vector import BatchedTresFuteEnv
from tresfute.i18n import use_language
from tresfute.rules import CHANCE, Game, IllegalMoveError
from tresfute.sheet_text import render_sheet, targets_of

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
                    assert actions.action_to_move(number) is move  # the engine's own object
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
            assert np.array_equal(obs["observation"], encode(game, env._seat(agent), env._shown.sheets))
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


FRESH_EPISODE = """
import gymnasium as gym{extra}
env = gym.make("{env_id}")
obs, info = env.reset(seed=7)
done = False
while not done:
    obs, reward, done, truncated, info = env.step(int(info["action_mask"].argmax()))
print(int(reward) == env.unwrapped.game.score(0).total, type(env.unwrapped).__name__)
"""


def _python(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` run by a fresh interpreter (imports as a new user's program makes them), which
    must succeed; its output to check."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done


@pytest.mark.parametrize(
    ("extra", "env_id"),
    [
        (", tresfute", "tresfute/TresFute-v0"),  # the issue's own line
        ("\nimport tresfute", "tresfute/VraimentTresFute-v0"),
        ("", "tresfute.envs:tresfute/TresFute-v0"),  # module:id, no import first
    ],
    ids=["gymnasium-then-tresfute", "tresfute-imported-later", "module-id"],
)
def test_gym_make_works_in_a_fresh_interpreter(extra: str, env_id: str) -> None:
    """The first thing a bot builder types: a fresh Python, gym.make by id, one episode."""
    code = FRESH_EPISODE.format(extra=extra, env_id=env_id)
    if extra.startswith("\n"):  # import tresfute first, Gymnasium after it
        code = "import tresfute\n" + code.replace("\nimport tresfute", "", 1)
    done = _python(code)
    assert done.stdout.split() == ["True", "TresFuteEnv"]


def test_looking_gymnasium_up_before_importing_it_keeps_the_ids_registered() -> None:
    """Code that checks for an optional package (``importlib.util.find_spec``, as the docs' test
    does) between ``import tresfute`` and ``import gymnasium`` still gets the ids."""
    code = (
        "import importlib.util, tresfute\n"
        "assert importlib.util.find_spec('gymnasium') is not None\n"
        "import gymnasium as gym\n"
        "print(gym.make('tresfute/TresFute-v0').spec.id)"
    )
    done = _python(code)
    assert done.stdout.strip() == "tresfute/TresFute-v0"


def test_importing_tresfute_does_not_import_gymnasium_or_the_environments() -> None:
    code = "import sys, tresfute; print(sorted(m for m in sys.modules if m.startswith(('gymnasium', 'tresfute.envs'))))"
    done = _python(code)
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("game", GAMES)
def test_action_masks_and_legal_moves_name_the_same_legal_actions(game: str) -> None:
    env = gym.make(GYM_IDS[game], legal_moves=True)
    _obs, info = env.reset(seed=5)
    actions = env.unwrapped.actions
    done = False
    while not done:
        masks = env.unwrapped.action_masks()
        assert masks.dtype == bool and np.array_equal(masks, info["action_mask"].astype(bool))
        legal = [str(actions.action_to_move(a)) for a in np.flatnonzero(masks)]
        assert sorted(legal) == sorted(info["legal_moves"]) == sorted(map(str, env.unwrapped.game.legal_moves(0)))
        _obs, _r, done, _t, info = env.step(int(np.flatnonzero(masks)[-1]))
    assert info["legal_moves"] == [] and not env.unwrapped.action_masks().any()
    assert "legal_moves" not in gym.make(GYM_IDS[game]).reset(seed=5)[1]  # only on request


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [1, 3])
def test_observation_names_say_what_each_index_holds(game: str, players: int) -> None:
    env = gym.make(GYM_IDS[game], opponents=["random"] * (players - 1))
    obs, info = env.reset(seed=2)
    names = env.unwrapped.observation_names()
    assert len(names) == len(set(names)) == env.observation_space.shape[0]
    at = dict(zip(names, obs, strict=True))
    g = env.unwrapped.game
    for i, die in enumerate(g.dice):
        assert [at[f"die.{die}.face{v}"] for v in range(1, 7)] == [float(v == g.values[i]) for v in range(1, 7)]
    assert at["turn.round"] == g.round / g.rounds and at["turn.phase.choose"] == 1.0
    # play to the end: each area's score and the foxes sit where their names say
    done = False
    while not done:
        obs, _r, done, _t, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    at = dict(zip(names, obs, strict=True))
    score = g.score(0)
    for area, points in score.areas.items():
        assert at[f"me.score.{area}"] == pytest.approx(max(-1.0, min(1.0, points / 100)))
    assert at["me.foxes"] == pytest.approx(score.foxes / 6)
    if players > 1:
        assert at[f"left1.score.{next(iter(score.areas))}"] == pytest.approx(
            max(-1.0, min(1.0, next(iter(g.score(1).areas.values())) / 100))
        )


@pytest.mark.parametrize("game", GAMES)
def test_ansi_render_draws_the_sheet_as_the_terminal_game_does(game: str) -> None:
    env = gym.make(GYM_IDS[game], render_mode="ansi", opponents=["greedy"])
    env.reset(seed=9)
    g = env.unwrapped.game
    with use_language("en"):
        text = env.render()
        sheet = render_sheet(g, 0, targets_of(g.legal_moves(0)), None).plain.rstrip("\n")
    assert sheet in text and "Total: 0" in text and "Round 1/" in text
    assert "→ " + " ".join(map(str, g.legal_moves(0))) in text
    assert gym.make(GYM_IDS[game]).unwrapped.render() is None  # no render mode, no drawing
    with pytest.raises(ValueError, match="render_mode"):
        gym.make(GYM_IDS[game], render_mode="svg")


def _half_played_record(game: str, players: int, seed: int) -> records.Record:
    g = Game(game, players=players, seed=seed)
    rng = random.Random(seed)
    while g.round < 3:
        g.play(rng.choice(g.legal_moves()))
    while g.to_move != 0:  # stop where the agent (seat 0) decides
        g.play(rng.choice(g.legal_moves()))
    return records.record_of(g)


@pytest.mark.parametrize("game", GAMES)
def test_reset_from_a_record_continues_that_game(game: str, tmp_path) -> None:
    record = _half_played_record(game, 1, seed=21)
    env = gym.make(GYM_IDS[game])
    path = tmp_path / "game.json"
    path.write_text(records.dumps(record))
    for given in (record, records.dumps(record), record.model_dump(), path):
        obs, info = env.reset(options={"record": given})
        assert [str(h.move) for h in env.unwrapped.game.moves_played()] == [m.split(":")[1] for m in record.moves]
        assert np.array_equal(obs, tresfute.envs.observation.encode(records.replay(record), 0))
    done = False
    while not done:
        _obs, reward, done, _t, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    # the finished game is the record's game continued: its record replays and checks the score
    finished = records.record_of(env.unwrapped.game)
    assert finished.moves[: len(record.moves)] == record.moves
    assert records.replay(finished).score(0).total == reward
    # "move": N starts at the position in which the record's move N was played
    env.reset(options={"record": record, "move": 5})
    assert len(env.unwrapped.game.moves_played()) == 4


def test_reset_from_a_record_against_opponents_lets_them_play_first() -> None:
    record = _half_played_record("tres-fute", 2, seed=4)
    record.moves = record.moves[:-1] if record.moves[-1].startswith("2:") else record.moves
    env = gym.make("tresfute/TresFute-v0", opponents=["greedy"])
    _obs, info = env.reset(seed=1, options={"record": record})
    assert env.unwrapped.game.to_move == 0 and info["action_mask"].any()


def test_a_bad_record_is_refused_with_the_reason_and_changes_nothing() -> None:
    env = gym.make("tresfute/TresFute-v0")
    env.reset(seed=3)
    before = records.record_of(env.unwrapped.game)
    other_game = _half_played_record("vraiment-tres-fute", 1, seed=1)
    two_players = _half_played_record("tres-fute", 2, seed=1)
    finished = Game("tres-fute", players=1, seed=2)
    while not finished.is_over:
        finished.play(finished.legal_moves()[0])
    external = records.Record(game="tres-fute", players=["a"], dice="external", seed=None, moves=[])
    cases = [
        (other_game, "game of vraiment-tres-fute"),
        (two_players, "2 players"),
        (records.record_of(finished), "over"),
        (external, "dice came from outside"),
        ('{"format": "tresfute-record/1"}', "not a valid record"),
        ("/no/such/record.json", "cannot read"),
    ]
    for bad, reason in cases:
        with pytest.raises(records.RecordError, match=reason):
            env.reset(options={"record": bad})
        assert records.record_of(env.unwrapped.game) == before
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(options={"recrod": other_game})


@pytest.mark.parametrize("game", GAMES)
def test_opponents_play_between_the_agents_decisions(game: str) -> None:
    """Every step is the agent's decision; the computer players fill the other seats, and
    the agent's reward is its own final score."""
    env = gym.make(GYM_IDS[game], opponents=["greedy", "random"], seat=1)
    _obs, info = env.reset(seed=13)
    g = env.unwrapped.game
    assert g.n_players == 3 and env.observation_space.shape[0] == len(env.unwrapped.observation_names())
    done, total = False, 0.0
    while not done:
        assert g.to_move == 1 and info["action_mask"].any()
        _obs, reward, done, _t, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        total += reward
    scores = [s.total for s in g.scores()]
    assert total == scores[1] and info["scores"] == scores
    seats = {h.player for h in g.moves_played()}
    assert seats == {0, 1, 2}
    # a seed reproduces the dice and the opponents' choices
    again = gym.make(GYM_IDS[game], opponents=["greedy", "random"], seat=1)
    _obs, info = again.reset(seed=13)
    while not again.unwrapped.game.is_over:
        _obs, _r, _d, _t, info = again.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert [s.total for s in again.unwrapped.game.scores()] == scores


def test_the_strong_player_is_an_opponent_too() -> None:
    env = gym.make("tresfute/TresFute-v0", opponents=["strong"])
    _obs, info = env.reset(seed=2)
    game = env.unwrapped.game
    while game.round == 1:
        _obs, _r, _d, _t, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert game.to_move == 0 and any(h.player == 1 and not h.forced for h in game.history)


def test_opponents_must_be_known_computer_players() -> None:
    with pytest.raises(ValueError, match="unknown bot 'grredy'"):
        gym.make("tresfute/TresFute-v0", opponents=["grredy"])
    with pytest.raises(ValueError, match="at most 3"):
        gym.make("tresfute/TresFute-v0", opponents=["greedy"] * 4)
    with pytest.raises(ValueError, match="at most 3"):
        gym.make("tresfute/TresFute-v0", opponents="greedy")
    with pytest.raises(ValueError, match=r"seat is 0\.\.1"):
        gym.make("tresfute/TresFute-v0", opponents=["greedy"], seat=2)


def test_the_batched_environment_checks_its_table_as_the_single_one_does() -> None:
    """One check of the game, its rules, the opponents and the seat (``gym_env.seated``) for both."""
    for make in (TresFuteEnv, lambda **kw: BatchedTresFuteEnv(2, **kw)):
        with pytest.raises(ValueError, match="unknown bot 'grredy'"):
            make(opponents=["grredy"])
        with pytest.raises(ValueError, match=r"seat is 0\.\.1 in a 2-player game"):
            make(opponents=["greedy"], seat=2)
        with pytest.raises(ValueError, match="reprise_with_no_die_left"):
            make(rules={"reprise_with_no_die_left": False})  # Très futé has no such option
        env = make(game="vraiment-tres-fute", opponents=["greedy"], seat=1, rules={"reprise_with_no_die_left": False})
        assert (env.game_id, env.rules, env.opponents, env.n_players, env.seat) == (
            "vraiment-tres-fute",
            {"reprise_with_no_die_left": False},
            ["greedy"],
            2,
            1,
        )


def test_pettingzoo_env_is_wrapped_and_refuses_out_of_range_actions() -> None:
    wrapped = aec_env("tres-fute", 2)
    assert wrapped.metadata["name"] == "tresfute_v0" and isinstance(wrapped.unwrapped, type(raw_env()))
    with pytest.raises(AssertionError, match="reset"):  # order enforced: reset first
        wrapped.step(0)
    wrapped.reset(seed=1)
    before = records.record_of(wrapped.unwrapped.game)
    with pytest.raises(AssertionError):
        wrapped.step(10_000)
    assert records.record_of(wrapped.unwrapped.game) == before
    # the raw environment reports the same action as illegal instead, and changes nothing
    raw = raw_env("tres-fute", 2)
    raw.reset(seed=1)
    raw.step(10_000)
    assert "not in 0.." in raw.infos[raw.agent_selection]["illegal_action"]


@pytest.mark.parametrize("game", GAMES)
def test_batched_games_match_single_games_with_the_same_seeds(game: str) -> None:
    """The batched environment is N single environments: same dice, same rewards, and a
    finished game starts anew in the same step."""
    n = 3
    batch = BatchedTresFuteEnv(n, game)
    obs, info = batch.reset(seed=[10, 11, 12])
    singles = [gym.make(GYM_IDS[game]).unwrapped for _ in range(n)]
    for i, env in enumerate(singles):
        env.game = Game(
            game, players=1, seed=int(np.random.default_rng(np.random.SeedSequence(10 + i)).integers(0, 2**63 - 1))
        )
        assert np.array_equal(obs[i], tresfute.envs.observation.encode(env.game, 0))
    assert obs.shape == (n, batch.single_observation_space.shape[0]) and info["action_mask"].shape == (
        n,
        len(batch.actions),
    )
    ended = np.zeros(n, dtype=bool)
    while not ended.all():
        masks = batch.action_masks()
        actions = masks.argmax(axis=1)
        obs, rewards, terminated, truncated, info = batch.step(actions)
        for i, env in enumerate(singles):
            if ended[i]:
                continue
            _o, reward, done, _t, _info = env.step(int(actions[i]))
            assert rewards[i] == reward and terminated[i] == done and not truncated[i]
            if done:
                ended[i] = True
                assert info["_final_score"][i] and info["final_score"][i] == env.game.score(0).total
                assert batch.games[i].round == 1 and obs[i][0:6].sum() == 1.0  # the next game, rolled
            else:
                assert np.array_equal(obs[i], tresfute.envs.observation.encode(env.game, 0))


def test_batched_env_refuses_an_illegal_action_and_plays_nothing() -> None:
    batch = BatchedTresFuteEnv(4, "tres-fute", opponents=["greedy"])
    batch.reset(seed=3)
    before = [records.record_of(g) for g in batch.games]
    actions = batch.action_masks().argmax(axis=1)
    actions[2] = int(np.flatnonzero(~batch.action_masks()[2])[0])
    with pytest.raises(ValueError, match="not legal in game 2"):
        batch.step(actions)
    with pytest.raises(ValueError, match="one action per game"):
        batch.step(actions[:3])
    assert [records.record_of(g) for g in batch.games] == before


def test_make_vec_builds_the_batched_environment() -> None:
    envs = gym.make_vec("tresfute/VraimentTresFute-v0", num_envs=2, vectorization_mode="vector_entry_point")
    assert isinstance(envs, BatchedTresFuteEnv) and envs.game_id == "vraiment-tres-fute"
    obs, _info = envs.reset(seed=0)
    assert envs.observation_space.contains(obs)


def test_a_trained_agent_seat_is_checked_before_any_game() -> None:
    """``ppo:FILE`` seats: a missing file or spec is refused with the reason, by the library
    and by every command that takes --bot, before PyTorch is even needed."""
    from click.testing import CliRunner

    from tresfute.bots import make_bot
    from tresfute.cli import main

    for spec, reason in (("ppo:", "needs a file"), ("ppo:/no/such/agent.zip", "no model file"), ("pop", "unknown bot")):
        with pytest.raises(ValueError, match=reason):
            make_bot(spec, 0)
        for command in (["bench", "--games", "1"], ["simulate", "--games", "1"], ["play"]):
            result = CliRunner().invoke(main, [*command, "--bot", spec, "--lang", "en"])
            assert result.exit_code == 2 and reason in result.output


@pytest.mark.parametrize("game", GAMES)
def test_an_episode_steps_one_seat_as_the_environments_do(game: str) -> None:
    """``Episode`` (docs/environments.md): the agent's action, then the computer players'
    moves up to its next decision; the observation and mask are the environment's; an illegal
    action raises and changes nothing."""
    from tresfute.bots import make_bot
    from tresfute.envs.actions import action_map
    from tresfute.envs.episode import Episode
    from tresfute.envs.observation import encode

    actions = action_map(game)
    episode = Episode(Game(game, players=2, seed=4), 0, {1: make_bot("greedy", 0)}, actions).start()
    assert episode.game.to_move == 0
    mask = episode.mask()
    while not episode.game.is_over:
        before = records.record_of(episode.game)
        with pytest.raises(ValueError, match=r"not in 0\.\."):
            episode.step(len(actions))
        illegal = int(np.flatnonzero(mask == 0)[0])
        with pytest.raises(IllegalMoveError):
            episode.step(illegal)
        assert records.record_of(episode.game) == before
        obs, total, done, mask = episode.step(int(np.flatnonzero(mask)[0]))
        assert total == episode.game.score(0).total and done == episode.game.is_over
        assert done or episode.game.to_move == 0  # the computer player has moved in between
        if episode.game.phase != "passive":
            assert np.array_equal(obs, encode(episode.game, 0))
        assert np.array_equal(mask, actions.mask(episode.game, 0 if 0 in episode.game.players_to_move else None))


def test_batched_games_give_their_final_observation_and_info_in_the_same_step() -> None:
    """SAME_STEP autoreset, as Gymnasium documents it: the ended game's last observation and
    info are in ``final_obs``/``final_info`` (with their masks), the new game's first in obs."""
    n = 3
    batch = BatchedTresFuteEnv(n, "tres-fute")
    assert batch.metadata["autoreset_mode"] is gym.vector.AutoresetMode.SAME_STEP
    batch.reset(seed=[10, 11, 12])
    singles = [gym.make(GYM_IDS["tres-fute"]).unwrapped for _ in range(n)]
    for i, env in enumerate(singles):
        env.game = Game(
            "tres-fute",
            players=1,
            seed=int(np.random.default_rng(np.random.SeedSequence(10 + i)).integers(0, 2**63 - 1)),
        )
    ended = np.zeros(n, dtype=bool)
    while not ended.all():
        actions = batch.action_masks().argmax(axis=1)
        obs, _rewards, terminated, _truncated, info = batch.step(actions)
        assert ("final_obs" in info) == terminated.any()
        for i, env in enumerate(singles):
            if ended[i]:
                continue
            last, _r, done, _t, last_info = env.step(int(actions[i]))
            if done:
                ended[i] = True
                assert info["_final_obs"][i] and info["_final_info"][i]
                assert np.array_equal(info["final_obs"][i], last)
                assert info["final_info"]["score"][i] == last_info["score"] == env.game.score(0).total
                assert info["final_info"]["scores"][i] == last_info["scores"]
                assert not np.array_equal(obs[i], last)  # the next game's first observation
            elif "_final_obs" in info:
                assert not info["_final_obs"][i] and info["final_obs"][i] is None


def test_batched_games_can_start_anew_at_the_next_step() -> None:
    """NEXT_STEP autoreset: the ended game's last observation comes back, and the next step
    starts it anew whatever its action (reward 0, no mask until then); the games are the
    same as in SAME_STEP mode."""
    same = BatchedTresFuteEnv(2, "vraiment-tres-fute")
    nxt = BatchedTresFuteEnv(2, "vraiment-tres-fute", autoreset_mode="NextStep")
    assert nxt.metadata["autoreset_mode"] is gym.vector.AutoresetMode.NEXT_STEP
    assert same.metadata["autoreset_mode"] is gym.vector.AutoresetMode.SAME_STEP
    obs_s, _ = same.reset(seed=4)
    obs_n, _ = nxt.reset(seed=4)
    ends = 0
    for _ in range(200):
        actions = same.action_masks().argmax(axis=1)
        obs_s, rewards_s, term_s, _t, info_s = same.step(actions)
        obs_n, rewards_n, term_n, _t, info_n = nxt.step(actions)
        assert np.array_equal(rewards_s, rewards_n) and np.array_equal(term_s, term_n)
        assert "final_obs" not in info_n
        for i in np.flatnonzero(term_n):
            ends += 1
            assert np.array_equal(obs_n[i], info_s["final_obs"][i]) and not info_n["action_mask"][i].any()
        if term_n.any():
            junk = np.where(term_n, 10_000, nxt.action_masks().argmax(axis=1))  # ignored for the ended games
            obs_n, rewards_n, term_n, _t, _info = nxt.step(junk)
            assert not term_n[term_s].any() and not rewards_n[term_s].any()
            assert np.array_equal(obs_n[term_s], obs_s[term_s])  # the same new games
            break
    assert ends >= 1
    with pytest.raises(ValueError, match="autoreset_mode"):
        BatchedTresFuteEnv(2, autoreset_mode="disabled")


@pytest.mark.parametrize("vector", [gym.vector.SyncVectorEnv, gym.vector.AsyncVectorEnv])
def test_gymnasium_vector_envs_of_the_single_env_give_the_masks(vector) -> None:
    envs = vector([lambda: gym.make("tresfute/TresFute-v0") for _ in range(2)])
    try:
        _obs, info = envs.reset(seed=0)
        masks = np.stack(envs.call("action_masks"))
        assert masks.shape == info["action_mask"].shape == (2, 144) and masks.dtype == bool
        assert np.array_equal(masks, info["action_mask"].astype(bool))
        for _ in range(60):
            # a game that ended takes any action at the next step (NEXT_STEP, Gymnasium's default)
            actions = np.array([m.argmax() for m in info["action_mask"]])
            _obs, _r, _term, _trunc, info = envs.step(actions)
            assert info["action_mask"].shape == (2, 144)
            assert not info.get("_illegal_action", np.zeros(2, dtype=bool)).any()
    finally:
        envs.close()


def test_the_batched_env_follows_gymnasiums_vector_conventions() -> None:
    """``metadata["render_fps"]`` (a video of its pictures) and each info key with its ``_`` mask
    (which games have it), as Gymnasium's own vector environments give them."""
    batch = BatchedTresFuteEnv(3, "tres-fute")
    assert batch.metadata["render_fps"] == TresFuteEnv.metadata["render_fps"] == 4
    _obs, info = batch.reset(seed=0)
    for _ in range(2):
        assert info["_action_mask"].dtype == bool and info["_action_mask"].tolist() == [True] * 3
        assert np.array_equal(info["action_mask"], batch.action_masks())
        _obs, _r, _term, _trunc, info = batch.step(batch.action_masks().argmax(axis=1))
    sync = gym.make_vec(GYM_IDS["tres-fute"], num_envs=3, vectorization_mode="sync")
    _obs, sync_info = sync.reset(seed=0)
    assert {k for k in sync_info if k.endswith("action_mask")} <= set(info)  # the keys Gymnasium's own give


@pytest.mark.parametrize(
    ("module", "blocked", "extra"),
    [
        ("tresfute.envs", "gymnasium", "envs"),
        ("tresfute.envs", "pettingzoo", "envs"),
        ("tresfute.envs", "PIL", "envs"),
        ("tresfute.envs.openspiel", "pyspiel", "openspiel"),
        ("tresfute.envs.sb3", "stable_baselines3", "rl"),
    ],
)
def test_importing_the_environments_without_their_extra_names_the_extra(module: str, blocked: str, extra: str) -> None:
    """As the command line does: an ImportError that says what to install, not a bare
    ModuleNotFoundError from inside."""
    # tresfute first (its registration looks Gymnasium up), then the package made unimportable
    code = f"import sys, tresfute; sys.modules[{blocked!r}] = None\n"
    code += f"try:\n    import {module}\nexcept ImportError as e:\n    print(e)"
    done = _python(code)
    assert f'pip install "tresfute[{extra}]"' in done.stdout and blocked in done.stdout, done.stdout


def test_the_environments_need_rich_only_for_the_ansi_render_and_say_so() -> None:
    """Rich (the tui extra) draws the ``ansi`` sheet: without it the environments still import and
    run, and asking for ``ansi`` names the extra at once."""
    code = (
        "import sys, tresfute; sys.modules['rich'] = None\n"
        "import gymnasium as gym, tresfute.envs\n"
        "env = gym.make('tresfute/TresFute-v0', render_mode='rgb_array'); env.reset(seed=0); env.render()\n"
        "for make in (lambda: gym.make('tresfute/TresFute-v0', render_mode='ansi'),\n"
        "             lambda: tresfute.envs.raw_env(render_mode='ansi')):\n"
        "    try:\n        make()\n    except ImportError as e:\n        print(e)"
    )
    done = _python(code)
    assert done.stdout.count('the tui extra): pip install "tresfute[tui]"') == 2, done.stdout


def test_the_ansi_render_draws_without_the_terminal_game() -> None:
    """The sheet's text drawing lies below both the environments and the terminal game
    (``tresfute.sheet_text``): the ``ansi`` render neither needs nor imports ``tresfute.tui``."""
    code = (
        "import sys, tresfute; sys.modules['tresfute.tui'] = None\n"
        "import gymnasium as gym, tresfute.envs\n"
        "env = gym.make('tresfute/TresFute-v0', render_mode='ansi'); env.reset(seed=0)\n"
        "print(env.render())\n"
        "aec = tresfute.envs.raw_env(render_mode='ansi'); aec.reset(seed=0); print(aec.render())\n"
        "print(sorted(name for name in sys.modules if name.startswith('tresfute.tui')))"
    )
    done = _python(code)
    assert done.stdout.count("Total") == 2, done.stdout  # both sheets drawn, in French
    assert done.stdout.rstrip().endswith("['tresfute.tui']"), done.stdout  # only the blocked entry


def test_the_human_render_without_pygame_names_the_video_extra() -> None:
    code = (
        "import sys, tresfute; sys.modules['pygame'] = None\n"
        "import gymnasium as gym\n"
        "try:\n    gym.make('tresfute/TresFute-v0', render_mode='human')\nexcept ImportError as e:\n    print(e)"
    )
    done = _python(code)
    assert '(the video extra): pip install "tresfute[video]"' in done.stdout, done.stdout

"""Chance made explicit: the engine lists a roll's outcomes with their probabilities, an
agent applies the one it chooses; the OpenSpiel game built on it passes OpenSpiel's checks."""

from __future__ import annotations

import math
import os
import random
from collections import Counter

import numpy as np
import pytest

from tresfute import records
from tresfute.envs.bounds import best_sheet, bounds, foxes, track_extreme
from tresfute.envs.observation import encode
from tresfute.rules import CHANCE, Game, IllegalMoveError, Move, MoveKind, Phase
from tresfute.rules.game import get_spec
from tresfute.rules.kinds import Grid
from tresfute.rules.sheet import score_sheet


def at_chance(game: Game, rng: random.Random, phase: Phase | None = None) -> Game:
    """Plays random decisions and rolls until chance acts (in ``phase`` if given)."""
    while True:
        if game.to_move == CHANCE and (phase is None or game.phase is phase):
            return game
        if game.to_move == CHANCE:
            game.play(rng.choice(game.chance_outcomes())[0])
        else:
            game.play(rng.choice(game.legal_moves()))


@pytest.mark.parametrize("game_id", ["tres-fute", "vraiment-tres-fute"])
def test_a_roll_lists_every_face_of_each_die_by_colour_with_its_probability(game_id: str) -> None:
    game = Game(game_id, players=2, dice="external")
    assert game.to_move == CHANCE and game.legal_moves() == []
    outcomes = game.chance_outcomes()
    assert len(outcomes) == 6**6 == len({m for m, _p in outcomes})  # ordered by colour: no two alike
    assert all(p == 1 / 6**6 for _m, p in outcomes) and math.isclose(math.fsum(p for _m, p in outcomes), 1.0)
    first = outcomes[0][0]
    assert first.kind is MoveKind.DICE and [d for d, _v in first.dice] == list(game.dice)
    move, _p = outcomes[12345]
    game.play(move)  # the agent's chosen outcome
    assert game.values == [v for _d, v in move.dice] and game.to_move == 0 and game.chance_outcomes() == []


def test_a_roll_of_fewer_dice_has_fewer_outcomes_each_of_them_playable() -> None:
    rng = random.Random(4)
    game = at_chance(Game("tres-fute", players=2, dice="external"), rng)
    while len(game.dice_to_roll()) == 6:
        game.play(rng.choice(game.chance_outcomes())[0])
        game = at_chance(game, rng)
    k = len(game.dice_to_roll())
    outcomes = game.chance_outcomes()
    assert len(outcomes) == 6**k and all(p == 6.0**-k for _m, p in outcomes)
    for move, _p in outcomes:
        copy = game.copy()
        copy.play(move)
        assert all(copy.values[copy.dice.index(d)] == v for d, v in move.dice)


def test_the_solo_roll_names_the_platter_when_dice_tie_at_its_boundary() -> None:
    game = at_chance(Game("tres-fute", players=1, dice="external"), random.Random(1), Phase.SOLO_ROLL)
    outcomes = game.chance_outcomes()
    assert math.isclose(math.fsum(p for _m, p in outcomes), 1.0)
    by_roll: dict[tuple, list[tuple[Move, float]]] = {}
    for move, p in outcomes:
        by_roll.setdefault(move.dice, []).append((move, p))
    assert len(by_roll) == 6**6
    # w1 y1 b2 g2 o2 p6: w and y go to the platter, and one of the three dice showing 2
    tie = by_roll[(("w", 1), ("y", 1), ("b", 2), ("g", 2), ("o", 2), ("p", 6))]
    assert sorted(m.platter for m, _p in tie) == [("w", "y", "b"), ("w", "y", "g"), ("w", "y", "o")]
    assert all(math.isclose(p, 1 / 6**6 / 3) for _m, p in tie)
    alone = by_roll[(("w", 1), ("y", 2), ("b", 3), ("g", 4), ("o", 5), ("p", 6))]
    assert [(m.platter, p) for m, p in alone] == [(None, 1 / 6**6)]
    for move, _p in tie + alone:
        game.copy().play(move)  # each is legal


def test_no_outcomes_when_chance_does_not_act_and_a_wrong_roll_changes_nothing() -> None:
    seeded = Game("tres-fute", players=2, seed=1)
    assert seeded.to_move != CHANCE and seeded.chance_outcomes() == []
    game = Game("tres-fute", players=2, dice="external")
    with pytest.raises(IllegalMoveError):
        game.play(Move(MoveKind.DICE, dice=(("w", 1),)))
    assert game.to_move == CHANCE and len(game.chance_outcomes()) == 6**6
    # a seeded game's copy with dice from outside waits for chance at its next roll
    copy = at_chance(seeded.copy(dice="external"), random.Random(2))
    assert copy.chance_outcomes()


try:
    import pyspiel
except ImportError:
    if os.environ.get("TRESFUTE_OPENSPIEL_TESTS") == "required":
        raise
    pyspiel = None

needs_openspiel = pytest.mark.skipif(
    pyspiel is None, reason="open-spiel is not installed (pip install -e '.[openspiel]')"
)


@needs_openspiel
@pytest.mark.parametrize(("spec", "sims"), [("game=tres-fute,players=1", 5), ("game=vraiment-tres-fute,players=3", 2)])
def test_openspiel_random_simulation_checks_pass(spec: str, sims: int) -> None:
    import tresfute.envs.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game(f"python_tresfute({spec})")
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


@needs_openspiel
def test_openspiel_states_roll_die_by_die_observe_as_the_environments_and_record_the_game() -> None:
    import tresfute.envs.openspiel  # noqa: F401

    game = pyspiel.load_game("python_tresfute(game=tres-fute,players=1)")
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    rng = np.random.default_rng(0)
    kinds = Counter()
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes(), strict=True)
                assert math.isclose(math.fsum(probabilities), 1.0)
                kinds["face" if actions == tuple(range(6)) else "platter"] += 1
                state.apply_action(int(rng.choice(actions, p=probabilities)))
                continue
            player = state.current_player()
            mask = np.asarray(state.legal_actions_mask(player), dtype=bool)
            assert mask.sum() == len(state.legal_actions()) > 0
            assert np.array_equal(
                np.asarray(state.observation_tensor(player), dtype=np.float32), encode(state.game, player)
            )
            state.apply_action(int(rng.choice(np.flatnonzero(mask))))
        assert len(state.history()) <= game.max_game_length()
        replayed = records.replay(records.loads(records.dumps(records.record_of(state.game))))
        assert [float(s.total) for s in replayed.scores()] == state.returns()
    assert kinds["face"] > 0 and kinds["platter"] > 0  # ties at the solo platter's boundary happen


@needs_openspiel
def test_openspiels_mcts_bot_plays_a_game() -> None:
    from open_spiel.python.algorithms import mcts

    import tresfute.envs.openspiel  # noqa: F401

    game = pyspiel.load_game("python_tresfute(game=tres-fute,players=1)")
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=3, evaluator=evaluator, random_state=np.random.RandomState(1))
    state, rng = game.new_initial_state(), np.random.RandomState(2)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
    assert decisions > 10 and state.returns()[0] == state.game.score(0).total


@pytest.mark.parametrize("game_id", ["tres-fute", "vraiment-tres-fute"])
def test_the_best_sheet_scores_the_declared_bound_and_no_game_or_track_filling_goes_beyond(game_id: str) -> None:
    """The utilities OpenSpiel is told come from the sheet: the engine scores the best sheet
    exactly the bound; the grids' points grow with their marks (so a full grid is their best);
    no random filling of a track beats its best or falls below its worst; random games end
    between the two bounds."""
    spec = get_spec(game_id)
    limits = bounds(spec, 2)
    sheet = best_sheet(spec)
    assert score_sheet(sheet).total == limits.max_utility < 1_000 and len(sheet.foxes) == foxes(spec) >= 5
    rng = random.Random(0)
    for letter, area in spec.areas.items():
        if isinstance(area, Grid):
            assert all(line.points >= 0 for line in area.lines) and area.score(area.new_state()) == 0
            assert all(list(g.points) == sorted(g.points) for g in area.count_scores)
            continue
        best, worst = area.score(sheet.areas[letter]), area.score(track_extreme(spec, letter, area, best=False))
        for _ in range(3000):
            state: list[int] = []
            values = list(range(2, 13)) if letter == spec.sum_area else list(range(1, 7))
            for _box in range(rng.randrange(len(area.boxes) + 1)):
                allowed = [v for v in values if area.accepts(state, v, from_bonus=True)]
                if not allowed:
                    break
                area.enter(state, rng.choice(allowed))
            assert worst <= area.score(state) <= best
    for seed in range(40):
        game = Game(game_id, players=1 + seed % 4, seed=seed)
        while not game.is_over:
            game.play(rng.choice(game.legal_moves()))
        assert all(limits.min_utility <= s.total <= limits.max_utility for s in game.scores())


# The moves that make a game longer: a lost roll keeps the dice in hand (more rolled), rerolls and
# reprises roll again, +1s and sweeps add entries.
LONG = (MoveKind.REROLL, MoveKind.REPRISE, MoveKind.ROLL, MoveKind.EXTRA, MoveKind.SWEEP, MoveKind.BONUS)


@needs_openspiel
@pytest.mark.parametrize("game_id", ["tres-fute", "vraiment-tres-fute"])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_openspiel_games_played_long_stay_within_the_declared_bounds(game_id: str, players: int) -> None:
    """The declared bounds are derived, not guessed (envs/bounds.py): games played to be long
    (lost rolls, rerolls, reprises, +1s taken whenever offered) and random ones never exceed the
    length, and their returns are within the utilities."""
    import tresfute.envs.openspiel  # noqa: F401

    game = pyspiel.load_game(f"python_tresfute(game={game_id},players={players})")
    limits = bounds(get_spec(game_id), players)
    assert (game.max_game_length(), game.max_utility(), game.min_utility()) == (
        limits.max_game_length,
        limits.max_utility,
        limits.min_utility,
    )
    rng = random.Random(players)
    for long in (True, False):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probabilities)[0])
                continue
            legal = state.legal_actions()
            moves = {a: state.actions.action_to_move(a) for a in legal}
            lengthen = [a for a in legal if moves[a].kind in LONG or (moves[a].kind is MoveKind.PASS and long)]
            state.apply_action(rng.choice(lengthen if long and lengthen else legal))
        assert len(state.history()) <= game.max_game_length()
        assert all(game.min_utility() <= r <= game.max_utility() for r in state.returns())

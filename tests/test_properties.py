"""Random legal play, checked by hypothesis: it ends, never raises, keeps every invariant,
and its final score equals a recount from the final sheets. Same seed, same game."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tresfute.rules import SPECS, Game, IllegalMoveError, Move, MoveKind, MoveSyntaxError, Sheet, Where, parse_move
from tresfute.rules.kinds import Grid, Order, Track

from helpers import play_randomly

GAMES = sorted(SPECS)
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_invariants(game: Game) -> None:
    spec = game.spec
    for sheet in game.sheets:
        for a, area in spec.areas.items():
            state = sheet.areas[a]
            if isinstance(area, Grid):
                assert all(0 <= level <= area.marks for level in state), "no box filled twice"
            else:
                assert isinstance(area, Track)
                assert len(state) <= len(area.boxes), "tracks within bounds"
                if area.order is Order.INCREASING_RESET_AFTER_6:
                    assert all(b > a or a == 6 for a, b in itertools.pairwise(state))
                if area.order is Order.NON_INCREASING:
                    assert all(b <= a for a, b in itertools.pairwise(state))
        for track in spec.actions:
            assert 0 <= sheet.used[track.action] <= sheet.earned[track.action] <= track.circles
        assert len(sheet.foxes) == len(set(sheet.foxes)), "each fox once"
    # six dice, each in one place; those on the die fields are the field's, each once
    assert len(game.where) == 6 and all(isinstance(w, Where) for w in game.where)
    assert len(game.field) == len(set(game.field)) <= 3
    assert sorted(game.field) == [i for i, w in enumerate(game.where) if w is Where.FIELD]


def recount(game: Game, player: int) -> int:
    """Score the final marks again, from scratch, by the printed rules."""
    sheet = game.sheets[player]
    rebuilt = Sheet.from_marks(game.spec, {a: list(s) for a, s in sheet.areas.items()})
    assert sorted(rebuilt.foxes) == sorted(sheet.foxes), "each fox once, from the marks"
    assert rebuilt.earned == sheet.earned, "each action bonus circled once (round gifts included)"
    return rebuilt.score().total


@pytest.mark.parametrize("game_id", GAMES)
@SETTINGS
@given(players=st.integers(1, 4), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_random_play_ends_keeps_invariants_and_recounts(game_id: str, players: int, seed: int, choices: int) -> None:
    game = Game(game_id, players=players, seed=seed)
    rng = random.Random(choices)
    steps = 0
    while not game.is_over:
        movers = game.players_to_move
        player = rng.choice(movers)
        moves = game.legal_moves(player)
        assert moves, "whoever must decide has a legal move"
        assert len(set(moves)) == len(moves)
        for move in moves:
            assert parse_move(str(move)) == move, "the notation round-trips"
        game.play(rng.choice(moves), player)
        check_invariants(game)
        steps += 1
        assert steps < 2000
    for p in range(players):
        assert game.score(p).total == recount(game, p)
    assert game.winners()


@pytest.mark.parametrize("game_id", GAMES)
@SETTINGS
@given(seed=st.integers(0, 2**32), players=st.integers(1, 4))
def test_same_seed_same_game(game_id: str, seed: int, players: int) -> None:
    def run() -> tuple[list[str], list[int]]:
        game = Game(game_id, players=players, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.play(rng.choice(game.legal_moves()))
        return [str(h.move) for h in game.history], [s.total for s in game.scores()]

    assert run() == run()


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_positions_with_the_same_key_play_alike(game_id: str, seed: int, players: int) -> None:
    """``Game.key`` holds everything the rules read: a copy has its game's key, a move changes
    it, and two positions with the same key have the same legal moves for every player and stay
    alike through the same moves. Left out, a player's sheet is all that differs."""
    rng = random.Random(seed)
    game = Game(game_id, players=players, seed=seed)
    twin = game.copy()  # its dice to come too
    while not game.is_over:
        assert game.key() == twin.key()
        for p in range(players):
            assert game.legal_moves(p) == twin.legal_moves(p)
        before = game.key()
        mover = game.to_move
        move = rng.choice(game.legal_moves(mover))
        game.play(move, mover)
        twin.play(move, mover)
        assert game.key() != before
    other = game.copy()
    other.set_sheet(0, Sheet(game.spec))
    assert other.key() != game.key()
    assert other.key(leaving_out=0) == game.key(leaving_out=0)


def mutations(move: Move, dice: tuple[str, ...]) -> list[Move]:
    """Moves near a legal one: another die, cell, area or value."""
    out = []
    for d in dice:
        out.append(move._replace(die=d))
    for r in range(1, 6):
        for c in range(1, 7):
            out.append(move._replace(cell=(r, c)))
    for a in "sybgopk":
        out.append(move._replace(area=a))
    for v in (0, 1, 4, 6, 7, 13):
        out.append(move._replace(value=v))
    out += [
        Move(MoveKind.REROLL),
        Move(MoveKind.PASS),
        Move(MoveKind.DONE),
        Move(MoveKind.ROLL),
        Move(MoveKind.REPRISE, die="w"),
    ]
    return out


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(1, 4))
def test_illegal_moves_say_why_and_change_nothing(game_id: str, seed: int, players: int) -> None:
    game = Game(game_id, players=players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        player = game.to_move
        assert player is not None
        legal = game.legal_moves(player)
        if rng.random() < 0.3:
            before = json.dumps(game.view(), sort_keys=True)
            history = len(game.history)
            for bad in mutations(rng.choice(legal), game.dice):
                if bad in legal:
                    continue
                with pytest.raises(IllegalMoveError) as err:
                    game.play(bad, player)
                assert str(err.value), "the error says why"
            assert json.dumps(game.view(), sort_keys=True) == before
            assert len(game.history) == history
            assert game.legal_moves(player) == legal
        game.play(rng.choice(legal), player)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "x",
        "w",
        "w@r1c1",
        "y@r0c1",
        "y@rxc1",
        "!q",
        "!o=",
        "reprise",
        "reprise q",
        "dice",
        "dice y7",
        "dice y1 y2",
        "dice y1 platter=",
        "dice y1 platter=q",
        "~y>o",
        "+",
        "roll now",
        12,
    ],
)
def test_malformed_moves_are_rejected_with_a_reason(text: object) -> None:
    with pytest.raises(MoveSyntaxError) as err:
        parse_move(text)  # type: ignore[arg-type]
    assert str(err.value)


def test_dice_notation_is_canonical() -> None:
    move = parse_move("dice p3 w1 platter=pw")
    assert str(move) == "dice w1 p3 platter=wp"
    assert parse_move(str(move)) == move


def test_a_game_played_from_outside_dice_follows_the_same_rules() -> None:
    game = Game("tres-fute", players=2, dice="external")
    play_randomly(game, random.Random(7))
    assert game.is_over
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.play("pass")

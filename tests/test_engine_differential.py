"""The fast engine plays exactly the games the engine played before it was made fast.

``reference_engine.py`` is the engine as it was before the speed work (slow and plain). Seeded
random games of both games, 1 to 4 players, are played on both side by side: at every position
the players to move, each one's legal moves (as text, in order), the scores and the views must
be the same, and so must the position after each legal move (``Game.afterstates``, also as a
look-ahead makes it, without the history). Vraiment très futé is played under both readings of
the reprise with no die left to roll (its rules option ``reprise_with_no_die_left``).
"""

from __future__ import annotations

import random

import pytest

from tresfute.rules import SPECS, Game, IllegalMoveError, Move
from tresfute.rules.kinds import Grid, Track, TrackScoring

import reference_engine

GAMES = sorted(SPECS)
VTF = "vraiment-tres-fute"
STRICT = {"reprise_with_no_die_left": False}


def reference_score(game: reference_engine.Game, player: int) -> tuple[dict[str, int], int]:
    """The score counted from the marks by the printed rules, without the engine's scoring code."""
    sheet = game.sheets[player]
    areas = {}
    for a, area in game.spec.areas.items():
        state = sheet.areas[a]
        if isinstance(area, Grid):
            points = sum(line.points for line in area.lines if all(state[i] for i in line.cells))
            for group in area.count_scores:
                points += group.points[sum(1 for i in group.cells if state[i] >= area.marks)]
        else:
            assert isinstance(area, Track)
            if area.scoring is TrackScoring.SUM:
                points = sum(state)
            elif area.scoring is TrackScoring.LAST_FILLED:
                points = area.points[len(state)]
            else:
                points = sum(state[i] - state[i + 1] for i in range(0, len(state) - 1, 2))
        areas[a] = points
    # each fox is worth the lowest area, but nothing as soon as an area scores 0 (the rulebook's
    # « Attention », which wins over a negative green)
    each = 0 if 0 in areas.values() else min(areas.values())
    return areas, sum(areas.values()) + len(sheet.foxes) * each


def same_position(new: Game, old: reference_engine.Game, full: bool) -> None:
    """Who decides and their legal moves (the same moves, so the same text, in the same order);
    when ``full``, also the scores, counted independently, the history and the whole view."""
    assert new.players_to_move == old.players_to_move
    assert new.phase == old.phase
    for p in new.players_to_move:
        if p >= 0:
            assert new.legal_moves(p) == old.legal_moves(p)
    if full:
        for p in range(new.n_players):
            assert [str(m) for m in new.legal_moves(p)] == [str(m) for m in old.legal_moves(p)]
            score = new.score(p)
            assert (score.areas, score.total) == reference_score(old, p)
        assert [str(h.move) for h in new.history] == [str(h.move) for h in old.history]
        assert new.view() == old.view()


def play_both(game_id: str, players: int, seed: int, afterstates: bool, strict: bool = False) -> int:
    """One seeded random game on both engines; returns the positions compared. ``strict``:
    Vraiment très futé under the strict reading of the reprise (``reprise_with_no_die_left``
    false) on both."""
    new = Game(game_id, players=players, seed=seed, rules=STRICT if strict else None)
    old = reference_engine.Game(game_id, players=players, seed=seed, reprise_with_no_die_left=not strict)
    rng = random.Random(seed)
    positions = 0
    while True:
        same_position(new, old, full=afterstates or positions % 16 == 0 or new.is_over)
        positions += 1
        if new.is_over:
            return positions
        player = rng.choice(new.players_to_move)
        moves = new.legal_moves(player)
        if afterstates:
            after = new.afterstates(player)
            assert [m for m, _ in after] == moves
            for move, position in after:
                before = old.copy(dice="external")
                before.play(move, player)
                same_position(position, before, full=True)
            # a look-ahead's positions without the history: the same, with only what was played
            played = len(new.history)
            for (_, position), (_, lean) in zip(after, new.afterstates(player, history=False), strict=True):
                assert lean.view() == position.view() and lean.history == position.history[played:]
                assert [lean.legal_moves(p) for p in lean.players_to_move] == [
                    position.legal_moves(p) for p in position.players_to_move
                ]
        move = rng.choice(moves)
        new.play(move, player)
        old.play(move, player)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_seeded_random_games_match_the_reference_engine(game_id: str, players: int) -> None:
    games = {1: 300, 2: 40, 3: 20, 4: 15}[players]
    positions = sum(play_both(game_id, players, seed, afterstates=seed % 40 == 0) for seed in range(games))
    assert positions > games * 20


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_strict_reading_plays_as_the_reference_engine_reads_it(players: int) -> None:
    """« Ce n'est qu'une fois que le joueur actif a posé 3 dés sur sa feuille de jeu ou qu'il ne
    peut plus lancer de dés parce que tous les dés restants se trouvent sur le plateau d'argent
    que les autres joueurs commencent à jouer », read strictly: the same random games under
    ``reprise_with_no_die_left=false`` on both engines, the turn ending where the reference ends
    it (and somewhere where the default reading would have offered the reprise)."""
    games = {1: 150, 2: 20, 3: 10, 4: 8}[players]
    positions = sum(play_both(VTF, players, seed, afterstates=seed % 40 == 0, strict=True) for seed in range(games))
    assert positions > games * 20


def test_the_strict_reading_changes_random_games() -> None:
    """The option is read: on the same seeds the two readings part in some game (a reprise
    offered with every remaining die on the platter), else the test above would prove nothing."""

    def moves(strict: bool, seed: int) -> list[str]:
        game = Game(VTF, players=1, seed=seed, rules=STRICT if strict else None)
        rng = random.Random(seed)
        while not game.is_over:
            player = rng.choice(game.players_to_move)
            game.play(rng.choice(game.legal_moves(player)), player)
        return [str(h.move) for h in game.history]

    assert any(moves(True, seed) != moves(False, seed) for seed in range(20))


@pytest.mark.parametrize("game_id", GAMES)
def test_games_with_dice_from_outside_match_the_reference_engine(game_id: str) -> None:
    from helpers import roll_randomly

    for seed in range(8):
        players = 1 + seed % 4
        new = Game(game_id, players=players, dice="external")
        old = reference_engine.Game(game_id, players=players, dice="external")
        rng_new, rng_old, choices = random.Random(seed), random.Random(seed), random.Random(-seed)
        while not new.is_over:
            same_position(new, old, full=True)
            if new.to_move == -1:
                roll_randomly(new, rng_new)
                roll_randomly(old, rng_old)  # type: ignore[arg-type]
                continue
            player = choices.choice(new.players_to_move)
            move = choices.choice(new.legal_moves(player))
            new.play(move, player)
            old.play(move, player)
        same_position(new, old, full=True)


@pytest.mark.parametrize("game_id", GAMES)
def test_both_engines_refuse_the_same_moves(game_id: str) -> None:
    rng = random.Random(7)
    new = Game(game_id, players=2, seed=7)
    old = reference_engine.Game(game_id, players=2, seed=7)
    while not new.is_over:
        player = rng.choice(new.players_to_move)
        legal = new.legal_moves(player)
        assert [str(m) for m in legal] == [str(m) for m in old.legal_moves(player)]
        for text in ("pass", "done", "reroll", "roll", "y@r1c1", "w>o", "+g", "!o=4", "reprise g", "~b@r1c1"):
            reasons = []
            for engine in (new, old):
                try:
                    engine.play(text, player)
                    reasons.append("legal")
                    break
                except (IllegalMoveError, reference_engine.IllegalMoveError, ValueError) as error:
                    reasons.append(str(error))
            if reasons[0] == "legal":
                old.play(text, player)
                break
            assert reasons[1] != "legal", f"{text} refused by the new engine only: {reasons[0]}"
        else:
            move: Move = rng.choice(legal)
            new.play(move, player)
            old.play(move, player)
    assert [str(h.move) for h in new.history] == [str(h.move) for h in old.history]


def test_the_example_record_replays_move_for_move_as_before() -> None:
    from pathlib import Path

    from tresfute import records

    record = records.loads((Path(__file__).parent.parent / "examples" / "solo-game.json").read_text())
    new = records.replay(record)  # checks the stated result too
    old = reference_engine.Game(record.game, players=len(record.players), seed=record.seed, dice=record.dice)
    for entry in record.moves:
        player, text = records.split_entry(entry)
        old.play(text, player)
    same_position(new, old, full=True)
    assert new.is_over and [str(h.move) for h in new.history] == [str(h.move) for h in old.history]


@pytest.mark.parametrize("game_id", GAMES)
def test_copies_share_no_change_played_in_either(game_id: str) -> None:
    """A copy of a game, or a look-ahead's position, shares the sheets' marks, counts and foxes
    and the game's lists (dice, stages, bonuses waiting) with the game until one of them writes
    one: playing on in a copy changes nothing in the game or its other copies, and the game
    moving on changes no copy."""
    from helpers import play_randomly

    def seen_of(game: Game) -> tuple[object, ...]:
        lost = [(p, str(item.bonus), item.source) for p, item in game.lost_bonuses]
        return game.view(), [str(stage) for stage in game.stage], lost

    rng = random.Random(11)
    for players in (1, 3):
        game = Game(game_id, players=players, seed=players)
        while not game.is_over:
            checked = len(game.history) % 7 == 0
            seen, kept = seen_of(game), game.copy()
            if checked:
                play_randomly(game.copy(), rng)
                afters = game.afterstates(history=False)
                views = [seen_of(after) for _, after in afters]
                for _, after in afters[::2]:
                    play_randomly(after, rng)
                assert [seen_of(after) for _, after in afters[1::2]] == views[1::2]
                assert seen_of(game) == seen
            player = rng.choice(game.players_to_move)
            game.play(rng.choice(game.legal_moves(player)), player)
            assert seen_of(kept) == seen, "a copy left alone stays as it was"

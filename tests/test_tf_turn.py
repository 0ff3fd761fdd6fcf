"""Très futé: the turn, as the rulebook and turn.md describe it, played through the API."""

from __future__ import annotations

import random

import pytest

from tresfute.rules import CHANCE, Game, IllegalMoveError, Phase, Where
from tresfute.rules.kinds import ActionKind

from helpers import legal, new_game, play_randomly, position


def where(game: Game) -> dict[str, str]:
    return {d: str(game.where[i]) for i, d in enumerate(game.dice)}


# --- the active player ----------------------------------------------------------------


def test_white_is_a_colour_joker_and_goes_with_blue() -> None:
    """The white die can be used as yellow, green, orange or purple, or with blue."""
    game = new_game()
    game.play("dice w3 y1 b4 g1 o1 p1")
    white = {m for m in legal(game) if m.startswith("w")}
    assert white == {"w>y@r1c1", "w>y@r4c2", "w>b@r2c3", "w>g", "w>o", "w>p"}


def test_blue_entry_is_the_sum_whichever_die_is_taken_and_wherever_the_other_is() -> None:
    """Blue: always blue + white, even with white on the platter; two blue entries in a turn."""
    game = new_game()
    game.play("dice w2 y1 b5 g1 o1 p3")
    game.play("w>b@r2c3")  # white 2 + blue 5 = 7; the 1s go to the platter
    assert game.sheets[0].areas["b"][game.spec.areas["b"].cell_index[(2, 3)]] == 1  # type: ignore[union-attr]
    game.play("dice b6 p3")  # blue rolled again: white still shows 2 on its die field
    assert game.where[game.dice.index("w")] is Where.FIELD
    assert "b@r2c4" in legal(game)  # 6 + 2 = 8
    game.play("b@r2c4")
    marked = [c for c, lv in zip(game.spec.areas["b"].cells, game.sheets[0].areas["b"], strict=True) if lv]  # type: ignore[union-attr]
    assert [(c.row, c.col) for c in marked] == [(2, 3), (2, 4)]


def test_dice_strictly_lower_than_the_pick_go_to_the_platter() -> None:
    """After a pick, every die of the roll showing a lower value (not equal) goes to the platter."""
    game = new_game()
    game.play("dice w3 y5 b1 g2 o3 p4")
    game.play("o")
    assert where(game) == {"w": "hand", "y": "hand", "b": "platter", "g": "platter", "o": "field", "p": "hand"}
    assert game.dice_to_roll() == ["w", "y", "p"]


def test_fewer_than_three_rolls_when_no_die_is_left() -> None:
    """Picking the highest die sends all others to the platter: the active turn ends early."""
    game = new_game()
    game.play("dice w1 y2 b1 g2 o6 p1")
    game.play("o")
    assert [h.move.kind for h in game.history].count("dice") == 1
    assert game.round == 1 and game.solo_passive  # the solo game's passive turn comes next
    assert game.to_move == CHANCE and game.dice_to_roll() == list(game.dice)


def _third_roll_with_only_green(game: Game) -> Game:
    position(game, g=[0, 0, 0, 0])  # the next green box needs a 5
    game.play("dice w1 y4 b6 g2 o6 p3")
    game.play("w>o")  # nothing is lower than 1
    game.play("dice y1 b1 g6 o1 p6")
    game.play("p")  # the 1s go to the platter; green 6 stays
    assert game.dice_to_roll() == ["g"]
    return game


def test_a_roll_that_cannot_be_used_is_lost_and_counts() -> None:
    """If no die of the roll can be entered, the roll is lost: no die field, no die moves."""
    game = _third_roll_with_only_green(new_game())
    game.play("dice g2")
    with pytest.raises(IllegalMoveError, match="green box 5 needs at least 5"):
        game.play("g")
    assert legal(game) == {"pass", "reroll"}  # a reroll is still possible
    game.play("pass")
    first_turn = [h.move for h in game.history if (h.round, h.turn) == (1, 0)]
    assert [m.kind for m in first_turn].count("dice") == 3
    assert [m.kind for m in first_turn].count("pick") == 2
    assert game.solo_passive  # the active turn is over: three rolls made


def test_a_usable_roll_cannot_be_passed() -> None:
    """The active player must pick a die when one can be entered."""
    game = new_game()
    game.play("dice w1 y1 b1 g1 o1 p1")
    with pytest.raises(IllegalMoveError):
        game.play("pass")


def test_unusable_roll_without_reroll_is_lost_by_itself() -> None:
    """With nothing to decide, the engine plays the lost roll and records it as forced."""
    game = _third_roll_with_only_green(new_game())
    sheet = game.sheets[0].copy()
    sheet.used[ActionKind.REROLL] = sheet.earned[ActionKind.REROLL]
    game.set_sheet(0, sheet)
    game.play("dice g2")
    lost = next(h for h in reversed(game.history) if str(h.move) == "pass")
    assert lost.forced and lost.round == 1
    assert game.solo_passive


def test_reroll_rerolls_all_the_dice_just_rolled_several_times() -> None:
    """Reroll: active player only, every die just rolled (never platter or die-field dice)."""
    game = position(new_game(), earned={ActionKind.REROLL: 2})
    game.play("dice w3 y5 b1 g2 o3 p4")
    game.play("o")
    game.play("dice w6 y6 p6")
    game.play("reroll")
    assert game.dice_to_roll() == ["w", "y", "p"]
    with pytest.raises(IllegalMoveError, match="dice to roll are w y p"):
        game.play("dice w1 y1 b1 p1")
    game.play("dice w2 y2 p2")
    game.play("reroll")
    game.play("dice w1 y1 p1")
    assert game.sheets[0].available(ActionKind.REROLL) == 0
    assert "reroll" not in legal(game)
    assert game.rolls == 2  # rerolls do not count as rolls


def test_extra_die_only_at_the_end_of_the_turn_any_die_each_once() -> None:
    """+1: after the active part; any of the six dice (platter, own field too); each once."""
    game = position(new_game(), earned={ActionKind.PLUS_ONE: 3})
    game.play("dice w3 y5 b1 g2 o3 p4")
    with pytest.raises(IllegalMoveError, match="not possible now"):
        game.play("+g")
    game.play("p")  # 4: w3, o3, b1, g2 go to the platter
    game.play("dice y6")
    game.play("y@r1c2")  # the last die: the active part is over
    assert game.phase is Phase.ACTIVE_EXTRA
    extras = legal(game)
    # platter dice, the die-field dice (yellow 6, purple 4) too: purple 4 cannot follow 4
    assert {"+g", "+b@r1c4", "+w>o", "+y@r4c4", "+o", "done"} <= extras
    assert "+p" not in extras
    game.play("+w>o")
    with pytest.raises(IllegalMoveError, match="white die was already taken with \\+1"):
        game.play("+w>g")
    with pytest.raises(IllegalMoveError, match="blue r1c3 shows 3, not 4"):
        game.play("+b@r1c3")  # blue 1 + white 3 = 4
    game.play("+b@r1c4")
    assert game.sheets[0].used[ActionKind.PLUS_ONE] == 2


def test_final_extra_die_phase_after_the_last_turn() -> None:
    """After the last turn every player may still use +1 actions; then the game is scored."""
    rng = random.Random(3)
    game = new_game()
    play_randomly(game, rng, until=lambda g: g.round == 6 and g.solo_passive)
    sheet = game.sheets[0].copy()
    sheet.earned[ActionKind.PLUS_ONE] = sheet.used[ActionKind.PLUS_ONE] + 2
    game.set_sheet(0, sheet)
    game.play("dice w6 y1 b5 g2 o4 p3 ")
    while game.stage[0] == "pick":
        game.play(rng.choice(game.legal_moves()))
    assert not game.is_over
    assert any(m.kind == "extra" for m in game.legal_moves())
    game.play("done")
    assert game.is_over


# --- passive players ----------------------------------------------------------------


def _two_player_after_active_turn() -> Game:
    game = new_game(players=2)
    game.play("dice w3 y5 b1 g2 o3 p4")
    game.play("p")  # purple 4: white 3, orange 3, blue 1, green 2 go to the platter
    game.play("dice y6")
    game.play("y@r1c2")
    return game


def test_passive_player_picks_from_the_platter() -> None:
    """Passive players choose a die from the platter; dice stay there for the others."""
    game = _two_player_after_active_turn()
    assert game.players_to_move == (1,)
    picks = {m for m in legal(game, 1) if not m.startswith(("+", "d"))}
    assert picks == {"w>y@r1c1", "w>y@r4c2", "w>b@r1c4", "w>g", "w>o", "w>p", "b@r1c4", "g", "o"}
    with pytest.raises(IllegalMoveError, match="it is not player 1's decision"):
        game.play("g", player=0)
    with pytest.raises(IllegalMoveError, match="reroll"):
        game.play("reroll", player=1)


def test_several_passive_players_take_the_same_die() -> None:
    """With three players, both passive players may use the same platter die."""
    game = new_game(players=3)
    game.play("dice w3 y5 b1 g2 o3 p4")
    game.play("p")
    game.play("dice y6")
    game.play("y@r1c2")
    assert set(game.players_to_move) == {1, 2}
    game.play("o", player=2)  # passive players decide in any order
    assert game.where[game.dice.index("o")] is Where.PLATTER  # the die stays for the others
    game.play("o", player=1)
    assert game.sheets[1].areas["o"] == [3] and game.sheets[2].areas["o"] == [3]


def test_active_players_dice_only_when_no_platter_die_can_be_used() -> None:
    """« Si un joueur passif n'a pas la possibilité d'utiliser un dé du plateau d'argent, il peut
    utiliser un dé des cases « dé » du joueur actif. Il n'est cependant pas possible de renoncer
    volontairement à un dé se trouvant sur le plateau d'argent [...] »: may, so passing is legal
    too; and a usable platter die may not be refused."""
    game = new_game(players=2)
    game.play("dice w1 y6 b1 g1 o1 p6")
    game.play("y@r1c2")  # all the 1s go to the platter... and purple 6 stays
    game.play("dice p6")
    game.play("p")
    # the passive player can use no platter die: orange, yellow and blue full, green needs 6
    position(
        game,
        1,
        y=[f"r{r}c{c}" for r in range(1, 5) for c in range(1, 5) if r + c != 5],
        b=["r1c2", "r1c3", "r1c4", "r2c1", "r2c2", "r2c3", "r2c4", "r3c1", "r3c2", "r3c3", "r3c4"],
        g=[0] * 10,
        o=[1] * 11,
        p=[1, 2, 3, 4, 5, 6, 1, 2, 3, 4],
    )
    assert legal(game, 1) == {"p", "pass"}  # from the die fields (purple 6 after a 4), or nothing
    passing = game.copy()
    passing.play("pass", player=1)
    assert passing.sheets[1].areas["p"] == game.sheets[1].areas["p"]
    game.play("p", player=1)
    assert game.sheets[1].areas["p"][-1] == 6
    game2 = new_game(players=2)
    game2.play("dice w1 y6 b1 g1 o1 p6")
    game2.play("y@r1c2")
    game2.play("dice p6")
    game2.play("p")
    assert "p" not in legal(game2, 1) and "pass" not in legal(game2, 1)  # a platter die must be used
    with pytest.raises(IllegalMoveError, match="a platter die can be used"):
        game2.play("p", player=1)


# --- rounds --------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "rounds"), [(1, 6), (2, 6), (3, 5), (4, 4)])
def test_rounds_by_number_of_players(players: int, rounds: int) -> None:
    """6 rounds with 1 or 2 players, 5 with 3, 4 with 4; everyone is active once a round."""
    game = Game("tres-fute", players=players, seed=5)
    rng = random.Random(1)
    actives = {}
    while not game.is_over:
        actives[(game.round, game.turn)] = (game.active, game.solo_passive)
        game.play(rng.choice(game.legal_moves()))
    turns = sorted({(h.round, h.turn) for h in game.history})
    if players == 1:  # 6 active and 6 passive turns, alternating
        assert turns == [(r, t) for r in range(1, 7) for t in (0, 1)]
        assert [actives.get(t) for t in turns if t in actives] == [(0, t[1] == 1) for t in turns if t in actives]
    else:
        assert turns == [(r, p) for r in range(1, rounds + 1) for p in range(players)]
        assert all(actives[t] == (t[1], False) for t in turns if t in actives)


def test_round_gifts_reroll_plus_one_reroll() -> None:
    """Rounds 1 to 3 give a reroll, a +1, a reroll (moves here earn no other action)."""
    game = new_game()
    earned = []
    for active_roll, active_pick, passive_roll, passive_pick in [
        ("w1 y2 b1 g2 o6 p1", "o", "w6 y1 b5 g2 o4 p3", "g"),  # orange box 1, green box 1
        ("w1 y2 b1 g2 o1 p6", "p", "w6 y1 b5 g2 o4 p3", "y@r2c2"),  # purple box 1, a yellow 1
    ]:
        sheet = game.sheets[0]
        earned.append((sheet.earned[ActionKind.REROLL], sheet.earned[ActionKind.PLUS_ONE]))
        for move in (f"dice {active_roll}", active_pick, f"dice {passive_roll}", passive_pick):
            if game.phase in (Phase.ACTIVE_EXTRA, Phase.PASSIVE) and game.legal_moves()[-1].kind == "done":
                game.play("done")  # keep the +1 for later
            game.play(move)
        if game.phase is Phase.PASSIVE:
            game.play("done")
    sheet = game.sheets[0]
    earned.append((sheet.earned[ActionKind.REROLL], sheet.earned[ActionKind.PLUS_ONE]))
    assert game.round == 3
    assert earned == [(1, 0), (1, 1), (2, 1)]


def test_round_four_gives_a_black_x_or_a_black_6_for_everyone() -> None:
    """Round 4: each player chooses a black X (yellow, blue, next green) or a 6 (orange, purple)."""
    rng = random.Random(4)
    game = Game("tres-fute", players=2, seed=8)
    while game.round < 4:
        game.play(rng.choice(game.legal_moves()))
    assert set(game.players_to_move) == {0, 1}
    for p in (0, 1):
        kinds = {m[:2] for m in legal(game, p)}
        assert kinds <= {"!y", "!b", "!g", "!o", "!p"}
        assert {m for m in legal(game, p) if m[:2] in ("!o", "!p")} <= {"!o=6", "!p=6"}
    game.play("!o=6", player=1)
    assert game.sheets[1].areas["o"][-1] in (6, 12, 18)
    assert game.players_to_move == (0,)


# --- the solo game -------------------------------------------------------------------


def test_solo_passive_turn_puts_the_three_lowest_dice_on_the_platter() -> None:
    """Solo: roll all six; the three lowest go to the platter; the player picks one of them."""
    game = new_game()
    game.play("dice w1 y2 b1 g2 o6 p1")
    game.play("o")
    game.play("dice w6 y1 b5 g2 o4 p3")
    assert {d for d, w in where(game).items() if w == "platter"} == {"y", "g", "p"}
    assert legal(game) >= {"g", "p", "y@r2c2"}
    assert not any(m.startswith(("w", "b", "o")) for m in legal(game))


def test_solo_tie_at_the_boundary_is_given_or_drawn_at_random() -> None:
    """Ties are broken by the die closest to the platter: named from outside, random if seeded."""
    game = new_game()
    game.play("dice w1 y2 b1 g2 o6 p1")
    game.play("o")
    with pytest.raises(IllegalMoveError, match="say which three"):
        game.play("dice w3 y1 b3 g2 o3 p6")
    with pytest.raises(IllegalMoveError, match="three lowest"):
        game.play("dice w3 y1 b3 g2 o3 p6 platter=ywp")
    game.play("dice w3 y1 b3 g2 o3 p6 platter=ygo")
    assert {d for d, w in where(game).items() if w == "platter"} == {"y", "g", "o"}
    chosen = set()
    for seed in range(40):
        seeded = Game("tres-fute", players=1, seed=seed)
        rng = random.Random(seed)
        while not seeded.solo_passive:
            seeded.play(rng.choice(seeded.legal_moves()))
        platter = [i for i in range(6) if seeded.where[i] is Where.PLATTER]
        others = [i for i in range(6) if i not in platter]
        assert len(platter) == 3
        assert max(seeded.values[i] for i in platter) <= min(seeded.values[i] for i in others)
        chosen.add(tuple(platter))
    assert len(chosen) > 5


def test_no_reroll_in_the_solo_passive_turn() -> None:
    """The passive player never rerolls, even with reroll actions left."""
    game = new_game()
    game.play("dice w1 y2 b1 g2 o6 p1")
    game.play("o")
    game.play("dice w6 y1 b5 g2 o4 p3")
    assert game.sheets[0].available(ActionKind.REROLL) == 1
    assert "reroll" not in legal(game)


def test_solo_passive_has_no_active_dice_to_fall_back_on() -> None:
    """In the solo passive turn nobody holds die fields: with no usable platter die, pass."""
    game = new_game()
    game.play("dice w1 y2 b1 g2 o6 p1")
    game.play("o")
    position(game, g=[0] * 10)  # green needs a 6
    sheet = game.sheets[0].copy()
    sheet.areas["o"] = [1] * 11
    sheet.areas["p"] = [1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5]
    sheet.areas["y"] = [1] * 12
    sheet.areas["b"] = [1] * 11
    game.set_sheet(0, sheet)
    before = len(game.history)
    game.play("dice w6 y1 b5 g2 o4 p3")  # platter: yellow 1, green 2, purple 3
    forced_pass = game.history[before + 1]
    assert str(forced_pass.move) == "pass" and forced_pass.forced

"""Seventeen rules, each stated by its rulebook sentence (``shared/rules/fr``, then ``turn.md``)
and played through the public API: ``Game``, its moves, its legal moves and its records."""

from __future__ import annotations

import random

import pytest

from tresfute import records
from tresfute.rules import CHANCE, Game, IllegalMoveError, Phase, Sheet, Where
from tresfute.rules.kinds import ActionKind

from helpers import TF, VTF, legal, new_game, play_randomly, position, roll_randomly


def vtf(players: int = 1, reprise_with_no_die_left: bool = True) -> Game:
    """A game of Vraiment très futé, under the default reading of the reprise with no die left to
    roll unless told otherwise (both readings: ``test_vtf_turn.py``)."""
    game = Game(VTF, players, dice="external", rules={"reprise_with_no_die_left": reprise_with_no_die_left})
    assert game.to_move == CHANCE
    return game


def where(game: Game, die: str) -> Where:
    return game.where[game.dice.index(die)]


def earned(game: Game, player: int = 0) -> dict[str, int]:
    return {str(k): v for k, v in game.sheets[player].earned.items()}


# --- Vraiment très futé --------------------------------------------------------------


def pass_everything(game: Game) -> dict[int, dict[str, int]]:
    """Decline every roll and every platter, use no action; resolve round 4's black ? in pink.
    Returns each round's actions as they stand once the round has begun."""
    seen: dict[int, dict[str, int]] = {game.round: earned(game)}
    while not game.is_over:
        if game.to_move == CHANCE:
            values = dict(zip(game.dice, (1, 2, 3, 4, 5, 6), strict=True))
            game.play("dice " + " ".join(f"{d}{values[d]}" for d in game.dice_to_roll()))
        else:
            moves = legal(game)
            move = next(m for m in ("pass", "roll", "done", "!k=1") if m in moves)
            game.play(move)
        seen.setdefault(game.round, earned(game))
    return seen


def test_vtf_round_gifts_of_rounds_1_to_3() -> None:
    """« Au début de chaque tour de jeu, tous les joueurs [...] reçoivent, lors des tours de jeu
    1 à 3, l'action indiquée en dessous du numéro de tour »: round 1 a reroll, round 2 a +1,
    round 3 a reprise (sheet reference); nothing else is earned by a player who enters nothing."""
    seen = pass_everything(vtf())
    assert seen[1] == {"reroll": 1, "reprise": 0, "plus_one": 0}
    assert seen[2] == {"reroll": 1, "reprise": 0, "plus_one": 1}
    assert seen[3] == {"reroll": 1, "reprise": 1, "plus_one": 1}
    assert seen[4] == seen[5] == seen[6] == seen[3]


def test_vtf_round_four_gives_everyone_a_black_question_mark_in_any_area() -> None:
    """« [...] puis, lors du 4e tour de jeu, le bonus »: a black ?, one free entry in the area of
    each player's choice (sheet reference), resolved before the round's first roll."""
    game = vtf(players=2)
    rng = random.Random(2)
    play_randomly(game, rng, until=lambda g: g.round == 4)
    assert set(game.players_to_move) == {0, 1}
    for p in (0, 1):
        assert [(str(i.bonus), i.source) for i in game.pending[p]] == [("black ?", "round 4")]
        assert {m.area for m in game.legal_moves(p)} == set(VTF.areas)  # silver, yellow, blue, green, pink
    pink = len(game.sheets[1].areas["k"])
    game.play("!k=6", player=1)
    assert game.sheets[1].areas["k"][pink] == 6 and not game.pending[1]
    assert game.players_to_move == (0,)  # no roll before every black ? is placed


@pytest.mark.parametrize(("players", "rounds"), [(1, 6), (2, 6), (3, 5), (4, 4)])
def test_vtf_rounds_by_number_of_players(players: int, rounds: int) -> None:
    """« La partie se joue en quatre tours de jeu (à 4 joueurs), cinq (à 3 joueurs) ou six tours
    (1 ou 2 joueurs) »; « un tour de jeu se termine lorsque chaque joueur a été une fois le
    joueur actif »."""
    game = Game("vraiment-tres-fute", players=players, seed=players)
    rng = random.Random(players)
    turns: set[tuple[int, int]] = set()
    while not game.is_over:
        turns.add((game.round, game.active))
        game.play(rng.choice(game.legal_moves()))
    assert turns == {(r, p) for r in range(1, rounds + 1) for p in range(players)}


@pytest.mark.parametrize("reprise_with_no_die_left", [True, False], ids=["reprise-rolls", "turn-ends"])
def test_vtf_solo_passive_turn_three_lowest_dice_and_no_reprise(reprise_with_no_die_left: bool) -> None:
    """Solo: « il lance les 6 dés et pose sur le plateau d'argent les 3 dés présentant le résultat
    le plus faible »; the reprise « ne peut être utilisée que par le joueur actif », and so can
    the reroll."""
    game = position(vtf(1, reprise_with_no_die_left), earned={ActionKind.REPRISE: 2, ActionKind.REROLL: 2})
    game.play("dice w1 s1 y1 b1 g6 k1")
    game.play("g")  # every other die goes to the platter: no die is left to roll
    if reprise_with_no_die_left:  # a reprise would still roll one: declined
        assert legal(game) == {"reprise w", "reprise s", "reprise y", "reprise b", "reprise k", "done"}
        game.play("done")
    assert game.solo_passive and game.to_move == CHANCE
    game.play("dice w6 s1 y5 b2 g4 k3")
    assert {d for d in game.dice if where(game, d) is Where.PLATTER} == {"s", "b", "k"}
    moves = game.legal_moves()
    assert {m.die for m in moves if m.die} == {"s", "b", "k"}
    assert not {m.kind for m in moves} & {"reroll", "reprise", "roll"}
    for move in ("reroll", "reprise y"):
        with pytest.raises(IllegalMoveError):
            game.play(move)


def test_vtf_white_is_a_joker_outside_silver_too() -> None:
    """« Le dé blanc est un joker de couleur, il peut être utilisé comme un dé argenté, jaune, vert
    ou rose. Ou bien il peut être combiné avec le dé bleu »."""
    game = vtf()
    game.play("dice w3 s6 y6 b5 g6 k6")
    white = [m for m in game.legal_moves() if m.die == "w"]
    assert {m.area for m in white} == {"s", "y", "b", "g", "k"}
    assert {str(m) for m in white if m.area == "y"} == {"w>y@r1c2", "w>y@r3c4"}  # the yellow 3s
    game.play("w>g")
    assert game.sheets[0].areas["g"] == [6]  # 3 in a x2 box
    game.play("dice s6 y6 b5 g6 k6")
    game.play("b")  # blue 5 + white 3 on its die field
    assert game.sheets[0].areas["b"] == [8]


# --- Très futé -----------------------------------------------------------------------


def test_the_dice_left_after_the_third_pick_go_to_the_platter_for_the_passive_players() -> None:
    """« Il pose ensuite sur le plateau d'argent TOUS les dés restants qui ne se trouvent pas sur
    sa feuille de jeu »; the passive players choose among them."""
    game = new_game(players=2)
    game.play("dice w1 y3 b1 g6 o5 p4")
    game.play("b@r1c2")  # blue 1 + white 1: nothing is lower than 1
    game.play("dice w1 y3 g6 o5 p4")
    game.play("y@r1c1")  # 3: white 1 goes to the platter
    game.play("dice g6 o5 p4")
    game.play("p")  # the third pick: green 6 and orange 5 are left, higher than 4
    assert {d: str(where(game, d)) for d in game.dice} == {
        "w": "platter",
        "y": "field",
        "b": "field",
        "g": "platter",
        "o": "platter",
        "p": "field",
    }
    assert game.phase is Phase.PASSIVE and game.players_to_move == (1,)
    assert {"g", "o"} <= legal(game, 1)
    game.play("g", player=1)
    assert game.sheets[1].areas["g"] == [0]


def test_purple_takes_any_number_after_a_6_even_a_lower_one() -> None:
    """Purple: « on doit toujours inscrire un nombre supérieur à celui de la case précédente »;
    « Exception : après un 6, on peut inscrire n'importe quel nombre ! »."""
    game = position(new_game(), p=[2, 6])
    game.play("dice w1 y1 b1 g1 o1 p1")
    assert "p" in legal(game)
    game.play("p")
    assert game.sheets[0].areas["p"] == [2, 6, 1]
    game.play("dice w1 y1 b1 g1 o1")  # white as purple: 1 after a 1 is not higher
    assert "w>p" not in legal(game)
    with pytest.raises(IllegalMoveError, match="purple needs a number higher than 1"):
        game.play("w>p")


def test_every_passive_player_may_take_the_same_die() -> None:
    """« Les dés restent sur le plateau d'argent, ils ne sont pas pris par les joueurs passifs qui
    les utilisent. Ainsi, plusieurs joueurs peuvent choisir le même dé »."""
    game = new_game(players=4)
    game.play("dice w3 y5 b1 g2 o3 p6")
    game.play("p")  # purple 6: everything else goes to the platter
    assert set(game.players_to_move) == {1, 2, 3}
    for p in (3, 1):
        game.play("o", player=p)
        assert where(game, "o") is Where.PLATTER and 2 in game.players_to_move
    game.play("o", player=2)
    assert [game.sheets[p].areas["o"] for p in (1, 2, 3)] == [[3], [3], [3]]


def test_a_bonus_with_no_target_is_lost() -> None:
    """« Le bonus ne peut pas être gardé pour plus tard, il doit être utilisé immédiatement »; with
    no free box it cannot be used, so it is lost (turn.md), and play goes on."""
    game = position(new_game(), y=["r2c1", "r2c2"], o=[1, 1, 1, 2, 1, 1, 2, 1, 2, 1, 3])
    game.play("dice w1 y5 b1 g1 o1 p1")
    game.play("y@r2c4")  # completes yellow row 2: its orange 4 has no box left
    assert game.pending[0] == []
    assert [(p, str(item.bonus), item.source) for p, item in game.lost_bonuses] == [(0, "orange 4", "yellow row 2")]
    assert game.sheets[0].areas["o"] == [1, 1, 1, 2, 1, 1, 2, 1, 2, 1, 3]
    assert game.to_move == CHANCE  # the next roll


def test_an_action_may_be_used_in_the_turn_it_is_earned() -> None:
    """« Ces actions peuvent être utilisées immédiatement après leur activation, au cours du même
    tour, ou lors d'un tour ultérieur »: orange box 6 earns a +1, used at the end of that turn."""
    game = position(new_game(), o=[1, 1, 1, 2, 1])
    assert game.sheets[0].available(ActionKind.PLUS_ONE) == 0
    game.play("dice w1 y2 b1 g2 o6 p1")
    game.play("o")  # box 6: +1; every other die goes to the platter, the active part is over
    assert game.phase is Phase.ACTIVE_EXTRA and game.sheets[0].available(ActionKind.PLUS_ONE) == 1
    assert "+g" in legal(game)
    game.play("+g")
    assert game.sheets[0].used[ActionKind.PLUS_ONE] == 1 and game.sheets[0].areas["g"] == [0]


def test_a_passive_player_may_not_reroll() -> None:
    """Reroll: « Cette action ne peut être utilisée que par le joueur actif »."""
    game = position(new_game(players=2), 1, earned={ActionKind.REROLL: 3})
    game.play("dice w3 y5 b1 g2 o3 p4")
    with pytest.raises(IllegalMoveError, match="not player 2's decision"):
        game.play("reroll", player=1)
    game.play("p")
    game.play("dice y6")
    game.play("y@r1c2")
    assert game.players_to_move == (1,) and "reroll" not in legal(game, 1)
    with pytest.raises(IllegalMoveError, match="'reroll' is not possible now"):
        game.play("reroll", player=1)
    assert game.sheets[1].used[ActionKind.REROLL] == 0


def test_vtf_reprise_only_for_the_active_player_and_never_after_the_third_roll() -> None:
    """Reprise: « Cette action ne peut être utilisée que par le joueur actif »; « Cette action ne
    peut pas être exécutée une fois que le joueur a déjà lancé les dés », so none is left after
    the third roll of the turn (turn.md: « before any roll but the first »). The default reading:
    the third roll comes from a reprise with no die left to roll (the strict reading ends the turn
    there: ``test_vtf_turn.py``)."""
    game = vtf(players=2, reprise_with_no_die_left=True)
    for p in (0, 1):
        position(game, p, earned={ActionKind.REPRISE: 3})
    assert "reprise g" not in legal(game)  # not before the first roll
    game.play("dice w1 s1 y1 b6 g1 k2")
    game.play("k")  # pink 2: white, silver, yellow, green 1 go to the platter
    assert {"reprise w", "reprise g", "roll"} <= legal(game)
    with pytest.raises(IllegalMoveError, match="not player 2's decision"):
        game.play("reprise g", player=1)
    game.play("reprise g")
    game.play("roll")
    game.play("dice b1 g6")
    game.play("g")  # green 6 (x2), blue goes to the platter
    game.play("reprise y")
    game.play("roll")
    game.play("dice y1")
    game.play("pass")  # the third roll, declined: two picks only, dice on the platter, reprises left
    assert game.sheets[0].available(ActionKind.REPRISE) == 1
    assert not any(m.kind == "reprise" for p in (0, 1) for m in game.legal_moves(p))
    with pytest.raises(IllegalMoveError):
        game.play("reprise y", player=0)
    assert game.phase is Phase.PASSIVE
    with pytest.raises(IllegalMoveError):
        game.play("reprise y", player=1)


def test_the_passive_plus_one_comes_after_the_platter_pick() -> None:
    """+1: « Elle ne peut être réalisée par un joueur qu'à la fin de son tour, c'est-à-dire une
    fois que le joueur, [...] s'il est un joueur passif, [a noté] son dé du plateau d'argent »."""
    game = position(new_game(players=2), 1, earned={ActionKind.PLUS_ONE: 2})
    game.play("dice w3 y5 b1 g2 o3 p4")
    game.play("p")
    game.play("dice y6")
    with pytest.raises(IllegalMoveError):
        game.play("+y@r1c2", player=1)  # during the active turn
    game.play("y@r1c2")
    assert game.players_to_move == (1,)
    assert not any(m.startswith("+") for m in legal(game, 1))
    with pytest.raises(IllegalMoveError, match="not possible now: a passive player picks a die"):
        game.play("+g", player=1)  # before the platter pick
    game.play("o", player=1)
    assert {"+g", "+y@r1c2", "done"} <= legal(game, 1)  # any die, the active player's too
    game.play("+y@r1c2", player=1)
    assert game.sheets[1].used[ActionKind.PLUS_ONE] == 1


def test_the_final_plus_one_phase_is_every_players() -> None:
    """« La partie se termine à l'issue du dernier tour de jeu [...]. Chaque joueur a encore une
    fois la possibilité d'utiliser ses éventuelles actions « dé supplémentaire » restantes »:
    the active player and each passive player of the last turn, then the score."""
    game = new_game(players=3)
    rng = random.Random(7)
    play_randomly(game, rng, until=lambda g: g.round == g.rounds and g.turn == 2 and g.to_move == CHANCE)
    assert game.active == 2 and not game.pending[2]
    for p in range(3):
        sheet = game.sheets[p]
        position(game, p, earned={ActionKind.PLUS_ONE: sheet.used[ActionKind.PLUS_ONE] + 2})
    game.play("dice w6 y6 b6 g6 o6 p6")
    while game.phase is not Phase.ACTIVE_EXTRA:
        if game.to_move == CHANCE:
            roll_randomly(game, rng)
        else:
            game.play(rng.choice([m for m in game.legal_moves() if m.kind != "reroll"]))
    assert any(m.kind == "extra" for m in game.legal_moves(2))
    game.play("done")
    for p in (0, 1):
        while game.stage[p] == "pick":
            game.play(rng.choice(game.legal_moves(p)), player=p)
        assert any(m.kind == "extra" for m in game.legal_moves(p)), p
    game.play("done", player=0)
    assert not game.is_over
    game.play("done", player=1)
    assert game.is_over


def test_solo_passive_plus_one_takes_any_of_the_six_dice() -> None:
    """« Le joueur peut choisir l'un des six dés, n'importe lequel », in the solo passive turn too:
    the three dice that are not on the platter are as good for +1."""
    game = position(new_game(), earned={ActionKind.PLUS_ONE: 2})
    game.play("dice w1 y2 b1 g2 o6 p1")
    game.play("o")
    game.play("done")  # keep the +1 for the passive turn
    game.play("dice w6 y1 b5 g2 o4 p3")  # platter: yellow 1, green 2, purple 3
    game.play("g")
    extras = legal(game)
    assert {"+o", "+w>o", "+w>p", "+b@r3c3", "+p"} <= extras  # orange 4, white 6, blue 5 (+6 = 11)
    game.play("+b@r3c3")
    assert game.sheets[0].used[ActionKind.PLUS_ONE] == 1


def _finished(game_id: str) -> Game:
    game = Game(game_id, players=3, seed=11)
    play_randomly(game, random.Random(11))
    return game


TIES = {  # two sheets with equal totals; the second has the higher single area
    "tres-fute": ({"o": [6, 6, 6, 2], "p": [1, 2, 3, 4, 5, 6, 1]}, {"o": [6, 6, 6, 12, 6, 1, 2], "p": [3]}),
    "vraiment-tres-fute": ({"k": [6, 6, 6], "g": [12, 2]}, {"k": [6, 6, 6, 6, 4]}),
}


@pytest.mark.parametrize("game_id", sorted(TIES))
def test_a_tie_goes_to_the_best_single_area_then_is_shared(game_id: str) -> None:
    """« En cas d'égalité, c'est celui des joueurs concernés qui possède le total de points le plus
    élevé dans une zone qui gagne. Si le gagnant n'est toujours pas clairement identifié, il y a
    plusieurs vainqueurs » (both rulebooks), for a finished game and its record."""
    game = _finished(game_id)
    spec = TF if game_id == "tres-fute" else VTF
    lower, higher = (Sheet.from_marks(spec, marks) for marks in TIES[game_id])
    assert lower.score().total == higher.score().total
    assert lower.score().best_area < higher.score().best_area
    for p, sheet in enumerate([lower, higher, lower]):
        game.set_sheet(p, sheet)
    assert game.winners() == [1]
    assert records.record_of(game).result.winners == [2]  # type: ignore[union-attr]
    game.set_sheet(2, higher)
    assert game.winners() == [1, 2]

"""Computer players: only legal moves, in every kind of position; deterministic per seed.
(Strength is measured by `tresfute bench`, not by tests.)"""

from __future__ import annotations

import gc
import itertools
import json
import math
import random
from collections.abc import Iterator

import pytest
from click.testing import CliRunner
from threadpoolctl import ThreadpoolController, threadpool_info  # type: ignore[import-untyped]

from tresfute.bots import BOTS, StrongBot, analyse, make_bot
from tresfute.bots import strong as strong_module
from tresfute.bots.blas import blas_threads
from tresfute.bots.futures import (
    FIRST_DECISION,
    WHOLE,
    KnownChoices,
    _aligned_drawn,
    _aligned_draws,
    future_values,
    own_dice,
    stratified_draws,
)
from tresfute.bots.network import shipped_network
from tresfute.bots.strong import SEARCH, Search, ValueBot, afterstates, evaluate_moves, roll_own_dice
from tresfute.bots.value import FOXES, ValueModel, features, shipped_model
from tresfute.cli import main
from tresfute.rules import CHANCE, SPECS, Game, Sheet, parse_move
from tresfute.rules.kinds import Grid
from tresfute.settings import SettingError
from tresfute.simulate import play_game

from helpers import ZERO_AND_NEGATIVE, exact_network, position, random_decisions

GAMES = ["tres-fute", "vraiment-tres-fute"]


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize(
    # the winning player is the strong player alone; at a table, tests/test_winning.py checks it the same way
    "bot_name",
    [pytest.param(b, marks=pytest.mark.slow) if b == "strong" else b for b in sorted(BOTS) if b != "strong-win"],
)
def test_bots_only_return_legal_moves_in_random_positions(game_id: str, bot_name: str) -> None:
    """Random play reaches positions of every kind; the bot is asked at each of them (the strong
    player, which searches, in fewer games: it took most of the suite's longest test)."""
    rng = random.Random(7)
    asked = 0
    games = 6 if bot_name == "strong" else 16
    for seed in range(games):
        game = Game(game_id, players=rng.randint(1, 4), seed=seed)
        bot = make_bot(bot_name, seed)
        while not game.is_over:
            for player in game.players_to_move:
                before = json.dumps(game.view(), sort_keys=True)
                move = bot.choose(game, player)
                assert move in game.legal_moves(player)
                assert json.dumps(game.view(), sort_keys=True) == before, "a bot never changes the game"
                asked += 1
            game.play(rng.choice(game.legal_moves()))
    assert asked > 60 * games


@pytest.mark.parametrize("game_id", GAMES)
def test_bots_are_deterministic_for_a_seed(game_id: str) -> None:
    for bot_name in ("random", "greedy"):
        first = play_game(game_id, 2, bot_name, 5, 0)
        second = play_game(game_id, 2, bot_name, 5, 0)
        assert [h.move for h in first.history] == [h.move for h in second.history]
        assert first.scores() == second.scores()


def test_the_strong_player_is_deterministic_and_never_sees_the_dice() -> None:
    def run() -> tuple[list[object], int]:
        game = Game("tres-fute", players=1, seed=21)
        bot = StrongBot(3, candidates=2, samples=2)
        while game.round < 3:
            state = game._rng.getstate()  # the game's own random source
            move = bot.choose(game, 0)
            assert game._rng.getstate() == state
            game.play(move)
        return [h.move for h in game.history], game.score(0).total

    assert run() == run()


def test_a_bot_never_sees_the_seeded_dice() -> None:
    """The look-ahead copy waits for dice from outside: the game's random source is untouched."""
    game = Game("tres-fute", players=1, seed=3)
    state = game._rng.getstate()
    make_bot("greedy", 0).choose(game, 0)
    assert game._rng.getstate() == state
    look = game.copy(dice="external")
    assert look.external_dice and look.seed is None


def test_the_bench_command_prints_every_figure() -> None:
    result = CliRunner().invoke(
        main, ["bench", "--game", "vraiment-tres-fute", "--bot", "greedy", "--games", "5", "--seed", "1000", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)  # the plain engine's notice goes to stderr
    assert set(data) >= {
        "mean",
        "sd",
        "se",
        "p10",
        "p50",
        "p90",
        "mean_per_area",
        "mean_foxes",
        "rating_bands",
        "decisions_per_second",
        "seconds_per_game",
        "median_ms_per_decision",
        "p90_ms_per_decision",
    }
    assert abs(sum(data["rating_bands"].values()) - 1) < 1e-9
    text = CliRunner().invoke(main, ["bench", "--games", "3", "--lang", "en"]).output
    assert "standard error" in text and "p10" in text and "decisions per second" in text
    on_two = CliRunner().invoke(
        main,
        [
            "bench",
            "--game",
            "vraiment-tres-fute",
            "--bot",
            "greedy",
            "--games",
            "5",
            "--seed",
            "1000",
            "--json",
            "--workers",
            "2",
        ],
    )
    assert json.loads(on_two.output)["mean"] == data["mean"], "the same games on two processes"


def test_the_strong_player_ships_its_learned_evaluation() -> None:
    for game_id in GAMES:
        model = shipped_model(game_id)
        assert model.heads == (*SPECS[game_id].areas, FOXES), "one forecast per area, then the foxes"
        assert len(model.weights) > 500, "bots/data/value-<game>.json is packaged"


def test_the_evaluation_counts_its_forecasts_as_the_rulebook_counts_a_sheet() -> None:
    """The areas' sum plus the foxes times the lowest area: with only a constant forecast per
    head, the value of a fresh sheet is exactly that sum."""
    game = Game("tres-fute", seed=3)
    heads = (*SPECS["tres-fute"].areas, FOXES)
    stage = features(game, 0)[0]  # the bias feature of the current stage
    gains = (30.0, 40.0, 25.0, 50.0, 35.0, 3.0)  # yellow, blue, green, orange, purple, foxes
    model = ValueModel("tres-fute", heads, {stage: gains})
    assert model.forecast(game, 0) == ([30.0, 40.0, 25.0, 50.0, 35.0], 3.0)
    assert model.value(game, 0) == 30 + 40 + 25 + 50 + 35 + 3 * 25
    with pytest.raises(ValueError, match="one weight per head"):
        ValueModel("tres-fute", heads, {stage: (1.0, 2.0)})


def test_the_evaluation_values_foxes_at_0_when_an_area_is_forecast_at_0() -> None:
    """The rulebook's fox rule holds for forecasts too: an area at 0 makes every fox worth 0,
    even beside a negative green; and the fox feature names the area the foxes are worth."""
    game = Game("vraiment-tres-fute", seed=3)
    heads = (*SPECS["vraiment-tres-fute"].areas, FOXES)
    stage = features(game, 0)[0]
    gains = (30.0, 0.0, 20.0, -10.0, 15.0, 2.0)  # silver, yellow, blue, green, pink, foxes
    model = ValueModel("vraiment-tres-fute", heads, {stage: gains})
    assert model.value(game, 0) == 30 + 0 + 20 - 10 + 15
    game.set_sheet(0, Sheet.from_marks(game.spec, ZERO_AND_NEGATIVE))  # yellow 0, green -16, a fox
    assert next(n for n in features(game, 0) if "|foxlow|" in n).endswith("|foxlow|1|y|0")


def test_the_evaluation_sees_what_each_die_still_to_roll_can_do_in_its_own_area() -> None:
    """A die kept in hand is worth what its area can still take: a grid's values with an open
    cell, a track's length and last number (purple must rise); a die no longer in hand is not
    counted."""
    game = Game("tres-fute", seed=3)
    yellow = game.spec.areas["y"]
    sixes = {f"r{yellow.cells[c].row}c{yellow.cells[c].col}": 1 for c in yellow.cells_by_value[6]}
    game = position(game, y=sixes, p=[3, 5])
    names = features(game, 0)
    assert "hand|y|0|1,2,3,4,5" in names, "every yellow 6 is crossed: a yellow die can only use 1-5"
    assert "hand|p|0|2|5" in names, "two purple numbers, the last a 5"
    assert "hand|b|0|2,3,4,5,6,7,8,9,10,11,12" in names
    yellow_pick = next(m for m in game.legal_moves(0) if str(m).startswith("y@"))
    game.play(yellow_pick, 0)
    assert not [n for n in features(game, 0) if n.startswith("hand|y|")], "the yellow die is used"


@pytest.mark.parametrize("game_id", GAMES)
def test_the_analysis_ranks_every_legal_move_and_its_first_is_the_bots_choice(game_id: str) -> None:
    """Active picks, passive picks, actions and bonus choices: the analysis lists each legal move
    once, searched moves best first, and the strong player plays the first of them."""
    rng = random.Random(11)
    kinds = set()
    for seed in range(3):
        game = Game(game_id, players=2, seed=seed)
        step = 0
        while not game.is_over:
            step += 1
            player = game.to_move
            if step % 9 == 0 and player is not None and player >= 0 and len(game.legal_moves(player)) > 1:
                bot = StrongBot(seed, candidates=3, samples=2, margin=math.inf)
                estimates = bot.analyse(game, player)
                assert sorted(map(str, (e.move for e in estimates))) == sorted(map(str, game.legal_moves(player)))
                searched = [e.value for e in estimates if e.searched]
                assert len(searched) == min(3, len(estimates)) and searched == sorted(searched, reverse=True)
                values = [e.value for e in estimates]
                assert values == sorted(values, reverse=True), "best first, the moves left out of the search too"
                assert estimates[0].move == bot.choose(game, player)
                kinds.add(estimates[0].move.kind)
            game.play(rng.choice(game.legal_moves()))
    assert {"pick", "bonus"} <= {str(k) for k in kinds}


def test_the_analysis_of_the_last_decision_is_the_exact_score_of_each_move() -> None:
    """When a move ends the game, its expected final score is the score it gives."""
    bot = make_bot("greedy", 0)

    def ends(game: Game, move: object) -> bool:
        after = game.copy()
        after.play(move, 0)
        return after.is_over

    for seed in range(20):
        game = Game("tres-fute", players=1, seed=seed)
        while not game.is_over:
            moves = game.legal_moves(0)
            if len(moves) > 1 and all(ends(game, m) for m in moves):
                break
            game.play(bot.choose(game, 0), 0)
        if not game.is_over:
            break
    else:
        pytest.fail("no game reached a last decision with a choice")
    for estimate in analyse(game, 0, candidates=0):
        after = game.copy()
        after.play(estimate.move, 0)
        assert estimate.value == after.score(0).total


def test_the_strong_player_searches_only_where_the_network_hesitates() -> None:
    """The strong player searches the network's best moves that are close to its best (up to
    three within four points in Très futé, four within six in Vraiment très futé: settings
    chosen on tuning games; alone, on twice as many short futures as the table's whole turns
    (fourteen and eighteen), a roll and a pick each, their first rolls stratified), and plays
    the network's best move directly when no other comes that close; a bot given other settings
    keeps them."""
    game = Game("tres-fute", players=1, seed=4)
    bot = StrongBot(0)
    assert bot.search(game) == SEARCH["tres-fute"] == Search(3, 14, 4.0, ends=FIRST_DECISION, stratified=True)
    assert SEARCH["vraiment-tres-fute"] == Search(4, 18, 6.0, ends=FIRST_DECISION, stratified=True)
    assert bot.search(Game("tres-fute", players=2, seed=4)) == Search(candidates=3, samples=6, margin=4.0)
    assert bot.search(Game("vraiment-tres-fute", players=3, seed=4)) == Search(candidates=4, samples=8, margin=6.0)
    assert StrongBot(0, candidates=0).search(game).candidates == 0
    seen = {True: 0, False: 0}
    rng = random.Random(4)
    while not game.is_over:
        player = game.to_move
        if player is not None and player >= 0 and len(game.legal_moves(player)) > 1:
            estimates = bot.analyse(game, player)
            searched = {str(e.move) for e in estimates if e.searched}
            network_only = StrongBot(0, candidates=0).analyse(game, player)
            close = [e for e in network_only[:3] if network_only[0].value - e.value <= 4.0]
            expected = {str(e.move) for e in close} if len(close) > 1 else set()
            assert searched == expected
            seen[bool(expected)] += 1
        game.play(rng.choice(game.legal_moves()))
    assert seen[True] and seen[False]


def _searched_one_future_at_a_time(bot: StrongBot, game: Game, player: int) -> list[tuple[str, float]]:
    """The search as the strong player first did it, as its definition: each candidate, on each
    future, copied, played, its turn played out alone by the network's best moves (the first of
    the highest values, each position's afterstates valued as one batch of their own), then valued.
    A solo future that has rolled dice of its own ends once the active player's picks are over,
    or sooner, at its first decision after its roll, where the search says so (``Search.ends``);
    a stratified search's first roll takes its faces from :func:`stratified_draws`."""
    with blas_threads():
        network = bot.network or shipped_network(game.spec.id)
        ranked = evaluate_moves(game, player, network)
        settings = bot.search(game)
        count = sum(1 for value, _ in ranked[: settings.candidates] if ranked[0][0] - value <= settings.margin)
        seeds = [hash((bot.seed, len(game.history), game.dice_rolled, i)) for i in range(settings.samples)]
        firsts = stratified_draws(seeds, 6)
        out = []
        for _, move in ranked[:count]:
            total = 0.0
            for seed, first in zip(seeds, firsts, strict=True):
                sim = game.copy(dice="external")
                sim.play(move, player)
                rng = random.Random(seed)
                turn = (sim.round, sim.turn, sim.solo_passive)
                rolled = False
                while not sim.is_over and (sim.round, sim.turn, sim.solo_passive) == turn:
                    if rolled and sim.n_players == 1 and sim.phase == "active extra":
                        break
                    mover = sim.to_move
                    if mover == CHANCE:
                        if settings.stratified and not rolled:
                            sim.play(parse_move(_dice_as_text(sim, first, rng)))
                        else:
                            roll_own_dice(sim, rng)
                        rolled = True
                    else:
                        assert mover is not None
                        sim.play(evaluate_moves(sim, mover, network)[0][1], mover)
                        if rolled and settings.ends == FIRST_DECISION:
                            break
                total += network.value(sim, player)
            out.append((str(move), total / len(seeds)))
        return sorted(out, key=lambda mv: -mv[1])


@pytest.mark.parametrize(
    ("game_id", "players", "games"),
    [("tres-fute", 1, 4), ("vraiment-tres-fute", 1, 4), ("tres-fute", 3, 1), ("vraiment-tres-fute", 4, 1)],
)
def test_the_futures_searched_together_are_the_futures_searched_one_at_a_time(
    game_id: str, players: int, games: int
) -> None:
    """The futures of a searched move share their positions until their dice differ, and advance
    together (their positions valued in batches): on seeded positions of every phase each
    searched move gets the estimate of the plain search, one future and one position at a time,
    bit for bit and in the same order, with a network whose arithmetic is exact (the shipped
    one's last float32 bits depend on how many positions a batch holds). At a table the plain
    search plays every other player's pick from the platter by the network; the batched one plays
    the first legal move there, unvalued, where it cannot change the player's value."""
    rng = random.Random(11)
    bot = StrongBot(3, candidates=3, samples=3, margin=100.0, network=exact_network(game_id))
    compared = 0
    for seed in range(1000, 1000 + games):
        game = Game(game_id, players=players, seed=seed)
        while not game.is_over:
            player = game.to_move
            assert player is not None and player >= 0
            if len(game.legal_moves(player)) > 1:
                expected = _searched_one_future_at_a_time(bot, game, player)
                searched = [(str(e.move), e.value) for e in bot.analyse(game, player) if e.searched]
                assert searched == expected
                compared += 1
            game.play(rng.choice(game.legal_moves()))
    assert compared > 60


def _searches(game_id: str, players: int, share: float) -> Iterator[tuple[int, list[Game]]]:
    """A seeded random game at a table (``random_decisions``, that ``share`` of its decisions):
    the player to decide and the positions after its first three legal moves, waiting for dice
    from outside (a search's starts)."""
    game = Game(game_id, players=players, dice="external")
    for player, moves in random_decisions(game, random.Random(players), share):
        starts = []
        for move in moves[:3]:
            start = game.copy(dice="external", history=False)
            start.play(move, player)
            starts.append(start)
        yield player, starts


@pytest.mark.parametrize("game_id", sorted(SPECS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_others_picks_that_cannot_change_the_players_value_leave_its_futures_values_as_they_were(
    game_id: str, players: int
) -> None:
    """Passive players choose independently, each entering a die on its own sheet: once the
    active player is done, another's pick changes what a player may still do only through that
    other's own later active turns. So the futures that end on the player's own value play the
    other picks unvalued; they are worth, bit for bit (an exact network), what the futures worth
    every seat's sheet (``worth``: every decision played by the network) give, in the strong
    player's futures (to the turn's end) and in the review's (one turn more, aligned dice: the
    next active player's picks in the first turn still played by the network)."""
    network = exact_network(game_id, seed=players)
    compared = 0
    for player, starts in _searches(game_id, players, 0.2):

        def own(games: list[Game], player: int = player) -> list[float]:
            return network.values(games, player)

        for more_turns, aligned in ((0, False), (1, True)):
            seeds = [7, 8, 9, 10]
            quick = future_values(starts, seeds, player, network, more_turns=more_turns, aligned=aligned)
            assert quick == future_values(starts, seeds, player, network, own, more_turns, aligned)
        compared += 1
    assert compared >= 12


@pytest.mark.parametrize("game_id", sorted(SPECS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_others_choices_met_again_in_another_moves_futures_are_played_again_as_they_were(
    game_id: str, players: int
) -> None:
    """The searched moves change only the player's own sheet, so their futures (drawing the same
    dice) meet the other players' same decisions again: each is valued once and played again
    where it holds whatever the player's sheet. The moves searched together are worth, bit for
    bit (an exact network), each move searched alone, one future at a time: in the strong
    player's futures (to the turn's end), in ``strong-win``'s (a ``worth`` that reads every
    sheet) and in the review's (one turn more, aligned dice)."""
    network = exact_network(game_id, seed=players)
    reused = 0
    for player, starts in _searches(game_id, players, 0.15):

        def worth(games: list[Game], player: int = player) -> list[float]:
            values = [network.values(games, p) for p in range(players)]
            return [
                values[player][k] - max(v[k] for p, v in enumerate(values) if p != player) for k in range(len(games))
            ]

        seeds = [7, 8, 9, 10]
        for settings in ((None, 0, False), (worth, 0, False), (None, 1, True)):
            known = KnownChoices()
            together = future_values(starts, seeds, player, network, *settings, known=known)
            alone = [
                [future_values([start], [seed], player, network, *settings)[0][0] for seed in seeds] for start in starts
            ]
            assert together == alone
            reused += known.reused
    assert reused >= 100


def _full_sheet(game_id: str) -> Sheet:
    """A sheet on which no die can be entered anywhere (every cell marked, every box written),
    with no action earned: a set-up position, not one a game reaches."""
    spec = SPECS[game_id]
    sheet = Sheet(spec)
    for colour, area in spec.areas.items():
        state = sheet.writable(colour)
        if isinstance(area, Grid):
            for cell in range(len(area.cells)):
                while state[cell] < area.marks:
                    area.mark(state, cell)
            continue
        for _ in area.boxes:
            area.enter(state, next(v for v in area.choice_values if area.why_not(state, v, from_bonus=True) is None))
    return sheet


def test_an_others_choice_is_played_again_only_where_it_holds_whatever_the_players_sheet() -> None:
    """The rules read a player's sheet for its forced moves once the passive picks begin: at a
    table of two, a player who can enter nothing has its pick played for it, and the turn ends
    at the active player's last move instead, which changes what the active player's own inputs
    say. Two starts that differ only in the passive player's sheet, one of them full, keep in
    the futures searched together the values each has alone (bit for bit, an exact network):
    the active player's choices that led into the passive picks are not played again."""
    reused = 0
    for seed in range(6):
        rng = random.Random(seed)
        game = Game("vraiment-tres-fute", players=2, dice="external")
        while not (game.round >= 2 + seed % 3 and game.active == 1 and game.phase == "roll" and game.rolls == 1):
            mover = game.to_move
            game.play(own_dice(game, rng) if mover == CHANCE else rng.choice(game.legal_moves(mover)), mover)
        full = game.copy(dice="external", history=False)
        full.set_sheet(0, _full_sheet("vraiment-tres-fute"))
        starts = [full, game.copy(dice="external", history=False)]
        network = exact_network("vraiment-tres-fute", seed=seed)
        seeds = list(range(12))
        known = KnownChoices()
        together = future_values(starts, seeds, 0, network, known=known)
        assert together == [[future_values([start], [s], 0, network)[0][0] for s in seeds] for start in starts]
        reused += known.reused
    assert reused >= 20


def _own_dice_as_text(game: Game, rng: random.Random) -> str:
    """The futures' dice as they were first drawn, written in the notation (the definition)."""
    return _dice_as_text(game, [rng.random() for _ in game.dice_to_roll()], rng)


def _dice_as_text(game: Game, draws: list[float], rng: random.Random) -> str:
    """A roll written in the notation, the ``k``-th die to roll showing ``int(6 * draws[k]) + 1``
    and a solo passive roll's ties broken by ``rng``."""
    values = {d: int(draws[k] * 6) + 1 for k, d in enumerate(game.dice_to_roll())}
    text = "dice " + " ".join(f"{d}{v}" for d, v in values.items())
    if game.phase == "solo roll":
        order = sorted(values, key=lambda d: (values[d], rng.random()))
        text += " platter=" + "".join(order[:3])
    return text


@pytest.mark.parametrize("game_id", sorted(SPECS))
def test_the_futures_draw_their_dice_as_the_notation_s_text_did(game_id: str) -> None:
    """A future's dice are built as a move, not written and read back: the same faces, the same
    platter, and the generator left in the same state, at every roll of seeded games."""
    rolls = 0
    for seed in range(6):
        game = Game(game_id, players=1 + seed % 2, dice="external")
        play = random.Random(seed)
        while not game.is_over:
            if game.to_move == CHANCE:
                mine, theirs = random.Random(seed * 1000 + rolls), random.Random(seed * 1000 + rolls)
                move = own_dice(game, mine)
                assert move == parse_move(_own_dice_as_text(game, theirs))
                assert mine.getstate() == theirs.getstate()
                game.play(move)
                rolls += 1
            else:
                game.play(play.choice(game.legal_moves()))
    assert rolls > 100


def test_stratified_first_rolls_share_out_every_die_s_faces() -> None:
    """``stratified_draws``: for each die, the futures' numbers fall one in each of as many equal
    intervals as there are futures (so with twelve futures every face shows on exactly two),
    the same for the same seeds and in another order for others."""
    seeds = [hash((5, 40, 21, i)) for i in range(12)]
    draws = stratified_draws(seeds, 6)
    assert draws == stratified_draws(seeds, 6) and draws != stratified_draws(seeds[1:] + seeds[:1], 6)
    for j in range(6):
        column = [row[j] for row in draws]
        assert sorted(int(x * 12) for x in column) == list(range(12))
        assert sorted(int(x * 6) + 1 for x in column) == [f for f in range(1, 7) for _ in range(2)]


@pytest.mark.parametrize("game_id", sorted(SPECS))
def test_aligned_futures_give_a_die_the_same_face_after_either_move(game_id: str) -> None:
    """The review's valuation futures draw by die (``future_values(aligned=True)``): after two
    moves that leave different dice to roll, a future's next roll gives every die both still
    hold the same face; and a solo passive roll so drawn still sends the three lowest dice to
    the platter. Every roll drawn is a legal move."""
    compared = solo = 0
    for seed in range(30):
        game = Game(game_id, players=1, dice="external")
        play = random.Random(seed)
        while not game.is_over and (compared < 40 or solo < 40):
            player = game.to_move
            assert player is not None
            if player != CHANCE and game.phase == "choose":
                afters = []
                for move in game.legal_moves(player):
                    after = game.copy(dice="external", history=False)
                    after.play(move, player)
                    if after.to_move == CHANCE and after.phase != "solo roll":
                        afters.append(after)
                for a, b in itertools.pairwise(afters):
                    if a.dice_to_roll() == b.dice_to_roll():
                        continue
                    draws = _aligned_draws(seed * 1000 + compared)
                    faces_a, faces_b = dict(_aligned_drawn(a, draws)[0].dice), dict(_aligned_drawn(b, draws)[0].dice)
                    common = set(faces_a) & set(faces_b)
                    if not common:
                        continue
                    assert all(faces_a[d] == faces_b[d] for d in common)
                    a.copy().play(_aligned_drawn(a, draws)[0])
                    compared += 1
            if game.phase == "solo roll":
                for k in range(5):
                    rolled = game.copy(dice="external", history=False)
                    move = _aligned_drawn(rolled, _aligned_draws(seed * 100 + k))[0]
                    rolled.play(move)  # legal: the platter holds the three lowest
                    values = dict(move.dice)
                    assert move.platter is not None
                    assert max(values[d] for d in move.platter) <= min(
                        v for d, v in values.items() if d not in move.platter
                    )
                    solo += 1
            game.play(own_dice(game, play) if player == CHANCE else play.choice(game.legal_moves()))
    assert compared >= 40 and solo >= 40


@pytest.mark.parametrize("game_id", sorted(SPECS))
def test_a_valuation_future_s_last_turn_ends_where_it_is_told(game_id: str) -> None:
    """``future_values(more_turns=1, short=...)``: every future reaches the turn after its start's;
    WHOLE plays that turn out (a solo game's to the end of the player's picks), FIRST_DECISION
    stops it at its first decision after a roll, never further than WHOLE, and often before."""
    network = shipped_network(game_id)
    game = Game(game_id, players=1, dice="external")
    checked = shorter = 0
    for player, moves in random_decisions(game, random.Random(4), 0.5):
        start = game.copy(dice="external", history=False)
        start.play(moves[0], player)
        turn = (start.round, start.turn, start.solo_passive)
        ended: dict[str, list[Game]] = {}
        for short in (WHOLE, FIRST_DECISION):
            seen: list[Game] = []

            def worth(games: list[Game], seen: list[Game] = seen) -> list[float]:
                seen.extend(g.copy() for g in games)
                return [0.0] * len(games)

            future_values([start], [1, 2, 3], player, network, worth, more_turns=1, aligned=True, short=short)
            ended[short] = seen
        for games in ended.values():
            for g in games:
                assert g.is_over or (g.round, g.turn, g.solo_passive) != turn
        rolls = {short: max(g.dice_rolled for g in games) for short, games in ended.items()}
        assert rolls[FIRST_DECISION] <= rolls[WHOLE]
        shorter += rolls[FIRST_DECISION] < rolls[WHOLE]
        checked += 1
        if checked == 10:
            break
    assert checked == 10 and shorter >= 1


def test_a_decision_pauses_the_garbage_collector_and_leaves_it_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search makes positions by the thousand and no reference cycles: the strong and the
    winning players pause Python's cyclic collector for the time of a decision, and put it back
    as it was (on, or off if the program had turned it off)."""
    seen: list[bool] = []

    def spying(game: Game, player: int, history: bool = True):
        seen.append(gc.isenabled())
        return afterstates(game, player, history)

    monkeypatch.setattr(strong_module, "afterstates", spying)
    solo = Game("tres-fute", players=1, seed=1000)
    table = Game("tres-fute", players=2, seed=1000)
    assert gc.isenabled()
    try:
        for bot, game in ((StrongBot(0), solo), (make_bot("strong-win", 0), table)):
            bot.choose(game, 0)
            assert gc.isenabled()
            gc.disable()
            bot.choose(game, 0)
            assert not gc.isenabled()
            gc.enable()
    finally:
        gc.enable()
    assert len(seen) >= 4 and not any(seen)


def test_a_strong_decision_runs_on_one_blas_thread_unless_told_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    """NumPy's BLAS would start a thread per core for the network's small matrices; the strong
    and value-only players set it to one thread for the time of a decision (the variable
    TRESFUTE_BLAS_THREADS sets another number, 0 leaves BLAS as it is) and put it back after."""
    seen: list[int] = []

    def spying(game: Game, player: int, history: bool = True):  # what the strong player's first step sees
        seen.append(max(pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"))
        return afterstates(game, player, history)

    monkeypatch.setattr(strong_module, "afterstates", spying)
    game = Game("vraiment-tres-fute", players=1, seed=1000)
    game.play(str(game.legal_moves()[0]))
    before = threadpool_info()
    controller = ThreadpoolController()
    with controller.limit(limits=2, user_api="blas"):  # as on a machine of two cores
        outside = max(p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas")
        StrongBot(0).choose(game, 0)
        assert seen == [1]
        ValueBot(0).choose(game, 0)
        assert seen == [1, 1]
        monkeypatch.setenv("TRESFUTE_BLAS_THREADS", "0")
        StrongBot(0).choose(game, 0)
        assert seen[-1] == outside
        assert max(p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas") == outside
        monkeypatch.setenv("TRESFUTE_BLAS_THREADS", "deux")
        view = json.dumps(game.view(), sort_keys=True)
        with pytest.raises(SettingError, match="TRESFUTE_BLAS_THREADS"):
            StrongBot(0).choose(game, 0)
        assert json.dumps(game.view(), sort_keys=True) == view
    assert threadpool_info() == before

"""The game review (``bots/review.py``) and ``tresfute review``: each decision of a player
against the strong player's choice, both valued on the same valuation futures
(``bots/appraisal.py``)."""

from __future__ import annotations

import json
import re
import statistics
from pathlib import Path

import pytest
from click.testing import CliRunner

from tresfute import records
from tresfute.bots import GreedyBot, StrongBot, appraisal
from tresfute.bots.appraisal import ERROR_SHARE_DRAWN, MORE_TURNS, MOST_FUTURES, appraise
from tresfute.bots.futures import future_values
from tresfute.bots.lift import shipped_lift
from tresfute.bots.network import shipped_network
from tresfute.bots.review import (
    LABELS,
    LEVELS,
    WHY_FROM,
    computer_choices,
    decision_of,
    judge,
    label,
    level,
    review_game,
)
from tresfute.bots.verify import valuation_error
from tresfute.bots.why import measure, why
from tresfute.cli import main
from tresfute.i18n import use_language
from tresfute.review_text import practice_queue
from tresfute.rules import Game, MoveKind
from tresfute.rules.kinds import ActionKind
from tresfute.simulate import play_game
from tresfute.text import explain


def played_by(bot: object, game_id: str, seed: int) -> records.Record:
    game = Game(game_id, 1, seed=seed)
    while not game.is_over:
        p = game.to_move
        assert p is not None
        game.play(bot.choose(game, p), p)  # type: ignore[attr-defined]
    return records.record_of(game)


@pytest.mark.parametrize(
    "game_id",
    ["tres-fute", pytest.param("vraiment-tres-fute", marks=pytest.mark.slow)],  # (a slower game)
)
def test_the_strong_players_own_game_is_best_everywhere(game_id: str) -> None:
    """The review runs the strong player's analysis: its own game costs nothing anywhere."""
    record = played_by(StrongBot(0), game_id, 3)
    review = review_game(record)
    decisions = sum(1 for entry in record.moves if entry.startswith("1:"))
    assert len(review.decisions) == decisions > 20
    assert all(d.label == "best" and d.cost == 0 and d.played == d.best for d in review.decisions)
    assert review.total_cost == 0 and review.accuracy == 100 and review.costliest() == []
    assert review.chart()[-1] == review.final_score == records.replay(record).score(0).total


@pytest.mark.slow  # nine games played and reviewed: left out by pytest -m "not slow"
def test_the_game_figures_order_random_greedy_and_strong_play() -> None:
    """Seeded solo games of each player: the accuracy and the error rate order them as their
    strength does, game by game; each game's costs are what its decisions gave away. (The
    strong player of these games has a seed of its own, not the review's: its close calls are
    not always the review's, and the valuation futures charge them what they are worth.)"""
    reviews = {
        bot: [review_game(records.record_of(play_game("tres-fute", 1, bot, 1, k))) for k in range(3)]
        for bot in ("random", "greedy", "strong")
    }
    for random_, greedy, strong in zip(*reviews.values(), strict=True):
        assert random_.accuracy < greedy.accuracy < strong.accuracy
        assert random_.error_rate > greedy.error_rate > strong.error_rate
    # A strong game's cost spreads by about 8 points from game to game (close calls that the
    # player's seed and the review's settle apart: sd 8.1 on 100 held-out games of seed 1001,
    # mean 0.2); the goal of 3 points a game at most is the benchmark's mean (docs/review.md).
    for strong in reviews["strong"]:
        assert abs(strong.total_cost) <= 20 and strong.level in ("world_class", "expert")
    assert statistics.mean(r.total_cost for r in reviews["strong"]) <= 6
    # a strong game has a decision labelled a mistake rarely (92-100 % of held-out games none):
    # once at most in these three (the first form charged 40 % of such games one or more)
    assert sum(r.counts()["mistake"] + r.counts()["blunder"] for r in reviews["strong"]) <= 1
    assert all(r.level in ("novice", "beginner") for r in reviews["random"])


@pytest.mark.slow  # 24 games played and reviewed: left out by pytest -m "not slow"
def test_the_costs_of_greedy_and_random_games_add_up_and_their_luck_averages_zero() -> None:
    """A cost is the expected points a decision gave away, so over many games the final score
    plus the total cost comes back to the expected final score at the first decision (the dice
    averaging out). On 12 seeded games of each of the random and greedy players of Très futé,
    the mean of final + cost − start is within 20 points (a game's own luck spreads it by about
    30, so 24 games leave about 7 of chance; benchmarks/review_quality.py measures it on held-out
    seeds: docs/review.md). The first form of the review, whose costs held the winner's curse,
    charged greedy games 61 points too much on average. Luck, what the dice gave above or below
    what was expected, has a mean within three standard errors of 0 over each player's games."""
    gaps = []
    for bot in ("random", "greedy"):
        reviews = [review_game(records.record_of(play_game("tres-fute", 1, bot, 1, k))) for k in range(12)]
        gaps += [review.final_score + review.total_cost - review.start_value for review in reviews]
        lucks = [review.luck for review in reviews]
        se = statistics.stdev(lucks) / len(lucks) ** 0.5
        assert 0 < se < 30
        assert abs(statistics.mean(lucks)) <= 3 * se, bot
    assert abs(statistics.mean(gaps)) <= 20


def test_a_decision_is_labelled_by_its_cost_and_the_costliest_come_first() -> None:
    assert [label(c) for c in (0, 0.4, 0.5, 1.9, 2, 4.9, 5, 9.9, 10, 40)] == [
        "best",
        "best",
        "good",
        "good",
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]
    assert [name for name, _ in LABELS] == ["best", "good", "inaccuracy", "mistake", "blunder"]
    # a cost is worse than good only when it clears twice its standard error, and then labelled
    # by what it certainly cost: the cost less twice its standard error
    assert [
        label(3.0, 0.6),
        label(3.0, 0.4),
        label(12.0, 5.1),
        label(12.0, 4.9),
        label(1.0, 3.0),
        label(9.0, 2.5),
        label(13.0, 1.0),
        label(13.0, 1.6),
    ] == ["good", "inaccuracy", "good", "inaccuracy", "good", "inaccuracy", "blunder", "mistake"]
    assert [level(r) for r in (0.1, 0.5, 1.0, 2.0, 3.0, 4.5, 5.5, 7.0)] == [
        "world_class",
        "expert",
        "advanced",
        "intermediate",
        "casual",
        "apprentice",
        "novice",
        "beginner",
    ]
    assert [name for name, _ in LEVELS] == [level(r) for r in (0.1, 0.5, 1.0, 2.0, 3.0, 4.5, 5.5, 7.0)]
    review = review_game(records.record_of(play_game("tres-fute", 1, "greedy", 1, 0)))
    costs = [d.cost for d in review.decisions]
    # a cost below 0 (the move played found better than the choice) is within its noise: best
    assert all(d.label == "best" for d in review.decisions if d.cost < 0)
    worst = review.costliest()
    assert [d.cost for d in worst] == sorted(costs, reverse=True)[:3]
    assert len(review.chart()) == len(review.decisions) + 1
    assert review.chart()[1:-1] == [d.played_value for d in review.decisions[:-1]]
    assert review.chart()[-1] == review.final_score, "the chart ends on the final score"
    # what it takes to show the position: the record's move number, the dice as they were
    record = records.record_of(play_game("tres-fute", 1, "greedy", 1, 0))
    first = worst[0]
    before = records.replay(record, stop=first.move_number)
    assert [(d.die, d.value, d.where) for d in first.dice] == [
        (d, v, str(w)) for d, v, w in zip(before.dice, before.values, before.where, strict=True)
    ]
    assert before.is_legal(first.played, 0) and before.is_legal(first.best, 0)
    assert first.round == before.round and review.decisions[0].round == 1


def test_moves_are_valued_on_the_same_valuation_futures_until_their_difference_is_precise() -> None:
    """The strong choice and every move asked about are valued on the same futures, drawn anew
    (not those that chose the move), until each difference to the choice is measured within
    ERROR_SHARE_DRAWN of the valuation's own error for that cost, or MOST_FUTURES futures are
    spent; the same position gives the same figures."""
    game = Game("tres-fute", 1, seed=8)
    for _ in range(6):
        game.play(GreedyBot(0).choose(game, 0), 0)
    moves = tuple(game.legal_moves(0))
    appraisal = appraise(game, 0, moves)
    assert appraisal.choice == StrongBot(0).choose(game, 0)
    assert set(appraisal.values) == set(moves)
    assert appraisal.best.difference_se == 0 and appraisal.cost(appraisal.choice) == 0
    top = appraisal.best.expected
    for move, v in appraisal.values.items():
        if move != appraisal.choice:
            precise = v.difference_se <= ERROR_SHARE_DRAWN * valuation_error(top - v.expected) + 1e-9
            assert v.futures == MOST_FUTURES["tres-fute"] or precise
    # a move's value does not depend on what else is valued beside it (the same futures)
    some = moves[-1]
    alone = appraise(game, 0, (some,))
    assert alone.values[some].expected == pytest.approx(appraisal.values[some].expected, abs=1e-3)
    assert alone.best.expected == pytest.approx(top, abs=1e-3)
    again = appraise(game, 0, moves)
    assert {m: v.expected for m, v in again.values.items()} == {m: v.expected for m, v in appraisal.values.items()}
    # the list the hint shows: the strong choice first, no move worth more than it
    ranked = appraisal.expected()
    assert ranked[0][0] == appraisal.choice and all(value <= ranked[0][1] for _, value, _ in ranked)
    assert sorted(str(m) for m, _, _ in ranked) == sorted(str(m) for m in moves)


def test_valuation_futures_go_one_turn_further_than_the_choices() -> None:
    """The strong player's futures of a pick end with its turn; the valuation futures play the
    next turn too (MORE_TURNS, here the solo player's passive pick), on dice of their own, so a
    choice's value comes from other positions than those that chose it."""
    game = Game("tres-fute", 1, seed=3)
    while game.round < 2 or game.phase != "choose":
        game.play(GreedyBot(0).choose(game, 0), 0)
    after = game.copy(dice="external")
    after.play(game.legal_moves(0)[0], 0)
    network = shipped_network("tres-fute")

    def rounds_of(more_turns: int) -> set[int]:
        ends: list[Game] = []

        def worth(games: list[Game]) -> list[float]:
            ends.extend(games)
            return [0.0] * len(games)

        future_values([after], list(range(8)), 0, network, worth, more_turns=more_turns)
        return {end.round for end in ends}

    assert MORE_TURNS == 1
    assert rounds_of(0) == {2}, "the analysis's futures end within the turn"
    assert rounds_of(MORE_TURNS) == {3}, "the valuation futures play the passive pick too"


def test_the_lift_raises_every_value_alike_and_the_difference_scale_scales_the_costs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The expected final scores shown are the strong player's: the valuation futures' values
    (the network's own play) plus the lift fitted on every kind of sheet (``bots/lift.py``),
    read after the strong choice, the same for every move of a position. The network's values
    are compressed or stretched, so each move's difference to the choice is multiplied by the
    lift's difference scale for the rounds left: a cost is the futures' difference times that
    number (measured here on one batch of futures: how many more are drawn depends on it)."""
    monkeypatch.setattr(appraisal, "MOST_FUTURES", appraisal.FIRST_FUTURES)
    game = Game("tres-fute", 1, seed=8)
    for _ in range(6):
        game.play(GreedyBot(0).choose(game, 0), 0)
    moves = tuple(game.legal_moves(0))[:4]
    shown = appraise(game, 0, moves)
    after = game.copy(dice="external", history=False)
    after.play(shown.choice, 0)
    lifted = appraisal.lift(game, 0, after)
    scale = appraisal.difference_scale(game)
    fitted = shipped_lift(game)
    assert fitted is not None and scale == fitted.difference_scale[game.rounds - game.round] != 1.0
    assert lifted > 0, "the strong player scores more than the network's own play"
    monkeypatch.setattr(appraisal, "lift", lambda *args, **kwargs: 0.0)
    monkeypatch.setattr(appraisal, "difference_scale", lambda *args, **kwargs: 1.0)
    raw = appraise(game, 0, moves)
    assert shown.best.expected == pytest.approx(raw.best.expected + lifted, abs=1e-6)
    for move in moves:
        assert shown.cost(move) == pytest.approx(scale * raw.cost(move), abs=1e-6)
        assert shown.values[move].difference_se == pytest.approx(scale * raw.values[move].difference_se, abs=1e-6)


def test_every_costly_decision_says_why_in_words() -> None:
    """Each decision costing WHY_FROM points or more says, in one sentence of the reader's
    language (its numbers too), what separated the two moves."""
    review = review_game(records.record_of(play_game("tres-fute", 1, "greedy", 5, 1)))
    costly = [d for d in review.decisions if d.cost >= WHY_FROM and d.played != d.best]
    assert costly and all(d.reason is not None for d in costly)
    assert all(d.reason is None for d in review.decisions if d.cost < WHY_FROM)
    for d in costly:
        assert d.reason is not None
        with use_language("en"):
            english = explain(d.reason)
        with use_language("fr"):
            french = explain(d.reason)
        with use_language("de"):
            german = explain(d.reason)
        assert english and french and english != french and "{" not in english + french
        assert not re.search(r"\d\.\d", french + german), "a decimal comma in French and German: 8,7 points"
    data = review.to_json(explain=explain)
    assert all("why" in e for e in data["decisions"] if e["cost"] >= WHY_FROM)


def test_a_practice_answer_is_right_within_half_a_point_of_the_best() -> None:
    game = Game("tres-fute", 1, seed=8)
    for _ in range(6):
        game.play(GreedyBot(0).choose(game, 0), 0)
    best = StrongBot(0).choose(game, 0)
    right = judge(game, 0, best)
    assert right.right and right.cost == 0 and right.best == best
    worst = min(game.legal_moves(0), key=lambda m: judge(game, 0, m).expected)
    wrong = judge(game, 0, worst)
    assert not wrong.right and wrong.cost > 0.5 and wrong.reason is not None


@pytest.mark.parametrize("game_id", ["tres-fute", "vraiment-tres-fute"])
def test_what_each_computer_player_would_play(game_id: str) -> None:
    game = Game(game_id, 1, seed=4)
    for _ in range(6):
        game.play(GreedyBot(0).choose(game, 0), 0)
    greedy, strong = computer_choices(game)
    assert (greedy.bot, strong.bot) == ("greedy", "strong")
    assert greedy.move == GreedyBot(0).choose(game, 0)
    assert strong.move == StrongBot(0).choose(game, 0)
    assert strong.expected >= greedy.expected - 1e-9 or greedy.move != strong.move
    if greedy.move == strong.move:
        assert greedy.expected == strong.expected


def test_no_choices_when_nobody_decides() -> None:
    game = records.replay(records.record_of(play_game("tres-fute", 1, "random", 1, 0)))
    with pytest.raises(ValueError, match="no player decides"):
        computer_choices(game)


# --- tresfute review ---------------------------------------------------------------------


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def two_player_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = play_game("tres-fute", 2, "greedy", 5, 0)
    path = tmp_path_factory.mktemp("review") / "game.json"
    path.write_text(records.dumps(records.record_of(game, ["Alice", "Bob"])))
    return path


def test_review_json_follows_its_schema(two_player_record: Path) -> None:
    code, out = run("review", str(two_player_record), "--player", "2", "--json", "--lang", "en")
    assert code == 0
    data = json.loads(out)
    record = records.loads(two_player_record.read_text())
    assert data["format"] == "tresfute-review/21" and data["game"] == "tres-fute"
    assert (data["player"], data["name"]) == (2, "Bob")
    numbers = [n for n, entry in enumerate(record.moves, start=1) if entry.startswith("2:")]
    assert [d["move_number"] for d in data["decisions"]] == numbers
    for d in data["decisions"]:
        assert d["label"] in data["labels"] and (d["cost"] >= 0 or d["label"] == "best")
        assert d["cost"] == pytest.approx(d["best_expected"] - d["played_expected"], abs=0.02)
        assert d["cost"] == 0 or d["played"] != d["best"]
        assert record.moves[d["move_number"] - 1] == f"2:{d['played']}"
        assert {"played_text", "best_text", "label_text", "dice", "round", "legal_moves", "cost_se"} <= d.keys()
        assert ("why" in d) == (d["cost"] >= WHY_FROM and d["played"] != d["best"])
    assert len(data["chart"]) == len(data["decisions"]) + 1
    assert data["chart"][-1] == records.replay(record).score(1).total == data["final_score"]
    # the figures add up: final score = start + luck − cost + the valuation's own error
    total = data["start_expected"] + data["luck"] - data["total_cost"] + data["valuation_error"]
    assert total == pytest.approx(data["final_score"], abs=0.05)
    assert sum(data["labels"].values()) == len(data["decisions"])
    assert len(data["costliest"]) <= 3 and 0 <= data["accuracy"] <= 100
    assert data["level"] in [name for name, _ in LEVELS] and data["level_text"]
    assert data["error_rate"] >= 0
    assert data["thresholds"] == {"best": 0.5, "good": 2.0, "inaccuracy": 5.0, "mistake": 10.0}


def test_review_prints_a_table_and_a_chart_in_french_or_english(two_player_record: Path) -> None:
    code, out = run("review", str(two_player_record))
    assert code == 0
    assert "Analyse — Alice" in out and "précision" in out and "Score final attendu" in out and "●" in out
    assert "y@r" not in out and "w>" not in out  # moves in words, never the notation
    code, out = run("review", str(two_player_record), "--lang", "en")
    assert code == 0
    assert "Review of Alice" in out and "accuracy" in out and "Expected final score through the game" in out
    words = " ".join(out.split())  # (the terminal's lines wrap)
    assert "from the dice (luck)" in words and "from the decisions" in words and "final score 150" in words


def test_review_refuses_bad_input_in_one_line(tmp_path: Path, two_player_record: Path) -> None:
    text = two_player_record.read_text()
    data = json.loads(text)
    unfinished = {**data, "moves": data["moves"][:20]}
    unfinished.pop("result")
    illegal = {**data, "moves": [*data["moves"][:5], "1:y@r9c9", *data["moves"][6:]]}
    cases = {
        "truncated.json": (text[: len(text) // 2], "not valid JSON"),
        "illegal.json": (json.dumps(illegal), "move 6"),
        "unfinished.json": (json.dumps(unfinished), "not finished"),
    }
    for name, (content, reason) in cases.items():
        path = tmp_path / name
        path.write_text(content)
        code, out = run("review", str(path), "--lang", "en")
        assert code != 0 and reason in out and len(out.strip().splitlines()) == 1, (name, out)
    code, out = run("review", str(two_player_record), "--player", "3", "--lang", "en")
    assert code != 0 and out.strip() == "Error: there is no player 3 in this game of 2"
    code, out = run("review", str(two_player_record), "--player", "3")
    assert code != 0 and "il n’y a pas de joueur 3" in out
    code, out = run("review", str(tmp_path / "missing.json"), "--lang", "en")
    assert code != 0 and "cannot read" in out


def test_progress_is_told_after_each_decision() -> None:
    record = records.record_of(play_game("tres-fute", 2, "greedy", 1, 0))
    told: list[tuple[int, int]] = []
    review = review_game(record, 1, progress=lambda done, total: told.append((done, total)))
    n = len(review.decisions)
    assert n == sum(1 for entry in record.moves if entry.startswith("2:"))
    assert told == [(k, n) for k in range(1, n + 1)]


def test_choices_for_a_passive_player_of_a_game_with_others() -> None:
    """In a game with others, the passive players decide too: the panel answers for each."""
    game = Game("vraiment-tres-fute", 3, seed=2)
    while game.phase != "passive":
        p = game.to_move
        assert p is not None
        game.play(GreedyBot(0).choose(game, p), p)
    for p in game.players_to_move:
        greedy, strong = computer_choices(game, p)
        assert game.is_legal(greedy.move, p) and game.is_legal(strong.move, p)
        assert strong.move == StrongBot(0).choose(game, p)
    with pytest.raises(ValueError, match="no player decides"):
        computer_choices(game, game.active)


def test_review_practice_in_the_terminal(tmp_path: Path) -> None:
    """`tresfute review --practice --inaccuracies`: each mistake, blunder and inaccuracy's
    position again, costliest first; a wrong answer is asked again, "?" shows the best move
    (tests/test_practice.py: the rest of the practice)."""
    path = tmp_path / "game.json"
    path.write_text(records.dumps(records.record_of(play_game("tres-fute", 1, "greedy", 5, 1), ["Ana"])))
    record = records.loads(path.read_text())
    review = review_game(record)
    costly = practice_queue(review, inaccuracies=True)
    first, second = costly[:2]
    right = str(records.replay(record, stop=first.move_number).legal_moves(0).index(first.best) + 1)
    wrong = str(records.replay(record, stop=second.move_number).legal_moves(0).index(second.played) + 1)
    result = CliRunner().invoke(
        main,
        ["review", str(path), "--practice", "--inaccuracies", "--lang", "en"],
        input=f"99\n{right}\n{wrong}\n?\n\n",
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Not one of the moves listed" in out
    assert "Right:" in out and "Not quite:" in out and "The best move:" in out
    assert "1 of 2 positions found." in out


@pytest.mark.parametrize("game_id", ["tres-fute", "vraiment-tres-fute"])
def test_the_hint_the_panel_and_the_review_agree(game_id: str) -> None:
    """One analysis everywhere: on the same position, the hint's best move, the panel's strong
    choice and the review's best move are the same move, with the same expected final score."""
    game = Game(game_id, 1, seed=11)
    for _ in range(5):
        game.play(GreedyBot(0).choose(game, 0), 0)
    hint = appraise(game, 0, searched=True).expected()
    greedy, strong = computer_choices(game, 0)
    decision = decision_of(game, 0, greedy.move, 1)
    assert hint[0][0] == strong.move == decision.best
    # (up to float32 rounding: a batch's last bits depend on how many positions it holds)
    assert hint[0][1] == pytest.approx(strong.expected, abs=1e-3) == pytest.approx(decision.best_value, abs=1e-3)
    assert greedy.expected == pytest.approx(decision.played_value, abs=1e-3)


# --- luck, the decisions that mattered, the reasons' words ---------------------------------


def test_luck_and_cost_add_up_to_the_final_score() -> None:
    """The dice's luck (each roll's value after it less the value before it) and the costs add
    up, by construction, to the final score, but for the valuation's own error where no dice
    fell; the terminal and the JSON say both."""
    record = records.record_of(play_game("tres-fute", 1, "random", 1, 0))
    review = review_game(record)
    assert len(review.rolled) == len(review.decisions) and any(review.rolled) and not all(review.rolled)
    total = review.start_value + review.luck - review.total_cost + review.valuation_error
    assert total == pytest.approx(review.final_score, abs=1e-6)
    steps = review.steps()
    assert review.luck == pytest.approx(sum(step for step, rolled in steps if rolled))
    assert review.chart()[-1] == review.final_score
    data = review.to_json()
    assert data["luck"] == round(review.luck, 2) and data["valuation_error"] == round(review.valuation_error, 2)


def random_positions(seed: int, game_id: str = "tres-fute") -> list[Game]:
    """Every position of a seeded solo game of the random player where it decides."""
    from tresfute.bots import RandomBot

    game, bot, found = Game(game_id, 1, seed=seed), RandomBot(seed), []
    while not game.is_over:
        found.append(game.copy())
        game.play(bot.choose(game, 0), 0)
    return found


def test_only_decisions_that_mattered_count_in_the_error_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    """A decision with a single legal move, or whose moves the analysis values all within half a
    point (searched or not), decided nothing: it is not counted in the error rate. (The engine
    plays a lone legal move itself, so the analysis is given here.)"""
    from tresfute.bots import review as review_module
    from tresfute.bots.appraisal import Appraisal, Value
    from tresfute.bots.strong import Estimate

    game = random_positions(0)[3]
    first, second = game.legal_moves(0)[:2]

    def analysed(*estimates: Estimate) -> None:
        values = {e.move: Value(e.value, 0.0 if e.move == first else 0.1, 8) for e in estimates}
        monkeypatch.setattr(review_module, "appraise", lambda *args, **kwargs: Appraisal(0, list(estimates), values))

    analysed(Estimate(first, 250.0, True))
    assert not decision_of(game, 0, first, 1).mattered
    analysed(Estimate(first, 250.0, True), Estimate(second, 249.6, True))
    assert not decision_of(game, 0, second, 1).mattered
    analysed(Estimate(first, 250.0, True), Estimate(second, 249.0, False))
    assert decision_of(game, 0, second, 1).mattered


def english(reason: object) -> str:
    with use_language("en"):
        return explain(reason)  # type: ignore[arg-type]


def after_move(game: Game, move: object) -> Game:
    after = game.copy(dice="external", history=False)
    after.play(move, 0)  # type: ignore[arg-type]
    return after


def sent(game: Game, move: object) -> int:
    """How many dice of the hand ``move`` sends to the silver platter."""
    after = after_move(game, move)
    return sum(1 for a, b in zip(game.where, after.where, strict=True) if a == "hand" and b == "platter")


def test_one_die_sent_to_the_platter_is_one_die_and_never_next_picks_where_none_is_left() -> None:
    """One die sent to the silver platter is "1 die" ("1 dé"), never "1 dice"; and where the
    turn has no pick left (a pass at the last roll), no "next picks" at all."""
    singular = last = False
    for game in random_positions(0) + random_positions(1):
        if game.phase != "choose":
            continue
        picks = [m for m in game.legal_moves(0) if m.kind is MoveKind.PICK]
        lowest = min(picks, key=lambda m: game.values[game.dice.index(m.die or "")], default=None)
        for played in picks:
            if lowest is None or sent(game, played) != 1 or sent(game, lowest) != 0 or game.picks >= 2:
                continue
            reason = why(game, 0, lowest, played, 5.0)
            if "your move sends" in str(reason):  # (a cause; "platter" alone is in other reasons too)
                assert "sends 1 die to the silver platter" in english(reason)
                with use_language("fr"):
                    assert "envoie 1 dé sur le plateau" in explain(reason)
                singular = True
    assert singular
    # a turn's third pick: the dice left go to the platter (or, where the turn ended, back to the
    # next turn's hand) whatever the pick, and no pick is left: never "next picks"
    for game in random_positions(0, "vraiment-tres-fute") + random_positions(1, "vraiment-tres-fute"):
        if game.phase != "choose" or game.picks != 2:
            continue
        picks = [m for m in game.legal_moves(0) if m.kind is MoveKind.PICK]
        for best in picks:
            for played in picks:
                if sent(game, played) > sent(game, best):
                    reason = why(game, 0, best, played, 5.0)
                    assert "next picks" not in english(reason), english(reason)
                    last = True
    assert last


def test_an_action_kept_at_the_last_decision_is_lost() -> None:
    """The game's last decision: "done" with a +1 left is not "worth more than kept", the
    action left is lost with the game's end (and counted in the singular or the plural)."""
    for game in random_positions(2):
        moves = game.legal_moves(0)
        done = next((m for m in moves if m.kind is MoveKind.DONE), None)
        extra = next((m for m in moves if m.kind is MoveKind.EXTRA), None)
        if done is not None and extra is not None and after_move(game, done).is_over:
            _, gap = measure(game, 0, extra, done)  # the cost: nothing is left to the futures
            text = english(why(game, 0, extra, done, gap))
            left = game.sheets[0].available(ActionKind.PLUS_ONE)
            assert "unused at the end of the game is lost" in text and "worth more than kept" not in text
            assert f"leaves {left} action{'s' if left > 1 else ''} unused" in text
            return
    pytest.fail("no last decision with a +1 left in this game")


def test_a_fox_earned_later_is_postponed_not_given_up() -> None:
    for game in random_positions(0):
        moves = game.legal_moves(0)
        fox = next((m for m in moves if len(after_move(game, m).sheets[0].foxes) > len(game.sheets[0].foxes)), None)
        other = next((m for m in moves if len(after_move(game, m).sheets[0].foxes) == len(game.sheets[0].foxes)), None)
        if fox is not None and other is not None and other.kind is fox.kind:
            later, never = after_move(game, fox), after_move(game, other)  # the game's end: the fox, or none
            assert "postpones" in english(why(game, 0, fox, other, 5.0, final=later))
            assert "gives up" in english(why(game, 0, fox, other, 5.0, final=never))
            assert "gives up" not in english(why(game, 0, fox, other, 5.0))  # no end known: "does not"
            return
    pytest.fail("no fox in this game")


def test_each_game_names_its_error_rate_on_its_own_levels() -> None:
    """A decision of Vraiment très futé has more at stake: its greedy games lost up to 5.9 points
    a decision on tuning seeds 3110 and 3112, where Très futé's bounds begin *novice* and random
    play begins. Its own bounds (``VTF_LEVELS``, the same names) put them apart; the review reads
    its game's."""
    from tresfute.bots.review import VTF_LEVELS, Decision, Review, levels_of
    from tresfute.rules import parse_move

    assert [name for name, _ in VTF_LEVELS] == [name for name, _ in LEVELS]
    assert levels_of("tres-fute") == LEVELS and levels_of("vraiment-tres-fute") == VTF_LEVELS
    assert level(5.0) == level(5.0, "tres-fute") == "novice"
    assert level(5.0, "vraiment-tres-fute") == "apprentice" and level(6.5, "vraiment-tres-fute") == "novice"
    for game_id, named in (("tres-fute", "novice"), ("vraiment-tres-fute", "apprentice")):
        d = Decision(1, 1, "choose", (), 6, parse_move("b@r1c2"), parse_move("y@r1c1"), 94.5, 100.0, 0.5)
        review = Review(game_id, 0, "Ana", 100, 100.0, [d])
        assert review.error_rate == pytest.approx(5.5)
        assert review.level == review.to_json()["level"] == named

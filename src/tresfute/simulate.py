"""Play many seeded games between bots and summarise the scores."""

from __future__ import annotations

import hashlib
import multiprocessing
import statistics
import time
from typing import Any, NamedTuple

from .bots import make_bot
from .progress import Progress
from .rules import Game
from .rules.game import get_spec
from .rules.kinds import AREA_NAMES
from .rules.sheet import Score


def derived_seed(seed: int, game_number: int, purpose: str) -> int:
    """A seed for one game (or one bot in it), stable across runs and machines."""
    digest = hashlib.sha256(f"tresfute:{purpose}:{seed}:{game_number}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def bot_seat(players: int, game_number: int) -> int:
    """The seat of the bot under test when it plays against others: it moves round the table
    from game to game, so that no seat's advantage counts for or against it."""
    return game_number % players


def play_game(
    game_id: str,
    players: int,
    bot: str,
    seed: int,
    game_number: int,
    opponents: str | None = None,
    timings: list[float] | None = None,
) -> Game:
    """One seeded game: ``bot`` in every seat, or in :func:`bot_seat` with ``opponents`` in the
    others. ``timings``, if given, gets the seconds each of ``bot``'s decisions took."""
    game = Game(game_id, players=players, seed=derived_seed(seed, game_number, "game"))
    names = [bot] * players
    if opponents is not None:
        names = [bot if p == bot_seat(players, game_number) else opponents for p in range(players)]
    bots = [make_bot(name, derived_seed(seed, game_number, f"bot{p}")) for p, name in enumerate(names)]
    timed = [timings is not None and name == bot for name in names]
    while not game.is_over:
        p = game.to_move
        assert p is not None and p >= 0
        if timed[p]:
            start = time.perf_counter()
            move = bots[p].choose(game, p)
            timings.append(time.perf_counter() - start)  # type: ignore[union-attr]
        else:
            move = bots[p].choose(game, p)
        game.play(move, p)
    return game


def win_share(winners: list[int], seat: int) -> float:
    """What a game counts towards a seat's win rate: 1 for a win, 1/k for a k-way tie, else 0."""
    return 1 / len(winners) if seat in winners else 0.0


class GameResult(NamedTuple):
    """What a run keeps of one game: its scores, its winners, the decisions taken, the seconds
    it took."""

    scores: list[Score]
    winners: list[int]
    decisions: int
    seconds: float
    decision_seconds: list[float]  # each decision of the bot under test


def _play_one(args: tuple[str, int, str, int, int, str | None]) -> GameResult:
    start = time.perf_counter()
    timings: list[float] = []
    game = play_game(*args, timings=timings)
    decisions = sum(1 for h in game.history if not h.forced)
    return GameResult(game.scores(), game.winners(), decisions, time.perf_counter() - start, timings)


def _play_many(
    game_id: str,
    players: int,
    bot: str,
    games: int,
    seed: int,
    workers: int = 1,
    opponents: str | None = None,
    progress: Progress | None = None,
) -> list[GameResult]:
    """The games of a run, in order; with several workers, on as many processes (one core
    each). ``progress`` is told of each finished game."""
    get_spec(game_id)
    if games < 1:
        raise ValueError("play at least one game")
    if workers < 1:
        raise ValueError("use at least one worker")
    if opponents is not None and players < 2:
        raise ValueError("opponents need a game of 2 to 4 players")
    jobs = [(game_id, players, bot, seed, n, opponents) for n in range(games)]
    finished: list[GameResult] = []
    if workers == 1:
        for job in jobs:
            finished.append(_play_one(job))
            if progress is not None:
                progress(1)
        return finished
    with multiprocessing.Pool(workers) as pool:
        for result in pool.imap(_play_one, jobs, chunksize=1):
            finished.append(result)
            if progress is not None:
                progress(1)
    return finished


def _figures(game_id: str, players: int, bot: str, seed: int, finished: list[GameResult]) -> dict[str, Any]:
    """What both commands report. Scores are per sheet: a 2-player game adds two scores."""
    scores = [s for g in finished for s in g.scores]
    totals = [s.total for s in scores]
    return {
        "game": game_id,
        "players": players,
        "bot": bot,
        "seed": seed,
        "games": len(finished),
        "mean": statistics.fmean(totals),
        "sd": statistics.pstdev(totals),
        "mean_per_area": {AREA_NAMES[a]: statistics.fmean(s.areas[a] for s in scores) for a in get_spec(game_id).areas},
        "mean_foxes": statistics.fmean(s.foxes for s in scores),
    }


def simulate(
    game_id: str, players: int, bot: str, games: int, seed: int, progress: Progress | None = None
) -> dict[str, Any]:
    """The figures of ``tresfute simulate``."""
    start = time.perf_counter()
    finished = _play_many(game_id, players, bot, games, seed, progress=progress)
    seconds = time.perf_counter() - start
    data = _figures(game_id, players, bot, seed, finished)
    totals = [s.total for g in finished for s in g.scores]
    data.update(min=min(totals), max=max(totals), games_per_second=games / seconds if seconds else 0.0)
    return data


def bench(
    game_id: str,
    players: int,
    bot: str,
    games: int,
    seed: int,
    workers: int = 1,
    opponents: str | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """The strength benchmark: every figure of ``tresfute bench`` (see docs/bench.md).

    With ``opponents``, ``bot`` plays one seat (:func:`bot_seat`) and that bot the others; the
    score figures are then ``bot``'s own, with its win rate (a tie shared: 1/2 for a 2-way tie)
    and the opponents' mean. ``scores`` lists each game's totals by seat. Speeds are per core:
    each game is timed in the process that plays it.
    """
    spec = get_spec(game_id)
    finished = _play_many(game_id, players, bot, games, seed, workers, opponents, progress)
    seconds = sum(g.seconds for g in finished)
    measured = finished  # the sheets the figures are about: every sheet, or the bot's own
    data: dict[str, Any] = {}
    if opponents is not None:
        seats = [bot_seat(players, n) for n in range(len(finished))]
        measured = [g._replace(scores=[g.scores[seat]]) for g, seat in zip(finished, seats, strict=True)]
        shares = [win_share(g.winners, seat) for g, seat in zip(finished, seats, strict=True)]
        others = [s.total for g, seat in zip(finished, seats, strict=True) for i, s in enumerate(g.scores) if i != seat]
        data.update(
            opponents=opponents,
            win_rate=statistics.fmean(shares),
            opponents_mean=statistics.fmean(others),
            bot_seats=[seat + 1 for seat in seats],
        )
    data = _figures(game_id, players, bot, seed, measured) | data
    data["scores"] = [[s.total for s in g.scores] for g in finished]
    totals = sorted(s.total for g in measured for s in g.scores)
    # Deciles read between the scores played ("inclusive"): never below the lowest nor above
    # the highest, as the default method's are with few games.
    deciles = statistics.quantiles(totals, n=10, method="inclusive") if len(totals) > 1 else [totals[0]] * 9
    bands = {band.label_en: 0 for band in spec.solo_rating}
    for total in totals:
        bands[spec.rating(total).label_en] += 1
    decisions = sum(g.decisions for g in finished)
    data.update(
        se=data["sd"] / len(totals) ** 0.5,
        p10=deciles[0],
        p50=statistics.median(totals),
        p90=deciles[-1],
        rating_bands={label: n / len(totals) for label, n in bands.items()},
        decisions_per_second=decisions / seconds,
        seconds_per_game=seconds / games,
    )
    times = sorted(t for g in finished for t in g.decision_seconds)
    if times:  # the bot under test's own decisions (a decision with one legal move is the engine's)
        data.update(
            median_ms_per_decision=1000 * statistics.median(times),
            p90_ms_per_decision=1000 * times[min(len(times) - 1, int(0.9 * len(times)))],
        )
    return data

"""Play many seeded games between bots and summarise the scores."""

from __future__ import annotations

import hashlib
import multiprocessing
import statistics
import time
from typing import Any, NamedTuple

from .bots import make_bot
from .rules import Game
from .rules.game import get_spec
from .rules.kinds import AREA_NAMES
from .rules.sheet import Score


def derived_seed(seed: int, game_number: int, purpose: str) -> int:
    """A seed for one game (or one bot in it), stable across runs and machines."""
    digest = hashlib.sha256(f"tresfute:{purpose}:{seed}:{game_number}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def play_game(game_id: str, players: int, bot: str, seed: int, game_number: int) -> Game:
    game = Game(game_id, players=players, seed=derived_seed(seed, game_number, "game"))
    bots = [make_bot(bot, derived_seed(seed, game_number, f"bot{p}")) for p in range(players)]
    while not game.is_over:
        p = game.to_move
        assert p is not None and p >= 0
        game.play(bots[p].choose(game, p), p)
    return game


class GameResult(NamedTuple):
    """What a run keeps of one game: its scores, the decisions taken, the seconds it took."""

    scores: list[Score]
    decisions: int
    seconds: float


def _play_one(args: tuple[str, int, str, int, int]) -> GameResult:
    start = time.perf_counter()
    game = play_game(*args)
    decisions = sum(1 for h in game.history if not h.forced)
    return GameResult(game.scores(), decisions, time.perf_counter() - start)


def _play_many(game_id: str, players: int, bot: str, games: int, seed: int, workers: int = 1) -> list[GameResult]:
    """The games of a run; with several workers, on as many processes (one core each)."""
    get_spec(game_id)
    if games < 1:
        raise ValueError("play at least one game")
    if workers < 1:
        raise ValueError("use at least one worker")
    jobs = [(game_id, players, bot, seed, n) for n in range(games)]
    if workers == 1:
        return [_play_one(job) for job in jobs]
    with multiprocessing.Pool(workers) as pool:
        return pool.map(_play_one, jobs, chunksize=1)


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


def simulate(game_id: str, players: int, bot: str, games: int, seed: int) -> dict[str, Any]:
    """The figures of ``tresfute simulate``."""
    start = time.perf_counter()
    finished = _play_many(game_id, players, bot, games, seed)
    seconds = time.perf_counter() - start
    data = _figures(game_id, players, bot, seed, finished)
    totals = [s.total for g in finished for s in g.scores]
    data.update(min=min(totals), max=max(totals), games_per_second=games / seconds if seconds else 0.0)
    return data


def bench(game_id: str, players: int, bot: str, games: int, seed: int, workers: int = 1) -> dict[str, Any]:
    """The strength benchmark: every figure of ``tresfute bench`` (see docs/bench.md).

    Speeds are per core: each game is timed in the process that plays it.
    """
    spec = get_spec(game_id)
    finished = _play_many(game_id, players, bot, games, seed, workers)
    seconds = sum(g.seconds for g in finished)
    data = _figures(game_id, players, bot, seed, finished)
    totals = sorted(s.total for g in finished for s in g.scores)
    deciles = statistics.quantiles(totals, n=10) if len(totals) > 1 else [totals[0]] * 9
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
    return data

"""Play many seeded games between bots and summarise the scores."""

from __future__ import annotations

import hashlib
import statistics
import time
from dataclasses import dataclass
from typing import Any

from .bots import make_bot
from .rules import Game, Score
from .rules.game import get_spec
from .rules.kinds import AREA_NAMES


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


@dataclass
class Summary:
    game: str
    players: int
    bot: str
    seed: int
    scores: list[Score]
    seconds: float

    def as_dict(self) -> dict[str, Any]:
        totals = [s.total for s in self.scores]
        spec = get_spec(self.game)
        return {
            "game": self.game,
            "players": self.players,
            "bot": self.bot,
            "seed": self.seed,
            "games": len(totals) // self.players,
            "mean": statistics.fmean(totals),
            "sd": statistics.pstdev(totals),
            "min": min(totals),
            "max": max(totals),
            "mean_per_area": {
                AREA_NAMES[a]: statistics.fmean(s.areas[a] for s in self.scores) for a in spec.areas
            },
            "mean_foxes": statistics.fmean(s.foxes for s in self.scores),
            "games_per_second": (len(totals) // self.players) / self.seconds if self.seconds else 0.0,
        }


def bench(game_id: str, players: int, bot: str, games: int, seed: int) -> dict[str, Any]:
    """The strength benchmark: every figure of ``tresfute bench`` (see docs/bench.md)."""
    spec = get_spec(game_id)
    if games < 1:
        raise ValueError("play at least one game")
    start = time.perf_counter()
    finished = [play_game(game_id, players, bot, seed, n) for n in range(games)]
    seconds = time.perf_counter() - start
    scores = [s for g in finished for s in g.scores()]
    totals = sorted(s.total for s in scores)
    decisions = sum(1 for g in finished for h in g.history if not h.forced)
    deciles = statistics.quantiles(totals, n=10) if len(totals) > 1 else [totals[0]] * 9
    sd = statistics.pstdev(totals)
    bands = {band.label_en: 0 for band in spec.solo_rating}
    for total in totals:
        bands[spec.rating(total).label_en] += 1
    return {
        "game": game_id, "players": players, "bot": bot, "seed": seed, "games": games,
        "mean": statistics.fmean(totals), "sd": sd, "se": sd / len(totals) ** 0.5,
        "p10": deciles[0], "p50": statistics.median(totals), "p90": deciles[-1],
        "mean_per_area": {AREA_NAMES[a]: statistics.fmean(s.areas[a] for s in scores) for a in spec.areas},
        "mean_foxes": statistics.fmean(s.foxes for s in scores),
        "rating_bands": {label: n / len(totals) for label, n in bands.items()},
        "decisions_per_second": decisions / seconds,
        "seconds_per_game": seconds / games,
    }


def simulate(game_id: str, players: int, bot: str, games: int, seed: int) -> Summary:
    """Scores are per player sheet: a 2-player game adds two scores."""
    get_spec(game_id)
    if games < 1:
        raise ValueError("play at least one game")
    start = time.perf_counter()
    scores: list[Score] = []
    for n in range(games):
        scores.extend(play_game(game_id, players, bot, seed, n).scores())
    return Summary(game_id, players, bot, seed, scores, time.perf_counter() - start)

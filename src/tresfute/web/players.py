"""A player's progress, without HTTP: who they are, their finished games and their figures.

A player is a secret their browser keeps (24 random bytes, URL-safe; the server keeps only its
SHA-256, as for seats) and a name; no password. The page sends the secret in ``X-Player-Token``
when it creates a game, takes a seat at an open table or enters the daily challenge, and the
seat is then the player's. The page moves the secret to another device as a link,
``/me#player=<secret>``: whoever holds it is that player.

How it works, at length: docs/design-web.md (web/players.py).
"""

from __future__ import annotations

import csv
import io
import json
import secrets
from collections import Counter
from datetime import UTC, datetime
from functools import cache
from importlib import resources
from typing import Any

from .. import records
from ..bots.review import FORMAT as REVIEW_FORMAT
from ..bots.why import theme_words
from ..i18n import _
from ..text import explain
from .challenge import entry_view
from .reviews import PRACTISED_FROM
from .store import PlayedSeat, Store, token_hash
from .tables import Host, TableError, replay_stored


@cache
def strong_scores() -> dict[str, Any]:
    """The strong computer player's scores in seeded solo games of each game
    (``bots/data/strong-scores.json``, made by ``scripts/strong_scores.py``)."""
    text = (resources.files("tresfute.bots") / "data" / "strong-scores.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def themes_over(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The review themes (``bots.why.THEMES``) over a player's reviewed games, costliest first:
    how many costly decisions and points each, in how many games, and the theme's title and tip
    in the reader's language."""
    found: dict[str, dict[str, Any]] = {}
    for g in games:
        for theme in g.get("themes", []):
            total = found.setdefault(theme["theme"], {"theme": theme["theme"], "count": 0, "cost": 0.0, "games": 0})
            total["count"] += theme["count"]
            total["cost"] += theme["cost"]
            total["games"] += 1
    for total in found.values():
        total["cost"] = round(total["cost"], 2)
        total["title"], total["tip"] = (explain(words) for words in theme_words(total["theme"]))
    return sorted(found.values(), key=lambda t: -t["cost"])


def _cell(text: str) -> str:
    """A CSV cell that a spreadsheet will not run as a formula (a name may start with "=")."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _day(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M")


class Players:
    """The players of one server's store, and what their progress page shows."""

    def __init__(self, host: Host) -> None:
        self.host = host

    @property
    def store(self) -> Store:
        return self.host.store

    def new(self, name: str) -> str:
        """A new player's secret (the store keeps its hash and the name)."""
        token = secrets.token_urlsafe(24)
        self.store.add_player(token_hash(token), name, self.host.wall_clock())
        return token

    def adopt(self, token: str, name: str) -> None:
        """Make ``token`` a player if it is not one (the daily challenge's entries)."""
        self.store.add_player(token_hash(token), name, self.host.wall_clock())

    def known(self, token: str | None, needed: bool = True) -> str | None:
        """The hash of a player's secret (None without one, or 401 if ``needed``); 403 for a
        secret this server never gave."""
        if token is None:
            if needed:
                raise TableError(401, _("this request needs the player's secret (X-Player-Token)"))
            return None
        hashed = token_hash(token)
        if self.store.player_name(hashed) is None:
            raise TableError(
                403, _("no player has this secret on this server: check the link, or play a game to make one")
            )
        return hashed

    def rename(self, token: str | None, name: str) -> str:
        hashed = self.known(token)
        assert hashed is not None
        self.store.rename_player(hashed, name)
        return name

    def _scores(self, seat: PlayedSeat) -> list[int]:
        """A finished game's final scores: stored, or replayed once and stored."""
        if seat.scores is not None:
            return seat.scores
        stored = self.store.load(seat.game_id)
        assert stored is not None
        scores = [s.total for s in replay_stored(stored, stored.moves).scores()]
        self.store.save_scores(seat.game_id, scores)
        seat.scores = scores
        return scores

    def games(self, hashed: str) -> list[dict[str, Any]]:
        """The player's finished games, oldest first: their score, place and review figures, and
        how many of the review's costly decisions the player solved in practice."""
        solved = Counter((game_id, seat) for game_id, seat, _number in self.store.solved(hashed))
        found = []
        for seat in self.store.played(hashed, REVIEW_FORMAT):
            scores = self._scores(seat)
            review = json.loads(seat.review) if seat.review is not None else None
            decisions = len(review["decisions"]) if review else 0
            costly = sum(1 for d in review["decisions"] if d["cost"] >= PRACTISED_FROM) if review else 0
            found.append(
                {
                    "id": seat.game_id,
                    "game": seat.game,
                    "finished": _day(seat.finished),
                    "finished_at": seat.finished,
                    "seat": seat.seat + 1,
                    "players": [
                        {"name": name, "bot": bot, "score": score}
                        for name, bot, score in zip(seat.names, seat.bots, scores, strict=True)
                    ],
                    "solo": len(seat.names) == 1,
                    "score": scores[seat.seat],
                    "challenge": seat.challenge,
                    "reviewed": review is not None,
                    "accuracy": review["accuracy"] if review else None,
                    "mean_cost": review["mean_cost"] if review else None,
                    "decisions": decisions,
                    "error_rate": review.get("error_rate") if review else None,
                    "to_practise": costly,
                    "themes": [
                        {"theme": t["theme"], "count": t["count"], "cost": t["cost"]} for t in review.get("themes", [])
                    ]
                    if review
                    else [],
                    "solved": solved[(seat.game_id, seat.seat)],
                }
            )
        return found

    def progress(self, token: str | None) -> dict[str, Any]:
        """Everything the progress page shows (401 without a secret, 403 for an unknown one)."""
        hashed = self.known(token)
        assert hashed is not None and token is not None
        strong = strong_scores()
        games = self.games(hashed)
        return {
            "name": self.store.player_name(hashed),
            "games": games,
            "themes": themes_over(games),
            "solved": len(self.store.solved(hashed)),  # practice positions solved, every game's
            "challenges": [entry_view(e) for e in self.store.history(hashed)],
            "strong": {
                "bot": strong["bot"],
                "seed": strong["seed"],
                "command": strong["command"],
                "scores": {game: data["scores"] for game, data in strong["by_game"].items()},
            },
        }

    def table_csv(self, token: str | None) -> str:
        """The player's table: a line per finished game (the players' names kept from running as
        a spreadsheet's formula)."""
        hashed = self.known(token)
        assert hashed is not None
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(
            ["finished_utc", "game", "id", "seat", "players", "score", "accuracy", "mean_cost", "challenge"]
        )
        for g in self.games(hashed):
            writer.writerow(
                [
                    g["finished"],
                    g["game"],
                    g["id"],
                    g["seat"],
                    _cell("; ".join(f"{p['name']} {p['score']}" for p in g["players"])),
                    g["score"],
                    "" if g["accuracy"] is None else g["accuracy"],
                    "" if g["mean_cost"] is None else g["mean_cost"],
                    g["challenge"] or "",
                ]
            )
        return out.getvalue()

    def records(self, token: str | None) -> list[dict[str, Any]]:
        """The game record (``docs/records.md``) of each of the player's finished games, oldest first."""
        hashed = self.known(token)
        assert hashed is not None
        found = []
        for seat in self.store.played(hashed, REVIEW_FORMAT):
            stored = self.store.load(seat.game_id)
            if stored is None:  # forgotten meanwhile
                continue
            game = replay_stored(stored, stored.moves)
            record = records.record_of(game, [s.name for s in stored.seats], [s.bot for s in stored.seats])
            found.append(json.loads(records.dumps(record)))
        return found

"""A table game's review as the page asks for it: the time from the request to the review shown,
and the progress the page shows meanwhile (issue 71's goal: a 3-player game's review on the
page in 15 s at most).

    python benchmarks/page_review.py                          # 3 players, both games, 3 games each
    python benchmarks/page_review.py --players 4 --games 5 --bots strong-win --game vraiment-tres-fute

Starts ``tresfute serve`` on a free port (a new SQLite file) and, for each game, seats a person
(seat 1) and ``--players - 1`` computer players of kind ``--bots``; the person plays random
legal moves on the game's WebSocket as the page sends them (``web_table.py``'s player: a seat
that departs from the strong choice at nearly every decision, so that the review searches nearly
every move it played). Once the game is over the script asks for the person's review as the page
does (``POST /api/games/{id}/review``, then every :data:`POLL` seconds, ``review.js``'s
``POLL_MS``, a ``GET``, or a ``POST`` again where this server process does not know of the
review, until it is done) and prints, for each game, the seconds from the request to the review,
and how many distinct progress figures (decisions done of the total) the page was given to show
on the way.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time
from typing import Any
from urllib.request import Request, urlopen

from web_table import play, post, serving

GOAL = 15.0  # seconds, a 3-player game's review on the page (issue 71)
POLL = 0.5  # seconds between the page's requests for its progress (review.js's POLL_MS)


def reviewed(port: int, game_id: str, token: str) -> tuple[float, list[tuple[int, int]]]:
    """The person's review asked for and followed as the page does: its time, and the
    progress figures seen on the way."""
    url = f"http://127.0.0.1:{port}/api/games/{game_id}/review"
    headers = {"Content-Type": "application/json", "X-Seat-Token": token}
    start = time.perf_counter()
    with urlopen(Request(url, b"{}", headers, method="POST")) as answer:
        data: dict[str, Any] = json.load(answer)
    seen: list[tuple[int, int]] = []
    while data.get("status") in ("running", "none"):
        figure = (int(data.get("done", 0)), int(data.get("total", 0)))
        if data["status"] == "running" and figure not in seen:
            seen.append(figure)
        time.sleep(POLL)
        again = b"{}" if data["status"] == "none" else None
        with urlopen(Request(url, again, headers, method="POST" if again else "GET")) as answer:
            data = json.load(answer)
    elapsed = time.perf_counter() - start
    if "decisions" not in data:
        raise SystemExit(f"the review did not come: {data}")
    return elapsed, seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3, help="games of each kind")
    parser.add_argument("--players", type=int, default=3, choices=range(2, 5))
    parser.add_argument("--bots", default="strong")
    parser.add_argument("--game", choices=["tres-fute", "vraiment-tres-fute"], help="one game (else both)")
    parser.add_argument("--seed", type=int, default=0, help="the person's moves")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with serving("reviews") as port:
        for game in [args.game] if args.game else ["tres-fute", "vraiment-tres-fute"]:
            times = []
            for _ in range(args.games):
                seats = [{"name": "Ana"}] + [{"name": f"Bot {i}", "bot": args.bots} for i in range(1, args.players)]
                created = post(f"http://127.0.0.1:{port}/api/games", {"game": game, "seats": seats})
                token = created["seats"][0]["token"]
                asyncio.run(play(port, created["id"], token, rng))
                elapsed, seen = reviewed(port, created["id"], token)
                times.append(elapsed)
                print(f"{game}: review {elapsed:.2f} s, {len(seen)} progress figures shown", flush=True)
            median = statistics.median(times)
            print(
                f"{game}, a person and {args.players - 1} {args.bots}: review on the page {median:.2f} s (median"
                f" of {len(times)}), longest {max(times):.2f} s; goal {GOAL:.0f} s:"
                f" {'met' if max(times) <= GOAL else 'not met'}",
                flush=True,
            )


if __name__ == "__main__":
    main()

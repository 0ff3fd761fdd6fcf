"""A person at a table of computer players, as the page plays it, with hostile spectators.

    python benchmarks/web_table.py                                  # 2 strong-win players, 2 games
    python benchmarks/web_table.py --bots strong-win --players 3 --games 4 --stalled 3
    python benchmarks/web_table.py --game vraiment-tres-fute --stalled 0

Starts ``tresfute serve`` on a free port (a new SQLite file), creates each game with a person
(seat 1) and ``--players - 1`` computer players of kind ``--bots``, and plays the person's moves
on the game's WebSocket as the page does (a random legal move, sent as soon as it is the
person's to play). ``--stalled N`` spectators watch each game from the start on raw sockets
that read nothing (a small receive buffer) and send ten malformed messages every millisecond:
the server must give them up rather than let them hold anyone else.

Prints, over the person's moves: how long the move's answer took (p50, p95, p99, max), how many
answers carried more than the person's own move (the page draws such an answer only after the
others' moves: its mark waits for them), and how many stalled spectators the server closed.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.error import URLError
from urllib.request import Request, urlopen


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def post(url: str, body: object) -> Any:
    request = Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urlopen(request) as answer:
        return json.load(answer)


def frame(text: str) -> bytes:
    """A client's text frame (masked, with a zero key: the payload as it is)."""
    payload = text.encode()
    length = len(payload)
    head = bytes([0x81, 0x80 | length]) if length < 126 else bytes([0x81, 0x80 | 126]) + length.to_bytes(2, "big")
    return head + b"\0\0\0\0" + payload


async def stalled_spectator(port: int, game_id: str, stop: asyncio.Event) -> bool:
    """A spectator that says hello, then floods malformed messages and reads nothing; whether
    the server closed it (its writes failed) before ``stop``."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    raw.setblocking(False)
    await asyncio.get_running_loop().sock_connect(raw, ("127.0.0.1", port))
    reader, writer = await asyncio.open_connection(sock=raw)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        f"GET /api/games/{game_id}/ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    await reader.readuntil(b"\r\n\r\n")  # the handshake's answer: the last thing it reads
    writer.write(frame(json.dumps({"type": "hello", "token": None})))
    garbage = frame("{" * 900)
    try:
        for _ in range(600_000):  # bounded: at most about ten minutes
            if stop.is_set():
                return False
            writer.write(garbage * 10)
            await asyncio.wait_for(writer.drain(), 2.0)
            await asyncio.sleep(0.001)
    except (ConnectionError, TimeoutError, OSError):
        return True
    finally:
        writer.transport.abort()
    return False


async def play(port: int, game_id: str, token: str, rng: random.Random) -> tuple[list[float], int]:
    """The person's game on its page's WebSocket: each move's answer time, and how many answers
    carried more than the person's own move."""
    import websockets

    answers: list[float] = []
    crowded = 0
    async with websockets.connect(f"ws://127.0.0.1:{port}/api/games/{game_id}/ws", max_size=None) as page:
        await page.send(json.dumps({"type": "hello", "token": token, "lang": "en"}))
        view = json.loads(await page.recv())["state"]
        asked = 0
        while not view["over"]:
            moves = [m["move"] for m in view["legal"]]
            if not moves:
                message = json.loads(await asyncio.wait_for(page.recv(), 120))
                if message["type"] == "state" and message["state"]["revision"] >= view["revision"]:
                    view = message["state"]
                continue
            move = rng.choice(moves)
            asked += 1
            sent = time.perf_counter()
            await page.send(json.dumps({"type": "act", "id": asked, "move": move, "seq": view["seq"]}))
            while True:
                message = json.loads(await asyncio.wait_for(page.recv(), 120))
                if message["type"] == "answer" and message["id"] == asked:
                    answers.append(time.perf_counter() - sent)
                    new = message["state"]
                    if new["entries"] > view["entries"] + (2 if move in ("roll", "reroll") else 1):
                        crowded += 1
                    view = new
                    break
                if message["type"] == "error" and message.get("id") == asked:
                    raise RuntimeError(f"the move {move} was refused: {message['error']}")
                if message["type"] == "state" and message["state"]["revision"] > view["revision"]:
                    view = message["state"]
    return answers, crowded


async def run(port: int, args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    answers: list[float] = []
    crowded = closed = spectators = 0
    for _ in range(args.games):
        seats = [{"name": "Ana"}] + [{"name": f"Bot {i}", "bot": args.bots} for i in range(1, args.players)]
        created = post(f"http://127.0.0.1:{port}/api/games", {"game": args.game, "seats": seats})
        stop = asyncio.Event()
        flooding = [asyncio.create_task(stalled_spectator(port, created["id"], stop)) for _ in range(args.stalled)]
        await asyncio.sleep(0.5 if flooding else 0)  # they are watching before the person plays
        timed, more = await play(port, created["id"], created["seats"][0]["token"], rng)
        stop.set()
        closed += sum(await asyncio.gather(*flooding))
        spectators += len(flooding)
        answers += timed
        crowded += more
    answers.sort()

    def at(share: float) -> str:
        return f"{1000 * answers[min(len(answers) - 1, int(share * len(answers)))]:.0f}"

    print(
        f"{args.games} game(s) of {args.game}, a person and {args.players - 1} {args.bots}, {args.stalled} stalled"
        f" spectator(s) a game: {len(answers)} moves; answer p50 {at(0.5)} ms, p95 {at(0.95)} ms, p99 {at(0.99)} ms,"
        f" max {1000 * answers[-1]:.0f} ms (mean {1000 * statistics.fmean(answers):.0f} ms); answers carrying others'"
        f" moves: {crowded}; stalled spectators closed by the server: {closed} of {spectators}"
    )


@contextmanager
def serving(name: str) -> Iterator[int]:
    """``tresfute serve`` on a free port over a new SQLite file (``name``), its limits off, until
    the block ends (the file goes with it); its port, once it answers."""
    port = free_port()
    with tempfile.TemporaryDirectory(prefix=f"tresfute-{name}-") as folder:
        unlimited = {"TRESFUTE_GAMES_PER_MINUTE": "0", "TRESFUTE_SOCKETS_PER_ADDRESS": "0"}
        command = ["serve", "--port", str(port), "--db", str(Path(folder) / f"{name}.sqlite3")]
        server = subprocess.Popen(
            [sys.executable, "-m", "tresfute", *command], stdout=subprocess.DEVNULL, env={**os.environ, **unlimited}
        )
        try:
            for _ in range(300):
                try:
                    urlopen(f"http://127.0.0.1:{port}/api/strings").read()
                    break
                except (URLError, ConnectionError):
                    time.sleep(0.1)
            yield port
        finally:
            server.terminate()
            server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="tres-fute", choices=["tres-fute", "vraiment-tres-fute"])
    parser.add_argument("--players", type=int, default=3, choices=range(2, 5))
    parser.add_argument("--bots", default="strong-win")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--stalled", type=int, default=0, help="stalled, flooding spectators a game")
    parser.add_argument("--seed", type=int, default=0, help="the person's moves")
    args = parser.parse_args()
    with serving("table") as port:
        asyncio.run(run(port, args))


if __name__ == "__main__":
    main()

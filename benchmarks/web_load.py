"""Load test of the web server: N games played at once against one server on loopback.

    python benchmarks/web_load.py                    # starts its own server, 50 games
    python benchmarks/web_load.py --games 50 --bots 1 --url http://127.0.0.1:8000
    python benchmarks/web_load.py --games 200 --db postgresql://tresfute@127.0.0.1/load --workers 2

Each game is a person playing random legal moves as fast as the server answers (each move is
one POST, written to the database before it is acknowledged); ``--bots`` adds computer players
to each game, of kind ``--bot`` (greedy by default; ``strong-win`` thinks with the networks,
which a server's game threads share): while they play, the person asks for the game every
0.1 s over HTTP, or waits for its changes on the socket. ``--db`` names the database of the
server it starts (default: a new SQLite file) and ``--workers`` its number of processes
(``tresfute serve --workers``; more than one needs a ``postgresql://`` database, which should
be empty: the games are added to it).
``--think S`` makes each player wait S seconds (0.5 S to 1.5 S) before each move, as people do,
and ``--think 2-4`` between 2 and 4 s: without it the players send as fast as the server answers,
and the latency is then the number of games over the throughput. ``--duration D`` stops the players after D seconds
(a game at a person's pace lasts minutes), and prints the server's memory (its processes'
resident set, started here) per game beside it. ``--pages`` keeps each game's page open as a browser does: a
WebSocket that gets the state pushed at every change (the player's own moves included); it
also prints how long after the move's answer its page had it (with several processes, the
page and the player's requests are on different processes about half the time).
``--moves socket`` sends each move on the game page's WebSocket, as the page does while its
socket is open (the answer comes there; the page is the player, so its updates are its answers);
``--moves http`` (the default) posts each move, as an API client does. The games start at random
over ``--ramp`` seconds (default: the longest think). Prints the moves per second and the latency
percentiles of the moves, for all moves and, with ``--duration``, for the moves sent once every
game is under way (all started, each its first move made: the start's burst of new games left
out), with the CPU a move costs there to the servers, the load client and PostgreSQL (Linux;
PostgreSQL's processes on this machine); ``--windows`` adds them every 5 seconds. The server it starts has
the per-address limits lifted (``TRESFUTE_GAMES_PER_MINUTE=0``, ``TRESFUTE_SOCKETS_PER_ADDRESS=0``:
every player comes from this one address); lift them too on a server given by ``--url``.
For servers given by ``--url`` (behind a proxy, say), ``--server-pids`` names their processes, whose
CPU and memory are then counted as the servers' (their children too), ``--proxy-pid`` the proxy's,
counted apart, and ``--trace FILE`` writes each game's connections (the load client's local port of
each move's connection and of its page's socket, and when the page had each move), one JSON line a
game, for ``benchmarks/web_load_proxy.py`` to tell which server each went to.

    python benchmarks/web_load.py --games 2000 --think 2-4 --moves socket --duration 60 \
        --db postgresql://tresfute@127.0.0.1/load --workers 2
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any
from urllib.error import URLError
from urllib.parse import urlsplit
from urllib.request import urlopen


def event_loop(main: Coroutine[Any, Any, None]) -> None:
    """Run the client on uvloop, the event loop uvicorn runs on too (a dependency of tresfute):
    a lighter client leaves more of the machine to the server. The client's garbage collector is
    off: with thousands of sockets open its full passes took 180-270 ms, which the moves waiting
    on them counted as the server's latency (a run's garbage is bounded; it makes few cycles)."""
    gc.disable()
    try:
        import uvloop
    except ImportError:  # Windows, PyPy
        asyncio.run(main)
    else:
        uvloop.run(main)


class Connection:
    """One keep-alive HTTP/1.1 connection, as light as can be: the load client shares the machine
    with the server, and a heavier client (httpx) measured its own CPU more than the server's."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str) -> None:
        self.reader, self.writer, self.host = reader, writer, host

    @classmethod
    async def open(cls, url: str) -> Connection:
        parts = urlsplit(url)
        reader, writer = await asyncio.open_connection(parts.hostname, parts.port or 80)
        return cls(reader, writer, parts.netloc)

    async def request(self, method: str, path: str, body: object = None, token: str | None = None) -> dict:
        """The answer's JSON; a connection the server closed while idle (uvicorn's keep-alive
        lasts 5 s, shorter than a person's thinking) is opened again, as a browser does."""
        try:
            return await self._request(method, path, body, token)
        except (asyncio.IncompleteReadError, ConnectionError) as closed:
            if isinstance(closed, asyncio.IncompleteReadError) and closed.partial:
                raise  # cut in the middle of an answer: not an idle connection
            self.writer.close()
            again = await Connection.open(f"http://{self.host}")
            self.reader, self.writer = again.reader, again.writer
            return await self._request(method, path, body, token)

    async def _request(self, method: str, path: str, body: object = None, token: str | None = None) -> dict:
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Length: {len(data)}\r\n"
        head += "Content-Type: application/json\r\n"
        if token:
            head += f"X-Seat-Token: {token}\r\n"
        self.writer.write(head.encode() + b"\r\n" + data)
        status_line, *lines = (await self.reader.readuntil(b"\r\n\r\n")).decode().split("\r\n")
        length = 0
        for line in lines:
            name, _, value = line.partition(":")
            if name.lower() == "content-length":
                length = int(value)
        payload = await self.reader.readexactly(length)
        status = int(status_line.split()[1])
        if status >= 400:
            raise RuntimeError(f"{method} {path}: {status} {payload[:200]!r}")
        return json.loads(payload)

    def port(self) -> int:
        """The local port of the connection (the one that carried the last answer)."""
        return int(self.writer.get_extra_info("sockname")[1])

    async def close(self) -> None:
        self.writer.close()
        await self.writer.wait_closed()


async def watch(url: str, game_id: str, token: str, pushed: dict[int, float], ports: list[int] | None = None) -> None:
    """A game's page: its WebSocket, read until the game is over; when each revision came (and, into
    ``ports``, the socket's local port)."""
    import websockets

    address = url.replace("http", "ws", 1) + f"/api/games/{game_id}/ws"
    async with websockets.connect(address, open_timeout=120) as socket:  # a loaded server is slow to answer
        if ports is not None:
            ports.append(socket.local_address[1])
        await socket.send(json.dumps({"type": "hello", "token": token, "lang": "fr"}))
        async for message in socket:
            told = json.loads(message)
            if told["type"] != "state":
                raise RuntimeError(f"the page was told: {told}")
            pushed.setdefault(told["state"]["revision"], time.perf_counter())
            if told["state"]["over"]:
                return


async def new_game(connection: Connection, game: str, bots: int, bot: str = "greedy") -> dict[str, Any]:
    """A game for one person and ``bots`` computer players of kind ``bot``: the server's answer."""
    seats = [{"name": "Load"}] + [{"name": f"Bot {i + 1}", "bot": bot} for i in range(bots)]
    return await connection.request("POST", "/api/games", {"game": game, "seats": seats})


async def think_of_a_move(view: dict[str, Any], rng: random.Random, think: Think, deadline: float) -> str | None:
    """A random legal move, after thinking; None once the game is over or the time is up."""
    if view["over"]:
        return None
    move: str = rng.choice(view["legal"])["move"]
    if think[1]:
        await asyncio.sleep(rng.uniform(*think))
    return None if time.perf_counter() >= deadline else move


POLL = 0.1  # seconds between an API client's looks at its game while the computer players play
COMPUTERS_WITHIN = 60  # seconds: computer players still silent after this are a failure (a table stopped)
Think = tuple[float, float]  # each player waits between these many seconds before a move
Timed = list[tuple[float, float]]  # (when it was sent, seconds): a move's answer, or its page's lag


def thinking(text: str) -> Think:
    """``S`` (0.5 S to 1.5 S) or ``A-B`` (A to B seconds)."""
    low, dash, high = text.partition("-")
    if dash:
        return float(low), float(high)
    return 0.5 * float(text), 1.5 * float(text)


async def play_game(
    url: str,
    game: str,
    bots: int,
    seed: int,
    latencies: Timed,
    think: Think = (0.0, 0.0),
    lags: Timed | None = None,
    deadline: float = float("inf"),
    ramp: float = 0.0,
    trace: list[dict[str, Any]] | None = None,
    bot: str = "greedy",
) -> int:
    rng = random.Random(seed)
    await asyncio.sleep(rng.uniform(0, ramp))  # people do not all start at once
    connection = await Connection.open(url)
    created = await new_game(connection, game, bots, bot)
    created_on = connection.port()
    token = created["seats"][0]["token"]
    answered: dict[int, float] = {}  # when the player had each revision, and when its page had it
    sent: dict[int, float] = {}
    pushed: dict[int, float] = {}
    ports: dict[int, int] = {}  # each revision's move: the local port of the connection it went on
    page_ports: list[int] = []
    page = None if lags is None else asyncio.create_task(watch(url, created["id"], token, pushed, page_ports))
    moves = 0
    try:
        view = await connection.request("GET", f"/api/games/{created['id']}", token=token)
        while True:
            waited = 0.0
            while not (view["over"] or view["legal"]):  # the computer players' turn: asked again, as an API client
                if waited > COMPUTERS_WITHIN:
                    raise RuntimeError(f"the computer players did not play within {COMPUTERS_WITHIN} s")
                await asyncio.sleep(POLL)
                waited += POLL
                view = await connection.request("GET", f"/api/games/{created['id']}", token=token)
            if (move := await think_of_a_move(view, rng, think, deadline)) is None:
                break
            start = time.perf_counter()
            view = await connection.request(
                "POST", f"/api/games/{created['id']}/act", {"move": move, "seq": view["seq"]}, token
            )
            answered[view["revision"]] = time.perf_counter()
            sent[view["revision"]] = start
            ports[view["revision"]] = connection.port()
            latencies.append((start, answered[view["revision"]] - start))
            moves += 1
    except BaseException:
        if page is not None:
            page.cancel()
        raise
    await connection.close()
    if page is not None and lags is not None:
        if view["over"]:
            await asyncio.wait_for(page, timeout=30)  # the last push: the game is over
        else:  # stopped at the deadline: the pushes that came meanwhile
            await asyncio.sleep(1)
            page.cancel()
        lags.extend((sent[r], max(0.0, pushed[r] - answered[r])) for r in answered.keys() & pushed.keys())
    if trace is not None:
        trace.append(
            {
                "created": created_on,
                "page": page_ports[0] if page_ports else None,
                "page from": min(pushed, default=None),  # the revision of the first state the page was sent
                # each move: its connection's port, when it was sent, how long after its answer the page had it
                # (None: never), and the revision it made
                "moves": [
                    [ports[r], sent[r], None if r not in pushed else max(0.0, pushed[r] - answered[r]), r]
                    for r in answered
                ],
            }
        )
    return moves


async def play_on_socket(
    url: str,
    game: str,
    bots: int,
    seed: int,
    latencies: Timed,
    think: Think = (0.0, 0.0),
    deadline: float = float("inf"),
    ramp: float = 0.0,
    trace: list[dict[str, Any]] | None = None,
    bot: str = "greedy",
) -> int:
    """A person playing as the page does when its WebSocket is open: each move sent on the
    socket and answered there (the latency: from sending it to its answer)."""
    import websockets

    rng = random.Random(seed)
    await asyncio.sleep(rng.uniform(0, ramp))
    connection = await Connection.open(url)
    created = await new_game(connection, game, bots, bot)
    created_on = connection.port()
    await connection.close()
    token = created["seats"][0]["token"]
    address = url.replace("http", "ws", 1) + f"/api/games/{created['id']}/ws"
    moves = 0
    async with websockets.connect(address, open_timeout=120) as socket:
        await socket.send(json.dumps({"type": "hello", "token": token, "lang": "fr"}))
        view = json.loads(await socket.recv())["state"]
        while (move := await think_of_a_move(view, rng, think, deadline)) is not None:
            start = time.perf_counter()
            await socket.send(json.dumps({"type": "act", "id": moves, "move": move, "seq": view["seq"]}))
            while True:  # the answer; a computer player's moves may come as changes before it
                told = json.loads(await socket.recv())
                if told["type"] == "answer" and told["id"] == moves:
                    break
                if told["type"] == "error":
                    raise RuntimeError(f"the move was refused: {told}")
            latencies.append((start, time.perf_counter() - start))
            view = told["state"]
            moves += 1
            while not (view["over"] or view["legal"]):  # the computer players' turn: their changes come
                try:
                    told = json.loads(await asyncio.wait_for(socket.recv(), COMPUTERS_WITHIN))
                except TimeoutError:
                    raise RuntimeError(f"the computer players did not play within {COMPUTERS_WITHIN} s") from None
                if told["type"] == "state":
                    view = told["state"]
        if trace is not None:
            trace.append({"created": created_on, "page": socket.local_address[1], "moves": [], "socket moves": moves})
    return moves


async def run(
    url: str,
    games: int,
    game: str,
    bots: int,
    think: Think = (0.0, 0.0),
    pages: bool = False,
    duration: float | None = None,
    server: int | list[int] | None = None,
    on_socket: bool = False,
    ramp: float | None = None,
    windows: bool = False,
    proxy: int | None = None,
    trace: list[dict[str, Any]] | None = None,
    bot: str = "greedy",
) -> None:
    latencies: Timed = []
    lags: Timed | None = [] if pages else None
    ramp = think[1] if ramp is None else ramp
    start = time.perf_counter()
    deadline = start + duration if duration else float("inf")
    before = resident(server)
    memory: list[int] = []
    loop = asyncio.get_running_loop()
    if duration and server is not None:  # the server's memory with every game under way, just before the end
        loop.call_at(loop.time() + max(0.0, duration - 2), lambda: memory.append(resident(server)))
    # every game under way: all started, each one's first move made (its CPU is measured from then)
    steady = ramp + think[1] + 2.0
    cpu: list[dict[str, float]] = []
    if duration and duration > steady:
        loop.call_at(loop.time() + steady, lambda: cpu.append(cpu_seconds(server, proxy)))
    if on_socket:
        players = [
            play_on_socket(url, game, bots, n, latencies, think, deadline, ramp, trace, bot) for n in range(games)
        ]
    else:
        players = [
            play_game(url, game, bots, n, latencies, think, lags, deadline, ramp, trace, bot) for n in range(games)
        ]
    counts = await asyncio.gather(*players)
    end = min(time.perf_counter(), deadline)
    for traced in trace or []:  # when each move was sent: seconds from the start; and when every game was under way
        traced.update(steady=steady, moves=[[port, when - start, *rest] for port, when, *rest in traced["moves"]])
    if cpu:
        cpu.append(cpu_seconds(server, proxy))
    seconds = end - start
    print(
        f"{games} concurrent games of {game} ({bots} computer player(s) {bot} each),"
        f" {sum(counts)} moves in {seconds:.1f} s"
    )
    print(f"  all moves: {sum(counts) / seconds:.0f} moves/s; latency {percentiles(latencies)}")
    if duration and duration > steady:
        after = [(sent, taken) for sent, taken in latencies if sent >= start + steady]
        rate = len(after) / (end - start - steady)
        print(f"  from {steady:.0f} s on, every game under way: {rate:.0f} moves/s; latency {percentiles(after)}")
        if cpu:
            spent = {group: cpu[1][group] - cpu[0][group] for group in cpu[0]}
            print(
                "  CPU a move: "
                + ", ".join(f"{group} {seconds * 1000 / max(1, len(after)):.2f} ms" for group, seconds in spent.items())
                + f"; {sum(spent.values()) / (end - start - steady):.2f} cores busy of {os.cpu_count()}"
            )
    if windows:
        for w in range(0, int(seconds), 5):
            part = [(sent, taken) for sent, taken in latencies if start + w <= sent < start + w + 5]
            if part:
                print(f"    {w:3d}-{w + 5:3d} s: {len(part) / 5:.0f} moves/s, {percentiles(part)}")
    if memory and before:
        print(
            f"  server memory: {before / 2**20:.0f} MiB before, {memory[0] / 2**20:.0f} MiB with the games under way:"
            f" {(memory[0] - before) / games / 1024:.0f} KiB a game{' and its page' if pages or on_socket else ''}"
        )
    if lags:
        print(f"  pages: {len(lags)} moves seen by the mover's page, after the move's answer by {percentiles(lags)}")
        after = [(sent, lag) for sent, lag in lags if sent >= start + steady]
        if duration and duration > steady and after:
            print(f"    from {steady:.0f} s on: {percentiles(after)}")


def percentiles(timed: Timed) -> str:
    times = sorted(taken for _sent, taken in timed)
    if not times:
        return "none"
    p = lambda q: times[min(len(times) - 1, int(q * len(times)))] * 1000  # noqa: E731
    return (
        f"p50 {p(0.50):.1f} ms, p90 {p(0.90):.1f} ms, p99 {p(0.99):.1f} ms, max {times[-1] * 1000:.1f} ms,"
        f" mean {statistics.mean(times) * 1000:.1f} ms"
    )


def _pids(server: int | list[int] | None) -> list[int]:
    return [] if server is None else [server] if isinstance(server, int) else server


def cpu_seconds(server: int | list[int] | None, proxy: int | None = None) -> dict[str, float]:
    """The CPU time (user and system, seconds) spent so far by the server's processes, this load
    client and PostgreSQL's processes (any on this machine), and a proxy's if given; Linux only, else nothing."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    spent = {"servers": 0.0, "load client": 0.0, "PostgreSQL": 0.0}
    served = {pid for top in _pids(server) for pid in _tree(top)}
    proxied = set(_tree(proxy)) if proxy is not None else set()
    if proxy is not None:
        spent["proxy"] = 0.0
    for folder in Path("/proc").glob("[0-9]*"):
        try:
            fields = (folder / "stat").read_text().rpartition(")")[2].split()
            command = (folder / "cmdline").read_bytes()
        except OSError:  # gone meanwhile
            continue
        seconds = (int(fields[11]) + int(fields[12])) / ticks
        pid = int(folder.name)
        if pid in served:
            spent["servers"] += seconds
        elif pid in proxied:
            spent["proxy"] += seconds
        elif pid == os.getpid():
            spent["load client"] += seconds
        elif Path(command.split(b"\0")[0].decode(errors="replace")).name.startswith("postgres"):
            spent["PostgreSQL"] += seconds
    return spent if served or Path("/proc/self").exists() else {}


def _tree(pid: int) -> list[int]:
    """A process and its children, theirs too."""
    found = [pid]
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                found += _tree(int(child))
    except OSError:
        pass
    return found


def resident(pid: int | list[int] | None) -> int:
    """The resident memory (bytes) of a process and its children (uvicorn's workers), or of several; 0 if unknown."""
    if pid is None:
        return 0
    if isinstance(pid, list):
        return sum(resident(one) for one in pid)
    total = 0
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) * 1024
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                total += resident(int(child))
    except OSError:  # not Linux, or gone
        return total
    return total


# the server's per-address limits lifted: one address plays every game
UNLIMITED = {"TRESFUTE_GAMES_PER_MINUTE": "0", "TRESFUTE_SOCKETS_PER_ADDRESS": "0"}


def wait_for(url: str, process: subprocess.Popen[bytes], what: str) -> None:
    """Until the server at ``url`` answers (``process`` started it); SystemExit if it stops or
    has not answered in 60 s."""
    for _ in range(600):
        if process.poll() is not None:
            raise SystemExit(f"{what} stopped at its start")
        try:
            urlopen(url + "/api/strings").read()
            return
        except (URLError, ConnectionError):
            time.sleep(0.1)
    raise SystemExit(f"{what} did not answer in 60 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="a running server (default: start one on a free port)")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--game", default="tres-fute", choices=["tres-fute", "vraiment-tres-fute"])
    parser.add_argument("--bots", type=int, default=0, choices=range(4), help="computer players in each game")
    parser.add_argument("--bot", default="greedy", help="their kind: greedy, strong, strong-win, …")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--db", help="the started server's database: an SQLite file or a postgresql:// URL")
    parser.add_argument("--workers", type=int, default=1, help="the started server's processes")
    parser.add_argument(
        "--think",
        type=thinking,
        default=(0.0, 0.0),
        help="seconds each player thinks before a move: S (0.5 S to 1.5 S) or A-B (0: none, as fast as it can)",
    )
    parser.add_argument("--duration", type=float, help="stop the players after this many seconds")
    parser.add_argument(
        "--ramp", type=float, help="the games start at random over this many seconds (default: the longest think)"
    )
    parser.add_argument("--windows", action="store_true", help="also the latency every 5 seconds")
    parser.add_argument("--pages", action="store_true", help="each game's page open too, on a WebSocket")
    parser.add_argument(
        "--moves",
        choices=["http", "socket"],
        default="http",
        help="how the moves are sent: each a POST (an API client, a page without its socket), or on the"
        " game page's WebSocket as the page does when it is open (implies --pages)",
    )
    parser.add_argument(
        "--server-pids",
        type=lambda text: [int(pid) for pid in text.split(",")],
        help="with --url: the processes of the servers behind it (comma-separated), for their CPU and memory",
    )
    parser.add_argument("--proxy-pid", type=int, help="with --url: a proxy's process, its CPU counted apart")
    parser.add_argument("--trace", type=Path, help="write each game's connections (local ports) to this file")
    args = parser.parse_args()
    if (args.server_pids or args.proxy_pid) and args.url is None:
        parser.error("--server-pids and --proxy-pid name the processes behind --url")
    server = None
    folder = None  # the started server's database, removed at the end
    url = args.url
    if url is None:
        database = args.db
        if database is None:
            folder = tempfile.TemporaryDirectory(prefix="tresfute-load-")
            database = str(Path(folder.name) / "load.sqlite3")
        command = ["serve", "--port", str(args.port), "--db", database, "--workers", str(args.workers)]
        server = subprocess.Popen(
            [sys.executable, "-m", "tresfute", *command], stdout=subprocess.DEVNULL, env={**os.environ, **UNLIMITED}
        )
        url = f"http://127.0.0.1:{args.port}"
        wait_for(url, server, "the server")
    if server is not None:
        print(f"server: {args.workers} process(es), database {'PostgreSQL' if '://' in database else 'SQLite'}")
    elif args.server_pids:
        print(f"servers behind {url}: processes {', '.join(map(str, args.server_pids))}")
    trace: list[dict[str, Any]] | None = [] if args.trace else None
    try:
        pid = server.pid if server is not None else args.server_pids
        on_socket = args.moves == "socket"
        pages = args.pages and not on_socket  # on the socket, the page is the player: its answers are its updates
        event_loop(
            run(
                url,
                args.games,
                args.game,
                args.bots,
                args.think,
                pages,
                args.duration,
                pid,
                on_socket,
                args.ramp,
                args.windows,
                args.proxy_pid,
                trace,
                args.bot,
            )
        )
        if trace is not None:
            args.trace.write_text("".join(json.dumps(game) + "\n" for game in trace))
    finally:
        if server is not None:
            server.terminate()
            server.wait()
        if folder is not None:
            folder.cleanup()


if __name__ == "__main__":
    main()

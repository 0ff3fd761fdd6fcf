"""Load test of two servers behind a proxy on one PostgreSQL: ``web_load.py`` through the proxy.

    python benchmarks/web_load_proxy.py --games 500 --think 2-4 --moves socket --duration 45
    python benchmarks/web_load_proxy.py --games 500 --think 2-4 --pages --duration 45   # moves over HTTP

Starts a throwaway PostgreSQL cluster in a temporary folder (``fsync`` and ``synchronous_commit``
on, its defaults: every move's commit reaches the disk before its answer) with a fresh database,
or uses ``--db`` (an empty ``postgresql://`` database); two ``tresfute serve`` on two ports
(``--port`` + 1 and + 2, ``--workers`` processes each, the per-address limits lifted as
``web_load.py`` does); and ``pproxy`` (``pip install pproxy``, in a virtualenv of its own:
``--pproxy`` names its command) listening on ``--port``, which forwards each TCP connection to
the two servers in turn (round-robin, ``-s rr``): HTTP and WebSocket connections alike, bytes
passed as they are. It stands in for nginx's ``upstream`` (docs/deploy.md) on a machine without
nginx, to measure; it is not a proxy to deploy. Then it runs ``web_load.py --url`` against the
proxy with the other arguments, the servers' and the proxy's processes named for their CPU, and
reads the proxy's log (each connection's client port and server) beside the load client's trace
(each game's connections), to print how many connections each server had and, per game, whether
its page sat on the other server than the one its moves went to, and then whether the page had
each move, and how long after its answer. Everything it started is stopped at the end.
``--baseline`` runs the same load on one server with twice the processes and no proxy, started
the same way, to compare with on the same machine at the same time.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import pwd
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from web_load import UNLIMITED, Timed, percentiles, wait_for


class Cluster:
    """A throwaway PostgreSQL cluster that syncs its commits, under /tmp; as root it runs as ``postgres``."""

    def __init__(self, port: int, connections: int) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[4]))
        if not found:
            raise SystemExit("PostgreSQL is not installed (/usr/lib/postgresql/*/bin); or give --db")
        self.binaries = Path(found[-1]).parent
        self.folder = Path(tempfile.mkdtemp(prefix="tresfute-proxy-pg-"))
        self.run_as: dict[str, Any] = {}
        if os.geteuid() == 0:  # initdb refuses root
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                shutil.rmtree(self.folder)
                raise SystemExit("running as root without a postgres user to run PostgreSQL: give --db") from None
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            self.run_as = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
        self.data = self.folder / "data"
        options = (
            f"-p {port} -k {self.folder} -c listen_addresses=127.0.0.1 -c max_connections={connections}"
            " -c fsync=on -c synchronous_commit=on"
        )
        try:
            self._run("initdb", "-D", str(self.data), "-U", "tresfute", "-A", "trust", "-E", "UTF8")
            self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"), "-o", options, "-w", "start")
        except subprocess.CalledProcessError as failed:
            log = (self.folder / "log").read_text() if (self.folder / "log").exists() else ""
            self.remove()
            raise SystemExit(f"PostgreSQL did not start: {failed.stderr.decode()}{log}") from None
        self.url = f"postgresql://tresfute@127.0.0.1:{port}/postgres"

    def _run(self, program: str, *arguments: str) -> None:
        subprocess.run(
            [self.binaries / program, *arguments], check=True, capture_output=True, cwd=self.folder, **self.run_as
        )

    def fresh_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url.rsplit("/", 1)[0] + f"/{name}"

    def remove(self) -> None:
        subprocess.run(
            [self.binaries / "pg_ctl", "-D", self.data, "-m", "fast", "stop"],
            capture_output=True,
            cwd=self.folder,
            **self.run_as,
        )
        shutil.rmtree(self.folder, ignore_errors=True)


def backends(log: Path) -> tuple[dict[int, set[int]], Counter[int]]:
    """From pproxy's verbose log: each client port, the server port(s) its connections went to (a
    client port may be used again once closed); and how many connections each server port had."""
    went: dict[int, set[int]] = {}
    counts: Counter[int] = Counter()
    for line in log.read_text(errors="replace").splitlines():
        if found := re.match(r"tunnel [\d.]+:(\d+) -> tunnel [\d.]+:(\d+)", line):
            went.setdefault(int(found[1]), set()).add(int(found[2]))
            counts[int(found[2])] += 1
    return went, counts


def report(log: Path, trace: Path, servers: list[int]) -> None:
    """Which server each connection went to, and what each page heard of moves sent through the other."""
    went, counts = backends(log)
    print(
        f"proxy: {sum(counts.values())} connections, "
        + ", ".join(f"{counts[port]} to the server on port {port}" for port in servers)
    )

    def server(client_port: int | None) -> int | None:  # None: unknown, or the port went to both servers
        ports = went.get(client_port, set()) if client_port is not None else set()
        return next(iter(ports)) if len(ports) == 1 else None

    games = [json.loads(line) for line in trace.read_text().splitlines()]
    known = [game for game in games if server(game["page"]) is not None and server(game["created"]) is not None]
    apart = sum(server(game["page"]) != server(game["created"]) for game in known)
    print(
        f"  games: {len(games)}; created through one server and their page on the other: {apart} of {len(known)}"
        + (" (the others unknown: a client port used again went to both servers)" if len(known) < len(games) else "")
    )
    if socket_moves := sum(game.get("socket moves", 0) for game in games):
        print(f"  moves on the pages' sockets: {socket_moves}, each answered on its page's socket")
    same: Timed = []
    other: Timed = []
    missed = {"same": 0, "other": 0}
    first_missed = float("inf")  # when the first move a page missed was sent (the pages stop 1 s after the end)
    early = 0  # moves made before the page's socket had its first state (it was then sent the game as it stood)
    skipped = {"same": 0, "other": 0}  # moves whose page was sent a later state instead (changes told together)
    for game in games:
        page = server(game["page"])
        later = max((revision for _port, _sent, lag, revision in game["moves"] if lag is not None), default=-1)
        for port, sent, lag, revision in game["moves"]:
            moved = server(port)
            if page is None or moved is None:
                continue
            if lag is None and game["page from"] is not None and revision < game["page from"]:
                early += 1
                continue
            where = "same" if moved == page else "other"
            if lag is None and revision < later:
                skipped[where] += 1
            elif lag is None:
                missed[where] += 1
                first_missed = min(first_missed, sent)
            else:
                (same if where == "same" else other).append((sent, lag))
    if same or other:
        steady = games[0]["steady"]
        for name, lags in (("other", other), ("same", same)):
            print(
                f"  moves posted through {'the other server than' if name == 'other' else 'the same server as'}"
                f" their page's: {len(lags) + skipped[name] + missed[name]}, {len(lags)} seen by the page,"
                f" {skipped[name]} passed over for a later state, {missed[name]} missed;"
                f" after the answer by {percentiles(lags)}"
            )
            print(f"    from {steady:.0f} s on: {percentiles([(sent, lag) for sent, lag in lags if sent >= steady])}")
        if early:
            print(
                f"  moves made before their page's socket had its first state (then sent the game as it stood): {early}"
            )
        if first_missed < float("inf"):
            last = max(sent for game in games for _port, sent, *_rest in game["moves"])
            print(f"  the moves missed were sent from {first_missed:.1f} s on, the last move at {last:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=8765, help="the proxy's port; the servers take the next two")
    parser.add_argument("--workers", type=int, default=1, help="processes of each server")
    parser.add_argument("--db", help="an empty postgresql:// database (default: a throwaway cluster, port --port + 3)")
    parser.add_argument("--pproxy", default=shutil.which("pproxy"), help="pproxy's command (default: on PATH)")
    parser.add_argument(
        "--baseline",
        action="store_true",
        help="for comparison: one server with twice --workers on the same kind of database, no proxy",
    )
    args, load_arguments = parser.parse_known_args()
    if not args.pproxy and not args.baseline:
        parser.error("pproxy not found: pip install pproxy (in a virtualenv of its own) and give --pproxy PATH")
    started: list[subprocess.Popen[bytes]] = []
    cluster = None
    folder = Path(tempfile.mkdtemp(prefix="tresfute-proxy-"))
    try:
        database = args.db
        if database is None:
            cluster = Cluster(args.port + 3, connections=20 + 2 * 2 * 9 * args.workers)  # 9 a server process
            database = cluster.fresh_database("load")
        ports = [args.port + 1] if args.baseline else [args.port + 1, args.port + 2]
        workers = 2 * args.workers if args.baseline else args.workers
        for port in ports:
            command = ["serve", "--port", str(port), "--db", database, "--workers", str(workers)]
            with open(folder / f"server-{port}.log", "wb") as errors:
                started.append(
                    subprocess.Popen(
                        [sys.executable, "-m", "tresfute", *command],
                        stdout=subprocess.DEVNULL,
                        stderr=errors,
                        env={**os.environ, **UNLIMITED},
                    )
                )
            wait_for(f"http://127.0.0.1:{port}", started[-1], f"the server on port {port}")
        pids = ",".join(str(process.pid) for process in started)
        base = "a throwaway cluster syncing its commits" if cluster else database
        log = folder / "proxy.log"
        trace = folder / "trace.jsonl"
        if args.baseline:
            url = f"http://127.0.0.1:{ports[0]}"
            print(f"baseline: one server ({workers} processes, port {ports[0]}) on one PostgreSQL ({base}), no proxy")
            extra = []
        else:
            listen = f"tunnel{{127.0.0.1:{ports[0]}}}://127.0.0.1:{args.port}"
            remotes = [argument for port in ports for argument in ("-r", f"tunnel://127.0.0.1:{port}")]
            with open(log, "wb") as output:
                proxy = subprocess.Popen(
                    [args.pproxy, "-l", listen, *remotes, "-s", "rr", "-v"],
                    stdout=output,
                    stderr=subprocess.STDOUT,
                    env={**os.environ, "PYTHONUNBUFFERED": "1"},
                )
            started.append(proxy)
            url = f"http://127.0.0.1:{args.port}"
            wait_for(url, proxy, "the proxy")
            print(
                f"two servers ({workers} process(es) each, ports {ports[0]} and {ports[1]}) on one PostgreSQL"
                f" ({base}), pproxy round-robin on {url}"
            )
            extra = ["--proxy-pid", str(proxy.pid), "--trace", str(trace)]
        sys.stdout.flush()
        load = [sys.executable, str(Path(__file__).parent / "web_load.py"), "--url", url, "--server-pids", pids]
        done = subprocess.run([*load, *extra, *load_arguments])
        if done.returncode:
            for port in ports:
                print(f"the server on port {port} logged:\n{(folder / f'server-{port}.log').read_text()[-2000:]}")
            raise SystemExit(f"web_load.py failed ({done.returncode})")
        if not args.baseline:
            report(log, trace, ports)
        for port in ports:
            logged = (folder / f"server-{port}.log").read_text(errors="replace")
            if "Traceback" in logged or "ERROR" in logged:
                print(f"the server on port {port} logged errors:\n{logged[-2000:]}")
    finally:
        for process in reversed(started):
            process.terminate()
        for process in started:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        if cluster is not None:
            cluster.remove()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()

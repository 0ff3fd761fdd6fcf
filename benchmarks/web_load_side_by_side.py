"""The web server's load, two installs of tresfute measured in turn on one machine.

    python benchmarks/web_load_side_by_side.py OLD_PYTHON NEW_PYTHON [--rounds 5] [--games 200]
        [--workers 1,2] [--think 0] [--pages] [--server postgresql://user@host/postgres]

Each Python is an interpreter with tresfute installed (``pip install ".[postgres]"`` for a
PostgreSQL server), for example a virtual environment holding an older commit. Every run is
``benchmarks/web_load.py`` of this checkout run by one of the two interpreters, so the load
client is the same and only the server differs; the runs alternate between the two installs,
round after round, so that a change of the machine's speed falls on both. With ``--server``
(the URL of a PostgreSQL database from which new databases may be created) each run gets a
database of its own, dropped afterwards; without it each run uses a new SQLite file and one
process. Prints every run, then for each install and number of processes the best and the
median moves per second, and how many times one process two processes give.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
from pathlib import Path

WEB_LOAD = Path(__file__).with_name("web_load.py")
MOVES_PER_SECOND = re.compile(r"([\d.]+) moves/s")


def fresh_database(server: str, name: str) -> str:
    import psycopg

    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')
    return server.rsplit("/", 1)[0] + f"/{name}"


def drop_database(server: str, name: str) -> None:
    import psycopg

    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def one_run(python: str, games: int, workers: int, think: float, pages: bool, port: int, database: str | None) -> float:
    command = [python, str(WEB_LOAD), "--games", str(games), "--workers", str(workers), "--think", str(think)]
    command += ["--port", str(port)] + (["--db", database] if database else []) + (["--pages"] if pages else [])
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    found = MOVES_PER_SECOND.search(output)
    if found is None:
        raise RuntimeError(f"no moves/s in the output of {' '.join(command)}:\n{output}")
    for line in output.splitlines():
        if "moves/s" in line or "pages:" in line:  # the figures (web_load.py prints the pages' with --pages)
            print(f"  {python} x{workers}: {line.strip()}", flush=True)
    return float(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old", help="the Python of the install measured first")
    parser.add_argument("new", help="the Python of the install measured second")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", default="1,2", help="the numbers of processes, comma-separated")
    parser.add_argument("--think", type=float, default=0.0)
    parser.add_argument("--pages", action="store_true", help="each game's page open too (web_load.py --pages)")
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--server", help="a postgresql:// URL where new databases may be created")
    args = parser.parse_args()
    workers = [int(w) for w in args.workers.split(",")]
    if args.server is None and workers != [1]:
        parser.error("more than one process needs --server (a PostgreSQL database)")
    results: dict[tuple[str, int], list[float]] = {}
    run = 0
    for round_number in range(args.rounds):
        print(f"round {round_number + 1} of {args.rounds}", flush=True)
        for count in workers:
            for python in (args.old, args.new):
                run += 1
                name = f"tresfute_load_{run}"
                database = fresh_database(args.server, name) if args.server else None
                try:
                    rate = one_run(python, args.games, count, args.think, args.pages, args.port, database)
                finally:
                    if args.server:
                        drop_database(args.server, name)
                results.setdefault((python, count), []).append(rate)
    pages = ", each with its page open" if args.pages else ""
    print(f"{args.games} games{pages}, think {args.think} s, best / median of {args.rounds} rounds:")
    for python in (args.old, args.new):
        rates = {count: results[python, count] for count in workers}
        line = ", ".join(
            f"{count} process(es) {max(r):,.0f} / {statistics.median(r):,.0f} moves/s" for count, r in rates.items()
        )
        if len(workers) > 1:
            first, last = rates[workers[0]], rates[workers[-1]]
            line += (
                f"; {workers[-1]} over {workers[0]}: x{max(last) / max(first):.2f} (best),"
                f" x{statistics.median(last) / statistics.median(first):.2f} (median)"
            )
        print(f"  {python}: {line}")


if __name__ == "__main__":
    main()

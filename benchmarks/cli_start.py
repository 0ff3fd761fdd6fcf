"""How fast the command starts, and how big the package is.

    python benchmarks/cli_start.py [--runs 15] [--src DIR ...] [--dist DIR] [--site VENV ...]

Start time: ``tresfute --help``, ``tresfute score --help`` and ``tresfute --version``, each run
``--runs`` times in a fresh process (``python -c pass`` beside them: Python's own start), the
commands taken in turn so that a busy machine slows them all alike; the best and the median.
With ``--src`` (source folders, e.g. ``src`` of two checkouts) each one's ``tresfute`` is
timed in turn on this Python, through ``PYTHONPATH``, to compare two versions side by side;
without it, the installed ``tresfute``. ``--dist``: the size of each wheel and sdist in a folder
(``python -m build`` writes them to ``dist/``). ``--site``: the size of a virtual environment's
site-packages (a core install against a full one).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

COMMANDS = {"--help": ["--help"], "score --help": ["score", "--help"], "--version": ["--version"]}
RUN = "import sys; from tresfute.cli import main; sys.argv[0] = 'tresfute'; main()"


def _seconds(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def start_times(runs: int, sources: list[str]) -> dict[str, list[float]]:
    """Seconds of each (version, command), all taken in turn, ``runs`` rounds."""
    cases: dict[str, tuple[list[str], dict[str, str]]] = {"python -c pass": ([sys.executable, "-c", "pass"], {})}
    for source in sources or [""]:
        env = {"PYTHONPATH": str(Path(source).resolve())} if source else {}
        for name, args in COMMANDS.items():
            label = f"{source}: tresfute {name}" if source else f"tresfute {name}"
            cases[label] = ([sys.executable, "-c", RUN, *args], env)
    times: dict[str, list[float]] = {label: [] for label in cases}
    for _ in range(runs):
        for label, (argv, extra) in cases.items():
            times[label].append(_seconds(argv, {**os.environ, **extra}))
    return times


def size(path: Path) -> int:
    return path.stat().st_size if path.is_file() else sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--src", action="append", default=[], help="a source folder to time (repeat to compare)")
    parser.add_argument("--dist", type=Path, help="a folder of built wheels and sdists")
    parser.add_argument("--site", type=Path, action="append", default=[], help="a virtual environment")
    args = parser.parse_args()
    print(f"start time, {args.runs} runs each, in turn: best / median (seconds)")
    for label, seconds in start_times(args.runs, args.src).items():
        print(f"  {label:50} {min(seconds):.3f} / {statistics.median(seconds):.3f}")
    if args.dist:
        for path in sorted(args.dist.iterdir()):
            if path.name.endswith((".whl", ".tar.gz")):
                print(f"{path.name:50} {size(path) / 1e6:7.2f} MB")
    for venv in args.site:
        for site in sorted(venv.glob("lib/python3*/site-packages")):
            print(f"{site!s:50} {size(site) / 1e6:7.1f} MB")


if __name__ == "__main__":
    main()

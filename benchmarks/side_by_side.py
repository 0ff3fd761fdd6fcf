"""Two installs of tresfute measured in turn on one machine: the ratio is what to read.

    python benchmarks/side_by_side.py OLD_PYTHON NEW_PYTHON [--rounds 5]
                                     [--what random,lookahead,gym,strong,analyse] [--scale 1]
                                     [--game GAME] [--paired] [--players N] [--bot KIND]

Each Python is an interpreter with tresfute installed (and Gymnasium for ``gym``), for example
a virtual environment holding an older commit (``git worktree add /tmp/old COMMIT`` then
``python3.11 -m venv /tmp/old-venv && /tmp/old-venv/bin/pip install "/tmp/old[envs]"``). The
measurements run in a fresh process each, alternating between the two installs round after
round, so that a change of the machine's speed (a shared machine's only varies by tens of per
cent from one minute to the next) falls on both; the best of the rounds is kept. Both run with
one BLAS thread (``OPENBLAS_NUM_THREADS=1`` and the like in their environment), as the strong
player does by default since it pins it (``tresfute.bots.blas``). The code measured uses only
what every version of tresfute has had since its environments (``strong`` and ``analyse``:
since its value network, commit 58ba94a and later):

- ``random``: random solo games per second (``tresfute.simulate.play_game``, 2,000 games);
- ``lookahead``: afterstates valued per second by the value-only player
  (``tresfute.bots.strong.ValueBot``, 40 solo games; its evaluation is whatever that version
  ships);
- ``gym``: steps per second of one Gymnasium game (``gym.make``, a uniform legal action from
  the mask, 2 s), as ``benchmarks/env_speed.py`` measures it;
- ``strong``: seconds per solo game of the strong player (``tresfute.simulate.play_game``,
  games 0 to 3 of seed 1, the same games on both sides if their moves are the same);
- ``analyse``: the 95th percentile, in milliseconds, of ``tresfute.bots.analyse`` of one
  position (every decision of more than one move in the strong player's solo games 0 and 1 of
  seed 1; its default search, as the hints and the reviews ask for it);
- ``table`` (``--paired`` only): the mean, in milliseconds, of a computer player's decisions at
  a table (``--bot``, default ``strong-win``, in each of ``--players`` seats, default 4): the new
  install first plays games 0, 1, 2, … of seed 7 (``play_game``, not timed), then each install's
  own players decide at every position of those games, as the game goes, the recorded moves
  played after each decision, so that both decide on the same positions (since ``strong-win``,
  commit 54394aa and later).

Rates (``random``, ``lookahead``, ``gym``) are better higher, times (``strong``, ``analyse``)
lower; the last column is the speed-up of the new install either way (old time / new time).

``--paired`` (``strong`` and ``analyse`` only): each install runs in one process that stays up,
and the two take turns game by game (the first of each pair changing every game), so that a
slow minute of a shared machine falls on both sides of the same game rather than on one
install's whole round (this machine's speed was seen to vary by half from one round to the
next). Each process first plays a game that is not counted (it loads the network), then
``rounds`` times the games of one round, each a different game (``strong``: games 0, 1, 2, …
of seed 1; ``analyse``: the strong player's games of seeds 0, 1, 2, …), as a long-running
process meets them. The figures are the totals: seconds per game (old total / new total for
the speed-up) and the 95th percentile of every position analysed, with the median of the
per-game ratios beside them.
The times are the process's CPU time (``time.process_time``): on a machine shared with other
work, a wall clock would count the waits for a core too (with one BLAS thread, CPU time is the
wall time of an idle machine).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import tempfile

GAMES = ("tres-fute", "vraiment-tres-fute")
# each measure's unit, and whether it is a rate (better higher) rather than a time
UNITS = {
    "random": ("games/s", True),
    "lookahead": ("afterstates/s", True),
    "gym": ("steps/s", True),
    "strong": ("s/game", False),
    "analyse": ("ms at p95", False),
    "table": ("ms a decision", False),
}

# Both ways of measuring time ``analyse`` the same way (the code runs in the install measured).
ANALYSED = """
import time
from tresfute.rules import Game

def analysed(game, game_seed, bot_seed):
    # CPU seconds of each analysis of a position with more than one move, in a solo game of the strong player
    from tresfute.bots import analyse
    from tresfute.bots.strong import StrongBot
    g, bot, times = Game(game, players=1, seed=game_seed), StrongBot(bot_seed), []
    while not g.is_over:
        if len(g.legal_moves(0)) > 1:
            start = time.process_time()
            analyse(g)
            times.append(time.process_time() - start)
        g.play(bot.choose(g, 0), 0)
    return times
"""

MEASURE = (
    ANALYSED
    + """
import sys
game, what, scale = sys.argv[1], sys.argv[2], float(sys.argv[3])
import tresfute.rules
from tresfute.simulate import play_game
from tresfute.bots.strong import ValueBot
if what == "random":
    games = max(1, round(2000 * scale))
    start = time.perf_counter()
    for n in range(games):
        play_game(game, 1, "random", 1, n)
    rate = games / (time.perf_counter() - start)
elif what == "lookahead":
    valued = 0
    start = time.perf_counter()
    for n in range(max(1, round(40 * scale))):
        g, bot = Game(game, players=1, seed=n), ValueBot(n)
        while not g.is_over:
            moves = len(g.legal_moves(0))
            valued += moves if moves > 1 else 0
            g.play(bot.choose(g, 0), 0)
    rate = valued / (time.perf_counter() - start)
elif what == "strong":
    games = max(1, round(4 * scale))
    start = time.process_time()
    for n in range(games):
        play_game(game, 1, "strong", 1, n)
    rate = (time.process_time() - start) / games
elif what == "analyse":
    times = [t for n in range(max(1, round(2 * scale))) for t in analysed(game, n, n)]
    times.sort()
    rate = 1000 * times[min(len(times) - 1, int(0.95 * len(times)))]
else:
    import gymnasium as gym
    import numpy as np
    import tresfute.envs
    env, rng = gym.make(tresfute.envs.GYM_IDS[game]), np.random.default_rng(0)
    steps, episode = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < 2.0 * scale:
        _obs, info = env.reset(seed=episode)
        done = False
        while not done:
            mask = info["action_mask"]
            _obs, _r, done, _t, info = env.step(int(np.argmax(rng.random(mask.shape) * mask)))
            steps += 1
        episode += 1
    rate = steps / (time.perf_counter() - start)
print(rate, getattr(tresfute.rules, "COMPILED", False))
"""
)


PAIRED_WORKER = (
    ANALYSED
    + """
import json
import sys
import tresfute.rules
from tresfute.bots import make_bot
from tresfute.simulate import derived_seed, play_game
print(getattr(tresfute.rules, "COMPILED", False), flush=True)
for line in sys.stdin:
    what, game, n, *table = line.split(maxsplit=5)
    if what in ("record", "table"):  # a table's game n of seed 7 played by ``bot`` in every seat
        players, bot, n = int(table[0]), table[1], int(n) % 1000
        if what == "record":
            g = play_game(game, players, bot, 7, n)
            moves = [[h.player, str(h.move)] for h in g.history if h.player >= 0 and not h.forced]
            print(json.dumps(moves), flush=True)
            continue
        g = Game(game, players=players, seed=derived_seed(7, n, "game"))
        bots, times = [make_bot(bot, derived_seed(7, n, f"bot{p}")) for p in range(players)], []
        for p, move in json.loads(table[2]):  # the recorded moves: the same positions on both installs
            if len(g.legal_moves(p)) > 1:
                start = time.process_time()
                bots[p].choose(g, p)
                times.append(time.process_time() - start)
            g.play(move, p)
        print(" ".join(map(str, times)), flush=True)
        continue
    seed, n = (2, 0) if n == "-1" else (1, int(n))
    if what == "strong":
        start = time.process_time()
        play_game(game, 1, "strong", seed, n)
        print(time.process_time() - start, flush=True)
        continue
    print(" ".join(map(str, analysed(game, n + 1000 * (seed - 1), n))), flush=True)
"""
)


def _one_thread_env() -> dict[str, str]:
    one_thread = dict.fromkeys(("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"), "1")
    return {**os.environ, **one_thread}


def paired(
    pythons: tuple[str, str], what: str, game: str, rounds: int, scale: float, where: str, table: str = ""
) -> tuple[float, float, float, float, list[bool]]:
    """``what`` measured on both installs game by game (``--paired``): the old and the new
    figure, the speed-up, the median per-game ratio, and whether each install is compiled.
    ``table`` (``what`` = "table"): the players and the computer player, as "4 strong-win"."""
    workers = [
        subprocess.Popen(
            [python, "-c", PAIRED_WORKER],
            cwd=where,
            env=_one_thread_env(),
            text=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        for python in pythons
    ]
    try:
        started = [w.stdout.readline().strip() for w in workers]  # type: ignore[union-attr]
        for side, line in enumerate(started):
            if not line:
                raise RuntimeError(f"the {('old', 'new')[side]} install did not start (see its error above)")
        compiled = [line == "True" for line in started]
        count = rounds * max(1, round((4 if what == "strong" else 1 if what == "table" else 2) * scale))
        times: list[list[float]] = [[], []]
        ratios: list[float] = []
        recorded: dict[int, str] = {}
        if what == "table":  # the games' moves, played once by the new install (not timed)
            for n in [-1, *range(count)]:
                workers[1].stdin.write(f"record {game} {n} {table}\n")  # type: ignore[union-attr]
                workers[1].stdin.flush()  # type: ignore[union-attr]
                recorded[n] = workers[1].stdout.readline().strip()  # type: ignore[union-attr]
                if not recorded[n]:
                    raise RuntimeError("the new install stopped (see its error above)")
        for n in [-1, *range(count)]:  # first a warm-up game (seed 2; a table: game 999), not counted
            got: list[list[float]] = [[], []]
            for side in (0, 1) if n % 2 == 0 else (1, 0):
                asked = f"{what} {game} {n}" + (f" {table} {recorded[n]}" if what == "table" else "")
                workers[side].stdin.write(asked + "\n")  # type: ignore[union-attr]
                workers[side].stdin.flush()  # type: ignore[union-attr]
                line = workers[side].stdout.readline()  # type: ignore[union-attr]
                if not line:
                    raise RuntimeError(f"the {('old', 'new')[side]} install stopped (see its error above)")
                got[side] = [float(t) for t in line.split()]
            if n >= 0:
                times[0] += got[0]
                times[1] += got[1]
                ratios.append(sum(got[0]) / max(sum(got[1]), 1e-9))
    finally:
        for w in workers:
            with contextlib.suppress(OSError):  # a worker that stopped: said above
                w.stdin.close()  # type: ignore[union-attr]
            w.wait()
    if what == "strong":
        old, new = sum(times[0]) / count, sum(times[1]) / count
    elif what == "table":
        old, new = (1000 * sum(t) / max(len(t), 1) for t in times)
    else:
        old, new = (1000 * sorted(t)[min(len(t) - 1, int(0.95 * len(t)))] for t in times)
    ratios.sort()
    return old, new, old / new, ratios[len(ratios) // 2], compiled


def measure(python: str, game: str, what: str, scale: float, where: str) -> tuple[float, bool]:
    """One measurement in a fresh process (run outside any checkout, so the install is used)."""
    command = [python, "-c", MEASURE, game, what, str(scale)]
    done = subprocess.run(command, cwd=where, capture_output=True, text=True, check=True, env=_one_thread_env())
    rate, compiled = done.stdout.split()
    return float(rate), compiled == "True"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old", help="the Python of the install measured first (the reference)")
    parser.add_argument("new", help="the Python of the install compared with it")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--scale", type=float, default=1.0, help="games and seconds of each run, times this")
    parser.add_argument(
        "--what", default="random,lookahead,gym", help="comma-separated: random, lookahead, gym, strong, analyse"
    )
    parser.add_argument("--game", choices=GAMES, help="only this game (default: both)")
    parser.add_argument(
        "--paired", action="store_true", help="strong, analyse, table: the two installs take turns game by game"
    )
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=4, help="table: the table's size")
    parser.add_argument("--bot", default="strong-win", help="table: the computer player in every seat")
    args = parser.parse_args()
    kinds = [w for w in args.what.split(",") if w]
    unknown = set(kinds) - set(UNITS)
    if unknown:
        parser.error(f"unknown measurement(s): {', '.join(sorted(unknown))}")
    games = (args.game,) if args.game else GAMES
    if args.paired:
        if set(kinds) - {"strong", "analyse", "table"}:
            parser.error("--paired measures strong, analyse and table only (--what strong,analyse,table)")
        with tempfile.TemporaryDirectory() as where:
            for what in kinds:
                for game in games:
                    try:
                        old, new, speed_up, median, compiled_ = paired(
                            (args.old, args.new),
                            what,
                            game,
                            args.rounds,
                            args.scale,
                            where,
                            f"{args.players} {args.bot}",
                        )
                    except RuntimeError as error:
                        parser.exit(1, f"{error}\n")
                    kind = " / ".join("compiled" if c else "plain Python" for c in compiled_)
                    if what == "table":
                        kind += f"; {args.bot} at {args.players}"
                    print(
                        f"{what:9} {UNITS[what][0]:14} {game:18}  old {old:10,.3f}  new {new:10,.3f}  "
                        f"x{speed_up:.2f}  (median game x{median:.2f}; {kind})",
                        flush=True,
                    )
        return
    best: dict[tuple[str, str, str], float] = {}
    compiled: dict[str, bool] = {}
    with tempfile.TemporaryDirectory() as where:
        for round_number in range(1, args.rounds + 1):
            for what in kinds:
                for game in games:
                    for label, python in (("old", args.old), ("new", args.new)):
                        rate, compiled[label] = measure(python, game, what, args.scale, where)
                        key = (label, what, game)
                        better = max if UNITS[what][1] else min
                        best[key] = better(best.get(key, rate), rate)
                        shown = f"{rate:10,.0f}" if UNITS[what][1] else f"{rate:10,.3f}"
                        print(f"round {round_number}  {label}  {what:9}  {game:18}  {shown}", flush=True)
    print(
        f"\nbest of {args.rounds} (old: {'compiled' if compiled['old'] else 'plain Python'}, "
        f"new: {'compiled' if compiled['new'] else 'plain Python'})"
    )
    for what in kinds:
        for game in games:
            old, new = best[("old", what, game)], best[("new", what, game)]
            unit, rate = UNITS[what]
            speed_up, shown = (new / old, "10,.0f") if rate else (old / new, "10,.3f")
            print(f"{what:9} {unit:14} {game:18}  old {old:{shown}}  new {new:{shown}}  x{speed_up:.2f}")


if __name__ == "__main__":
    main()

"""Whether the review's numbers add up, on seeded solo games of several kinds of player.

    python benchmarks/review_quality.py --game tres-fute --games 24 --seed 1000 --out runs/rq-tf.jsonl

Plays ``--games`` solo games for each kind of player (random, greedy, and the strong player
with a seed other than the review's), reviews each (``bots.review.review_game``, one BLAS
thread) and prints, by kind: the mean of final score + total cost − start value (the costs are
expected losses: over many games this should come back to 0), the mean total cost, the share of
games with no decision labelled mistake or blunder, the accuracy and error rate, and the share
of pairs of games (one of each kind) that the accuracy orders as the kinds' strength does. Each
game's figures go to ``--out`` as one JSON line, and a run given the same file goes on where it
stopped. ``--rule NAME=true|false`` plays the games under that rules option (their records keep
it, so the review reads the game under its own rules). ``--players N`` plays tables of N
players of the kind (one BLAS thread each) and reviews one seat of each, in turn: a table's
reviews read the lift's table means (fewer rounds) and its last round without a sheet model.

Beyond the three default kinds, ``--kinds`` takes players of known strength in between
(benchmarks/known_players.py): ``beginner`` (the network's choice with a beginner's faults) and
``strong-hNN`` (the strong player, NN % of its moves replaced by a random legal move; e.g.
strong-h05, strong-h15, strong-h30). The summary then says whether the kinds' mean error rates
and levels come in the order of their strength, measured as their mean final score.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time
from pathlib import Path

from known_players import is_kind, make_player

from tresfute import records
from tresfute.bots import BOTS
from tresfute.bots.blas import blas_threads
from tresfute.bots.review import level, levels_of, review_game
from tresfute.rules import Game
from tresfute.simulate import add_rule_option, chosen_rules, derived_seed, play_game, rows_written, run_and_write

DEFAULT_KINDS = ("random", "greedy", "strong")
# every kind the summary knows, in the order of strength expected (weakest first)
KINDS = ("random", "greedy", "beginner", "strong-h30", "strong-h15", "strong-h05", "strong")


def play(game_id: str, players: int, kind: str, seed: int, n: int, rules: dict[str, bool]) -> Game:
    """Game ``n`` of ``kind`` at every seat: a built-in bot's as ``simulate.play_game`` plays it,
    another kind's on the same dice (``known_players.make_player``, seeded as play_game seeds)."""
    if kind in BOTS:
        return play_game(game_id, players, kind, seed, n, rules=rules)
    game = Game(game_id, players=players, seed=derived_seed(seed, n, "game"), rules=rules)
    bots = [make_player(kind, derived_seed(seed, n, f"bot{p}")) for p in range(players)]
    while not game.is_over:
        p = game.to_move
        assert p is not None and p >= 0
        game.play(bots[p].choose(game, p), p)
    return game


def one(job: tuple[str, str, int, int, dict[str, bool], int]) -> dict:
    game_id, kind, seed, n, rules, players = job
    with blas_threads():
        final = play(game_id, players, kind, seed, n, rules)
    record = records.record_of(final, [f"{kind}{p + 1}" for p in range(players)] if players > 1 else [kind])
    start = time.perf_counter()
    with blas_threads():
        review = review_game(record, player=n % players)
    seconds = time.perf_counter() - start
    counts = review.counts()
    return {
        "kind": kind,
        "n": n,
        "players": players,
        "final": review.final_score,
        "start": review.start_value,
        "total_cost": review.total_cost,
        "accuracy": review.accuracy,
        "error_rate": review.error_rate,
        "decisions": len(review.decisions),
        "mistakes": counts["mistake"] + counts["blunder"],
        "seconds": seconds,
        # each decision where the move played was not the choice: its cost and standard error
        "departures": [[round(d.cost, 2), round(d.cost_se, 2)] for d in review.decisions if d.played != d.best],
    }


def kinds_of(rows: list[dict]) -> list[str]:
    """The kinds of the rows: the default ones first (as before), then the others weakest first."""
    found = {r["kind"] for r in rows}
    order = [*DEFAULT_KINDS, *(k for k in KINDS if k not in DEFAULT_KINDS), *sorted(found - set(KINDS))]
    return [k for k in order if k in found]


def summary(rows: list[dict]) -> None:
    by_kind = {k: [r for r in rows if r["kind"] == k] for k in kinds_of(rows)}
    wide = max([8, *(len(k) for k in by_kind if by_kind[k])])
    heads = ("games", 5), ("final", 7), ("cost", 7), ("f+c-s", 14), ("clean", 6), ("acc", 6), ("err", 6), ("s/game", 7)
    print(f"{'kind':{wide}}" + "".join(f" {h:>{w}}" for h, w in heads))
    for kind, found in by_kind.items():
        if not found:
            continue
        gap = [r["final"] + r["total_cost"] - r["start"] for r in found]
        se = statistics.stdev(gap) / len(gap) ** 0.5 if len(gap) > 1 else float("nan")
        print(
            f"{kind:{wide}} {len(found):5d} {statistics.mean(r['final'] for r in found):7.1f}"
            f" {statistics.mean(r['total_cost'] for r in found):7.1f} {statistics.mean(gap):+8.1f} ±{se:4.1f}"
            f" {100 * sum(r['mistakes'] == 0 for r in found) / len(found):5.0f}%"
            f" {statistics.mean(r['accuracy'] for r in found):6.1f}"
            f" {statistics.mean(r['error_rate'] for r in found):6.2f}"
            f" {statistics.median(r['seconds'] for r in found):7.2f}"
        )
    for low, high in (("random", "greedy"), ("greedy", "strong")):
        pairs = [(a, b) for a in by_kind.get(low, []) for b in by_kind.get(high, [])]
        if pairs:
            for figure, better in (("accuracy", 1), ("error_rate", -1)):
                share = sum(better * (b[figure] - a[figure]) > 0 for a, b in pairs) / len(pairs)
                print(f"{high} above {low} by {figure}: {100 * share:.1f}% of {len(pairs)} pairs")


def level_summary(rows: list[dict], game_id: str) -> None:
    """The named levels (``bots.review.level``, the game's bounds) each kind's games fall in,
    and how often a random game and a greedy one fall in different levels, the random one lower:
    of the pairs of game *k* of each (the issue's figure), and of any two."""
    names = [name for name, _ in levels_of(game_id)]
    by_kind = {k: {r["n"]: level(r["error_rate"], game_id) for r in rows if r["kind"] == k} for k in kinds_of(rows)}
    wide = max([8, *(len(k) for k in by_kind)])
    for kind, found in by_kind.items():
        if found:
            counts = {name: list(found.values()).count(name) for name in names}
            print(f"{kind:{wide}} levels: " + ", ".join(f"{name} {c}" for name, c in counts.items() if c))
    random, greedy = by_kind.get("random", {}), by_kind.get("greedy", {})

    def apart(low: str, high: str) -> bool:
        return names.index(low) > names.index(high)  # names run from the best level down

    same_k = [(random[n], greedy[n]) for n in sorted(random.keys() & greedy.keys())]
    if same_k:
        ok = sum(apart(a, b) for a, b in same_k)
        print(f"random and greedy game k in different levels, random lower: {ok} of {len(same_k)} pairs")
        every = [(a, b) for a in random.values() for b in greedy.values()]
        ok = sum(apart(a, b) for a, b in every)
        print(f"  of any two: {ok} of {len(every)} ({100 * ok / len(every):.1f} %)")
    if any(k not in DEFAULT_KINDS for k in by_kind):
        strength_order(rows, game_id)


def strength_order(rows: list[dict], game_id: str) -> None:
    """Whether the kinds' mean error rates, and their mean levels (0 the best), come in the order
    of their strength, the strength being each kind's measured mean final score (not assumed).
    Two kinds whose mean final scores are within twice the standard error of their difference
    are of the same strength as measured: their order is not judged (said apart)."""
    names = [name for name, _ in levels_of(game_id)]
    stats = []
    for kind in kinds_of(rows):
        found = [r for r in rows if r["kind"] == kind]
        final = statistics.mean(r["final"] for r in found)
        se = statistics.stdev(r["final"] for r in found) / len(found) ** 0.5 if len(found) > 1 else float("nan")
        rank = statistics.mean(names.index(level(r["error_rate"], game_id)) for r in found)
        stats.append((final, se, statistics.mean(r["error_rate"] for r in found), rank, kind))
    stats.sort(reverse=True)
    print("by mean final score, strongest first (final ± se, mean error rate, mean level, 0 = " + names[0] + "):")
    for final, se, err, rank, kind in stats:
        print(f"  {kind:10} {final:6.1f} ± {se:3.1f}  err {err:5.2f}  level {rank:4.2f}")
    apart = [(a, b) for a, b in itertools.combinations(stats, 2) if a[0] - b[0] > 2 * (a[1] ** 2 + b[1] ** 2) ** 0.5]
    tied = [(a[4], b[4]) for a, b in itertools.combinations(stats, 2) if (a, b) not in apart]
    for what, column, tie in (("mean error rates", 2, ""), ("mean levels", 3, ", or equal")):
        out = [
            (a[4], b[4])
            for a, b in apart
            if float(a[column]) > float(b[column]) or (not tie and a[column] == b[column])
        ]
        verdict = "yes" if not out else "no: " + ", ".join(f"{a} not below {b}" for a, b in out)
        print(
            f"{what} in the order of strength (lower for the stronger{tie}), in {len(apart)} pairs of kinds "
            f"measurably apart in strength: {verdict}"
        )
    if tied:
        print("of the same strength as measured (within 2 se), not judged: " + ", ".join(f"{a}-{b}" for a, b in tied))
    expected = [k for k in reversed(KINDS) if any(k == s[4] for s in stats)]
    measured = [s[4] for s in stats]
    verdict = "is" if measured == expected else "is NOT"
    print(f"measured strength order {verdict} the expected one ({' > '.join(expected)})")
    # game k of two kinds neighbouring in strength: played on the same dice
    games = {(r["kind"], r["n"]): r["error_rate"] for r in rows}
    for stronger, weaker in itertools.pairwise(measured):
        same = [(games[stronger, n], games[weaker, n]) for k, n in games if k == stronger and (weaker, n) in games]
        if same:
            lower = sum(a < b for a, b in same)
            higher = sum(names.index(level(a, game_id)) < names.index(level(b, game_id)) for a, b in same)
            print(
                f"{stronger} and {weaker} game k: the stronger's error rate lower in {lower} of {len(same)}, "
                f"its level higher in {higher}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=["tres-fute", "vraiment-tres-fute"], required=True)
    parser.add_argument("--games", type=int, default=24, help="games of each kind")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--kinds",
        default=",".join(DEFAULT_KINDS),
        help=f"the kinds of player, comma-separated: {', '.join(KINDS)} (strong-hNN: any handicap NN %%)",
    )
    parser.add_argument("--out", type=Path)
    parser.add_argument("--players", type=int, default=1, choices=[1, 2, 3, 4], help="players at each table")
    add_rule_option(parser)
    args = parser.parse_args()
    rules = chosen_rules(parser, args.game, args.rule)
    rows = rows_written(args.out)
    done = {(r["kind"], r["n"]) for r in rows}
    kinds = [k for k in args.kinds.split(",") if k]
    if any(not is_kind(k) for k in kinds):
        parser.error(f"--kinds: each of {', '.join(KINDS)} (or strong-hNN)")
    jobs = [
        (args.game, kind, args.seed, n, rules, args.players)
        for n in range(args.games)
        for kind in kinds
        if (kind, n) not in done
    ]
    rows.extend(run_and_write(one, jobs, args.workers, args.out))
    summary(rows)
    level_summary(rows, args.game)


if __name__ == "__main__":
    main()

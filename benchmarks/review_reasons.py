"""Whether the review's reasons name what a costly decision's cost comes from, on beginner-like games.

    python benchmarks/review_reasons.py --game tres-fute --games 20 --seed 5600 --out runs/rr-tf.jsonl

Plays ``--games`` solo games of a beginner-like player (here only: it plays the network's
choice, but makes a beginner's typical faults now and then: the die that scores most at once
whatever it sends to the platter, a bonus placed anywhere, a +1 forgotten, a reprise skipped,
an impulsive reroll), reviews each (``bots.review.review_game``) and, for every decision that
cost ``--from`` points or more, measures its causes again on many longer futures
(``bots.why.measure`` valued on ``--futures`` futures going one turn further: the reference)
and checks whether the reason names the cause that accounts for most of the cost there (the
first cause it names; "named at all": any cause it names). It prints the share of such
decisions whose reason names the reference's largest cause, the share of template reasons
(the futures' sentence where no cause is seen, or "a position worth ... more"), the time the
reasons take next to the whole review, and the named causes by fault. One JSON line per game
goes to ``--out`` (a run given the same file goes on where it stopped). ``--rule NAME=true|false``
plays the games under that rules option (the strict reading of Vraiment très futé:
``--rule reprise_with_no_die_left=false``).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from pathlib import Path

from known_players import Beginner

from tresfute import records
from tresfute.bots import review as review_module
from tresfute.bots import why as why_module
from tresfute.bots.blas import blas_threads
from tresfute.bots.futures import future_values
from tresfute.bots.network import valuation_network
from tresfute.rules import Game, Move, parse_move
from tresfute.simulate import add_rule_option, chosen_rules, rows_written, run_and_write

TEMPLATES = {
    "the strong player's simulated futures find the best move worth {cost} points more, which its valuation "
    "of the position alone does not show; its line: {line}",
    "the best move leaves a position worth about {size} more for the rest of the game",
}
SEEN = 1.0  # a decision whose reference finds no cause this large is left out (it sees no gap)


def play(game_id: str, seed: int, rules: dict[str, bool] | None = None) -> tuple[Game, dict[int, str]]:
    """A solo game of the beginner (``known_players.Beginner``) under ``rules``, and its faults by
    record move number (from 1)."""
    game, bot, faults = Game(game_id, 1, seed=seed, rules=rules), Beginner(seed), {}
    while not game.is_over:
        move, fault = bot.choose_with_fault(game, 0)
        game.play(move, 0)
        if fault is not None:
            faults[len(game.moves_played())] = fault
    return game, faults


def reference(game: Game, best: Move, played: Move, futures: int) -> dict[str, float]:
    """The causes measured on ``futures`` futures going one turn further than the reasons' own."""
    network = valuation_network(game)
    seeds = [hash((game.round, game.turn, game.dice_rolled, 9_000_000 + i)) for i in range(futures)]

    def value(games: list[Game], player: int) -> list[float]:
        rows = future_values(games, seeds, player, network, more_turns=1, aligned=True)
        return [sum(row) / len(row) for row in rows]

    found, _ = why_module.measure(game, 0, best, played, value)
    return {c.name: round(c.size, 2) for c in found}


def one(job: tuple[str, int, float, int, dict[str, bool]]) -> dict:
    game_id, seed, low, futures, rules = job
    with blas_threads():
        final, faults = play(game_id, seed, rules)
        record = records.record_of(final, ["beginner"])
        spent = [0.0]
        explain_cost = why_module.explain_cost

        def timed(*args: object, **kwargs: object) -> why_module.Explained:
            start = time.perf_counter()
            try:
                return explain_cost(*args, **kwargs)  # type: ignore[arg-type]
            finally:
                spent[0] += time.perf_counter() - start

        review_module.explain_cost = timed  # type: ignore[assignment]
        start = time.perf_counter()
        try:
            review = review_module.review_game(record)
        finally:
            review_module.explain_cost = explain_cost
        seconds = time.perf_counter() - start
        by_number = {d.move_number: d for d in review.decisions}
        game = Game(record.game, players=1, seed=record.seed, dice=record.dice, rules=final.rules)
        rows = []
        for number, entry in enumerate(record.moves, start=1):
            _, text = records.split_entry(entry)
            d = by_number.get(number)
            if d is not None and d.reason is not None and d.cost >= low:
                explained = explain_cost(game, 0, d.best, d.played, d.cost, final)
                truth = reference(game, d.best, d.played, futures)
                rows.append(
                    {
                        "move": number,
                        "cost": round(d.cost, 2),
                        "fault": faults.get(number),
                        "named": list(explained.named),
                        "theme": explained.theme,
                        "template": d.reason.template in TEMPLATES,
                        "causes": {c.name: round(c.size, 2) for c in explained.causes},
                        "reference": truth,
                        "reason": str(d.reason),
                    }
                )
            game.play(parse_move(text), 0)
    return {
        "seed": seed,
        "game": game_id,
        "rules": rules,
        "seconds": seconds,
        "why_seconds": spent[0],
        "reasons": sum(d.reason is not None for d in review.decisions),
        "templates": sum(d.reason is not None and d.reason.template in TEMPLATES for d in review.decisions),
        "faults": len(faults),
        "decisions": rows,
    }


def summary(games: list[dict]) -> None:
    rows = [r for g in games for r in g["decisions"]]
    if not rows:
        print("no costly decision")
        return
    blind = [r for r in rows if max(r["reference"].values()) < SEEN]
    rows = [r for r in rows if max(r["reference"].values()) >= SEEN]
    top = [max(r["reference"], key=r["reference"].get) for r in rows]
    first = sum(bool(r["named"]) and r["named"][0] == t for r, t in zip(rows, top, strict=True))
    anywhere = sum(t in r["named"] for r, t in zip(rows, top, strict=True))
    reasons = sum(g["reasons"] for g in games)
    print(
        f"games {len(games)}, costly decisions (cost >= threshold) {len(rows) + len(blind)}, of which "
        f"{len(blind)} where the reference sees no cause of {SEEN} point or more (left out)"
    )
    print(f"reason names the reference's largest cause first: {100 * first / len(rows):.1f}%")
    print(f"reason names it at all: {100 * anywhere / len(rows):.1f}%")
    print(f"template reasons: {100 * sum(g['templates'] for g in games) / max(reasons, 1):.1f}% of {reasons}")
    print(
        f"review s/game: median {statistics.median(g['seconds'] for g in games):.2f}, reasons' share "
        f"{100 * sum(g['why_seconds'] for g in games) / sum(g['seconds'] for g in games):.1f}%"
    )
    print("reference's largest cause:", dict(Counter(top)))
    by_fault: dict[str, Counter[str]] = {}
    for r in rows:
        by_fault.setdefault(r["fault"] or "none", Counter())[r["named"][0] if r["named"] else "template"] += 1
    for fault, named in sorted(by_fault.items()):
        print(f"  fault {fault:11} named first: {dict(named)}")
    print("themes:", dict(Counter(r["theme"] for r in rows)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=["tres-fute", "vraiment-tres-fute"], required=True)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=5600, help="first game's seed (held out: 5600 and on)")
    parser.add_argument("--from", dest="low", type=float, default=5.0, help="decisions costing this much or more")
    parser.add_argument("--futures", type=int, default=48, help="futures per position of the reference")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path)
    add_rule_option(parser)
    args = parser.parse_args()
    rules = chosen_rules(parser, args.game, args.rule)
    games = rows_written(args.out)
    done = {g["seed"] for g in games}
    jobs = [
        (args.game, seed, args.low, args.futures, rules)
        for seed in range(args.seed, args.seed + args.games)
        if seed not in done
    ]
    games.extend(run_and_write(one, jobs, args.workers, args.out))
    summary([g for g in games if args.seed <= g["seed"] < args.seed + args.games])


if __name__ == "__main__":
    main()

"""Whether a review's costs agree with strong rollouts to the end (``bots/verify.py``).

    python benchmarks/review_verify.py --seed 500 --games 12 --out runs/rv-tune.jsonl --fit
    python benchmarks/review_verify.py --seed 5300 --games 12 --out runs/rv-5300.jsonl

Plays seeded solo games of the greedy and the random player (alternately), reviews each
(``review_game``), and verifies some of its costly decisions by rollouts (``verify_decision``,
``--rollouts`` each): the costliest, and the costliest of each kind the issue found off (a
reprise against rolling, a pick that ends the active player's picks, one of the game's last
three decisions), those that cost ``--from`` points or more (``--only KINDS``: only the
costliest of those kinds, a cheaper run where rollouts from early in a game are dear, as in
Vraiment très futé). Each decision verified goes to ``--out`` as one JSON line (a run given the
same file goes on where it stopped). The summary: the share of decisions whose shown cost
agrees with its verification within two combined standard errors (the review's ±, which
includes the valuation's own error, and the rollouts'), by kind. ``--fit`` also fits the
allowance ``base + share × |cost|`` for the valuation's own error by maximum likelihood
(:func:`fit`; to be set in ``bots/verify.py``, on tuning seeds < 1000 only).
``--base``/``--share`` check another allowance than the shipped.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from multiprocessing import Pool
from pathlib import Path

from tresfute import records
from tresfute.bots.blas import blas_threads
from tresfute.bots.review import Decision, review_game
from tresfute.bots.verify import ERROR_BASE, ERROR_SHARE, verify_decision
from tresfute.review_text import positions
from tresfute.rules import Game, MoveKind
from tresfute.rules.game import Phase
from tresfute.simulate import play_game

KINDS = ("greedy", "random")
PICKS_OVER = {Phase.ACTIVE_EXTRA, Phase.SOLO_ROLL, Phase.PASSIVE, Phase.TURN_START, Phase.OVER}


def categories(game: Game, d: Decision, last: bool) -> list[str]:
    """The kinds of decision the issue found off: ``reprise`` (a reprise against rolling),
    ``ends_picks`` (a pick after which the active player picks no more, for either move),
    ``last`` (one of the game's last three decisions of the player)."""
    found = []
    if {d.played.kind, d.best.kind} & {MoveKind.REPRISE, MoveKind.ROLL}:
        found.append("reprise")
    for move in (d.played, d.best):
        if move.kind is MoveKind.PICK:
            after = game.copy()
            after.play(move, 0)
            if after.phase in PICKS_OVER:
                found.append("ends_picks")
                break
    if last:
        found.append("last")
    return found


def one(job: tuple[str, str, int, int, int, float, tuple[str, ...]]) -> list[dict]:
    game_id, kind, seed, n, rollouts, least, only = job
    with blas_threads():
        final = play_game(game_id, 1, kind, seed, n)
    record = records.record_of(final, [kind])
    review = review_game(record)
    games = positions(record, review)
    lasts = {d.move_number for d in review.decisions[-3:]}
    tagged = [(d, categories(games[d.move_number], d, d.move_number in lasts)) for d in review.decisions]
    costly = sorted(((d, c) for d, c in tagged if d.cost >= least), key=lambda dc: -dc[0].cost)
    chosen: dict[int, tuple[Decision, list[str]]] = {}
    if costly and not only:
        chosen[costly[0][0].move_number] = costly[0]
    for wanted in only or ("reprise", "ends_picks", "last"):
        found = next(((d, c) for d, c in costly if wanted in c), None)
        if found is not None:
            chosen.setdefault(found[0].move_number, found)
    rows = []
    for number, (d, tags) in sorted(chosen.items()):
        start = time.perf_counter()
        verified = verify_decision(games[number], 0, d.played, d.best, rollouts)
        rows.append(
            {
                "kind": kind,
                "seed": seed,
                "n": n,
                "move_number": number,
                "round": d.round,
                "played": str(d.played),
                "best": str(d.best),
                "cost": round(d.cost, 3),
                "cost_se": round(d.cost_se, 3),
                "categories": tags,
                "verified": verified.cost,
                "verified_se": round(verified.se, 3),
                "rollouts": verified.rollouts,
                "seconds": round(time.perf_counter() - start, 2),
            }
        )
    if not rows:  # the game is done, with nothing to verify
        rows.append({"kind": kind, "seed": seed, "n": n, "move_number": None})
    return rows


def agrees(row: dict, base: float, share: float) -> bool:
    shown = math.hypot(row["cost_se"], base + share * abs(row["cost"]))
    return abs(row["cost"] - row["verified"]) <= 2 * math.hypot(shown, row["verified_se"])


def summary(rows: list[dict], base: float, share: float) -> None:
    rows = [r for r in rows if r.get("move_number") is not None]
    if not rows:
        print("no decision verified")
        return
    print(f"allowance for the valuation's own error: {base} + {share} × |cost|")
    groups = {"all": rows}
    for tag in ("reprise", "ends_picks", "last"):
        groups[tag] = [r for r in rows if tag in r["categories"]]
    groups["none of those"] = [r for r in rows if not r["categories"]]
    for name, found in groups.items():
        if not found:
            continue
        ok = sum(agrees(r, base, share) for r in found)
        naive = sum(agrees(r, 0.0, 0.0) for r in found)
        off = sum(r["cost"] - r["verified"] for r in found) / len(found)
        print(
            f"{name:14} {ok:3d} of {len(found):3d} agree ({100 * ok / len(found):5.1f} %);"
            f" with the futures' se alone {naive} ({100 * naive / len(found):.1f} %); mean shown − verified {off:+.1f}"
        )
    for r in sorted(rows, key=lambda r: -abs(r["cost"] - r["verified"]))[:5]:
        print(
            f"  seed {r['seed']} game {r['n']} move {r['move_number']} {r['played']} for {r['best']}:"
            f" {r['cost']:.1f} ± {r['cost_se']:.1f}, verified {r['verified']:.1f} ± {r['verified_se']:.1f}"
            f" {r['categories']}"
        )


def fit(rows: list[dict]) -> tuple[float, float]:
    """The allowance ``base + share × |cost|`` of greatest likelihood: each difference between a
    shown cost and its verification taken as normal about 0, its variance the futures' standard
    error², the rollouts'², and the allowance² (a grid of tenths of a point and hundredths)."""
    rows = [r for r in rows if r.get("move_number") is not None]
    best: tuple[float, float, float] | None = None
    for base10 in range(0, 101):
        for share100 in range(0, 101):
            base, share = base10 / 10, share100 / 100
            likelihood = 0.0
            for r in rows:
                variance = max(0.01, r["cost_se"] ** 2 + r["verified_se"] ** 2 + (base + share * abs(r["cost"])) ** 2)
                likelihood -= 0.5 * (math.log(variance) + (r["cost"] - r["verified"]) ** 2 / variance)
            if best is None or likelihood > best[0]:
                best = (likelihood, base, share)
    assert best is not None
    return best[1], best[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=["tres-fute", "vraiment-tres-fute"], default="tres-fute")
    parser.add_argument("--games", type=int, default=12, help="games of each kind")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--rollouts", type=int, default=32)
    parser.add_argument("--from", dest="least", type=float, default=2.0, help="the least cost verified")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--base", type=float, default=ERROR_BASE)
    parser.add_argument("--share", type=float, default=ERROR_SHARE)
    parser.add_argument("--fit", action="store_true", help="fit the allowance (tuning seeds only)")
    parser.add_argument("--summary", action="store_true", help="only summarise --out")
    parser.add_argument(
        "--only",
        default="",
        help="verify only the costliest of these kinds (comma-separated: reprise, ends_picks, last), not the costliest",
    )
    args = parser.parse_args()
    rows: list[dict] = []
    if args.out.exists():
        rows = [json.loads(line) for line in args.out.read_text().splitlines() if line.strip()]
    if not args.summary:
        done = {(r["kind"], r["n"]) for r in rows}
        kinds = [k for k in args.kinds.split(",") if k]
        only = tuple(k for k in args.only.split(",") if k)
        if any(k not in ("reprise", "ends_picks", "last") for k in only):
            parser.error("--only: reprise, ends_picks, last")
        jobs = [
            (args.game, kind, args.seed, n, args.rollouts, args.least, only)
            for n in range(args.games)
            for kind in kinds
            if (kind, n) not in done
        ]
        args.out.parent.mkdir(parents=True, exist_ok=True)
        with Pool(args.workers) as pool:
            for found in pool.imap_unordered(one, jobs):
                rows += found
                with args.out.open("a") as f:
                    for row in found:
                        f.write(json.dumps(row) + "\n")
                summary(rows, args.base, args.share)
    if args.fit:
        if args.seed >= 1000:
            parser.error("--fit: on tuning seeds (< 1000) only")
        base, share = fit(rows)
        print(f"fitted on {len(rows)} rows: base {base}, share {share}")
        summary(rows, base, share)
    else:
        summary(rows, args.base, args.share)


if __name__ == "__main__":
    main()

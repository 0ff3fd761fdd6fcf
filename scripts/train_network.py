"""Train the strong player's value network (``bots/data/network-<game>.npz``) by self-play.

    python scripts/train_network.py --game tres-fute --iterations 40 --games 2000 --workers 2 \
        --checkpoint runs/tres-fute.ckpt.npz --out src/tresfute/bots/data/network-tres-fute.npz

Each iteration plays ``--games`` solo games (or games at tables: ``--players``) with the current
network and fits it by TD(lambda) (see ``tresfute.bots.training``). A checkpoint is written after
every iteration; run the same command again with ``--resume`` to go on from it. The network
written to ``--out`` is the best by the periodic evaluation (on evaluation seeds, never the
benchmark's held-out ones). Needs numpy.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tresfute.bots.network import ValueNetwork
from tresfute.bots.training import Settings, final_network, load_checkpoint, new_state, run
from tresfute.progress import progress_bar
from tresfute.simulate import add_rule_option, chosen_rules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True, choices=["tres-fute", "vraiment-tres-fute"])
    parser.add_argument("--iterations", type=int, default=Settings.iterations)
    parser.add_argument("--games", type=int, default=Settings.games, help="self-play games per iteration")
    parser.add_argument("--hidden", type=int, nargs="+", default=[128, 128], help="hidden layer sizes")
    parser.add_argument("--lam", type=float, default=Settings.lam, help="TD(lambda)'s lambda")
    parser.add_argument("--explore", type=float, nargs=2, default=Settings.explore, metavar=("FIRST", "LAST"))
    parser.add_argument(
        "--learning-rate", type=float, nargs=2, default=Settings.learning_rate, metavar=("FIRST", "LAST")
    )
    parser.add_argument(
        "--teacher", type=int, default=0, help="first iterations learned from the linear evaluation's values"
    )
    parser.add_argument(
        "--search",
        action="store_true",
        help="self-play moves chosen by the strong player's search over the network (about ten times slower)",
    )
    parser.add_argument(
        "--openings",
        type=float,
        default=Settings.openings,
        help="share of training games begun by a random, greedy or careless player (beginners' sheets to value)",
    )
    add_rule_option(
        parser,
        help="a rules option of the games (a reading of the rules: its own network), e.g. "
        "--rule reprise_with_no_die_left=false",
    )
    parser.add_argument(
        "--players",
        type=int,
        nargs="+",
        choices=[1, 2, 3, 4],
        default=[1],
        help="table sizes, in turn game by game: 2 to 4 train a table network (from --start, grown with the "
        "table's inputs), every seat played by the network",
    )
    parser.add_argument("--eval-every", type=int, default=Settings.eval_every)
    parser.add_argument("--eval-games", type=int, default=Settings.eval_games)
    parser.add_argument("--seed", type=int, default=Settings.seed)
    parser.add_argument("--workers", type=int, default=Settings.workers)
    parser.add_argument(
        "--start",
        type=Path,
        help="grow from this network instead of random weights (a network file, or a checkpoint: the network "
        "of its last iteration)",
    )
    parser.add_argument("--checkpoint", type=Path, help="write a checkpoint here after every iteration")
    parser.add_argument("--resume", action="store_true", help="go on from --checkpoint")
    parser.add_argument("--until", type=int, help="stop after this iteration (resume later with --resume)")
    parser.add_argument("--out", type=Path, required=True, help="where to write the best network")
    args = parser.parse_args()

    if args.resume:
        if args.checkpoint is None or not args.checkpoint.exists():
            parser.error("--resume needs an existing --checkpoint")
        state = load_checkpoint(args.checkpoint)
        if state.settings.game != args.game:
            parser.error(f"the checkpoint is a {state.settings.game} run, not {args.game}")
        state.settings.iterations = args.iterations  # a resumed run may be lengthened or shortened
        state.settings.workers = args.workers
    else:
        settings = Settings(
            game=args.game,
            iterations=args.iterations,
            games=args.games,
            hidden=tuple(args.hidden),
            lam=args.lam,
            explore=tuple(args.explore),
            learning_rate=tuple(args.learning_rate),
            teacher=args.teacher,
            eval_every=args.eval_every,
            eval_games=args.eval_games,
            seed=args.seed,
            workers=args.workers,
            search=args.search,
            openings=args.openings,
            rules=chosen_rules(parser, args.game, args.rule),
            players=tuple(args.players),
        )
        state = new_state(settings, _start_network(args.start) if args.start else None)
    state = run(state, args.checkpoint, report=_report, bar=progress_bar, until=args.until)
    final = final_network(state)
    final.save(args.out)
    judged = f"best evaluation mean {state.best_mean:.1f}" if state.best is not None else "not evaluated yet"
    print(f"{judged}; network written to {args.out} (weights SHA-256 {final.weights_digest()})")


def _start_network(path: Path) -> ValueNetwork:
    """The network in a network file, or the last iteration's in a training checkpoint."""
    import numpy as np

    with np.load(path, allow_pickle=False) as arrays:
        is_checkpoint = "meta" in arrays.files
    return load_checkpoint(path).network if is_checkpoint else ValueNetwork.load(path)


def _report(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()

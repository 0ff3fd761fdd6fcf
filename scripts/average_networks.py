"""Average value networks of one game into one file (its output is the mean of theirs).

    python scripts/average_networks.py --out src/tresfute/bots/data/network-tres-fute.npz \
        runs/network-tres-fute-phase2.npz runs/network-tres-fute-phase3.npz

Networks of one lineage trained further disagree on the positions they value worst; their mean
is steadier than either (see ``docs/bench.md``). The file keeps each member's training record.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tresfute.bots.network import ValueNetwork


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("networks", nargs="+", type=Path, help="network files of one game (.npz)")
    parser.add_argument("--out", required=True, type=Path, help="where to write the averaged network")
    args = parser.parse_args()
    try:
        members = [ValueNetwork.load(path) for path in args.networks]
        game = members[0].spec_id
        info = {"settings": {"game": game, "average_of": [path.name for path in args.networks]}}
        info["members"] = [member.info for member in members]
        averaged = ValueNetwork.average(members, info)
    except (OSError, ValueError) as error:
        sys.exit(f"average_networks: {error}")
    averaged.save(args.out)
    print(
        f"{args.out}: the mean of {len(members)} {game} networks (weights SHA-256 {averaged.weights_digest()})",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()

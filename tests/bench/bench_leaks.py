"""The counterfactual leak check (tests/conformance/leaks.py) at size: random matches of every game,
across seat counts and option sets, each seat's (and a spectator's) observations compared with a
twin state's that differs only in what it may not know. Prints the findings; asserts nothing.

    python tests/bench/bench_leaks.py [--matches 1000] [--every 4] [--game taverna ...]

``--every N``: a viewer and its twins are checked at one version in N on average. Each finding line
names the match (seed ``leaks-<n>``), the version, the viewer, what differed and where it showed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

if not any(Path(p, "domain").is_dir() for p in sys.path[1:] if p):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from domain.games import game_ids, get_game
from tests.conformance.leaks import COMMANDS, option_sets, run


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--every", type=int, default=4)
    parser.add_argument("--game", action="append", choices=game_ids())
    args = parser.parse_args()
    total = 0
    for game_id in args.game or game_ids():
        game = get_game(game_id)
        started = time.perf_counter()
        findings = run(game, args.matches, every=args.every)
        total += len(findings.found)
        print(
            f"{game_id}: {args.matches} matches over {len(option_sets(game))} option sets, "
            f"{findings.checked} twins compared, {len(findings.found)} findings, "
            f"{findings.cut} cut at {COMMANDS} commands without an end, "
            f"{time.perf_counter() - started:.0f} s",
            flush=True,
        )
        for finding in findings.found[:20]:
            print("   ", finding)
    print(f"findings: {total}")


if __name__ == "__main__":
    main()

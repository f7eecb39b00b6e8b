"""Every conformance case with its whole count of random matches (tests/conformance/cases.py; the
suite plays half of each, tests/conformance/test_conformance.py), printing each case's time.

    python tests/bench/bench_conformance.py [--game taverna] [--case N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

if not any(Path(p, "tests").is_dir() for p in sys.path[1:] if p):  # run as a script, from anywhere
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from domain.games import get_game
from tests.conformance.cases import CASES
from tests.conformance.harness import check_match
from tests.conformance.test_conformance import case_id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", help="only this game's cases")
    parser.add_argument("--case", type=int, help="only the case at this index of CASES")
    asked = parser.parse_args()
    total = time.process_time()
    for number, case in enumerate(CASES):
        if (asked.game and case.game != asked.game) or asked.case not in (None, number):
            continue
        game = get_game(case.game)
        setup = game.setup(case.seats, case.options)
        started = time.process_time()
        for index in range(case.matches):
            check_match(game, setup, seed=f"conformance-{case.game}-{case.seats}-{index}")
        print(f"{case_id(case, 0)[:-2]:70} {case.matches:4} matches {time.process_time() - started:8.1f} s CPU")
    print(f"all: {time.process_time() - total:.1f} s CPU")


if __name__ == "__main__":
    main()

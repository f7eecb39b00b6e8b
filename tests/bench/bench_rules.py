"""Hero's Tavern rules benchmark: prints figures, asserts nothing (pytest does not collect it).

    python tests/bench/bench_rules.py [--matches 20] [--runs 5]

- fold: events per second the fold replays (a set of recorded 4-seat matches folded again and
  again; the median of several runs);
- simulate: matches per second of whole bot matches, all random and one greedy against random.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from domain.bots.random_bot import RandomBot
from domain.heros_tavern import GAME
from domain.kernel import fold, play
from services.cli.simulate import simulate


def fold_rate(matches: int, runs: int, seats: int = 4) -> float:
    setup = GAME.setup(seats)
    logs = [play(GAME, setup, f"bench:{i}", [RandomBot() for _ in range(seats)]).events for i in range(matches)]
    events = sum(map(len, logs))
    rates = []
    for _ in range(runs):
        started = time.perf_counter()
        for _ in range(5):
            for log in logs:
                fold(GAME, setup, log)
        rates.append(5 * events / (time.perf_counter() - started))
    return statistics.median(rates)


def simulate_rate(bots: list[str], matches: int, seats: int = 4) -> float:
    return simulate(GAME, GAME.setup(seats), "bench", matches, bots, io.StringIO())["matches_per_s"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"fold: {fold_rate(args.matches, args.runs):,.0f} events/s (median of {args.runs} runs)")
    for bots in (["random"], ["greedy", "random", "random", "random"]):
        rate = simulate_rate(bots, 5 * args.matches)
        print(f"simulate {'+'.join(bots)} at 4 seats: {rate:.1f} matches/s")


if __name__ == "__main__":
    main()

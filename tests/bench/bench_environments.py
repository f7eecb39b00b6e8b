"""The research environments' benchmark: prints figures, asserts nothing (pytest does not collect it).

    python tests/bench/bench_environments.py [--matches 10] [--game taverna]

Per game (each seat count, default options, and Tavern Masters' variants), random masked play to
the end: the longest ``legal`` met (against each game's slot bound, environments/games/*.py), moves
per second, and how often seat_0 wins, beside a random seat's fair share of a competitive table (in co-operative
and solo play the table wins or loses together: there it is how often random play reaches the goal).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from environments import env

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("heros-tavern", {}),
    ("tavern-masters", {}),
    ("tavern-masters", {"dirty_deeds": True}),
    ("tavern-masters", {"mode": "cooperative"}),
    ("tavern-masters", {"mode": "solo"}),
    ("taverna", {}),
    ("mercenaries", {}),
    ("mercenaries", {"best_of": 3}),
]


def run(game: str, options: dict[str, Any], matches: int) -> None:
    base = env(game, options=options)
    seat_counts = [1] if options.get("mode") == "solo" else range(base.game.min_seats, base.game.max_seats + 1)
    for seats in seat_counts:
        table = env(game, seats=seats, options=options)
        longest, moves, wins, started = 0, 0, 0, time.perf_counter()
        for match in range(matches):
            table.reset(seed=match)
            rng = np.random.default_rng(match)
            for agent in table.agent_iter():
                seen, reward, terminated, truncated, _ = table.last()
                if terminated or truncated:
                    wins += agent == "seat_0" and reward > 0
                    table.step(None)
                    continue
                longest = max(longest, max(len(table.legal(a)) for a in table.agents))
                table.step(int(rng.choice(np.flatnonzero(seen["action_mask"]))))
                moves += 1
        seconds = time.perf_counter() - started
        bound = table.action_space("seat_0").n
        print(
            f"{game:15} {options!s:28} seats {seats}: longest legal {longest:4} of {bound:4}, "
            f"{moves / seconds:6.0f} moves/s, seat_0 won {wins}/{matches} (fair {matches / seats:.1f})"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--game", help="only this game's variants")
    args = parser.parse_args()
    for game, options in VARIANTS:
        if args.game in (None, game):
            run(game, options, args.matches)


if __name__ == "__main__":
    main()

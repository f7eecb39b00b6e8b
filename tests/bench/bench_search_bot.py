"""The search bots against the greedy bots. Prints figures, asserts nothing.

    python tests/bench/bench_search_bot.py [--matches 100] [--games heros-tavern ...] [--seats 3 4] [--bot search]

For each game and seat count: matches with one seat played by the game's ``search`` bot (or the kind
``--bot`` names, e.g. Mercenaries' ``careful`` or Tavern Masters' ``planner``) and every other seat
by ``greedy``, the search bot's seat going round the table from match to match. Prints
the search bot's win rate (a shared win counts as a win) with its 95% Wilson interval, the rate a
greedy seat would have at that table (1 / seats: every seat alike), the rate of a greedy bot in
the same seat with the same seeds at an all-greedy table (a paired check: the seeds' own luck),
and the search bot's CPU time per move (process time: other processes on the
machine do not count) as median and 99th percentile. Moves with one legal choice are answered
without a search and left out of the times.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

if not any(Path(p, "domain").is_dir() for p in sys.path[1:] if p):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from domain.games import game_ids, get_game, make_bot
from domain.kernel import Bot, Command, Rng, play

SEATS = {"heros-tavern": (3, 4, 5), "tavern-masters": (2, 3, 4), "taverna": (2, 3, 4), "mercenaries": (2,)}


class Timed:
    """A bot whose searching moves are timed in process CPU time."""

    def __init__(self, bot: Bot, times: list[float]) -> None:
        self.bot = bot
        self.times = times

    def choose(self, view: Any, legal: Sequence[Command], rng: Rng) -> Command:
        start = time.process_time()
        command = self.bot.choose(view, legal, rng)
        if len(legal) > 1:
            self.times.append(time.process_time() - start)
        return command


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def run(game_id: str, seats: int, matches: int, kind: str) -> tuple[int, list[float]]:
    game = get_game(game_id)
    wins, times = 0, []
    for index in range(matches):
        hero = index % seats
        setup = game.setup(seats)
        bots: list[Bot] = [make_bot(game, "greedy", setup.options) for _ in range(seats)]
        bots[hero] = Timed(make_bot(game, kind, setup.options), times)
        table = play(game, setup, f"search-{game_id}-{seats}-{index}", bots)
        result = game.result(table.state)
        wins += result is not None and hero in result.winners
    return wins, times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--games", nargs="*", default=game_ids())
    parser.add_argument("--seats", nargs="*", type=int)
    parser.add_argument("--bot", default="search", help="the kind of bot measured against greedy")
    args = parser.parse_args()
    print(f"game            seats  matches  {args.bot} wins (95% CI)    greedy seat  greedy, same seeds"
          "  ms/move p50  p99")
    for game_id in args.games:
        for seats in args.seats or SEATS[game_id]:
            wins, times = run(game_id, seats, args.matches, args.bot)
            base, _ = run(game_id, seats, args.matches, "greedy")
            low, high = wilson(wins, args.matches)
            p50 = statistics.median(times) * 1000 if times else 0.0
            p99 = percentile(times, 0.99) * 1000
            print(f"{game_id:15} {seats:5}  {args.matches:7}  {wins / args.matches:5.0%} ({low:4.0%}-{high:4.0%})"
                  f"      {1 / seats:10.0%}  {base / args.matches:18.0%}  {p50:11.1f}  {p99:4.1f}", flush=True)


if __name__ == "__main__":
    main()

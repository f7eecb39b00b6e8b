"""How far a search could get in Tavern Masters if it knew more than its seat may: the search bot
against the planner, its determinizations replaced by more of the true state. Prints figures,
asserts nothing. (seeds/tavern-masters/RULINGS.md 46: why the search does not beat the planner at 2 seats.)

    python tests/bench/bench_tm_headroom.py [--know sampled hands everything] [--seeds 0 100] [--seats 2]
        [--budget 3000] [--horizon 400] [--processes 2]

Seed ``arena-tavern-masters-<i>`` is played twice, the seats swapped, the search at one seat and the
planner at the other (at more seats, planners at the rest). What the search's determinizations are:

- ``sampled``: its own, drawn from its seat's view (the bot the service plays, given this budget);
- ``hands``: the true state with each deck shuffled again: the other seats' hands and packets, the
  discard piles and what each deck holds known exactly, only the decks' order (what is still to be
  drawn, and when) unknown: more than a seat could ever infer from what it sees;
- ``everything``: the true state, the decks' order too: a clairvoyant that knows every future draw.

Every playout runs to the match's end by default (``--horizon 400``) with 25 times the service's
budget, so that neither the horizon nor the number of deals limits it. Prints, per kind, the search's
wins (a shared win half) with a 95% Wilson interval, and its CPU time per move with a choice.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

if not any(Path(p, "domain").is_dir() for p in sys.path[1:] if p):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from msgspec.structs import replace

from domain.games import get_game, make_bot
from domain.kernel import Rng, Table
from domain.kernel.search import Search
from domain.kernel.table import bot_turn
from domain.tavern_masters.search import search_bot
from domain.tavern_masters.state import State
from tests.bench.bench_search_bot import Timed, percentile, wilson

KNOWS = ("sampled", "hands", "everything")


def knowing(search: Search, table: Table, know: str) -> Search:
    """The search with determinizations that know what ``know`` says of ``table``'s true state."""
    if know == "sampled":
        return search

    def shuffled(view: Any, rng: Rng, options: Any) -> State:
        state: State = table.state
        return replace(state, decks={deck: tuple(rng.shuffle(list(cards))) for deck, cards in state.decks.items()})

    def true(view: Any, rng: Rng, options: Any) -> State:
        return table.state

    return dataclasses.replace(search, sample=shuffled if know == "hands" else true)


def seed_pair(know: str, index: int, seats: int, budget: int, horizon: int) -> tuple[float, list[float]]:
    """The search's score over seed ``index`` played twice (a win 1, a shared win half each), and its times."""
    game = get_game("tavern-masters")
    setup = game.setup(seats, {})
    score, times = 0.0, list[float]()
    for hero in (0, 1):
        table = Table(game, setup, f"arena-tavern-masters-{index}")
        search = dataclasses.replace(search_bot(game, setup.options), budget=budget, horizon=horizon)
        bots = [make_bot(game, "planner", setup.options) for _ in range(seats)]
        bots[hero] = Timed(knowing(search, table, know), times)
        while not table.finished:
            table.submit(*bot_turn(table, bots))
        result = game.result(table.state)
        assert result is not None
        winners = [s.seat for s in result.standings if s.rank == 1]
        score += (hero in winners) / len(winners)
    return score, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--know", nargs="+", choices=KNOWS, default=list(KNOWS))
    parser.add_argument("--seeds", nargs=2, type=int, default=(0, 100), metavar=("FIRST", "END"))
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--budget", type=int, default=3000)
    parser.add_argument("--horizon", type=int, default=400)
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    print(f"search (budget {args.budget}, horizon {args.horizon}) against the planner, {args.seats} seats, "
          f"seeds {args.seeds[0]}..{args.seeds[1] - 1} each twice, seats swapped")
    print(f"{'knows':12} {'matches':>7}  {'search wins (95% CI)':22} {'fair':>5}  {'ms/move p50':>11} {'p99':>7}  time")
    with ProcessPoolExecutor(args.processes) as pool:
        for know in args.know:
            started = time.perf_counter()
            indices = range(*args.seeds)
            pairs = list(pool.map(seed_pair, *zip(*((know, i, args.seats, args.budget, args.horizon)
                                                     for i in indices), strict=True)))
            score = sum(s for s, _ in pairs)
            times = [t * 1000 for _, ts in pairs for t in ts]
            n = 2 * len(indices)
            low, high = wilson(round(score), n)
            print(f"{know:12} {n:7d}  {score:5.1f} {score / n:4.0%} ({low:4.0%}-{high:4.0%})   {1 / args.seats:5.0%}  "
                  f"{statistics.median(times):11.1f} {percentile(times, 0.99):7.1f}  "
                  f"{time.perf_counter() - started:.0f} s", flush=True)


if __name__ == "__main__":
    main()

"""Tavern Masters: how hard each Challenge level is, per card list. Prints figures, asserts nothing.

    python tests/bench/bench_tm_challenge.py [--deals 100] [--budget 3000] [--matches 400]
        [--coop-seats 2] [--coop-deals 30] [--lists 2,1] [--levels buzzed,...]

For each card list (match option ``card_list``) and Challenge level:

- solver: the share of deals (Table seeds ``deal-0``, ``deal-1``, ...) that perfect play knowing
  the deck order wins (domain/tavern_masters/solver.py), as won / lost / unknown (the node budget
  ran out), solo and for a co-operative table of ``--coop-seats`` (without trading: a lower bound);
- bots: the greedy bot's win rate over ``--matches`` solo matches and co-operative tables of 2 and
  3 seats (seeds ``bot-0``, ...), with the best Gold reached (the poorest seat's, co-operatively).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

if not any(Path(p, "domain").is_dir() for p in sys.path[1:] if p):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from domain.kernel import play
from domain.tavern_masters import GAME
from domain.tavern_masters.bot import GreedyBot
from domain.tavern_masters.content import CARD_LISTS
from domain.tavern_masters.solver import solve
from domain.tavern_masters.state import CHALLENGE_ROUNDS


def options(seats: int, level: str, card_list: int) -> dict:
    return {"mode": "solo" if seats == 1 else "cooperative", "challenge": level, "card_list": card_list}


def solver_row(seats: int, level: str, card_list: int, deals: int, budget: int) -> str:
    started = time.process_time()
    found = [solve(f"deal-{i}", seats, options(seats, level, card_list), budget).winnable for i in range(deals)]
    won, lost, unknown = found.count(True), found.count(False), found.count(None)
    return (f"solver {seats} seat(s): won {won}/{deals} ({100 * won / deals:.0f}%), lost {lost}, unknown {unknown}"
            f"  [{time.process_time() - started:.0f} s CPU]")


def bot_row(seats: int, level: str, card_list: int, matches: int) -> str:
    wins, best = 0, 0
    for i in range(matches):
        table = play(GAME, GAME.setup(seats, options(seats, level, card_list)), f"bot-{i}",
                     [GreedyBot() for _ in range(seats)])
        wins += len(table.state.winners or ()) == seats
        best = max(best, min(p.gold for p in table.state.players))
    return f"greedy {seats} seat(s): won {wins}/{matches} ({100 * wins / matches:.1f}%), best Gold {best}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--budget", type=int, default=3000)
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--coop-seats", type=int, default=2)
    parser.add_argument("--coop-deals", type=int, default=30)
    parser.add_argument("--lists", default=",".join(map(str, CARD_LISTS)))
    parser.add_argument("--levels", default=",".join(CHALLENGE_ROUNDS))
    args = parser.parse_args()
    for card_list in map(int, args.lists.split(",")):
        for level in args.levels.split(","):
            print(f"card list {card_list}, {level} ({CHALLENGE_ROUNDS[level]} rounds)", flush=True)
            print("  " + solver_row(1, level, card_list, args.deals, args.budget), flush=True)
            if args.coop_deals:
                print("  " + solver_row(args.coop_seats, level, card_list, args.coop_deals, args.budget), flush=True)
            for seats in (1, 2, 3):
                print("  " + bot_row(seats, level, card_list, args.matches), flush=True)


if __name__ == "__main__":
    main()

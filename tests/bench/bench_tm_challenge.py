"""Tavern Masters: how hard each Challenge level is, per card list. Prints figures, asserts nothing.

    python tests/bench/bench_tm_challenge.py [--deals 100] [--budget 3000] [--matches 400]
        [--coop-seats 2] [--coop-deals 30] [--lists 2,1] [--levels buzzed,...] [--bot greedy]

For each card list (match option ``card_list``) and Challenge level:

- solver: the share of deals (Table seeds ``deal-0``, ``deal-1``, ...) that perfect play knowing
  the deck order wins (tools/tavern_masters/solver.py), as won / lost / unknown (the node budget
  ran out), solo and for a co-operative table of ``--coop-seats`` (without trading: a lower bound);
  a level's answers also follow from the others' (``solver_rows``); ``--deals 0`` or
  ``--coop-deals 0`` leave the solver out, ``--matches 0`` the bots;
- bots: the win rate of the greedy bot (or the kind ``--bot`` names, e.g. ``planner``) over
  ``--matches`` solo matches and co-operative tables of 2 and 3 seats of it (seeds ``bot-0``, ...),
  with the best Gold reached (the poorest seat's, co-operatively).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

if not any(Path(p, "domain").is_dir() for p in sys.path[1:] if p):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from domain.games import make_bot
from domain.kernel import play
from domain.tavern_masters import GAME
from domain.tavern_masters.content import CARD_LISTS
from domain.tavern_masters.state import CHALLENGE_ROUNDS
from tools.tavern_masters.solver import solve


def options(seats: int, level: str, card_list: int) -> dict:
    return {"mode": "solo" if seats == 1 else "cooperative", "challenge": level, "card_list": card_list}


def solver_rows(seats: int, card_list: int, levels: list[str], deals: int, budget: int) -> dict[str, str]:
    """Each level's solver figures. A deal won in fewer rounds is won in more (the same line wins:
    Gold never falls once a Tavern stops buying), and a deal lost in more rounds is lost in fewer.
    So the levels are searched from the fewest rounds up, a deal won is not searched again at the
    easier levels, and an unknown at a level harder than one that lost the deal counts lost; the
    inferred answers are counted apart."""
    order = sorted(levels, key=CHALLENGE_ROUNDS.__getitem__)
    found: dict[str, list[bool | None]] = {level: [] for level in order}
    won_inferred = dict.fromkeys(order, 0)
    lost_inferred = dict.fromkeys(order, 0)
    cpu = dict.fromkeys(order, 0.0)
    for i in range(deals):
        won = False
        for level in order:
            started = time.process_time()
            if won:
                won_inferred[level] += 1
                found[level].append(True)
            else:
                found[level].append(solve(f"deal-{i}", seats, options(seats, level, card_list), budget).winnable)
                won = found[level][-1] is True
            cpu[level] += time.process_time() - started
        lost = False
        for level in reversed(order):
            if found[level][i] is False:
                lost = True
            elif lost and found[level][i] is None:
                found[level][i] = False
                lost_inferred[level] += 1
    rows = {}
    for level in order:
        won, lost, unknown = (found[level].count(answer) for answer in (True, False, None))
        rows[level] = (f"solver {seats} seat(s): won {won}/{deals} ({100 * won / deals:.0f}%; "
                       f"{won_inferred[level]} from a harder level), lost {lost} "
                       f"({lost_inferred[level]} from an easier level), unknown {unknown}"
                       f"  [{cpu[level]:.0f} s CPU]")
    return rows


def bot_row(seats: int, level: str, card_list: int, matches: int, kind: str) -> str:
    wins, best = 0, 0
    for i in range(matches):
        setup = GAME.setup(seats, options(seats, level, card_list))
        table = play(GAME, setup, f"bot-{i}", [make_bot(GAME, kind, setup.options) for _ in range(seats)])
        wins += len(table.state.winners or ()) == seats
        best = max(best, min(p.gold for p in table.state.players))
    return f"{kind} {seats} seat(s): won {wins}/{matches} ({100 * wins / matches:.1f}%), best Gold {best}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--budget", type=int, default=3000)
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--coop-seats", type=int, default=2)
    parser.add_argument("--coop-deals", type=int, default=30)
    parser.add_argument("--lists", default=",".join(map(str, CARD_LISTS)))
    parser.add_argument("--levels", default=",".join(CHALLENGE_ROUNDS))
    parser.add_argument("--bot", default="greedy")
    args = parser.parse_args()
    levels = args.levels.split(",")
    for card_list in map(int, args.lists.split(",")):
        solo = solver_rows(1, card_list, levels, args.deals, args.budget) if args.deals else {}
        coop = solver_rows(args.coop_seats, card_list, levels, args.coop_deals, args.budget) if args.coop_deals else {}
        for level in levels:
            print(f"card list {card_list}, {level} ({CHALLENGE_ROUNDS[level]} rounds)", flush=True)
            for rows in (solo, coop):
                if rows:
                    print("  " + rows[level], flush=True)
            for seats in (1, 2, 3)[: 3 if args.matches else 0]:
                print("  " + bot_row(seats, level, card_list, args.matches, args.bot), flush=True)


if __name__ == "__main__":
    main()

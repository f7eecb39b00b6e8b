"""Tavern Masters, co-operative play: losses the team's Gold could have turned into wins. Prints
figures, asserts nothing.

    python tests/bench/bench_tm_trading.py [--matches 48] [--challenge buzzed]

All-greedy co-operative matches at 2 to 6 seats. A co-operative table wins only if every seat ends
with 20 Gold; a loss "had the Gold" when the team's total was at least 20 a seat, so that moving
Gold between team-mates would have won it. Trading is the only way Gold moves between seats, so
this counts the losses the trading rules left unwon. Run it with PYTHONPATH pointing at another
checkout to measure that code the same way (issue 21 measured rules version 1 with it).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if not any(Path(p, "domain").is_dir() for p in sys.path[1:] if p):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from domain.games import get_game, make_bot
from domain.kernel import play

GAME = get_game("tavern-masters")
GOAL = 20


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=48)
    parser.add_argument("--challenge", default="buzzed")
    args = parser.parse_args()
    print(f"tavern masters, co-operative {args.challenge}, all-greedy, {args.matches} matches per seat count, "
          f"rules version {GAME.rules_version}")
    for seats in range(2, 7):
        setup = GAME.setup(seats, {"mode": "cooperative", "challenge": args.challenge})
        wins = losses = had_gold = 0
        for index in range(args.matches):
            bots = [make_bot(GAME, "greedy", setup.options) for _ in range(seats)]
            table = play(GAME, setup, f"trade-{seats}-{index}", bots)
            golds = [p.gold for p in table.state.players]
            if GAME.result(table.state).winners:
                wins += 1
                continue
            losses += 1
            had_gold += sum(golds) >= GOAL * seats
        print(f"  {seats} seats: {wins} won, {losses} lost, of which {had_gold} had {GOAL * seats}+ Gold in the team")


if __name__ == "__main__":
    main()

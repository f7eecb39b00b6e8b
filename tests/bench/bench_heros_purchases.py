"""Hero's Tavern: the greedy bot's last-round purchases. Prints figures, asserts nothing.

    python tests/bench/bench_heros_purchases.py [--matches 100]

All-greedy matches at 3, 4 and 5 seats. For every card bought in round 5 it asks whether that
purchase lowered the buyer's own final total (the final row and awards with the card, less without
it, less its cost; the other taverns as they ended), and prints that share with the mean final
total. Run it with PYTHONPATH pointing at another checkout to measure that code's bot the same way.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

if not any(Path(p, "domain").is_dir() for p in sys.path[1:] if p):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from domain.games import get_game, make_bot
from domain.heros_tavern.content import DECK
from domain.heros_tavern.events import CardBought, Dealt
from domain.heros_tavern.scoring import entertainment, kinds_of, resources, score_row
from domain.kernel import play

GAME = get_game("heros-tavern")


def final(taverns: list[tuple[str, ...]], seat: int) -> int:
    kinds = [kinds_of(t) for t in taverns]
    shows = entertainment([k["entertainment"] for k in kinds])[seat]
    return score_row(kinds[seat], shows).total + resources(kinds[seat]).count


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=100)
    args = parser.parse_args()
    print(f"hero's tavern, all-greedy, {args.matches} matches per seat count")
    print("seats  last-round buys  of them lowering own total  mean final total")
    for seats in (3, 4, 5):
        buys = harmful = 0
        totals = []
        for index in range(args.matches):
            setup = GAME.setup(seats)
            bots = [make_bot(GAME, "greedy", setup.options) for _ in range(seats)]
            table = play(GAME, setup, f"purchases-{seats}-{index}", bots)
            ended = list(table.state.purchased)
            last_deal = max(i for i, e in enumerate(table.events) if isinstance(e, Dealt))
            for event in table.events[last_deal:]:
                if isinstance(event, CardBought):
                    buys += 1
                    without = list(ended)
                    without[event.seat] = tuple(c for c in ended[event.seat] if c != event.card)
                    net = final(ended, event.seat) - final(without, event.seat) - DECK[event.card].cost.count
                    harmful += net < 0
            totals += list(table.state.totals)
        print(f"{seats:5}  {buys:15}  {harmful:11} ({harmful / max(buys, 1):.0%})  {statistics.mean(totals):16.1f}")


if __name__ == "__main__":
    main()

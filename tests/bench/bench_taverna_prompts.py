"""Taverna's ⚡ prompts: how many answers a match asks of the seats and how long the active player
waits for them. Prints figures, asserts nothing (pytest does not collect it).

    python tests/bench/bench_taverna_prompts.py [--matches 100] [--auto-pass 0.5]

Greedy bots play whole matches at 2 to 5 seats. Per match: the windows opened (moments at which
opponents may answer with an instant spell), the answers sent (each a round trip by one seat) and
the waits (round trips the active player waits through: answers asked together make one wait, asked
one by one each is its own). ``--auto-pass`` is the share of seats that set "always pass" on their
first turn. Run it with PYTHONPATH pointing at another checkout to measure that code the same way.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

if not any(Path(p, "domain").is_dir() for p in sys.path[1:] if p):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from domain.games import get_game, make_bot
from domain.kernel import Table, bot_turn
from domain.taverna import commands as c

GAME = get_game("taverna")
AUTO = getattr(c, "SetAutoPass", None)


def one_match(seats: int, seed: str, auto_pass: float) -> tuple[int, int, int]:
    table = Table(GAME, GAME.setup(seats), seed)
    bots = [make_bot(GAME, "greedy") for _ in range(seats)]
    pick = table.rng("auto-pass")
    auto = {s for s in range(seats) if pick.below(100) < auto_pass * 100} if AUTO else set()
    windows = answers = waits = 0
    answered_in_window = False
    while not table.finished:
        turn = table.state.turn
        seat, command = bot_turn(table, bots)
        if seat in auto and AUTO is not None and AUTO(on=True) in GAME.legal(table.state, seat):
            command, auto = AUTO(on=True), auto - {seat}
        table.submit(seat, command)
        after = table.state.turn
        if turn is not None and seat != turn.seat:
            answers += 1
            if AUTO is None or not answered_in_window:  # one by one, or the first of a parallel round
                waits += 1
            answered_in_window = True
        if after is not None and after.responders and (turn is None or not turn.responders):
            windows += 1
            answered_in_window = False
    return windows, answers, waits


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--auto-pass", type=float, default=0.0)
    args = parser.parse_args()
    print(f"taverna prompts, {'sealed windows' if AUTO else 'one by one'}, greedy bots, {args.matches} matches "
          f"per seat count, auto-pass share {args.auto_pass}")
    print("seats  windows/match  answers/match  waits/match")
    for seats in range(2, 6):
        rows = [one_match(seats, f"prompts-{seats}-{i}", args.auto_pass) for i in range(args.matches)]
        means = [statistics.mean(r[k] for r in rows) for k in range(3)]
        print(f"{seats:5}  {means[0]:13.1f}  {means[1]:13.1f}  {means[2]:11.1f}")


if __name__ == "__main__":
    main()

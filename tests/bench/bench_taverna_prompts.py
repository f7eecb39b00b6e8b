"""Taverna's ⚡ prompts: how many answers a match asks of the seats and how long the active player
waits for them. Prints figures, asserts nothing (pytest does not collect it).

    python tests/bench/bench_taverna_prompts.py [--matches 100] [--auto-pass 0.5]

Greedy bots play whole matches at 2 to 5 seats. Per match: the windows opened (moments at which
opponents may answer with an instant spell), the answers sent (each a round trip by one seat) and
the waits (round trips the active player waits through: answers asked together make one wait, asked
one by one each is its own). ``--auto-pass`` is the share of seats that set "always pass" on their
first turn. Run it with PYTHONPATH pointing at another checkout to measure that code the same way.

Royal-favour windows in other seats' turns (option ``off_turn_favours``, rules version 3) are counted
apart: windows opened, commands sent in them by the seats asked, and waits (per window, the most
commands one asked seat sent: seats asked together answer in parallel). ``--bots greedy,random``
gives the seats those bots in turn (the greedy bot spends its favours on its own turn); ``--hoard``
makes every seat keep its favours (never use one, pass every window): the most windows a match opens.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

if not any(Path(p, "domain").is_dir() for p in sys.path[1:] if p):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from domain.games import get_game, make_bot
from domain.kernel import Table, bot_turn
from domain.taverna import commands as c

GAME = get_game("taverna")
AUTO = getattr(c, "SetAutoPass", None)


class Hoarder:
    """Plays as the bot it wraps but never uses a royal favour: it keeps being asked."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def choose(self, view: Any, legal: list, rng: Any) -> Any:
        kept = [command for command in legal if not isinstance(command, c.UseFavour)]
        return self.inner.choose(view, kept or legal, rng)


def one_match(seats: int, seed: str, auto_pass: float, kinds: list[str], hoard: bool) -> tuple[int, ...]:
    table = Table(GAME, GAME.setup(seats), seed)
    bots = [make_bot(GAME, kinds[s % len(kinds)], table.setup.options) for s in range(seats)]
    if hoard:
        bots = [Hoarder(bot) for bot in bots]
    pick = table.rng("auto-pass")
    auto = {s for s in range(seats) if pick.below(100) < auto_pass * 100} if AUTO else set()
    windows = answers = waits = 0
    answered_in_window = False
    favour_windows = favour_answers = favour_waits = 0
    sent: dict[int, int] = {}  # commands per asked seat in the open favour window
    while not table.finished:
        turn = table.state.turn
        seat, command = bot_turn(table, bots)
        if seat in auto and AUTO is not None and AUTO(on=True) in GAME.legal(table.state, seat):
            command, auto = AUTO(on=True), auto - {seat}
        table.submit(seat, command)
        after = table.state.turn
        if getattr(turn, "window", ""):
            favour_answers += 1
            sent[seat] = sent.get(seat, 0) + 1
            if not (after is not None and after.window):
                favour_waits += max(sent.values())
                sent = {}
        elif getattr(after, "window", "") and after is not None:
            favour_windows += 1
        elif turn is not None and seat != turn.seat:
            answers += 1
            if AUTO is None or not answered_in_window:  # one by one, or the first of a parallel round
                waits += 1
            answered_in_window = True
        if after is not None and after.responders and (turn is None or not turn.responders):
            windows += 1
            answered_in_window = False
    return windows, answers, waits, favour_windows, favour_answers, favour_waits


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--auto-pass", type=float, default=0.0)
    parser.add_argument("--bots", default="greedy")
    parser.add_argument("--hoard", action="store_true")
    args = parser.parse_args()
    kinds = args.bots.split(",")
    print(f"taverna prompts, {'sealed windows' if AUTO else 'one by one'}, greedy bots, {args.matches} matches "
          f"per seat count, auto-pass share {args.auto_pass}, bots {kinds}, hoard {args.hoard}")
    print("seats  windows/match  answers/match  waits/match  favour windows  favour answers  favour waits")
    for seats in range(2, 6):
        rows = [one_match(seats, f"prompts-{seats}-{i}", args.auto_pass, kinds, args.hoard)
                for i in range(args.matches)]
        m = [statistics.mean(r[k] for r in rows) for k in range(6)]
        print(f"{seats:5}  {m[0]:13.1f}  {m[1]:13.1f}  {m[2]:11.1f}  {m[3]:14.2f}  {m[4]:14.2f}  {m[5]:12.2f}")


if __name__ == "__main__":
    main()

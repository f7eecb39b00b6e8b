"""What the projector's turn check (services/commands/turns.py) costs per projected version, for
the inbox of matches with registered players: ``turns`` (every seat's legal commands and
deadline) over random 4-seat matches (2 for Mercenaries) of each game, process CPU time.

    .venv/bin/python tests/bench/bench_turns.py
"""

from __future__ import annotations

import statistics
import time

from domain.games import game_ids, get_game, make_bot, online_game
from domain.kernel import Table
from services.commands import clocks
from services.commands.folds import Folded
from services.commands.matches import Match
from services.commands.turns import turns

CLOCK = clocks.ClockOption(per_move_s=3 * 86400, vacation_days=2)


def bench(game_id: str, matches: int = 5) -> list[float]:
    game = online_game(game_id)
    seats = min(4, get_game(game_id).max_seats)
    costs = []
    for n in range(matches):
        setup = game.setup(seats)
        table = Table(game, setup, f"bench-{n}")
        match = Match(f"m{n}", game, setup, "seed", "", (), "greedy", {}, players={s: f"p{s}" for s in range(seats)},
                      clock=CLOCK)
        seat_clocks = clocks.start(CLOCK, seats)
        bots = [make_bot(get_game(game_id), "random", setup.options) for _ in range(seats)]
        version = 0
        while not table.finished:
            seat_clocks = clocks.advance(game, CLOCK, seat_clocks, table.state, float(version), [])
            folded = Folded(version, table.state, "", float(version), "seed", seat_clocks)
            started = time.process_time()
            turns(match, folded)
            costs.append(time.process_time() - started)
            seat = table.actors()[0]
            legal = game.legal(table.state, seat)
            table.submit(seat, bots[seat].choose(game.view(table.state, seat), legal, table.rng(f"bot:{seat}")))
            version += 1
    return costs


if __name__ == "__main__":
    for game_id in game_ids():
        costs = sorted(bench(game_id))
        p50, p99 = costs[len(costs) // 2], costs[int(len(costs) * 0.99)]
        print(f"{game_id:15} {len(costs):6} versions  turns(): p50 {p50 * 1e6:7.1f} µs  p99 {p99 * 1e6:7.1f} µs"
              f"  mean {statistics.fmean(costs) * 1e6:7.1f} µs")

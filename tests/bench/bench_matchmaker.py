"""The matchmaker on a simulated clock (docs/matchmaking.md): prints figures, and fails only if a
ticket was taken into two tables.

    python tests/bench/bench_matchmaker.py [--tickets 1000] [--every 0.3] [--matchers 2] [--seed 35]

Tickets arrive one every ``--every`` simulated seconds on average (Poisson), each a new player's
with a rating (openskill's mu) drawn from N(25, 4), in a mix of games: Mercenaries (2 seats,
rated), Taverna (2-4 seats, unrated) and Hero's Tavern (3-5 seats, unrated, a third of them
allowing bots after 45 s). Players poll their ticket every 5 s; 5% cancel after a while and 5%
stop polling (their tickets lapse). ``--matchers`` matchmakers sweep the pools together each
simulated second, as several processes' upkeeps do, through the real store scripts (fakeredis);
the matches are stand-ins (tests/service/store/matchmaking_fakes.py).

Printed: the wait (made table's time minus the ticket's) median and p95 per game and overall,
the rating spread (max - min of a table's people) median, p95 and max, the tables by size and
with bots, the tickets cancelled, lapsed and left waiting, and the check that no ticket was taken
into two tables.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

import fakeredis

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from services.commands.matchmaker import Matchmaker, NewTicket
from services.ops import logs
from services.store.matchmaking import WAITING, Pools
from services.store.player_events import PlayerEvents
from services.store.players import Player
from tests.service.store.matchmaking_fakes import Ratings, Tables

POLL_S = 5.0


@dataclass
class Seeker:
    player: Player
    asked: NewTicket
    arrives: float
    quits: float | None = None  # cancels then
    silent: float | None = None  # stops polling then
    ticket_id: str = ""


def seekers(count: int, every: float, draw: random.Random) -> list[Seeker]:
    found, now = [], 0.0
    for n in range(count):
        now += draw.expovariate(1 / every)
        kind = draw.random()
        if kind < 0.4:
            asked = NewTicket("mercenaries", seats=[2, 2])
        elif kind < 0.7:
            asked = NewTicket("taverna", seats=[2, 4], rated=False)
        else:
            bots = 45.0 if draw.random() < 1 / 3 else None
            asked = NewTicket("heros-tavern", seats=[3, 5], rated=False, bots_after_s=bots)
        seeker = Seeker(Player(f"p{n:05d}", f"P{n}", 0.0), asked, now)
        leaving = draw.random()
        if leaving < 0.05:
            seeker.quits = now + draw.uniform(5, 60)
        elif leaving < 0.10:
            seeker.silent = now + draw.uniform(0, 20)
        found.append(seeker)
    return found


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def run(count: int, every: float, matchers_count: int, seed: int) -> bool:
    draw = random.Random(seed)
    people = seekers(count, every, draw)
    ratings = Ratings({s.player.id: draw.gauss(25.0, 4.0) for s in people})
    redis = fakeredis.FakeAsyncRedis()
    tables, events = Tables(), PlayerEvents(redis)
    matchers = [Matchmaker(Pools(redis), ratings, tables, tables, events, tables.close) for _ in range(matchers_count)]
    pools, by_player = matchers[0].pools, {s.player.id: s for s in people}
    arrived, cancelled, now = 0, 0, 0.0
    while arrived < len(people) or await _waiting(pools):
        now += 1.0
        tables.now = now
        while arrived < len(people) and people[arrived].arrives <= now:
            seeker = people[arrived]
            seeker.ticket_id = (
                await matchers[arrived % matchers_count].ask(seeker.player, seeker.asked, now)
            ).ticket_id
            arrived += 1
        for seeker in people[:arrived]:
            game = seeker.asked.game
            if seeker.quits is not None and seeker.quits <= now:
                seeker.quits = None
                stored = await pools.get(game, seeker.ticket_id, None)
                if stored is not None and stored.state == WAITING:
                    await matchers[0].cancel(seeker.ticket_id, seeker.player, now)
                    cancelled += 1
            elif int(now - seeker.arrives) % POLL_S == 0 and (seeker.silent is None or now < seeker.silent):
                await pools.get(game, seeker.ticket_id, now)  # a poll: heard while it waits
        await asyncio.gather(*(matcher.sweep(now) for matcher in matchers))
        if now > people[-1].arrives + 600:
            break
    return _report(people, by_player, tables, ratings, cancelled, await _waiting(pools), now)


async def _waiting(pools: Pools) -> int:
    return sum([len(await pools.waiting(game, 10_000, 0.0)) for game in ("mercenaries", "taverna", "heros-tavern")])


def _report(people, by_player, tables: Tables, ratings: Ratings, cancelled: int, left: int, end: float) -> bool:
    seated = [player for table in tables.made for player in table]
    twice = len(seated) - len(set(seated))
    waits: dict[str, list[float]] = {}
    spreads: list[float] = []
    sizes: dict[int, int] = {}
    for table, bots, at in zip(tables.made, tables.bots, tables.at, strict=True):
        for player in table:
            waits.setdefault(by_player[player].asked.game, []).append(at - by_player[player].arrives)
        if len(table) > 1:
            spreads.append(max(ratings.ratings[p] for p in table) - min(ratings.ratings[p] for p in table))
        sizes[len(table) + bots] = sizes.get(len(table) + bots, 0) + 1
    everyone = [w for game in waits.values() for w in game]
    print(f"tickets {len(people)} over {people[-1].arrives:.0f} s simulated (ended at {end:.0f} s)")
    print(f"seated {len(seated)} in {len(tables.made)} tables; cancelled {cancelled}; "
          f"lapsed or left waiting {len(people) - len(seated) - cancelled} (waiting at the end: {left})")  # fmt: skip
    for game, game_waits in [("all", everyone), *sorted(waits.items())]:
        print(f"wait {game:13} median {statistics.median(game_waits):5.1f} s  p95 {quantile(game_waits, 0.95):5.1f} s"
              f"  max {max(game_waits):5.1f} s  ({len(game_waits)} tickets)")  # fmt: skip
    print(f"rating spread per table (mu, people only; ratings N(25, 4)): median {statistics.median(spreads):.2f}"
          f"  p95 {quantile(spreads, 0.95):.2f}  max {max(spreads):.2f}")  # fmt: skip
    print("tables by seats:", dict(sorted(sizes.items())), f"with bots: {sum(1 for b in tables.bots if b)}")
    print(f"tickets taken into two tables: {twice}")
    return twice == 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tickets", type=int, default=1000)
    parser.add_argument("--every", type=float, default=0.3, help="mean simulated seconds between two tickets")
    parser.add_argument("--matchers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=35)
    args = parser.parse_args()
    logs.configure("warning")  # a line per ticket and table otherwise
    if not asyncio.run(run(args.tickets, args.every, args.matchers, args.seed)):
        sys.exit("a ticket was taken into two tables")


if __name__ == "__main__":
    main()

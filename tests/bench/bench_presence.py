"""What presence costs (services/gateway/presence.py): prints figures, asserts nothing.

    python tests/bench/bench_presence.py [--frames 20000]

- overlay: CPU microseconds the gateway spends setting ``connected`` in one envelope it sends (one
  per stream per view sent), for a 4-seat match of each game half played;
- the presence read the projector no longer makes: CPU microseconds of one MGET of a match's 4
  presence keys (what Seating.of did per projected match) on a redis-server started here,
  client side, and the server's own from INFO commandstats.

Process CPU time, not wall time: on a shared machine the figure noise moves least.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from domain.bots.random_bot import RandomBot
from domain.games import game_ids, online_game
from domain.kernel import Table
from projections.views import TablePlayer, all_views
from services.gateway.presence import overlay
from tests.service.conftest import free_port


def envelope(game_id: str, seats: int = 4) -> bytes:
    """Seat 0's envelope of a match played halfway by random bots, with a named table."""
    game = online_game(game_id)
    seats = max(game.min_seats, min(seats, game.max_seats))
    table = Table(game, game.setup(seats), "bench")
    bots = [RandomBot() for _ in range(seats)]
    for _ in range(60):
        if table.finished:
            break
        seat = table.actors()[0]
        legal = game.legal(table.state, seat)
        table.submit(seat, bots[seat].choose(game.view(table.state, seat), legal, table.rng("b")))
    players = [TablePlayer(seat, f"Player {seat}", False, False, None) for seat in range(seats)]
    return all_views(game, "m" * 16, table.state, table.version, seats, players)["s:0"]


def cpu_us(work, count: int) -> float:
    started = time.process_time()
    for _ in range(count):
        work()
    return (time.process_time() - started) / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=20_000)
    args = parser.parse_args()
    here = frozenset({0, 2})
    for game_id in game_ids():
        raw = envelope(game_id)
        print(f"overlay {game_id}: {len(raw)} bytes, {cpu_us(lambda raw=raw: overlay(raw, here), args.frames):.1f} us")
    with tempfile.TemporaryDirectory() as directory:
        port = free_port()
        server = subprocess.Popen(
            [shutil.which("redis-server") or "redis-server", "--port", str(port), "--save", "", "--dir", directory],
            stdout=subprocess.DEVNULL,
        )
        try:
            client = redis.Redis(port=port)
            for _ in range(200):
                try:
                    client.ping()
                    break
                except redis.ConnectionError:
                    time.sleep(0.05)
            names = [f"match:{{m}}:here:{seat}" for seat in range(4)]
            client.set(names[0], b"1")
            count = args.frames // 4
            client.config_resetstat()
            spent = cpu_us(lambda: client.mget(names), count)
            server_us = client.info("commandstats")["cmdstat_mget"]["usec_per_call"]
            print(f"projector's presence MGET (no more): client {spent:.1f} us CPU, server {server_us:.1f} us")
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()

"""Hibernation (docs/hibernation.md): what a hibernated match costs Redis, how long it takes to wake
one, and that many matches put to sleep and woken come back exactly as they were. Prints figures;
fails (exit 1) only if a match did not come back identical.

    python tests/bench/bench_hibernation.py [--matches 10000] [--archive directory|s3]

Starts two redis-servers on free ports (the events' and the queue's, so that the events' Redis holds
nothing but the matches and their lists) and the archive the tests use: a directory, or moto's S3
server (``--archive s3``, tests/service/s3.py; slower: an HTTP round trip per object). Creates the
matches through the service's own code (a Runtime: Matches.create, the projector's ``project`` for
their views, one command each through the Handler with an Idempotency-Key), all four games in turn,
then for each match records its export (the log as ``tavern-export/1``), meta, views, entropy and
idempotency answer, puts every match to sleep, measures Redis (MEMORY USAGE of what each match
left, INFO memory's used_memory against the same server before the matches were created), wakes
every match one after another (timing each wake), and compares everything again. The server is
measured first after a warm-up (a chunk of matches created, put to sleep, woken, then FLUSHALL): what
any traffic leaves in it whatever the number of matches (its commands' latency histograms, the slow
log, client buffers: some 0.7 MB with no key at all) is not counted as the matches'.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import redis

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from domain.games import game_ids, online_game
from projections.chain import export_lines
from projections.views import field
from services.commands.handling import decode_command
from services.commands.outcomes import Accepted
from services.ops.settings import Settings
from services.runtime import Runtime
from services.store.hibernation import Awake
from services.store.idempotency import Idempotency
from tests.service.conftest import free_port, start_redis

CHUNK = 64  # matches handled at once (the projector's batch)
KEY = "bench"  # each match's one command's Idempotency-Key


def used_memory(url: str) -> int:
    return int(redis.Redis.from_url(url).info("memory")["used_memory"])


def settled_memory(url: str) -> int:
    """used_memory once Redis has shrunk the hash tables that deletions emptied and the buffers of
    clients gone idle (its cron does: tables a few times a second, buffers after 2 to 5 s idle):
    what the data set holds, not what it held a moment ago."""
    time.sleep(6)
    now = used_memory(url)
    for _ in range(20):
        time.sleep(0.5)
        now, before = used_memory(url), now
        if abs(now - before) < 1024:
            break
    return now


async def in_chunks(items: list, work) -> list:
    done = []
    for start in range(0, len(items), CHUNK):
        done += await asyncio.gather(*(work(item) for item in items[start : start + CHUNK]))
    return done


async def create(runtime: Runtime, count: int) -> list[tuple[str, int]]:
    """``count`` matches of every game in turn, projected, each with one command of a seat: (id, seat)."""
    games = game_ids()

    async def one(n: int) -> str:
        game = online_game(games[n % len(games)])
        created = await runtime.matches.create(game.id, max(2, game.min_seats), {}, [])
        return created.match.id

    ids = await in_chunks(list(range(count)), one)
    for start in range(0, len(ids), CHUNK):
        await runtime.projector.project(ids[start : start + CHUNK], {})

    async def command(match_id: str) -> tuple[str, int]:
        match = await runtime.matches.get(match_id)
        assert match is not None
        for seat in range(match.setup.seats):
            legal = json.loads(await runtime.store.view(match_id, field(seat)) or b"{}").get("legal")
            if legal:
                decided, _ = decode_command(match, json.dumps(legal[0]).encode())
                outcome = await runtime.handler.submit(match, seat, decided, idempotency=KEY)
                assert isinstance(outcome, Accepted), outcome
                return match_id, seat
        raise AssertionError(f"match {match_id}: no seat may act")

    played = await in_chunks(ids, command)
    for start in range(0, len(ids), CHUNK):
        await runtime.projector.project(ids[start : start + CHUNK], {})
    return played


async def state(runtime: Runtime, match_id: str, seat: int) -> tuple[bytes, Awake, bytes | None]:
    """A match as Redis holds it: its export, everything read whole, and its command's remembered answer."""
    assert runtime.hibernation is not None
    awake = await runtime.hibernation.beds.awake(match_id)
    assert awake is not None, match_id
    bodies = [(record.body, record.hash) for record in awake.records]
    exported = export_lines(awake.meta["charter"], awake.meta["seed"], bodies)
    return exported, awake, await runtime.store.recall(Idempotency(match_id, seat, KEY))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def bench(count: int, events_url: str, queue_url: str, archive_settings: dict) -> bool:
    settings = Settings(redis_url=events_url, queue_url=queue_url, queue_name="bench-hibernation", **archive_settings)
    runtime = Runtime(settings)
    hibernation = runtime.hibernation
    assert hibernation is not None
    try:
        # the warm-up: what any traffic leaves in Redis whatever the number of matches, then no key
        warm = [match_id for match_id, _ in await create(runtime, CHUNK)]
        assert await in_chunks(warm, hibernation.sleep) == ["ok"] * CHUNK
        assert all(await in_chunks(warm, hibernation.wake))
        redis.Redis.from_url(events_url).flushall()
        # two rounds, each created then put to sleep: the second round's growth is what each more
        # hibernated match costs; both together, what 10,000 cost (the keyspace's table included)
        played: list[tuple[str, int]] = []
        before: list = []
        memory = [settled_memory(events_url)]
        awake_memory, took = 0, 0.0
        for size in (count // 2, count - count // 2):
            started = time.perf_counter()
            batch = await create(runtime, size)
            print(f"{size} matches created, projected and played a command in {time.perf_counter() - started:.1f} s")
            awake_memory = max(awake_memory, (used_memory(events_url) - memory[-1]) // size)
            before += await in_chunks(batch, lambda item: state(runtime, *item))
            started = time.perf_counter()
            slept = await in_chunks([match_id for match_id, _ in batch], hibernation.sleep)
            took += time.perf_counter() - started
            assert slept == ["ok"] * size, set(slept)
            memory.append(settled_memory(events_url))
            played += batch
        print(f"hibernated: {count} in {took:.1f} s ({count / took:.0f}/s, {CHUNK} at once)")
        footprints = await in_chunks([match_id for match_id, _ in played], hibernation.beds.footprint)
        lists = redis.Redis.from_url(events_url)
        asleep = list(lists.scan_iter("tavern:lifecycle:asleep:*"))
        listed = sum(lists.memory_usage(name, samples=0) or 0 for name in asleep)
        encodings = Counter(lists.object("encoding", name).decode() for name in asleep)
        print(f"MEMORY USAGE of what a hibernated match leaves: its index key {statistics.mean(footprints):.0f} B"
              f" (max {max(footprints)} B), its share of the asleep lists {listed / count:.0f} B,"
              f" {statistics.mean(footprints) + listed / count:.0f} B in all; the lists: {len(asleep)}, by"
              f" encoding {dict(encodings)}, at most {max(lists.zcard(name) for name in asleep)} members")
        each = (memory[2] - memory[1]) / (count - count // 2)
        print(f"INFO used_memory per match: awake {awake_memory} B; hibernated: {each:.0f} B each (the second"
              f" round's growth), {(memory[2] - memory[0]) / count:.0f} B (all of it over all matches)")

        wakes = []
        for match_id, _ in played:
            started = time.perf_counter()
            assert await hibernation.wake(match_id)
            wakes.append(time.perf_counter() - started)
        print(f"wake: p50 {percentile(wakes, 0.5) * 1000:.2f} ms, p99 {percentile(wakes, 0.99) * 1000:.2f} ms,"
              f" max {max(wakes) * 1000:.2f} ms ({count} one after another)")
        after = await in_chunks(played, lambda item: state(runtime, *item))
        same = sum(one == other for one, other in zip(before, after, strict=True))
        print(f"identical after the wake (export, meta, views, entropy, idempotency answer): {same} of {count}")
        print(f"INFO used_memory per match once woken: {(settled_memory(events_url) - memory[0]) / count:.0f} B")
        return same == count
    finally:
        await runtime.connections.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--archive", choices=("directory", "s3"), default="directory")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        events, events_url = start_redis(workdir)
        queue, queue_url = start_redis(tempfile.mkdtemp(dir=workdir))
        moto = None
        try:
            if args.archive == "directory":
                archive_settings: dict = {"archive_dir": str(Path(workdir) / "archive")}
            else:
                for name, value in (("AWS_ACCESS_KEY_ID", "test"), ("AWS_SECRET_ACCESS_KEY", "test"),
                                    ("AWS_DEFAULT_REGION", "us-east-1")):
                    os.environ[name] = value
                port = free_port()
                command = [shutil.which("moto_server") or "moto_server", "-H", "127.0.0.1", "-p", str(port)]
                moto = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                endpoint = f"http://127.0.0.1:{port}"
                import boto3

                for _ in range(200):
                    try:
                        boto3.client("s3", endpoint_url=endpoint).create_bucket(Bucket="tavern-archive")
                        break
                    except Exception:
                        time.sleep(0.05)
                archive_settings = {"archive_s3_bucket": "tavern-archive", "archive_s3_endpoint": endpoint}
            print(f"redis-server {redis.Redis.from_url(events_url).info('server')['redis_version']}, archive:"
                  f" {args.archive}")
            ok = asyncio.run(bench(args.matches, events_url, queue_url, archive_settings))
        finally:
            for process in (events, queue, moto):
                if process is not None:
                    process.terminate()
                    process.wait(10)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

"""What the command path and the projector cost each queue instance: calls per accepted command
(INFO commandstats' deltas, a script's own calls counted with it), at most 7 (a quarter of the
28.4 measured before the rate limits left the queue and drain jobs waited for work), with one
queue instance as with two. A count, not a time: tests/bench/bench_queue_failover.py prints it
too. The shipped settings (every limit on, the default lease); the events on a Redis of their
own, 12 matches played at once by HTTP clients through one gateway (as many on each queue
instance), 2 workers. As play starts, each instance gets a second drain job, as a sweeper queues
one in the moment a job hands over to the next at its budget's end (seen in CI: two jobs sharing
every step, 7.87 calls a command): the surplus one stands down."""

from __future__ import annotations

import asyncio

import httpx
import pytest
import redis
from rq import Queue

from services.projector.jobs import drain_job
from services.store.drain_jobs import DrainJobs
from services.store.projector_queue import instance_of
from tests.service.client import create, play_to_end
from tests.service.conftest import serve_healthy, service_env, start_redis

pytestmark = pytest.mark.anyio
MATCHES = 12
MOST_PER_COMMAND = 7


def by_command(client: redis.Redis) -> dict[str, int]:
    return {name: int(stats["calls"]) for name, stats in client.info("commandstats").items() if name != "cmdstat_info"}


def calls(client: redis.Redis) -> int:
    return sum(by_command(client).values())


def spent_since(client: redis.Redis, before: dict[str, int], accepted: int) -> dict[str, float]:
    """Each command's calls since ``before``, per accepted command (those above 0.02)."""
    now = by_command(client)
    return {name.removeprefix("cmdstat_"): round((count - before.get(name, 0)) / accepted, 2)
            for name, count in now.items() if count - before.get(name, 0) > accepted / 50}


@pytest.mark.parametrize("instances", [1, 2])
async def test_calls_per_command_on_each_queue_instance(processes, tmp_path, instances):
    for n in range(instances + 1):
        (tmp_path / f"redis-{n}").mkdir()
    servers = [start_redis(tmp_path / f"redis-{n}") for n in range(instances + 1)]
    try:
        (_, events), queues = servers[0], [redis.Redis.from_url(url) for _, url in servers[1:]]
        env = service_env(events, TAVERN_QUEUE="calls", QUEUE_URL=",".join(url for _, url in servers[1:]),
                          TAVERN_LEASE_S="5")  # the shipped lease (service_env's is short)
        base, _ = serve_healthy(processes, env)
        for _ in range(2):
            processes(["worker"], env)
        async with httpx.AsyncClient(base_url=base, timeout=30) as api:
            # as many matches on each instance (their ids' hash): 12 random ids split 3 to 9 or worse
            # about one time in seven, and the shares then were not within a third of each other
            matches: list[dict] = []
            while len(matches) < MATCHES:
                created = await create(api, seats=3)
                if sum(instance_of(m["match_id"], instances) == instance_of(created["match_id"], instances)
                       for m in matches) < MATCHES // instances:
                    matches.append(created)
            await asyncio.sleep(2)  # the creations' projections and the workers' first jobs
            for index, queue in enumerate(queues):  # the surplus job (the running one is not counted)
                DrainJobs(Queue("calls", connection=queue), drain_job, index).enqueue()
            before = [calls(queue) for queue in queues]
            named = [by_command(queue) for queue in queues]
            answers: list[dict] = []  # every accepted command's answer
            await asyncio.gather(*(play_to_end(api, created, [0, 1, 2], n, accepted=answers)
                                   for n, created in enumerate(matches)))
            accepted = len(answers)
            spent = [calls(queue) - was for queue, was in zip(queues, before, strict=True)]
        per_command = [round(count / accepted, 2) for count in spent]
        for queue, was in zip(queues, named, strict=True):
            print(spent_since(queue, was, accepted))
        print(f"{instances} queue instance(s), {accepted} commands: calls per command on each {per_command}")
        assert accepted > MATCHES * 10
        assert max(per_command) <= MOST_PER_COMMAND, per_command
        if instances == 2:  # each instance its share (6 matches each: a share within a third of the other's)
            assert min(spent) > max(spent) / 3, spent
    finally:
        for server, _ in servers:
            server.kill()
            server.wait(10)

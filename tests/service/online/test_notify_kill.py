"""A worker killed mid-delivery (a real `tavern worker`, SIGKILL while the receiver holds its POST
unanswered) does not double the notification: its attempt's lease lapses, another worker sends it
again with the same Idempotency-Key, and the delivery is recorded delivered on that second
attempt; a receiver that keeps its keys (as docs/notifications.md asks) takes it once, and
nothing is sent a third time. Whether the first request arrived is known to the receiver alone,
which is why the key, not the sender, makes it exactly once (services/commands/notifications.py)."""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest
import redis

from services.ops.settings import Settings
from tests.service.conftest import service_env
from tests.service.online.test_notifications import SECRET, settled, table, verified
from tests.service.receiver import Receiver

pytestmark = pytest.mark.anyio
LEASE_S = 1  # a delivery's lease: the killed worker's attempt is taken over after it


@pytest.fixture
def settings(redis_url) -> Settings:
    redis.Redis.from_url(redis_url).flushall()
    queue = f"test-{uuid.uuid4().hex[:8]}"
    # the receiver is on this machine: its loopback address allowed (by default only public ones are)
    return Settings(redis_url=redis_url, queue_url=None, queue_name=queue, lease_s=1.0, notify_lease_s=LEASE_S,
                    notify_networks=("127.0.0.1/32",))


@pytest.fixture
def embedded_worker() -> bool:
    return False  # the workers are the `tavern worker` processes this test starts and kills


async def test_a_worker_killed_mid_delivery_does_not_double_it(api, settings, processes, redis_url):
    receiver = Receiver(hold_first=True)
    env = service_env(redis_url, TAVERN_QUEUE=settings.queue_name, TAVERN_NOTIFY_LEASE_S=str(LEASE_S),
                      TAVERN_NOTIFY_NETWORKS="127.0.0.1/32")
    try:
        doomed = processes(["worker"], env)
        people, _ = await table(api, receiver, receiver)
        deadline = time.monotonic() + 30
        while not receiver.holding.is_set():  # the worker projected the start and POSTed a turn
            assert time.monotonic() < deadline, "no delivery reached the receiver"
            await asyncio.sleep(0.02)
        doomed.kill()
        doomed.wait(10)
        receiver.release.set()
        processes(["worker"], env)
        held = receiver.received[0]
        key = held.headers["idempotency-key"]

        def sent() -> list:
            return [got for got in receiver.received if got.headers["idempotency-key"] == key]

        while len(sent()) < 2:
            assert time.monotonic() < deadline + 30, "the killed worker's delivery was not sent again"
            await asyncio.sleep(0.05)
        again = sent()[1]
        assert again.body == held.body and verified(SECRET, again)["id"] == key
        told = people[0] if held.path == "/Ann" else people[1]
        delivery = await settled(told, key)
        assert (delivery["state"], delivery["attempts"], delivery["status"]) == ("delivered", 2, 200)
        assert key in receiver.processed  # taken once: the held request was never answered
        await asyncio.sleep(LEASE_S + 1)  # past another lease and sweep: nothing more
        assert len(sent()) == 2
    finally:
        receiver.close()

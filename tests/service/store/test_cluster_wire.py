"""ClusterWire on a real 6-node Redis Cluster: commands routed by slot and answered in order, MOVED
and ASK followed while a slot moves (a write run exactly once), scripts loaded where they run,
WAIT's acknowledgement, a node's outage answered in place (a 503), then followed, a retried
command answered 200 only once a replica holds what it reports; a match's notices followed to the
primary its slot moved to."""

from __future__ import annotations

import asyncio

import httpx
import pytest
import redis
from redis.exceptions import ConnectionError, WatchError

from services.gateway.app import create_app
from services.ops.settings import Settings
from services.store import keys
from services.store.cluster import ClusterWire, Unreplicated, parse
from services.store.cluster_client import ClusterClient, Registered
from services.store.event_store import Call, EventStore, ViewsAt, reply, run_scripts
from services.store.notices import Notices, Subscribed, Written, encode
from tests.service.client import create, seat_token, send, view
from tests.service.redis_cluster import Cluster
from tests.service.store.heard import next_heard, until_quiet

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    started = Cluster(tmp_path_factory.mktemp("cluster")).start()
    yield started
    started.stop()


@pytest.fixture
async def wire(cluster):
    link = ClusterWire.from_url(cluster.url, timeout_s=5)
    yield link
    link.close()


def test_the_url_names_nodes_and_credentials():
    assert parse("redis+cluster://u:p%40ss@h1:7000,h2:7001") == ([("h1", 7000), ("h2", 7001)], "u", "p@ss")
    assert parse("redis+cluster://h1") == ([("h1", 6379)], None, None)
    with pytest.raises(ValueError):
        parse("redis+cluster://:7000")


async def test_commands_on_many_slots_are_answered_in_order(wire, cluster):
    commands = [["SET", f"k:{{{i}}}", i] for i in range(30)] + [["GET", f"k:{{{i}}}"] for i in range(30)]
    replies = await wire.exchange(commands)
    assert replies == [b"OK"] * 30 + [str(i).encode() for i in range(30)]
    assert len({cluster.primary_of(f"k:{{{i}}}") for i in range(30)}) == 3


async def test_a_slot_moved_under_writes_runs_each_write_once(wire, cluster):
    key = "moving:{m1}"
    for other in range(10):
        await wire.exchange([["HSET", f"moving:{{m1}}:{other}", "x", 1]])  # keys for MIGRATE to carry in batches
    target = next(port for port in cluster.primaries() if port != cluster.primary_of(key))
    mover = asyncio.create_task(asyncio.to_thread(cluster.move_slot, key, target, 0.05))
    sent = 0
    while not mover.done():
        (answer,) = await wire.exchange([["INCR", key]])
        sent += 1
        assert reply(answer) == sent  # never lost, never run twice
    await mover
    assert cluster.primary_of(key) == target
    assert reply((await wire.exchange([["INCR", key]]))[0]) == sent + 1
    assert sent > 3


async def test_scripts_are_loaded_on_the_primaries_that_run_them(wire, cluster):
    for port in cluster.primaries():
        cluster.client(port).script_flush()
    script = Registered("return redis.call('INCR', KEYS[1])")
    calls = [Call(script, [f"s:{{{i}}}"], []) for i in range(12)]
    assert [reply(answer) for answer in await run_scripts(wire, calls)] == [1] * 12


async def test_a_pipeline_without_a_transaction_spans_slots(wire, cluster):
    client = ClusterClient(wire, wire)
    async with client.pipeline(transaction=False) as pipe:
        pipe.zadd("p:{a}", {"m": 1}).zadd("p:{b}", {"m": 2}, nx=True)
        pipe.hset("p:{c}", mapping={"f": "v"})
        assert await pipe.execute() == [1, 1, 1]
    assert cluster.primary_of("p:{a}") != cluster.primary_of("p:{b}")
    assert await client.zscore("p:{b}", "m") == 2.0
    assert await client.hgetall("p:{c}") == {b"f": b"v"}


async def test_a_watched_transaction_runs_only_on_what_it_read(wire):
    client, key = ClusterClient(wire, wire), "t:{1}"
    await client.hset(key, {"seat": "free"})
    async with client.pipeline() as pipe:
        await pipe.watch(key)
        assert await pipe.hgetall(key) == {b"seat": b"free"}  # at once, while watching
        pipe.multi()
        pipe.hset(key, mapping={"seat": "ann"}).hdel(key, "gone")
        assert await pipe.execute() == [0, 0]
        await pipe.watch(key)
        await client.hset(key, {"seat": "ben"})  # another process, between the read and the write
        pipe.multi()
        pipe.hset(key, mapping={"seat": "cat"})
        with pytest.raises(WatchError):
            await pipe.execute()
    assert await client.hget(key, "seat") == b"ben"


async def test_wait_asks_the_replicas(wire, cluster):
    assert await wire.acknowledged(1, 1000).exchange([["SET", "w:{1}", "a"]]) == [b"OK"]
    (answer,) = await wire.acknowledged(2, 100).exchange([["SET", "w:{1}", "b"]])
    assert isinstance(answer, Unreplicated)
    assert await wire.exchange([["GET", "w:{1}"]], reads=True) == [b"b"]  # written, not acknowledged


async def test_a_dead_primary_answers_in_place_then_its_replica_serves(wire, cluster):
    key = "dead:{1}"
    await wire.exchange([["SET", key, "kept"]])
    await asyncio.to_thread(cluster.client(cluster.primary_of(key)).execute_command, "WAIT", 1, 1000)
    victim = cluster.primary_of(key)
    cluster.kill(victim)
    (answer,) = await wire.exchange([["SET", key, "new"]])
    assert isinstance(answer, ConnectionError)
    await asyncio.to_thread(cluster.wait_promoted, victim, key)
    assert await wire.exchange([["GET", key]], reads=True) in ([b"kept"], [b"new"])
    assert await wire.exchange([["SET", key, "after"]]) == [b"OK"]
    cluster.start_node(victim)
    await asyncio.to_thread(cluster.wait_healthy)


async def test_a_retried_acceptance_is_answered_once_replicated(cluster, redis_url):
    """The WAIT hole: a primary just promoted has no replica, so a command's try is written there and
    answered 503 (Unreplicated). Its retry with the same Idempotency-Key finds the kept acceptance;
    answered 200 from it, the shard would acknowledge a write one node holds. It gets 503 until a
    replica holds the write, then 200 naming the version the first try appended."""
    redis.Redis.from_url(redis_url).flushall()
    settings = Settings(redis_url=cluster.url, queue_url=redis_url, queue_name="wait-hole", lease_s=1.0)
    application = create_app(settings, embedded_worker=True)  # a worker projects the views the seats read
    async with (
        application.router.lifespan_context(application),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=application), base_url="http://tavern") as api,
    ):
        created = await create(api, seats=3)
        seat, command = await _first_legal(api, created)
        log = keys.log(created["match_id"])
        victim = cluster.primary_of(log)
        cluster.kill(victim)
        await asyncio.to_thread(cluster.wait_promoted, victim, log)
        promoted = cluster.client(cluster.primary_of(log))
        held = await asyncio.to_thread(promoted.xlen, log)  # the opening, which the replica had
        answers = []
        for _ in range(50):  # until a try is appended (the first may meet the dead node: not written)
            answers.append((await send(api, created, seat, command, Idempotency_Key="once")).status_code)
            if await asyncio.to_thread(promoted.xlen, log) > held:
                break
        assert await asyncio.to_thread(promoted.xlen, log) > held
        for _ in range(3):  # the retries find its kept acceptance: still one node's alone
            answers.append((await send(api, created, seat, command, Idempotency_Key="once")).status_code)
        assert set(answers) == {503}, answers
        cluster.start_node(victim)  # back as the promoted primary's replica
        await asyncio.to_thread(cluster.wait_healthy)
        for _ in range(20):  # in sync, but its first acknowledgement may miss WAIT's 500 ms on a busy machine
            answer = await send(api, created, seat, command, Idempotency_Key="once")
            if answer.status_code != 503:
                break
            await asyncio.sleep(0.25)
        assert answer.status_code == 200, answer.text
        assert answer.json()["version"] == await asyncio.to_thread(promoted.xlen, log)


async def _first_legal(api: httpx.AsyncClient, created: dict) -> tuple[int, dict]:
    """A seat that may act, and what it may send, once the match's views show it."""
    for _ in range(500):
        for seat in range(len(created["seats"])):
            seen = await view(api, created, seat_token(created, seat))
            if seen["legal"]:
                return seat, seen["legal"][0]
        await asyncio.sleep(0.02)
    pytest.fail("no seat may act")


async def test_a_gateway_streaming_a_match_whose_slot_moves_follows_it_to_the_new_primary(wire, cluster):
    """A slot moved ends its shard channels' subscriptions (Redis says ``sunsubscribe``): the
    gateway's subscription takes them again on the slot's new primary and reads the views again."""
    events = ClusterClient(wire, wire)
    store = EventStore(events, 60, link=wire)
    match_id = "moves"
    written = ViewsAt(match_id, 1, {"s:0": b'{"version":1}'})
    await store.write_views([written], [encode(1, 0.0)])
    async with Notices(events).subscribed() as heard:
        heard.want(match_id)
        assert await next_heard(heard, 2.0) == [Subscribed(match_id)]
        target = next(port for port in cluster.primaries() if port != cluster.primary_of(keys.views(match_id)))
        await asyncio.to_thread(cluster.move_slot, keys.views(match_id), target)
        # subscribed again on the new primary (each node told SETSLOT may end it once more: again)
        assert Subscribed(match_id) in await next_heard(heard, 5.0)
        await store.write_views([ViewsAt(match_id, 2, {"s:0": b'{"version":2}'})], [encode(2, 0.0)])
        found = await until_quiet(heard, 1.0)
        assert found[-1] == Written(match_id, 2, 0.0) and set(found[:-1]) <= {Subscribed(match_id)}
        assert cluster.primary_of(keys.views(match_id)) == target
